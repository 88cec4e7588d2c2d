import CPROJ
import Foundation
import RandomPoints
import SeededRandom
import Testing

@testable import TunnelGeo

@Suite struct ProjectionTests {
  @Test func orthographicShowsTheNearSideOnly() throws {
    let context = try ProjectionContext()
    let centre = try Coordinate(latitude: 56.55, longitude: 8.316667)
    let globe = try Projection.orthographic(centredOn: centre, in: context)
    guard case .visible(let x, let y) = globe.project(centre) else {
      Issue.record("the centre is not visible")
      return
    }
    #expect(abs(x) < 1e-6 && abs(y) < 1e-6)
    #expect(globe.project(centre.antipode) == .notVisible)
    // North of the centre is up, east is right.
    if case .visible(let x, let y) = globe.project(try Coordinate(latitude: 60, longitude: 8.316667)) {
      #expect(abs(x) < 1e-6 && y > 300_000)
    } else {
      Issue.record("a point 3.45° north is not visible")
    }
    if case .visible(let x, _) = globe.project(try Coordinate(latitude: 56.55, longitude: 12)) {
      #expect(x > 200_000)
    }
    // Far-side points leave no captured error behind and nothing printed.
    #expect(context.messages.allSatisfy { !$0.isEmpty })
  }

  @Test func sphericalAzimuthalEquidistantKeepsGreatCircleDistances() throws {
    let context = try ProjectionContext()
    var generator = SplitMix64(seed: 23)
    for _ in 0..<20 {
      let centre = Coordinate.random(using: &generator)
      let map = try Projection.azimuthalEquidistant(centredOn: centre, in: context, onSphere: true)
      for _ in 0..<20 {
        let point = Coordinate.random(using: &generator)
        guard case .visible(let x, let y) = map.project(point) else {
          Issue.record("spherical azimuthal equidistant lost \(point)")
          continue
        }
        // The radius is the great-circle distance on the mean sphere, within 0.5 % of the geodesic.
        let radius = (x * x + y * y).squareRoot()
        let geodesic = try Geodesic.distance(from: centre, to: point)
        if geodesic < 19_000_000 {
          #expect(abs(radius - geodesic) <= 0.005 * geodesic + 1, "\(centre) → \(point)")
        }
        let back = try #require(map.unproject(x: x, y: y))
        #expect(try Geodesic.distance(from: back, to: point) < 0.01)
      }
    }
  }

  @Test func projectAndUnprojectAgree() throws {
    let context = try ProjectionContext()
    var generator = SplitMix64(seed: 11)
    for _ in 0..<50 {
      let centre = Coordinate.random(using: &generator)
      let globe = try Projection.orthographic(centredOn: centre, in: context)
      let distances = try Projection.azimuthalEquidistant(centredOn: centre, in: context)
      for _ in 0..<50 {
        let point = Coordinate.random(using: &generator)
        if case .visible(let x, let y) = globe.project(point) {
          let back = try #require(globe.unproject(x: x, y: y))
          #expect(try Geodesic.distance(from: back, to: point) < 0.01)
        }
        guard case .visible(let x, let y) = distances.project(point) else {
          Issue.record("azimuthal equidistant lost \(point)")
          continue
        }
        // Azimuthal equidistant keeps the distance from the centre true (to PROJ's series accuracy).
        let radius = (x * x + y * y).squareRoot()
        let distance = try Geodesic.distance(from: centre, to: point)
        if distance < 19_000_000 {
          #expect(abs(radius - distance) < 1, "\(centre) → \(point)")
        }
      }
    }
    let globe = try Projection.orthographic(centredOn: try Coordinate(latitude: 0, longitude: 0), in: context)
    #expect(globe.unproject(x: 7_000_000, y: 7_000_000) == nil)
  }

  @Test func refusedDefinitionsBecomeTypedErrorsWithProjsMessage() throws {
    let context = try ProjectionContext()
    do {
      _ = try Projection(definition: "+proj=nosuchprojection +ellps=WGS84", in: context)
      Issue.record("PROJ accepted an unknown projection")
    } catch {
      guard case .failed(let operation, let code, let message) = error else {
        Issue.record("not PROJ's refusal: \(error)")
        return
      }
      #expect(operation.contains("+proj=nosuchprojection"))
      #expect(code != 0)
      #expect(message.lowercased().contains("unknown projection"), "\(message)")
      #expect(error.description.hasPrefix("PROJ failed creating"))
    }
  }

  /// Straight through PROJ's C API: an error PROJ would print to standard error lands in the context's
  /// captured messages, and standard error stays empty.
  @Test func rawCAPIErrorsAreCapturedNotPrinted() throws {
    let context = try ProjectionContext()
    let printed = try capturingStandardError {
      let object = proj_create(context.handle, "+proj=pipeline +step +proj=nosuchthing")
      #expect(object == nil)
      let ortho = proj_create(context.handle, "+proj=ortho +lat_0=100")
      #expect(ortho == nil)
    }
    // The other suites run meanwhile, and the test runner's lines about them can land in the capture: only
    // lines that PROJ would print about these two objects count.
    let fromPROJ = printed.split(separator: "\n").filter { line in
      ["proj_", "nosuchthing", "lat_0"].contains { line.contains($0) }
    }
    #expect(fromPROJ.isEmpty, "PROJ printed: \(fromPROJ)")
    #expect(!context.messages.isEmpty)
    #expect(
      context.messages.contains { $0.contains("lat_0") || $0.lowercased().contains("invalid") },
      "\(context.messages)")
    #expect(proj_context_errno(context.handle) != 0)
  }

  /// Runs `body` with file descriptor 2 pointed at a temporary file and returns what was written there.
  private func capturingStandardError(_ body: () throws -> Void) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tunnel-stderr-\(UUID().uuidString)"
    ).path
    let file = open(path, O_CREAT | O_TRUNC | O_RDWR, 0o600)
    #expect(file >= 0)
    defer {
      close(file)
      unlink(path)
    }
    fflush(nil)
    let saved = dup(2)
    dup2(file, 2)
    defer {
      fflush(nil)
      dup2(saved, 2)
      close(saved)
    }
    try body()
    fflush(nil)
    return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
  }
}
