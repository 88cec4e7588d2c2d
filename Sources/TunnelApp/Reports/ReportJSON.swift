import Foundation
import TunnelGeo

/// JSON as every command prints it, and `tunnel serve` answers with it: pretty, keys sorted (so in the same
/// order every time), slashes unescaped, degrees rounded to `OutputRounding.degreePlaces`.
public enum ReportJSON {
  /// `value` as JSON text, without a final newline.
  public static func string<Value: Encodable>(_ value: Value) throws -> String {
    String(decoding: try data(value), as: UTF8.self)
  }

  /// `value` as JSON bytes, without a final newline.
  public static func data<Value: Encodable>(_ value: Value) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(value)
  }
}
