import TunnelBatch
import TunnelReports

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The answer formats of Nominatim's `/search` and `/reverse` (their `format` parameter).
public enum NominatimFormat: String, Sendable, CaseIterable {
  case json, jsonv2, geojson, geocodejson, xml

  /// The `Content-Type` Nominatim sends with an answer or an error in the format: its JSON type for all
  /// four JSON formats (GeoJSON included), `text/xml` for XML.
  public var contentType: String {
    switch self {
    case .json, .jsonv2, .geojson, .geocodejson: "application/json; charset=utf-8"
    case .xml: "text/xml; charset=utf-8"
    }
  }
}

/// Nominatim's HTTP answers (its API v1) made from ``GeocodedPlace``s, byte for byte in Nominatim's shapes
/// and member order so that its clients (geopy, GDAL, Leaflet Control Geocoder, Traccar) read them
/// unchanged.
///
/// Where Nominatim writes `osm_type` and `osm_id`, nothing is written: Tunnel's places are not
/// OpenStreetMap objects, and Nominatim itself leaves both out for places without one. `place_id` is the
/// place's ``GeocodedPlace/id``. `licence` and `attribution` credit Tunnel's data instead of
/// OpenStreetMap.
public enum Nominatim {
  /// The `licence` (and XML `attribution`) of every answer: the sources of the names and places in it.
  public static let licence = "Data © GeoNames (CC BY 4.0), Natural Earth (public domain)"
  /// GeocodeJSON's short `licence` (Nominatim's is `ODbL`): the licence of the data that asks for credit.
  public static let geocodeJSONLicence = "CC BY 4.0"

  // MARK: - Answers

  /// The answer of `/reverse` for `place`.
  ///
  /// - Parameters:
  ///   - place: the place found at the point asked about.
  ///   - format: the output format asked for (`format=`).
  ///   - addressDetails: whether to add the address (`addressdetails=1`, Nominatim's default for reverse).
  ///   - queryString: XML's `querystring` and GeocodeJSON's `query`; Nominatim gives XML
  ///     `lat=…&lon=…&format=xml` (and `zoom`), the JSON formats an empty text.
  ///   - timestamp: seconds since 1970 for XML's `timestamp`; now when not given.
  public static func reverse(
    _ place: GeocodedPlace, format: NominatimFormat, addressDetails: Bool, queryString: String,
    timestamp: Int? = nil
  ) -> String {
    switch format {
    case .json: jsonPlace(place, classLabel: "class", addressDetails: addressDetails).text
    case .jsonv2: jsonPlace(place, classLabel: "category", addressDetails: addressDetails).text
    case .geojson: geoJSON([place], addressDetails: addressDetails).text
    case .geocodejson:
      geocodeJSON([place], addressDetails: addressDetails, queryString: queryString).text
    case .xml:
      xmlDocument(
        root: "reversegeocode", timestamp: timestamp, queryString: queryString,
        content: xmlReverseResult(place, addressDetails: addressDetails))
    }
  }

  /// The answer of `/search` for `places`, best first: a JSON array, a feature collection, or XML's
  /// `searchresults`, each empty when `places` is.
  ///
  /// - Parameters:
  ///   - places: the places found, best first.
  ///   - format: the output format asked for (`format=`).
  ///   - addressDetails: whether to add each place's address (`addressdetails=1`; off by default in search).
  ///   - queryString: XML's `querystring` and GeocodeJSON's `query`: the text searched for.
  ///   - timestamp: seconds since 1970 for XML's `timestamp`; now when not given.
  public static func search(
    _ places: [GeocodedPlace], format: NominatimFormat, addressDetails: Bool, queryString: String,
    timestamp: Int? = nil
  ) -> String {
    switch format {
    case .json:
      JSONValue.array(places.map { jsonPlace($0, classLabel: "class", addressDetails: addressDetails) }).text
    case .jsonv2:
      JSONValue.array(places.map { jsonPlace($0, classLabel: "category", addressDetails: addressDetails) })
        .text
    case .geojson: geoJSON(places, addressDetails: addressDetails).text
    case .geocodejson:
      geocodeJSON(places, addressDetails: addressDetails, queryString: queryString).text
    case .xml:
      xmlDocument(
        root: "searchresults", timestamp: timestamp, queryString: queryString,
        content: places.map { xmlSearchPlace($0, addressDetails: addressDetails) }.joined())
    }
  }

