import TunnelSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The notations a ``Coordinate`` can be written in; each reads back through
/// ``Coordinate/init(parsing:)`` to the printed precision.
public enum CoordinateFormat: Sendable, Hashable {
  /// Signed decimal degrees, latitude first: `56.550000, 8.316667`.
  case decimal(places: Int = 6)
  /// Degrees, minutes and seconds with hemisphere letters: `56°33′00.0″N 8°19′00.0″E`.
  case dms(secondsPlaces: Int = 1)
  /// ISO 6709 decimal degrees with explicit signs and the closing slash: `+56.550000+008.316667/`.
  case iso6709(places: Int = 6)
}

extension Coordinate {
  /// The coordinate written in the given notation.
  ///
  /// ```swift
  /// try Coordinate(latitude: -33.9, longitude: 18.4).formatted(.dms(secondsPlaces: 0))
  /// // "33°54′00″S 18°24′00″E"
  /// ```
  public func formatted(_ format: CoordinateFormat) -> String {
    switch format {
    case .decimal(let places):
      let longitude = printedLongitude(unitsPerDegree: pow(10, Double(max(0, min(places, 15)))))
      return "\(Self.fixed(latitude, places: places)), \(Self.fixed(longitude, places: places))"
    case .dms(let places):
      let longitude = printedLongitude(unitsPerDegree: 3600 * pow(10, Double(max(0, min(places, 9)))))
      return Self.dms(latitude, places: places, letters: ("N", "S"))
        + " " + Self.dms(longitude, places: places, letters: ("E", "W"))
    case .iso6709(let places):
      let longitude = printedLongitude(unitsPerDegree: pow(10, Double(max(0, min(places, 15)))))
      return Self.fixed(latitude, places: places, signed: true, integerDigits: 2)
        + Self.fixed(longitude, places: places, signed: true, integerDigits: 3) + "/"
    }
  }

  /// The longitude to print at a precision: one that rounds to 180° is written as -180°, as it is
  /// held (longitudes lie in -180..<180), never as 180.
  private func printedLongitude(unitsPerDegree: Double) -> Double {
    (longitude * unitsPerDegree).rounded() >= 180 * unitsPerDegree ? -180 : longitude
  }

  /// `value` with `places` decimals; never `-0.000`.
  static func fixed(_ value: Double, places: Int, signed: Bool = false, integerDigits: Int = 1) -> String {
    let places = max(0, min(places, 15))
    let scale = pow(10, Double(places))
    let rounded = (value * scale).rounded() / scale
    let nonNegative = rounded == 0 ? 0 : rounded
    let width = integerDigits + (places > 0 ? places + 1 : 0) + (signed || nonNegative < 0 ? 1 : 0)
    return fixedDecimal(nonNegative, places: places, width: width, plusSign: signed)
  }

  /// One angle as `D°MM′SS.s″H`, rounded once on the seconds so that carries are exact.
  static func dms(_ value: Double, places: Int, letters: (positive: String, negative: String)) -> String {
    let places = max(0, min(places, 9))
    let perSecond = Int64(pow(10, Double(places)))
    let total = Int64((abs(value) * 3600 * Double(perSecond)).rounded())
    let degrees = total / (3600 * perSecond)
    let minutes = total / (60 * perSecond) % 60
    let seconds = total % (60 * perSecond)
    let letter = value < 0 && total != 0 ? letters.negative : letters.positive
    var secondsText = String(seconds / perSecond)
    if secondsText.count < 2 { secondsText = "0" + secondsText }
    if places > 0 {
      var fraction = String(seconds % perSecond)
      fraction = String(repeating: "0", count: places - fraction.count) + fraction
      secondsText += "." + fraction
    }
    let minutesText = minutes < 10 ? "0\(minutes)" : "\(minutes)"
    return "\(degrees)°\(minutesText)′\(secondsText)″\(letter)"
  }
}
