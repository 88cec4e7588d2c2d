import Testing

@testable import TunnelGeo

/// The notations people paste besides plain degrees: degrees and decimal minutes, space-separated DMS,
/// decimal commas, UTM, plus codes, geohashes and map links; and those Tunnel names without reading.
@Suite struct PastedNotationTests {
  @Test(arguments: [
    // Degrees and decimal minutes, as GPS receivers and geocaching sites write them.
    ("56° 33.000′ N, 8° 19.000′ E", 56.55, 8.316666666666666),
    ("N 56° 33.000 E 008° 19.000", 56.55, 8.316666666666666),
    ("S 33° 54.000 W 070° 36.000", -33.9, -70.6),
    ("56°33.5'N 8°19.25'E", 56.558333333333333, 8.320833333333333),
    // Degrees, minutes and seconds apart by spaces, letters after or before.
    ("56 33 00 N 8 19 00 E", 56.55, 8.316666666666666),
    ("N 56 33 00 E 8 19 00", 56.55, 8.316666666666666),
    ("33 54 S 18 24 E", -33.9, 18.4),
    ("56 33 0.5 N, 8 19 30 W", 56.550138888888889, -8.325),
    // Decimal commas.
    ("56,55; 8,32", 56.55, 8.32),
    ("56,55 8,32", 56.55, 8.32),
    ("-33,9; 18,4", -33.9, 18.4),
    ("56° 33,5′ N; 8° 19,25′ E", 56.558333333333333, 8.320833333333333),
  ])
  func reads(text: String, latitude: Double, longitude: Double) throws {
    let coordinate = try Coordinate(parsing: text)
    #expect(abs(coordinate.latitude - latitude) < 1e-12, "\(text): \(coordinate.latitude)")
    #expect(abs(coordinate.longitude - longitude) < 1e-12, "\(text): \(coordinate.longitude)")
  }

