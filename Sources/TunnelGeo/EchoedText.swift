/// Text a user typed, made safe to repeat in a message.
///
/// Messages quote what was typed so the user sees what was read. Typed text can hold anything: a
/// terminal escape sequence, a right-to-left override, a newline, a hundred kilobytes. Quoted here,
/// control, format (bidirectional) and separator characters are written as `\u{…}` and text past
/// `limit` characters is cut with "…", so a message stays one plain line.
///
/// ```swift
/// EchoedText.quoted("Paris\u{1B}[31mRED")  // 'Paris\u{1B}[31mRED'
/// ```
public enum EchoedText {
  /// The text in single quotes, escaped and shortened.
  public static func quoted<S: StringProtocol>(_ text: S, limit: Int = 60) -> String {
    "'" + escaped(text, limit: limit) + "'"
  }

  /// The text with control, format (bidirectional) and unassigned characters written as `\u{…}`, cut
  /// after `limit` characters with "…".
  public static func escaped<S: StringProtocol>(_ text: S, limit: Int = 60) -> String {
    var out = ""
    var count = 0
    for scalar in text.unicodeScalars {
      if count == limit {
        out += "…"
        break
      }
      count += 1
      switch scalar.properties.generalCategory {
      case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned:
        out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      default:
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
