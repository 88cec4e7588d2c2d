import TunnelGeo

/// A small JSON scanner over bytes: it finds where values end, reads an object's members as raw text,
/// and decodes strings, without building a document.
///
/// Batch rows are read this way so that the members of an input row keep their order and their exact
/// text (`1.50` stays `1.50`) when they pass through to the output.
enum JSONScan {
  /// Where a scan stopped.
  enum Outcome: Equatable {
    /// The value ends just before this position.
    case end(Int)
    /// The bytes end inside the value.
    case incomplete
    /// Not JSON: what was wrong, and the position where it was seen.
    case invalid(String, at: Int)
    /// Nested deeper than ``JSONScan/maximumDepth`` at this position: not followed, whether JSON or not.
    case tooDeep(at: Int)
  }

  /// Values nested deeper than this are refused rather than followed.
  static let maximumDepth = 256
  /// What ``Outcome/tooDeep(at:)`` means, for messages.
  static let tooDeepReason = "nested more than \(maximumDepth) deep"

  static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  static func skipWhitespace(_ bytes: UnsafeBufferPointer<UInt8>, _ position: Int, end: Int) -> Int {
    var position = position
    while position < end, isWhitespace(bytes[position]) { position += 1 }
    return position
  }

  /// Skips the value that starts at `position` (no whitespace before it).
  static func value(
    _ bytes: UnsafeBufferPointer<UInt8>, from position: Int, end: Int, depth: Int = 0
  ) -> Outcome {
    guard position < end else { return .incomplete }
    guard depth < maximumDepth else { return .tooDeep(at: position) }
    switch bytes[position] {
    case UInt8(ascii: "\""):
      return string(bytes, from: position, end: end)
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      let isObject = bytes[position] == UInt8(ascii: "{")
      let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
      var index = skipWhitespace(bytes, position + 1, end: end)
      guard index < end else { return .incomplete }
      if bytes[index] == close { return .end(index + 1) }
      while true {
        if isObject {
          guard bytes[index] == UInt8(ascii: "\"") else {
            return .invalid("expected a member's name", at: index)
          }
          switch string(bytes, from: index, end: end) {
          case .end(let after): index = skipWhitespace(bytes, after, end: end)
          case let other: return other
          }
          guard index < end else { return .incomplete }
          guard bytes[index] == UInt8(ascii: ":") else { return .invalid("expected ':'", at: index) }
          index = skipWhitespace(bytes, index + 1, end: end)
        }
        switch value(bytes, from: index, end: end, depth: depth + 1) {
        case .end(let after): index = skipWhitespace(bytes, after, end: end)
        case let other: return other
        }
        guard index < end else { return .incomplete }
        if bytes[index] == close { return .end(index + 1) }
        guard bytes[index] == UInt8(ascii: ",") else {
          return .invalid("expected ',' or '\(Character(Unicode.Scalar(close)))'", at: index)
        }
        index = skipWhitespace(bytes, index + 1, end: end)
        guard index < end else { return .incomplete }
      }
    case UInt8(ascii: "t"): return literal("true", bytes, position, end)
    case UInt8(ascii: "f"): return literal("false", bytes, position, end)
    case UInt8(ascii: "n"): return literal("null", bytes, position, end)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return number(bytes, from: position, end: end)
    default:
      return .invalid("unexpected character", at: position)
    }
  }

  /// Skips a string that starts with its quote at `position`.
  static func string(_ bytes: UnsafeBufferPointer<UInt8>, from position: Int, end: Int) -> Outcome {
    var index = position + 1
    while index < end {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") { return .end(index + 1) }
      if byte < 0x20 { return .invalid("a control character inside a string", at: index) }
      if byte == UInt8(ascii: "\\") {
        guard index + 1 < end else { return .incomplete }
        switch bytes[index + 1] {
        case UInt8(ascii: "u"):
          guard index + 6 <= end else { return .incomplete }
          for offset in 2..<6 where hexValue(bytes[index + offset]) == nil {
            return .invalid("a bad \\u escape", at: index)
          }
          index += 6
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
          UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
          index += 2
        default:
          return .invalid("a bad escape", at: index)
        }
        continue
      }
      index += 1
    }
    return .incomplete
  }

  private static func literal(
    _ word: StaticString, _ bytes: UnsafeBufferPointer<UInt8>, _ position: Int, _ end: Int
  ) -> Outcome {
    let count = word.utf8CodeUnitCount
    for offset in 0..<count {
      guard position + offset < end else { return .incomplete }
      guard bytes[position + offset] == word.utf8Start[offset] else {
        return .invalid("unexpected character", at: position + offset)
      }
    }
    return .end(position + count)
  }

