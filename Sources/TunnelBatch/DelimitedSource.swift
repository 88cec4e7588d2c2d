import TunnelGeo

/// The rows of a CSV or TSV file: the header found or made up, each record's coordinate read from
/// the coordinate columns, and a record whose field count differs from the header's marked bad.
final class DelimitedSource: RecordSource {
  /// The columns' names: the header's, or made up when the first row is data.
  let header: [String]
  private let reader: DelimitedReader
  private let columns: CoordinateColumns?
  private var pending: DelimitedReader.Record?

  init(reader: DelimitedReader, names: CoordinateColumns.Names) throws(BatchError) {
    self.reader = reader
    guard let first = try reader.next() else {
      header = []
      columns = nil
      return
    }
    // A first line ended by a carriage return alone: the file's lines end so, and would read as one.
    if first.endsInCarriageReturn { throw .carriageReturnLineEnds(line: first.line) }
    // A first row that reads as data is data, even a bad one (it stays a bad row); a header must be whole.
    if !names.isEmpty,
      let numbered = try? CoordinateColumns.find(
        in: CoordinateColumns.pair(latitude: 0, longitude: 1).names(count: first.fields.count), names: names),
      case .success = numbered.coordinate(in: first.fields)
    {
      // No header, and the columns named by number hold a coordinate.
      columns = numbered
      header = numbered.names(count: first.fields.count)
      pending = first
    } else if let guessed = CoordinateColumns.guess(fromData: first.fields) {
      // No header: the first row is data.
      var chosen = guessed
      if !names.isEmpty {
        let numbered = guessed.names(count: first.fields.count)
        chosen = try CoordinateColumns.find(in: numbered, names: names) ?? guessed
      }
      columns = chosen
      header = chosen.names(count: first.fields.count)
      pending = first
    } else {
      if let problem = first.problem { throw .unreadableHeader(problem) }
      // A column without a name (a spreadsheet's trailing commas) is called by its number, as the
      // columns of a file without a header are: `lat,lon,,` has `column3` and `column4`.
      let named = Self.namingUnnamed(first.fields)
      try Self.checkNamesApart(named)
      guard let found = try CoordinateColumns.find(in: named, names: names) else {
        throw .noCoordinateColumns(header: named, separator: reader.separator)
      }
      columns = found
      header = named
    }
  }

  /// The header with each empty name replaced by `column` and its number (`column3`), or, where the
  /// header already has that name, by it with `tunnel_` before it as often as needed.
  static func namingUnnamed(_ header: [String]) -> [String] {
    guard header.contains(where: \.isEmpty) else { return header }
    var taken = Set(header.map { Array($0.utf8) })
    return header.enumerated().map { index, name in
      guard name.isEmpty else { return name }
      var given = "column\(index + 1)"
      while taken.contains(Array(given.utf8)) { given = "tunnel_" + given }
      taken.insert(Array(given.utf8))
      return given
    }
  }

  /// Refuses a header that gives a name to more than one column: the output (a JSON key, a column)
  /// would have it twice.
  ///
  /// - Throws: ``BatchError/repeatedColumn(name:columns:)`` for the first such name.
  /// Names are compared by their bytes: "café" composed and decomposed are two names.
  static func checkNamesApart(_ header: [String]) throws(BatchError) {
    var seen = Set<[UInt8]>()
    for name in header where !seen.insert(Array(name.utf8)).inserted {
      throw .repeatedColumn(
        name: name, columns: header.indices.filter { header[$0].utf8.elementsEqual(name.utf8) }.map { $0 + 1 }
      )
    }
  }

  /// Whether a plain line is handed over unread (``BatchRecord/isUnread``), for ``plainRows`` to read
  /// later on another thread (``deferRows()``).
  private var defersPlainRows = false

  func deferRows() -> LineRows? {
    guard let plainRows else { return nil }
    defersPlainRows = true
    return .delimited(plainRows)
  }

  /// How the rows are read from their fields; nil for input without rows.
  private lazy var plainRows: PlainRows? = columns.map {
    PlainRows(columns: $0, fieldCount: header.count, separator: reader.separator)
  }

  /// Appends the rows of the plain lines that come next in the bytes already read, unread, with their
  /// lines (see ``DelimitedReader/takePlainLines(limit:byteLimit:_:)``); returns how many. Only once
  /// ``deferRows()`` has been called: the others are read one at a time by ``next()``.
  func takeLines(limit: Int, byteLimit: Int, into records: inout [BatchRecord], lines: inout [UInt8]) -> Int {
    guard defersPlainRows, pending == nil, columns != nil else { return 0 }
    let before = records.count
    var taken = TakenLines()
    // (No nested function copies the runs: one capturing `taken` made every access to it checked at run
    // time.)
    reader.takePlainLines(limit: limit, byteLimit: byteLimit) { line, range, quoted in
      guard quoted else { return taken.add(line: line, range, to: &records, linesCount: lines.count) }
      // Without its quotes, copied on its own, after the lines before it.
      if let run = taken.takeRun() { reader.withPlainLine(run) { lines.append(contentsOf: $0) } }
      let from = lines.count
      reader.withPlainLine(range) { bytes in
        for byte in bytes where byte != UInt8(ascii: "\"") { lines.append(byte) }
      }
      records.append(BatchRecord(line: line, unreadPlainLine: from..<lines.count))
    }
    if let run = taken.takeRun() { reader.withPlainLine(run) { lines.append(contentsOf: $0) } }
    return records.count - before
  }

