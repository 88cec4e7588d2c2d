import Foundation
import RandomPoints
import SeededRandom
import Testing

@testable import TunnelGeo

@Suite struct GeodesicTests {
  @Test func everyAntipodalPairIsHalfAMeridianApart() throws {
    var generator = SplitMix64(seed: 1)
    for _ in 0..<5_000 {
      let point = Coordinate.random(using: &generator)
      let distance = try Geodesic.distance(from: point, to: point.antipode)
      #expect(abs(distance - 20_003_931.46) < 0.005, "\(point): \(distance)")
    }
    #expect(abs(WGS84.halfMeridian - 20_003_931.4586) < 0.0001)
  }

  @Test func knownDistances() throws {
    // One degree of longitude along the equator: a · π / 180.
    let oneDegree = try Geodesic.inverse(
      from: try Coordinate(latitude: 0, longitude: 0), to: try Coordinate(latitude: 0, longitude: 1))
    #expect(abs(oneDegree.distance - 111_319.490_793_273_57) < 1e-6)
    #expect(abs(oneDegree.initialAzimuth - 90) < 1e-9)
    // A quarter meridian, equator to pole.
    let quarter = try Geodesic.distance(
      from: try Coordinate(latitude: 0, longitude: 10), to: try Coordinate(latitude: 90, longitude: 10))
    #expect(abs(quarter - 10_001_965.729_3) < 0.001)
  }

  @Test func destinationInvertsInverse() throws {
    var generator = SplitMix64(seed: 7)
    for _ in 0..<2_000 {
      let start = Coordinate.random(using: &generator)
      let end = Coordinate.random(using: &generator)
      let solution = try Geodesic.inverse(from: start, to: end)
      let reached = try Geodesic.destination(
        from: start, distance: solution.distance, azimuth: solution.initialAzimuth)
      #expect(try Geodesic.distance(from: reached.coordinate, to: end) < 1e-6)
    }
  }

  /// Distance is a metric on the ellipsoid, and the straight tunnel is never longer than the surface path.
  @Test func distanceInvariants() throws {
    var generator = SplitMix64(seed: 11)
    for _ in 0..<2_000 {
      let (a, b, c) = (
        Coordinate.random(using: &generator), Coordinate.random(using: &generator),
        Coordinate.random(using: &generator)
      )
      let ab = try Geodesic.distance(from: a, to: b)
      #expect(try Geodesic.distance(from: a, to: a) == 0)
      #expect(try abs(ab - Geodesic.distance(from: b, to: a)) < 1e-6, "\(a) \(b)")
      #expect(try ab <= Geodesic.distance(from: a, to: c) + Geodesic.distance(from: c, to: b) + 1e-6)
      #expect(ab <= WGS84.halfMeridian + 1e-6)
      #expect(Geodesic.chordLength(from: a, to: b) <= ab + 1e-6)
      // Taking both antipodes is a symmetry of the ellipsoid: it keeps every distance.
      #expect(try abs(Geodesic.distance(from: a.antipode, to: b.antipode) - ab) < 1e-6)
    }
  }

  @Test func chordThroughTheCentre() throws {
    let equator = try Coordinate(latitude: 0, longitude: 8.5)
    #expect(abs(Geodesic.chordLength(from: equator, to: equator.antipode) - 2 * WGS84.semiMajorAxis) < 1e-6)
    let pole = try Coordinate(latitude: 90, longitude: 0)
    #expect(abs(Geodesic.chordLength(from: pole, to: pole.antipode) - 2 * WGS84.semiMinorAxis) < 1e-6)
    #expect(abs(2 * WGS84.semiMinorAxis - 12_713_504.6) < 0.1)
    // Any antipodal chord lies between the polar and equatorial diameters and passes the centre.
    var generator = SplitMix64(seed: 3)
    for _ in 0..<1_000 {
      let point = Coordinate.random(using: &generator)
      let chord = Geodesic.chordLength(from: point, to: point.antipode)
      #expect(chord >= 2 * WGS84.semiMinorAxis - 1e-6 && chord <= 2 * WGS84.semiMajorAxis + 1e-6)
      let centre = Geodesic.earthCentred(point)
      let squared: Double = centre.x * centre.x + centre.y * centre.y + centre.z * centre.z
      #expect(abs(chord - 2 * squared.squareRoot()) < 1e-6)
    }
    #expect(Geodesic.chordLength(from: equator, to: equator) == 0)
  }
}
