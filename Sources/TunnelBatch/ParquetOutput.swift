import TunnelReports

#if canImport(Glibc)
import Glibc
#endif

/// The type of a column of Parquet output: the input's columns and every name, code and text are
/// strings; degrees and kilometres doubles; a population a 64-bit integer; land and lake flags booleans.
enum ParquetKind: Sendable, Equatable {
  case string, double, int64, boolean

  /// Parquet's physical type (`Type` in its Thrift definition).
  var physicalType: Int32 {
    switch self {
    case .boolean: 0
    case .int64: 2
    case .double: 5
    case .string: 6
    }
  }
}

/// Thrift's compact protocol, in which Parquet writes its page headers and its footer: the parts of it
/// those need (integers, strings, lists, structs), each field given by its id.
struct CompactWriter {
  private(set) var bytes: [UInt8] = []
  /// The id of the last field written in each struct open, the innermost last.
  private var lastField: [Int] = [0]

  static let i32Type: UInt8 = 5
  static let i64Type: UInt8 = 6
  static let binaryType: UInt8 = 8
  static let listType: UInt8 = 9
  static let structType: UInt8 = 12

  mutating func varint(_ value: UInt64) {
    var value = value
    while value >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    bytes.append(UInt8(value))
  }

  /// A signed integer as the protocol writes it: zigzag, then a varint.
  mutating func zigzag(_ value: Int64) {
    varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
  }

  /// A field's header: the difference from the last field's id in the type's byte when it is 1…15,
  /// else the type and then the id.
  mutating func field(_ id: Int, type: UInt8) {
    let delta = id - lastField[lastField.count - 1]
    if (1...15).contains(delta) {
      bytes.append(UInt8(delta << 4) | type)
    } else {
      bytes.append(type)
      zigzag(Int64(id))
    }
    lastField[lastField.count - 1] = id
  }

  mutating func i32(_ id: Int, _ value: Int32) {
    field(id, type: Self.i32Type)
    zigzag(Int64(value))
  }

  mutating func i64(_ id: Int, _ value: Int64) {
    field(id, type: Self.i64Type)
    zigzag(value)
  }

  mutating func string(_ id: Int, _ value: String) {
    field(id, type: Self.binaryType)
    binary(value)
  }

  /// A string as a list's element or a field's value: its length, then its bytes.
  mutating func binary(_ value: String) {
    let utf8 = Array(value.utf8)
    varint(UInt64(utf8.count))
    bytes += utf8
  }

  /// A list field's header; its `count` elements follow, written with ``zigzag(_:)``, ``binary(_:)``
  /// or between ``beginElement()`` and ``end()``.
  mutating func list(_ id: Int, of type: UInt8, count: Int) {
    field(id, type: Self.listType)
    if count < 15 {
      bytes.append(UInt8(count << 4) | type)
    } else {
      bytes.append(0xF0 | type)
      varint(UInt64(count))
    }
  }

  /// Opens a struct field; ``end()`` closes it.
  mutating func beginStruct(_ id: Int) {
    field(id, type: Self.structType)
    lastField.append(0)
  }

  /// Opens a struct that is an element of a list; ``end()`` closes it.
  mutating func beginElement() {
    lastField.append(0)
  }

  /// Closes the innermost struct.
  mutating func end() {
    bytes.append(0)
    lastField.removeLast()
  }

  /// Closes the outermost struct: the message is whole.
  mutating func finish() {
    precondition(lastField.count == 1, "a struct left open")
    bytes.append(0)
  }
}

/// One column's values for the row group being made, already in Parquet's plain encoding, and one bit a
/// row for whether it has a value (an empty field has none: it is null).
///
/// Each column makes its own buffers (``OutputBytes``, whose copies share theirs): a column is not copied
/// and then written to twice.
struct ParquetColumn {
  let kind: ParquetKind
  /// The values present, in plain encoding (booleans a bit each, from the lowest), but for the booleans
  /// of a byte not yet full (``booleanBits``).
  private var values: OutputBytes
  /// One bit a row, from the lowest, whether the row has a value; but for the rows of a byte not yet full
  /// (``presentBits``).
  private var present: OutputBytes
  private var presentBits: UInt8 = 0
  private var booleanBits: UInt8 = 0
  private(set) var rows = 0
  private(set) var nulls = 0
  /// Booleans written, for their bits.
  private var booleans = 0

