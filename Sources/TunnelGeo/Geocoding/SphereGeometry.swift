import Foundation

/// Unit vectors and great-circle distances on the sphere of mean radius.
///
/// Every nearest-something search in the geocoder compares squared chord lengths between unit vectors:
/// `|a - b|²` grows with the great-circle angle between `a` and `b`, so it orders points exactly as the
/// great-circle distance does, without a single trigonometric call.
enum SphereGeometry {
  /// The mean radius R₁ in kilometres.
  static let radiusKm = WGS84.meanRadius / 1000

  /// The unit vector `(cos φ cos λ, cos φ sin λ, sin φ)` of a coordinate.
  @inline(__always) static func unitVector(_ coordinate: Coordinate) -> SIMD3<Double> {
    unitVector(latitude: coordinate.latitude, longitude: coordinate.longitude)
  }

  /// The unit vector of a latitude and longitude in degrees.
  @inline(__always) static func unitVector(latitude: Double, longitude: Double) -> SIMD3<Double> {
    let phi = latitude * .pi / 180
    let lambda = longitude * .pi / 180
    let cosPhi = cos(phi)
    return SIMD3(cosPhi * cos(lambda), cosPhi * sin(lambda), sin(phi))
  }

  /// The coordinate of a (not necessarily normalised, non-zero) vector.
  static func coordinate(_ vector: SIMD3<Double>) -> Coordinate {
    let latitude = atan2(vector.z, (vector.x * vector.x + vector.y * vector.y).squareRoot()) * 180 / .pi
    let longitude = atan2(vector.y, vector.x) * 180 / .pi
    return Coordinate(uncheckedLatitude: min(90, max(-90, latitude)), longitude: longitude)
  }

  /// The squared chord length between two unit vectors.
  @inline(__always) static func chordSquared(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
    let d = a - b
    return d.x * d.x + d.y * d.y + d.z * d.z
  }

  /// The great-circle angle in radians for a squared chord length.
  @inline(__always) static func angle(chordSquared: Double) -> Double {
    2 * asin(min(1, chordSquared.squareRoot() / 2))
  }

  /// The squared chord length for a great-circle angle in radians (capped at π).
  @inline(__always) static func chordSquared(angle: Double) -> Double {
    let half = min(Double.pi, max(0, angle)) / 2
    let chord = 2 * sin(half)
    return chord * chord
  }

  /// The great-circle angle in radians between two unit vectors (accurate at every distance).
  @inline(__always) static func angle(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
    let cross = SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    let sine = (cross.x * cross.x + cross.y * cross.y + cross.z * cross.z).squareRoot()
    return atan2(sine, a.x * b.x + a.y * b.y + a.z * b.z)
  }

  /// The cross product.
  @inline(__always) static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
  }

  /// The point of the great-circle arc from `a` to `b` (shorter than π) closest to `p`, all unit vectors.
  ///
  /// The foot of the perpendicular from `p` to the arc's great circle when it falls inside the arc,
  /// otherwise the nearer end.
  static func closestPoint(
    on a: SIMD3<Double>, _ b: SIMD3<Double>, to p: SIMD3<Double>
  ) -> SIMD3<Double> {
    let normal = cross(a, b)
    let length = (normal * normal).sum().squareRoot()
    guard length > 1e-15 else { return chordSquared(p, a) <= chordSquared(p, b) ? a : b }
    let n = normal / length
    // Project p onto the plane of the great circle; inside the arc when it lies between a and b.
    let projected = p - (p * n).sum() * n
    let projectedLength = (projected * projected).sum().squareRoot()
    if projectedLength > 1e-15 {
      let foot = projected / projectedLength
      if (cross(a, foot) * n).sum() >= 0 && (cross(foot, b) * n).sum() >= 0 { return foot }
    }
    return chordSquared(p, a) <= chordSquared(p, b) ? a : b
  }
}
