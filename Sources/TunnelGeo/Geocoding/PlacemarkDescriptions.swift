/// The geocoder's values as people read them in a log, a debugger or a playground: one line each, with
/// the names first and the numbers after them.
///
/// ```swift
/// let placemark = try ReverseGeocoder(data: PlaceData()).placemark(for: Coordinate(latitude: 56, longitude: 8.5))
/// print(placemark)
/// // land in Denmark (DK), Midtjylland (DK-82); nearest place Skjern (DK), 5.6 km away; Europe/Copenhagen; at 56, 8.5
/// ```
extension Placemark: CustomStringConvertible {
  public var description: String {
    var parts: [String] = []
    if land {
      var position = "land"
      if let country { position += " in \(country)" }
      if let region { position += ", \(region)" }
      parts.append(position)
    } else if inLake {
      parts.append(lake.map { "in \($0)" } ?? "in a lake")
    } else {
      parts.append(sea ?? "at sea")
    }
    if let nearestLand { parts.append("nearest land \(nearestLand)") }
    if nearestPlace != .unasked { parts.append("nearest place \(nearestPlace)") }
    if !timeZone.identifier.isEmpty { parts.append(timeZone.identifier) }
    parts.append("at \(Placemark.number(latitude)), \(Placemark.number(longitude))")
    return parts.joined(separator: "; ")
  }

  /// Degrees with at most six decimals, without trailing zeros: `56`, `8.316667`.
  static func number(_ value: Double) -> String {
    let rounded = (value * 1e6).rounded() / 1e6
    return CoordinateError.number(rounded)
  }

  /// Kilometres with one decimal: `5.6 km`.
  static func kilometres(_ value: Double) -> String {
    "\(CoordinateError.number((value * 10).rounded() / 10)) km"
  }
}

extension Placemark.Country: CustomStringConvertible {
  /// `Denmark (DK)`.
  public var description: String { "\(name) (\(code))" }
}

extension Placemark.Region: CustomStringConvertible {
  /// `Midtjylland (DK-82)`, or the name alone when the region has no code.
  public var description: String { code.map { "\(name) (\($0))" } ?? name }
}

extension Placemark.NearestLand: CustomStringConvertible {
  /// `Johnston Island (UM), 164.9 km away at 16.7216, -169.5514`.
  public var description: String {
    let named = [name ?? island, country.map { "(\($0.code))" }].compactMap { $0 }.joined(separator: " ")
    return (named.isEmpty ? "" : named + ", ") + "\(Placemark.kilometres(distanceKm)) away at "
      + "\(Placemark.number(latitude)), \(Placemark.number(longitude))"
  }
}

extension Placemark.TimeZone: CustomStringConvertible {
  /// The identifier: `Europe/Copenhagen`.
  public var description: String { identifier }
}

extension NearestPlace: CustomStringConvertible {
  /// `Skjern (DK), 5.6 km away`; a field not asked for reads `not asked`.
  public var description: String {
    self == .unasked ? "not asked" : "\(name) (\(countryCode)), \(Placemark.kilometres(distanceKm)) away"
  }
}

extension Place: CustomStringConvertible {
  /// `Skjern, Midtjylland, DK (population 7145) at 55.95, 8.5`.
  public var description: String {
    let region = self.region.map(\.name).flatMap { $0.isEmpty ? nil : $0 }
    return ([name, region, countryCode].compactMap { $0 }.joined(separator: ", "))
      + " (population \(population)) at \(coordinate)"
  }
}

extension GazetteerMatch: CustomStringConvertible {
  /// The place, and how it was found when not by its own name.
  public var description: String {
    if pointInsideCountry { return "a point inside \(place.name) at \(place.coordinate)" }
    return place.description
      + (standsForCountry ? ", for its country" : viaAlternateName ? ", by another name" : "")
  }
}

extension LocationQuery: CustomStringConvertible {
  /// The coordinate, after the place's name when the text named one.
  public var description: String {
    guard let place else { return coordinate.description }
    return "\(place.place.name) at \(coordinate)"
  }
}
