import Foundation
import SeededRandom
import Testing

@testable import TunnelGeo

/// The facts checked against the upstream sources, reached through the bundled layers.
@Suite struct PlaceDataTests {
  static let data: PlaceData = try! PlaceData()

  @Test func denmarkContainsWesternJutland() throws {
    let countries = try Self.data.countries()
    let found = countries.countries(containing: try Coordinate(latitude: 56, longitude: 8.5))
    #expect(found.map(\.isoAlpha2) == ["DK"])
    #expect(found.first?.isoAlpha3 == "DNK")
    #expect(found.first?.name == "Denmark")
  }

  @Test func franceAndNorwayHaveCodesDespiteNaturalEarthsMinus99() throws {
    let countries = try Self.data.countries()
    #expect(
      countries.countries(containing: try Coordinate(latitude: 48.86, longitude: 2.35)).first?.isoAlpha2
        == "FR")
    #expect(
      countries.countries(containing: try Coordinate(latitude: 60.39, longitude: 5.32)).first?.isoAlpha2
        == "NO")
  }

  @Test(arguments: [
    (-56.0, -171.5, "South Pacific Ocean"), (56.0, 7.5, "North Sea"), (-40.0, 160.0, "Tasman Sea"),
    (57.0, 11.5, "Kattegat"), (58.0, 20.0, "Baltic Sea"), (-65.0, -100.0, "Southern Ocean"),
    // The IHO's limits (S-23) part the Pacific at the equator "but including those islands of Kiribati ...
    // which lie to the northward thereof" in the South Pacific: so Tarawa's lagoon at 1.47° N is in it.
    (1.47, 173.03, "South Pacific Ocean"), (2.0, 175.0, "North Pacific Ocean"),
    // Geographe Bay lies between Cape Naturaliste and Bunbury (33.3° S); Natural Earth's polygon of that name
    // runs on 370 km up the coast, and north of Bunbury it is the Indian Ocean (off Perth, off Lancelin).
    (-33.5, 115.3, "Geographe Bay"), (-33.4, 115.4, "Geographe Bay"), (-31.95, 115.6, "Indian Ocean"),
    (-31.0, 115.2, "Indian Ocean"),
  ])
  func seasByName(latitude: Double, longitude: Double, name: String) throws {
    let marine = try Self.data.marine()
    #expect(marine.names(containing: try Coordinate(latitude: latitude, longitude: longitude)) == [name])
  }

  @Test("The oceans MarineKind knows are features of the marine layer, each by its whole name")
  func oceanKinds() throws {
    let marine = try Self.data.marine()
    let names = Set((0..<marine.polygons.featureCount).compactMap(marine.name))
    #expect(MarineKind.oceanNames.isSubset(of: names))
    #expect(MarineKind(featureNamed: "South Pacific Ocean") == .ocean)
    #expect(MarineKind(featureNamed: "Tasman Sea") == .sea)
  }

  @Test func skjernHas7145Inhabitants() throws {
    let places = try Self.data.places()
    let skjern = places.matches(forName: "Skjern").map { places.place(at: $0.place) }
      .first { $0.countryCode == "DK" }
    let place = try #require(skjern)
    #expect(place.population == 7_145)
    #expect(place.region?.name == "Midtjylland")
    #expect(place.region?.isoCode == "DK-82")
    #expect(place.timeZone == "Europe/Copenhagen")
    #expect(abs(place.coordinate.latitude - 55.95) < 0.05)
  }

  @Test(arguments: ["Copenhagen", "København", "Kopenhagen", "KØBENHAVN", "Копенгаген"])
  func copenhagenUnderEveryName(name: String) throws {
    let places = try Self.data.places()
    let best = try #require(places.matches(forName: name).first)
    let place = places.place(at: best.place)
    #expect(place.name == "Copenhagen")
    #expect(place.countryCode == "DK")
    #expect(abs(place.coordinate.latitude - 55.676) < 0.01 && abs(place.coordinate.longitude - 12.566) < 0.01)
  }

  @Test func exactNamesRankBeforeAlternateNames() throws {
    let places = try Self.data.places()
    let matches = places.matches(forName: "Copenhagen")
    #expect(matches.first?.viaAlternateName == false)
    #expect(matches.contains { places.countryCode(at: $0.place) == "US" })
    #expect(places.matches(forName: "no such place anywhere").isEmpty)
    #expect(!places.keys(withPrefix: "copenh").isEmpty)
  }

  @Test func allCitiesAreThere() throws {
    let places = try Self.data.places()
    #expect(places.count == 234_908)
    #expect(places.timeZones.contains("Europe/Copenhagen"))
  }

  @Test func placesAreInImplicitKDTreeOrder() throws {
    let places = try Self.data.places()
    // Check the split of the top levels of the tree exactly (every element of each range).
    var ranges = [(0, places.count)]
    for _ in 0..<4 {
      var next: [(Int, Int)] = []
      for (low, high) in ranges where high > low {
        let middle = low + (high - low) / 2
        let axis = places.splitAxis(at: middle)
        let pivot = Float(places.unitVector(at: middle)[axis])
        for index in low..<middle { #expect(Float(places.unitVector(at: index)[axis]) <= pivot) }
        for index in (middle + 1)..<high { #expect(Float(places.unitVector(at: index)[axis]) >= pivot) }
        next += [(low, middle), (middle + 1, high)]
      }
      ranges = next
    }
  }

  @Test func timeZonesIncludeOceanBands() throws {
    let zones = try Self.data.timeZones()
    #expect(
      zones.identifiers(containing: try Coordinate(latitude: 56, longitude: 8.5)) == ["Europe/Copenhagen"])
    #expect(zones.identifiers(containing: try Coordinate(latitude: -56, longitude: -171.5)) == ["Etc/GMT+11"])
  }

  @Test func coastlinesTellLandFromSeaAndLakes() throws {
    for resolution in CoastlineResolution.allCases {
      let coast = try Self.data.coastline(resolution)
      #expect(coast.levels(containing: try Coordinate(latitude: 56, longitude: 8.5)).first == .land)
      #expect(coast.levels(containing: try Coordinate(latitude: -56, longitude: -171.5)).isEmpty)
    }
    let high = try Self.data.coastline(.high)
    // Lake Superior.
    #expect(high.levels(containing: try Coordinate(latitude: 47.7, longitude: -87.5)).first == .lake)
  }

  @Test func ringsDecodeClosedAndInsideTheirBoxes() throws {
    let countries = try Self.data.countries().polygons
    for ring in stride(from: 0, to: countries.ringCount, by: 97) {
      let info = countries.ring(ring)
      let vertices = countries.vertices(ofRing: ring)
      #expect(vertices.count == info.vertexCount)
      #expect(vertices.first == vertices.last)
      #expect(vertices.allSatisfy(info.box.contains))
    }
  }

  @Test func foldingMatchesTheBuild() {
    #expect(PlaceNameKey.fold("København") == "kobenhavn")
    #expect(PlaceNameKey.fold("  Saint-Étienne ") == "saint etienne")
    #expect(PlaceNameKey.fold("Straße") == "strasse")
    #expect(PlaceNameKey.fold("Москва") == "москва")
  }

  @Test func everyLayerVerifies() throws {
    try Self.data.verify()
  }
}

