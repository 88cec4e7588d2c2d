/// Finds where a CSV or TSV record ends by reading it a block at a time, without holding it: for a
/// record too long to be read whole (past ``DelimitedReader/maximumRecordBytes``).
///
/// A TSV record ends at its first newline (TSV is never quoted). A CSV record ends at the first newline
/// outside quotes, read as ``DelimitedReader`` reads it: a quote opens a quoted field only as the
/// field's first byte, a quoted field may hold separators, newlines and doubled quotes (`""`), and after
/// its closing quote the field runs to the next separator or newline.
///
/// ```swift
/// var skip = RecordSkip(separator: UInt8(ascii: ","))
/// skip.end(in: bytes, from: 0, to: bytes.count)  // the position after the record's newline, or nil
/// ```
struct RecordSkip {
  private enum Place {
    /// At the first byte of a field.
    case fieldStart
    /// Inside a field that is not quoted, or after the closing quote of one that is.
    case unquoted
    /// Inside a quoted field.
    case quoted
    /// Just after a quote inside a quoted field: a doubled quote, or the closing one.
    case quoteInQuoted
  }

  private let separator: UInt8
  private let isTSV: Bool
  private var place = Place.fieldStart
  /// The field being read, counted from 1.
  private var field = 1

  init(separator: UInt8) {
    self.separator = separator
    isTSV = separator == 0x09
  }

  /// The field whose quote is still open where reading stopped, if any: at the end of the input, the
  /// quote that is never closed.
  var openQuote: Int? {
    switch place {
    case .quoted: field
    case .fieldStart, .unquoted, .quoteInQuoted: nil
    }
  }

  /// Reads `bytes[from..<to]`, the next part of the record; returns the position just after the newline
  /// that ends the record when it is there, nil when the record goes on past `to`.
  ///
  /// - Complexity: O(`to` - `from`).
  mutating func end(in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
    let quote = UInt8(ascii: "\"")
    var index = from
    if isTSV {
      while index < to {
        if bytes[index] == 0x0A { return index + 1 }
        index += 1
      }
      return nil
    }
    while index < to {
      let byte = bytes[index]
      index += 1
      switch place {
      case .quoted:
        if byte == quote { place = .quoteInQuoted }
      case .fieldStart, .unquoted, .quoteInQuoted:
        if byte == 0x0A { return index }
        if byte == separator {
          place = .fieldStart
          field += 1
        } else if byte == quote, place == .fieldStart || place == .quoteInQuoted {
          // An opening quote, or the second of a doubled one.
          place = .quoted
        } else {
          place = .unquoted
        }
      }
    }
    return nil
  }
}