  /// A column expecting about `rows` rows of `width` bytes each (its buffers grow past that if needed).
  init(kind: ParquetKind, rows: Int = 1024, width: Int = 8) {
    self.kind = kind
    values = OutputBytes(capacity: rows * width)
    present = OutputBytes(capacity: rows / 8 + 1)
  }

  /// Bytes held.
  var size: Int { values.count + present.count }

  /// Bytes of values a row, on average so far.
  var width: Int { rows == 0 ? 8 : values.count / rows + 1 }

  @inline(__always) private mutating func level(_ defined: Bool) {
    Self.appendBit(defined, to: &present, pending: &presentBits, count: &rows)
  }

  /// Appends a bit to bit-packed `buffer` (from each byte's lowest bit): `count` bits so far, the byte
  /// being filled held in `pending` and written once full.
  @inline(__always) private static func appendBit(
    _ bit: Bool, to buffer: inout OutputBytes, pending: inout UInt8, count: inout Int
  ) {
    if bit { pending |= 1 << UInt8(truncatingIfNeeded: count & 7) }
    count += 1
    if count & 7 == 0 {
      buffer.append(pending)
      pending = 0
    }
  }

  mutating func appendNull() {
    level(false)
    nulls += 1
  }

  /// Appends the rows of `other`, a column of the same kind made apart (a part of a chunk, parsed on the
  /// core that formatted it).
  mutating func append(contentsOf other: ParquetColumn) {
    precondition(other.kind == kind, "columns of different kinds")
    if kind == .boolean {
      other.values.withBytes { full in
        Self.forEachBit(other.booleans, of: full, then: other.booleanBits) { appendBoolean($0) }
      }
    } else {
      other.values.withBytes { values.append(contentsOf: $0) }
    }
    if rows & 7 == 0 {
      // Whole bytes of levels: theirs follow as they are.
      other.present.withBytes { present.append(contentsOf: $0) }
      presentBits = other.presentBits
      rows += other.rows
    } else {
      other.present.withBytes { full in
        Self.forEachBit(other.rows, of: full, then: other.presentBits) { level($0) }
      }
    }
    nulls += other.nulls
  }

  /// Calls `body` with each of the first `count` bits of `bytes` and then of `partial` (the byte not yet
  /// full), each byte from its lowest bit.
  private static func forEachBit(
    _ count: Int, of bytes: UnsafeBufferPointer<UInt8>, then partial: UInt8, _ body: (Bool) -> Void
  ) {
    for index in 0..<count {
      let byte = index >> 3 < bytes.count ? bytes[index >> 3] : partial
      body(byte >> UInt8(truncatingIfNeeded: index & 7) & 1 == 1)
    }
  }

  @inline(__always) private mutating func appendBoolean(_ value: Bool) {
    Self.appendBit(value, to: &values, pending: &booleanBits, count: &booleans)
  }

  /// Appends a field's text as the column's kind; false when the text is not one (then nothing is
  /// appended).
  mutating func append(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    if text.isEmpty {
      appendNull()
      return true
    }
    switch kind {
    case .string:
      littleEndian(UInt32(text.count))
      values.append(contentsOf: text)
    case .double:
      guard let value = Self.double(text) else { return false }
      littleEndian(value.bitPattern)
    case .int64:
      guard let value = Self.integer(text) else { return false }
      littleEndian(UInt64(bitPattern: value))
    case .boolean:
      let value: Bool
      if text.elementsEqual("true".utf8) {
        value = true
      } else if text.elementsEqual("false".utf8) {
        value = false
      } else {
        return false
      }
      appendBoolean(value)
    }
    level(true)
    return true
  }

