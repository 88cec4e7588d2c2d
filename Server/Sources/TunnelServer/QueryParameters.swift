/// A request's query string, read as HTML forms write it: `&`-separated `name=value` pairs, `+` for a space,
/// `%XX` for any byte, UTF-8 throughout.
///
/// Read here rather than by the framework, whose helpers leave `+` as it is and cannot tell the handler
/// which parameter was badly encoded. A name given twice keeps its last value, as PHP (and so Nominatim)
/// does; an empty pair (`a=1&&b=2`) is nothing.
public struct QueryParameters: Sendable, Equatable {
  /// Why a query string cannot be read: the parameter, and what is wrong with it.
  public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
    public var parameter: String
    public var reason: String

    public var description: String { "parameter '\(parameter)': \(reason)" }
  }

  private var values: [String: String] = [:]
  /// Every value of each name, in the order given (Photon's `osm_tag` and `layer` may repeat).
  private var repeated: [String: [String]] = [:]
  /// The names in the order first given.
  public private(set) var names: [String] = []

  /// Reads `query` (what follows `?`, without it; nil or empty for none).
  public init(_ query: Substring?) throws(Problem) {
    guard let query, !query.isEmpty else { return }
    for pair in query.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
      let equals = pair.firstIndex(of: UInt8(ascii: "="))
      let rawName = pair[..<(equals ?? pair.endIndex)]
      let rawValue = equals.map { pair[pair.index(after: $0)...] } ?? pair[pair.endIndex...]
      let nameText = Self.shown(rawName)
      guard let name = Self.decoded(rawName) else {
        throw Problem(parameter: nameText, reason: "its name is not valid percent-encoded UTF-8")
      }
      guard let value = Self.decoded(rawValue) else {
        throw Problem(
          parameter: name,
          reason:
            "the value \(Self.shown(rawValue)) is not valid percent-encoded UTF-8 (write a space as + or %20)"
        )
      }
      if values.updateValue(value, forKey: name) == nil { names.append(name) }
      repeated[name, default: []].append(value)
    }
  }

  /// The parameters of `query` that read, the others left out: what an error about the others is
  /// answered from (a bad value beside `format=xml` is still answered in XML).
  public static func readable(_ query: Substring?) -> QueryParameters {
    var result = QueryParameters()
    guard let query else { return result }
    for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
      if let one = try? QueryParameters(pair), let name = one.names.first, let value = one[name] {
        result.set(name, value)
      }
    }
    return result
  }

  /// No parameters.
  public static let empty = QueryParameters()

  private init() {}

  /// Sets `name` to `value`.
  public mutating func set(_ name: String, _ value: String) {
    if values.updateValue(value, forKey: name) == nil { names.append(name) }
    repeated[name] = [value]
  }

  /// The parameter's value, nil when absent.
  public subscript(_ name: String) -> String? { values[name] }

  /// Every value the parameter was given, in order; empty when absent.
  public func all(_ name: String) -> [String] { repeated[name] ?? [] }

  /// Whether the parameter was given (even empty).
  public func contains(_ name: String) -> Bool { values[name] != nil }

  /// `bytes` with `+` a space and `%XX` decoded, nil when a `%` is not followed by two hex digits or the
  /// bytes are not UTF-8.
  static func decoded(_ bytes: Substring.UTF8View.SubSequence) -> String? {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "+"):
        out.append(0x20)
      case UInt8(ascii: "%"):
        let first = bytes.index(after: index)
        guard first < bytes.endIndex else { return nil }
        let second = bytes.index(after: first)
        guard second < bytes.endIndex, let high = hex(bytes[first]), let low = hex(bytes[second]) else {
          return nil
        }
        out.append(high << 4 | low)
        index = second
      default:
        out.append(byte)
      }
      index = bytes.index(after: index)
    }
    return String(validating: out, as: UTF8.self)
  }

  private static func hex(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  /// Raw bytes as they can be shown in a message: quoted, at most 40 characters, invalid UTF-8 replaced.
  private static func shown(_ bytes: Substring.UTF8View.SubSequence) -> String {
    let text = String(decoding: bytes.prefix(40), as: UTF8.self)
    return "'" + text + (bytes.count > 40 ? "…" : "") + "'"
  }
}
