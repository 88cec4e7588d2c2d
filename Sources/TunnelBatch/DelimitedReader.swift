/// Records of comma- or tab-separated text; lines end in LF or CRLF; a UTF-8 byte-order mark is skipped.
/// Outside quotes a carriage return alone ends a record too, so that a stray CR in a file of CRLF lines
/// does not join two rows (the record says so: a file whose first line ends so is refused by
/// ``DelimitedSource``). Line numbers count line feeds.
///
/// CSV follows RFC 4180: fields in double quotes may hold separators, quotes (doubled) and line breaks.
/// TSV follows IANA's text/tab-separated-values: no quoting, a field is what lies between two tabs; the
/// escapes `\t`, `\n`, `\r`, `\0` and `\\` stand for a tab, a line feed, a carriage return, a NUL and a
/// backslash (as Tunnel writes TSV), and a backslash before anything else is kept as it is.
///
/// Whatever the bytes, every line of input ends up in some record: a quote left open, text after a
/// closing quote or bytes that are not UTF-8 become a record with a problem, and reading goes on at the
/// next line. A record longer than ``maximumRecordBytes`` is one record with a problem however many
/// lines its quoted fields hold: it is skipped as CSV reads it, and reading goes on at the next record.
final class DelimitedReader {
  /// One record: its first line, its fields, and what was wrong with it while reading.
  struct Record {
    var line: Int
    var fields: [String]
    var problem: String?
    /// For a plain line read by ``nextKeepingPlainLine()``: where its bytes are in the input (and
    /// `fields` is empty).
    var plain: Range<Int>? = nil
    /// Whether a carriage return alone (not before a line feed) ended the record.
    var endsInCarriageReturn = false
  }

  /// Longer records are not read (a reader must hold a whole record in memory).
  static let maximumRecordBytes = 1 << 20

  private let input: InputBuffer
  let separator: UInt8
  private var startedInput = false
  /// The fields the last record had: room made for them in the next (rows are mostly alike; the most
  /// ever seen would make one row of a million empty fields cost every later row megabytes).
  private var fieldCount = 1

  /// Whether plain lines are read as such (tests compare with reading every line the general way).
  private let readsPlainLines: Bool

  /// The byte that makes a line not plain besides CR and non-ASCII: the quote (CSV), the backslash (TSV).
  private let special: UInt8

  /// Whether the records are TSV (tab-separated, escaped, never quoted).
  var isTSV: Bool { separator == 0x09 }

  init(input: InputBuffer, separator: UInt8, readsPlainLines: Bool = true) {
    self.input = input
    self.separator = separator
    special = separator == 0x09 ? UInt8(ascii: "\\") : UInt8(ascii: "\"")
    self.readsPlainLines = readsPlainLines
  }

  private enum Scan {
    case record(fields: [String], length: Int, problem: String?, carriageReturn: Bool = false)
    case needMore
    case tooLong
  }

  /// The next record that is not a blank line, or nil at the end of the input.
  func next() throws(BatchError) -> Record? {
    guard var record = try nextKeepingPlainLine() else { return nil }
    if let plain = record.plain {
      (record.fields, record.problem) = withPlainLine(plain) { Self.fields(ofText: $0, separator: separator) }
      record.plain = nil
    }
    return record
  }