  /// Whether `text` is a value of the column's kind, or empty.
  func fits(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    var probe = ParquetColumn(kind: kind, rows: 1)
    return probe.append(text)
  }

  @inline(__always) private mutating func littleEndian<Value: FixedWidthInteger>(_ value: Value) {
    withUnsafeBytes(of: value.littleEndian) { bytes in
      values.append(contentsOf: bytes.assumingMemoryBound(to: UInt8.self))
    }
  }

  /// The nearest double to a decimal number written by the batch (`-`, digits, and a fraction's digits
  /// after a point), correctly rounded as `strtod` reads it; nil for anything else.
  ///
  /// Up to 19 digits whose value is below 2⁵³ with up to 22 after the point (every degree and kilometre
  /// the batch writes) are one exact integer divided by an exact power of ten: a single rounding, so the
  /// nearest double. Longer numbers go to `strtod`.
  static func double(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
    var index = 0
    let negative = text.first == UInt8(ascii: "-")
    if negative { index = 1 }
    var mantissa: UInt64 = 0
    var digits = 0
    var fractionDigits = 0
    var point = false
    while index < text.count {
      let byte = text[index]
      index += 1
      if byte &- 0x30 < 10 {
        if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(byte &- 0x30) }
        digits += 1
        if point { fractionDigits += 1 }
      } else if byte == UInt8(ascii: "."), !point, digits > 0 {
        point = true
      } else {
        return nil
      }
    }
    guard digits > 0, !point || fractionDigits > 0 else { return nil }
    if digits <= 19, mantissa < 1 << 53, fractionDigits <= 22 {
      let value = Double(mantissa) / exactPowersOfTen[fractionDigits]
      return negative ? -value : value
    }
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: text.count + 1) { terminated in
      for (index, byte) in text.enumerated() { terminated[index] = CChar(bitPattern: byte) }
      terminated[text.count] = 0
      return strtod(terminated.baseAddress!, nil)
    }
  }

  /// 10⁰ … 10²²: the powers of ten a double holds exactly.
  private static let exactPowersOfTen: [Double] = (0...22).map { power in
    (0..<power).reduce(1.0) { value, _ in value * 10 }
  }

  /// A whole number written in decimal digits, with a leading minus sign if negative; nil for anything
  /// else or beyond 64 bits.
  static func integer(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
    let negative = text.first == UInt8(ascii: "-")
    let digits = negative ? UnsafeBufferPointer(rebasing: text.dropFirst()) : text
    guard !digits.isEmpty, digits.count <= 19 else { return nil }
    // Counted down from zero, so that Int64.min is within reach.
    var value: Int64 = 0
    for digit in digits {
      guard digit &- 0x30 < 10 else { return nil }
      let (tens, overflow) = value.multipliedReportingOverflow(by: 10)
      let (next, below) = tens.subtractingReportingOverflow(Int64(digit &- 0x30))
      guard !overflow, !below else { return nil }
      value = next
    }
    if negative { return value }
    return value == .min ? nil : -value
  }

  /// The column's data page after its header: its definition levels (run-length or bit-packed, one bit
  /// wide, after their length), then the values. `body` is given the levels' part, then the values.
  /// Called once, when the row group is written.
  mutating func page<Value, Failure: Error>(
    _ body: (_ levels: [UInt8], _ values: UnsafeBufferPointer<UInt8>) throws(Failure) -> Value
  ) throws(Failure) -> Value {
    if kind == .boolean, booleans & 7 != 0 {
      // The last byte's booleans, the rest of its bits zero.
      values.append(booleanBits)
      booleanBits = 0
      booleans = (booleans + 7) & ~7
    }
    var levels = CompactWriter()
    var run: [UInt8]
    if nulls == 0 || nulls == rows {
      // One run of the same level.
      levels.varint(UInt64(rows) << 1)
      run = levels.bytes
      run.append(nulls == 0 ? 1 : 0)
    } else {
      // Bit-packed, eight levels a byte.
      levels.varint(UInt64((rows + 7) / 8) << 1 | 1)
      run = levels.bytes + present.bytes
      if rows & 7 != 0 { run.append(presentBits) }
    }
    var head: [UInt8] = []
    withUnsafeBytes(of: UInt32(run.count).littleEndian) { head.append(contentsOf: $0) }
    head += run
    let result = values.withBytes { bytes in Result { () throws(Failure) in try body(head, bytes) } }
    return try result.get()
  }
}

