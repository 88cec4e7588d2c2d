import CPROJ
import Foundation
import TunnelGeo

/// PROJ's geodesic and projection throughput through TunnelGeo (`Geodesic`, `Projection`) against the same
/// PROJ calls made directly, on the same points: the wrapper's overhead, in nanoseconds per call.
func benchmarkPROJOverhead(count: Int = 1_000_000) throws {
  var generator = SystemRandomNumberGenerator()
  let points = try (0..<count).map { _ in
    try Coordinate(
      latitude: Double.random(in: -89...89, using: &generator),
      longitude: Double.random(in: -180..<180, using: &generator))
  }
  let origin = try Coordinate(latitude: 56, longitude: 8.5)
  func perCall(_ body: () throws -> Double) rethrows -> (nanoseconds: Double, sum: Double) {
    var best = Double.infinity
    var sum = 0.0
    for _ in 0..<3 {
      var total = 0.0
      let elapsed = try milliseconds { total = try body() }
      best = min(best, elapsed * 1e6 / Double(count))
      sum = total
    }
    return (best, sum)
  }

  var geodesic = geod_geodesic()
  geod_init(&geodesic, WGS84.semiMajorAxis, WGS84.flattening)
  let direct = perCall {
    var total = 0.0
    for point in points {
      var distance = 0.0
      var azimuth1 = 0.0
      var azimuth2 = 0.0
      geod_inverse(
        &geodesic, origin.latitude, origin.longitude, point.latitude, point.longitude, &distance, &azimuth1,
        &azimuth2)
      total += distance
    }
    return total
  }
  let wrapped = try perCall { try points.reduce(0) { $0 + (try Geodesic.distance(from: origin, to: $1)) } }
  guard abs(direct.sum - wrapped.sum) <= 1e-6 * abs(direct.sum) else {
    print("geodesic sums differ: \(direct.sum) and \(wrapped.sum)")
    exit(1)
  }
  print(
    String(
      format: "geodesic inverse, %d points: PROJ directly %.0f ns, through TunnelGeo %.0f ns (%.2f×)", count,
      direct.nanoseconds, wrapped.nanoseconds, wrapped.nanoseconds / direct.nanoseconds))

  let context = try ProjectionContext()
  let projection = try Projection.azimuthalEquidistant(centredOn: origin, in: context)
  guard let raw = proj_create(nil, projection.definition) else {
    print("PROJ refused \(projection.definition)")
    exit(1)
  }
  defer { proj_destroy(raw) }
  let directProjection = perCall {
    var total = 0.0
    for point in points {
      var input = PJ_COORD()
      input.v = (point.longitude, point.latitude, 0, 0)
      let output = proj_trans(raw, PJ_FWD, input)
      if output.xy.x.isFinite { total += output.xy.x }
    }
    return total
  }
  let wrappedProjection = perCall {
    points.reduce(0) { total, point in
      if case .visible(let x, _) = projection.project(point) { return total + x }
      return total
    }
  }
  print(
    String(
      format:
        "azimuthal equidistant projection, %d points: PROJ directly %.0f ns, through TunnelGeo %.0f ns (%.2f×)",
      count, directProjection.nanoseconds, wrappedProjection.nanoseconds,
      wrappedProjection.nanoseconds / directProjection.nanoseconds))
}
