#if canImport(Glibc)
import Glibc
#endif

/// Bytes of output being written: text, JSON values and CSV fields appended without building
/// intermediate strings.
///
/// The bytes live in a buffer of its own that grows by doubling, and short appends are copied byte by
/// byte: a row is dozens of appends of a few bytes, and this is where a batch spends much of its time.
/// A copy of an `OutputBytes` shares the buffer; each writer makes its own.
struct OutputBytes {
  private final class Storage {
    var base: UnsafeMutablePointer<UInt8>
    var count = 0
    var capacity: Int

    init(capacity: Int) {
      self.capacity = max(16, capacity)
      base = .allocate(capacity: self.capacity)
    }

    func reserve(_ needed: Int) {
      guard needed > capacity else { return }
      var grown = capacity * 2
      while grown < needed { grown *= 2 }
      let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
      moved.update(from: base, count: count)
      base.deallocate()
      base = moved
      capacity = grown
    }

    deinit { base.deallocate() }
  }

  private let storage: Storage

  init(capacity: Int = 256) {
    storage = Storage(capacity: capacity)
  }

  /// The bytes written so far.
  var bytes: [UInt8] { Array(UnsafeBufferPointer(start: storage.base, count: storage.count)) }

  /// Calls `body` with the bytes written so far, without copying them.
  func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
    try body(UnsafeBufferPointer(start: storage.base, count: storage.count))
  }

  var count: Int { storage.count }

  var last: UInt8? { storage.count > 0 ? storage.base[storage.count - 1] : nil }

  mutating func removeLast() {
    precondition(storage.count > 0)
    storage.count -= 1
  }

  /// Removes the byte at `position`, moving the rest down.
  mutating func remove(at position: Int) {
    precondition(position < storage.count)
    (storage.base + position).update(from: storage.base + position + 1, count: storage.count - position - 1)
    storage.count -= 1
  }

  mutating func reserveCapacity(_ capacity: Int) { storage.reserve(capacity) }

  @inline(__always) mutating func append(_ byte: UInt8) {
    if storage.count == storage.capacity { storage.reserve(storage.count + 1) }
    storage.base[storage.count] = byte
    storage.count += 1
  }

  mutating func append(contentsOf buffer: UnsafeBufferPointer<UInt8>) {
    let length = buffer.count
    guard length > 0 else { return }
    storage.reserve(storage.count + length)
    let target = storage.base + storage.count
    if length <= 32 {
      for index in 0..<length { target[index] = buffer[index] }
    } else {
      memcpy(target, buffer.baseAddress!, length)
    }
    storage.count += length
  }

  mutating func append(contentsOf bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { append(contentsOf: $0) }
  }

  mutating func append(_ text: String) {
    var text = text
    text.withUTF8 { append(contentsOf: $0) }
  }

  /// A JSON string: quotes, backslashes and control characters escaped, everything else as UTF-8.
  mutating func json(_ text: String) {
    append(UInt8(ascii: "\""))
    var text = text
    text.withUTF8 { utf8 in
      var runStart = 0
      for index in 0..<utf8.count {
        let byte = utf8[index]
        guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
        append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
        runStart = index + 1
        switch byte {
        case UInt8(ascii: "\""): append(contentsOf: [0x5C, 0x22])
        case UInt8(ascii: "\\"): append(contentsOf: [0x5C, 0x5C])
        case 0x0A: append(contentsOf: [0x5C, UInt8(ascii: "n")])
        case 0x0D: append(contentsOf: [0x5C, UInt8(ascii: "r")])
        case 0x09: append(contentsOf: [0x5C, UInt8(ascii: "t")])
        default:
          let hex = Array("0123456789abcdef".utf8)
          append(contentsOf: [
            0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 15)],
          ])
        }
      }
      append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
    }
    append(UInt8(ascii: "\""))
  }

  mutating func json(_ text: String?) {
    if let text { json(text) } else { append("null") }
  }

  /// `"name":`, for a member of an object.
  mutating func key(_ name: String) {
    json(name)
    append(UInt8(ascii: ":"))
  }

  /// `"name":"text",` (`null` for nil).
  mutating func member(_ name: String, _ text: String?) {
    key(name)
    json(text)
    append(UInt8(ascii: ","))
  }

  /// `"name":1.5,`.
  mutating func member(_ name: String, number value: Double, places: Int) {
    key(name)
    number(value, places: places)
    append(UInt8(ascii: ","))
  }

  /// `"name":true,` (`null` for nil).
  mutating func member(_ name: String, flag: Bool?) {
    key(name)
    append(flag.map { $0 ? "true" : "false" } ?? "null")
    append(UInt8(ascii: ","))
  }

  /// `"name":{…},` with the members `body` writes, or `"name":null,` when not `present`.
  mutating func object(_ name: String, present: Bool, _ body: (inout OutputBytes) -> Void) {
    key(name)
    guard present else { return append("null,") }
    append(UInt8(ascii: "{"))
    body(&self)
    if last == UInt8(ascii: ",") { removeLast() }
    append("},")
  }

  /// A number rounded to `places` decimals, written without trailing zeros (`56.5`, `-0.25`, `7`);
  /// `null` when it is not finite.
  mutating func number(_ value: Double, places: Int) {
    let places = max(0, min(places, Self.scales.count - 1))
    let scaled = (value * Self.scales[places]).rounded()
    guard value.isFinite, abs(scaled) < 1e15 else {
      append(value.isFinite ? (scaled / Self.scales[places] + 0).description : "null")
      return
    }
    // The rounded value is exactly scaled × 10^-places: its integer digits, then the fraction's without
    // trailing zeros.
    let units = Int64(scaled)
    let magnitude = units.magnitude
    let integer = magnitude / Self.integerScales[places]
    var fraction = magnitude % Self.integerScales[places]
    var fractionDigits = fraction == 0 ? 0 : places
    while fractionDigits > 0, fraction % 10 == 0 {
      fraction /= 10
      fractionDigits -= 1
    }
    var integerDigits = 1
    while integerDigits < 19, integer >= Self.integerScales[integerDigits] { integerDigits += 1 }
    storage.reserve(storage.count + 2 + integerDigits + fractionDigits)
    var cursor = storage.base + storage.count
    if units < 0 {
      cursor.pointee = UInt8(ascii: "-")
      cursor += 1
    }
    var rest = integer
    for offset in stride(from: integerDigits - 1, through: 0, by: -1) {
      cursor[offset] = UInt8(ascii: "0") + UInt8(rest % 10)
      rest /= 10
    }
    cursor += integerDigits
    if fractionDigits > 0 {
      cursor.pointee = UInt8(ascii: ".")
      cursor += 1
      for offset in stride(from: fractionDigits - 1, through: 0, by: -1) {
        cursor[offset] = UInt8(ascii: "0") + UInt8(fraction % 10)
        fraction /= 10
      }
      cursor += fractionDigits
    }
    storage.count = cursor - storage.base
  }

  /// An integer in decimal.
  mutating func integer(_ value: Int) {
    if value.magnitude < 1 << 50 { number(Double(value), places: 0) } else { append(String(value)) }
  }

  static func text(_ value: Double, places: Int) -> String {
    var out = OutputBytes()
    out.number(value, places: places)
    return String(decoding: out.bytes, as: UTF8.self)
  }

  private static let scales: [Double] = (0...15).map { (0..<$0).reduce(1.0) { value, _ in value * 10 } }
  private static let integerScales: [UInt64] = (0...19).map { (0..<$0).reduce(1) { value, _ in value * 10 } }

  /// A CSV (or TSV) field: quoted when it holds the separator, a quote or a line break.
  mutating func field(_ text: String, separator: UInt8) {
    var text = text
    text.withUTF8 { utf8 in
      let needsQuotes = utf8.contains {
        $0 == separator || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D
      }
      guard needsQuotes else {
        append(contentsOf: utf8)
        return
      }
      append(UInt8(ascii: "\""))
      for byte in utf8 {
        if byte == UInt8(ascii: "\"") { append(byte) }
        append(byte)
      }
      append(UInt8(ascii: "\""))
    }
  }
}
