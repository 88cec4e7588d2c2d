/// Plain joins and searches over a string's UTF-8 bytes.
///
/// The standard library's `joined(separator:)` and `contains(_:)` are generic: the first call of each in
/// a process makes the runtime build their types from mangled names and look up conformances, which
/// costs more than a whole single query's answer. These loops are concrete, and answer the same for the
/// text they are used on (separators, patterns and words of ASCII).
extension String {
  /// Whether `part`'s UTF-8 bytes appear in the string's, in order and together; false for an empty `part`,
  /// as `contains(_:)` answers.
  ///
  ///     "xterm-256color".containsBytes("color")  // true
  ///     "http://x".containsBytes("://")          // true
  package func containsBytes(_ part: String) -> Bool {
    let text = Array(utf8)
    let pattern = Array(part.utf8)
    guard !pattern.isEmpty else { return false }
    guard pattern.count <= text.count else { return false }
    var start = 0
    while start + pattern.count <= text.count {
      var index = 0
      while index < pattern.count, text[start + index] == pattern[index] { index += 1 }
      if index == pattern.count { return true }
      start += 1
    }
    return false
  }

  /// The string with its ASCII capitals made small, other characters as they are ("UTF-8" reads "utf-8").
  package var asciiLowercased: String {
    var bytes = Array(utf8)
    for index in bytes.indices where bytes[index] >= UInt8(ascii: "A") && bytes[index] <= UInt8(ascii: "Z") {
      bytes[index] += 32
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

extension Array where Element == String {
  /// The strings one after another with `separator` between them, as `joined(separator:)` writes them.
  ///
  ///     ["Skjern", "Denmark"].joined(by: ", ")  // "Skjern, Denmark"
  package func joined(by separator: String) -> String {
    var result = ""
    for index in indices {
      if index > 0 { result += separator }
      result += self[index]
    }
    return result
  }
}