/// Rows of a batch's CSV in Parquet columns: the row group being made, or the rows of a part of a chunk,
/// parsed on the core that formatted them and then added to the group (``append(contentsOf:)``).
struct ParquetRows {
  var columns: [ParquetColumn]
  private(set) var rows = 0
  /// The fields of the row being parsed: a range of the row, or, quoted, of ``unquoted``.
  private var fields: [(range: Range<Int>, quoted: Bool)] = []
  /// A quoted field's bytes without its quotes.
  private var unquoted: [UInt8] = []

  /// Columns of these kinds, expecting about `rows` rows and each column's `widths` (bytes a value).
  init(kinds: [ParquetKind], rows: Int = 1024, widths: [Int] = []) {
    columns = kinds.indices.map { index in
      ParquetColumn(kind: kinds[index], rows: rows, width: index < widths.count ? widths[index] : 8)
    }
  }

  /// Bytes held.
  var size: Int { columns.reduce(0) { $0 + $1.size } }

  /// Appends the rows of `other`, made with the same kinds.
  mutating func append(contentsOf other: ParquetRows) {
    precondition(other.columns.count == columns.count, "rows of other columns")
    for index in columns.indices { columns[index].append(contentsOf: other.columns[index]) }
    rows += other.rows
  }

  /// Empty columns of the same kinds, expecting as many rows and values as these hold.
  func emptied() -> ParquetRows {
    ParquetRows(kinds: columns.map(\.kind), rows: max(rows, 1024), widths: columns.map(\.width))
  }

  /// Parses the whole rows of `bytes` (and, when `final`, what is left as the last row) into the
  /// columns; the bytes taken. With no `names` yet, the first row gives them (and the columns). Problems
  /// name the row by its number among the output's, `rowsBefore` coming before these.
  mutating func parse(
    _ bytes: UnsafeBufferPointer<UInt8>, final: Bool, names: inout [String]?, kinds: [ParquetKind]?,
    rowsBefore: Int
  ) throws(BatchError) -> Int {
    guard let base = bytes.baseAddress else { return 0 }
    var position = 0
    let count = bytes.count
    while position < count {
      // The row's end: the next line feed, unless a quote comes before it (then one outside quotes).
      let feed = memchr(base + position, 0x0A, count - position).map {
        UnsafePointer($0.assumingMemoryBound(to: UInt8.self))
      }
      var end = feed.map { $0 - base } ?? count
      let quoted = memchr(base + position, 0x22, end - position) != nil
      if quoted {
        end = position
        var inside = false
        while end < count {
          let byte = base[end]
          if byte == 0x22 {
            inside.toggle()
          } else if byte == 0x0A, !inside {
            break
          }
          end += 1
        }
      }
      if end == count, !final { break }
      var last = end
      if last > position, base[last - 1] == 0x0D { last -= 1 }
      let row = UnsafeBufferPointer(start: base + position, count: last - position)
      if let known = names {
        if quoted {
          try parseRow(row, names: known, rowsBefore: rowsBefore)
        } else {
          try parsePlainRow(row, names: known, rowsBefore: rowsBefore)
        }
      } else {
        let header = splitRow(row)
        names = header
        let kinds = kinds ?? []
        self = ParquetRows(kinds: header.indices.map { $0 < kinds.count ? kinds[$0] : .string })
      }
      position = min(end + 1, count)
    }
    return position
  }

