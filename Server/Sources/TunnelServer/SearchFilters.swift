import Foundation
import TunnelGeo

/// What a search client asks beyond the name, in Nominatim's or Photon's words: which places may answer and
/// which come first. Every filter a client sends is honoured, or refused with the dialect's 400 naming it;
/// none is dropped. Tunnel's searches find countries, first-level regions and populated places (cities,
/// towns, villages, hamlets): a filter that asks for one of those kinds (`featuretype=country`) gets it, and
/// one that admits them alongside other things (`layer=address,poi`) answers with them.
struct SearchFilters {
  /// Upper-case ISO 3166-1 alpha-2 codes a place's country must be one of (nil: any).
  var countryCodes: Set<String>?
  /// The box places must lie in (`bounded`), or are preferred in.
  var box: GeocodedPlace.Box?
  var bounded = false
  /// Places not to answer with, by `place_id`.
  var excluded: Set<Int> = []
  /// The kinds that may answer (nil: any).
  var kinds: Set<GeocodedPlace.Kind>?
  /// Photon's `osm_tag`: each a key, a value or both, to have or (with `!`) not to have.
  var tags: [(key: String?, value: String?, wanted: Bool)] = []
  /// A position nearer places come first from (Photon's `lat` and `lon`).
  var near: Coordinate?

  /// No filter: every place, in the gazetteer's order.
  static let none = SearchFilters()

  /// Whether `place` may answer.
  func admits(_ place: GeocodedPlace) -> Bool {
    if let countryCodes, !countryCodes.contains(place.countryCode ?? "") { return false }
    if bounded, let box, !Self.contains(box, place) { return false }
    if excluded.contains(place.id) { return false }
    if let kinds, !kinds.contains(place.kind) { return false }
    for tag in tags {
      let matches =
        (tag.key.map { $0 == place.kind.osmKey } ?? true)
        && (tag.value.map { $0 == place.kind.osmValue } ?? true)
      if matches != tag.wanted { return false }
    }
    return true
  }

  /// `places` in the order asked: places in an unbounded box first, or nearer ones first; otherwise (and
  /// among equals) as they came.
  func ordered(_ places: [GeocodedPlace]) -> [GeocodedPlace] {
    if let near {
      // Nearer on the sphere is a greater dot product of the unit vectors.
      let here = Self.unitVector(latitude: near.latitude, longitude: near.longitude)
      let closeness = places.map { place in
        let there = Self.unitVector(latitude: place.latitude, longitude: place.longitude)
        return here.0 * there.0 + here.1 * there.1 + here.2 * there.2
      }
      return places.indices.sorted { (-closeness[$0], $0) < (-closeness[$1], $1) }.map { places[$0] }
    }
    if let box, !bounded {
      let inside = places.filter { Self.contains(box, $0) }
      return inside + places.filter { !Self.contains(box, $0) }
    }
    return places
  }

