/// Output bytes made safe for a terminal: control, format (bidirectional) and separator characters
/// written as `\u{…}`, as ``EchoedText`` writes them on standard error, so that input text cannot move
/// the cursor, change colours or reverse a line. Line feeds and tabs, which lay out rows, stay.
///
/// A batch writes its output as it is to files and pipes; only a terminal gets it escaped.
///
/// ```swift
/// TerminalText.escaped(Array("a\u{1B}[31mb\n".utf8))  // a\u{1B}[31mb and a line feed
/// ```
enum TerminalText {
  /// `bytes` with every character a terminal would act on escaped; bytes that are not UTF-8 become
  /// U+FFFD.
  static func escaped(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    // Text without escape-worthy bytes is most of it: ASCII from space to tilde, tab and line feed.
    if !bytes.contains(where: { ($0 < 0x20 && $0 != 0x0A && $0 != 0x09) || $0 >= 0x7F }) {
      return Array(bytes)
    }
    var out = ""
    out.reserveCapacity(bytes.count)
    for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
      if scalar == "\n" || scalar == "\t" {
        out.unicodeScalars.append(scalar)
        continue
      }
      switch scalar.properties.generalCategory {
      case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned:
        out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      default:
        out.unicodeScalars.append(scalar)
      }
    }
    return Array(out.utf8)
  }
}