  /// A row without quotes: each field straight into its column.
  private mutating func parsePlainRow(
    _ row: UnsafeBufferPointer<UInt8>, names: [String], rowsBefore: Int
  ) throws(BatchError) {
    let base = row.baseAddress ?? UnsafePointer(bitPattern: 1)!
    let end = row.count
    let fitted = columns.withUnsafeMutableBufferPointer { columns in
      var position = 0
      for index in columns.indices {
        let comma = memchr(base + position, 0x2C, end - position)
        let stop = comma.map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base } ?? end
        guard columns[index].append(UnsafeBufferPointer(start: base + position, count: stop - position))
        else { return false }
        position = stop + 1
        // The last field ends the row, and only it.
        if (comma == nil) != (index == columns.count - 1) { return false }
      }
      return !columns.isEmpty
    }
    // Not a row of the columns: its problem said as the general parser says it.
    guard fitted else { return try parseRow(row, names: names, rowsBefore: rowsBefore, checkOnly: true) }
    rows += 1
  }

  /// Splits a row into ``fields``.
  private mutating func split(_ row: UnsafeBufferPointer<UInt8>) {
    fields.removeAll(keepingCapacity: true)
    unquoted.removeAll(keepingCapacity: true)
    var position = 0
    let end = row.count
    while true {
      if position < end, row[position] == UInt8(ascii: "\"") {
        // A quoted field: "" stands for a quote.
        let start = unquoted.count
        position += 1
        while position < end {
          let byte = row[position]
          if byte == UInt8(ascii: "\"") {
            if position + 1 < end, row[position + 1] == UInt8(ascii: "\"") {
              unquoted.append(byte)
              position += 2
              continue
            }
            position += 1
            break
          }
          unquoted.append(byte)
          position += 1
        }
        fields.append((start..<unquoted.count, true))
        while position < end, row[position] != UInt8(ascii: ",") { position += 1 }
      } else {
        let start = position
        while position < end, row[position] != UInt8(ascii: ",") { position += 1 }
        fields.append((start..<position, false))
      }
      guard position < end else { break }
      position += 1
    }
  }

  /// The texts of a row's fields, quotes undone: a header's names.
  private mutating func splitRow(_ row: UnsafeBufferPointer<UInt8>) -> [String] {
    split(row)
    return fields.map { field in
      field.quoted
        ? String(decoding: unquoted[field.range], as: UTF8.self)
        : String(decoding: UnsafeBufferPointer(rebasing: row[field.range]), as: UTF8.self)
    }
  }

  /// A row that may have quotes: its values into the columns. With `checkOnly`, a row found wrong by
  /// ``parsePlainRow(_:names:rowsBefore:)`` (whose values may be partly in the columns): only its problem
  /// is thrown.
  private mutating func parseRow(
    _ row: UnsafeBufferPointer<UInt8>, names: [String], rowsBefore: Int, checkOnly: Bool = false
  ) throws(BatchError) {
    split(row)
    let number = rowsBefore + rows + 1
    guard fields.count == columns.count else {
      throw .writeFailed(
        "Parquet: row \(number) has \(fields.count) fields where the header has \(columns.count)")
    }
    let (fields, unquoted) = (self.fields, self.unquoted)
    try unquoted.withUnsafeBufferPointer { unquoted throws(BatchError) in
      for index in fields.indices {
        let field = fields[index]
        let text = UnsafeBufferPointer(rebasing: (field.quoted ? unquoted : row)[field.range])
        let fits = checkOnly ? columns[index].fits(text) : columns[index].append(text)
        if !fits {
          throw .writeFailed(
            "Parquet: row \(number)'s \(index < names.count ? names[index] : "column") is not a \(columns[index].kind) value"
          )
        }
      }
    }
    if checkOnly { throw .writeFailed("Parquet: row \(number) could not be read") }
    rows += 1
  }
}

/// A sink that also takes rows already in Parquet columns (``ParquetSink``), of the ``kinds`` it says.
protocol ParquetRowsSink: AnyObject {
  var kinds: [ParquetKind]? { get }
  /// Adds the rows of `parts` in order; false when the sink refused some bytes.
  func append(_ parts: [ParquetRows]) throws(BatchError) -> Bool
}

