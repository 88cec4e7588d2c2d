import TunnelContainment
import TunnelGeo
import TunnelMaps
import TunnelReports
import TunnelSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Says in words where a location is: the back of a map, shown by the radar flip.
///
/// Setting ``location`` reverse-geocodes it off the main actor, showing "Thinking…" meanwhile,
/// unless it is within 100 m of the location last geocoded. The answer shows the place, region
/// and country (or the sea and the nearest land with its distance), the time zone with the local
/// time there, and the coordinates. A failure is shown as what went wrong, and an answer that
/// arrives for a location that has since been replaced is dropped.
///
///     let info = GeoInfoViewController(
///       annotation: .digger, geocoder: GeoInfoViewController.geocoder(using: reverseGeocoder))
///     info.location = map.location
///     await info.geocoding?.value  // the placemark is shown
@MainActor
public final class GeoInfoViewController: ViewController {
  /// Finds the placemark of a coordinate; nil when there is nothing to say about it.
  public typealias Geocoder = @Sendable (Coordinate) async throws -> Placemark?

  /// What the view shows.
  public enum State: Sendable, Equatable {
    /// No location yet.
    case empty
    /// Geocoding the location.
    case thinking
    /// The placemark of the location.
    case found(Placemark)
    /// The geocoder had nothing to say about the location.
    case nothing
    /// The geocoder failed; the text says why.
    case failed(String)
  }

  /// Locations closer than this to the one last geocoded (in metres) are not geocoded again.
  public static let regeocodingDistance = 100.0

  /// Which end of the tunnel this is.
  public let annotation: MapAnnotation
  /// What the view shows now.
  public private(set) var state: State = .empty
  /// The location whose placemark is shown or being looked up.
  public private(set) var geocodedLocation: Coordinate?
  /// The lookup under way, if any; await its value to wait for the answer.
  public private(set) var geocoding: Task<Void, Never>?
  /// The moment the local time is shown for; the current time unless a caller fixes it.
  public var now: @Sendable () -> Date = { Date() }

  private let geocoder: Geocoder
  /// Counts lookups, so that an answer for an older one is recognised and dropped.
  private var generation = 0

  /// Creates a geo info controller that looks placemarks up with `geocoder`.
  public init(annotation: MapAnnotation, geocoder: @escaping Geocoder) {
    self.annotation = annotation
    self.geocoder = geocoder
    super.init()
  }

  /// The location to describe; set it to look it up (if it moved more than 100 m).
  public var location: Coordinate? {
    didSet {
      guard let location else {
        generation += 1
        geocodedLocation = nil
        state = .empty
        return
      }
      // Without PROJ's library to measure the move, every move is looked up.
      if let geocodedLocation, state != .empty, !state.isFailure,
        let moved = try? Geodesic.distance(from: geocodedLocation, to: location),
        moved <= Self.regeocodingDistance
      {
        return
      }
      geocode(location)
    }
  }

  private func geocode(_ location: Coordinate) {
    generation += 1
    let current = generation
    geocodedLocation = location
    state = .thinking
    let geocoder = self.geocoder
    geocoding = Task { [weak self] in
      let result: State
      do {
        result = try await geocoder(location).map(State.found) ?? .nothing
      } catch {
        result = .failed(String(describing: error))
      }
      guard let self, self.generation == current else { return }
      self.state = result
    }
  }

  override public func loadView() {
    let label = CharsetLabel()
    label.autoresizingMask = .flexibleSize
    label.centersVertically = true
    label.alignment = .center
    label.style = Style(foreground: .brightWhite, background: .palette(236))
    label.backgroundColor = .palette(236)
    label.content = { [weak label, weak self] charset in
      guard let self else { return "" }
      let lines = self.lines(for: charset)
      // A blank line between lines where there is room for them, else none.
      let spaced = 2 * lines.count - 1 <= (label?.bounds.height ?? 0)
      return lines.joined(separator: spaced ? "\n\n" : "\n")
    }
    view = label
  }

  /// The lines the view shows for the current state.
  public var lines: [String] { lines(for: .unicode) }

  /// The lines the view shows for the current state; coordinates in degrees, minutes and seconds
  /// only where the characters for them can be shown.
  public func lines(for charset: Charset) -> [String] {
    var lines = [annotation.heading]
    switch state {
    case .empty:
      lines.append("No location yet.")
    case .thinking:
      lines.append("Thinking…")
    case .nothing:
      lines.append("Nothing is known about this place.")
    case .failed(let reason):
      lines.append("Could not look this place up: \(reason)")
    case .found(let placemark):
      lines.append(PlacemarkText.headline(placemark))
      // One label on both sides: the country code where the place may lie in another country (at sea).
      let place = placemark.nearestPlace
      let country = placemark.land || placemark.inLake ? "" : ", \(place.countryCode)"
      lines.append(
        "Nearest place: \(place.name)\(country), \(PlacemarkText.kilometres(place.distanceKm)) away")
      lines.append(Self.timeLine(placemark.timeZone.identifier, at: now()))
      if let geocodedLocation { lines.append(Self.tunnelLine(from: geocodedLocation)) }
    }
    if let geocodedLocation {
      let decimal = geocodedLocation.formatted(.decimal(places: 5))
      lines.append(
        charset == .ascii ? decimal : decimal + "   " + geocodedLocation.formatted(.dms(secondsPlaces: 0)))
    }
    return lines
  }

  /// "Straight through: 12,735 km, a fall of 38 min 11 s": the tunnel from a location to its antipode, and
  /// how long falling through it takes with PREM's densities.
  static func tunnelLine(from location: Coordinate) -> String {
    let tunnel = StraightTunnel(from: location, to: location.antipode)
    let kilometres = PlaceText.grouped(Int((tunnel.length / 1000).rounded()))
    return "Straight through: \(kilometres) km, a fall of \(TunnelFacts.duration(tunnel.fallTime(.prem)))"
  }

  /// "Europe/Copenhagen, 18:42 local time (UTC+01:00)"; the zone alone when the system's time zone
  /// database has no rules for it.
  static func timeLine(_ identifier: String, at date: Date) -> String {
    guard let zone = TimeZoneRules(identifier: identifier) else { return "Time zone \(identifier)" }
    let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
    let offset = zone.secondsFromGMT(at: seconds)
    // Seconds since local midnight.
    let local = ((Int(seconds) + offset) % 86400 + 86400) % 86400
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let sign = offset < 0 ? "−" : "+"
    let utc = "UTC\(sign)\(two(abs(offset) / 3600)):\(two(abs(offset) % 3600 / 60))"
    return "\(identifier), \(two(local / 3600)):\(two(local % 3600 / 60)) local time (\(utc))"
  }
}

extension GeoInfoViewController.State {
  /// Whether the lookup failed (and so is tried again, however near the next location is).
  var isFailure: Bool {
    if case .failed = self { return true }
    return false
  }
}

extension GeoInfoViewController {
  /// A geocoder that asks a `ReverseGeocoder` on a background task.
  public static func geocoder(using reverseGeocoder: ReverseGeocoder) -> Geocoder {
    { coordinate in
      try await Task.detached(priority: .userInitiated) { try reverseGeocoder.placemark(for: coordinate) }
        .value
    }
  }
}
