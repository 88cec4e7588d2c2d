import Foundation
import SeededRandom
import Testing

@testable import TunnelGeo

@Suite struct CoordinateTests {
  @Test(arguments: [
    (56.0, 8.5, 56.0, 8.5),
    (0, 180, 0, -180),
    (0, -180, 0, -180),
    (0, 190, 0, -170),
    (0, 540, 0, -180),
    (0, -190, 0, 170),
    (0, 359.5, 0, -0.5),
    (-0.0, -0.0, 0, 0),
    (90, 720.25, 90, 0.25),
  ])
  func normalisesLongitude(
    latitude: Double, longitude: Double, expectedLatitude: Double, expectedLongitude: Double
  )
    throws
  {
    let coordinate = try Coordinate(latitude: latitude, longitude: longitude)
    #expect(coordinate.latitude == expectedLatitude)
    #expect(coordinate.longitude == expectedLongitude)
    #expect(coordinate.latitude.sign == .plus || coordinate.latitude != 0)
    #expect(coordinate.longitude.sign == .plus || coordinate.longitude != 0)
  }

  @Test func rejectsInvalidNumbers() {
    #expect(throws: CoordinateError.latitudeOutOfRange(91)) { try Coordinate(latitude: 91, longitude: 0) }
    #expect(throws: CoordinateError.latitudeOutOfRange(-90.000001)) {
      try Coordinate(latitude: -90.000001, longitude: 0)
    }
    #expect(throws: CoordinateError.self) { try Coordinate(latitude: .nan, longitude: 0) }
    #expect(throws: CoordinateError.self) { try Coordinate(latitude: 0, longitude: .infinity) }
    #expect(CoordinateError.latitudeOutOfRange(91).description == "latitude 91 is outside -90…90")
  }

  @Test(arguments: [
    (56.0, 8.5, -56.0, -171.5),
    (0, 0, 0, -180),
    (0, -180, 0, 0),
    (0, 179.5, 0, -0.5),
    (0, -179.5, 0, 0.5),
    (90, 0, -90, -180),
    (-90, 45, 90, -135),
    (-33.75, 18.5, 33.75, -161.5),
    (10, 90, -10, -90),
    (10, -90, -10, 90),
  ])
  func antipodeTable(
    latitude: Double, longitude: Double, expectedLatitude: Double, expectedLongitude: Double
  )
    throws
  {
    let antipode = try Coordinate(latitude: latitude, longitude: longitude).antipode
    #expect(antipode.latitude == expectedLatitude)
    #expect(antipode.longitude == expectedLongitude)
    #expect((-180..<180).contains(antipode.longitude))
  }

  @Test func antipodeIsAnInvolutionOnRandomPoints() throws {
    var generator = SplitMix64(seed: 0x7475_6E6E_656C)
    for _ in 0..<100_000 {
      let point = try Coordinate(
        latitude: .random(in: -90...90, using: &generator),
        longitude: .random(in: -1000...1000, using: &generator))
      let antipode = point.antipode
      #expect(antipode.antipode == point)
      #expect(antipode != point)
      #expect((-180..<180).contains(antipode.longitude))
      #expect(abs(antipode.longitude - point.longitude) == 180)
      #expect(antipode.latitude == -point.latitude)
    }
  }

  @Test func normalisationMovesALongitudeByAtMostHalfTheGrid() throws {
    var generator = SplitMix64(seed: 42)
    for _ in 0..<10_000 {
      let longitude = Double.random(in: -180..<180, using: &generator)
      let coordinate = try Coordinate(latitude: 0, longitude: longitude)
      #expect(abs(coordinate.longitude - longitude) <= Coordinate.longitudeQuantum / 2)
    }
  }

  @Test func codableRoundTripAndValidation() throws {
    let point = try Coordinate(latitude: -33.9, longitude: 18.4)
    let data = try JSONEncoder().encode(point)
    #expect(try JSONDecoder().decode(Coordinate.self, from: data) == point)
    let bad = Data(#"{"latitude": 95, "longitude": 0}"#.utf8)
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(Coordinate.self, from: bad) }
  }
}