  /// The body of an error answer: `{"error":{"code":400,"message":"…"}}`, or in XML
  /// `<error><code>400</code><message>…</message></error>` after the XML declaration. The message is
  /// escaped for the format (Nominatim writes it as it is).
  public static func error(code: Int, message: String, format: NominatimFormat) -> String {
    switch format {
    case .json, .jsonv2, .geojson, .geocodejson:
      JSONValue.object([("error", .object([("code", .integer(code)), ("message", .string(message))]))]).text
    case .xml:
      xmlDeclaration + "<error><code>\(code)</code><message>\(XMLText.escaped(message))</message></error>"
    }
  }

  /// The answer of `/reverse` when nothing is found (with status 200): `{"error":"Unable to geocode"}` in
  /// every JSON format, and in XML a `reversegeocode` holding `<error>Unable to geocode</error>`.
  public static func unableToGeocode(
    format: NominatimFormat, queryString: String = "", timestamp: Int? = nil
  ) -> String {
    switch format {
    case .json, .jsonv2, .geojson, .geocodejson:
      JSONValue.object([("error", "Unable to geocode")]).text
    case .xml:
      xmlDocument(
        root: "reversegeocode", timestamp: timestamp, queryString: queryString,
        content: "<error>Unable to geocode</error>")
    }
  }

  /// The answer of `/status` when all is well: `OK` as text, or in JSON
  /// `{"status":0,"message":"OK","data_updated":…,"software_version":…,"database_version":…}`.
  ///
  /// - Parameters:
  ///   - format: `json` for JSON; anything else is taken for `text`, Nominatim's default (the caller
  ///     refuses formats other than the two).
  ///   - dataUpdated: when the data were made, ISO 8601 with its offset (`2026-05-04T14:47:00+00:00`);
  ///     left out when nil.
  ///   - softwareVersion: the server's version.
  ///   - databaseVersion: the version of the data's format; left out when nil.
  public static func status(
    format: String, dataUpdated: String?, softwareVersion: String, databaseVersion: String? = nil
  ) -> (contentType: String, body: String) {
    guard format == "json" else { return ("text/plain; charset=utf-8", "OK") }
    var members: [(String, JSONValue)] = [("status", 0), ("message", "OK")]
    if let dataUpdated { members.append(("data_updated", .string(dataUpdated))) }
    members.append(("software_version", .string(softwareVersion)))
    if let databaseVersion { members.append(("database_version", .string(databaseVersion))) }
    return (NominatimFormat.json.contentType, JSONValue.object(members).text)
  }

  // MARK: - JSON and JSONv2

  /// One place as `json` (`classLabel` `class`) or `jsonv2` (`category`) write it; the two differ only
  /// in that name.
  static func jsonPlace(_ place: GeocodedPlace, classLabel: String, addressDetails: Bool) -> JSONValue {
    // No osm_type and osm_id: see the type's documentation.
    var members: [(String, JSONValue)] = [
      ("place_id", .integer(place.id)),
      ("licence", .string(licence)),
      // Nominatim writes the position as texts with 7 decimals.
      ("lat", .string(fixed(place.latitude))),
      ("lon", .string(fixed(place.longitude))),
      (classLabel, .string(place.kind.osmKey)),
      ("type", .string(place.kind.osmValue)),
      ("place_rank", .integer(place.kind.placeRank)),
      ("importance", importance(place)),
      ("addresstype", .string(addressType(place))),
      ("name", .string(place.name)),
      ("display_name", .string(place.displayName)),
    ]
    if addressDetails { members.append(("address", addressObject(place))) }
    let box = place.boundingBox
    members.append(
      ("boundingbox", .array([box.south, box.north, box.west, box.east].map { JSONValue.string(fixed($0)) })))
    return .object(members)
  }

  /// The `address` of `json`, `jsonv2` and `geojson`: labelled parts, then `country_code` in lower case.
  static func addressObject(_ place: GeocodedPlace) -> JSONValue {
    .object(addressParts(place).map { ($0.label, JSONValue.string($0.value)) })
  }

  // MARK: - GeoJSON

  /// A feature collection with `licence` beside `features`; each feature's properties, its `bbox`
  /// (west, south, east, north) and a point.
  static func geoJSON(_ places: [GeocodedPlace], addressDetails: Bool) -> JSONValue {
    .object([
      ("type", "FeatureCollection"),
      ("licence", .string(licence)),
      ("features", .array(places.map { geoJSONFeature($0, addressDetails: addressDetails) })),
    ])
  }

