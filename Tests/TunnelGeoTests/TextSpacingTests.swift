import Foundation
import SeededRandom
import Testing

@testable import TunnelGeo

/// The white space trimming and padding that replace Foundation's, against Foundation's.
@Suite struct TextSpacingTests {
  @Test("Every scalar trimmed as trimmingCharacters(in:) trims it, with and without line breaks")
  func everyScalar() {
    for value in UInt32(0)...0x3FFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let text = String(scalar) + "x" + String(scalar)
      #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespacesAndNewlines), "U+\(value)")
      #expect(
        text.trimmingWhitespace(lineBreaks: false) == text.trimmingCharacters(in: .whitespaces), "U+\(value)")
    }
  }

  @Test("Random text of spaces, marks and letters")
  func randomText() {
    let pieces: [String] = [
      " ", "\t", "\n", "\r\n", "\u{A0}", "\u{200B}", "\u{2028}", "\u{301}", "a", "é", "e\u{301}", "💡", "",
    ]
    var random = SplitMix64(seed: 45)
    for _ in 0..<5_000 {
      let text = (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)!
      }
      .joined()
      #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespacesAndNewlines))
      #expect(text.trimmingWhitespace(lineBreaks: false) == text.trimmingCharacters(in: .whitespaces))
      let substring = Substring(text).dropFirst(text.isEmpty ? 0 : 1)
      #expect(substring.trimmingWhitespace() == substring.trimmingCharacters(in: .whitespacesAndNewlines))
      for length in [0, 1, 3, 6, 15] {
        #expect(
          text.paddedWithSpaces(toLength: length)
            == text.padding(toLength: length, withPad: " ", startingAt: 0))
      }
    }
  }
}
