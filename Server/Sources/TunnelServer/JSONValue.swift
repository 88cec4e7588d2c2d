import TunnelBatch

/// JSON whose members keep the order they are given in, written compactly (the dialects' answers, errors,
/// status). Tunnel's own `/v1` answers are `TunnelApp.ReportJSON`'s, as the commands print them.
public indirect enum JSONValue: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
  case string(String)
  /// A number written with at most `places` decimals (trailing zeros dropped).
  case number(Double, places: Int)
  case integer(Int)
  case bool(Bool)
  case null
  case array([JSONValue])
  case object([(String, JSONValue)])

  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int) { self = .integer(value) }

  /// A text, or `null`.
  public static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

  /// The compact JSON text.
  public var text: String { String(decoding: bytes, as: UTF8.self) }

  /// The UTF-8 bytes of ``text``.
  public var bytes: [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(512)
    write(to: &out)
    return out
  }

  /// Appends the compact JSON text's bytes to `out`.
  public func write(to out: inout [UInt8]) {
    switch self {
    case .string(let value): Self.write(string: value, to: &out)
    case .number(let value, let places): out += OutputRow.number(value, places: places).utf8
    case .integer(let value): out += String(value).utf8
    case .bool(let value): out += (value ? "true" : "false").utf8
    case .null: out += "null".utf8
    case .array(let values):
      out.append(UInt8(ascii: "["))
      for (index, value) in values.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        value.write(to: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .object(let members):
      out.append(UInt8(ascii: "{"))
      for (index, (name, value)) in members.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        Self.write(string: name, to: &out)
        out.append(UInt8(ascii: ":"))
        value.write(to: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  /// A JSON string: quotes, backslashes and control characters escaped (as ``OutputRow/string(_:)`` writes
  /// them), everything else as its UTF-8.
  static func write(string: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    let plain = string.utf8.allSatisfy { $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
    if plain {
      out += string.utf8
    } else {
      let escaped = OutputRow.string(string).utf8
      out += escaped.dropFirst().dropLast()
    }
    out.append(UInt8(ascii: "\""))
  }

  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.text == rhs.text }
}
