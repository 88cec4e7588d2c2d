import TunnelGeo

/// The rows of JSON Lines: one object a line, its members passed through as they are, its coordinate
/// found by the members' names as a CSV header's would be.
///
/// Lines end in LF or CR LF. A carriage return alone after an object ends its row too, so that a stray CR
/// in a file of CRLF lines does not join two rows; a first line ended so means the file's lines all are,
/// and is refused (``BatchError/carriageReturnLineEnds(line:)``), as is a first line that opens a JSON
/// array (``BatchError/jsonArray(expected:line:)``). A line that cannot be read member by member keeps
/// its text as it came (``BatchRecord/source``).
final class JSONLinesSource: RecordSource {
  private let input: InputBuffer
  private var startedInput = false
  /// How rows are read from their lines, and the columns of the last row's names.
  private let rows: JSONLineRows
  private var columns = JSONLineRows.Columns()
  /// Whether a row has been read (the first one says what the whole file is).
  private var readRow = false
  /// Whether lines are handed over unread (``BatchRecord/isUnread``) by ``takeLines(limit:byteLimit:into:lines:)``,
  /// for ``rows`` to read later on another thread (``deferRows()``).
  private var defersLines = false

  func deferRows() -> LineRows? {
    defersLines = true
    return .jsonLines(rows)
  }

  init(input: InputBuffer, names: CoordinateColumns.Names) {
    self.input = input
    rows = JSONLineRows(names: names)
  }

  func next() throws(BatchError) -> BatchRecord? {
    while true {
      if !startedInput {
        startedInput = true
        while input.available < 3, try input.fill() {}
        let hasMark = input.storage.withUnsafeBufferPointer { bytes in
          input.available >= 3 && bytes[input.start] == 0xEF && bytes[input.start + 1] == 0xBB
            && bytes[input.start + 2] == 0xBF
        }
        if hasMark { input.consume(3) }
      }
      guard let line = try LineReading.nextLine(input) else { return nil }
      if let record = try record(line) { return record }
    }
  }

  /// The row of one line, nil for a blank line.
  private func record(_ line: LineReading.Line) throws(BatchError) -> BatchRecord? {
    // The whole line, unless a carriage return alone ends the row before its end.
    var consumed = line.length
    defer { input.consume(consumed) }
    let number = input.linesConsumed + 1
    guard !line.tooLong else {
      return BatchRecord(
        line: number, values: [], coordinate: nil,
        problem: "the line is longer than \(DelimitedReader.maximumRecordBytes >> 20) MiB; it is not read")
    }
    return try input.storage.withUnsafeBufferPointer { bytes throws(BatchError) -> BatchRecord? in
      let start = JSONScan.skipWhitespace(bytes, input.start, end: line.contentEnd)
      if start == line.contentEnd { return nil }
      let first = !readRow
      readRow = true
      if first, bytes[start] == UInt8(ascii: "[") { throw .jsonArray(expected: .jsonl, line: number) }
      let text = input.start..<line.contentEnd
      switch rows.object(bytes, from: start, in: text) {
      case .failure(let problem):
        return rows.bad(problem.message, line: number, bytes, text)
      case .success(let objectEnd):
        var after = objectEnd
        while after < line.contentEnd, bytes[after] == 0x20 || bytes[after] == 0x09 { after += 1 }
        var contentEnd = line.contentEnd
        if after < line.contentEnd, bytes[after] == 0x0D,
          JSONScan.skipWhitespace(bytes, after, end: line.contentEnd) < line.contentEnd
        {
          // A carriage return alone ends the row: the rest of the line is the next.
          if first { throw .carriageReturnLineEnds(line: number) }
          consumed = after + 1 - input.start
          contentEnd = after
        }
        return rows.record(
          bytes, line: number, object: start..<objectEnd, in: input.start..<contentEnd, columns: &columns)
      }
    }
  }

