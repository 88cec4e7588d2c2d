#if canImport(Glibc)
import Glibc
#endif

/// The formats `tunnel batch` reads.
public enum BatchInputFormat: String, Sendable, CaseIterable {
  case csv, tsv, jsonl, geojson

  /// The format a file's extension names, if any.
  public init?(pathExtension: String) {
    switch pathExtension.lowercased() {
    case "csv", "txt": self = .csv
    case "tsv", "tab": self = .tsv
    case "jsonl", "ndjson", "jsonlines": self = .jsonl
    case "geojson", "geojsonl", "geojsons": self = .geojson
    default: return nil
    }
  }

  /// The format the first bytes of an input look like: JSON objects are JSON Lines unless they are
  /// GeoJSON features or a feature collection, and so is a JSON array (for the message JSON Lines gives
  /// it); text with tabs and no commas on its first line (after `#` comment lines and a `sep=` line, see
  /// ``DelimitedPreamble``) is TSV; anything else is CSV.
  static func guess(from bytes: UnsafeBufferPointer<UInt8>) -> BatchInputFormat {
    var start = 0
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
    while start < bytes.count, JSONScan.isWhitespace(bytes[start]) { start += 1 }
    guard start < bytes.count else { return .csv }
    var lineEnd = (start..<bytes.count).first { bytes[$0] == 0x0A } ?? bytes.count
    while lineEnd < bytes.count,
      bytes[start] == UInt8(ascii: "#")
        || DelimitedPreamble.namedSeparator(Array(bytes[start..<lineEnd])) != nil
    {
      if DelimitedPreamble.namedSeparator(Array(bytes[start..<lineEnd])) == 0x09 { return .tsv }
      start = lineEnd + 1
      lineEnd = (start..<bytes.count).first { bytes[$0] == 0x0A } ?? bytes.count
    }
    guard start < bytes.count else { return .csv }
    let line = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<lineEnd]), as: UTF8.self)
    switch bytes[start] {
    case 0x1E:
      return .geojson
    case UInt8(ascii: "[")
    where {
      // A JSON array of objects or arrays (read as JSON Lines, which refuses it with what to do), not a
      // CSV header such as `[lat],[lon]`.
      let next = JSONScan.skipWhitespace(bytes, start + 1, end: bytes.count)
      return next == bytes.count
        || [UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "]")].contains(bytes[next])
    }():
      return .jsonl
    case UInt8(ascii: "{"):
      let compact = line.filter { $0 != " " && $0 != "\t" }
      return compact.contains("\"type\":\"FeatureCollection\"") || compact.contains("\"type\":\"Feature\"")
        || lineEnd - start < 2 ? .geojson : .jsonl
    default:
      return line.contains("\t") && !line.contains(",") ? .tsv : .csv
    }
  }
}

/// A batch's input: a file, standard input or any other ``BatchByteSource``, read row by row in one of the
/// ``BatchInputFormat``s.
///
/// ```swift
/// let input = try BatchInput(path: "points.csv")
/// while let record = try input.next() {
///   print(record.line, record.coordinate.map { "\($0)" } ?? record.problem ?? "")
/// }
/// ```
public final class BatchInput {
  /// The format being read.
  public let format: BatchInputFormat
  /// The names of the input's columns, for CSV and TSV (from the header, or made up for a file
  /// without one); JSON rows carry their own names.
  public let columnNames: [String]
  /// Whether the rows' values are raw JSON text rather than plain text.
  public var valuesAreJSON: Bool { format == .jsonl || format == .geojson }
  /// The input's size in bytes when it is a regular file.
  public let size: Int?
  /// The columns the user named, and what the front end calls its options (for the rows' problems).
  let columnChoice: CoordinateColumns.Names

  private let buffer: InputBuffer
  private let source: any RecordSource

  /// Opens `path` ("-" or nil for standard input) and reads far enough to know its format and columns.
  ///
  /// - Parameters:
  ///   - path: The file to read; "-" or nil reads standard input.
  ///   - format: The format; by default guessed from the extension, else from the first bytes.
  ///   - columns: Columns the user named; the common names are looked for otherwise.
  ///   - stopRequested: Asked while waiting for slow input, and when a read is interrupted by a signal:
  ///     true ends the input there (so that a batch reading a terminal or a quiet pipe stops when asked).
  /// - Throws: ``BatchError`` when the file cannot be opened or read, or no coordinate columns are found.
  public convenience init(
    path: String?, format: BatchInputFormat? = nil, columns: CoordinateColumns.Names = .init(),
    stopRequested: @escaping () -> Bool = { false }
  ) throws(BatchError) {
    try self.init(
      path: path, format: format, columns: columns, blockSize: 1 << 20, stopRequested: stopRequested)
  }