  static func geoJSONFeature(_ place: GeocodedPlace, addressDetails: Bool) -> JSONValue {
    var properties: [(String, JSONValue)] = [
      ("place_id", .integer(place.id)),
      ("place_rank", .integer(place.kind.placeRank)),
      ("category", .string(place.kind.osmKey)),
      ("type", .string(place.kind.osmValue)),
      ("importance", importance(place)),
      ("addresstype", .string(addressType(place))),
      ("name", .string(place.name)),
      ("display_name", .string(place.displayName)),
    ]
    if addressDetails { properties.append(("address", addressObject(place))) }
    let box = place.boundingBox
    return .object([
      ("type", "Feature"),
      ("properties", .object(properties)),
      ("bbox", .array([box.west, box.south, box.east, box.north].map { JSONValue.number($0, places: 7) })),
      ("geometry", point(place)),
    ])
  }

  /// A GeoJSON point, longitude first.
  static func point(_ place: GeocodedPlace) -> JSONValue {
    .object([
      ("type", "Point"),
      ("coordinates", .array([.number(place.longitude, places: 7), .number(place.latitude, places: 7)])),
    ])
  }

  // MARK: - GeocodeJSON

  /// GeocodeJSON 0.1.0 as Nominatim writes it: a `geocoding` header, and each feature's properties under
  /// `properties.geocoding`.
  static func geocodeJSON(_ places: [GeocodedPlace], addressDetails: Bool, queryString: String) -> JSONValue {
    .object([
      ("type", "FeatureCollection"),
      (
        "geocoding",
        .object([
          ("version", "0.1.0"),
          ("attribution", .string(licence)),
          ("licence", .string(geocodeJSONLicence)),
          ("query", .string(queryString)),
        ])
      ),
      ("features", .array(places.map { geocodeJSONFeature($0, addressDetails: addressDetails) })),
    ])
  }

  static func geocodeJSONFeature(_ place: GeocodedPlace, addressDetails: Bool) -> JSONValue {
    // Nominatim adds `accuracy` to reverse answers, the truncated distance in degrees from the point
    // asked about; Tunnel's places are at that point or name the area around it, so it is left out.
    var members: [(String, JSONValue)] = [
      ("place_id", .integer(place.id)),
      ("osm_key", .string(place.kind.osmKey)),
      ("osm_value", .string(place.kind.osmValue)),
      ("type", .string(geocodeJSONType(rank: place.kind.addressRank))),
      ("label", .string(place.displayName)),
    ]
    if !place.name.isEmpty { members.append(("name", .string(place.name))) }
    if addressDetails {
      let lines = addressLines(place)
      var levels: [(String, JSONValue)] = []
      for line in lines where !line.isPlaceItself && (4..<28).contains(line.rank) {
        guard let name = line.name else { continue }
        let key = geocodeJSONType(rank: line.rank)
        if !levels.contains(where: { $0.0 == key }) { levels.append((key, .string(name))) }
      }
      members += levels
      if let code = place.countryCode { members.append(("country_code", .string(code.lowercased()))) }
      var admin: [(String, JSONValue)] = []
      for line in lines {
        guard let level = line.adminLevel, let name = line.name else { continue }
        admin.append(("level\(level)", .string(name)))
      }
      members.append(("admin", .object(admin)))
    }
    return .object([
      ("type", "Feature"),
      ("properties", .object([("geocoding", .object(members))])),
      ("geometry", point(place)),
    ])
  }

  /// GeocodeJSON's `type` for an address rank: `country`, `state`, `city`, `district`…; ranks outside
  /// 3…28 (seas, oceans, inland water) are clamped, so rank 0 is a `locality`.
  static func geocodeJSONType(rank: Int) -> String {
    switch max(3, min(28, rank)) {
    case 4: "country"
    case 5...9: "state"
    case 10...12: "county"
    case 13...16: "city"
    case 17...21: "district"
    case 25...27: "street"
    case 28: "house"
    default: "locality"
    }
  }

  // MARK: - XML

  private static let xmlDeclaration = "<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n"

  /// The XML declaration and `root` with its `timestamp`, `attribution` and `querystring`, holding
  /// `content` (an empty root is written `<root … />`, as Python's ElementTree writes it).
  static func xmlDocument(root: String, timestamp: Int?, queryString: String, content: String) -> String {
    let attributes = xmlAttributes([
      ("timestamp", xmlTimestamp(timestamp ?? currentTime())),
      ("attribution", licence),
      ("querystring", queryString),
    ])
    guard !content.isEmpty else { return xmlDeclaration + "<\(root)\(attributes) />" }
    return xmlDeclaration + "<\(root)\(attributes)>\(content)</\(root)>"
  }

