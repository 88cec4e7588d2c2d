import TunnelContainment
import TunnelGeo

/// Text for terminals that show only ASCII: symbols spelled out, Latin letters without their marks.
///
/// "København" becomes "Kobenhavn", "Thinking…" "Thinking...", "UTC−11:00" "UTC-11:00". Letters and
/// marks are spelled as ICU's Latin-ASCII transform spells them (``latin``): the Latin blocks (Latin-1
/// Supplement, Latin Extended-A to -D and Additional, IPA), their letters' marks stripped and their
/// ligatures and special letters written out (`ß` "ss", `æ` "ae", `œ` "oe", `ø` "o", `ł` "l", `đ` and
/// `ð` "d", `þ` "th", `ı` "i", `ŋ` "n"), combining marks after a letter dropped; and punctuation, symbols
/// and fullwidth forms (curly quotes, dashes, spaces, `©` "(C)", `½` " 1/2", `Ａ` "A"). A character
/// with anything else in it (another script, an emoji) becomes "?": ICU's "Any-Latin", which spelled
/// Cyrillic, Greek or Chinese in Latin letters, is not kept.
enum ASCIIText {
  /// Symbols the interface itself uses, and their ASCII forms.
  static let symbols: [Character: String] = [
    "…": "...", "′": "'", "″": "\"", "−": "-", "·": "-", "▏": "|", "←": "<-", "→": "->", "↑": "^",
    "↓": "v", "•": "*", "☻": "@", "✖": "X", "°": " deg",
  ]

  static func converted(_ text: String) -> String {
    guard !text.allSatisfy(\.isASCII) else { return text }
    var converted = ""
    for character in text {
      if character.isASCII {
        converted.append(character)
      } else if let symbol = symbols[character] {
        converted += symbol
      } else {
        converted += spelled(character) ?? "?"
      }
    }
    return converted
  }

  /// The character in ASCII, nil when one of its scalars has no ASCII spelling.
  private static func spelled(_ character: Character) -> String? {
    var spelled = ""
    for scalar in character.unicodeScalars {
      if scalar.isASCII {
        spelled.unicodeScalars.append(scalar)
      } else if let spelling = latin[scalar] {
        spelled += spelling
      } else {
        return nil
      }
    }
    return spelled
  }
}
