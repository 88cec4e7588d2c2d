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
    for original in text.unicodeScalars {
      forEachDecomposed(original) { scalar in
        if scalar.properties.generalCategory == .nonspacingMark { return }
        if let replacement = special[scalar] {
          stripped.append(contentsOf: replacement.unicodeScalars)
        } else {
          stripped.append(scalar)
        }
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

  /// Calls `body` with each scalar of `scalar`'s compatibility decomposition (NFKD): from
  /// ``decompositions``, or for a Hangul syllable by Unicode's arithmetic.
  ///
  /// Decomposing scalar by scalar leaves out one step of NFKD, the canonical reordering of combining
  /// marks, which cannot change a key: every scalar it moves is a mark (general category Mn, dropped, or
  /// Mc, which ends a word), and it moves them only among themselves.
  static func forEachDecomposed(_ scalar: Unicode.Scalar, _ body: (Unicode.Scalar) -> Void) {
    let syllable = Int(scalar.value) - 0xAC00
    if scalar.isASCII {
      body(scalar)
    } else if (0..<11172).contains(syllable) {
      body(Unicode.Scalar(UInt32(0x1100 + syllable / 588))!)
      body(Unicode.Scalar(UInt32(0x1161 + syllable % 588 / 28))!)
      if syllable % 28 != 0 { body(Unicode.Scalar(UInt32(0x11A7 + syllable % 28))!) }
    } else if let decomposed = decompositions[scalar] {
      decomposed.unicodeScalars.forEach(body)
    } else {
      body(scalar)
    }
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
