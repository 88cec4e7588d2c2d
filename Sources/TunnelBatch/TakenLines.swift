/// Rows of lines taken from the input all at once, unread (``BatchRecord/isUnread``), for a chunk that
/// keeps their lines: lines that follow each other are copied in one run, from the first row's line to
/// the last one's end, with the newlines between them (no row's line holds one).
struct TakenLines {
  /// The input's bytes of the lines taken and not copied yet.
  private var run: Range<Int>? = nil

  /// Appends the row of the line `line` at `range` of the input to `records`, pointing at where the
  /// line will be in the chunk's lines (`linesCount` bytes so far) once its run is copied
  /// (``takeRun()``).
  mutating func add(line: Int, _ range: Range<Int>, to records: inout [BatchRecord], linesCount: Int) {
    let offset = linesCount - (run?.lowerBound ?? range.lowerBound)
    records.append(
      BatchRecord(line: line, unreadPlainLine: (range.lowerBound + offset)..<(range.upperBound + offset)))
    run = (run?.lowerBound ?? range.lowerBound)..<range.upperBound
  }

  /// The input's bytes to append to the chunk's lines now, if any: before a line that is copied
  /// otherwise, and after the last.
  mutating func takeRun() -> Range<Int>? {
    defer { run = nil }
    return run
  }
}
