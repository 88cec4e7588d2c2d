/// Finds where a JSON value ends by reading it a block at a time, without holding it: for a value too
/// long to be read whole (a GeoJSON feature past ``GeoJSONSource/maximumFeatureBytes``).
///
/// It follows only strings (with their escapes) and the nesting of objects and arrays; whether the
/// value is valid JSON is not checked, since it is not read.
///
/// ```swift
/// var skip = JSONSkip()
/// skip.end(in: bytes, from: 0, to: bytes.count)  // the position after the value, or nil: more to come
/// ```
struct JSONSkip {
  private var depth = 0
  private var inString = false
  private var escaped = false
  private var started = false

  /// Reads `bytes[from..<to]`, the next part of the value; returns the position just after the value
  /// when it ends there, nil when it goes on past `to`.
  ///
  /// A value that is not an object, an array or a string (a number, a literal) ends before the first
  /// comma, bracket, brace or whitespace after it.
  ///
  /// - Complexity: O(`to` - `from`).
  mutating func end(in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
    var index = from
    while index < to {
      let byte = bytes[index]
      index += 1
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
          if depth == 0 { return index }
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""):
        inString = true
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        if depth == 0 { return index - 1 }
        depth -= 1
        if depth == 0 { return index }
      case UInt8(ascii: ","), 0x20, 0x09, 0x0A, 0x0D:
        if depth == 0, started { return index - 1 }
      default:
        break
      }
      started = true
    }
    return nil
  }
}