  /// The next record that is not a blank line, or nil at the end of the input; a plain line is not split
  /// into fields: the record's ``Record/plain`` says where it is in the input, until the next read (see
  /// ``withPlainLine(_:_:)``).
  ///
  /// A plain line holds no carriage return (but one before its newline) or NUL, and no quote (CSV) or
  /// backslash (TSV): its fields are exactly what lies between its separators, so that, once its bytes
  /// are found to be UTF-8 (``PlainRows``), it can be passed through as it is, and split only if need be.
  func nextKeepingPlainLine() throws(BatchError) -> Record? {
    while true {
      if !startedInput {
        while input.available < 3, try input.fill() {}
        input.storage.withUnsafeBufferPointer { bytes in
          if input.available >= 3, bytes[input.start] == 0xEF, bytes[input.start + 1] == 0xBB,
            bytes[input.start + 2] == 0xBF
          {
            input.consume(3)
          }
        }
        startedInput = true
      }
      if input.available == 0, !(try input.fill()) { return nil }
      let final = input.atEnd
      let (start, end) = (input.start, input.end)
      let plain =
        readsPlainLines
        ? input.storage.withUnsafeBufferPointer { bytes in
          Self.plainLine(bytes, from: start, end: end, final: final, special: special)
        } : nil
      if let (length, ending) = plain {
        let line = input.linesConsumed + 1
        // Consumed, but not moved before the next read.
        input.consume(length + ending, newlines: ending > 0 ? 1 : 0)
        if length == 0 { continue }
        return Record(line: line, fields: [], problem: nil, plain: start..<(start + length))
      }
      let scan = input.storage.withUnsafeBufferPointer { bytes in
        Self.scan(
          bytes, from: input.start, end: input.end, final: final, separator: separator, fieldCount: fieldCount
        )
      }
      let line = input.linesConsumed + 1
      switch scan {
      case .record(_, let length, _, _) where length > Self.maximumRecordBytes:
        return try skipLongRecord(line: line)
      case .record(let fields, let length, let problem, let carriageReturn):
        input.consume(length)
        fieldCount = fields.count
        if problem == nil, fields.count == 1, fields[0].isEmpty { continue }
        return Record(line: line, fields: fields, problem: problem, endsInCarriageReturn: carriageReturn)
      case .needMore:
        if input.available > Self.maximumRecordBytes {
          return try skipLongRecord(line: line)
        }
        try input.fill()
      case .tooLong:
        return try skipLongRecord(line: line)
      }
    }
  }

  /// Takes the plain lines that come next in the bytes already read, as ``nextKeepingPlainLine()`` would
  /// one at a time, and tells `body` each one's number, where it is in the input (blank lines are
  /// skipped, as there) and whether it is plain only once its quotes are taken out (see
  /// ``quotedLine(_:from:end:final:separator:)``); stops before a line that is neither, or not all read
  /// yet, after `limit` lines, or once `byteLimit` bytes are taken. The ranges are in the input as the
  /// last read left it (until the next read). Takes nothing before the input's first line has been read
  /// the usual way.
  func takePlainLines(
    limit: Int, byteLimit: Int, _ body: (_ line: Int, _ range: Range<Int>, _ quoted: Bool) -> Void
  ) {
    guard startedInput, readsPlainLines, limit > 0 else { return }
    let start = input.start
    let (end, final) = (input.end, input.atEnd)
    let quotes = !isTSV
    var position = start
    var lines = input.linesConsumed
    var taken = 0
    input.storage.withUnsafeBufferPointer { bytes in
      while taken < limit, position < end, position - start < byteLimit {
        let (length, ending, quoteCount): (Int, Int, Int)
        if let plain = Self.plainLine(bytes, from: position, end: end, final: final, special: special) {
          (length, ending, quoteCount) = (plain.length, plain.ending, 0)
        } else if quotes,
          let found = Self.quotedLine(bytes, from: position, end: end, final: final, separator: separator)
        {
          (length, ending, quoteCount) = found
        } else {
          break
        }
        // Blank once its quotes are out (`""`), a line is blank, as a record of one empty field is.
        if length > quoteCount {
          body(lines + 1, position..<(position + length), quoteCount > 0)
          taken += 1
        }
        position += length + ending
        if ending > 0 { lines += 1 }
      }
    }
    input.consume(position - start, newlines: lines - input.linesConsumed)
  }

