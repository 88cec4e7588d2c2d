import TunnelGeo
import TunnelSystem

/// How a placemark reads in text output: a headline, then labelled lines.
public enum PlacemarkText {
  /// "Skjern, Midtjylland, Denmark", "South Pacific Ocean, 951.5 km from Antipodes Island (New Zealand)",
  /// "Lake Superior, Canada".
  public static func headline(_ placemark: Placemark) -> String {
    if placemark.land {
      var parts: [String] = []
      if let locality = placemark.locality { parts.append(locality) }
      // "Madrid, Comunidad de" reads "Comunidad de Madrid", and is left out after the city "Madrid"; a
      // region named as its country ("Reunion" in Réunion) is left out too.
      if let region = placemark.region.map({ PlaceText.regionName($0.name) }), !region.isEmpty,
        !parts.contains(region), !parts.contains(where: { region.hasSuffix(" " + $0) }),
        placemark.country.map({ PlaceNameKey.fold($0.name) != PlaceNameKey.fold(region) }) ?? true
      {
        parts.append(region)
      }
      if let country = placemark.country?.name { parts.append(country) }
      return parts.isEmpty ? "Land outside any country" : parts.joined(by: ", ")
    }
    if let water = placemark.inlandWater {
      return [water, placemark.country?.name].compactMap { $0 }.joined(by: ", ")
    }
    let water = placemark.sea ?? placemark.country.map { "Sea off \($0.name)" } ?? "Open sea"
    guard let land = placemark.nearestLand, let what = land.name ?? land.country?.name else { return water }
    var text = "\(water), \(kilometres(land.distanceKm)) from \(what)"
    if land.name != nil, let country = land.country?.name, country != what {
      // "Fernando de Noronha (Distrito Estadual), Brazil", not two brackets in a row.
      text += what.hasSuffix(")") ? ", \(country)" : " (\(country))"
    }
    return text
  }

  /// Where a placemark is in a few words, for a status line: "Skjern, Denmark", "Denmark" away from any
  /// town, "Lake Superior", "South Pacific Ocean"; nil where the data names nothing.
  ///
  /// It needs the fields ``shortNameFields`` only.
  public static func shortName(_ placemark: Placemark) -> String? {
    if placemark.land {
      guard let locality = placemark.locality else { return placemark.country?.name }
      return [locality, placemark.country?.name].compactMap { $0 }.joined(by: ", ")
    }
    if let water = placemark.inlandWater { return water }
    return placemark.sea ?? placemark.country.map { "Sea off \($0.name)" }
  }

  /// The fields of a placemark ``shortName(_:)`` reads.
  public static let shortNameFields: Placemark.Fields = [.land, .country, .sea, .nearestPlace]

  /// One labelled line under the headline.
  public struct Detail: Equatable, Sendable {
    /// What the line is about: "Surface", "Nearest land", "Nearest place", "Time zone".
    public var label: String
    /// What it says.
    public var value: String

    /// A line labelled `label` saying `value`.
    public init(_ label: String, _ value: String) {
      self.label = label
      self.value = value
    }
  }

  /// The labelled lines under the headline.
  ///
  /// (A struct, not a tuple: a tuple's type is made at run time on first use, and a single query pays for
  /// it.)
  public static func details(_ placemark: Placemark) -> [Detail] {
    var lines: [Detail] = []
    let surface = placemark.land ? "land" : placemark.inLake ? "lake" : "sea"
    var whereLine = surface
    if let country = placemark.country {
      whereLine += ", \(country.name) (\(country.code))"
      if let disputed = country.disputed { whereLine += ", disputed: \(disputed)" }
    }
    if let region = placemark.region {
      whereLine += ", \(PlaceText.regionName(region.name))" + (region.code.map { " (\($0))" } ?? "")
    }
    if let subregion = placemark.subregion {
      whereLine += ", \(subregion.name)" + (subregion.code.map { " (\($0))" } ?? "")
    }
    lines.append(Detail("Surface", whereLine))
    if let land = placemark.nearestLand {
      var value = "\(kilometres(land.distanceKm)) away"
      var name = land.name
      if let island = land.island, let place = name, place != island { name = "\(place) (\(island))" }
      // An island that is a country of its own ("Greenland") is named once.
      let country = land.country?.name == name ? nil : land.country?.name
      let what = [name, country].compactMap { $0 }.joined(by: ", ")
      if !what.isEmpty { value += ", \(what)" }
      lines.append(Detail("Nearest land", value))
    }
    let place = placemark.nearestPlace
    var placeValue = "\(place.name), \(place.countryCode), \(kilometres(place.distanceKm)) away"
    if place.population > 0 { placeValue += " (population \(PlaceText.grouped(place.population)))" }
    lines.append(Detail("Nearest place", placeValue))
    let zone = placemark.timeZone
    // "Asia/Shanghai, also Asia/Urumqi": where the source's zones overlap, every zone in use there.
    lines.append(
      Detail(
        "Time zone", ([zone.identifier] + zone.others.map { "also \($0)" }).joined(by: ", ")))
    if let boundaries = placemark.boundaryKm {
      // "country 0.7 km, time zone 0.4 km away": how far a position may be off before an answer could change.
      let parts = [
        ("country", boundaries.country), ("region", boundaries.region), ("subregion", boundaries.subregion),
        ("time zone", boundaries.timeZone),
      ]
      .compactMap { name, distance in distance.map { "\(name) \(kilometres($0))" } }
      if !parts.isEmpty { lines.append(Detail("Boundaries", parts.joined(by: ", ") + " away")) }
    }
    return lines
  }

  /// `5.6 km`, `951.5 km`, `1,387 km`.
  public static func kilometres(_ value: Double) -> String {
    if value >= 1_000 { return "\(PlaceText.grouped(Int(value.rounded()))) km" }
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(tenths % 10) km"
  }
}
