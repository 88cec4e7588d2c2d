/// Bytes of output being written: text, JSON values and CSV fields appended without building
/// intermediate strings.
struct OutputBytes {
  var bytes: [UInt8] = []

  mutating func append(_ text: String) {
    var text = text
    text.withUTF8 { bytes.append(contentsOf: $0) }
  }

  mutating func append(_ byte: UInt8) { bytes.append(byte) }

  /// A JSON string: quotes, backslashes and control characters escaped, everything else as UTF-8.
  mutating func json(_ text: String) {
    bytes.append(UInt8(ascii: "\""))
    var text = text
    text.withUTF8 { utf8 in
      var runStart = 0
      for index in 0..<utf8.count {
        let byte = utf8[index]
        guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
        runStart = index + 1
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
        case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
        case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
        case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
        case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
        default:
          let hex = Array("0123456789abcdef".utf8)
          bytes.append(contentsOf: [
            0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 15)],
          ])
        }
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
    }
    bytes.append(UInt8(ascii: "\""))
  }

  mutating func json(_ text: String?) {
    if let text { json(text) } else { append("null") }
  }

  /// `"name":`, for a member of an object.
  mutating func key(_ name: String) {
    json(name)
    bytes.append(UInt8(ascii: ":"))
  }

  /// A number rounded to `places` decimals, as Swift prints it (`56.5`, `-0.25`, `1e-07`).
  mutating func number(_ value: Double, places: Int) {
    append(Self.text(value, places: places))
  }

  static func text(_ value: Double, places: Int) -> String {
    guard value.isFinite else { return "null" }
    let scale = Self.scales[max(0, min(places, Self.scales.count - 1))]
    let rounded = (value * scale).rounded() / scale + 0
    if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
    return rounded.description
  }

  private static let scales: [Double] = (0...15).map { (0..<$0).reduce(1.0) { value, _ in value * 10 } }

  /// A CSV (or TSV) field: quoted when it holds the separator, a quote or a line break.
  mutating func field(_ text: String, separator: UInt8) {
    var text = text
    text.withUTF8 { utf8 in
      let needsQuotes = utf8.contains {
        $0 == separator || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D
      }
      guard needsQuotes else {
        bytes.append(contentsOf: utf8)
        return
      }
      bytes.append(UInt8(ascii: "\""))
      for byte in utf8 {
        if byte == UInt8(ascii: "\"") { bytes.append(byte) }
        bytes.append(byte)
      }
      bytes.append(UInt8(ascii: "\""))
    }
  }
}