  /// The length of the CSV line at `start` (without its line break), the bytes of its line break (as
  /// ``plainLine(_:from:end:final:special:)`` gives them), and how many quotes it holds, when the line is
  /// plain but for quotes around some of its fields whose contents are plain and hold no separator: taken
  /// out, the quotes leave a plain line of the same fields (`"1","Skjern",55.95,8.5` as R writes it is
  /// `1,Skjern,55.95,8.5`). Nil for any other line, one too long, or one not all read yet.
  static func quotedLine(
    _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, end: Int, final: Bool, separator: UInt8
  ) -> (length: Int, ending: Int, quotes: Int)? {
    let limit = min(end, start + maximumRecordBytes)
    let quote = UInt8(ascii: "\"")
    var index = start
    var quotes = 0
    var inQuotes = false
    var fieldStart = true
    var ending = 0
    while index < limit {
      let byte = bytes[index]
      if byte == 0x0A {
        ending = 1
        break
      }
      if byte == 0x0D, index + 1 < limit, bytes[index + 1] == 0x0A {
        ending = 2
        break
      }
      if byte == 0x0D || byte == 0 { return nil }
      if byte == quote {
        if inQuotes {
          // A closing quote ends its field: a doubled quote, or text after it, is not plain.
          guard
            index + 1 == limit || bytes[index + 1] == separator || bytes[index + 1] == 0x0A
              || bytes[index + 1] == 0x0D
          else {
            return nil
          }
          inQuotes = false
        } else {
          guard fieldStart else { return nil }
          inQuotes = true
        }
        quotes += 1
      } else if byte == separator, inQuotes {
        return nil
      }
      fieldStart = byte == separator
      index += 1
    }
    // An open quote runs on to the next line, or has not all been read.
    guard !inQuotes, ending > 0 || (final && limit == end && end > start) else { return nil }
    return (index - start, ending, quotes)
  }

  /// The length of the plain line at `start` (without its line break) and the bytes of its line break: 1
  /// for LF, 2 for CR LF (as Windows writes lines), 0 for the input's last line without one; nil when the
  /// line is not plain, is too long, or has not all been read yet.
  @inline(__always) private static func plainLine(
    _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, end: Int, final: Bool, special: UInt8
  ) -> (length: Int, ending: Int)? {
    // As in ``next()``, a record longer than ``maximumRecordBytes`` with its newline is not read.
    let limit = min(end, start + maximumRecordBytes)
    var index = start
    // Eight bytes at a time: the first newline among them, and whether any byte before it stops the line.
    let raw = UnsafeRawPointer(bytes.baseAddress!)
    while index + 8 <= limit {
      let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      let newlines = zeroBytes(word ^ 0x0A0A_0A0A_0A0A_0A0A)
      var stops =
        zeroBytes(word ^ (UInt64(special) &* 0x0101_0101_0101_0101)) | zeroBytes(word ^ 0x0D0D_0D0D_0D0D_0D0D)
        | zeroBytes(word)
      if newlines != 0 {
        let at = newlines.trailingZeroBitCount / 8
        stops &= at == 0 ? 0 : (1 << (8 * at)) &- 1
        if stops == 0 { return (index + at - start, 1) }
      }
      if stops != 0 {
        return crlf(bytes, at: index + stops.trailingZeroBitCount / 8, from: start, limit: limit)
      }
      index += 8
    }
    while index < limit {
      let byte = bytes[index]
      if byte == 0x0A { return (index - start, 1) }
      if byte == special || byte == 0x0D || byte == 0 {
        return crlf(bytes, at: index, from: start, limit: limit)
      }
      index += 1
    }
    return final && limit == end && end > start ? (end - start, 0) : nil
  }

  /// The line from `start` when the first byte that stops it from being plain, at `stop`, is the carriage
  /// return of a CR LF that ends it; nil otherwise.
  @inline(__always) private static func crlf(
    _ bytes: UnsafeBufferPointer<UInt8>, at stop: Int, from start: Int, limit: Int
  ) -> (length: Int, ending: Int)? {
    stop + 1 < limit && bytes[stop] == 0x0D && bytes[stop + 1] == 0x0A ? (stop - start, 2) : nil
  }

  /// Calls `body` with the bytes of the plain line at `range` of the input, as the last read left it.
  func withPlainLine<Result>(_ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    input.storage.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
  }

  /// The high bit of each byte of `word` that is zero, and of no other.
  @inline(__always) static func zeroBytes(_ word: UInt64) -> UInt64 {
    let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    return ~(((word & low) &+ low) | word | low)
  }

