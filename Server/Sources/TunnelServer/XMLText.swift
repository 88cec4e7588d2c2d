/// Text made safe for an XML 1.0 document, in an attribute value or between tags.
public enum XMLText {
  /// `text` with `&`, `<`, `>`, `"` and `'` written as entities, tab, line feed and carriage return as
  /// character references (so that an attribute keeps them rather than reading them as spaces), and the
  /// characters XML 1.0 cannot hold at all (the other C0 controls, U+FFFE, U+FFFF) dropped.
  ///
  /// The same text is safe in a double- or single-quoted attribute value and in element content.
  ///
  /// - Complexity: O(*n*) in the length of `text`.
  public static func escaped(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: needsChange) else { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out.append(contentsOf: "&amp;".unicodeScalars)
      case "<": out.append(contentsOf: "&lt;".unicodeScalars)
      case ">": out.append(contentsOf: "&gt;".unicodeScalars)
      case "\"": out.append(contentsOf: "&quot;".unicodeScalars)
      case "'": out.append(contentsOf: "&apos;".unicodeScalars)
      case "\t": out.append(contentsOf: "&#9;".unicodeScalars)
      case "\n": out.append(contentsOf: "&#10;".unicodeScalars)
      case "\r": out.append(contentsOf: "&#13;".unicodeScalars)
      default: if isAllowed(scalar) { out.append(scalar) }
      }
    }
    return String(out)
  }

  /// Whether XML 1.0 can hold `scalar` as a character (its `Char` production; tab, line feed and carriage
  /// return included).
  public static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
    default: false
    }
  }

  private static func needsChange(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "&", "<", ">", "\"", "'", "\t", "\n", "\r": true
    default: !isAllowed(scalar)
    }
  }
}
