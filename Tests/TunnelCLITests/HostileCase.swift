import Foundation
import Testing

/// One way a hostile tester or a new user runs `tunnel`, and what must hold afterwards.
///
/// Every case runs the real binary. Whatever the case, the process exits (no trap, no hang), standard error is
/// empty or lines that each begin with `tunnel: `, and what standard output holds parses as the format asked for.
/// A case of `tunnel batch` also says how many rows its input has: the output has exactly as many.
struct HostileCase: Sendable, CustomTestStringConvertible {
  /// What standard output must hold.
  enum Output: Sendable {
    /// Nothing at all.
    case empty
    /// Text holding each of `including` and none of `excluding`.
    case text(including: [String] = [], excluding: [String] = [])
    /// One JSON value with no object holding a key twice, its text holding each of `including`.
    case json(including: [String] = [])
    /// CSV (RFC 4180) with a header and `rows` rows, every row as wide as the header, no column named twice;
    /// UTF-8 unless a bad row's bytes are passed through as they came.
    case csv(rows: Int, including: [String] = [], bytesAsTheyCame: Bool = false)
    /// TSV (IANA: no quoting) with a header and `rows` rows of as many fields, no column named twice.
    case tsv(rows: Int)
    /// `rows` lines, each one JSON object with no key twice.
    case jsonLines(rows: Int, including: [String] = [])
    /// A GeoJSON FeatureCollection of `features` features, no object holding a key twice.
    case geoJSON(features: Int, including: [String] = [])
    /// An SVG document.
    case svg
  }

  /// What standard error must hold.
  enum Errors: Sendable {
    /// Nothing.
    case silent
    /// One line, holding `fragment`.
    case line(String)
    /// One line or more, the last holding `fragment`.
    case lines(endingWith: String)
  }

  var arguments: [String]
  var input: Data?
  var environment: [String: String] = [:]
  /// Standard output goes to /dev/full, where every write fails with ENOSPC.
  var outputToFullDevice = false
  var status: Int32
  var output: Output
  var errors: Errors

  var testDescription: String {
    let shown = arguments.map { $0.count > 40 ? String($0.prefix(37)) + "…" : $0 }.joined(separator: " ")
    let shortened = shown.count > 120 ? String(shown.prefix(117)) + "…" : shown
    return "tunnel \(shortened)" + (input.map { " < \($0.count) bytes" } ?? "")
      + (outputToFullDevice ? " > /dev/full" : "")
  }

  init(
    _ arguments: [String], input: String? = nil, environment: [String: String] = [:],
    full: Bool = false, status: Int32, output: Output, errors: Errors
  ) {
    self.arguments = arguments
    self.input = input.map { Data($0.utf8) }
    self.environment = environment
    self.outputToFullDevice = full
    self.status = status
    self.output = output
    self.errors = errors
  }

  init(
    _ arguments: [String], bytes: Data, status: Int32, output: Output, errors: Errors
  ) {
    self.init(arguments, status: status, output: output, errors: errors)
    input = bytes
  }
}

/// A JSON reader that refuses an object holding a key twice, which JSONSerialization accepts silently.
struct StrictJSON {
  struct Problem: Error, CustomStringConvertible {
    var description: String
  }

  private let bytes: [UInt8]
  private var index = 0

  /// Reads one JSON value filling `text` (surrounding white space allowed).
  static func check(_ text: Substring) throws {
    var reader = StrictJSON(bytes: Array(text.utf8))
    reader.skipSpace()
    try reader.value(depth: 0)
    reader.skipSpace()
    guard reader.index == reader.bytes.count else { throw Problem(description: "text after the value") }
  }

  private init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  private mutating func skipSpace() {
    while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
  }

  private mutating func expect(_ byte: UInt8) throws {
    guard index < bytes.count, bytes[index] == byte else {
      throw Problem(description: "expected '\(Character(UnicodeScalar(byte)))' at byte \(index)")
    }
    index += 1
  }

  private mutating func value(depth: Int) throws {
    guard depth < 64, index < bytes.count else {
      throw Problem(description: "value missing at byte \(index)")
    }
    switch bytes[index] {
    case UInt8(ascii: "{"):
      index += 1
      var keys: Set<[UInt8]> = []
      skipSpace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
        index += 1
        return
      }
      while true {
        skipSpace()
        let key = try string()
        guard keys.insert(key).inserted else {
          throw Problem(description: "key \"\(String(decoding: key, as: UTF8.self))\" twice in one object")
        }
        skipSpace()
        try expect(UInt8(ascii: ":"))
        skipSpace()
        try value(depth: depth + 1)
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        try expect(UInt8(ascii: "}"))
        return
      }
    case UInt8(ascii: "["):
      index += 1
      skipSpace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
        index += 1
        return
      }
      while true {
        skipSpace()
        try value(depth: depth + 1)
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        try expect(UInt8(ascii: "]"))
        return
      }
    case UInt8(ascii: "\""):
      _ = try string()
    default:
      let start = index
      while index < bytes.count, !",]} \t\r\n".utf8.contains(bytes[index]) { index += 1 }
      let word = String(decoding: bytes[start..<index], as: UTF8.self)
      guard ["true", "false", "null"].contains(word) || Double(word)?.isFinite == true else {
        throw Problem(description: "'\(word)' is not a JSON value")
      }
    }
  }

  /// A string's raw bytes between its quotes, checked for control characters and valid escapes.
  private mutating func string() throws -> [UInt8] {
    try expect(UInt8(ascii: "\""))
    let start = index
    while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
      guard bytes[index] >= 0x20 else { throw Problem(description: "a raw control character in a string") }
      if bytes[index] == UInt8(ascii: "\\") {
        index += 1
        guard index < bytes.count, "\"\\/bfnrtu".utf8.contains(bytes[index]) else {
          throw Problem(description: "a bad escape in a string")
        }
      }
      index += 1
    }
    let raw = Array(bytes[start..<index])
    try expect(UInt8(ascii: "\""))
    return raw
  }
}
