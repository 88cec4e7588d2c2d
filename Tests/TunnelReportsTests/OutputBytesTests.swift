import Testing
import TunnelReports

/// The output buffer copies spans of every length exactly: the short ones as overlapping words, the long
/// ones whole, the buffer growing under them.
@Suite struct OutputBytesTests {
  @Test("Spans of every length from 0 to 80 bytes are appended exactly, one after another")
  func spansOfEveryLength() {
    var out = OutputBytes(capacity: 16)
    var expected: [UInt8] = []
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    for length in 0...80 {
      var span: [UInt8] = []
      for _ in 0..<length {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        span.append(UInt8(truncatingIfNeeded: seed >> 56))
      }
      // From an offset in a larger buffer, so that no span starts aligned.
      let padded = [0xAA] + span + [0xBB]
      padded.withUnsafeBufferPointer { whole in
        out.append(contentsOf: UnsafeBufferPointer(rebasing: whole[1..<(1 + length)]))
      }
      expected += span
      #expect(out.count == expected.count, "after \(length)")
    }
    let written = out.withBytes { Array($0) }
    let firstDifference = zip(written, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
    #expect(
      written.count == expected.count && firstDifference == nil,
      "first difference at byte \(firstDifference ?? -1)")
  }
}