  private static func number(_ bytes: UnsafeBufferPointer<UInt8>, from position: Int, end: Int) -> Outcome {
    var index = position
    func digits() -> Int {
      let first = index
      while index < end, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
      return index - first
    }
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    let integerStart = index
    let integerDigits = digits()
    guard integerDigits > 0 else { return index == end ? .incomplete : .invalid("a bad number", at: index) }
    // JSON writes no leading zeros: "0", "0.5", never "00" or "01".
    if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") {
      return .invalid("a number with a leading zero", at: integerStart)
    }
    if index < end, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard digits() > 0 else { return index == end ? .incomplete : .invalid("a bad number", at: index) }
    }
    if index < end, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < end, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
      guard digits() > 0 else { return index == end ? .incomplete : .invalid("a bad number", at: index) }
    }
    // A number is complete only when something follows it.
    return index == end ? .incomplete : .end(index)
  }

  static func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
    default: return nil
    }
  }

  /// One member of an object: its decoded name and the range of its value's raw text.
  struct Member {
    /// The name; nil when it does not decode (a lone surrogate, bytes that are not UTF-8).
    var name: String?
    var value: Range<Int>
  }

  /// What keeps `members` from passing through whole, as a row's problem: a name that is not text, or
  /// a name given twice (JSON readers keep one of the two values, so one would be lost); nil for none.
  /// `what` names the members ("member", "property").
  static func namesProblem(_ members: [Member], what: String) -> String? {
    // A few names are compared with each other; more are looked up in a set. Names are compared by
    // their bytes, as JSON compares them: "café" composed and decomposed are two names, though Swift's
    // strings call them equal.
    var seen = Set<[UInt8]>()
    for (index, member) in members.enumerated() {
      guard let name = member.name else { return "the name of \(what) \(index + 1) is not text" }
      let repeated =
        members.count <= 16
        ? members[..<index].contains { $0.name?.utf8.elementsEqual(name.utf8) == true }
        : !seen.insert(Array(name.utf8)).inserted
      if repeated { return "the \(what) \(EchoedText.quoted(name)) is given twice" }
    }
    return nil
  }

  /// The members of the object that starts at `position` and ends before `end` (a whole value, already
  /// scanned), in order.
  static func members(_ bytes: UnsafeBufferPointer<UInt8>, from position: Int, end: Int) -> [Member] {
    var members: [Member] = []
    var index = skipWhitespace(bytes, position + 1, end: end)
    while index < end, bytes[index] == UInt8(ascii: "\"") {
      guard case .end(let nameEnd) = string(bytes, from: index, end: end) else { break }
      let name = decodedString(bytes, index..<nameEnd)
      index = skipWhitespace(bytes, nameEnd, end: end) + 1
      index = skipWhitespace(bytes, index, end: end)
      guard case .end(let valueEnd) = value(bytes, from: index, end: end) else { break }
      members.append(Member(name: name, value: index..<valueEnd))
      index = skipWhitespace(bytes, valueEnd, end: end)
      if index < end, bytes[index] == UInt8(ascii: ",") { index = skipWhitespace(bytes, index + 1, end: end) }
    }
    return members
  }

  /// The raw text of the whole value at `range`, as it came but for the whitespace between its tokens,
  /// which goes: a pretty-printed object becomes one line, its numbers and strings unchanged.
  static func compacted(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
    let value = UnsafeBufferPointer(rebasing: bytes[range])
    guard value.contains(where: isWhitespace) else { return String(decoding: value, as: UTF8.self) }
    var out: [UInt8] = []
    out.reserveCapacity(value.count)
    var (inString, escaped) = (false, false)
    for byte in value {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
      } else if byte == UInt8(ascii: "\"") {
        inString = true
      } else if isWhitespace(byte) {
        continue
      }
      out.append(byte)
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The text of the string whose raw form (quotes included) is `range`; nil when the value there is not
  /// a string (`"type": 4`) or holds a lone surrogate or bytes that are not UTF-8.
  static func decodedString(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
    guard range.count >= 2, bytes[range.lowerBound] == UInt8(ascii: "\""),
      bytes[range.upperBound - 1] == UInt8(ascii: "\"")
    else { return nil }
    let inner = (range.lowerBound + 1)..<(range.upperBound - 1)
    if !bytes[inner].contains(UInt8(ascii: "\\")) {
      // Checked here rather than by `String(validating:as:)`, whose generic code looked up type metadata
      // at run time for every call (a tenth of a JSON Lines batch, reading its rows' member names).
      let text = UnsafeBufferPointer(rebasing: bytes[inner])
      return UTF8Validation.isValid(bytes, inner) ? String(decoding: text, as: UTF8.self) : nil
    }
    var scalars = String.UnicodeScalarView()
    var utf8: [UInt8] = []
    var index = inner.lowerBound
    func flush() -> Bool {
      guard !utf8.isEmpty else { return true }
      guard let text = String(validating: utf8, as: UTF8.self) else { return false }
      scalars.append(contentsOf: text.unicodeScalars)
      utf8.removeAll(keepingCapacity: true)
      return true
    }
    func hex4(_ at: Int) -> UInt32 {
      (0..<4).reduce(0) { $0 << 4 | (hexValue(bytes[at + $1]) ?? 0) }
    }
    while index < inner.upperBound {
      let byte = bytes[index]
      guard byte == UInt8(ascii: "\\") else {
        utf8.append(byte)
        index += 1
        continue
      }
      guard flush() else { return nil }
      let escape = bytes[index + 1]
      index += 2
      switch escape {
      case UInt8(ascii: "b"): scalars.append("\u{08}")
      case UInt8(ascii: "f"): scalars.append("\u{0C}")
      case UInt8(ascii: "n"): scalars.append("\n")
      case UInt8(ascii: "r"): scalars.append("\r")
      case UInt8(ascii: "t"): scalars.append("\t")
      case UInt8(ascii: "u"):
        var code = hex4(index)
        index += 4
        if (0xD800..<0xDC00).contains(code) {
          guard index + 6 <= inner.upperBound, bytes[index] == UInt8(ascii: "\\"),
            bytes[index + 1] == UInt8(ascii: "u")
          else { return nil }
          let low = hex4(index + 2)
          guard (0xDC00..<0xE000).contains(low) else { return nil }
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
          index += 6
        }
        guard let scalar = Unicode.Scalar(code) else { return nil }
        scalars.append(scalar)
      default: scalars.append(Unicode.Scalar(escape))
      }
    }
    guard flush() else { return nil }
    return String(scalars)
  }
}
