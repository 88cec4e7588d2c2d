import Foundation
import SeededRandom
import Testing
import TunnelSystem

/// The concrete joins and searches against the standard library's and Foundation's, which they replace on
/// a single query's way.
@Suite struct PlainTextTests {
  /// Short strings over a small alphabet, so that patterns are often found, and sometimes at either end.
  static func words(count: Int, seed: UInt64) -> [String] {
    var random = SplitMix64(seed: seed)
    let alphabet = Array("ab:/.-8UTF")
    return (0..<count).map { _ in
      String((0..<Int.random(in: 0...8, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
    }
  }

  @Test("containsBytes answers as contains for text of ASCII")
  func containsBytes() {
    let texts = Self.words(count: 400, seed: 1)
    let patterns = Self.words(count: 60, seed: 2) + ["://", "..", "utf-8", "color", ""]
    for text in texts + ["xterm-256color", "en_DK.UTF-8", "http://x", "a..b"] {
      for pattern in patterns {
        #expect(text.containsBytes(pattern) == text.contains(pattern), "\(text) \(pattern)")
      }
    }
  }

  @Test("joined(by:) writes what joined(separator:) writes")
  func joined() {
    var random = SplitMix64(seed: 3)
    let words = Self.words(count: 200, seed: 4) + ["Skjern", "Ærø", "", "東京"]
    for count in 0..<12 {
      let parts = (0..<count).map { _ in words.randomElement(using: &random)! }
      for separator in ["", ", ", " ", "\n", "–"] {
        #expect(parts.joined(by: separator) == parts.joined(separator: separator))
      }
    }
  }

  @Test("asciiLowercased makes ASCII capitals small and leaves the rest")
  func asciiLowercased() {
    #expect("en_DK.UTF-8".asciiLowercased == "en_dk.utf-8")
    #expect("ÆØÅ Utf8".asciiLowercased == "ÆØÅ utf8")
    for word in Self.words(count: 300, seed: 5) {
      #expect(word.asciiLowercased == word.lowercased())
    }
  }
}
