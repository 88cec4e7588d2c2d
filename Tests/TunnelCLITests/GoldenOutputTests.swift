import Foundation
import Testing

/// Every command's output, byte for byte, as recorded in `Golden/` (see ``GoldenCase``).
///
/// A difference here is a change in what users or their scripts see. When it is meant, record the table again
/// with `Scripts/golden --write PATH/TO/tunnel` and review the diff of `Golden/`; `Scripts/golden --check` shows
/// every difference at once as a unified diff.
@Suite struct GoldenOutputTests {
  @Test func tableReads() throws {
    let table = try GoldenCase.Table.load()
    let names = table.cases.map(\.name)
    #expect(Set(names).count == names.count, "a case name is given twice")
    #expect(GoldenCase.all.count == table.cases.count)
    for name in names {
      let allowed = name.allSatisfy {
        $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-" || $0 == ".")
      }
      #expect(allowed, "\(name)")
    }
  }

  @Test(arguments: GoldenCase.all)
  func printsWhatWasRecorded(_ golden: GoldenCase) throws {
    let result = try TunnelProcess.run(
      golden.arguments, environment: golden.environment ?? [:], input: Data((golden.stdin ?? "").utf8))
    let printed = [
      ("stdout", result.standardOutput), ("stderr", result.standardError), ("status", "\(result.status)\n"),
    ]
    for (part, text) in printed {
      let recorded = try Data(contentsOf: golden.recording(part))
      if let difference = Self.firstDifference(recorded: recorded, printed: Data(text.utf8)) {
        Issue.record("\(golden.name).\(part): \(difference)")
      }
    }
  }

  /// Where `printed` first differs from `recorded`, line by line: the line's number and both versions of it,
  /// with control characters escaped; `nil` when the two are the same bytes.
  static func firstDifference(recorded: Data, printed: Data) -> String? {
    guard recorded != printed else { return nil }
    let lines = { (data: Data) in
      data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    }
    let (before, after) = (lines(recorded), lines(printed))
    let shown = { (lines: [Data.SubSequence], index: Int) in
      index < lines.count ? String(reflecting: String(decoding: lines[index], as: UTF8.self)) : "(the end)"
    }
    let common = min(before.count, after.count)
    let index = (0..<common).first { before[$0] != after[$0] } ?? common
    let recordedLine = shown(before, index)
    let printedLine = shown(after, index)
    return "line \(index + 1) differs\n  recorded: \(recordedLine)\n  printed:  \(printedLine)"
  }
}
