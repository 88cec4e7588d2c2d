import Foundation
import SeededRandom
import Testing

@testable import TunnelGeo

/// The search keys of names, folded without Foundation, against the fold as it was written with
/// Foundation's `decomposedStringWithCompatibilityMapping`.
@Suite struct PlaceNameKeyTests {
  /// The fold as it was: NFKD from Foundation, then the same steps.
  static func foundationFold(_ text: String) -> String {
    var stripped = String.UnicodeScalarView()
    for scalar in text.decomposedStringWithCompatibilityMapping.unicodeScalars {
      if scalar.properties.generalCategory == .nonspacingMark { continue }
      stripped.append(
        contentsOf: PlaceNameKey.special[scalar]?.unicodeScalars ?? String(scalar).unicodeScalars)
    }
    var result = String.UnicodeScalarView()
    var pendingSpace = false
    for scalar in String(stripped).lowercased().unicodeScalars {
      switch scalar.properties.generalCategory {
      case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
        .decimalNumber, .letterNumber, .otherNumber:
        if pendingSpace && !result.isEmpty { result.append(" ") }
        pendingSpace = false
        result.append(scalar)
      default:
        pendingSpace = true
      }
    }
    return String(result)
  }

  @Test("Examples")
  func examples() {
    #expect(PlaceNameKey.fold("København") == "kobenhavn")
    #expect(PlaceNameKey.fold("Saint-Étienne") == "saint etienne")
    #expect(PlaceNameKey.fold("Ｐａｒｉｓ") == "paris")
    #expect(PlaceNameKey.fold("ﬁnland²") == "finland2")
    #expect(PlaceNameKey.fold("서울") == "\u{1109}\u{1165}\u{110B}\u{116E}\u{11AF}")
  }

  @Test("Every scalar decomposes as Foundation decomposes it")
  func everyScalar() {
    for value in UInt32(0x80)...0x10FFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      var decomposed = String.UnicodeScalarView()
      PlaceNameKey.forEachDecomposed(scalar) { decomposed.append($0) }
      let expected = String(scalar).decomposedStringWithCompatibilityMapping.unicodeScalars
      #expect(decomposed.elementsEqual(expected), "U+\(String(value, radix: 16))")
    }
  }

  @Test("Random names of letters, marks, ligatures, Hangul and punctuation fold as they did")
  func randomNames() {
    let pieces = [
      "a", "Z", "ø", "Æ", "ß", "ſ", "é", "e\u{301}", "\u{301}\u{327}", "\u{903}\u{94D}", "ﬁ", "Ａ",
      "²", "™", "Σ", "ς", "İ", "ı", "서", "ᄀ", "京", "ǅ", "'", "’", "-", " ", "\u{A0}", "4", "٣", "ⅻ",
      "㎞", "\u{1D400}",
    ]
    var random = SplitMix64(seed: 1_970)
    for _ in 0..<10_000 {
      let name = (0..<Int.random(in: 0...8, using: &random)).map { _ in pieces.randomElement(using: &random)!
      }
      .joined()
      #expect(PlaceNameKey.fold(name) == Self.foundationFold(name), "\(name)")
    }
  }
}
