import TunnelReports

/// Plain decimal numbers (`-33.9`, `8.316667`) read straight from their UTF-8, as `Double(_:)` reads
/// them but without its general machinery.
enum DecimalNumber {
  /// The value of `text` when it is an optional sign, digits, and an optional point and digits, with at
  /// most 15 significant digits; otherwise `Double(text)`, but never in hexadecimal.
  ///
  /// With at most 15 digits the digits are an exact `Double`, and so is the power of ten they are divided
  /// by: the one correctly rounded division gives the same value as any correct decimal reader.
  static func parse(_ text: String) -> Double? {
    var text = text
    if let fast = text.withUTF8(parse(plain:)) { return fast }
    // `Double(_:)` stops at a NUL byte ("1\0junk" would read as 1), and reads hexadecimal (`0x10`, `0x1p3`),
    // which no one writes for degrees and the coordinate parser refuses.
    let refused = text.utf8.contains { $0 == 0 || $0 == UInt8(ascii: "x") || $0 == UInt8(ascii: "X") }
    return refused ? nil : Double(text)
  }

  /// The value of `bytes` when they are a plain decimal number as ``parse(_:)`` describes it; `.some(nil)`
  /// when they are no number at all (nothing, a sign alone, two points); nil when they are something
  /// else that `Double(_:)` may still read (an exponent, more digits, spaces).
  @inline(__always) static func parse(plain bytes: UnsafeBufferPointer<UInt8>) -> Double?? {
    guard var cursor = bytes.baseAddress else { return .some(nil) }
    let end = cursor + bytes.count
    var negative = false
    if cursor < end, cursor.pointee == UInt8(ascii: "-") || cursor.pointee == UInt8(ascii: "+") {
      negative = cursor.pointee == UInt8(ascii: "-")
      cursor += 1
    }
    // Wrapping arithmetic is safe: the mantissa holds at most 15 significant digits (< 10^15), and the
    // counts are bounded by the text's length.
    var mantissa: UInt64 = 0
    var digits = 0
    // The whole part, a digit at a time (a coordinate has at most three).
    while cursor < end {
      let digit = cursor.pointee &- UInt8(ascii: "0")
      guard digit < 10 else { break }
      if mantissa >= 100_000_000_000_000 { return nil }  // a 16th significant digit
      mantissa = mantissa &* 10 &+ UInt64(digit)
      digits &+= 1
      cursor += 1
    }
    var fraction = 0
    if cursor < end {
      guard cursor.pointee == UInt8(ascii: ".") else { return nil }
      cursor += 1
      fraction = end - cursor
      // Eight digits, then four, at a time while they are all digits and the mantissa stays below 10^15:
      // a few multiplications in place of a chain of one per digit. The rest, a digit at a time.
      while end - cursor >= 8, mantissa < 10_000_000, let eight = eightDigits(at: cursor) {
        mantissa = mantissa &* 100_000_000 &+ eight
        digits &+= 8
        cursor += 8
      }
      while end - cursor >= 4, mantissa < 100_000_000_000, let four = fourDigits(at: cursor) {
        mantissa = mantissa &* 10_000 &+ four
        digits &+= 4
        cursor += 4
      }
      while cursor < end {
        let digit = cursor.pointee &- UInt8(ascii: "0")
        guard digit < 10 else { return cursor.pointee == UInt8(ascii: ".") ? .some(nil) : nil }
        if mantissa >= 100_000_000_000_000 { return nil }
        mantissa = mantissa &* 10 &+ UInt64(digit)
        digits &+= 1
        cursor += 1
      }
    }
    guard digits > 0, fraction < 23 else { return digits == 0 ? .some(nil) : nil }
    let value = Double(mantissa) / PowerOfTen.double(fraction)
    return .some(negative ? -value : value)
  }

  /// The value of the eight bytes at `bytes` when all are ASCII digits, read as one number.
  @inline(__always) private static func eightDigits(at bytes: UnsafePointer<UInt8>) -> UInt64? {
    let word = UInt64(littleEndian: UnsafeRawPointer(bytes).loadUnaligned(as: UInt64.self))
    // A byte is a digit when its high half is 3, and is 3 still with 6 added (0x3A and above reach 4).
    let highs: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
    guard ((word & highs) | (((word &+ 0x0606_0606_0606_0606) & highs) >> 4)) == 0x3333_3333_3333_3333 else {
      return nil
    }
    // Digits paired, the pairs paired, and so on: tens, then hundreds, then ten thousands.
    var value = ((word & 0x0F0F_0F0F_0F0F_0F0F) &* ((10 << 8) + 1)) >> 8
    value = ((value & 0x00FF_00FF_00FF_00FF) &* ((100 << 16) + 1)) >> 16
    return (((value & 0x0000_FFFF_0000_FFFF) &* ((10_000 << 32) + 1)) >> 32) & 0xFFFF_FFFF
  }

  /// The value of the four bytes at `bytes` when all are ASCII digits, read as one number.
  @inline(__always) private static func fourDigits(at bytes: UnsafePointer<UInt8>) -> UInt64? {
    let word = UInt32(littleEndian: UnsafeRawPointer(bytes).loadUnaligned(as: UInt32.self))
    let highs: UInt32 = 0xF0F0_F0F0
    guard ((word & highs) | (((word &+ 0x0606_0606) & highs) >> 4)) == 0x3333_3333 else { return nil }
    var value = ((word & 0x0F0F_0F0F) &* ((10 << 8) + 1)) >> 8
    value = ((value & 0x00FF_00FF) &* ((100 << 16) + 1)) >> 16
    return UInt64(value)
  }
}
