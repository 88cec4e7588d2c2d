/// JSON written value by value, each object's members in the order they are given: compact (one line, as
/// JSON Lines and `tunnel serve`'s dialects have it) or pretty (as the commands print `--format json`: two
/// spaces a level, `"name" : value`, an empty container as an opening and a closing line with a blank line
/// between).
///
/// It is the one JSON writer of every output: strings are escaped and numbers written by the same bytes
/// writer as the batch rows', so that a value reads the same in every format. Numbers are written to a fixed
/// number of decimals without trailing zeros (`56.5`, `7`, `0.00001`, never `1e-05`).
///
///     var json = JSONWriter(style: .compact, precision: .data)
///     json.object { json in
///       json.member("name") { $0.string("Skjern") }
///       json.member("latitude") { $0.degrees(55.95) }
///     }
///     json.text  // {"name":"Skjern","latitude":55.95}
public struct JSONWriter {
  /// How the text is laid out.
  public enum Style: Sendable {
    /// On one line, with no space.
    case compact
    /// On lines of their own, indented by two spaces a level.
    case pretty
  }

  /// The layout.
  public let style: Style
  /// The decimals of ``degrees(_:)``, ``longitude(_:)`` and ``kilometres(_:)``.
  public let precision: Precision

  private var out = OutputBytes(capacity: 512)
  /// Open containers.
  private var depth = 0
  /// Whether the innermost open container has no element yet.
  private var empty = true
  /// Whether a member's name was just written, so that its value follows on the same line.
  private var afterName = false

  /// An empty text, to write one value into.
  public init(style: Style = .compact, precision: Precision = .data) {
    self.style = style
    self.precision = precision
  }

  /// The text written.
  public var text: String { String(decoding: out.bytes, as: UTF8.self) }

  /// The UTF-8 bytes of ``text``.
  public var bytes: [UInt8] { out.bytes }

  // MARK: Values

  /// A string, or `null`.
  public mutating func string(_ value: String?) {
    beginValue()
    out.json(value)
  }

  /// A number to `places` decimals, or `null` (also for a number that is not finite).
  public mutating func number(_ value: Double?, places: Int) {
    beginValue()
    if let value { out.number(value, places: places) } else { out.append("null") }
  }

  /// Degrees to the precision's decimals, or `null`.
  public mutating func degrees(_ value: Double?) { number(value, places: precision.degrees) }

  /// A longitude to the precision's decimals, one that rounds to 180 written -180, or `null`.
  public mutating func longitude(_ value: Double?) {
    beginValue()
    if let value { out.longitude(value, places: precision.degrees) } else { out.append("null") }
  }

  /// Kilometres to the precision's decimals for them, or `null`.
  public mutating func kilometres(_ value: Double?) { number(value, places: precision.kilometres) }

  /// An integer, or `null`.
  public mutating func integer(_ value: Int?) {
    beginValue()
    if let value { out.integer(value) } else { out.append("null") }
  }

  /// `true` or `false`, or `null`.
  public mutating func bool(_ value: Bool?) {
    beginValue()
    out.append(value.map { $0 ? "true" : "false" } ?? "null")
  }

  /// `null`.
  public mutating func null() {
    beginValue()
    out.append("null")
  }

  /// An object whose members `body` writes with ``member(_:_:)``.
  public mutating func object(_ body: (inout JSONWriter) throws -> Void) rethrows {
    try container(open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), body)
  }

  /// An array whose elements `body` writes.
  public mutating func array(_ body: (inout JSONWriter) throws -> Void) rethrows {
    try container(open: UInt8(ascii: "["), close: UInt8(ascii: "]"), body)
  }

  /// An array of `elements`, each written by `element`.
  public mutating func array<Elements: Sequence>(
    _ elements: Elements, _ element: (inout JSONWriter, Elements.Element) throws -> Void
  ) rethrows {
    try array { json in
      for value in elements { try element(&json, value) }
    }
  }

  /// A member of the object being written: its name, then the value `value` writes.
  public mutating func member(_ name: String, _ value: (inout JSONWriter) throws -> Void) rethrows {
    beginValue()
    out.json(name)
    out.append(style == .pretty ? " : " : ":")
    afterName = true
    try value(&self)
    afterName = false
  }

  // MARK: Layout

  /// The separator and line break before a value, unless it is a member's value.
  private mutating func beginValue() {
    if afterName {
      afterName = false
      return
    }
    guard depth > 0 else { return }
    if !empty { out.append(UInt8(ascii: ",")) }
    empty = false
    newLine(depth)
  }

  private mutating func container(
    open: UInt8, close: UInt8, _ body: (inout JSONWriter) throws -> Void
  ) rethrows {
    beginValue()
    out.append(open)
    depth += 1
    empty = true
    try body(&self)
    if empty, style == .pretty { out.append(UInt8(ascii: "\n")) }
    depth -= 1
    newLine(depth)
    out.append(close)
    empty = false
  }

  private mutating func newLine(_ level: Int) {
    guard style == .pretty else { return }
    out.append(UInt8(ascii: "\n"))
    for _ in 0..<level { out.append(contentsOf: [0x20, 0x20]) }
  }
}

/// A value that writes itself as JSON: every report, and the values in them.
public protocol JSONWritable {
  /// Writes the value as one JSON value.
  func writeJSON(to json: inout JSONWriter)
}

extension JSONWritable {
  /// The value as JSON text, without a final newline: pretty unless `style` says otherwise.
  public func json(precision: Precision = .data, style: JSONWriter.Style = .pretty) -> String {
    var json = JSONWriter(style: style, precision: precision)
    writeJSON(to: &json)
    return json.text
  }
}

extension Array: JSONWritable where Element: JSONWritable {
  public func writeJSON(to json: inout JSONWriter) {
    json.array(self) { json, element in element.writeJSON(to: &json) }
  }
}
