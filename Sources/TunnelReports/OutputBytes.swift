import TunnelSystem

#if canImport(Glibc)
import Glibc
#endif

/// Bytes of output being written: text, JSON values and CSV fields appended without building
/// intermediate strings.
///
/// The bytes live in a buffer of its own that grows by doubling, and short appends are copied byte by
/// byte: a row is dozens of appends of a few bytes, and this is where a batch spends much of its time.
/// A copy of an `OutputBytes` shares the buffer; each writer makes its own.
package struct OutputBytes {
  @usableFromInline final class Storage {
    // Unchecked: each writer has its own storage, and checking every access at run time (a thread-local
    // set of accesses, entered and left for each byte appended) was a twelfth of a batch's time.
    @exclusivity(unchecked) @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) @usableFromInline var count = 0
    @exclusivity(unchecked) @usableFromInline var capacity: Int

    @usableFromInline init(capacity: Int) {
      self.capacity = max(16, capacity)
      base = .allocate(capacity: self.capacity)
    }

    @inlinable @inline(__always) func reserve(_ needed: Int) {
      if needed > capacity { grow(to: needed) }
    }

    @usableFromInline @inline(never) func grow(to needed: Int) {
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

  @usableFromInline let storage: Storage

  @inlinable package init(capacity: Int = 256) {
    storage = Storage(capacity: capacity)
  }

  /// The bytes written so far.
  package var bytes: [UInt8] { Array(UnsafeBufferPointer(start: storage.base, count: storage.count)) }

  /// Calls `body` with the bytes written so far, without copying them.
  @inlinable package func withBytes<Result>(
    _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
  ) rethrows -> Result {
    try body(UnsafeBufferPointer(start: storage.base, count: storage.count))
  }

  @inlinable package var count: Int { storage.count }

  @inlinable package var last: UInt8? { storage.count > 0 ? storage.base[storage.count - 1] : nil }

  @inlinable package mutating func removeLast() {
    precondition(storage.count > 0)
    storage.count -= 1
  }

  /// Removes the byte at `position`, moving the rest down.
  @inlinable package mutating func remove(at position: Int) {
    precondition(position < storage.count)
    (storage.base + position).update(from: storage.base + position + 1, count: storage.count - position - 1)
    storage.count -= 1
  }

  @inlinable package mutating func reserveCapacity(_ capacity: Int) { storage.reserve(capacity) }

  @inlinable @inline(__always) package mutating func append(_ byte: UInt8) {
    if storage.count == storage.capacity { storage.reserve(storage.count + 1) }
    storage.base[storage.count] = byte
    storage.count += 1
  }

  @inlinable package mutating func append(contentsOf buffer: UnsafeBufferPointer<UInt8>) {
    let length = buffer.count
    guard length > 0 else { return }
    storage.reserve(storage.count + length)
    let target = UnsafeMutableRawPointer(storage.base + storage.count)
    let source = UnsafeRawPointer(buffer.baseAddress!)
    // Short spans (a line, a column, a place's columns) as two overlapping words, first and last: no loop
    // and no call.
    if length > 32 && length <= 64 {
      let head = source.loadUnaligned(as: SIMD32<UInt8>.self)
      let tail = source.loadUnaligned(fromByteOffset: length - 32, as: SIMD32<UInt8>.self)
      target.storeBytes(of: head, as: SIMD32<UInt8>.self)
      target.storeBytes(of: tail, toByteOffset: length - 32, as: SIMD32<UInt8>.self)
    } else if length >= 16 && length <= 32 {
      let head = source.loadUnaligned(as: SIMD16<UInt8>.self)
      let tail = source.loadUnaligned(fromByteOffset: length - 16, as: SIMD16<UInt8>.self)
      target.storeBytes(of: head, as: SIMD16<UInt8>.self)
      target.storeBytes(of: tail, toByteOffset: length - 16, as: SIMD16<UInt8>.self)
    } else if length >= 8 && length < 16 {
      let head = source.loadUnaligned(as: UInt64.self)
      let tail = source.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
      target.storeBytes(of: head, as: UInt64.self)
      target.storeBytes(of: tail, toByteOffset: length - 8, as: UInt64.self)
    } else if length >= 4 && length < 8 {
      let head = source.loadUnaligned(as: UInt32.self)
      let tail = source.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self)
      target.storeBytes(of: head, as: UInt32.self)
      target.storeBytes(of: tail, toByteOffset: length - 4, as: UInt32.self)
    } else if length < 4 {
      for index in 0..<length {
        target.storeBytes(
          of: source.load(fromByteOffset: index, as: UInt8.self), toByteOffset: index, as: UInt8.self)
      }
    } else {
      memcpy(target, source, length)
    }
    storage.count += length
  }

  @inlinable package mutating func append(contentsOf bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { append(contentsOf: $0) }
  }

  @inlinable package mutating func append(_ text: String) {
    Self.withUTF8(of: text) { append(contentsOf: $0) }
  }

  /// Calls `body` with a text's UTF-8: in place where the text is stored so (native strings), else from
  /// a copy. A copy, made mutable for `withUTF8`, counted a reference to the text: to a name that every
  /// row shares, on every core at once.
  @inlinable static func withUTF8<Result>(
    of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result {
    if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
    var text = text
    return text.withUTF8(body)
  }

  /// A JSON string: quotes, backslashes and control characters escaped, everything else as UTF-8.
  @inlinable package mutating func json(_ text: String) {
    Self.withUTF8(of: text) { json(utf8: $0) }
  }

  /// A JSON string from its UTF-8.
  @inlinable package mutating func json(utf8: UnsafeBufferPointer<UInt8>) {
    append(UInt8(ascii: "\""))
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
    append(UInt8(ascii: "\""))
  }

  @inlinable package mutating func json(_ text: String?) {
    if let text { json(text) } else { append("null") }
  }

  /// `"name":`, for a member of an object.
  @inlinable package mutating func key(_ name: String) {
    json(name)
    append(UInt8(ascii: ":"))
  }

  /// `"name":"text",` (`null` for nil).
  @inlinable package mutating func member(_ name: String, _ text: String?) {
    key(name)
    json(text)
    append(UInt8(ascii: ","))
  }

  /// `"name":1.5,`.
  @inlinable package mutating func member(_ name: String, number value: Double, places: Int) {
    key(name)
    number(value, places: places)
    append(UInt8(ascii: ","))
  }

  /// `"name":-171.5,` for a longitude (see ``longitude(_:places:)``).
  @inlinable package mutating func member(_ name: String, longitude value: Double, places: Int) {
    key(name)
    longitude(value, places: places)
    append(UInt8(ascii: ","))
  }

  /// `"name":true,` (`null` for nil).
  @inlinable package mutating func member(_ name: String, flag: Bool?) {
    key(name)
    append(flag.map { $0 ? "true" : "false" } ?? "null")
    append(UInt8(ascii: ","))
  }

  /// `"name":{…},` with the members `body` writes, or `"name":null,` when not `present`.
  @inlinable package mutating func object(_ name: String, present: Bool, _ body: (inout OutputBytes) -> Void)
  {
    key(name)
    guard present else { return append("null,") }
    append(UInt8(ascii: "{"))
    body(&self)
    if last == UInt8(ascii: ",") { removeLast() }
    append("},")
  }

  /// A number rounded to `places` decimals, written without trailing zeros (`56.5`, `-0.25`, `7`);
  /// `null` when it is not finite.
  @inlinable package mutating func number(_ value: Double, places: Int) {
    let places = max(0, min(places, 15))
    let scale = PowerOfTen.double(places)
    let product = value * scale
    // Rounded without the C library's `round` where that is exact (below 2⁵², where a double still has
    // a fraction); past 2⁵⁰ the product's own error could round the last decimal wrong: rounded in
    // decimal instead.
    let scaled = abs(product) < 0x1p52 ? roundedHalfAway(product) : product
    guard value.isFinite, abs(scaled) < 0x1p50 else {
      guard value.isFinite else { return append("null") }
      let rounded = Precision.rounded(value, places: places)
      // A whole number without the `.0` that `description` gives it.
      if rounded == rounded.rounded(), abs(rounded) < 0x1p63 {
        decimal(units: Int64(rounded), decimals: 0)
      } else {
        append(rounded.description)
      }
      return
    }
    // The rounded value is exactly scaled × 10^-places.
    decimal(units: Int64(scaled), decimals: places)
  }

  /// A longitude as ``number(_:places:)`` writes it, except that one that rounds to 180 is written -180,
  /// the same meridian, as Tunnel writes longitudes everywhere (``Precision/longitude(_:)``).
  @inlinable package mutating func longitude(_ value: Double, places: Int) {
    let written = value < 179 ? value : Precision.rounded(value, places: max(0, min(places, 15)))
    number(written == 180 ? -180 : written, places: places)
  }

  /// `units` × 10^-`decimals` exactly, without trailing zeros after the point (`units` 12500 with
  /// `decimals` 3 is `12.5`).
  @inlinable package mutating func decimal(units: Int64, decimals: Int) {
    var magnitude = units.magnitude
    var decimals = decimals
    while decimals > 0, magnitude % 10 == 0 {
      magnitude /= 10
      decimals -= 1
    }
    var integer = magnitude
    var fraction: UInt64 = 0
    if decimals > 0 {
      (integer, fraction) = magnitude.quotientAndRemainder(dividingBy: PowerOfTen.integer(decimals))
    }
    var integerDigits = 1
    var rest = integer
    while rest >= 100 {
      rest /= 100
      integerDigits += 2
    }
    if rest >= 10 { integerDigits += 1 }
    let size = (units < 0 ? 1 : 0) + integerDigits + (decimals > 0 ? decimals + 1 : 0)
    storage.reserve(storage.count + size)
    let start = storage.base + storage.count
    var end = start + size
    if decimals > 0 {
      Self.writeDigits(fraction, count: decimals, before: end)
      end -= decimals + 1
      end.pointee = UInt8(ascii: ".")
    }
    Self.writeDigits(integer, count: integerDigits, before: end)
    if units < 0 { start.pointee = UInt8(ascii: "-") }
    storage.count += size
  }

  /// Writes `value` as `count` digits, zeros in front, in the `count` bytes before `end`: two digits at
  /// a time.
  @inlinable @inline(__always) static func writeDigits(
    _ value: UInt64, count: Int, before end: UnsafeMutablePointer<UInt8>
  ) {
    let pairs: StaticString =
      "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
    let table = pairs.utf8Start
    var value = value
    var cursor = end
    var remaining = count
    while remaining >= 2 {
      let pair = Int(truncatingIfNeeded: value % 100) &* 2
      value /= 100
      cursor -= 2
      cursor[0] = table[pair]
      cursor[1] = table[pair &+ 1]
      remaining -= 2
    }
    if remaining == 1 {
      cursor -= 1
      cursor.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
    }
  }

  /// An integer in decimal.
  @inlinable package mutating func integer(_ value: Int) { decimal(units: Int64(value), decimals: 0) }

  package static func text(_ value: Double, places: Int) -> String {
    var out = OutputBytes()
    out.number(value, places: places)
    return String(decoding: out.bytes, as: UTF8.self)
  }

  /// A CSV field, quoted when it holds the separator, a quote or a line break; or, with a tab for
  /// separator, a TSV field, never quoted: a tab, line feed, carriage return, NUL or backslash in it is
  /// written `\t`, `\n`, `\r`, `\0`, `\\` (IANA's TSV cannot hold the first three; `TunnelBatch.DelimitedReader`
  /// reads them back).
  ///
  /// Neither ever holds a raw NUL, which PostgreSQL's `COPY` and C's string functions refuse or cut at.
  /// CSV has no escapes: a NUL in a CSV field is written `␀` (U+2400 SYMBOL FOR NULL), which a `␀`
  /// the input already held cannot be told apart from; TSV and JSON keep the two apart.
  @inlinable package mutating func field(_ text: String, separator: UInt8) {
    Self.withUTF8(of: text) { field(utf8: $0, separator: separator) }
  }

  /// A CSV (or TSV) field from its UTF-8.
  @inlinable package mutating func field(utf8: UnsafeBufferPointer<UInt8>, separator: UInt8) {
    if separator == 0x09 { return tsvField(utf8: utf8) }
    var needsQuotes = false
    var holdsNUL = false
    for byte in utf8 {
      if byte == separator || byte == UInt8(ascii: "\"") || byte == 0x0A || byte == 0x0D {
        needsQuotes = true
      }
      if byte == 0 { holdsNUL = true }
    }
    guard needsQuotes || holdsNUL else {
      append(contentsOf: utf8)
      return
    }
    if needsQuotes { append(UInt8(ascii: "\"")) }
    for byte in utf8 {
      if byte == 0 {
        append(contentsOf: Self.symbolForNull)
        continue
      }
      if byte == UInt8(ascii: "\"") { append(byte) }
      append(byte)
    }
    if needsQuotes { append(UInt8(ascii: "\"")) }
  }

  /// `␀` (U+2400), in place of a NUL in a CSV field.
  @usableFromInline static var symbolForNull: [UInt8] { [0xE2, 0x90, 0x80] }
}

extension OutputBytes {
  /// A TSV field: see ``field(_:separator:)``.
  @usableFromInline mutating func tsvField(utf8: UnsafeBufferPointer<UInt8>) {
    var runStart = 0
    for index in 0..<utf8.count {
      let byte = utf8[index]
      guard byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0 || byte == UInt8(ascii: "\\") else {
        continue
      }
      append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
      runStart = index + 1
      append(UInt8(ascii: "\\"))
      switch byte {
      case 0x09: append(UInt8(ascii: "t"))
      case 0x0A: append(UInt8(ascii: "n"))
      case 0x0D: append(UInt8(ascii: "r"))
      case 0: append(UInt8(ascii: "0"))
      default: append(UInt8(ascii: "\\"))
      }
    }
    append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
  }
}

/// Powers of ten, without a table (a static array is looked up through a lazy global).
package enum PowerOfTen {
  /// 10^`exponent`, for `exponent` in 0...19.
  @inlinable @inline(__always) package static func integer(_ exponent: Int) -> UInt64 {
    precondition(exponent >= 0 && exponent <= 19, "10^\(exponent) is not a UInt64")
    var value: UInt64 = 1
    for _ in 0..<exponent { value &*= 10 }
    return value
  }

  /// 10^`exponent`, for `exponent` in 0...22 (every one an exact `Double`).
  @inlinable @inline(__always) package static func double(_ exponent: Int) -> Double {
    switch exponent {
    case 0: return 1
    case 1: return 1e1
    case 2: return 1e2
    case 3: return 1e3
    case 4: return 1e4
    case 5: return 1e5
    case 6: return 1e6
    case 7: return 1e7
    case 8: return 1e8
    case 9: return 1e9
    case 10: return 1e10
    case 11: return 1e11
    case 12: return 1e12
    case 13: return 1e13
    case 14: return 1e14
    case 15: return 1e15
    case 16: return 1e16
    case 17: return 1e17
    case 18: return 1e18
    case 19: return 1e19
    case 20: return 1e20
    case 21: return 1e21
    default:
      precondition(exponent == 22, "10^\(exponent) is not an exact double")
      return 1e22
    }
  }
}
