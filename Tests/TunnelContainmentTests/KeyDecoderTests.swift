import SeededRandom
import Testing

@testable import TunnelContainment

@Suite("Decoding a terminal's input as it arrives")
struct KeyDecoderTests {
  /// Decodes `chunks` one after another, with a pause (no bytes for a while) after each, as a
  /// terminal's reads come.
  func decode(_ chunks: [String], pausing: Bool = true) -> [Key] {
    var decoder = KeyDecoder()
    var keys: [Key] = []
    for chunk in chunks {
      keys += decoder.decode(Array(chunk.utf8))
      if pausing { keys += decoder.pause() }
    }
    return keys
  }

  @Test("Read so far, an unfinished sequence waits for the rest: a wheel report split anywhere is one scroll")
  func splitReads() {
    let report = "x\u{1B}[<64;10;3My"
    let bytes = Array(report.utf8)
    for split in 1..<bytes.count {
      var decoder = KeyDecoder()
      let keys = decoder.decode(bytes[..<split]) + decoder.decode(bytes[split...])
      #expect(
        keys == [.character("x"), .scroll(up: true, at: Point(x: 9, y: 2)), .character("y")],
        "split at \(split)")
    }
    // Part of a UTF-8 character waits too, through a pause.
    let o = Array("ø".utf8)
    var decoder = KeyDecoder()
    #expect(decoder.decode([o[0]]).isEmpty && decoder.pause().isEmpty)
    #expect(decoder.decode([o[1]]) == [.character("ø")])
  }

  @Test("A lone ESC is the Escape key once a pause shows nothing follows it, and only then")
  func loneEscape() {
    var decoder = KeyDecoder()
    #expect(decoder.decode([0x1B]).isEmpty)
    #expect(decoder.awaitsPause)
    #expect(decoder.pause() == [.escape])
    #expect(!decoder.awaitsPause)
    #expect(decoder.decode([0x1B]).isEmpty)
    #expect(decoder.finish() == [.escape])
    // Alt-Escape, then Escape.
    #expect(decoder.decode([0x1B, 0x1B, 0x1B]).isEmpty)
    #expect(decoder.pause() == [.escape])
  }

  @Test(
    "ESC and the start of a sequence, then a pause, are Alt and a key: left out, and the keys after them are read",
    arguments: ["\u{1B}[", "\u{1B}O", "\u{1B}]", "\u{1B}P", "\u{1B}_", "\u{1B}^", "\u{1B}X", "\u{1B}\u{1B}"])
  func escapeAndIntroducer(prefix: String) {
    #expect(decode([prefix, "q"]) == [.character("q")])
  }

  @Test(
    "Keys with Alt held are left out, whatever the key: none of them quits",
    arguments: [
      "\u{1B}q", "\u{1B}Q", "\u{1B}\u{3}", "\u{1B}\u{4}", "\u{1B}ø", "\u{1B}\r", "\u{1B} ", "\u{1B}\u{7F}",
      "\u{1B}\u{1B}[A", "\u{1B}\u{1B}OA",
    ])
  func altKeys(input: String) {
    #expect(decode([input + "x"]) == [.character("x")], "\(Array(input.utf8))")
  }

  @Test(
    "Control strings end with BEL or ST however they are split, and nothing in them is a key",
    arguments: [
      "\u{1B}]11;rgb:ffff/ffff/ffff\u{7}",  // a colour report (OSC)
      "\u{1B}]52;c;cXVpdA==\u{1B}\\",  // the clipboard (OSC, ended by ST)
      "\u{1B}P1+r71=71\u{1B}\\",  // a capability report (DCS)
      "\u{1B}_q q q\u{1B}\\", "\u{1B}^q\u{7}", "\u{1B}Xq\u{1B}\\",  // APC, PM, SOS
    ])
  func controlStrings(string: String) {
    let bytes = Array((string + "x").utf8)
    // Whole, and split anywhere once the string has begun, with a pause between the parts (a slow link).
    #expect(Key.parse(bytes) == [.character("x")])
    for split in 3..<bytes.count {
      let keys = decode([
        String(decoding: bytes[..<split], as: UTF8.self), String(decoding: bytes[split...], as: UTF8.self),
      ])
      #expect(keys == [.character("x")], "split at \(split)")
    }
  }

  @Test("Control sequences with parameters and intermediates are read whole, through pauses")
  func controlSequences() {
    // A cursor position report, Alt-↑ as xterm sends it, Delete, a DECRQM reply (with an intermediate '$').
    let input = "\u{1B}[12;40R\u{1B}[1;3A\u{1B}[3~\u{1B}[?1049;1$yq"
    #expect(Key.parse(Array(input.utf8)) == [.character("q")])
    #expect(decode(["\u{1B}[12;", "40R", "q"]) == [.character("q")])
    #expect(decode(["\u{1B}O", "A"]) == [.character("A")], "ESC O then a pause is Alt-O")
    #expect(decode(["\u{1B}OA"]) == [.up])
  }

  @Test(
    "A control byte ends an unfinished sequence or string and is its own key: Control-C always quits",
    arguments: ["\u{1B}[1;", "\u{1B}]0;title", "\u{1B}Pq", "\u{1B}[<0;1"])
  func controlByteEndsSequence(prefix: String) {
    #expect(decode([prefix, "\u{3}"]) == [.interrupt])
    #expect(decode([prefix, "\u{1A}"]) == [.suspend])
    #expect(decode([prefix + "\u{1B}[A"]) == [.up], "ESC starts a new sequence")
  }

  @Test(
    "After any bytes at all and a pause, Control-C is Control-C: nothing a terminal sends can eat the quit key"
  )
  func controlCAfterAnything() {
    var random = SplitMix64(seed: 0x7E55_C0DE)
    // Bytes weighted towards the ones that start and end sequences.
    let interesting: [UInt8] = [
      0x1B, 0x5B, 0x4F, 0x5D, 0x50, 0x5F, 0x5C, 0x07, 0x3B, 0x3C, 0x31, 0x41, 0x71, 0xC3, 0xE2,
    ]
    for round in 0..<2000 {
      var decoder = KeyDecoder()
      let count = Int.random(in: 0...24, using: &random)
      let bytes = (0..<count).map { _ in
        Bool.random(using: &random)
          ? interesting.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
      }
      _ = decoder.decode(bytes)
      _ = decoder.pause()
      #expect(decoder.decode([0x03]) == [.interrupt], "round \(round): \(bytes)")
    }
  }
}
