import TunnelGeo
import TunnelSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How places read in text output.
public enum PlaceText {
  /// `Skjern, Midtjylland, Denmark (population 7,145)`; for a country, the place that stands for it:
  /// `Denmark: its largest city, Copenhagen, Capital Region (population 1,153,615)`.
  public static func line(_ match: GazetteerMatch) -> String {
    let place = match.place
    if match.pointInsideCountry {
      return "\(match.countryName ?? place.name): a point inside it (no place is listed there)"
    }
    var parts = [place.name]
    if let region = place.region?.name, !region.isEmpty, region != place.name { parts.append(region) }
    let country = match.countryName ?? place.countryCode
    if !match.standsForCountry { parts.append(country) }
    let population = place.population > 0 ? " (population \(grouped(place.population)))" : ""
    let line = parts.joined(by: ", ") + population
    return match.standsForCountry ? "\(country): its largest city, \(line)" : line
  }

  /// A region's name as it reads in a sentence: an inverted name from the ISO 3166-2 lists
  /// ("Madrid, Comunidad de", "Valenciana, Comunitat", "Stînga Nistrului, unitatea teritorială din")
  /// turned round, with a capital first ("Comunidad de Madrid", "Comunitat Valenciana", "Unitatea
  /// teritorială din Stînga Nistrului"); any other name as it is.
  public static func regionName(_ name: String) -> String {
    let parts = name.split(separator: ",", omittingEmptySubsequences: false)
    guard parts.count == 2, let tail = parts[1].first(where: { !$0.isWhitespace }), tail.isLetter,
      !parts[0].isEmpty
    else { return name }
    let turned = parts[1].trimmingWhitespace() + " " + parts[0].trimmingWhitespace()
    return turned.prefix(1).uppercased() + turned.dropFirst()
  }

  /// A time zone with its offset from UTC now: "Europe/Copenhagen (UTC+1)", "Etc/GMT+2 (UTC−2)" (an
  /// `Etc/GMT` zone's sign is the reverse of its offset, which is why the offset is written out),
  /// "Asia/Kolkata (UTC+5:30)"; the identifier alone when the system's time zone database
  /// (`/usr/share/zoneinfo`, from Debian's `tzdata`) has no such zone.
  public static func timeZone(_ identifier: String, at date: Date = Date()) -> String {
    guard let zone = TimeZoneRules(identifier: identifier) else { return identifier }
    let seconds = zone.secondsFromGMT(at: Int64(date.timeIntervalSince1970.rounded(.down)))
    let minutes = abs(seconds) / 60
    var offset = "UTC" + (seconds < 0 ? "\u{2212}" : "+") + "\(minutes / 60)"
    if minutes % 60 != 0 { offset += ":" + (minutes % 60 < 10 ? "0" : "") + "\(minutes % 60)" }
    if seconds == 0 { offset = "UTC" }
    return "\(identifier) (\(offset))"
  }

  /// `56.000000, 8.500000   56°00′00.0″N 8°30′00.0″E`: decimals to `precision`, then degrees, minutes and
  /// seconds.
  public static func coordinates(_ coordinate: Coordinate, precision: Precision) -> String {
    coordinate.formatted(.decimal(places: precision.degrees)) + "   "
      + coordinate.formatted(.dms(secondsPlaces: 1))
  }

  /// `20,003.93 km`: to hundredths, after rounding to `precision`'s decimals of kilometres (so that
  /// `--precision 3` reads `20,003.90 km`, as its JSON says 20003.9).
  public static func kilometres(_ value: Double, precision: Precision) -> String {
    let hundredths = Int((precision.kilometres(value) * 100).rounded())
    let fraction = hundredths % 100
    return "\(grouped(hundredths / 100)).\(fraction < 10 ? "0" : "")\(fraction) km"
  }

  /// `1,234,567`.
  public static func grouped(_ value: Int) -> String {
    let digits = Array(String(value.magnitude).utf8)
    var bytes: [UInt8] = value < 0 ? [UInt8(ascii: "-")] : []
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { bytes.append(UInt8(ascii: ",")) }
      bytes.append(digit)
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