  /// Appends the rows of the lines that come next in the bytes already read and that can be read apart
  /// from the others, unread, with their lines (see ``DelimitedSource/takeLines(limit:byteLimit:into:lines:)``);
  /// returns how many. Such a line starts with `{` and holds no carriage return but one before its
  /// newline (one alone may end a row before the line's end); the first row, and every other line, is
  /// read one at a time by ``next()``.
  func takeLines(limit: Int, byteLimit: Int, into records: inout [BatchRecord], lines: inout [UInt8]) -> Int {
    guard defersLines, readRow, limit > 0 else { return 0 }
    let before = records.count
    let start = input.start
    let (end, final) = (input.end, input.atEnd)
    var position = start
    var newlines = input.linesConsumed
    var taken = TakenLines()
    input.storage.withUnsafeBufferPointer { bytes in
      while records.count - before < limit, position < end, position - start < byteLimit,
        let (length, ending) = Self.separateLine(bytes, from: position, end: end, final: final)
      {
        taken.add(line: newlines + 1, position..<(position + length), to: &records, linesCount: lines.count)
        position += length + ending
        if ending > 0 { newlines += 1 }
      }
      if let run = taken.takeRun() { lines.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run])) }
    }
    input.consume(position - start, newlines: newlines - input.linesConsumed)
    return records.count - before
  }

  /// The length of the line at `start` (without its line break) and the bytes of its line break (1 for
  /// LF, 2 for CR LF, 0 at the input's end), when the line can be read apart from the others: it starts
  /// with `{`, holds no other carriage return, and is not too long; nil otherwise, or when it has not
  /// all been read yet.
  private static func separateLine(
    _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, end: Int, final: Bool
  ) -> (length: Int, ending: Int)? {
    guard bytes[start] == UInt8(ascii: "{") else { return nil }
    let limit = min(end, start + DelimitedReader.maximumRecordBytes)
    var index = start
    let raw = UnsafeRawPointer(bytes.baseAddress!)
    // Eight bytes at a time to the first newline or carriage return.
    while index + 8 <= limit {
      let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      let stops =
        DelimitedReader.zeroBytes(word ^ 0x0A0A_0A0A_0A0A_0A0A)
        | DelimitedReader.zeroBytes(word ^ 0x0D0D_0D0D_0D0D_0D0D)
      if stops != 0 {
        index += stops.trailingZeroBitCount / 8
        break
      }
      index += 8
    }
    while index < limit {
      if bytes[index] == 0x0A { return (index - start, 1) }
      if bytes[index] == 0x0D {
        return index + 1 < limit && bytes[index + 1] == 0x0A ? (index - start, 2) : nil
      }
      index += 1
    }
    return final && limit == end ? (end - start, 0) : nil
  }
}

/// How JSON Lines rows are read from their lines: what ``JSONLinesSource`` knows, for reading lines on
/// any thread (``ChunkReader`` reads a chunk's on every core).
struct JSONLineRows: Sendable {
  /// The columns the user named.
  let names: CoordinateColumns.Names

  /// The member names of the last row and the columns found among them, reused while rows look alike.
  struct Columns {
    var names: [String] = []
    var found: Result<CoordinateColumns?, BatchError> = .success(nil)
    /// What is wrong with the last row's names (one not text, one given twice), if anything.
    var namesProblem: String?
  }

  /// The row of a line handed over unread: all its bytes are the line's text, which starts with an object.
  func record(line: Int, text bytes: UnsafeBufferPointer<UInt8>, columns: inout Columns) -> BatchRecord {
    let text = 0..<bytes.count
    switch object(bytes, from: 0, in: text) {
    case .failure(let problem): return bad(problem.message, line: line, bytes, text)
    case .success(let objectEnd):
      return record(bytes, line: line, object: 0..<objectEnd, in: text, columns: &columns)
    }
  }

  /// The end of the JSON object at `start` in the line's `text`, or why there is none.
  func object(
    _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, in text: Range<Int>
  ) -> Result<Int, RowProblem> {
    guard bytes[start] == UInt8(ascii: "{") else {
      return .failure(RowProblem("the line is not a JSON object"))
    }
    switch JSONScan.value(bytes, from: start, end: text.upperBound) {
    case .incomplete:
      return .failure(RowProblem("the line ends inside its JSON object"))
    case .invalid(let reason, let position):
      return .failure(
        RowProblem("the line is not JSON: \(reason) at column \(position - text.lowerBound + 1)"))
    case .tooDeep(let position):
      return .failure(
        RowProblem(
          "the line is not JSON: \(JSONScan.tooDeepReason) at column \(position - text.lowerBound + 1)"))
    case .end(let objectEnd):
      return .success(objectEnd)
    }
  }

  /// A bad row, with the line's text as it came, unless that is not UTF-8 (then it would be changed,
  /// and is left out).
  func bad(
    _ problem: String, line: Int, _ bytes: UnsafeBufferPointer<UInt8>, _ text: Range<Int>
  ) -> BatchRecord {
    BatchRecord(
      line: line, values: [], coordinate: nil, problem: problem,
      source: UTF8Validation.isValid(bytes, text)
        ? String(decoding: UnsafeBufferPointer(rebasing: bytes[text]), as: UTF8.self) : nil)
  }

