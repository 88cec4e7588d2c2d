/// Plain decimal numbers (`-33.9`, `8.316667`) read straight from their UTF-8, as `Double(_:)` reads
/// them but without its general machinery.
enum DecimalNumber {
  private static let powers: [Double] = (0...22).map { (0..<$0).reduce(1.0) { value, _ in value * 10 } }

  /// The value of `text` when it is an optional sign, digits, and an optional point and digits, with at
  /// most 15 significant digits; otherwise `Double(text)`.
  ///
  /// With at most 15 digits the digits are an exact `Double`, and so is the power of ten they are divided
  /// by: the one correctly rounded division gives the same value as any correct decimal reader.
  static func parse(_ text: String) -> Double? {
    var text = text
    let fast = text.withUTF8 { bytes -> Double?? in
      var index = 0
      var negative = false
      if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
        negative = bytes[index] == UInt8(ascii: "-")
        index += 1
      }
      var mantissa: UInt64 = 0
      var digits = 0
      var significant = 0
      var fraction = 0
      var seenPoint = false
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: ".") {
          if seenPoint { return .some(nil) }
          seenPoint = true
        } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
          digits += 1
          if mantissa > 0 || byte != UInt8(ascii: "0") { significant += 1 }
          if significant > 15 { return nil }
          mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
          if seenPoint { fraction += 1 }
        } else {
          return nil
        }
        index += 1
      }
      guard digits > 0, fraction < powers.count else { return digits == 0 ? .some(nil) : nil }
      let value = Double(mantissa) / powers[fraction]
      return .some(negative ? -value : value)
    }
    if let fast { return fast }
    // `Double(_:)` stops at a NUL byte ("1\0junk" would read as 1).
    return text.utf8.contains(0) ? nil : Double(text)
  }
}
