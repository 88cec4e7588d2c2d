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
  static func parse(plain bytes: UnsafeBufferPointer<UInt8>) -> Double?? {
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
    var fraction = 0
    var pointAt: UnsafePointer<UInt8>?
    while cursor < end {
      let digit = cursor.pointee &- UInt8(ascii: "0")
      if digit < 10 {
        if mantissa >= 100_000_000_000_000 { return nil }  // a 16th significant digit
        mantissa = mantissa &* 10 &+ UInt64(digit)
        digits &+= 1
      } else if cursor.pointee == UInt8(ascii: "."), pointAt == nil {
        pointAt = cursor
      } else {
        return cursor.pointee == UInt8(ascii: ".") ? .some(nil) : nil
      }
      cursor += 1
    }
    if let pointAt { fraction = end - pointAt - 1 }
    guard digits > 0, fraction < 23 else { return digits == 0 ? .some(nil) : nil }
    let value = Double(mantissa) / PowerOfTen.double(fraction)
    return .some(negative ? -value : value)
  }
}
