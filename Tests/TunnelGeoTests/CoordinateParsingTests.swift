import Foundation
import RandomPoints
import SeededRandom
import Testing

@testable import TunnelGeo

@Suite struct CoordinateParsingTests {
  @Test(arguments: [
    ("56.0 8.5", 56.0, 8.5),
    ("56.0, 8.5", 56.0, 8.5),
    ("-33.9,18.4", -33.9, 18.4),
    ("  -33.9 , -70.6  ", -33.9, -70.6),
    ("\u{2212}33.9 18.4", -33.9, 18.4),
    ("56 8", 56, 8),
    ("+56.5 +8.25", 56.5, 8.25),
    ("56.0° 8.5°", 56.0, 8.5),
    ("33.9S 18.4E", -33.9, 18.4),
    ("S33.9 E18.4", -33.9, 18.4),
    // A letter after a space, against the next number, is that number's.
    ("33.9 E18.4", 33.9, 18.4),
    ("-33.9 E18.4", -33.9, 18.4),
    ("9 S80", -80, 9),
    ("33.9, E18.4", 33.9, 18.4),
    ("33.9 S 18.4 E", -33.9, 18.4),
    // Exponents are numbers, not East.
    ("1e-7 1e-7", 1e-7, 1e-7),
    ("-2.5E1 1.5e+2", -25, 150),
    ("56.5E8.5", 8.5, 56.5),
    ("33.9 S, 18.4 E", -33.9, 18.4),
    ("18.4E 33.9S", -33.9, 18.4),
    ("s33.9 w18.4", -33.9, -18.4),
    ("56°0'N 8°30'E", 56.0, 8.5),
    ("33°54′S 18°24′E", -33.9, 18.4),
    ("56°33′00″N 8°19′00″E", 56.55, 8.316666666666666),
    ("56°33'0\"N 8°19'0\"E", 56.55, 8.316666666666666),
    ("56° 33′ N, 8° 19′ E", 56.55, 8.316666666666666),
    ("56°N 8°30'E", 56.0, 8.5),
    ("56°30.5′N 8°E", 56.508333333333333, 8),
    ("-33°54′ 18°24′", -33.9, 18.4),
    ("+56.0+008.5/", 56.0, 8.5),
    ("+5600+00830/", 56.0, 8.5),
    ("+560000+0083000/", 56.0, 8.5),
    ("+560000+0083000", 56.0, 8.5),
    ("-3352+15113", -33.866666666666667, 151.21666666666667),
    ("+5633.5-00819.5/", 56.558333333333333, -8.325),
    ("+56.0+008.5+100CRSWGS_84/", 56.0, 8.5),
    ("geo:56,8.5", 56.0, 8.5),
    ("GEO:-33.9,18.4,120;u=30", -33.9, 18.4),
    ("geo:56,8.5;crs=wgs84", 56.0, 8.5),
    ("geo:56,8.5;crs=wgs84;u=0;x-extra=1", 56.0, 8.5),
    ("90 180", 90, -180),
    ("-90 -180", -90, -180),
  ])
  func reads(text: String, latitude: Double, longitude: Double) throws {
    let coordinate = try Coordinate(parsing: text)
    #expect(abs(coordinate.latitude - latitude) < 1e-12, "\(text)")
    #expect(
      abs(coordinate.longitude - (try Coordinate(latitude: latitude, longitude: longitude)).longitude) < 1e-12
    )
  }

  @Test(arguments: [
    ("", "the text is empty"),
    ("56", "it holds one angle"),
    ("56,abc", "'abc' is not a number"),
    ("abc", "'abc' is not a number"),
    ("56 8 9", "it holds 3 angles"),
    ("91 0", "latitude 91 is outside -90…90"),
    ("0 361", "longitude 361 is outside -180…360"),
    ("0 -181", "longitude -181 is outside -180…360"),
    ("0 200E", "longitude 200°E is past 180°: with E or W a longitude lies in 0…180"),
    ("10N 180.5W", "longitude 180.5°W is past 180°"),
    ("geo:1\(String(repeating: "0", count: 400)),0", "the latitude is too large: it must lie in -90…90"),
    ("56N 8N", "both angles are latitudes"),
    ("-56S 8E", "has both a sign and the hemisphere letter 'S'"),
    ("56°61′N 8°E", "61 minutes is 60 or more"),
    ("56°1′60″N 8°E", "60 seconds is 60 or more"),
    ("56.5°30′N 8°E", "has a fraction and minutes"),
    ("+5600+0083/", "has 4 digits before the point"),
    ("geo:56", "a geo: URI holds latitude,longitude"),
    ("geo:56,8.5;crs=nad27", "only wgs84 is supported"),
    ("geo:56,x", "'x' is not a number"),
    ("nan 0", "'nan' is not a number"),
    ("inf 0", "'inf' is not a number"),
    ("1e400 5", "'1e400' is too large to be an angle"),
    (", 56 8", "starts with a comma"),
    ("56,,8", "a comma stands where a number belongs"),
    ("N", "is not followed by a number"),
    ("30′ 8", "minutes or seconds without degrees"),
    ("33.9 S 18.4", "stands alone between two numbers"),
    ("geo:56,8.5;u=-1", "must be a distance in metres, 0 or more"),
    ("geo:56,8.5;u=NaN", "must be a distance in metres, 0 or more"),
    ("geo:56,8.5;=", "is not name=value"),
    ("geo:56,8.5;u=1;crs=wgs84", "';crs=' comes first"),
    ("geo:56,8.5;u=1;u=2", "';u=' comes once"),
    ("+5633+00819+123+456/", "at most an altitude"),
  ])
  func rejects(text: String, fragment: String) {
    do {
      let coordinate = try Coordinate(parsing: text)
      Issue.record("'\(text)' was read as \(coordinate)")
    } catch {
      #expect(error.description.contains(fragment), "\(error.description)")
    }
  }

  /// Found by the coordinate fuzzer: a geo: URI's parameter went into the message as typed, so control
  /// characters in it reached the terminal.
  @Test(arguments: [
    ("geo:56,8.5;\u{1B}[31mRED", "parameter ';\\u{1B}[31mRED' that is not name=value"),
    ("geo:56,8.5;u=\u{0}", "uncertainty ';u=\\u{0}' of a geo: URI"),
    ("geo:56,8.5;E\u{0}\u{1D}\n55", "parameter ';E\\u{0}\\u{1D}\\u{A}55'"),
  ])
  func geoURIParametersAreEscapedInMessages(text: String, fragment: String) {
    do {
      let coordinate = try Coordinate(parsing: text)
      Issue.record("\(text.debugDescription) was read as \(coordinate)")
    } catch {
      #expect(error.description.contains(fragment), "\(error.description.debugDescription)")
      #expect(!error.description.unicodeScalars.contains { $0.properties.generalCategory == .control })
    }
  }

  @Test func errorNamesTheText() {
    #expect(throws: CoordinateError.unparsable(text: "56,abc", reason: "'abc' is not a number")) {
      try Coordinate(parsing: "56,abc")
    }
    #expect(
      CoordinateError.unparsable(text: "56,abc", reason: "'abc' is not a number").description
        == "cannot read '56,abc' as a coordinate: 'abc' is not a number")
  }

  /// Every location in the time-zone database's zone1970.tab is ISO 6709 (±DDMM±DDDMM or
  /// ±DDMMSS±DDDMMSS); each must read as the angles its digits spell.
  @Test func readsEveryLocationOfZone1970Tab() throws {
    let table = try String(contentsOfFile: "/usr/share/zoneinfo/zone1970.tab", encoding: .utf8)
    let fields = table.split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
      $0.split(separator: "\t")[1]
    }
    #expect(fields.count > 300)
    for field in fields {
      let coordinate = try Coordinate(parsing: String(field))
      let (latitude, longitude) = Self.decodeByHand(String(field))
      #expect(abs(coordinate.latitude - latitude) < 1e-12, "\(field)")
      #expect(abs(coordinate.longitude - longitude) < 1e-12, "\(field)")
    }
  }

  /// An independent reading: split at the second sign, then take 2/3 degree digits and pairs after.
  static func decodeByHand(_ text: String) -> (Double, Double) {
    let characters = Array(text)
    let split = characters.indices.dropFirst().first { characters[$0] == "+" || characters[$0] == "-" }!
    func angle(_ part: ArraySlice<Character>, degreeDigits: Int) -> Double {
      let sign: Double = part.first == "-" ? -1 : 1
      let digits = part.dropFirst().map { Double(String($0))! }
      var value = digits.prefix(degreeDigits).reduce(0) { $0 * 10 + $1 }
      var rest = Array(digits.dropFirst(degreeDigits))
      var unit = 60.0
      while rest.count >= 2 {
        value += (rest[0] * 10 + rest[1]) / unit
        rest.removeFirst(2)
        unit *= 60
      }
      return sign * value
    }
    return (angle(characters[..<split], degreeDigits: 2), angle(characters[split...], degreeDigits: 3))
  }

  /// The byte-level reader of plain decimal pairs gives exactly what the full parser gives.
  @Test func plainDecimalReaderAgreesWithTheFullParser() throws {
    var generator = SplitMix64(seed: 99)
    for index in 0..<20_000 {
      let point = Coordinate.random(using: &generator)
      let places = index % 12  // up to 14 significant digits: the byte-level reader takes those
      let separators = [" ", ", ", ",", "  ,  ", "\t"]
      let text =
        Coordinate.fixed(point.latitude, places: places) + separators[index % separators.count]
        + Coordinate.fixed(point.longitude, places: places)
      let fast = try #require(CoordinateTextParser.plainDecimalPair(text), "\(text)")
      let full = try Coordinate.parseAnyNotation(text)
      #expect(fast.latitude == full.latitude && fast.longitude == full.longitude, "\(text)")
      #expect(fast.latitude == Double(Coordinate.fixed(point.latitude, places: places)))
    }
    for text in ["56", "56 8 9", "1e5 0", "56,,8", "- 5", ". 5", "56 8x", "0.1234567890123456 1"] {
      #expect(CoordinateTextParser.plainDecimalPair(text) == nil, "\(text)")
    }
  }
}
