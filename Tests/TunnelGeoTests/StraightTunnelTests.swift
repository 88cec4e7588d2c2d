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

  @Test("On a uniform Earth every tunnel takes π·√(R³/GM), about 42 minutes")
  func uniformFall() throws {
    let expected = Double.pi * (pow(EarthModel.radius, 3) / EarthModel.wgs84GM).squareRoot()
    #expect(abs(expected / 60 - 42.18) < 0.01)
    for angle in [180.0, 120, 60, 10, 1] {
      let start = try Coordinate(latitude: 0, longitude: 0)
      let end = try Coordinate(latitude: 0, longitude: angle)
      let time = StraightTunnel(from: start, to: end).fallTime(.uniform)
      #expect(abs(time / expected - 1) < 0.002, "\(angle)°: \(time) s")
    }
  }

  @Test("With PREM's densities the fall through the centre takes about 38 minutes, short tunnels longer")
  func premFall() throws {
    let skjern = try Coordinate(latitude: 55.95, longitude: 8.5)
    let through = StraightTunnel(from: skjern, to: skjern.antipode).fallTime(.prem)
    #expect(through / 60 > 37.9 && through / 60 < 38.4, "\(through / 60) min")
    let short = StraightTunnel(from: skjern, to: try Coordinate(latitude: 55.95, longitude: 20)).fallTime(
      .prem)
    #expect(short > through && abs(short / 60 - 42.2) < 0.6, "\(short / 60) min")
  }

  @Test("Depth and the point above the deepest point")
  func depth() throws {
    let skjern = try Coordinate(latitude: 55.95, longitude: 8.5)
    let antipodal = StraightTunnel(from: skjern, to: skjern.antipode)
    #expect(abs(antipodal.depth - EarthModel.radius) < 1e-3)
    #expect(antipodal.deepestPointBelow == nil)
    #expect(abs(antipodal.length / 1000 - 12_726.99) < 0.01)
    let quarter = StraightTunnel(
      from: try Coordinate(latitude: 0, longitude: 0), to: try Coordinate(latitude: 0, longitude: 90))
    #expect(abs(quarter.depth - EarthModel.radius * (1 - 0.5.squareRoot())) < 1e-3)
    let below = try #require(quarter.deepestPointBelow)
    #expect(abs(below.latitude) < 1e-9 && abs(below.longitude - 45) < 1e-9)
    let meridian = StraightTunnel(
      from: try Coordinate(latitude: 10, longitude: 30), to: try Coordinate(latitude: 50, longitude: 30))
    let above = try #require(meridian.deepestPointBelow)
    #expect(abs(above.latitude - 30) < 1e-9 && abs(above.longitude - 30) < 1e-9)
  }
}
