/// A table from Unicode scalars to text, kept as one static string of lines sorted by scalar: each line
/// is the scalar, then its text. Looking a scalar up is a binary search of the string's bytes, so the
/// table costs nothing until it is used, and nothing to build.
///
///     let table = ScalarTable("\u{C6}AE\n\u{E6}ae")
///     table["\u{E6}"]  // "ae"
package struct ScalarTable: Sendable {
  private let text: StaticString

  /// The table whose lines `text` holds, sorted by their first scalar; no line may be empty.
  package init(_ text: StaticString) {
    self.text = text
  }

  /// The text of `scalar`'s line, nil when the table has none.
  package subscript(scalar: Unicode.Scalar) -> String? {
    text.withUTF8Buffer { bytes in
      let newline = UInt8(ascii: "\n")
      var low = 0
      var high = bytes.count
      // [low, high) holds whole lines, the one sought among them if the table has it.
      while low < high {
        var start = (low + high) / 2
        while start > low && bytes[start - 1] != newline { start -= 1 }
        var end = start
        while end < high && bytes[end] != newline { end += 1 }
        var decoder = UTF8()
        var iterator = bytes[start..<end].makeIterator()
        guard case .scalarValue(let key) = decoder.decode(&iterator) else { return nil }
        if key == scalar {
          let textStart = start + String(key).utf8.count
          return String(decoding: bytes[textStart..<end], as: UTF8.self)
        }
        if key.value < scalar.value { low = end + 1 } else { high = start }
      }
      return nil
    }
  }
}