  /// Opens `path`, reading `blockSize` bytes at a time (small blocks make tests cross block boundaries);
  /// CSV or TSV with every line read the general way when not `readsPlainLines` (for tests that compare).
  convenience init(
    path: String?, format: BatchInputFormat?, columns: CoordinateColumns.Names, blockSize: Int,
    stopRequested: @escaping () -> Bool = { false }, readsPlainLines: Bool = true
  ) throws(BatchError) {
    var descriptor: Int32 = 0
    var opened = false
    if let path, path != "-" {
      descriptor = open(path, O_RDONLY | O_CLOEXEC)
      if descriptor < 0 { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
      opened = true
      var status = stat()
      if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
        close(descriptor)
        throw .cannotOpen(path: path, reason: "it is a folder, not a file")
      }
    }
    let chosen =
      format
      ?? path.flatMap { path in
        path.split(separator: "/").last?.split(separator: ".").last.flatMap {
          BatchInputFormat(pathExtension: String($0))
        }
      }
    // The source closes a file it was given to own, whether or not the input can be read.
    let buffer = InputBuffer(
      source: DescriptorSource(descriptor: descriptor, owning: opened), blockSize: blockSize)
    buffer.isStopRequested = stopRequested
    try self.init(buffer: buffer, format: chosen, columns: columns, readsPlainLines: readsPlainLines)
  }

  /// Reads an open descriptor (a pipe, say) that the caller keeps and closes, as ``init(path:format:columns:stopRequested:)``
  /// reads a file: far enough to know the format and columns.
  public convenience init(
    descriptor: Int32, format: BatchInputFormat? = nil, columns: CoordinateColumns.Names = .init(),
    stopRequested: @escaping () -> Bool = { false }
  ) throws(BatchError) {
    try self.init(
      source: DescriptorSource(descriptor: descriptor, owning: false), format: format, columns: columns,
      stopRequested: stopRequested)
  }

  /// Reads `source` (an HTTP request's body, say) as ``init(path:format:columns:stopRequested:)`` reads a
  /// file: far enough to know the format and columns.
  ///
  /// - Parameters:
  ///   - source: Where the bytes come from.
  ///   - format: The format; by default guessed from the first bytes.
  ///   - columns: Columns the user named; the common names are looked for otherwise.
  ///   - stopRequested: Asked before each read and each wait for bytes: true ends the input there. A source
  ///     that waits without asking must be woken by the one that requests the stop.
  public convenience init(
    source: some BatchByteSource, format: BatchInputFormat? = nil, columns: CoordinateColumns.Names = .init(),
    stopRequested: @escaping () -> Bool = { false }
  ) throws(BatchError) {
    let buffer = InputBuffer(source: source)
    buffer.isStopRequested = stopRequested
    try self.init(buffer: buffer, format: format, columns: columns)
  }

  /// Ends a wait for input under way, and every later one, from any thread (``ChunkReader`` cancelling).
  func interruptReading() {
    buffer.source?.interrupt()
  }

  /// Makes reading also stop when `condition` says so (``ChunkReader`` cancelling a read under way).
  func stopAlso(when condition: @escaping () -> Bool) {
    let asked = buffer.isStopRequested
    buffer.isStopRequested = { asked() || condition() }
  }

  /// Reads `bytes` as the input (for tests and fuzzing).
  public convenience init(
    bytes: [UInt8], format: BatchInputFormat? = nil, columns: CoordinateColumns.Names = .init()
  ) throws(BatchError) {
    try self.init(buffer: InputBuffer(bytes: bytes), format: format, columns: columns)
  }

  private init(
    buffer: InputBuffer, format: BatchInputFormat?, columns: CoordinateColumns.Names,
    readsPlainLines: Bool = true
  ) throws(BatchError) {
    self.buffer = buffer
    self.columnChoice = columns
    size = buffer.source?.size
    if format == nil {
      // The first line is enough to tell the format; more is not waited for.
      func hasLine() -> Bool {
        buffer.storage.withUnsafeBufferPointer { bytes in
          (buffer.start..<buffer.end).contains { bytes[$0] == 0x0A }
        }
      }
      while buffer.available < 4096, !hasLine(), try buffer.fill() {}
    }
    let format =
      format
      ?? buffer.storage.withUnsafeBufferPointer { bytes in
        BatchInputFormat.guess(from: UnsafeBufferPointer(rebasing: bytes[buffer.start..<buffer.end]))
      }
    self.format = format
    switch format {
    case .csv, .tsv:
      separator = try DelimitedPreamble.read(buffer, separator: format == .tsv ? 0x09 : UInt8(ascii: ","))
      let table = try DelimitedSource(
        reader: DelimitedReader(input: buffer, separator: separator, readsPlainLines: readsPlainLines),
        names: columns)
      columnNames = table.header
      source = table
    case .jsonl:
      separator = UInt8(ascii: ",")
      columnNames = []
      source = JSONLinesSource(input: buffer, names: columns)
    case .geojson:
      separator = UInt8(ascii: ",")
      columnNames = []
      source = GeoJSONSource(input: buffer, names: columns)
    }
  }