  @Test(arguments: [
    // Commas that separate stay separators.
    ("56,8", 56.0, 8.0),
    ("56, 8.5", 56.0, 8.5),
    // One letter only: the numbers are not grouped into one angle.
    ("33.9 18.4E", 33.9, 18.4),
    ("56 8.5", 56.0, 8.5),
  ])
  func keepsTheOldReadings(text: String, latitude: Double, longitude: Double) throws {
    let coordinate = try Coordinate(parsing: text)
    #expect(
      abs(coordinate.latitude - latitude) < 1e-12 && abs(coordinate.longitude - longitude) < 1e-12, "\(text)")
  }

  @Test(arguments: [
    ("56 33 00 12 N 8 19 00 E", "one number too many"),
    ("56 61 N 8 19 E", "60 or more"),
    ("56.5 33 N 8 19 E", "has a fraction and minutes or seconds too"),
    ("N 56 -33 E 8 19", "carry a sign"),
  ])
  func refusesBadGroups(text: String, expected: String) {
    #expect(throws: CoordinateError.self) { try Coordinate(parsing: text) }
    do {
      _ = try Coordinate(parsing: text)
    } catch {
      #expect(error.description.contains(expected), "\(text): \(error)")
    }
  }

  @Test("UTM references read back the coordinates PROJ projected them from, in both hemispheres")
  func utm() throws {
    let context = try ProjectionContext()
    for (latitude, longitude, band) in [
      (56.55, 8.32, "V"), (55.95, 8.5, "U"), (-33.9249, 18.4241, "H"), (0.5, -78.5, "N"), (37.5, 127.0, "S"),
      (-37.5, 144.96, "H"), (78.2, 15.6, "X"),
    ] {
      let zone = Int((longitude + 180) / 6) + 1
      let projection = try Projection.utm(zone: zone, south: latitude < 0, in: context)
      guard
        case .visible(let easting, let northing) = projection.project(
          try Coordinate(latitude: latitude, longitude: longitude))
      else {
        Issue.record("\(latitude), \(longitude) not projected")
        continue
      }
      for text in [
        "\(zone)\(band) \(easting) \(northing)", "\(zone) \(band) \(easting)mE \(northing)mN",
        "\(zone)\(band.lowercased()) \(easting)E \(northing)N",
      ] {
        let read = try Coordinate(parsing: text)
        #expect(abs(read.latitude - latitude) < 1e-9 && abs(read.longitude - longitude) < 1e-9, "\(text)")
      }
    }
    // S as the southern hemisphere where band S (32°–40° N) cannot hold the point.
    let south = try Coordinate(parsing: "34S 261876 6243185")
    #expect(south.latitude < -33.9 && south.latitude > -34)
  }

  @Test(arguments: [
    ("61U 488300 6199200", "zone 61 does not exist"),
    ("32I 488300 6199200", "is not a UTM latitude band"),
    ("32U 988300 6199200", "outside a UTM zone"),
    ("32C 488300 6199200", "outside band C"),
  ])
  func refusesBadUTM(text: String, expected: String) {
    do {
      _ = try Coordinate(parsing: text)
      Issue.record("\(text) was read")
    } catch {
      #expect(error.description.contains(expected), "\(text): \(error)")
    }
  }

  @Test("Plus codes and geohashes read as their cells' centres; place names stay names")
  func gridCodes() throws {
    let code = OpenLocationCode.encode(latitude: 55.95, longitude: 8.5)
    let centre = try #require(OpenLocationCode.decodeCentre(Substring(code)))
    let read = try Coordinate(parsing: code)
    #expect(abs(read.latitude - centre.latitude) < 1e-12 && abs(read.longitude - centre.longitude) < 1e-12)
    let hash = Geohash.encode(latitude: 55.95, longitude: 8.5, length: 9)
    let cell = try #require(Geohash.decodeCentre(Substring(hash)))
    let fromHash = try Coordinate(parsing: hash)
    #expect(
      abs(fromHash.latitude - cell.latitude) < 1e-12 && abs(fromHash.longitude - cell.longitude) < 1e-12)
    // Letters alone, or fewer than five characters, are not geohashes: "Skjern" and "dk" stay names.
    for name in ["Skjern", "bergen", "dk", "u1z"] {
      #expect(throws: CoordinateError.self) { try Coordinate(parsing: name) }
    }
  }

  @Test(arguments: [
    ("https://www.google.com/maps/@56.55,8.32,12z", 56.55, 8.32),
    ("https://www.openstreetmap.org/#map=12/56.55/8.32", 56.55, 8.32),
    ("https://maps.apple.com/?ll=56.55,8.32&q=Dropped%20Pin", 56.55, 8.32),
    ("https://www.bing.com/maps?cp=56.55~8.32&lvl=12", 56.55, 8.32),
    ("geo:56.55,8.32?z=12", 56.55, 8.32),
  ])
  func mapLinks(text: String, latitude: Double, longitude: Double) throws {
    let coordinate = try Coordinate(parsing: text)
    #expect(
      abs(coordinate.latitude - latitude) < 1e-12 && abs(coordinate.longitude - longitude) < 1e-12, "\(text)")
  }

  @Test(arguments: [
    ("32UMG8830099200", "MGRS"),
    ("32U MG 88300 99200", "MGRS"),
    ("TQ 30080 80620", "British National Grid"),
    ("JO46ax", "Maidenhead"),
    ("///filled.count.soap", "what3words"),
    ("https://maps.app.goo.gl/x7Q2", "short link"),
    ("XG8C+XX", "short plus code"),
  ])
  func namesWhatItCannotRead(text: String, expected: String) {
    do {
      _ = try Coordinate(parsing: text)
      Issue.record("\(text) was read")
    } catch {
      guard case .unsupported = error else {
        Issue.record("\(text): \(error)")
        return
      }
      #expect(error.description.contains(expected), "\(text): \(error)")
      #expect(!error.description.contains("is not a number"))
    }
  }
}
