import TunnelGeo

/// How places read in text output.
public enum PlaceText {
  /// `Skjern, Midtjylland, Denmark (population 7,145)`.
  public static func line(_ match: GazetteerMatch) -> String {
    let place = match.place
    var parts = [place.name]
    if let region = place.region?.name, !region.isEmpty, region != place.name { parts.append(region) }
    parts.append(match.countryName ?? place.countryCode)
    let population = place.population > 0 ? " (population \(grouped(place.population)))" : ""
    return parts.joined(separator: ", ") + population
  }

  /// `1,234,567`.
  public static func grouped(_ value: Int) -> String {
    var digits = String(abs(value))
    var result = ""
    while digits.count > 3 {
      result = "," + digits.suffix(3) + result
      digits.removeLast(3)
    }
    return (value < 0 ? "-" : "") + digits + result
  }
}
