import Foundation
import Testing

@testable import TunnelGeo

/// First-level regions from the region polygons, the nearest-place rule where they do not answer.
@Suite struct RegionTests {
  static let geocoder = ReverseGeocoder(data: try! PlaceData())
  /// The batch indexes are built once per test run, for both suites.
  static var indexed: ReverseGeocoder { BatchIndexTests.indexed }

  @Test(
    "The region polygon containing the point names its region, by one-off search and by the batch indexes",
    arguments: [
      (56.0, 8.5, "DK-82", "Midtjylland"),
      (40.7128, -74.0060, "US-NY", "New York"),
      (-33.87, 151.21, "AU-NSW", "New South Wales"),
      // Points where the region of the nearest place is another.
      (47.10075, -96.75482, "US-MN", "Minnesota"),
      (54.50526, -65.71397, "CA-NL", "Newfoundland and Labrador"),
      (-28.59821, 129.15765, "AU-SA", "South Australia"),
      (-25.76374, 132.7851, "AU-NT", "Northern Territory"),
      (54.25931, 133.35901, "RU-KHA", "Khabarovsk"),
      (70.65296, 79.01114, "RU-YAN", "Yamalo-Nenets"),
      // Polygons named as a region that places inside carry, though more carry another (GeoNames' Vaduz,
      // Basel and Asunción; OpenStreetMap puts each city in its own region).
      (47.14151, 9.52154, "LI-11", "Vaduz"),
      (47.55839, 7.57327, "CH-BS", "Basel-Stadt"),
      (-25.28646, -57.647, "PY-ASU", "Asunción"),
    ])
  func polygonRegions(latitude: Double, longitude: Double, code: String, name: String) throws {
    let coordinate = try Coordinate(latitude: latitude, longitude: longitude)
    let region = try #require(try Self.geocoder.placemark(for: coordinate).region)
    #expect(region.code == code)
    #expect(region.name.hasPrefix(name), "\(region.name)")
    #expect(region.source == .polygon)
    #expect(try Self.indexed.placemark(for: coordinate).region == region)
  }

  @Test("A harbour point outside the region polygons takes the region whose shore is within the tolerance")
  func harbour() throws {
    // Off Amager, in Copenhagen's waters: Denmark by the coastal tolerance, and outside every region polygon.
    let coordinate = try Coordinate(latitude: 55.66, longitude: 12.644)
    #expect(try Self.geocoder.data.regions().polygons.features(containing: coordinate).isEmpty)
    let region = try #require(try Self.geocoder.placemark(for: coordinate).region)
    #expect(region.code == "DK-84" && region.source == .polygon)
    #expect(try Self.geocoder.placemark(for: coordinate).land == false)
    #expect(try Self.indexed.placemark(for: coordinate).region == region)
  }

  @Test("Where no polygon gives a region, the nearest place of the country does")
  func fallback() throws {
    // The Northeast Greenland National Park: a polygon with no admin-1 code of its own.
    let coordinate = try Coordinate(latitude: 77.3168, longitude: -36.6137)
    let region = try #require(try Self.geocoder.placemark(for: coordinate).region)
    #expect(region.source == .nearestPlace && region.code?.hasPrefix("GL-") == true)
    #expect(try Self.indexed.placemark(for: coordinate).region == region)
  }

  /// The most populous place of each country has a first-level region: Dublin is in Leinster (IE-L),
  /// Reykjavík in Höfuðborgarsvæði (IS-1), Vilnius in Vilniaus apskritis (LT-VL), Lilongwe in the Central
  /// Region (MW-C). The 20 without one are where GeoNames gives no first-level division the data can name
  /// (most have none in ISO 3166-2: Aruba, Gibraltar, the Vatican, Macao).
  @Test("Every country's largest place has a region, but where GeoNames gives none")
  func largestPlacesHaveRegions() throws {
    let places = try PlaceData().places()
    var largest: [String: Int] = [:]
    for index in 0..<places.count {
      let code = places.countryCode(at: index)
      if largest[code].map({ places.population(at: $0) < places.population(at: index) }) ?? true {
        largest[code] = index
      }
    }
    let codes = largest.keys.sorted()
    let found = try Self.indexed.placemarks(for: codes.map { places.coordinate(at: largest[$0]!) })
    let without = zip(codes, found).filter { $0.1.region == nil }.map(\.0)
    #expect(
      without == [
        "AW", "BL", "CC", "CW", "CX", "EH", "FK", "GI", "GS", "IO", "MF", "MO", "NF", "NU", "PN", "SG", "SX",
        "TC", "VA", "VG",
      ])
    for (code, region) in [("IE", "IE-L"), ("IS", "IS-1"), ("LT", "LT-VL"), ("MW", "MW-C")] {
      #expect(found[codes.firstIndex(of: code)!].region?.code == region, "\(code)")
    }
  }

  @Test("Every region polygon's region belongs to the polygon's country")
  func codesBelongToTheirCountry() throws {
    let regions = try Self.geocoder.data.regions()
    let places = try Self.geocoder.data.places()
    let matched = regions.placeRegions(in: places)
    #expect(matched.count == regions.polygons.featureCount)
    #expect(matched.count { $0 != nil } > regions.polygons.featureCount * 9 / 10)
    for (feature, region) in matched.enumerated() {
      guard let region else { continue }
      #expect(places.region(region).countryCode == regions.countryCode(feature), "\(regions.name(feature))")
      #expect(regions.placeRegion(of: feature, in: places) == region)
    }
  }

  @Test("At sea beyond the tolerance there is no region; the JSON says which rule gave one")
  func sourceInJSON() throws {
    #expect(try Self.geocoder.placemark(for: Coordinate(latitude: -56, longitude: -171.5)).region == nil)
    let here = try Self.geocoder.placemark(for: Coordinate(latitude: 56, longitude: 8.5))
    let json = try #require(
      try JSONSerialization.jsonObject(with: JSONEncoder().encode(here)) as? [String: Any])
    #expect(
      json["region"] as? [String: String] == ["code": "DK-82", "name": "Midtjylland", "source": "polygon"])
  }
}
