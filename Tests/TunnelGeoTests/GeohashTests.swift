import SeededRandom
import Testing

@testable import TunnelGeo

/// A published geohash, a location it was published with, and how far that location may be from the centre.
struct GeohashPublishedRow: Sendable, CustomTestStringConvertible {
  let hash: String
  let latitude: Double
  let longitude: Double
  let tolerance: Double
  var testDescription: String { hash }
}

/// Checks of geohash decoding and encoding against published pairs, the poles and seeded random round trips.
@Suite struct GeohashTests {
  /// Published pairs. `u4pruydqqvj` ≈ 57.64911, 10.40744 and `ezs42` = 42.605, -5.603 (its centre,
  /// 42.60498046875, -5.60302734375) are the examples of Wikipedia's Geohash article; `s00000000000` is the
  /// hash of 0, 0 and the all-`0` and all-`z` hashes are the south-west and north-east corner cells.
  static let publishedRows: [GeohashPublishedRow] = [
    .init(hash: "u4pruydqqvj", latitude: 57.64911, longitude: 10.40744, tolerance: 1e-5),
    .init(hash: "ezs42", latitude: 42.60498046875, longitude: -5.60302734375, tolerance: 1e-12),
    .init(hash: "EZS42", latitude: 42.60498046875, longitude: -5.60302734375, tolerance: 1e-12),
    .init(hash: "s00000000000", latitude: 0, longitude: 0, tolerance: 2e-7),
    .init(hash: "000000000000", latitude: -90, longitude: -180, tolerance: 2e-7),
    .init(hash: "zzzzzzzzzzzz", latitude: 90, longitude: 180, tolerance: 2e-7),
    .init(hash: "s", latitude: 22.5, longitude: 22.5, tolerance: 1e-12),
    .init(hash: "0", latitude: -67.5, longitude: -157.5, tolerance: 1e-12),
  ]

  @Test(arguments: publishedRows)
  func published(_ row: GeohashPublishedRow) throws {
    let decoded = try #require(Geohash.decodeCentre(row.hash[...]))
    #expect(abs(decoded.latitude - row.latitude) <= row.tolerance, "latitude \(decoded.latitude)")
    #expect(abs(decoded.longitude - row.longitude) <= row.tolerance, "longitude \(decoded.longitude)")
    let encoded = Geohash.encode(
      latitude: decoded.latitude, longitude: decoded.longitude, length: row.hash.count)
    #expect(encoded == row.hash.lowercased())
  }

  /// The errors are half the cell: 45° and 22.5° high and wide for one character (2 latitude bits,
  /// 3 longitude bits), 90 / 2³⁰ and 180 / 2³⁰ for twelve.
  @Test func errorsAreHalfTheCell() throws {
    let one = try #require(Geohash.decodeCentre("s"))
    #expect(one.latitudeError == 22.5 && one.longitudeError == 22.5)
    let twelve = try #require(Geohash.decodeCentre("u4pruydqqvj0"))
    #expect(twelve.latitudeError == 90 / 1_073_741_824 && twelve.longitudeError == 180 / 1_073_741_824)
  }

  /// Wikipedia's longer example encodes from the published location back to the same hash.
  @Test func encodesPublishedLocations() {
    #expect(Geohash.encode(latitude: 57.64911, longitude: 10.40744, length: 11) == "u4pruydqqvj")
    #expect(Geohash.encode(latitude: 42.6, longitude: -5.6, length: 5) == "ezs42")
    #expect(Geohash.encode(latitude: 0, longitude: 0) == "s00000000000")
  }

  /// Texts that are empty, too long or hold characters outside the alphabet (`a`, `i`, `l`, `o`, space,
  /// non-ASCII) decode to nil.
  @Test(arguments: ["", "u4pruydqqvj00", "a", "u4pi", "u4pl", "u4po", "u4p ", "u4pé", "u4p-"])
  func refusesBadText(_ text: String) {
    #expect(Geohash.decodeCentre(text[...]) == nil)
  }

  /// Encoding seeded random points at every length and decoding gives a cell that holds the point, and
  /// encoding that cell's centre gives the same hash.
  @Test func randomRoundTrips() throws {
    var generator = SplitMix64(seed: 0x6E0)
    for _ in 0..<2_000 {
      let latitude = Double(generator.next() % 180_000_001) / 1_000_000 - 90
      let longitude = Double(generator.next() % 360_000_000) / 1_000_000 - 180
      for length in 1...12 {
        let hash = Geohash.encode(latitude: latitude, longitude: longitude, length: length)
        #expect(hash.count == length)
        let cell = try #require(Geohash.decodeCentre(hash[...]))
        #expect(abs(cell.latitude - latitude) <= cell.latitudeError, "\(hash) \(latitude)")
        #expect(abs(cell.longitude - longitude) <= cell.longitudeError, "\(hash) \(longitude)")
        #expect(Geohash.encode(latitude: cell.latitude, longitude: cell.longitude, length: length) == hash)
      }
    }
  }
}
