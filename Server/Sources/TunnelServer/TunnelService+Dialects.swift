import Foundation
import TunnelGeo

/// Nominatim's and Photon's routes, answered from Tunnel's data.
extension TunnelService {
  /// The version of Tunnel's place data, for `/status`: the date its manifest was written.
  static func dataUpdated(_ data: PlaceData) -> String {
    let path = data.directory + "/MANIFEST.sha256"
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
      let date = attributes[.modificationDate] as? Date
    else { return "unknown" }
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: date)
  }

  /// `format` for Nominatim: `jsonv2` by default, as Nominatim's own default for its new endpoints.
  static func nominatimFormat(
    _ query: QueryParameters, default value: NominatimFormat
  ) throws(AnswerError) -> NominatimFormat {
    guard let text = query["format"] else { return value }
    guard let format = NominatimFormat(rawValue: text.lowercased()) else {
      let names = NominatimFormat.allCases.map(\.rawValue).joined(separator: ", ")
      throw .badRequest("Parameter 'format' must be one of: \(names)")
    }
    return format
  }

  /// Nominatim's `addressdetails`: 0 or 1, on by default for reverse, off for search.
  static func addressDetails(_ query: QueryParameters, default value: Bool) throws(AnswerError) -> Bool {
    guard let text = query["addressdetails"] else { return value }
    switch text {
    case "1", "true": return true
    case "0", "false", "": return false
    default: throw .badRequest("Parameter 'addressdetails' must be 0 or 1, not \(EchoedText.quoted(text))")
    }
  }

  /// `/reverse`: the thing at `lat`, `lon` (at `zoom`'s detail), in any of Nominatim's formats.
  func nominatimReverse(_ query: QueryParameters, format: NominatimFormat) throws(AnswerError) -> String {
    guard let latitude = query["lat"], let longitude = query["lon"] else {
      throw .badRequest("Need coordinates or OSM object to lookup.")
    }
    let coordinate = try Self.coordinate(latitude: latitude, longitude: longitude)
    var detail = Detail.settlement
    if let text = query["zoom"] {
      guard let zoom = Int(text), (0...18).contains(zoom) else {
        throw .badRequest(
          "Parameter 'zoom' must be a whole number from 0 to 18, not \(EchoedText.quoted(text))")
      }
      detail = Detail(zoom: zoom)
    }
    let details = try Self.addressDetails(query, default: true)
    guard let place = try geocodedPlace(at: coordinate, detail: detail) else {
      return Nominatim.unableToGeocode(format: format)
    }
    return Nominatim.reverse(
      place, format: format, addressDetails: details,
      queryString: format == .xml || format == .geocodejson ? query.text : "")
  }

  /// `/search`: the places a name (`q`, or the structured `city`, `county`, `state`, `country`) names.
  func nominatimSearch(_ query: QueryParameters, format: NominatimFormat) throws(AnswerError) -> String {
    var text = query["q"]
    if text == nil {
      let parts = ["city", "county", "state", "country"].compactMap { query[$0] }.filter { !$0.isEmpty }
      if !parts.isEmpty { text = parts.joined(separator: ", ") }
    }
    guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      throw .badRequest("Nothing to search for.")
    }
    let limit = try Self.limit(query, default: 10, maximum: 40)
    let details = try Self.addressDetails(query, default: false)
    let found = try searchPlaces(text, limit: limit, filters: try SearchFilters.nominatim(query))
    return Nominatim.search(
      found, format: format, addressDetails: details,
      queryString: format == .xml || format == .geocodejson ? query.text : "")
  }

  /// `/photon/api`: the places `q` names.
  func photonSearch(_ query: QueryParameters) throws(AnswerError) -> [GeocodedPlace] {
    guard let text = query["q"], !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      throw .badRequest("missing search term 'q': /api?q=berlin")
    }
    return try searchPlaces(
      text, limit: try Self.limit(query, default: 10, maximum: 50), filters: try SearchFilters.photon(query)
    )
  }

  /// `/photon/reverse`: the thing at `lat`, `lon`.
  func photonReverse(_ query: QueryParameters) throws(AnswerError) -> [GeocodedPlace] {
    guard let latitude = query["lat"], let longitude = query["lon"] else {
      throw .badRequest("missing 'lat' and 'lon': /reverse?lat=52.5&lon=13.4")
    }
    let coordinate = try Self.coordinate(latitude: latitude, longitude: longitude)
    return try geocodedPlace(at: coordinate).map { [$0] } ?? []
  }
}

extension QueryParameters {
  /// The parameters written back as a query string (for Nominatim's XML `querystring` attribute).
  var text: String {
    names.map { name in
      let value = self[name] ?? ""
      return Self.escaped(name) + "=" + Self.escaped(value)
    }.joined(separator: "&")
  }

  private static func escaped(_ text: String) -> String {
    text.addingPercentEncoding(
      withAllowedCharacters: .urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+"))) ?? ""
  }
}
