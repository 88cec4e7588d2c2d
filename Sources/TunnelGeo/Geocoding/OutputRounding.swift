import Foundation

/// Rounding applied when results are encoded, so that JSON carries `18.4` rather than the last bits
/// of a computation (`18.399999999999977`).
///
/// Degrees get ``degreePlaces`` decimals (9 unless set for a task, 0.1 mm) and kilometres three fewer
/// (6 by default, 1 mm), one at least:
///
///     try OutputRounding.$degreePlaces.withValue(5) { try JSONEncoder().encode(placemark) }
public enum OutputRounding {
  /// Decimals of degrees in encoded results, for the current task.
  @TaskLocal public static var degreePlaces = 9

  /// Degrees to ``degreePlaces`` decimals.
  public static func degrees(_ value: Double) -> Double { rounded(value, places: degreePlaces) }

  /// A longitude to ``degreePlaces`` decimals, as ``longitude(_:places:)`` writes it.
  public static func longitude(_ value: Double) -> Double { longitude(value, places: degreePlaces) }

  /// A longitude to `places` decimals, kept in -180..<180 as ``Coordinate`` holds longitudes: one that
  /// rounds to 180 is written -180, the same meridian, as the text formats write it
  /// (``Coordinate/formatted(_:)``). The antipode of `10 -1e-10` is at -180, as that of `10 0` is.
  public static func longitude(_ value: Double, places: Int) -> Double {
    let written = rounded(value, places: places)
    return written == 180 ? -180 : written
  }

  /// Kilometres to three decimals fewer than degrees, and never to whole kilometres.
  public static func kilometres(_ value: Double) -> Double {
    rounded(value, places: kilometrePlaces(degreePlaces))
  }

  /// The decimals of kilometres beside `degreePlaces` decimals of degrees: three fewer (a thousandth of a
  /// degree is about a hundred metres), and at least one, so that no precision rounds a distance to
  /// whole kilometres.
  public static func kilometrePlaces(_ degreePlaces: Int) -> Int { max(1, degreePlaces - 3) }

  /// `value` rounded to `places` decimals: the double nearest the decimal that its exact binary value
  /// rounds to (`-0` made `0`).
  public static func rounded(_ value: Double, places: Int) -> Double {
    let scale = pow(10, Double(places))
    let scaled = value * scale
    // Below 2⁵⁰ the product is within a quarter of the exact one: rounding it finds the right integer.
    if abs(scaled) < 0x1p50 { return scaled.rounded() / scale + 0 }
    guard value.isFinite else { return value }
    // Past it, the product's error could round the last decimal wrong (-4.4545019 at 15 places came back
    // -4.454501900000001): the C library rounds the exact binary value in decimal.
    return (Double(String(format: "%.\(places)f", value)) ?? value) + 0
  }
}
