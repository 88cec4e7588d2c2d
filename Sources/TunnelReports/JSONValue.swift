/// A JSON value built before it is written, members in the order given: the answers of `tunnel serve`'s
/// Nominatim and Photon dialects, errors, status. Written by ``JSONWriter``, as every report is.
public indirect enum JSONValue: Sendable, Equatable, JSONWritable, ExpressibleByStringLiteral,
  ExpressibleByIntegerLiteral
{
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
  public var text: String { json(style: .compact) }

  /// The UTF-8 bytes of ``text``.
  public var bytes: [UInt8] {
    var json = JSONWriter(style: .compact)
    writeJSON(to: &json)
    return json.bytes
  }

  public func writeJSON(to json: inout JSONWriter) {
    switch self {
    case .string(let value): json.string(value)
    case .number(let value, let places): json.number(value, places: places)
    case .integer(let value): json.integer(value)
    case .bool(let value): json.bool(value)
    case .null: json.null()
    case .array(let values): json.array(values) { json, value in value.writeJSON(to: &json) }
    case .object(let members):
      json.object { json in
        for (name, value) in members { json.member(name) { value.writeJSON(to: &$0) } }
      }
    }
  }

  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.text == rhs.text }
}
