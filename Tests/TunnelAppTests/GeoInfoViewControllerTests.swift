import Foundation
import Testing
import TunnelApp
import TunnelContainment
import TunnelGeo

/// A geocoder whose answers the test releases one by one, in any order.
final class HeldGeocoder: @unchecked Sendable {
  private let lock = NSLock()
  private var waiting: [(Coordinate, CheckedContinuation<Placemark?, any Error>)] = []
  private(set) var asked: [Coordinate] = []

  var geocoder: GeoInfoViewController.Geocoder {
    { coordinate in
      try await withCheckedThrowingContinuation { continuation in
        self.lock.withLock {
          self.asked.append(coordinate)
          self.waiting.append((coordinate, continuation))
        }
      }
    }
  }

  /// Waits until `count` questions have arrived.
  func waitForQuestions(_ count: Int) async {
    while lock.withLock({ waiting.count }) < count { await Task.yield() }
  }

  /// Answers the question about `coordinate`.
  func answer(_ coordinate: Coordinate, with result: Result<Placemark?, any Error>) {
    let continuation = lock.withLock { () -> CheckedContinuation<Placemark?, any Error>? in
      guard let index = waiting.firstIndex(where: { $0.0 == coordinate }) else { return nil }
      return waiting.remove(at: index).1
    }
    continuation?.resume(with: result)
  }
}

struct GeocodingFailed: Error, CustomStringConvertible {
  var description: String { "the place data could not be read" }
}

@MainActor
@Suite("The geo info controller")
struct GeoInfoViewControllerTests {
  let skjern = coordinate(55.95, 8.5)