/// The vertex stream's varints, read eight bytes at a time where there are as many, are what reading a
/// byte at a time gives: every length up to the ten bytes allowed, values at their groups' limits, and
/// streams that end inside a varint.
@Suite struct VarintTests {
  /// The varint at `position` read a byte at a time, as the format describes it; nil past ten bytes or
  /// the end.
  static func reference(_ bytes: [UInt8], _ position: inout Int) -> UInt64? {
    var result: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      guard position < bytes.count, shift < 64 else { return nil }
      let byte = bytes[position]
      position += 1
      result |= UInt64(byte & 0x7F) << shift
      shift += 7
      if byte < 0x80 { return result }
    }
  }

  static func encode(_ value: UInt64, length: Int) -> [UInt8] {
    // `length` bytes, the value's groups padded with continuation bytes of zero groups where it is shorter.
    (0..<length).map { index in
      let group = index * 7 < 64 ? UInt8(truncatingIfNeeded: value >> UInt64(index * 7)) & 0x7F : 0
      return index == length - 1 ? group : group | 0x80
    }
  }

  @Test("Varints of every length decode alike eight bytes at a time and one byte at a time, to the end")
  func wordAtATimeIsByteAtATime() {
    var generator = SplitMix64(seed: 8)
    var stream: [UInt8] = []
    for round in 0..<20_000 {
      let length = 1 + Int(generator.next() % 10)
      let bits = min(64, 7 * length)
      let random = generator.next()
      // Random values, and the largest and smallest of each length's groups.
      let value =
        round % 3 == 0 ? (bits == 64 ? .max : (1 << UInt64(bits)) - 1) : (round % 3 == 1 ? 0 : random)
      stream += Self.encode(bits == 64 ? value : value & ((1 << UInt64(bits)) - 1), length: length)
    }
    // Every cut of the stream's last bytes, so that varints end inside the last eight bytes or are cut off.
    for cut in 0..<24 {
      let bytes = Array(stream.dropLast(cut))
      var (position, expectedPosition) = (0, 0)
      var count = 0
      bytes.withUnsafeBytes { raw in
        while true {
          let found = PolygonLayer.varint(raw, &position)
          let expected = Self.reference(bytes, &expectedPosition)
          #expect(found == expected, "at byte \(expectedPosition) of \(bytes.count)")
          guard let found, found == expected, position == expectedPosition else {
            #expect(position == expectedPosition || expected == nil)
            break
          }
          count += 1
        }
      }
      #expect(count > 19_990, "\(count) varints before the end")
    }
    // A varint running past ten bytes, at every offset from the eight-byte window: refused by both.
    for offset in 0..<12 {
      let bytes = Array(repeating: UInt8(1), count: offset) + [0xFF] + Array(repeating: 0x80, count: 10) + [1]
      var (position, expectedPosition) = (0, 0)
      bytes.withUnsafeBytes { raw in
        for _ in 0..<offset {
          #expect(PolygonLayer.varint(raw, &position) == 1 && Self.reference(bytes, &expectedPosition) == 1)
        }
        #expect(PolygonLayer.varint(raw, &position) == nil && Self.reference(bytes, &expectedPosition) == nil)
      }
    }
  }
}
