import Foundation
import XCTest

@testable import TunnelServer

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Nominatim's and Photon's answers, read back with Foundation's own JSON and XML parsers: their shapes,
/// member order (from the raw text), strings against numbers, and escaping.
final class DialectFormatTests: XCTestCase {
  /// 56.0 N 8.5 E as a reverse query answers it: the town of Skjern in Midtjylland, Denmark.
  static let skjern = GeocodedPlace(
    kind: .town, name: "Skjern", latitude: 55.9551, longitude: 8.4968,
    boundingBox: .init(south: 55.93, north: 55.98, west: 8.46, east: 8.53), settlement: "Skjern",
    regionName: "Midtjylland", regionCode: "DK-82", countryName: "Denmark", countryCode: "DK",
    id: 2_613_939, population: 7_800, importance: 0.35)

  /// Skjern's antipode, at sea: no country, no importance of its own.
  static let ocean = GeocodedPlace(
    kind: .ocean, name: "South Pacific Ocean", latitude: -56, longitude: -171.5,
    boundingBox: .init(south: -60, north: 0, west: -180, east: -70), seaName: "South Pacific Ocean",
    id: 42, importance: 0)

  /// A region of Norway, whose first-level regions Nominatim calls counties.
  static let vestland = GeocodedPlace(
    kind: .state, name: "Vestland", latitude: 60.9, longitude: 6.2,
    boundingBox: .init(south: 59.5, north: 62.4, west: 4.5, east: 8.3), regionName: "Vestland",
    regionCode: "NO-46", countryName: "Norway", countryCode: "NO", id: 7, importance: 0.5)

  /// A name holding every character XML and JSON must escape, a control character XML cannot hold, and a tab.
  static let hostileName = "A&B <C> \"D\" 'E'\u{1}F\tG"
  static let hostile = GeocodedPlace(
    kind: .city, name: hostileName, latitude: 1, longitude: 2,
    boundingBox: .init(south: 0.5, north: 1.5, west: 1.5, east: 2.5), settlement: hostileName,
    countryName: "Côte d'Ivoire", countryCode: "CI", id: 9, importance: 0.1)

  // MARK: - Nominatim JSON