/// Turns the CSV a batch writes into an Apache Parquet file as the CSV arrives: the header names the
/// columns, each row's fields go into their columns, and every ``rowGroupRows`` rows (or
/// ``rowGroupBytes`` of values) become a row group written to the sink. ``finish()`` writes the last
/// group and the footer, after which the file is whole; until then the sink has a file without its end.
/// Rows may also come already in columns (``append(_:)``): a batch's parts, parsed on the cores that
/// formatted them.
///
/// Each column is optional: an empty field is null. The columns' kinds come from the batch
/// (``RowFormatter/parquetKinds()``): every column the input brings is a string, and the fields' columns
/// are typed. Pages are plain and uncompressed, one a column in each row group, with no statistics, so
/// that every reader reads them and a row group is written as fast as it is filled.
final class ParquetSink<Sink: BatchByteSink>: BatchByteSink, ParquetRowsSink {
  /// Rows a row group holds at most.
  static var rowGroupRows: Int { 1 << 17 }
  /// Bytes of values a row group holds before it is written, whatever its rows.
  static var rowGroupBytes: Int { 64 << 20 }

  private let sink: Sink
  private let createdBy: String
  /// The columns' kinds, set before the header arrives; all strings when unset.
  var kinds: [ParquetKind]? = nil
  /// The header's names, once it has arrived.
  private(set) var names: [String]? = nil
  // Unchecked: the sink is used by one thread at a time (``ChunkWriter``'s handover), and checking every
  // access to these was a tenth of a Parquet batch's time.
  /// The row group being made.
  @exclusivity(unchecked) private var group = ParquetRows(kinds: [])
  /// Bytes not yet parsed: the start of a row whose end has not arrived.
  @exclusivity(unchecked) private var pending: [UInt8] = []
  /// Bytes written to the sink.
  private var offset = 0
  /// Rows in the row groups written.
  private var rows = 0
  private var groups: [(rows: Int, chunks: [(offset: Int, size: Int)])] = []
  private var finished = false

  init(_ sink: Sink, createdBy: String = "tunnel") {
    self.sink = sink
    self.createdBy = createdBy
  }

