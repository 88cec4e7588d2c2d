import TunnelGeo

/// A part of a placemark that a batch can add to each row, named by its key in the placemark's JSON.
public enum PlacemarkField: String, Sendable, CaseIterable {
  case land, country, region, sea, nearestPlace, nearestLand, timeZone

  /// Reads a comma-separated list ("country,nearestPlace"); repeated names count once.
  ///
  /// - Throws: ``RowProblem`` naming the first unknown field and listing the known ones.
  public static func list(_ text: String) throws(RowProblem) -> [PlacemarkField] {
    var fields: [PlacemarkField] = []
    for name in text.split(separator: ",", omittingEmptySubsequences: true) {
      let trimmed = name.filter { !$0.isWhitespace }
      guard
        let field = PlacemarkField(rawValue: trimmed)
          ?? allCases.first(where: {
            $0.rawValue.lowercased() == trimmed.lowercased()
          })
      else {
        throw RowProblem(
          "there is no field \(EchoedText.quoted(trimmed)); the fields are \(allCases.map(\.rawValue).joined(separator: ", "))"
        )
      }
      if !fields.contains(field) { fields.append(field) }
    }
    guard !fields.isEmpty else {
      throw RowProblem("name at least one field: \(allCases.map(\.rawValue).joined(separator: ", "))")
    }
    return fields
  }

  /// The CSV columns the field fills, in order.
  var columns: [String] {
    switch self {
    case .land: ["land"]
    case .country: ["country_code", "country_name"]
    case .region: ["region_code", "region_name"]
    case .sea: ["sea", "lake", "in_lake"]
    case .nearestPlace:
      [
        "nearest_place", "nearest_place_country", "nearest_place_latitude", "nearest_place_longitude",
        "nearest_place_population", "nearest_place_km",
      ]
    case .nearestLand:
      [
        "nearest_land_km", "nearest_land_latitude", "nearest_land_longitude", "nearest_land_country_code",
        "nearest_land_country_name", "nearest_land_name", "nearest_land_island",
      ]
    case .timeZone: ["time_zone"]
    }
  }
}

/// What a batch found for one point: the whole placemark, or only the nearest place (the fast path).
public struct BatchAnswer: Sendable {
  public var placemark: Placemark?
  public var nearestPlace: NearestPlace

  public init(placemark: Placemark) {
    self.placemark = placemark
    nearestPlace = placemark.nearestPlace
  }

  public init(nearestPlace: NearestPlace) {
    placemark = nil
    self.nearestPlace = nearestPlace
  }
}

/// How numbers are written: degrees to ``degrees`` decimals, kilometres to ``kilometres``.
public struct NumberPrecision: Sendable {
  public var degrees: Int
  public var kilometres: Int

  /// `places` decimals for degrees and three fewer for kilometres; the default (9 and 6) is that of
  /// `tunnel where --format json`.
  public init(places: Int = 9) {
    degrees = places
    kilometres = max(0, places - 3)
  }
}

extension PlacemarkField {
  /// Appends the field's JSON members (`"country":{…}`), each followed by a comma.
  func writeJSON(_ answer: BatchAnswer, to out: inout OutputBytes, precision: NumberPrecision) {
    func country(_ country: Placemark.Country?) {
      guard let country else { return out.append("null") }
      out.append("{")
      out.key("code")
      out.json(country.code)
      out.append(",")
      out.key("name")
      out.json(country.name)
      out.append("}")
    }
    let placemark = answer.placemark
    switch self {
    case .land:
      out.key("land")
      out.append(placemark.map { $0.land ? "true" : "false" } ?? "null")
    case .country:
      out.key("country")
      country(placemark?.country)
    case .region:
      out.key("region")
      if let region = placemark?.region {
        out.append("{")
        out.key("code")
        out.json(region.code)
        out.append(",")
        out.key("name")
        out.json(region.name)
        out.append("}")
      } else {
        out.append("null")
      }
    case .sea:
      out.key("inLake")
      out.append(placemark.map { $0.inLake ? "true" : "false" } ?? "null")
      out.append(",")
      out.key("lake")
      out.json(placemark?.lake)
      out.append(",")
      out.key("sea")
      out.json(placemark?.sea)
    case .nearestPlace:
      let place = answer.nearestPlace
      out.key("nearestPlace")
      out.append("{")
      out.key("countryCode")
      out.json(place.countryCode)
      out.append(",")
      out.key("distanceKm")
      out.number(place.distanceKm, places: precision.kilometres)
      out.append(",")
      out.key("latitude")
      out.number(place.latitude, places: precision.degrees)
      out.append(",")
      out.key("longitude")
      out.number(place.longitude, places: precision.degrees)
      out.append(",")
      out.key("name")
      out.json(place.name)
      out.append(",")
      out.key("population")
      out.integer(place.population)
      out.append("}")
    case .nearestLand:
      out.key("nearestLand")
      if let land = placemark?.nearestLand {
        out.append("{")
        out.key("country")
        country(land.country)
        out.append(",")
        out.key("distanceKm")
        out.number(land.distanceKm, places: precision.kilometres)
        out.append(",")
        out.key("island")
        out.json(land.island)
        out.append(",")
        out.key("latitude")
        out.number(land.latitude, places: precision.degrees)
        out.append(",")
        out.key("longitude")
        out.number(land.longitude, places: precision.degrees)
        out.append(",")
        out.key("name")
        out.json(land.name)
        out.append("}")
      } else {
        out.append("null")
      }
    case .timeZone:
      out.key("timeZone")
      if let zone = placemark?.timeZone {
        out.append("{")
        out.key("identifier")
        out.json(zone.identifier)
        out.append("}")
      } else {
        out.append("null")
      }
    }
    out.append(",")
  }

  /// Appends the field's CSV columns, each preceded by the separator.
  func writeCSV(
    _ answer: BatchAnswer?, to out: inout OutputBytes, separator: UInt8, precision: NumberPrecision
  ) {
    func field(_ text: String?) {
      out.append(separator)
      if let text { out.field(text, separator: separator) }
    }
    func degrees(_ value: Double?) {
      out.append(separator)
      if let value { out.number(value, places: precision.degrees) }
    }
    func kilometres(_ value: Double?) {
      out.append(separator)
      if let value { out.number(value, places: precision.kilometres) }
    }
    func flag(_ value: Bool?) { field(value.map { $0 ? "true" : "false" }) }
    let placemark = answer?.placemark
    switch self {
    case .land:
      flag(placemark?.land)
    case .country:
      field(placemark?.country?.code)
      field(placemark?.country?.name)
    case .region:
      field(placemark?.region?.code)
      field(placemark?.region?.name)
    case .sea:
      field(placemark?.sea)
      field(placemark?.lake)
      flag(placemark?.inLake)
    case .nearestPlace:
      let place = answer?.nearestPlace
      field(place?.name)
      field(place?.countryCode)
      degrees(place?.latitude)
      degrees(place?.longitude)
      out.append(separator)
      if let place { out.integer(place.population) }
      kilometres(place?.distanceKm)
    case .nearestLand:
      let land = placemark?.nearestLand
      kilometres(land?.distanceKm)
      degrees(land?.latitude)
      degrees(land?.longitude)
      field(land?.country?.code)
      field(land?.country?.name)
      field(land?.name)
      field(land?.island)
    case .timeZone:
      field(placemark?.timeZone.identifier)
    }
  }
}
