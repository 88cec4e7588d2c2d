import Foundation

/// Rounding applied when results are encoded, so that JSON carries `18.4` rather than the last bits
/// of a computation (`18.399999999999977`).
public enum OutputRounding {
  /// Degrees to 9 decimals (0.1 mm).
  public static func degrees(_ value: Double) -> Double { rounded(value, places: 9) }

  /// Kilometres to 6 decimals (1 mm).
  public static func kilometres(_ value: Double) -> Double { rounded(value, places: 6) }

  private static func rounded(_ value: Double, places: Int) -> Double {
    let scale = pow(10, Double(places))
    return (value * scale).rounded() / scale + 0
  }
}
