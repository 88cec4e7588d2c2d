#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How far a point inside the Earth lies below the WGS84 surface: the distance to the nearest point of the
/// ellipsoid, and that point. For ``StraightTunnel/depth``.
///
/// The ellipsoid is one of revolution, so the nearest point lies in the point's meridian plane, on the ellipse
/// (ρ/a)² + (z/b)² = 1. Where the point is not on an axis, the nearest point (x₀, x₁) of the first quadrant
/// satisfies x₀ = a²ρ/(t + a²), x₁ = b²z/(t + b²) for the root t of (aρ/(t + a²))² + (bz/(t + b²))² = 1
/// between −b² + bz and −b² + √(a²ρ² + b²z²), where the left side falls steadily: found by bisection to the
/// last bit. On the axes the answer is direct, with the points near the centre of the equatorial plane, which
/// lie within the ellipse's evolute, nearest to a point off the equator.
enum EllipsoidDepth {
  /// The distance in metres from an Earth-centred point (metres) to the nearest point of the WGS84 surface,
  /// and that point's geodetic latitude and longitude in degrees. At the centre the poles are equally near;
  /// the North Pole is given.
  static func nearestSurfacePoint(
    _ point: SIMD3<Double>
  ) -> (distance: Double, foot: SIMD3<Double>, latitude: Double, longitude: Double) {
    let a = WGS84.semiMajorAxis
    let b = WGS84.semiMinorAxis
    let rho = (point.x * point.x + point.y * point.y).squareRoot()
    let z = abs(point.z)
    let foot: (rho: Double, z: Double)
    if z > 0 && rho > 0 {
      var low = -b * b + b * z
      var high = -b * b + (a * a * rho * rho + b * b * z * z).squareRoot()
      for _ in 0..<200 {
        let middle = (low + high) / 2
        guard middle != low && middle != high else { break }
        let u = a * rho / (middle + a * a)
        let v = b * z / (middle + b * b)
        if u * u + v * v > 1 { low = middle } else { high = middle }
      }
      let t = (low + high) / 2
      foot = (a * a * rho / (t + a * a), b * b * z / (t + b * b))
    } else if rho == 0 {
      foot = (0, b)
    } else if rho < (a * a - b * b) / a {
      let x0 = a * a * rho / (a * a - b * b)
      foot = (x0, b * max(0, 1 - (x0 / a) * (x0 / a)).squareRoot())
    } else {
      foot = (a, 0)
    }
    let distance = ((foot.rho - rho) * (foot.rho - rho) + (foot.z - z) * (foot.z - z)).squareRoot()
    // The normal at (ρ₀, z₀) points along (ρ₀/a², z₀/b²).
    let latitude = atan2(foot.z * a * a, foot.rho * b * b) * 180 / .pi
    let longitude = rho > 0 ? atan2(point.y, point.x) : 0
    let footPoint = SIMD3(
      foot.rho * cos(longitude), foot.rho * sin(longitude), point.z < 0 ? -foot.z : foot.z)
    return (distance, footPoint, point.z < 0 ? -latitude : latitude, longitude * 180 / .pi)
  }

  /// The deepest point of the straight line between two points of the surface (Earth-centred, metres): its
  /// distance below the surface and the nearest point of the surface to it (nil where two are as near: at the
  /// centre, both poles).
  ///
  /// Inside a convex body the distance to its surface is concave along a line, so the deepest point is
  /// where it stops growing. Where the tunnel is shallow (under a metre) the points along it cannot be
  /// written finely enough for that; there the depth is the first-order distance −F/|∇F| of the
  /// ellipsoid's equation F = (x² + y²)/a² + z²/b² − 1, which along the chord is exactly −Q·s(1 − s) for
  /// Q = (dx² + dy²)/a² + dz²/b² of the chord d, free of the rounding of the points themselves.
  static func deepest(from start: SIMD3<Double>, to end: SIMD3<Double>) -> (depth: Double, below: Coordinate?)
  {
    let chord = end - start
    let a2 = WGS84.semiMajorAxis * WGS84.semiMajorAxis
    let b2 = WGS84.semiMinorAxis * WGS84.semiMinorAxis
    let q = (chord.x * chord.x + chord.y * chord.y) / a2 + chord.z * chord.z / b2
    let middle = start + chord / 2
    let gradient =
      2
      * (middle * SIMD3(1 / a2, 1 / a2, 1 / b2) * (middle * SIMD3(1 / a2, 1 / a2, 1 / b2))).sum()
      .squareRoot()
    let shallow = q / 4 / gradient
    guard shallow >= 1 else {
      let nearest = nearestSurfacePoint(middle)
      return (shallow, try? Coordinate(latitude: nearest.latitude, longitude: nearest.longitude))
    }
    // The depth grows while the way to the nearest surface point leans along the tunnel, and falls after:
    // bisect on the sign of that lean, which unlike the depth itself is not flat at the deepest point.
    var (low, high) = (0.0, 1.0)
    for _ in 0..<200 {
      let middle = (low + high) / 2
      guard middle != low && middle != high else { break }
      let point = start + chord * middle
      if ((point - nearestSurfacePoint(point).foot) * chord).sum() > 0 { low = middle } else { high = middle }
    }
    let deepest = start + chord * ((low + high) / 2)
    let nearest = nearestSurfacePoint(deepest)
    // In the equatorial plane (to a millimetre) within the evolute, about 43 km of the centre, a point north
    // and one south of the equator are as near (at the centre, the poles): no one point is above it.
    let rho = (deepest.x * deepest.x + deepest.y * deepest.y).squareRoot()
    let a = WGS84.semiMajorAxis
    guard abs(deepest.z) > 0.001 || rho >= (a * a - b2) / a else { return (nearest.distance, nil) }
    return (nearest.distance, try? Coordinate(latitude: nearest.latitude, longitude: nearest.longitude))
  }
}
