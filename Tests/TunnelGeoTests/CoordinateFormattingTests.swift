import Foundation
import RandomPoints
import SeededRandom
import Testing
import TunnelReports

@testable import TunnelGeo

@Suite struct CoordinateFormattingTests {
  @Test func examples() throws {
    let skjern = try Coordinate(latitude: 56.55, longitude: 8.316667)
    #expect(skjern.formatted(.decimal(places: 6)) == "56.550000, 8.316667")
    #expect(skjern.formatted(.dms(secondsPlaces: 1)) == "56°33′00.0″N 8°19′00.0″E")
    #expect(skjern.formatted(.iso6709(places: 6)) == "+56.550000+008.316667/")
    let cape = try Coordinate(latitude: -33.9, longitude: 18.4)
    #expect(cape.formatted(.dms(secondsPlaces: 0)) == "33°54′00″S 18°24′00″E")
    #expect(cape.antipode.formatted(.iso6709(places: 2)) == "+33.90-161.60/")
    #expect(
      try Coordinate(latitude: -0.0000001, longitude: 0).formatted(.decimal(places: 3)) == "0.000, 0.000")
    #expect(
      try Coordinate(latitude: 0, longitude: -0.0000001).formatted(.dms(secondsPlaces: 0))
        == "0°00′00″N 0°00′00″E")
    #expect(
      try Coordinate(latitude: 10, longitude: 9.999999999).formatted(.dms(secondsPlaces: 2))
        == "10°00′00.00″N 10°00′00.00″E")
    #expect(skjern.description == "56.550000, 8.316667")
  }

  @Test("A longitude that rounds to 180° at the printed precision is written -180°, never 180°")
  func longitudeRoundingToTheAntimeridian() throws {
    let east = try Coordinate(latitude: 0, longitude: 179.9999999)
    #expect(east.formatted(.decimal(places: 6)) == "0.000000, -180.000000")
    #expect(east.formatted(.decimal(places: 7)) == "0.0000000, 179.9999999")
    #expect(east.formatted(.iso6709(places: 6)) == "+00.000000-180.000000/")
    #expect(east.formatted(.dms(secondsPlaces: 1)) == "0°00′00.0″N 180°00′00.0″W")
    #expect(
      try Coordinate(latitude: 0, longitude: 179.99999).formatted(.dms(secondsPlaces: 2))
        == "0°00′00.00″N 179°59′59.96″E")
    // The same point written from the west side is unchanged.
    #expect(
      try Coordinate(latitude: 0, longitude: -179.9999999).formatted(.decimal(places: 6))
        == "0.000000, -180.000000")
  }

  @Test(
    "Encoded longitudes keep the held convention too: one that rounds to 180° is -180°",
    arguments: [
      (179.9999999999, 9, -180.0), (-179.9999999999, 9, -180), (179.9999999, 9, 179.9999999),
      (179.9999999, 6, -180), (179.6, 0, -180), (179.4, 0, 179), (-180, 9, -180), (0, 9, 0),
    ])
  func encodedLongitudes(longitude: Double, places: Int, written: Double) throws {
    #expect(try Precision(degrees: places).longitude(longitude) == written)
    // The text formats write the same number.
    let text = try Coordinate(latitude: 0, longitude: longitude).formatted(.decimal(places: places))
    #expect(Double(text.split(separator: " ").last!) == written, "\(text)")
  }

  @Test("The antipode of a point a hair west of Greenwich is encoded at -180°, as that of Greenwich")
  func antipodeNextToTheAntimeridian() throws {
    let hair = try Coordinate(latitude: 10, longitude: -1e-10).antipode
    let greenwich = try Coordinate(latitude: 10, longitude: 0).antipode
    #expect(hair.longitude > 179.9 && greenwich.longitude == -180)
    #expect(Precision.data.longitude(hair.longitude) == Precision.data.longitude(greenwich.longitude))
    #expect(hair.formatted(.decimal(places: 9)) == greenwich.formatted(.decimal(places: 9)))
  }

  static let formats: [CoordinateFormat] = [
    .decimal(places: 0), .decimal(places: 3), .decimal(places: 6), .decimal(places: 9),
    .dms(secondsPlaces: 0), .dms(secondsPlaces: 1), .dms(secondsPlaces: 3),
    .iso6709(places: 0), .iso6709(places: 4), .iso6709(places: 7),
  ]

  /// The most a printed value may differ from the true one, in degrees.
  static func tolerance(_ format: CoordinateFormat) -> Double {
    switch format {
    case .decimal(let places), .iso6709(let places): return 0.5 * pow(10, -Double(places)) + 1e-12
    case .dms(let places): return 0.5 * pow(10, -Double(places)) / 3600 + 1e-12
    }
  }

  @Test(arguments: formats)
  func roundTrips(format: CoordinateFormat) throws {
    var generator = SplitMix64(seed: 2013)
    for _ in 0..<5_000 {
      let point = Coordinate.random(using: &generator)
      let text = point.formatted(format)
      let back = try Coordinate(parsing: text)
      let tolerance = Self.tolerance(format)
      #expect(abs(back.latitude - point.latitude) <= tolerance, "\(point) → \(text)")
      let difference = abs(back.longitude - point.longitude)
      #expect(min(difference, 360 - difference) <= tolerance, "\(point) → \(text)")
    }
  }

  @Test(arguments: formats)
  func roundTripsAtTheEdges(format: CoordinateFormat) throws {
    for (latitude, longitude) in [
      (90.0, -180.0), (-90, 179.99999999), (0, 0), (-0.4, -0.4), (59.99999, 179.9999),
    ] {
      let point = try Coordinate(latitude: latitude, longitude: longitude)
      let back = try Coordinate(parsing: point.formatted(format))
      #expect(abs(back.latitude - point.latitude) <= Self.tolerance(format))
      let difference = abs(back.longitude - point.longitude)
      #expect(min(difference, 360 - difference) <= Self.tolerance(format))
    }
  }
}
