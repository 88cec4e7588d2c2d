import Foundation
import Testing

@testable import TunnelApp

/// Text for ASCII terminals, spelled from the generated Latin-ASCII table, against ICU's transform, which
/// spelled it before.
@Suite struct ASCIITextTests {
  /// What `ASCIIText.converted` gave with ICU's "Any-Latin; Latin-ASCII".
  static func transformed(_ text: String) -> String {
    var spelled = ""
    for character in text { spelled += ASCIIText.symbols[character] ?? String(character) }
    let latin =
      spelled.applyingTransform(StringTransform("Any-Latin; Latin-ASCII"), reverse: false) ?? spelled
    return String(latin.map { $0.isASCII ? $0 : "?" })
  }

  @Test("Examples: names, the interface's symbols, and what has no ASCII form")
  func examples() {
    #expect(ASCIIText.converted("København") == "Kobenhavn")
    #expect(
      ASCIIText.converted("Łódź, Straße, Ærøskøbing, Þórshöfn") == "Lodz, Strasse, AEroskobing, THorshofn")
    #expect(ASCIIText.converted("Saint-E\u{301}tienne") == "Saint-Etienne")
    #expect(ASCIIText.converted("Thinking…") == "Thinking...")
    #expect(ASCIIText.converted("UTC−11:00 · 12°") == "UTC-11:00 - 12 deg")
    #expect(ASCIIText.converted("“quoted” – ‘so’ —") == "\"quoted\" - 'so' -")
    #expect(ASCIIText.converted("Москва 東京 🌍") == "?????? ?? ?")
    #expect(ASCIIText.converted("plain") == "plain")
    for text in [
      "Łódź, Straße, Ærøskøbing, Þórshöfn", "Saint-E\u{301}tienne", "“quoted” – ‘so’ —", "K\u{20D2}\u{212A}",
    ] {
      #expect(ASCIIText.converted(text) == Self.transformed(text))
    }
  }

  @Test("Every scalar of the Latin, punctuation and symbol blocks spelled as ICU spells it")
  func latinBlocks() {
    let blocks: [ClosedRange<UInt32>] = [
      0x00A0...0x02FF, 0x1E00...0x1EFF, 0x2000...0x218F, 0x2C60...0x2C7F, 0xA720...0xA7FF, 0xFB00...0xFB06,
      0xFF01...0xFF5E,
    ]
    for value in blocks.joined() {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let text = "a" + String(scalar) + "b"
      #expect(ASCIIText.converted(text) == Self.transformed(text), "U+\(String(value, radix: 16))")
    }
  }

  @Test("Letters with combining marks after them, as ICU spells them (the marks of other scripts aside)")
  func combiningMarks() {
    let blocks: [ClosedRange<UInt32>] = [
      0x0300...0x036F, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F,
    ]
    for value in blocks.joined() {
      guard let mark = Unicode.Scalar(value) else { continue }
      let text = "xa" + String(mark) + "y"
      #expect(ASCIIText.converted(text) == Self.transformed(text), "U+\(String(value, radix: 16))")
    }
  }
}
