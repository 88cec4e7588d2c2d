import Foundation
import Testing

@testable import TunnelGeo

@Suite struct CoordinateValidationTests {
  @Test(
    "A signed longitude in -180…360 is read in every notation and normalised; with E or W, 0…180",
    arguments: [
      ("10 200", 10.0, -160.0), ("10 360", 10, 0), ("10, 359.5", 10, -0.5), ("10 -180", 10, -180),
      ("+10+350/", 10, -10), ("geo:10,270", 10, -90), ("10°N 180°W", 10, -180), ("10N 180E", 10, -180),
      ("10°N 270°", 10, -90),
    ])
  func everyNotation(text: String, latitude: Double, longitude: Double) throws {
    let read = try Coordinate(parsing: text)
    #expect(read == (try Coordinate(latitude: latitude, longitude: longitude)), "\(text): \(read)")
    #expect(read == (try Coordinate(validatingLatitude: latitude, longitude: read.longitude)))
  }

  @Test(
    "Numbers as written: out of range, too large, or not a number",
    arguments: [
      (10.0, 400.0, "longitude 400 is outside -180…360"),
      (10, -180.5, "longitude -180.5 is outside -180…360"),
      (91, 0, "latitude 91 is outside -90…90"),
      (.infinity, 0, "the latitude is too large: it must lie in -90…90"),
      (-.infinity, 0, "the latitude is too large: it must lie in -90…90"),
      (0, .infinity, "the longitude is too large: it must lie in -180…360"),
      (.nan, 0, "latitude nan is not a finite number"),
      (0, .nan, "longitude nan is not a finite number"),
    ])
  func refused(latitude: Double, longitude: Double, message: String) {
    #expect(throws: CoordinateError.self) {
      try Coordinate(validatingLatitude: latitude, longitude: longitude)
    }
    do {
      _ = try Coordinate(validatingLatitude: latitude, longitude: longitude)
    } catch {
      #expect(error.description == message)
    }
  }

  @Test("Text and numbers meet the same bounds: 360 in, a hair past it out")
  func sameBounds() throws {
    for longitude in [-180.0, -179.5, 0, 179.5, 180, 180.5, 359.5, 360] {
      let text = try Coordinate(parsing: "0 \(longitude)")
      #expect(text == (try Coordinate(validatingLatitude: 0, longitude: longitude)))
    }
    for longitude in [-180.000001, 360.000001] {
      #expect(throws: CoordinateError.longitudeOutOfRange(longitude)) {
        try Coordinate(parsing: "0 \(longitude)")
      }
      #expect(throws: CoordinateError.longitudeOutOfRange(longitude)) {
        try Coordinate(validatingLatitude: 0, longitude: longitude)
      }
    }
  }

  @Test("Numbers given to the normalising initialiser: an infinite latitude is too large as well")
  func numbers() {
    #expect(throws: CoordinateError.latitudeOutOfRange(.infinity)) {
      try Coordinate(latitude: .infinity, longitude: 0)
    }
    #expect(CoordinateError.latitudeOutOfRange(-.infinity).description.hasPrefix("the latitude is too large"))
    #expect(throws: CoordinateError.notFinite(axis: .longitude, value: .infinity)) {
      try Coordinate(latitude: 0, longitude: .infinity)
    }
  }
}