  /// Reverse's `result` (its text the display name) and, with address details, `addressparts` after it.
  static func xmlReverseResult(_ place: GeocodedPlace, addressDetails: Bool) -> String {
    let result =
      "<result\(xmlAttributes(xmlPlaceAttributes(place)))>\(XMLText.escaped(place.displayName))</result>"
    guard addressDetails else { return result }
    let address = xmlAddress(place)
    return result + (address.isEmpty ? "<addressparts />" : "<addressparts>\(address)</addressparts>")
  }

  /// Search's `place`, with the display name, class, type and importance as attributes and, with
  /// address details, the address inside it.
  static func xmlSearchPlace(_ place: GeocodedPlace, addressDetails: Bool) -> String {
    let attributes = xmlAttributes(
      xmlPlaceAttributes(place) + [
        ("display_name", place.displayName),
        ("class", place.kind.osmKey),
        ("type", place.kind.osmValue),
        ("importance", importance(place).text),
      ])
    let address = addressDetails ? xmlAddress(place) : ""
    guard !address.isEmpty else { return "<place\(attributes) />" }
    return "<place\(attributes)>\(address)</place>"
  }

  /// The attributes reverse's `result` and search's `place` share, in Nominatim's order. `ref` is the
  /// name, as Nominatim gives it for places without a `ref` tag.
  static func xmlPlaceAttributes(_ place: GeocodedPlace) -> [(String, String)] {
    let box = place.boundingBox
    var attributes = [("place_id", String(place.id))]
    if !place.name.isEmpty { attributes.append(("ref", place.name)) }
    attributes += [
      ("lat", fixed(place.latitude)),
      ("lon", fixed(place.longitude)),
      ("boundingbox", [box.south, box.north, box.west, box.east].map(fixed).joined(separator: ",")),
      ("place_rank", String(place.kind.placeRank)),
      ("address_rank", String(place.kind.addressRank)),
    ]
    return attributes
  }

  /// The address as elements named by their labels (`<town>Skjern</town>…<country_code>dk</country_code>`).
  static func xmlAddress(_ place: GeocodedPlace) -> String {
    addressParts(place).map { "<\($0.label)>\(XMLText.escaped($0.value))</\($0.label)>" }.joined()
  }

  static func xmlAttributes(_ attributes: [(String, String)]) -> String {
    attributes.map { " \($0.0)=\"\(XMLText.escaped($0.1))\"" }.joined()
  }

  /// `Wed, 25 Nov 2026 08:41:48 +00:00`: Nominatim's XML `timestamp`, in UTC.
  static func xmlTimestamp(_ secondsSince1970: Int) -> String {
    let days = secondsSince1970 >= 0 ? secondsSince1970 / 86_400 : (secondsSince1970 - 86_399) / 86_400
    let seconds = secondsSince1970 - days * 86_400
    let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    let weekday = weekdays[((days % 7) + 7) % 7]
    let (year, month, day) = civilDate(daysSince1970: days)
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
    let time = "\(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))"
    return "\(weekday), \(two(day)) \(months[month - 1]) \(year) \(time) +00:00"
  }

  /// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's days-to-civil
  /// arithmetic, in 400-year eras).
  static func civilDate(daysSince1970: Int) -> (year: Int, month: Int, day: Int) {
    let shifted = daysSince1970 + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    return (year, month, day)
  }

  private static func currentTime() -> Int { Int(time(nil)) }

  // MARK: - Addresses

  /// One line of an address as Nominatim lists them: the place itself first, then the areas it lies in,
  /// smallest first.
  struct AddressLine: Equatable {
    /// The key in `address` and the element in XML (`town`, `state`, `country`…).
    var label: String
    /// Nil for a region known only by its code.
    var name: String?
    /// Nominatim's address rank of the line.
    var rank: Int
    var isPlaceItself: Bool
    /// OpenStreetMap's `admin_level` of an administrative area (2 a country, 4 a region).
    var adminLevel: Int? = nil
    /// An ISO 3166-2 code, written as `ISO3166-2-lvl<admin level>` after the line's own label.
    var isoCode: String? = nil
  }