  /// The fields of a plain line that is UTF-8 (see ``nextKeepingPlainLine()``).
  static func fields(ofPlain line: UnsafeBufferPointer<UInt8>, separator: UInt8) -> [String] {
    line.split(separator: separator, omittingEmptySubsequences: false).map {
      String(decoding: UnsafeBufferPointer(rebasing: $0), as: UTF8.self)
    }
  }

  /// The problem of a record whose field `field` (from 1) is not UTF-8.
  static func notText(field: Int) -> String { "field \(field) is not UTF-8 text" }

  /// The fields of a plain line that may not be UTF-8, and the problem of the first field that is not,
  /// as the general way of reading says it (its bytes that are not UTF-8 read as U+FFFD).
  static func fields(ofText line: UnsafeBufferPointer<UInt8>, separator: UInt8) -> ([String], String?) {
    if UTF8Validation.isValid(line, 0..<line.count) {
      return (fields(ofPlain: line, separator: separator), nil)
    }
    var fields: [String] = []
    var problem: String? = nil
    for field in line.split(separator: separator, omittingEmptySubsequences: false) {
      if problem == nil, !UTF8Validation.isValid(line, field.startIndex..<field.endIndex) {
        problem = Self.notText(field: fields.count + 1)
      }
      fields.append(String(decoding: UnsafeBufferPointer(rebasing: field), as: UTF8.self))
    }
    return (fields, problem)
  }

  /// Consumes an overlong record from its start, a block at a time, without holding it: to the end of
  /// its line (TSV), or to the newline that ends it outside quotes (CSV, whose quoted fields may hold
  /// newlines and doubled quotes); nil when a stop is requested before it ends (then it is not a row).
  private func skipLongRecord(line: Int) throws(BatchError) -> Record? {
    var skip = RecordSkip(separator: separator)
    var newlineEnds = false
    while true {
      let end = input.storage.withUnsafeBufferPointer { bytes in
        skip.end(in: bytes, from: input.start, to: input.end)
      }
      if let end {
        input.consume(end - input.start)
        newlineEnds = true
        break
      }
      input.consume(input.available)
      if !(try input.fill()) { break }
    }
    if input.stopped { return nil }
    let megabytes = Self.maximumRecordBytes >> 20
    if let field = skip.openQuote {
      return Record(
        line: line, fields: [],
        problem: "the quote that opens field \(field) is never closed, and the rest of the input is longer "
          + "than \(megabytes) MiB; it is not read")
    }
    let lastLine = input.linesConsumed + (newlineEnds ? 0 : 1)
    return Record(
      line: line, fields: [],
      problem: lastLine > line
        ? "the row on lines \(line)–\(lastLine) is longer than \(megabytes) MiB; it is not read"
        : "the line is longer than \(megabytes) MiB; it is not read")
  }

