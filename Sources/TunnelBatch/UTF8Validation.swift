/// Whether bytes are UTF-8 text (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF),
/// without decoding them: eight bytes at a time while they are ASCII.
///
/// JSON rows are checked whole before their members are read, so that bytes that are not UTF-8 make
/// a bad row rather than U+FFFD in a value or a name.
///
/// ```swift
/// UTF8Validation.isValid(bytes, 0..<bytes.count)  // false for [0x41, 0xC3]
/// ```
enum UTF8Validation {
  /// Whether `bytes[range]` is UTF-8.
  ///
  /// - Complexity: O(`range.count`).
  static func isValid(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
    var index = range.lowerBound
    let end = range.upperBound
    guard let base = bytes.baseAddress, index < end else { return true }
    let raw = UnsafeRawPointer(base)
    while index < end {
      if index + 8 <= end,
        raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
      {
        index += 8
        continue
      }
      let lead = base[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      // The allowed range of the byte after the lead, and how many follow it in all.
      let (low, high, count): (UInt8, UInt8, Int)
      switch lead {
      case 0xC2...0xDF: (low, high, count) = (0x80, 0xBF, 1)
      case 0xE0: (low, high, count) = (0xA0, 0xBF, 2)
      case 0xE1...0xEC, 0xEE...0xEF: (low, high, count) = (0x80, 0xBF, 2)
      case 0xED: (low, high, count) = (0x80, 0x9F, 2)
      case 0xF0: (low, high, count) = (0x90, 0xBF, 3)
      case 0xF1...0xF3: (low, high, count) = (0x80, 0xBF, 3)
      case 0xF4: (low, high, count) = (0x80, 0x8F, 3)
      default: return false
      }
      guard index + count < end, (low...high).contains(bytes[index + 1]) else { return false }
      for offset in stride(from: 2, through: count, by: 1) where bytes[index + offset] & 0xC0 != 0x80 {
        return false
      }
      index += count + 1
    }
    return true
  }
}