  private static func unitVector(latitude: Double, longitude: Double) -> (Double, Double, Double) {
    let (phi, lambda) = (latitude * .pi / 180, longitude * .pi / 180)
    return (cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi))
  }

  private static func contains(_ box: GeocodedPlace.Box, _ place: GeocodedPlace) -> Bool {
    (box.south...box.north).contains(place.latitude) && (box.west...box.east).contains(place.longitude)
  }

  // MARK: Nominatim

  /// `countrycodes`, `viewbox` with `bounded`, `exclude_place_ids`, `featuretype` and `layer` of a `/search`.
  static func nominatim(_ query: QueryParameters) throws(AnswerError) -> SearchFilters {
    var filters = SearchFilters()
    if let text = query["countrycodes"], !text.isEmpty {
      var codes: Set<String> = []
      for code in text.split(separator: ",", omittingEmptySubsequences: false) {
        let trimmed = code.trimmingCharacters(in: .whitespaces)
        guard trimmed.count == 2, trimmed.allSatisfy({ $0.isASCII && $0.isLetter }) else {
          throw .badRequest(
            "Parameter 'countrycodes' must be two-letter country codes (ISO 3166-1 alpha-2) separated by commas, "
              + "not \(EchoedText.quoted(text))")
        }
        codes.insert(trimmed.uppercased())
      }
      filters.countryCodes = codes
    }
    if let text = query["viewbox"], !text.isEmpty {
      filters.box = try box(
        text, name: "viewbox", order: "x1,y1,x2,y2 (longitude, latitude, longitude, latitude)")
    }
    switch query["bounded"] {
    case nil, "", "0": break
    case "1":
      guard filters.box != nil else {
        throw .badRequest("Parameter 'bounded=1' needs a 'viewbox' to bound to")
      }
      filters.bounded = true
    case let text?: throw .badRequest("Parameter 'bounded' must be 0 or 1, not \(EchoedText.quoted(text))")
    }
    if let text = query["exclude_place_ids"], !text.isEmpty {
      for id in text.split(separator: ",") {
        guard let number = Int(id.trimmingCharacters(in: .whitespaces)) else {
          throw .badRequest(
            "Parameter 'exclude_place_ids' must be place_id numbers separated by commas, not \(EchoedText.quoted(text))"
          )
        }
        filters.excluded.insert(number)
      }
    }
    switch query["featuretype"]?.lowercased() {
    case nil, "": break
    case "settlement": filters.kinds = [.city, .town, .village, .hamlet]
    case "city": filters.kinds = [.city, .town, .village]
    case "state": filters.kinds = [.state]
    case "country": filters.kinds = [.country]
    case let text?:
      throw .badRequest(
        "Parameter 'featuretype' must be one of: country, state, city, settlement (not \(EchoedText.quoted(text)))"
      )
    }
    if let text = query["layer"], !text.isEmpty {
      let layers = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
      let known = ["address", "poi", "railway", "natural", "manmade"]
      if let unknown = layers.first(where: { !known.contains($0) }) {
        throw .badRequest(
          "Parameter 'layer' must be among: \(known.joined(separator: ", ")) (not \(EchoedText.quoted(unknown)))"
        )
      }
      // Populated places are in the address layer: other layers alone admit none.
      if !layers.contains("address") { filters.kinds = [] }
    }
    return filters
  }

  // MARK: Photon

  /// `bbox`, `lat` with `lon`, `osm_tag` and `layer` of a Photon search.
  static func photon(_ query: QueryParameters) throws(AnswerError) -> SearchFilters {
    var filters = SearchFilters()
    if let text = query["bbox"], !text.isEmpty {
      filters.box = try box(text, name: "bbox", order: "minLon,minLat,maxLon,maxLat")
      filters.bounded = true
    }
    switch (query["lat"], query["lon"]) {
    case (nil, nil): break
    case (let latitude?, let longitude?):
      filters.near = try TunnelService.coordinate(latitude: latitude, longitude: longitude)
    default: throw .badRequest("'lat' and 'lon' bias a search only together: give both, or neither")
    }
    for text in query.all("osm_tag") where !text.isEmpty {
      let wanted = !text.hasPrefix("!")
      let tag = wanted ? Substring(text) : text.dropFirst()
      let parts = tag.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
      var key = parts.first.map(String.init).flatMap { $0.isEmpty ? nil : $0 }
      var value = parts.count > 1 ? String(parts[1]) : nil
      // `:!value` excludes a value, as `!key:value` excludes both.
      var keep = wanted
      if let given = value, given.hasPrefix("!") {
        value = String(given.dropFirst())
        keep = false
      }
      if value?.isEmpty == true { value = nil }
      guard key != nil || value != nil else {
        throw .badRequest(
          "invalid 'osm_tag' \(EchoedText.quoted(text)): give key, key:value, :value, each may start with !")
      }
      if key?.hasPrefix("!") == true { key = String(key!.dropFirst()) }
      filters.tags.append((key: key, value: value, wanted: keep))
    }
    let layers = query.all("layer").filter { !$0.isEmpty }
    if !layers.isEmpty {
      let known = ["house", "street", "locality", "district", "city", "county", "state", "country", "other"]
      if let unknown = layers.first(where: { !known.contains($0) }) {
        throw .badRequest(
          "invalid 'layer' \(EchoedText.quoted(unknown)): one of \(known.joined(separator: ", "))")
      }
      filters.kinds = Set(
        GeocodedPlace.Kind.allCases.filter { layers.contains(Photon.type(rank: $0.addressRank)) })
    }
    return filters
  }

  /// Two corners of a box as four numbers in `order`: any two opposite corners, in degrees.
  private static func box(
    _ text: String, name: String, order: String
  ) throws(AnswerError) -> GeocodedPlace.Box {
    let numbers = text.split(separator: ",", omittingEmptySubsequences: false).compactMap {
      Double($0.trimmingCharacters(in: .whitespaces))
    }
    guard numbers.count == 4, numbers.allSatisfy(\.isFinite),
      abs(numbers[0]) <= 180, abs(numbers[2]) <= 180, abs(numbers[1]) <= 90, abs(numbers[3]) <= 90
    else {
      throw .badRequest("'\(name)' must be four numbers \(order) in degrees, not \(EchoedText.quoted(text))")
    }
    return GeocodedPlace.Box(
      south: min(numbers[1], numbers[3]), north: max(numbers[1], numbers[3]),
      west: min(numbers[0], numbers[2]), east: max(numbers[0], numbers[2]))
  }
}