  func next() throws(BatchError) -> BatchRecord? {
    guard let rows = plainRows else { return nil }
    var record: DelimitedReader.Record
    if let pending {
      record = pending
      self.pending = nil
    } else {
      guard let read = try reader.nextKeepingPlainLine() else { return nil }
      record = read
    }
    if let plain = record.plain {
      if defersPlainRows { return BatchRecord(line: record.line, unreadPlainLine: plain) }
      return reader.withPlainLine(plain) { rows.record(line: record.line, plain: $0, at: plain) }
    }
    return rows.record(line: record.line, fields: record.fields, problem: record.problem)
  }
}

/// How the rows of a CSV or TSV input are read from their fields: what ``DelimitedSource`` knows of the
/// header, for reading plain lines on any thread (``ChunkReader`` reads a chunk's on every core).
struct PlainRows: Sendable {
  let columns: CoordinateColumns
  /// The header's fields: a row with more or fewer is bad.
  let fieldCount: Int
  let separator: UInt8

  /// The row of the plain line `line` (its bytes), which stays a plain line at `range` when it is good:
  /// UTF-8 text, with a coordinate.
  @inline(__always)
  func record(line: Int, plain bytes: UnsafeBufferPointer<UInt8>, at range: Range<Int>) -> BatchRecord {
    if UTF8Validation.isValid(bytes, 0..<bytes.count), let found = coordinate(bytes) {
      return BatchRecord(line: line, plainLine: range, coordinate: found)
    }
    // Whatever else the row is, the fields say it as for any row, the first that is not UTF-8 first.
    let (fields, problem) = DelimitedReader.fields(ofText: bytes, separator: separator)
    return record(line: line, fields: fields, problem: problem)
  }

  /// The row of fields read the general way, and the problem reading found, if any.
  func record(line: Int, fields: [String], problem: String?) -> BatchRecord {
    var problem = problem
    if problem == nil, fields.count != fieldCount {
      problem =
        "the row has \(fields.count) field\(fields.count == 1 ? "" : "s") where the header has \(fieldCount)"
    }
    var coordinate: Coordinate? = nil
    if problem == nil {
      switch columns.coordinate(in: fields) {
      case .success(let found): coordinate = found
      case .failure(let failure): problem = failure.message
      }
    }
    return BatchRecord(line: line, values: fields, coordinate: coordinate, problem: problem)
  }

  /// The coordinate of a plain line whose fields are as many as the header's and whose coordinate
  /// columns are plain decimal numbers within range; nil for any other line.
  @inline(__always)
  func coordinate(_ line: UnsafeBufferPointer<UInt8>) -> Coordinate? {
    guard case .pair(let latitudeColumn, let longitudeColumn) = columns, let base = line.baseAddress else {
      return nil
    }
    var field = 0
    var fieldStart = 0
    var latitude: Range<Int>?
    var longitude: Range<Int>?
    // The field that ends at `index` (a separator, or the line's end).
    @inline(__always) func ends(at index: Int) {
      if field == latitudeColumn { latitude = fieldStart..<index }
      if field == longitudeColumn { longitude = fieldStart..<index }
      field += 1
      fieldStart = index + 1
    }
    // Eight bytes at a time: the separators among them, in order; past both columns, only counted.
    let lastColumn = max(latitudeColumn, longitudeColumn)
    let raw = UnsafeRawPointer(base)
    let separators = UInt64(separator) &* 0x0101_0101_0101_0101
    var index = 0
    while index + 8 <= line.count {
      var found = DelimitedReader.zeroBytes(
        UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) ^ separators)
      if field > lastColumn {
        field += found.nonzeroBitCount
      } else {
        while found != 0 {
          ends(at: index + found.trailingZeroBitCount / 8)
          found &= found &- 1
        }
      }
      index += 8
    }
    for index in index..<line.count where line[index] == separator { ends(at: index) }
    ends(at: line.count)
    guard field == fieldCount, let latitude, let longitude,
      case .some(.some(let north)) = DecimalNumber.parse(plain: UnsafeBufferPointer(rebasing: line[latitude])),
      case .some(.some(let east)) = DecimalNumber.parse(plain: UnsafeBufferPointer(rebasing: line[longitude])),
      case .success(let coordinate) = CoordinateColumns.coordinate(north, east)
    else { return nil }
    return coordinate
  }
}