  func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(BatchError) -> Bool {
    precondition(!finished, "bytes written after the footer")
    if pending.isEmpty {
      // Read in place; only a row cut short is kept for the next write.
      let consumed = try group.parse(bytes, final: false, names: &names, kinds: kinds, rowsBefore: rows)
      pending.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[consumed...]))
    } else {
      pending.append(contentsOf: bytes)
      let pending = self.pending
      let consumed = try pending.withUnsafeBufferPointer { bytes throws(BatchError) in
        try group.parse(bytes, final: false, names: &names, kinds: kinds, rowsBefore: rows)
      }
      self.pending.removeSubrange(0..<consumed)
    }
    return try writeGroupIfFull()
  }

  /// Adds rows already in columns (made with ``kinds``), after the header and every row written before.
  func append(_ parts: [ParquetRows]) throws(BatchError) -> Bool {
    precondition(
      !finished && pending.isEmpty && names != nil, "rows in columns before the header or after a cut row")
    for part in parts {
      group.append(contentsOf: part)
      guard try writeGroupIfFull() else { return false }
    }
    return true
  }

  /// Writes the last row group and the footer: the file is whole.
  ///
  /// - Returns: False when the sink refused some bytes.
  func finish() throws(BatchError) -> Bool {
    precondition(!finished, "finished twice")
    finished = true
    let pending = self.pending
    _ = try pending.withUnsafeBufferPointer { bytes throws(BatchError) in
      try group.parse(bytes, final: true, names: &names, kinds: kinds, rowsBefore: rows)
    }
    self.pending = []
    guard try writeGroup() else { return false }
    guard try start() else { return false }
    var footer = Self.footer(
      names: names ?? [], kinds: group.columns.map(\.kind), rows: rows, groups: groups, createdBy: createdBy)
    withUnsafeBytes(of: UInt32(footer.count).littleEndian) { footer.append(contentsOf: $0) }
    footer += Self.magic
    return try put(footer)
  }

  static var magic: [UInt8] { Array("PAR1".utf8) }

  private func writeGroupIfFull() throws(BatchError) -> Bool {
    group.rows >= Self.rowGroupRows || group.size >= Self.rowGroupBytes ? try writeGroup() : true
  }

  /// Writes the file's opening magic if nothing has been written yet.
  private func start() throws(BatchError) -> Bool {
    offset == 0 ? try put(Self.magic) : true
  }

  /// Writes the row group being made, if it has rows, and starts the next: each column's page as it is
  /// made.
  private func writeGroup() throws(BatchError) -> Bool {
    guard group.rows > 0 else { return true }
    guard try start() else { return false }
    var chunks: [(offset: Int, size: Int)] = []
    let rows = group.rows
    for index in group.columns.indices {
      let taken = try group.columns[index].page { (levels, values) throws(BatchError) -> Bool in
        let size = levels.count + values.count
        var header = CompactWriter()
        header.i32(1, 0)  // a data page
        header.i32(2, Int32(size))
        header.i32(3, Int32(size))
        header.beginStruct(5)
        header.i32(1, Int32(rows))
        header.i32(2, 0)  // plain
        header.i32(3, 3)  // definition levels: run-length and bit-packed
        header.i32(4, 3)  // repetition levels (none)
        header.end()
        header.finish()
        chunks.append((offset, header.bytes.count + size))
        guard try put(header.bytes + levels) else { return false }
        offset += values.count
        return try sink.write(values)
      }
      guard taken else { return false }
    }
    groups.append((rows, chunks))
    self.rows += rows
    group = group.emptied()
    return true
  }

  private func put(_ bytes: [UInt8]) throws(BatchError) -> Bool {
    offset += bytes.count
    return try sink.write(bytes)
  }

  /// The file's metadata: the schema (every column optional), the row groups and where each column's
  /// page is.
  static func footer(
    names: [String], kinds: [ParquetKind], rows: Int,
    groups: [(rows: Int, chunks: [(offset: Int, size: Int)])],
    createdBy: String
  ) -> [UInt8] {
    var out = CompactWriter()
    out.i32(1, 1)  // version
    out.list(2, of: CompactWriter.structType, count: names.count + 1)
    out.beginElement()
    out.string(4, "schema")
    out.i32(5, Int32(names.count))
    out.end()
    for (name, kind) in zip(names, kinds) {
      out.beginElement()
      out.i32(1, kind.physicalType)
      out.i32(3, 1)  // optional
      out.string(4, name)
      if kind == .string {
        out.i32(6, 0)  // UTF8, for older readers
        out.beginStruct(10)  // the logical type: a string
        out.beginStruct(1)
        out.end()
        out.end()
      }
      out.end()
    }
    out.i64(3, Int64(rows))
    out.list(4, of: CompactWriter.structType, count: groups.count)
    for group in groups {
      out.beginElement()
      out.list(1, of: CompactWriter.structType, count: group.chunks.count)
      for (index, chunk) in group.chunks.enumerated() {
        out.beginElement()
        out.i64(2, Int64(chunk.offset))
        out.beginStruct(3)
        out.i32(1, kinds[index].physicalType)
        out.list(2, of: CompactWriter.i32Type, count: 2)
        out.zigzag(0)  // plain
        out.zigzag(3)  // run-length and bit-packed
        out.list(3, of: CompactWriter.binaryType, count: 1)
        out.binary(names[index])
        out.i32(4, 0)  // uncompressed
        out.i64(5, Int64(group.rows))
        out.i64(6, Int64(chunk.size))
        out.i64(7, Int64(chunk.size))
        out.i64(9, Int64(chunk.offset))
        out.end()
        out.end()
      }
      let size = Int64(group.chunks.reduce(0) { $0 + $1.size })
      out.i64(2, size)
      out.i64(3, Int64(group.rows))
      out.i64(5, Int64(group.chunks.first?.offset ?? 0))
      out.i64(6, size)
      out.end()
    }
    out.string(6, createdBy)
    out.finish()
    return out.bytes
  }
}
