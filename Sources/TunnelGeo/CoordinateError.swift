/// What was wrong with a coordinate or with the text it was read from.
///
/// Every case reads as a plain sentence through ``description``, saying what was wrong and, for text,
/// what would have been understood.
public enum CoordinateError: Error, Sendable, Hashable, CustomStringConvertible {
  /// One of the two axes of a coordinate.
  public enum Axis: String, Sendable, Hashable {
    case latitude, longitude
  }

  /// The latitude lies outside -90…90, or is infinite (a number too large to hold, as `1e400`).
  case latitudeOutOfRange(Double)
  /// A signed longitude lies outside -180…360, or is infinite (only text and tables are held to this;
  /// numbers are normalised).
  case longitudeOutOfRange(Double)
  /// A longitude given with a hemisphere letter lies past 180°, signed east (`200E` is 200, `200W`
  /// -200).
  case hemisphereLongitudeOutOfRange(Double)
  /// A number is not a number (NaN), or infinite where only finite numbers are taken.
  case notFinite(axis: Axis, value: Double)
  /// The text could not be read as a coordinate; `reason` says why, and `example`, when there is one,
  /// shows how what was meant is written (`as in '33.9S 18.4E' or 'S33.9 E18.4'`). A front end with an
  /// example of its own gives it where the error has none.
  case unparsable(text: String, reason: String, example: String? = nil)
  /// The text is in a notation Tunnel recognises but cannot read offline (a short link, a what3words
  /// address); `explanation` is the whole sentence, saying what to paste instead.
  case unsupported(text: String, explanation: String)

  public var description: String {
    switch self {
    case .latitudeOutOfRange(let value) where value.isInfinite:
      return "the latitude is too large: it must lie in -90…90"
    case .latitudeOutOfRange(let value):
      return "latitude \(Self.number(value)) is outside -90…90"
    case .longitudeOutOfRange(let value) where value.isInfinite:
      return "the longitude is too large: it must lie in -180…360"
    case .longitudeOutOfRange(let value):
      return "longitude \(Self.number(value)) is outside -180…360"
    case .hemisphereLongitudeOutOfRange(let value):
      return
        "longitude \(Self.number(abs(value)))°\(value < 0 ? "W" : "E") is past 180°: with E or W a longitude lies in 0…180"
    case .notFinite(let axis, let value):
      return "\(axis.rawValue) \(value) is not a finite number"
    case .unparsable(let text, let reason, let example):
      return "cannot read \(EchoedText.quoted(text)) as a coordinate: \(reason)"
        + (example.map { ", " + $0 } ?? "")
    case .unsupported(_, let explanation):
      return explanation
    }
  }

  /// Examples of text that reads as a coordinate, for error messages and help.
  public static let examples =
    "'56.0 8.5', '-33.9, 18.4', '33.9S 18.4E', '56°33′N 8°19′E', '+5633+00819/' or 'geo:56,8.5'"

  /// `91` rather than `91.0`; other numbers as Swift prints them.
  public static func number(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
  }
}