  /// The lines of `place`'s address. The country comes as a line of its own even for a country, as
  /// Nominatim adds it to every address (`address` keeps only the first line of each label).
  static func addressLines(_ place: GeocodedPlace) -> [AddressLine] {
    let kind = place.kind
    var lines = [
      AddressLine(
        label: addressType(place), name: place.name.isEmpty ? nil : place.name, rank: kind.addressRank,
        isPlaceItself: true, adminLevel: adminLevel(kind),
        isoCode: kind == .state ? place.regionCode : nil)
    ]
    // GeocodedPlace names a settlement only when the place is one; another kind's is taken for a city.
    if let settlement = nonEmpty(place.settlement), !kind.isSettlement {
      lines.append(AddressLine(label: "city", name: settlement, rank: 16, isPlaceItself: false))
    }
    if kind != .state, kind != .country, let county = nonEmpty(place.subregionName) {
      lines.append(
        AddressLine(
          label: "county", name: county, rank: 12, isPlaceItself: false, adminLevel: 6,
          isoCode: place.subregionCode))
    }
    if kind != .state, kind != .country, nonEmpty(place.regionName) != nil || place.regionCode != nil {
      lines.append(
        AddressLine(
          label: administrativeLabel(rank: 8, countryCode: place.countryCode),
          name: nonEmpty(place.regionName),
          rank: 8, isPlaceItself: false, adminLevel: 4, isoCode: place.regionCode))
    }
    if let country = nonEmpty(place.countryName) {
      lines.append(
        AddressLine(
          label: "country", name: country, rank: 4, isPlaceItself: false,
          adminLevel: kind == .country ? nil : 2))
    }
    return lines
  }

  /// `address`'s members: each line's label with its name (the first line of a label wins), the ISO
  /// 3166-2 code after its region, and `country_code` in lower case last.
  static func addressParts(_ place: GeocodedPlace) -> [(label: String, value: String)] {
    var parts: [(label: String, value: String)] = []
    func set(_ label: String, _ value: String, replacing: Bool) {
      if let index = parts.firstIndex(where: { $0.label == label }) {
        if replacing { parts[index].value = value }
      } else {
        parts.append((label, value))
      }
    }
    for line in addressLines(place) {
      if let name = line.name { set(line.label, name, replacing: false) }
      if let code = line.isoCode, let level = line.adminLevel {
        set("ISO3166-2-lvl\(level)", code, replacing: true)
      }
    }
    if let code = place.countryCode { parts.append(("country_code", code.lowercased())) }
    return parts
  }

  /// Nominatim's `addresstype`: the label of the place's own address line.
  static func addressType(_ place: GeocodedPlace) -> String {
    switch place.kind {
    case .state, .country: administrativeLabel(rank: place.kind.addressRank, countryCode: place.countryCode)
    default: place.kind.osmValue
    }
  }

  /// The label of an administrative boundary by its address rank: `country` (rank 4), `state` (8) —
  /// `county` in Norway and Sweden, whose first-level regions Nominatim calls counties.
  static func administrativeLabel(rank: Int, countryCode: String?) -> String {
    switch (rank / 2, countryCode?.uppercased() ?? "") {
    case (1, _): "continent"
    case (2, _): "country"
    case (4, "NO"), (4, "SE"): "county"
    case (4, _): "state"
    default: "administrative"
    }
  }

  static func adminLevel(_ kind: GeocodedPlace.Kind) -> Int? {
    switch kind {
    case .country: 2
    case .state: 4
    default: nil
    }
  }

  // MARK: - Numbers

  /// Nominatim's `importance`; for a place without one, the stand-in Nominatim computes from its rank.
  static func importance(_ place: GeocodedPlace) -> JSONValue {
    let value = place.importance > 0 ? place.importance : 0.40001 - Double(place.kind.placeRank) / 75
    return .number(value, places: 8)
  }

  /// `value` with exactly 7 decimals (`56.0000000`), as Nominatim writes positions and boxes.
  static func fixed(_ value: Double) -> String {
    let scaled = (value * 10_000_000).rounded()
    guard value.isFinite, scaled.magnitude < 0x1p53 else { return OutputRow.number(value, places: 7) }
    let units = Int(scaled)
    var digits = String(units.magnitude)
    if digits.count < 8 { digits = String(repeating: "0", count: 8 - digits.count) + digits }
    let point = digits.index(digits.endIndex, offsetBy: -7)
    return (units < 0 ? "-" : "") + digits[..<point] + "." + digits[point...]
  }

  private static func nonEmpty(_ text: String?) -> String? {
    guard let text, !text.isEmpty else { return nil }
    return text
  }
}
