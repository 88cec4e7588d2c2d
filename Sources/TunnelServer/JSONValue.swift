import TunnelBatch

/// JSON whose members keep the order they are given in, written compactly (the dialects' answers, errors,
/// status). Tunnel's own `/v1` answers are ``TunnelApp/ReportJSON``'s, as the commands print them.
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
  public var text: String {
    var out = ""
    write(to: &out)
    return out
  }

  /// The UTF-8 bytes of ``text``.
  public var bytes: [UInt8] { Array(text.utf8) }

  public func write(to out: inout String) {
    switch self {
    case .string(let value): out += OutputRow.string(value)
    case .number(let value, let places): out += OutputRow.number(value, places: places)
    case .integer(let value): out += String(value)
    case .bool(let value): out += value ? "true" : "false"
    case .null: out += "null"
    case .array(let values):
      out += "["
      for (index, value) in values.enumerated() {
        if index > 0 { out += "," }
        value.write(to: &out)
      }
      out += "]"
    case .object(let members):
      out += "{"
      for (index, (name, value)) in members.enumerated() {
        if index > 0 { out += "," }
        out += OutputRow.string(name)
        out += ":"
        value.write(to: &out)
      }
      out += "}"
    }
  }

  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.text == rhs.text }
}
