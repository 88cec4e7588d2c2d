internal import CPROJ

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

/// The WGS84 ellipsoid's constants.
public enum WGS84 {
  /// Equatorial radius in metres.
  public static let semiMajorAxis = 6_378_137.0
  /// Flattening.
  public static let flattening = 1 / 298.257_223_563
  /// Polar radius in metres.
  public static let semiMinorAxis = semiMajorAxis * (1 - flattening)
  /// First eccentricity squared.
  public static let eccentricitySquared = flattening * (2 - flattening)
  /// The mean radius R₁ = (2a + b) / 3 in metres, for answers on a sphere.
  public static let meanRadius = (2 * semiMajorAxis + semiMinorAxis) / 3
  /// Half a meridian in metres: the surface distance between any two antipodal points.
  public static let halfMeridian = 20_003_931.458_625_4
}

/// The shortest path along the surface between two points, on WGS84.
public struct GeodesicSolution: Sendable, Hashable {
  /// Length in metres.
  public var distance: Double
  /// Direction of travel at the start, in degrees clockwise from north.
  public var initialAzimuth: Double
  /// Direction of travel on arrival, in degrees clockwise from north.
  public var finalAzimuth: Double
}

/// Geodesics on the WGS84 ellipsoid, computed by PROJ's geodesic routines (Karney's algorithms,
/// accurate to about 15 nanometres).
///
/// These are value computations without PROJ contexts, safe from any thread. PROJ's library is loaded
/// by the first of them a process asks for; where it cannot be loaded, every one of them throws
/// ``ProjectionError/libraryUnavailable(attempts:)`` (``chordLength(from:to:)`` needs no PROJ).
public enum Geodesic {
  /// PROJ (loaded on first use) and the WGS84 ellipsoid set up in it, or why PROJ could not be loaded.
  private static let solver: Result<(library: PROJLibrary, ellipsoid: geod_geodesic), ProjectionError> =
    PROJLibrary.shared.map { library in
      var g = geod_geodesic()
      library.geodInit(&g, WGS84.semiMajorAxis, WGS84.flattening)
      return (library, g)
    }

  /// The shortest surface path between two points: its length and its azimuths at both ends.
  ///
  /// Between antipodal points the path runs over a pole and is half a meridian long.
  ///
  /// - Throws: ``ProjectionError/libraryUnavailable(attempts:)`` when PROJ's library cannot be loaded.
  /// - Complexity: O(1); about a microsecond.
  public static func inverse(
    from start: Coordinate, to end: Coordinate
  ) throws(ProjectionError) -> GeodesicSolution {
    var distance = 0.0
    var azimuth1 = 0.0
    var azimuth2 = 0.0
    let solver = try solver.get()
    withUnsafePointer(to: solver.ellipsoid) { g in
      solver.library.geodInverse(
        g, start.latitude, start.longitude, end.latitude, end.longitude, &distance, &azimuth1, &azimuth2)
    }
    return GeodesicSolution(distance: distance, initialAzimuth: azimuth1, finalAzimuth: azimuth2)
  }

  /// The surface distance in metres between two points.
  ///
  /// - Throws: ``ProjectionError/libraryUnavailable(attempts:)`` when PROJ's library cannot be loaded.
  public static func distance(from start: Coordinate, to end: Coordinate) throws(ProjectionError) -> Double {
    try inverse(from: start, to: end).distance
  }

  /// The point reached by travelling `distance` metres from `start`, setting off at `azimuth` degrees
  /// clockwise from north, and the azimuth on arrival.
  ///
  /// - Throws: ``ProjectionError/libraryUnavailable(attempts:)`` when PROJ's library cannot be loaded.
  public static func destination(
    from start: Coordinate, distance: Double, azimuth: Double
  ) throws(ProjectionError) -> (coordinate: Coordinate, finalAzimuth: Double) {
    var latitude = 0.0
    var longitude = 0.0
    var finalAzimuth = 0.0
    let solver = try solver.get()
    withUnsafePointer(to: solver.ellipsoid) { g in
      solver.library.geodDirect(
        g, start.latitude, start.longitude, azimuth, distance, &latitude, &longitude, &finalAzimuth)
    }
    let clamped = min(90, max(-90, latitude))
    return (Coordinate(uncheckedLatitude: clamped, longitude: longitude), finalAzimuth)
  }

  /// The length in metres of the straight line through the Earth between two points on the WGS84
  /// ellipsoid's surface.
  ///
  /// Between antipodes it runs through the centre: 12,756.3 km across the equator, 12,713.5 km from
  /// pole to pole (12,742 km on a sphere of mean radius).
  public static func chordLength(from start: Coordinate, to end: Coordinate) -> Double {
    let a = earthCentred(start)
    let b = earthCentred(end)
    let (dx, dy, dz) = (a.x - b.x, a.y - b.y, a.z - b.z)
    return (dx * dx + dy * dy + dz * dz).squareRoot()
  }

  /// Earth-centred, Earth-fixed cartesian coordinates in metres of a point at height zero.
  static func earthCentred(_ point: Coordinate) -> (x: Double, y: Double, z: Double) {
    let phi = point.latitude * .pi / 180
    let lambda = point.longitude * .pi / 180
    let sinPhi = sin(phi)
    let n = WGS84.semiMajorAxis / (1 - WGS84.eccentricitySquared * sinPhi * sinPhi).squareRoot()
    return (
      n * cos(phi) * cos(lambda), n * cos(phi) * sin(lambda), n * (1 - WGS84.eccentricitySquared) * sinPhi
    )
  }
}
