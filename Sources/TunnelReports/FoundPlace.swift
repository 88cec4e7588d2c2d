import TunnelGeo

/// A place as `find` and `pairs` write it: name, country, region, position and population.
public struct FoundPlace: Sendable, JSONWritable {
  public var name: String
  public var countryCode: String
  /// The first-level region's name; nil when the data has none.
  public var region: String?
  public var coordinate: Coordinate
  public var population: Int

  public init(_ place: Place) {
    name = place.name
    countryCode = place.countryCode
    region = place.region.flatMap { $0.name.isEmpty ? nil : $0.name }
    coordinate = place.coordinate
    population = place.population
  }

  /// `{"countryCode":…,"latitude":…,"longitude":…,"name":…,"population":…,"region":…}`, the region `null`
  /// rather than absent.
  public func writeJSON(to json: inout JSONWriter) {
    json.object { json in
      json.member("countryCode") { $0.string(countryCode) }
      json.member("latitude") { $0.degrees(coordinate.latitude) }
      json.member("longitude") { $0.degrees(coordinate.longitude) }
      json.member("name") { $0.string(name) }
      json.member("population") { $0.integer(population) }
      json.member("region") { $0.string(region) }
    }
  }

  /// "Hamilton, NZ (192,100)".
  public var label: String { "\(name), \(countryCode) (\(PlaceText.grouped(population)))" }
}

/// What `tunnel find` says about the places with a name, best first, in text, JSON and as rows, and what
/// `tunnel serve` answers at `/v1/find`.
public struct FindReport: Sendable, JSONWritable {
  /// The places found, best first.
  public var matches: [GazetteerMatch]

  public init(_ matches: [GazetteerMatch]) {
    self.matches = matches
  }

  /// An array of the places (``FoundPlace``).
  public func writeJSON(to json: inout JSONWriter) {
    matches.map { FoundPlace($0.place) }.writeJSON(to: &json)
  }

  /// A line a place: "Springfield, Illinois, United States (population 114,394)   39.8017, -89.6437", positions
  /// to `precision` (4 decimals, 10 m, when none is given), "(by another name)" after a place found by an
  /// alternate name.
  public func text(precision: Precision? = nil) -> String {
    matches.map { match in
      let places = precision?.degrees ?? 4
      let position = match.place.coordinate.formatted(.decimal(places: places))
      return "\(PlaceText.line(match))   \(position)\(match.viaAlternateName ? "   (by another name)" : "")\n"
    }.joined()
  }

  /// A row a place: its name, country code, region name, position and population.
  public func rows(precision: Precision = .data) -> [OutputRow] {
    matches.map { match in
      let place = match.place
      return OutputRow(
        members: [
          ("name", OutputRow.string(place.name)), ("countryCode", OutputRow.string(place.countryCode)),
          ("regionName", OutputRow.string(place.region.flatMap { $0.name.isEmpty ? nil : $0.name })),
          ("latitude", OutputRow.number(place.coordinate.latitude, places: precision.degrees)),
          ("longitude", OutputRow.number(place.coordinate.longitude, places: precision.degrees)),
          ("population", String(place.population)),
        ], coordinate: place.coordinate)
    }
  }
}
