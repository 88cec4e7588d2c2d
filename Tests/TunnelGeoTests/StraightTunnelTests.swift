import Foundation
import Testing

@testable import TunnelGeo

@Suite struct StraightTunnelTests {
  @Test("PREM's shells add up to the Earth's mass, and its surface gravity is the Earth's")
  func premMass() {
    let mass = EarthModel.prem.mass(withinRadius: EarthModel.radius)
    let earth = EarthModel.wgs84GM / EarthModel.gravitationalConstant
    #expect(abs(mass / earth - 1) < 0.001, "\(mass) kg against \(earth) kg")
    #expect(abs(EarthModel.prem.gravity(atRadius: EarthModel.radius) - 9.82) < 0.01)
    // The core is dense: a third of the mass in a sixth of the volume.
    let core = EarthModel.prem.mass(withinRadius: 3_480_000) / mass
    #expect(core > 0.32 && core < 0.33)
    // The density rises going down, shell by shell, except the crust's and ocean's order.
    #expect(
      EarthModel.prem.density(atRadius: 0) > 13_000 && EarthModel.prem.density(atRadius: 6_370_000) == 1_020)
  }

  /// Two points on the equator whose chord on the model's sphere is `metres` long.
  static func equatorial(chord metres: Double) throws -> StraightTunnel {
    let angle = 2 * asin(metres / 2 / EarthModel.radius) * 180 / .pi
    return StraightTunnel(
      from: try Coordinate(latitude: 0, longitude: 0), to: try Coordinate(latitude: 0, longitude: angle))
  }

  /// Chords from none to the diameter, in metres: below 10 cm the old formula gave 0 s, at 1.1 m
  /// 2,341 s and at 111 m 2,528 s.
  static let chords: [Double] = [
    0, 1e-6, 1e-3, 0.05, 0.1, 1.1, 111, 1_000, 100_000, 1_000_000, 6_371_000, 12_000_000,
    2 * EarthModel.radius,
  ]

  @Test("On a uniform Earth every tunnel takes π·√(R³/GM), 42 min 10 s, however short", arguments: chords)
  func uniformFall(chord: Double) throws {
    let expected = Double.pi * (pow(EarthModel.radius, 3) / EarthModel.wgs84GM).squareRoot()
    #expect(abs(expected / 60 - 42.18) < 0.01)
    let time = try Self.equatorial(chord: chord).fallTime(.uniform)
    #expect(abs(time / expected - 1) < 1e-12, "\(chord) m: \(time) s")
  }

  @Test("A tunnel shorter than any shell of PREM falls in π·√(R/g(R)), half a surface-skimming orbit")
  func premShortFall() throws {
    let gravity = EarthModel.prem.gravity(atRadius: EarthModel.radius)
    let limit = Double.pi * (EarthModel.radius / gravity).squareRoot()
    // The same limit for both models: their surface gravity agrees to 0.1 %.
    let uniform = Double.pi * (pow(EarthModel.radius, 3) / EarthModel.wgs84GM).squareRoot()
    #expect(abs(limit / uniform - 1) < 0.001)
    let point = try Coordinate(latitude: 55.95, longitude: 8.5)
    #expect(abs(StraightTunnel(from: point, to: point).fallTime(.prem) / limit - 1) < 1e-15)
    // From 0 to 10 m the time differs from the limit by (h/R)² times a number of order one.
    for chord in [0.0, 1e-6, 1e-3, 0.05, 1.1, 10] {
      let time = try Self.equatorial(chord: chord).fallTime(.prem)
      #expect(abs(time / limit - 1) < 1e-12, "\(chord) m: \(time) s")
    }
  }

  /// Fall times through PREM by an independent computation: the integral over the tunnel,
  /// T = 2 ∫ ds / √(2E(r)) from the middle to an end, with E(r) = ∫ G·M(ρ)/ρ² dρ from r to the
  /// surface and M the exact mass of PREM's polynomial shells, by mpmath's tanh-sinh quadrature at 50
  /// digits, split at the shells.
  static let premReference: [(chord: Double, seconds: Double)] = [
    (2 * EarthModel.radius, 2_290.651_159_992_172),  // through the centre: 38 min 11 s
    (EarthModel.radius * 2.0.squareRoot(), 2_427.111_992_930_775),  // a quarter of the way round
    (1_000_000, 2_528.315_240_018_768),
    (111, 2_530.205_108_823_049),
    (1.1, 2_530.205_108_852_389),
  ]

  @Test("PREM's fall times agree with an independent 50-digit integration, from 1 m to the diameter")
  func premFall() throws {
    for (chord, seconds) in Self.premReference {
      let time = try Self.equatorial(chord: chord).fallTime(.prem)
      #expect(abs(time / seconds - 1) < 1e-10, "\(chord) m: \(time) s against \(seconds) s")
    }
    // The same through the centre from anywhere.
    let skjern = try Coordinate(latitude: 55.95, longitude: 8.5)
    let through = StraightTunnel(from: skjern, to: skjern.antipode).fallTime(.prem)
    #expect(abs(through / Self.premReference[0].seconds - 1) < 1e-10, "\(through) s")
  }

  @Test("Depth below the WGS84 surface, and the surface point nearest the deepest point")
  func depth() throws {
    let skjern = try Coordinate(latitude: 55.95, longitude: 8.5)
    let antipodal = StraightTunnel(from: skjern, to: skjern.antipode)
    // The centre is nearest the poles: the polar radius below them.
    #expect(abs(antipodal.depth - WGS84.semiMinorAxis) < 1e-3)
    #expect(antipodal.deepestPointBelow == nil)
    #expect(abs(antipodal.length / 1000 - 12_726.99) < 0.01)
    // A short tunnel's sag, h²/2N for a half chord h and the equator's radius of curvature N = a, not lost
    // to rounding.
    let short = try Self.equatorial(chord: 0.2)
    let half = short.length / 2
    #expect(abs(short.depth / (half * half / (2 * WGS84.semiMajorAxis)) - 1) < 1e-6)
    // In the equatorial plane the surface is a circle of radius a.
    let quarter = StraightTunnel(
      from: try Coordinate(latitude: 0, longitude: 0), to: try Coordinate(latitude: 0, longitude: 90))
    #expect(abs(quarter.depth - WGS84.semiMajorAxis * (1 - 0.5.squareRoot())) < 1e-3)
    let below = try #require(quarter.deepestPointBelow)
    #expect(abs(below.latitude) < 1e-9 && abs(below.longitude - 45) < 1e-9)
    // Elsewhere, against a search of the surface: along the tunnel, the nearest of surface points every 0.1°
    // of latitude in each point's meridian, refined to 10⁻⁷°. The depth is flat at its deepest, so the
    // search places that point to a few hundred metres.
    for (from, to) in [
      ((10.0, 30.0), (50.0, 30.0)), ((51.5, -0.13), (40.71, -74.0)), ((-33.9, 18.4), (35.7, 139.7)),
    ] {
      let tunnel = StraightTunnel(
        from: try Coordinate(latitude: from.0, longitude: from.1),
        to: try Coordinate(latitude: to.0, longitude: to.1))
      let searched = Self.searchedDeepest(tunnel)
      #expect(
        abs(tunnel.depth - searched.depth) < 1,
        "\(from) to \(to): \(tunnel.depth) m, searched \(searched.depth) m")
      let point = try #require(tunnel.deepestPointBelow)
      #expect(
        abs(point.latitude - searched.latitude) < 5e-3 && abs(point.longitude - searched.longitude) < 5e-3,
        "\(point) against \(searched)")
    }
  }

  /// The deepest point of a tunnel found by searching: the surface point nearest each of 201 points along
  /// the chord, in that point's meridian, then of 401 points between the deepest one's neighbours.
  static func searchedDeepest(
    _ tunnel: StraightTunnel
  ) -> (depth: Double, latitude: Double, longitude: Double) {
    func cartesian(_ latitude: Double, _ longitude: Double) -> SIMD3<Double> {
      let xyz = Geodesic.earthCentred(try! Coordinate(latitude: latitude, longitude: longitude))
      return SIMD3(xyz.x, xyz.y, xyz.z)
    }
    let start = cartesian(tunnel.start.latitude, tunnel.start.longitude)
    let end = cartesian(tunnel.end.latitude, tunnel.end.longitude)
    func nearest(_ fraction: Double) -> (depth: Double, latitude: Double, longitude: Double) {
      let point = start + (end - start) * fraction
      let longitude = atan2(point.y, point.x) * 180 / .pi
      func distance(_ latitude: Double) -> Double {
        let offset = cartesian(latitude, longitude) - point
        return (offset * offset).sum().squareRoot()
      }
      var latitude = stride(from: -90.0, through: 90, by: 0.1).min { distance($0) < distance($1) }!
      var width = 0.1
      while width > 1e-7 {
        latitude = stride(
          from: max(-90, latitude - width), through: min(90, latitude + width), by: width / 10
        )
        .min { distance($0) < distance($1) }!
        width /= 10
      }
      return (distance(latitude), latitude, longitude)
    }
    let coarse = (0...200).map { Double($0) / 200 }.max { nearest($0).depth < nearest($1).depth }!
    let fine = (0...400).map { coarse - 0.005 + Double($0) / 40_000 }.filter { (0...1).contains($0) }
    return nearest(fine.max { nearest($0).depth < nearest($1).depth }!)
  }
}
