import TunnelReports

/// Photon's HTTP answers (`/api` and `/reverse`) made from ``GeocodedPlace``s: GeoJSON feature collections
/// with Photon's property names and order, and its error body.
///
/// Photon's `osm_type` and `osm_id` are left out (Tunnel's places are not OpenStreetMap objects; Photon
/// leaves both out when it has none), as are `postcode`, `housenumber`, `street`, `extra`, which Tunnel
/// does not know.
public enum Photon {
  /// `{"type":"FeatureCollection","features":[…]}`, best first; `features` is empty when `places` is.
  public static func featureCollection(_ places: [GeocodedPlace]) -> JSONValue {
    .object([("type", "FeatureCollection"), ("features", .array(places.map(feature)))])
  }

  /// One place as a feature: its properties, then its point.
  ///
  /// The properties come in Photon's order: `osm_key`, `osm_value`, `type`, `name`, then the areas the
  /// place lies in (`district`, `city`, `state`, `country`, each left out when it is the place's own
  /// `type`), `countrycode` in upper case, and `extent` as `[west, north, east, south]`.
  public static func feature(_ place: GeocodedPlace) -> JSONValue {
    let ownType = type(rank: place.kind.addressRank)
    var properties: [(String, JSONValue)] = [
      ("osm_key", .string(place.kind.osmKey)),
      ("osm_value", .string(place.kind.osmValue)),
      ("type", .string(ownType)),
    ]
    if !place.name.isEmpty { properties.append(("name", .string(place.name))) }
    properties += areas(place, ownType: ownType).map { ($0.type, JSONValue.string($0.name)) }
    if let code = place.countryCode { properties.append(("countrycode", .string(code.uppercased()))) }
    let box = place.boundingBox
    properties.append(
      ("extent", .array([box.west, box.north, box.east, box.south].map { JSONValue.number($0, places: 7) })))
    return .object([
      ("type", "Feature"),
      ("properties", .object(properties)),
      (
        "geometry",
        .object([
          ("type", "Point"),
          ("coordinates", .array([.number(place.longitude, places: 7), .number(place.latitude, places: 7)])),
        ])
      ),
    ])
  }

  /// Photon's error body: `{"message":"…"}`.
  public static func error(message: String) -> JSONValue {
    .object([("message", .string(message))])
  }

  /// Photon's `type` for a Nominatim address rank: `house`, `street`, `locality`, `district`, `city`,
  /// `county`, `state`, `country`, or `other` (seas, oceans, inland water: rank 0).
  static func type(rank: Int) -> String {
    switch rank {
    case 29...30: "house"
    case 26...28: "street"
    case 22...25: "locality"
    case 17...21: "district"
    case 13...16: "city"
    case 10...12: "county"
    case 5...9: "state"
    case 4: "country"
    default: "other"
    }
  }

  /// The areas around the place by Photon's type, in the order Photon writes them; the first name of a
  /// type wins, and none is given the place's own type.
  static func areas(_ place: GeocodedPlace, ownType: String) -> [(type: String, name: String)] {
    var named: [String: String] = [:]
    for line in Nominatim.addressLines(place) where !line.isPlaceItself {
      guard let name = line.name else { continue }
      let lineType = type(rank: line.rank)
      if lineType != ownType, named[lineType] == nil { named[lineType] = name }
    }
    return ["street", "locality", "district", "city", "county", "state", "country"].compactMap { type in
      named[type].map { (type: type, name: $0) }
    }
  }
}
