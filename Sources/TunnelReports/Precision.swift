import TunnelGeo
import TunnelSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How many decimals numbers are written with: degrees to ``degrees``, kilometres to ``kilometres`` (three
/// fewer, one at least: a thousandth of a degree is about a hundred metres, and no precision rounds a distance
/// to whole kilometres).
///
/// It is a value given to whatever writes numbers, so that JSON carries `18.4` rather than the last bits of a
/// computation (`18.399999999999977`):
///
///     let report = try AntipodeReport(from: point, named: nil, placemarks: (here, there))
///     print(report.json(precision: Precision(degrees: 5)))
public struct Precision: Sendable, Hashable {
  /// Decimals of degrees, 0 to 15.
  public let degrees: Int

  /// Decimals of kilometres: three fewer than ``degrees``, one at least.
  public var kilometres: Int { max(1, degrees - 3) }

  /// The most decimals there can be: a double has about 16 significant digits, and degrees have up to three
  /// before the point.
  public static let maximumDegrees = 15

  /// What people read: 6 decimals of degrees (0.1 m).
  public static let text = Precision(checked: 6)

  /// What programs read: 9 decimals of degrees (0.1 mm), 6 of kilometres (1 mm).
  public static let data = Precision(checked: 9)

  /// Why a precision was refused.
  public struct OutOfRange: Error, Sendable, Equatable, CustomStringConvertible {
    /// The decimals asked for.
    public var degrees: Int

    public init(degrees: Int) { self.degrees = degrees }

    public var description: String {
      "a precision is 0 to \(Precision.maximumDegrees) decimals of degrees, not \(degrees)"
    }
  }

  /// `degrees` decimals of degrees.
  ///
  /// - Throws: ``OutOfRange`` when `degrees` is not 0 to ``maximumDegrees``.
  public init(degrees: Int) throws(OutOfRange) {
    guard (0...Self.maximumDegrees).contains(degrees) else { throw OutOfRange(degrees: degrees) }
    self.degrees = degrees
  }

  private init(checked degrees: Int) { self.degrees = degrees }

  /// The precision asked for, or `otherwise` when none was.
  public static func given(_ degrees: Int?, otherwise: Precision) throws(OutOfRange) -> Precision {
    guard let degrees else { return otherwise }
    return try Precision(degrees: degrees)
  }

  /// Degrees rounded to ``degrees`` decimals.
  public func degrees(_ value: Double) -> Double { Self.rounded(value, places: degrees) }

  /// A longitude rounded to ``degrees`` decimals and kept in -180..<180, as `Coordinate` holds longitudes:
  /// one that rounds to 180 is written -180, the same meridian, as the text formats write it
  /// (`Coordinate.formatted(_:)`). The antipode of `10 -1e-10` is at -180, as that of `10 0` is.
  public func longitude(_ value: Double) -> Double {
    let written = Self.rounded(value, places: degrees)
    return written == 180 ? -180 : written
  }

  /// Kilometres rounded to ``kilometres`` decimals.
  public func kilometres(_ value: Double) -> Double { Self.rounded(value, places: kilometres) }

  /// `value` rounded to `places` decimals: the double nearest the decimal that its exact binary value rounds
  /// to (`-0` made `0`).
  public static func rounded(_ value: Double, places: Int) -> Double {
    let scale = pow(10, Double(places))
    let scaled = value * scale
    // Below 2⁵⁰ the product is within a quarter of the exact one: rounding it finds the right integer.
    if abs(scaled) < 0x1p50 { return scaled.rounded() / scale + 0 }
    guard value.isFinite else { return value }
    // Past it, the product's error could round the last decimal wrong (-4.4545019 at 15 places came back
    // -4.454501900000001): the C library rounds the exact binary value in decimal.
    return (Double(fixedDecimal(value, places: places)) ?? value) + 0
  }
}
