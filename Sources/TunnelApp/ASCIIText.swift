import Foundation
import TunnelContainment

/// Text for terminals that show only ASCII: symbols spelled out, other scripts transliterated.
///
/// "København" becomes "Kobenhavn", "Thinking…" "Thinking...", "UTC−11:00" "UTC-11:00"; whatever
/// has no ASCII form becomes "?".
enum ASCIIText {
  /// Symbols the interface itself uses, and their ASCII forms.
  static let symbols: [Character: String] = [
    "…": "...", "′": "'", "″": "\"", "−": "-", "·": "-", "▏": "|", "←": "<-", "→": "->", "↑": "^",
    "↓": "v", "•": "*", "☻": "@", "✖": "X", "°": " deg",
  ]

  static func converted(_ text: String) -> String {
    guard !text.allSatisfy(\.isASCII) else { return text }
    var spelled = ""
    for character in text { spelled += symbols[character] ?? String(character) }
    let latin =
      spelled.applyingTransform(StringTransform("Any-Latin; Latin-ASCII"), reverse: false) ?? spelled
    return String(latin.map { $0.isASCII ? $0 : "?" })
  }
}
