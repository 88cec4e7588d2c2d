#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A straight tunnel between two points on the surface: how long it is, how deep it goes, and how
/// long a fall through it takes.
///
/// Lengths and depth are on the WGS84 ellipsoid: the length is the chord between the two points, the
/// surface distance the geodesic, and the depth the greatest distance from a point of the tunnel to the
/// nearest point of the surface. For antipodes the deepest point is the Earth's centre, 6,356.75 km
/// below the surface: the polar radius, since the poles are the surface's nearest points to the centre.
/// Falls are worked out in the ``EarthModel``s, which are spherical (6,371 km) by definition, from the
/// angle between the ends seen from the centre.
///
/// ```swift
/// let tunnel = StraightTunnel(from: skjern, to: skjern.antipode)
/// tunnel.depth                // 6,356,752 m: the centre, below both poles
/// tunnel.fallTime(.uniform)   // 2,530 s: 42 min 10 s
/// tunnel.fallTime(.prem)      // about 38 min
/// ```
public struct StraightTunnel: Sendable, Hashable {
  /// Where the tunnel starts.
  public let start: Coordinate
  /// Where it comes out.
  public let end: Coordinate

  /// A tunnel from `start` to `end`.
  public init(from start: Coordinate, to end: Coordinate) {
    self.start = start
    self.end = end
  }

  /// The length through the Earth in metres (the chord on WGS84).
  public var length: Double { Geodesic.chordLength(from: start, to: end) }

  /// The distance along the surface in metres (the geodesic on WGS84).
  ///
  /// The only measure of a tunnel that needs PROJ.
  ///
  /// - Throws: ``ProjectionError/libraryUnavailable(attempts:)`` when PROJ's library cannot be loaded.
  public var surfaceDistance: Double {
    get throws(ProjectionError) { try Geodesic.distance(from: start, to: end) }
  }

  /// The angle between the two ends seen from the centre, in radians (0…π).
  public var centralAngle: Double {
    let a = Self.unitVector(start)
    let b = Self.unitVector(end)
    let cross = SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    return atan2((cross * cross).sum().squareRoot(), (a * b).sum())
  }

  /// How close the tunnel comes to the centre, in metres (WGS84).
  public var closestApproach: Double {
    let a = Self.earthCentred(start)
    let chord = Self.earthCentred(end) - a
    let length = (chord * chord).sum()
    guard length > 0 else { return (a * a).sum().squareRoot() }
    let nearest = a + chord * max(0, min(1, -(a * chord).sum() / length))
    return (nearest * nearest).sum().squareRoot()
  }

  /// How far below the surface the deepest point is, in metres: the greatest distance from a point of the
  /// tunnel to the nearest point of the WGS84 surface. Inside the ellipsoid that distance is concave along
  /// the tunnel, so the deepest point is where it stops growing; a short tunnel's sag is worked out from the
  /// ellipsoid's equation along the chord, so its fraction of a millimetre is not lost to rounding.
  public var depth: Double {
    EllipsoidDepth.deepest(from: Self.earthCentred(start), to: Self.earthCentred(end)).depth
  }

  /// The point of the surface nearest to the deepest point; nil when two are as near: through the centre,
  /// which is as near both poles.
  public var deepestPointBelow: Coordinate? {
    EllipsoidDepth.deepest(from: Self.earthCentred(start), to: Self.earthCentred(end)).below
  }

  /// The seconds a fall from rest takes from one end to the other, without friction or air
  /// (``EarthModel/fallTime(centralAngle:)``).
  ///
  /// A tunnel whose ends are the same point has no length and no fall: it is given the limit that
  /// ever shorter tunnels approach, half the period of an orbit skimming the surface (42 min 10 s).
  public func fallTime(_ model: EarthModel) -> Double {
    model.fallTime(centralAngle: centralAngle)
  }

  private static func earthCentred(_ point: Coordinate) -> SIMD3<Double> {
    let xyz = Geodesic.earthCentred(point)
    return SIMD3(xyz.x, xyz.y, xyz.z)
  }

  private static func unitVector(_ point: Coordinate) -> SIMD3<Double> {
    let phi = point.latitude * .pi / 180
    let lambda = point.longitude * .pi / 180
    return SIMD3(cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi))
  }
}