  /// For GeoJSON input, the members of its FeatureCollection that GeoJSON output keeps, those before its
  /// `features` alone while rows are still being read (`whole` false: known once the first row has been
  /// read), or all of them once the input has been read.
  func collectionMembers(whole: Bool) -> CollectionMembers {
    guard let source = source as? GeoJSONSource else { return CollectionMembers() }
    return CollectionMembers(before: source.membersBefore, after: whole ? source.membersAfter : [])
  }

  /// The next row, or nil at the end of the input.
  public func next() throws(BatchError) -> BatchRecord? {
    guard var record = try source.next() else { return nil }
    if let plainLine = record.plainLine {
      record.values = buffer.storage.withUnsafeBufferPointer { bytes in
        DelimitedReader.fields(ofPlain: UnsafeBufferPointer(rebasing: bytes[plainLine]), separator: separator)
      }
      record.plainLine = nil
    }
    return record
  }

  /// The next row, or nil at the end of the input; a good row of a plain CSV or TSV line has no
  /// ``BatchRecord/values`` but its line, in the input until the next read: ``keepLine(of:in:)`` moves it.
  func nextKeepingLine() throws(BatchError) -> BatchRecord? { try source.next() }

  /// Makes ``nextKeepingLine()`` and ``takeLines(limit:byteLimit:into:lines:)`` hand over rows unread
  /// (``BatchRecord/isUnread``) where their text can be read apart: plain CSV or TSV lines, JSON Lines, and
  /// GeoJSON features (whose text ``keepLine(of:in:)`` keeps); returns how to read them. Nil for input
  /// with no rows at all, which is read as before.
  func deferRows() -> LineRows? { source.deferRows() }

  /// Appends the rows of the lines that come next in the bytes already read and can be read apart,
  /// unread, and their lines to `lines` (as ``nextKeepingLine()`` and ``keepLine(of:in:)`` would one at a
  /// time), at most `limit` rows and about `byteLimit` bytes of input; returns how many. None before
  /// ``deferRows()``, or where the next line cannot be read apart or has not all been read yet.
  func takeLines(limit: Int, byteLimit: Int, into records: inout [BatchRecord], lines: inout [UInt8]) -> Int {
    source.takeLines(limit: limit, byteLimit: byteLimit, into: &records, lines: &lines)
  }

  /// Appends the plain line of a row just read by ``nextKeepingLine()`` to `lines`, and points the row
  /// at it there.
  func keepLine(of record: inout BatchRecord, in lines: inout [UInt8]) {
    guard let plainLine = record.plainLine else { return }
    let from = lines.count
    buffer.storage.withUnsafeBufferPointer { bytes in
      lines.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plainLine]))
    }
    record.plainLine = from..<lines.count
  }

  /// The separator of a CSV or TSV input's fields: a comma, a tab, or the one its start shows (a first line
  /// with semicolons and no comma or tab, or Excel's `sep=;` line).
  public let separator: UInt8

  /// Called before waiting for input that is not there yet (from a pipe or a terminal).
  var willWait: () -> Void {
    get { buffer.willWait }
    set { buffer.willWait = newValue }
  }

  /// Bytes read so far.
  public var bytesRead: Int { buffer.consumedTotal }
}

/// How the rows of lines handed over unread are read, on any thread.
enum LineRows: Sendable {
  /// Plain CSV or TSV lines.
  case delimited(PlainRows)
  /// JSON Lines.
  case jsonLines(JSONLineRows)
  /// GeoJSON features.
  case geoJSON(GeoJSONFeatures)
}

/// Something that turns input bytes into rows.
protocol RecordSource: AnyObject {
  /// The next row; one of CSV or TSV may leave a good row's values in its line in the input (see
  /// ``BatchRecord/plainLine``).
  func next() throws(BatchError) -> BatchRecord?

  /// From now on, hands over rows that can be read apart unread (``BatchInput/deferRows()``); how to
  /// read them, or nil when there are none.
  func deferRows() -> LineRows?

  /// The rows of the lines already read that can be read apart, all at once
  /// (``BatchInput/takeLines(limit:byteLimit:into:lines:)``); how many.
  func takeLines(limit: Int, byteLimit: Int, into records: inout [BatchRecord], lines: inout [UInt8]) -> Int
}