  /// Reads one record from `bytes[start..<end]`; `final` says no more bytes will come.
  private static func scan(
    _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, end: Int, final: Bool, separator: UInt8,
    fieldCount: Int
  ) -> Scan {
    let isTSV = separator == 0x09
    let quote = UInt8(ascii: "\"")
    var fields: [String] = []
    fields.reserveCapacity(fieldCount)
    var problem: String?
    var index = start
    func checked(_ content: [UInt8]) -> String {
      content.withUnsafeBufferPointer { content in
        if let valid = String(validating: content, as: UTF8.self) { return valid }
        if problem == nil { problem = Self.notText(field: fields.count + 1) }
        return String(decoding: content, as: UTF8.self)
      }
    }
    func text(_ range: Range<Int>) -> String {
      if isTSV, bytes[range].contains(UInt8(ascii: "\\")) { return checked(unescaped(bytes[range])) }
      let slice = UnsafeBufferPointer(rebasing: bytes[range])
      if slice.allSatisfy({ $0 < 0x80 }) { return String(decoding: slice, as: UTF8.self) }
      if let valid = String(validating: slice, as: UTF8.self) { return valid }
      if problem == nil { problem = Self.notText(field: fields.count + 1) }
      return String(decoding: slice, as: UTF8.self)
    }
    while true {
      if !isTSV, index < end, bytes[index] == quote {
        // A quoted field (TSV has none): up to the quote that is not doubled.
        var content: [UInt8] = []
        var position = index + 1
        var closed = false
        while position < end {
          guard let next = (position..<end).first(where: { bytes[$0] == quote }) else {
            position = end; break
          }
          content.append(contentsOf: bytes[position..<next])
          if next + 1 < end, bytes[next + 1] == quote {
            content.append(quote)
            position = next + 2
            continue
          }
          if next + 1 == end, !final { position = end; break }
          position = next + 1
          closed = true
          break
        }
        if !closed {
          // Past the cap, the record is skipped as CSV reads it, however many lines it holds.
          if end - start > maximumRecordBytes { return .tooLong }
          if !final { return .needMore }
          return brokenQuote(bytes, from: start, end: end, separator: separator, field: fields.count + 1)
        }
        fields.append(checked(content))
        index = position
        if index < end, bytes[index] != separator, bytes[index] != 0x0A, bytes[index] != 0x0D {
          if problem == nil { problem = "text follows the closing quote of field \(fields.count)" }
          while index < end, bytes[index] != separator, bytes[index] != 0x0A, bytes[index] != 0x0D {
            index += 1
          }
        }
      } else {
        var position = index
        while position < end, bytes[position] != separator, bytes[position] != 0x0A, bytes[position] != 0x0D {
          position += 1
        }
        if position == end, !final {
          return end - start > maximumRecordBytes ? .tooLong : .needMore
        }
        fields.append(text(index..<position))
        index = position
      }
      if index == end {
        if !final { return .needMore }
        return .record(fields: fields, length: index - start, problem: problem)
      }
      if bytes[index] == 0x0A {
        return .record(fields: fields, length: index + 1 - start, problem: problem)
      }
      if bytes[index] == 0x0D {
        // CR LF, or a carriage return alone: either ends the record.
        if index + 1 == end {
          return final ? .record(fields: fields, length: end - start, problem: problem) : .needMore
        }
        if bytes[index + 1] == 0x0A {
          return .record(fields: fields, length: index + 2 - start, problem: problem)
        }
        return .record(fields: fields, length: index + 1 - start, problem: problem, carriageReturn: true)
      }
      index += 1  // the separator
    }
  }

  /// The bytes of a TSV field with its escapes (`\t`, `\n`, `\r`, `\0`, `\\`) read; any other backslash is
  /// kept.
  static func unescaped(_ field: Slice<UnsafeBufferPointer<UInt8>>) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(field.count)
    var index = field.startIndex
    while index < field.endIndex {
      let byte = field[index]
      index += 1
      guard byte == UInt8(ascii: "\\"), index < field.endIndex else {
        out.append(byte)
        continue
      }
      switch field[index] {
      case UInt8(ascii: "t"): out.append(0x09)
      case UInt8(ascii: "n"): out.append(0x0A)
      case UInt8(ascii: "r"): out.append(0x0D)
      case UInt8(ascii: "0"): out.append(0)
      case UInt8(ascii: "\\"): out.append(byte)
      default:
        out.append(byte)
        continue
      }
      index += 1
    }
    return out
  }

  /// The record of a quote that is never closed: the first line alone, its fields split without
  /// quoting, so that reading goes on at the next line.
  private static func brokenQuote(
    _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, end: Int, separator: UInt8, field: Int
  ) -> Scan {
    let newline = (start..<end).first { bytes[$0] == 0x0A }
    let lineEnd = newline ?? end
    var content = lineEnd
    if content > start, bytes[content - 1] == 0x0D { content -= 1 }
    let fields = bytes[start..<content].split(separator: separator, omittingEmptySubsequences: false).map {
      String(decoding: $0, as: UTF8.self)
    }
    return .record(
      fields: fields, length: (newline.map { $0 + 1 } ?? end) - start,
      problem: "the quote that opens field \(field) is never closed")
  }
}
