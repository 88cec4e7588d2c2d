import Foundation

/// The folding that turns a name into a search key of the place name index.
///
/// Compatibility decomposition (NFKD), nonspacing marks dropped, a few letters that do not decompose
/// replaced (`ø`→`o`, `æ`→`ae`, `ß`→`ss`, `ł`→`l`, `đ`/`ð`→`d`, `þ`→`th`, …), lower-cased, every
/// character that is not a letter or a digit turned into a space, runs of spaces collapsed, ends trimmed.
/// `Scripts/data/names.py` applies the same rule when the index is built.
///
/// ```swift
/// PlaceNameKey.fold("København")  // "kobenhavn"
/// PlaceNameKey.fold("Saint-Étienne")  // "saint etienne"
/// ```
public enum PlaceNameKey {
  static let special: [Unicode.Scalar: String] = [
    "ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ß": "ss", "ẞ": "SS",
    "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th",
    "ı": "i", "ħ": "h", "Ħ": "H", "ŧ": "t", "Ŧ": "T", "ŋ": "n", "Ŋ": "N", "ĸ": "k", "ſ": "s",
    "ʻ": "'", "ʼ": "'", "‘": "'", "’": "'",
  ]

  /// The search key of a name.
  public static func fold(_ text: String) -> String {
    var stripped = String.UnicodeScalarView()
    for scalar in text.decomposedStringWithCompatibilityMapping.unicodeScalars {
      if scalar.properties.generalCategory == .nonspacingMark { continue }
      if let replacement = special[scalar] {
        stripped.append(contentsOf: replacement.unicodeScalars)
      } else {
        stripped.append(scalar)
      }
    }
    var result = String.UnicodeScalarView()
    var pendingSpace = false
    for scalar in String(stripped).lowercased().unicodeScalars {
      if isLetterOrDigit(scalar) {
        if pendingSpace && !result.isEmpty { result.append(" ") }
        pendingSpace = false
        result.append(scalar)
      } else {
        pendingSpace = true
      }
    }
    return String(result)
  }

  private static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
      .decimalNumber, .letterNumber, .otherNumber:
      true
    default:
      false
    }
  }
}