  func testReverseJSONHasNominatimsMembersInOrderWithPositionsAsTexts() throws {
    let text = Nominatim.reverse(Self.skjern, format: .json, addressDetails: true, queryString: "")
    try assertOrder(
      text,
      [
        "place_id", "licence", "lat", "lon", "class", "type", "place_rank", "importance", "addresstype",
        "name",
        "display_name", "address", "town", "state", "ISO3166-2-lvl4", "country", "country_code",
        "boundingbox",
      ])
    let object = try jsonObject(text)
    XCTAssertEqual(
      Set(object.keys),
      [
        "place_id", "licence", "lat", "lon", "class", "type", "place_rank", "importance", "addresstype",
        "name",
        "display_name", "address", "boundingbox",
      ])
    XCTAssertTrue(text.contains(#""lat":"55.9551000","lon":"8.4968000""#), text)
    XCTAssertTrue(text.contains(#""place_id":2613939,"#), text)
    XCTAssertTrue(text.contains(#""boundingbox":["55.9300000","55.9800000","8.4600000","8.5300000"]"#), text)
    XCTAssertEqual(object["class"] as? String, "place")
    XCTAssertEqual(object["type"] as? String, "town")
    XCTAssertEqual((object["place_rank"] as? NSNumber)?.intValue, 18)
    XCTAssertEqual((object["importance"] as? NSNumber)?.doubleValue ?? 0, 0.35, accuracy: 1e-9)
    XCTAssertEqual(object["addresstype"] as? String, "town")
    XCTAssertEqual(object["display_name"] as? String, "Skjern, Midtjylland, Denmark")
    XCTAssertEqual(object["licence"] as? String, Nominatim.licence)
    XCTAssertNil(object["osm_id"])
    let address = try XCTUnwrap(object["address"] as? [String: String])
    XCTAssertEqual(
      address,
      [
        "town": "Skjern", "state": "Midtjylland", "ISO3166-2-lvl4": "DK-82", "country": "Denmark",
        "country_code": "dk",
      ])
  }

  func testACountyComesBetweenTheTownAndTheState() throws {
    var place = Self.skjern
    place.countryName = "France"
    place.countryCode = "FR"
    place.regionName = "Île-de-France"
    place.regionCode = "FR-IDF"
    place.subregionName = "Yvelines"
    place.subregionCode = "FR-78"
    let text = Nominatim.reverse(place, format: .json, addressDetails: true, queryString: "")
    try assertOrder(
      text,
      ["address", "town", "county", "ISO3166-2-lvl6", "state", "ISO3166-2-lvl4", "country", "country_code"])
    let address = try XCTUnwrap(try jsonObject(text)["address"] as? [String: String])
    XCTAssertEqual(address["county"], "Yvelines")
    XCTAssertEqual(address["ISO3166-2-lvl6"], "FR-78")
    XCTAssertEqual(Photon.areas(place, ownType: "city").map(\.type), ["county", "state", "country"])
  }

  func testJSONv2DiffersFromJSONOnlyInCategory() throws {
    let json = Nominatim.reverse(Self.skjern, format: .json, addressDetails: true, queryString: "")
    let jsonv2 = Nominatim.reverse(Self.skjern, format: .jsonv2, addressDetails: true, queryString: "")
    XCTAssertTrue(jsonv2.contains(#""category":"place""#), jsonv2)
    XCTAssertFalse(jsonv2.contains(#""class":"#), jsonv2)
    XCTAssertEqual(jsonv2.replacingOccurrences(of: #""category":"#, with: #""class":"#), json)
  }

  func testWithoutAddressDetailsThereIsNoAddress() throws {
    let text = Nominatim.reverse(Self.skjern, format: .jsonv2, addressDetails: false, queryString: "")
    XCTAssertNil(try jsonObject(text)["address"])
  }

  func testSearchJSONIsAnArrayOfPlaces() throws {
    let text = Nominatim.search(
      [Self.skjern, Self.vestland], format: .json, addressDetails: false, queryString: "skjern")
    let array = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    XCTAssertEqual(array.map { $0["name"] as? String }, ["Skjern", "Vestland"])
    XCTAssertEqual(array[1]["class"] as? String, "boundary")
    XCTAssertEqual(array[1]["type"] as? String, "administrative")
    XCTAssertEqual(array[1]["addresstype"] as? String, "county")
  }

  func testNorwegianRegionsAreCountiesAndCarryTheirCode() throws {
    let text = Nominatim.reverse(Self.vestland, format: .json, addressDetails: true, queryString: "")
    try assertOrder(text, ["address", "county", "ISO3166-2-lvl4", "country", "country_code", "boundingbox"])
    let address = try XCTUnwrap(try jsonObject(text)["address"] as? [String: String])
    XCTAssertEqual(
      address, ["county": "Vestland", "ISO3166-2-lvl4": "NO-46", "country": "Norway", "country_code": "no"])
  }

  func testTheSeaIsItsOwnAddress() throws {
    let text = Nominatim.reverse(Self.ocean, format: .json, addressDetails: true, queryString: "")
    let object = try jsonObject(text)
    XCTAssertEqual(object["type"] as? String, "ocean")
    XCTAssertEqual(object["addresstype"] as? String, "ocean")
    XCTAssertEqual((object["place_rank"] as? NSNumber)?.intValue, 2)
    // No importance of its own: Nominatim's stand-in from the rank, 0.40001 - 2/75.
    XCTAssertEqual((object["importance"] as? NSNumber)?.doubleValue ?? 0, 0.3733433, accuracy: 1e-6)
    XCTAssertEqual(object["address"] as? [String: String], ["ocean": "South Pacific Ocean"])
    XCTAssertTrue(text.contains(#""lat":"-56.0000000","lon":"-171.5000000""#), text)
    XCTAssertEqual(object["display_name"] as? String, "South Pacific Ocean")
  }

  // MARK: - GeoJSON and GeocodeJSON

  func testGeoJSONIsAFeatureCollectionWithBoxAndPoint() throws {
    let text = Nominatim.reverse(Self.skjern, format: .geojson, addressDetails: true, queryString: "")
    try assertOrder(
      text,
      [
        "type", "licence", "features", "type", "properties", "place_id", "place_rank", "category", "type",
        "importance", "addresstype", "name", "display_name", "address", "bbox", "geometry", "type",
        "coordinates",
      ])
    let object = try jsonObject(text)
    XCTAssertEqual(object["type"] as? String, "FeatureCollection")
    XCTAssertEqual(object["licence"] as? String, Nominatim.licence)
    let feature = try XCTUnwrap((object["features"] as? [[String: Any]])?.first)
    XCTAssertEqual(feature["type"] as? String, "Feature")
    XCTAssertEqual(numbers(feature["bbox"]), [8.46, 55.93, 8.53, 55.98])
    let geometry = try XCTUnwrap(feature["geometry"] as? [String: Any])
    XCTAssertEqual(geometry["type"] as? String, "Point")
    XCTAssertEqual(numbers(geometry["coordinates"]), [8.4968, 55.9551])
    let properties = try XCTUnwrap(feature["properties"] as? [String: Any])
    XCTAssertEqual(properties["category"] as? String, "place")
    XCTAssertEqual((properties["address"] as? [String: String])?["country_code"], "dk")
  }

  func testGeocodeJSONFollowsTheSpecAsNominatimWritesIt() throws {
    let text = Nominatim.reverse(Self.skjern, format: .geocodejson, addressDetails: true, queryString: "q=1")
    try assertOrder(
      text,
      [
        "type", "geocoding", "version", "attribution", "licence", "query", "features", "type", "properties",
        "geocoding", "place_id", "osm_key", "osm_value", "type", "label", "name", "state", "country",
        "country_code", "admin", "level4", "level2", "geometry",
      ])
    let object = try jsonObject(text)
    let header = try XCTUnwrap(object["geocoding"] as? [String: String])
    XCTAssertEqual(
      header,
      ["version": "0.1.0", "attribution": Nominatim.licence, "licence": "CC BY 4.0", "query": "q=1"])
    let feature = try XCTUnwrap((object["features"] as? [[String: Any]])?.first)
    let properties = try XCTUnwrap((feature["properties"] as? [String: Any])?["geocoding"] as? [String: Any])
    XCTAssertEqual((properties["place_id"] as? NSNumber)?.intValue, 2_613_939)
    XCTAssertEqual(properties["osm_value"] as? String, "town")
    XCTAssertEqual(properties["type"] as? String, "city")
    XCTAssertEqual(properties["label"] as? String, "Skjern, Midtjylland, Denmark")
    XCTAssertNil(properties["city"], "the town is the place itself, not part of its address")
    XCTAssertEqual(properties["country_code"] as? String, "dk")
    XCTAssertEqual(properties["admin"] as? [String: String], ["level4": "Midtjylland", "level2": "Denmark"])
    XCTAssertEqual(numbers((feature["geometry"] as? [String: Any])?["coordinates"]), [8.4968, 55.9551])

    let sea = try jsonObject(
      Nominatim.reverse(Self.ocean, format: .geocodejson, addressDetails: true, queryString: ""))
    let seaFeature = try XCTUnwrap((sea["features"] as? [[String: Any]])?.first)
    let seaProperties = (seaFeature["properties"] as? [String: Any])?["geocoding"] as? [String: Any]
    XCTAssertEqual(seaProperties?["type"] as? String, "locality")
    XCTAssertNil(seaProperties?["country_code"])
  }

  // MARK: - Nominatim XML

  func testReverseXML() throws {
    let text = Nominatim.reverse(
      Self.skjern, format: .xml, addressDetails: true, queryString: "lat=56&lon=8.5&format=xml",
      timestamp: 1_795_682_508)
    XCTAssertTrue(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n<reversegeocode "), text)
    try assertAttributeOrder(text, ["timestamp", "attribution", "querystring"])
    try assertAttributeOrder(
      text, ["place_id", "ref", "lat", "lon", "boundingbox", "place_rank", "address_rank"])
    let root = try xmlTree(text)
    XCTAssertEqual(root.name, "reversegeocode")
    XCTAssertEqual(root.attributes["timestamp"], "Thu, 26 Nov 2026 08:41:48 +00:00")
    XCTAssertEqual(root.attributes["attribution"], Nominatim.licence)
    XCTAssertEqual(root.attributes["querystring"], "lat=56&lon=8.5&format=xml")
    XCTAssertEqual(root.children.map(\.name), ["result", "addressparts"])
    let result = root.children[0]
    XCTAssertEqual(result.text, "Skjern, Midtjylland, Denmark")
    XCTAssertEqual(
      result.attributes,
      [
        "place_id": "2613939", "ref": "Skjern", "lat": "55.9551000", "lon": "8.4968000",
        "boundingbox": "55.9300000,55.9800000,8.4600000,8.5300000", "place_rank": "18", "address_rank": "16",
      ])
    let parts = root.children[1].children
    XCTAssertEqual(parts.map(\.name), ["town", "state", "ISO3166-2-lvl4", "country", "country_code"])
    XCTAssertEqual(parts.map(\.text), ["Skjern", "Midtjylland", "DK-82", "Denmark", "dk"])
  }

  func testSearchXMLPlacesCarryTheirAddressInside() throws {
    let text = Nominatim.search(
      [Self.skjern, Self.ocean], format: .xml, addressDetails: true, queryString: "skjern", timestamp: 0)
    try assertAttributeOrder(
      text,
      [
        "place_id", "ref", "lat", "lon", "boundingbox", "place_rank", "address_rank", "display_name", "class",
        "type", "importance",
      ])
    let root = try xmlTree(text)
    XCTAssertEqual(root.name, "searchresults")
    XCTAssertEqual(root.attributes["timestamp"], "Thu, 01 Jan 1970 00:00:00 +00:00")
    XCTAssertEqual(root.attributes["querystring"], "skjern")
    XCTAssertEqual(root.children.map(\.name), ["place", "place"])
    XCTAssertEqual(root.children[0].attributes["class"], "place")
    XCTAssertEqual(root.children[0].attributes["type"], "town")
    XCTAssertEqual(root.children[0].attributes["importance"], "0.35")
    XCTAssertEqual(root.children[0].children.map(\.name).last, "country_code")
    XCTAssertEqual(root.children[1].attributes["address_rank"], "0")
    XCTAssertEqual(root.children[1].children.map(\.name), ["ocean"])

    let bare = try xmlTree(
      Nominatim.search([Self.skjern], format: .xml, addressDetails: false, queryString: "", timestamp: 0))
    XCTAssertEqual(bare.children.first?.children.count, 0)
  }

  func testEscapingInXMLAndJSON() throws {
    let xml = Nominatim.search(
      [Self.hostile], format: .xml, addressDetails: true, queryString: "a&b<\"'>", timestamp: 0)
    XCTAssertFalse(xml.contains("\u{1}"))
    XCTAssertFalse(xml.contains("\t"))
    for entity in ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&#9;"] {
      XCTAssertTrue(xml.contains(entity), entity)
    }
    let withoutControl = Self.hostileName.replacingOccurrences(of: "\u{1}", with: "")
    let root = try xmlTree(xml)
    XCTAssertEqual(root.attributes["querystring"], "a&b<\"'>")
    let place = try XCTUnwrap(root.children.first)
    XCTAssertEqual(place.attributes["ref"], withoutControl)
    XCTAssertEqual(place.children.first { $0.name == "city" }?.text, withoutControl)
    XCTAssertEqual(place.children.first { $0.name == "country" }?.text, "Côte d'Ivoire")

    let reverse = try xmlTree(
      Nominatim.reverse(Self.hostile, format: .xml, addressDetails: false, queryString: "", timestamp: 0))
    XCTAssertEqual(reverse.children.first?.text, "\(withoutControl), Côte d'Ivoire")

    // JSON keeps the control character, escaped.
    let json = Nominatim.reverse(Self.hostile, format: .jsonv2, addressDetails: true, queryString: "")
    XCTAssertTrue(json.contains(#"\u0001"#), json)
    XCTAssertEqual(try jsonObject(json)["name"] as? String, Self.hostileName)
    let photon = Photon.featureCollection([Self.hostile]).text
    let feature = try XCTUnwrap((try jsonObject(photon)["features"] as? [[String: Any]])?.first)
    XCTAssertEqual((feature["properties"] as? [String: Any])?["name"] as? String, Self.hostileName)
  }

  func testXMLTextDropsWhatXMLCannotHold() {
    XCTAssertEqual(XMLText.escaped("plain Ærø"), "plain Ærø")
    XCTAssertEqual(XMLText.escaped("a\u{0}b\u{1F}c\u{FFFE}d\n"), "abcd&#10;")
    XCTAssertEqual(XMLText.escaped("<&>\"'"), "&lt;&amp;&gt;&quot;&apos;")
  }

  func testXMLTimestamps() {
    XCTAssertEqual(Nominatim.xmlTimestamp(0), "Thu, 01 Jan 1970 00:00:00 +00:00")
    XCTAssertEqual(Nominatim.xmlTimestamp(-1), "Wed, 31 Dec 1969 23:59:59 +00:00")
    XCTAssertEqual(Nominatim.xmlTimestamp(951_782_400), "Tue, 29 Feb 2000 00:00:00 +00:00")
    XCTAssertEqual(Nominatim.xmlTimestamp(1_709_210_096), "Thu, 29 Feb 2024 12:34:56 +00:00")
    XCTAssertEqual(Nominatim.xmlTimestamp(4_102_444_800), "Fri, 01 Jan 2100 00:00:00 +00:00")
  }

  func testFixedDecimals() {
    XCTAssertEqual(Nominatim.fixed(56), "56.0000000")
    XCTAssertEqual(Nominatim.fixed(-0.00000004), "0.0000000")
    XCTAssertEqual(Nominatim.fixed(-0.5), "-0.5000000")
    XCTAssertEqual(Nominatim.fixed(-171.12345678), "-171.1234568")
    XCTAssertEqual(Nominatim.fixed(0.0000001), "0.0000001")
  }

  // MARK: - Empty answers, errors, status

  func testEmptySearch() throws {
    for format in [NominatimFormat.json, .jsonv2] {
      XCTAssertEqual(Nominatim.search([], format: format, addressDetails: true, queryString: "x"), "[]")
    }
    for format in [NominatimFormat.geojson, .geocodejson] {
      let object = try jsonObject(
        Nominatim.search([], format: format, addressDetails: true, queryString: "x"))
      XCTAssertEqual(object["type"] as? String, "FeatureCollection")
      XCTAssertEqual((object["features"] as? [Any])?.count, 0, "\(format)")
    }
    let xml = Nominatim.search([], format: .xml, addressDetails: true, queryString: "x", timestamp: 0)
    let root = try xmlTree(xml)
    XCTAssertEqual(root.name, "searchresults")
    XCTAssertTrue(root.children.isEmpty)
    XCTAssertEqual(Photon.featureCollection([]).text, #"{"type":"FeatureCollection","features":[]}"#)
  }

  func testErrorsAndUnableToGeocode() throws {
    XCTAssertEqual(
      Nominatim.error(code: 400, message: "Parameter 'lat' must be a number.", format: .json),
      #"{"error":{"code":400,"message":"Parameter 'lat' must be a number."}}"#)
    let xml = Nominatim.error(code: 404, message: "a < b", format: .xml)
    XCTAssertTrue(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n"), xml)
    let root = try xmlTree(xml)
    XCTAssertEqual(root.name, "error")
    XCTAssertEqual(root.children.map(\.name), ["code", "message"])
    XCTAssertEqual(root.children.map(\.text), ["404", "a < b"])

    for format in [NominatimFormat.json, .jsonv2, .geojson, .geocodejson] {
      XCTAssertEqual(Nominatim.unableToGeocode(format: format), #"{"error":"Unable to geocode"}"#)
    }
    let unable = try xmlTree(Nominatim.unableToGeocode(format: .xml, queryString: "lat=1", timestamp: 0))
    XCTAssertEqual(unable.name, "reversegeocode")
    XCTAssertEqual(unable.children.map(\.name), ["error"])
    XCTAssertEqual(unable.children.first?.text, "Unable to geocode")
  }

  func testStatusAndContentTypes() throws {
    let text = Nominatim.status(
      format: "text", dataUpdated: "2026-05-04T14:47:00+00:00", softwareVersion: "1.0")
    XCTAssertEqual(text.contentType, "text/plain; charset=utf-8")
    XCTAssertEqual(text.body, "OK")
    let json = Nominatim.status(
      format: "json", dataUpdated: "2026-05-04T14:47:00+00:00", softwareVersion: "1.0",
      databaseVersion: "3")
    XCTAssertEqual(json.contentType, "application/json; charset=utf-8")
    XCTAssertEqual(
      json.body,
      #"{"status":0,"message":"OK","data_updated":"2026-05-04T14:47:00+00:00","software_version":"1.0","database_version":"3"}"#
    )
    XCTAssertEqual(NominatimFormat.xml.contentType, "text/xml; charset=utf-8")
    XCTAssertEqual(NominatimFormat.geojson.contentType, "application/json; charset=utf-8")
  }

  // MARK: - Photon

  func testPhotonFeature() throws {
    let text = Photon.featureCollection([Self.skjern]).text
    try assertOrder(
      text,
      [
        "type", "features", "type", "properties", "osm_key", "osm_value", "type", "name", "state", "country",
        "countrycode", "extent", "geometry", "type", "coordinates",
      ])
    let feature = try XCTUnwrap((try jsonObject(text)["features"] as? [[String: Any]])?.first)
    let properties = try XCTUnwrap(feature["properties"] as? [String: Any])
    XCTAssertEqual(
      Set(properties.keys),
      ["osm_key", "osm_value", "type", "name", "state", "country", "countrycode", "extent"])
    XCTAssertEqual(properties["osm_key"] as? String, "place")
    XCTAssertEqual(properties["osm_value"] as? String, "town")
    XCTAssertEqual(properties["type"] as? String, "city")
    XCTAssertEqual(properties["countrycode"] as? String, "DK")
    XCTAssertEqual(numbers(properties["extent"]), [8.46, 55.98, 8.53, 55.93])
    XCTAssertNil(properties["postcode"])
    XCTAssertEqual(numbers((feature["geometry"] as? [String: Any])?["coordinates"]), [8.4968, 55.9551])
  }

  func testPhotonSeaAndRegion() throws {
    let text = Photon.featureCollection([Self.ocean, Self.vestland]).text
    let features = try XCTUnwrap(try jsonObject(text)["features"] as? [[String: Any]])
    let sea = try XCTUnwrap(features[0]["properties"] as? [String: Any])
    XCTAssertEqual(sea["type"] as? String, "other")
    XCTAssertEqual(sea["osm_value"] as? String, "ocean")
    XCTAssertNil(sea["countrycode"])
    XCTAssertNil(sea["country"])
    let region = try XCTUnwrap(features[1]["properties"] as? [String: Any])
    XCTAssertEqual(region["type"] as? String, "state")
    XCTAssertNil(region["state"], "the region is the place itself")
    XCTAssertEqual(region["country"] as? String, "Norway")
    XCTAssertEqual(region["countrycode"] as? String, "NO")
  }

  func testPhotonError() {
    XCTAssertEqual(Photon.error(message: "missing \"q\"").text, #"{"message":"missing \"q\""}"#)
  }

  // MARK: - Helpers

  private func jsonObject(
    _ text: String, file: StaticString = #filePath, line: UInt = #line
  ) throws
    -> [String: Any]
  {
    let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
    return try XCTUnwrap(value as? [String: Any], "not a JSON object: \(text)", file: file, line: line)
  }

  private func numbers(_ value: Any?) -> [Double]? {
    (value as? [Any])?.compactMap { ($0 as? NSNumber)?.doubleValue }
  }

  /// Checks that `"key":` occurs for each key in turn, each after the one before, in the raw JSON.
  private func assertOrder(
    _ text: String, _ keys: [String], file: StaticString = #filePath, line: UInt = #line
  )
    throws
  {
    try assertSequence(text, keys.map { "\"\($0)\":" }, file: file, line: line)
  }

  /// Checks that ` name="` occurs for each attribute in turn in the raw XML.
  private func assertAttributeOrder(
    _ text: String, _ names: [String], file: StaticString = #filePath, line: UInt = #line
  ) throws {
    try assertSequence(text, names.map { " \($0)=\"" }, file: file, line: line)
  }

  private func assertSequence(_ text: String, _ needles: [String], file: StaticString, line: UInt) throws {
    var rest = text[...]
    for needle in needles {
      let found = try XCTUnwrap(
        rest.range(of: needle), "\(needle) missing or out of order in \(text)", file: file, line: line)
      rest = rest[found.upperBound...]
    }
  }

  /// An element read back by XMLParser.
  final class Element {
    let name: String
    let attributes: [String: String]
    var text = ""
    var children: [Element] = []

    init(name: String, attributes: [String: String]) {
      self.name = name
      self.attributes = attributes
    }
  }

  private final class TreeBuilder: NSObject, XMLParserDelegate {
    var stack: [Element] = []
    var root: Element?

    func parser(
      _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
      qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
      let element = Element(name: elementName, attributes: attributeDict)
      stack.last?.children.append(element)
      if root == nil { root = element }
      stack.append(element)
    }

    func parser(
      _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
      qualifiedName qName: String?
    ) {
      stack.removeLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
      stack.last?.text += string
    }
  }

  private func xmlTree(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> Element {
    let parser = XMLParser(data: Data(text.utf8))
    let builder = TreeBuilder()
    parser.delegate = builder
    XCTAssertTrue(
      parser.parse(), "not well-formed XML (\(String(describing: parser.parserError))): \(text)", file: file,
      line: line)
    return try XCTUnwrap(builder.root, file: file, line: line)
  }
}
