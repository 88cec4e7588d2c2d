import TunnelGeo

/// How places read in text output.
public enum PlaceText {
  /// `Skjern, Midtjylland, Denmark (population 7,145)`; for a country, the place that stands for it:
  /// `Denmark: its largest city, Copenhagen, Capital Region (population 1,153,615)`.
  public static func line(_ match: GazetteerMatch) -> String {
    let place = match.place
    var parts = [place.name]
    if let region = place.region?.name, !region.isEmpty, region != place.name { parts.append(region) }
    let country = match.countryName ?? place.countryCode
    if !match.standsForCountry { parts.append(country) }
    let population = place.population > 0 ? " (population \(grouped(place.population)))" : ""
    let line = parts.joined(separator: ", ") + population
    return match.standsForCountry ? "\(country): its largest city, \(line)" : line
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
