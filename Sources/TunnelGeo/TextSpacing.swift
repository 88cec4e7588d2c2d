extension StringProtocol {
  /// The text without white space at either end, as Foundation's `trimmingCharacters(in:)` trims it (on
  /// Linux) with `.whitespacesAndNewlines`: Unicode's White_Space characters (spaces, tabs, line
  /// breaks) and the zero width space U+200B. With `lineBreaks` false, as with `.whitespaces`: spaces
  /// (general category Zs), tabs and U+200B, line breaks kept.
  ///
  /// Scalars are trimmed, not characters: a combining mark after a space stays.
  package func trimmingWhitespace(lineBreaks: Bool = true) -> String {
    let isSpace: (Unicode.Scalar) -> Bool =
      lineBreaks
      ? { $0.properties.isWhitespace || $0 == "\u{200B}" }
      : { $0 == "\t" || $0 == "\u{200B}" || $0.properties.generalCategory == .spaceSeparator }
    let scalars = Substring(self).unicodeScalars
    guard let first = scalars.firstIndex(where: { !isSpace($0) }),
      let last = scalars.lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(scalars[first...last])
  }

  /// The text filled with spaces to `length` UTF-16 code units, or cut to them, as Foundation's
  /// `padding(toLength: length, withPad: " ", startingAt: 0)` does.
  package func paddedWithSpaces(toLength length: Int) -> String {
    let units = utf16.count
    if units <= length { return String(self) + String(repeating: " ", count: length - units) }
    return String(decoding: utf16.prefix(length), as: UTF16.self)
  }
}