  @Test("Shows Thinking… at once, then the place in words, with the local time and the coordinates")
  func showsThePlacemark() async throws {
    let info = GeoInfoViewController(annotation: .digger, geocoder: Shared.geocoder)
    info.now = { Date(timeIntervalSince1970: 1_790_000_000) }  // 2026-09-21 14:13:20 UTC
    info.view.frame = Rect(x: 0, y: 0, width: 70, height: 14)
    info.location = skjern
    #expect(info.state == .thinking)
    #expect(info.lines.contains("Thinking…"))
    await info.geocoding?.value
    guard case .found(let placemark) = info.state else {
      Issue.record("expected a placemark, got \(info.state)")
      return
    }
    #expect(placemark.country?.code == "DK")
    #expect(
      info.lines == [
        "Where you dig", "Skjern, Midtjylland, Denmark", "Nearest place: Skjern, 0.0 km away",
        "Europe/Copenhagen, 16:13 local time (UTC+02:00)",
        "Straight through: 12,727 km, a fall of 38 min 11 s",
        "55.95000, 8.50000   55°57′00″N 8°30′00″E",
      ])
    let window = Window(size: Size(width: 70, height: 14))
    window.rootViewController = info
    window.makeKeyAndVisible()
    #expect(window.render().plainText().contains("Skjern, Midtjylland, Denmark"))
  }

  @Test("In an ASCII window the words are ASCII: no ellipsis, primes or minus signs")
  func asciiWindow() async throws {
    let info = GeoInfoViewController(annotation: .target, geocoder: Shared.geocoder)
    let window = Window(size: Size(width: 80, height: 14))
    window.charset = .ascii
    window.rootViewController = info
    window.makeKeyAndVisible()
    info.location = coordinate(55.95, 8.5).antipode
    #expect(window.render().plainText(charset: .ascii).contains("Thinking..."))
    await info.geocoding?.value
    let text = window.render().plainText(charset: .ascii)
    #expect(text.unicodeScalars.allSatisfy { $0.isASCII }, "\(text)")
    #expect(text.contains("UTC-11:00") && text.contains("-55.95000, -171.50000"))
  }

  @Test("At sea: the sea, the nearest land with its distance, the ocean time zone")
  func atSea() async {
    let info = GeoInfoViewController(annotation: .target, geocoder: Shared.geocoder)
    info.now = { Date(timeIntervalSince1970: 1_790_000_000) }
    info.location = skjern.antipode
    await info.geocoding?.value
    #expect(info.lines[1] == "South Pacific Ocean, 948.7 km from Antipodes Island (New Zealand)")
    // The same word as on land, with the country, since the nearest place may be in another one.
    #expect(info.lines[2] == "Nearest place: Waitangi, NZ, 1,381 km away")
    #expect(info.lines[3] == "Etc/GMT+11, 03:13 local time (UTC−11:00)")
  }

  @Test("Re-geocodes only when the location moved more than 100 m")
  func onlyAfterAHundredMetres() async throws {
    let held = HeldGeocoder()
    let info = GeoInfoViewController(annotation: .digger, geocoder: held.geocoder)
    info.location = skjern
    await held.waitForQuestions(1)
    let near = try Geodesic.destination(from: skjern, distance: 99, azimuth: 45).coordinate
    let far = try Geodesic.destination(from: skjern, distance: 101, azimuth: 45).coordinate
    info.location = near
    #expect(held.asked == [skjern])
    info.location = far
    await held.waitForQuestions(2)
    #expect(held.asked == [skjern, far])
    held.answer(skjern, with: .success(nil))
    held.answer(far, with: .success(nil))
    await info.geocoding?.value
  }

  @Test("A late answer for an old location never overwrites the newer one")
  func staleAnswersAreDropped() async throws {
    let held = HeldGeocoder()
    let info = GeoInfoViewController(annotation: .digger, geocoder: held.geocoder)
    let first = coordinate(10, 10)
    let second = coordinate(20, 20)
    info.location = first
    let firstTask = info.geocoding
    info.location = second
    await held.waitForQuestions(2)
    let newer = try await Shared.reverseGeocoder.placemark(for: second)
    let older = try await Shared.reverseGeocoder.placemark(for: first)
    held.answer(second, with: .success(newer))
    await info.geocoding?.value
    #expect(info.state == .found(newer))
    held.answer(first, with: .success(older))
    await firstTask?.value
    #expect(info.state == .found(newer))
    #expect(info.geocodedLocation == second)
  }

  @Test("Errors and empty answers are said plainly, not left on Thinking…")
  func errorsAndNothing() async {
    let failing = GeoInfoViewController(annotation: .digger) { _ in throw GeocodingFailed() }
    failing.location = skjern
    await failing.geocoding?.value
    #expect(failing.state == .failed("the place data could not be read"))
    #expect(failing.lines[1] == "Could not look this place up: the place data could not be read")
    // After a failure the same place is tried again.
    let first = failing.geocoding
    failing.location = skjern
    #expect(failing.state == .thinking && failing.geocoding != first)
    await failing.geocoding?.value
    let empty = GeoInfoViewController(annotation: .target) { _ in nil }
    empty.location = skjern
    await empty.geocoding?.value
    #expect(empty.state == .nothing)
    #expect(empty.lines[1] == "Nothing is known about this place.")
  }

  @Test("In the Tunnel, the radar gives both geo controllers their map's location and both answer")
  func radarGeocodesBothEnds() async {
    let (tunnel, window) = visibleTunnel()
    tunnel.radar()
    window.clock.runUntilIdle()
    await tunnel.startInfo.geocoding?.value
    await tunnel.targetInfo.geocoding?.value
    let text = window.render().plainText()
    let rows = text.split(separator: "\n", omittingEmptySubsequences: false)
    let denmark = rows.firstIndex { $0.contains("Denmark") }
    let pacific = rows.firstIndex { $0.contains("South Pacific Ocean") }
    #expect(denmark != nil && pacific != nil)
    #expect((denmark ?? 99) < tunnel.topContainer.frame.maxY)
    #expect((pacific ?? 0) >= tunnel.bottomContainer.frame.minY)
  }
}
