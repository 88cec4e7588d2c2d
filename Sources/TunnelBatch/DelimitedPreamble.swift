/// What may come before a CSV file's header, and the separator the file uses.
///
/// Excel writes `sep=;` as the first line of a file saved with a separator of its own, and many exports
/// (loggers, GPS tools, R and pandas with a comment character) start with `#` comment lines: both are
/// read and left out of the rows, and the lines keep their numbers. A first line left after them with
/// semicolons and no comma or tab is separated by semicolons, as spreadsheets in much of Europe write
/// CSV. Only lines before the header are looked at: after it, a line starting with `#` is a row.
enum DelimitedPreamble {
  /// Reads past a byte-order mark, a `sep=` line and `#` comment lines at the start of `input`, and
  /// returns the separator of what follows: the one a `sep=` line names, else `separator` unless the first
  /// line left has semicolons and no comma or tab.
  ///
  /// Lines are looked at only while whole within ``DelimitedReader/maximumRecordBytes``; a longer line is
  /// left to the reader.
  static func read(_ input: InputBuffer, separator: UInt8) throws(BatchError) -> UInt8 {
    while input.available < 3, try input.fill() {}
    let hasMark = input.storage.withUnsafeBufferPointer { bytes in
      input.available >= 3 && bytes[input.start] == 0xEF && bytes[input.start + 1] == 0xBB
        && bytes[input.start + 2] == 0xBF
    }
    if hasMark { input.consume(3) }
    var chosen: UInt8? = nil
    var first = true
    while let line = try firstLine(input) {
      let text = input.storage.withUnsafeBufferPointer { Array(UnsafeBufferPointer(rebasing: $0[line])) }
      defer { first = false }
      if first, let named = Self.namedSeparator(text) {
        chosen = named
      } else if text.first == UInt8(ascii: "#") {
        // A comment.
      } else {
        if chosen == nil, separator == UInt8(ascii: ","), text.contains(UInt8(ascii: ";")),
          !text.contains(UInt8(ascii: ",")), !text.contains(0x09)
        {
          chosen = UInt8(ascii: ";")
        }
        break
      }
      input.consume(min(input.available, line.count + 1))
    }
    return chosen ?? separator
  }

  /// The separator an Excel `sep=` line names (`sep=;`, `"sep=;"`), if `line` is one.
  static func namedSeparator(_ line: [UInt8]) -> UInt8? {
    var text = line
    if text.last == 0x0D { text.removeLast() }
    if text.count == 7, text.first == UInt8(ascii: "\""), text.last == UInt8(ascii: "\"") {
      text = Array(text.dropFirst().dropLast())
    }
    guard text.count == 5, text[4] != 0x0A, text[4] != 0x0D,
      String(decoding: text[0..<4], as: UTF8.self).lowercased() == "sep="
    else { return nil }
    return text[4]
  }

  /// Where the first line not yet consumed lies in the input's storage, without its LF (a CR before it
  /// stays); nil at the end of the input, or when the line is longer than a record may be.
  private static func firstLine(_ input: InputBuffer) throws(BatchError) -> Range<Int>? {
    var searched = input.start
    while true {
      let newline = input.storage.withUnsafeBufferPointer { bytes in
        (searched..<input.end).first { bytes[$0] == 0x0A }
      }
      if let newline { return input.start..<newline }
      if input.available > DelimitedReader.maximumRecordBytes { return nil }
      searched = input.end
      let searchedOffset = searched - input.start
      guard try input.fill() else {
        return input.available == 0 ? nil : input.start..<input.end
      }
      searched = input.start + searchedOffset
    }
  }
}
