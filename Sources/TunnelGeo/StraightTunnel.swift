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
/// The length is the chord between the two points on the WGS84 ellipsoid and the surface distance
/// the geodesic on it. Depth and falls are worked out on a sphere of the mean radius (6,371 km), as
/// ``EarthModel`` is: the deepest point lies under the middle of the great circle between the ends,
/// and for antipodes it is the Earth's centre.
///
/// ```swift
/// let tunnel = StraightTunnel(from: skjern, to: skjern.antipode)
/// tunnel.depth                // 6,371,000 m: through the centre
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

  /// How close the tunnel comes to the centre, in metres.
  public var closestApproach: Double { EarthModel.radius * cos(centralAngle / 2) }

  /// How far below the surface the deepest point is, in metres: R·(1 − cos(θ/2)), taken as
  /// 2R·sin²(θ/4) so that a short tunnel's few millimetres are not lost to rounding.
  public var depth: Double {
    let quarter = sin(centralAngle / 4)
    return 2 * EarthModel.radius * quarter * quarter
  }

  /// The point of the surface straight above the deepest point; nil when the tunnel runs through
  /// the centre, which is under every point.
  public var deepestPointBelow: Coordinate? {
    let sum = Self.unitVector(start) + Self.unitVector(end)
    let length = (sum * sum).sum().squareRoot()
    guard length > 1e-9 else { return nil }
    let middle = sum / length
    return try? Coordinate(
      latitude: asin(max(-1, min(1, middle.z))) * 180 / .pi, longitude: atan2(middle.y, middle.x) * 180 / .pi)
  }

  /// The seconds a fall from rest takes from one end to the other, without friction or air
  /// (``EarthModel/fallTime(centralAngle:)``).
  ///
  /// A tunnel whose ends are the same point has no length and no fall: it is given the limit that
  /// ever shorter tunnels approach, half the period of an orbit skimming the surface (42 min 10 s).
  public func fallTime(_ model: EarthModel) -> Double {
    model.fallTime(centralAngle: centralAngle)
  }

  private static func unitVector(_ point: Coordinate) -> SIMD3<Double> {
    let phi = point.latitude * .pi / 180
    let lambda = point.longitude * .pi / 180
    return SIMD3(cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi))
  }
}
