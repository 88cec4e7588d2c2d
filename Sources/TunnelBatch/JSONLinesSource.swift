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
  private let names: CoordinateColumns.Names
  private var startedInput = false
  /// The member names of the last row and the columns found among them, reused while rows look alike.
  private var lastNames: [String] = []
  private var lastColumns: Result<CoordinateColumns?, BatchError> = .success(nil)
  /// What is wrong with the last row's names (one not text, one given twice), if anything.
  private var lastNamesProblem: String?
  /// Whether a row has been read (the first one says what the whole file is).
  private var readRow = false

  init(input: InputBuffer, names: CoordinateColumns.Names) {
    self.input = input
    self.names = names
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
      var contentEnd = line.contentEnd
      func bad(_ problem: String) -> BatchRecord {
        // Its text as it came, unless that is not UTF-8 (then it would be changed, and is left out).
        let text = UnsafeBufferPointer(rebasing: bytes[input.start..<contentEnd])
        return BatchRecord(
          line: number, values: [], coordinate: nil, problem: problem,
          source: String(validating: text, as: UTF8.self))
      }
      guard bytes[start] == UInt8(ascii: "{") else { return bad("the line is not a JSON object") }
      switch JSONScan.value(bytes, from: start, end: line.contentEnd) {
      case .incomplete:
        return bad("the line ends inside its JSON object")
      case .invalid(let reason, let position):
        return bad("the line is not JSON: \(reason) at column \(position - input.start + 1)")
      case .tooDeep(let position):
        return bad("the line is not JSON: \(JSONScan.tooDeepReason) at column \(position - input.start + 1)")
      case .end(let objectEnd):
        var after = objectEnd
        while after < line.contentEnd, bytes[after] == 0x20 || bytes[after] == 0x09 { after += 1 }
        if after < line.contentEnd, bytes[after] == 0x0D,
          JSONScan.skipWhitespace(bytes, after, end: line.contentEnd) < line.contentEnd
        {
          // A carriage return alone ends the row: the rest of the line is the next.
          if first { throw .carriageReturnLineEnds(line: number) }
          consumed = after + 1 - input.start
          contentEnd = after
        }
        guard JSONScan.skipWhitespace(bytes, objectEnd, end: contentEnd) == contentEnd else {
          return bad("the line holds more than one JSON value")
        }
        // Passed through whole or not at all: a row that would lose or change a member is bad.
        guard UTF8Validation.isValid(bytes, start..<objectEnd) else {
          return bad("the line is not JSON: it holds bytes that are not UTF-8 text")
        }
        let members = JSONScan.members(bytes, from: start, end: objectEnd)
        let memberNames = members.map { $0.name ?? "" }
        if memberNames != lastNames || members.contains(where: { $0.name == nil }) {
          lastNames = memberNames
          lastNamesProblem = JSONScan.namesProblem(members, what: "member")
          do throws(BatchError) {
            lastColumns = .success(try CoordinateColumns.find(in: memberNames, names: names))
          } catch {
            lastColumns = .failure(error)
          }
        }
        if let lastNamesProblem { return bad(lastNamesProblem) }
        let values = members.map {
          String(decoding: UnsafeBufferPointer(rebasing: bytes[$0.value]), as: UTF8.self)
        }
        var coordinate: Coordinate? = nil
        var problem: String? = nil
        switch lastColumns {
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
        case .success(let columns?):
          switch JSONValues.coordinate(values, columns) {
          case .success(let found): coordinate = found
          case .failure(let failure): problem = failure.message
          }
        }
        return BatchRecord(
          line: number, values: values, names: memberNames, coordinate: coordinate, problem: problem)
      }
    }
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