  /// The row of the JSON object at `object` in the line's `text` (the rest of which must be whitespace).
  func record(
    _ bytes: UnsafeBufferPointer<UInt8>, line: Int, object: Range<Int>, in text: Range<Int>,
    columns: inout Columns
  ) -> BatchRecord {
    guard JSONScan.skipWhitespace(bytes, object.upperBound, end: text.upperBound) == text.upperBound else {
      return bad("the line holds more than one JSON value", line: line, bytes, text)
    }
    // Passed through whole or not at all: a row that would lose or change a member is bad.
    guard UTF8Validation.isValid(bytes, object) else {
      return bad("the line is not JSON: it holds bytes that are not UTF-8 text", line: line, bytes, text)
    }
    let members = JSONScan.members(bytes, from: object.lowerBound, end: object.upperBound)
    // Compared without an array of them; a name that is not text is never the same.
    let sameNames =
      members.count == columns.names.count
      && members.indices.allSatisfy { members[$0].name == columns.names[$0] }
    if !sameNames {
      let memberNames = members.map { $0.name ?? "" }
      columns.names = memberNames
      columns.namesProblem = JSONScan.namesProblem(members, what: "member")
      do throws(BatchError) {
        columns.found = .success(try CoordinateColumns.find(in: memberNames, names: names))
      } catch {
        columns.found = .failure(error)
      }
    }
    if let namesProblem = columns.namesProblem { return bad(namesProblem, line: line, bytes, text) }
    let values = members.map {
      String(decoding: UnsafeBufferPointer(rebasing: bytes[$0.value]), as: UTF8.self)
    }
    var coordinate: Coordinate? = nil
    var problem: String? = nil
    switch columns.found {
    case .failure(.unknownColumn(let role, let name, let header)):
      let members =
        header.isEmpty ? "the row has no members" : "its members are \(BatchError.list(header))"
      problem =
        "\(names.options[role]) \(EchoedText.quoted(name)) names no member of this row (\(members))"
    case .failure(.ambiguousColumns(let candidates, _)):
      problem = BatchError.ambiguity(candidates, options: names.options, item: "member")
    case .failure(let error):
      problem = error.description(naming: names.options)
    case .success(nil):
      problem = "no member holds the coordinate (lat and lon, latitude and longitude, or coordinate)"
    case .success(let found?):
      switch JSONValues.coordinate(values, found) {
      case .success(let point): coordinate = point
      case .failure(let failure): problem = failure.message
      }
    }
    // The names of rows alike are one array.
    return BatchRecord(
      line: line, values: values, names: columns.names, coordinate: coordinate, problem: problem)
  }
}

/// Reading input a line at a time.
enum LineReading {
  struct Line {
    /// Where the line's text ends (before LF or CR LF).
    var contentEnd: Int
    /// The bytes to consume, line break included.
    var length: Int
    /// Whether the line was longer than a record may be (then it has been skipped already, except for
    /// `length` bytes).
    var tooLong = false
  }

  /// The line at the input's start, read in whole; nil at the end of the input.
  static func nextLine(_ input: InputBuffer) throws(BatchError) -> Line? {
    var searched = input.start
    while true {
      let newline = input.storage.withUnsafeBufferPointer { bytes in
        (searched..<input.end).first { bytes[$0] == 0x0A }
      }
      if let newline {
        let crlf = input.storage.withUnsafeBufferPointer { newline > input.start && $0[newline - 1] == 0x0D }
        let length = newline + 1 - input.start
        if length > DelimitedReader.maximumRecordBytes {
          return Line(contentEnd: input.start, length: length, tooLong: true)
        }
        return Line(contentEnd: crlf ? newline - 1 : newline, length: length)
      }
      searched = input.end
      if input.available > DelimitedReader.maximumRecordBytes {
        // Skip to the end of the overlong line, keeping one byte to consume as the line.
        while true {
          input.consume(input.available - 1)
          guard try input.fill() else {
            // A line cut short by a stop is not a row.
            if input.stopped { return nil }
            break
          }
          let newline = input.storage.withUnsafeBufferPointer { bytes in
            (input.start..<input.end).first { bytes[$0] == 0x0A }
          }
          if let newline {
            return Line(contentEnd: input.start, length: newline + 1 - input.start, tooLong: true)
          }
        }
        return Line(contentEnd: input.start, length: input.available, tooLong: true)
      }
      let searchedOffset = searched - input.start
      guard try input.fill() else {
        if input.available == 0 { return nil }
        return Line(contentEnd: input.end, length: input.available)
      }
      searched = input.start + searchedOffset
    }
  }
}
