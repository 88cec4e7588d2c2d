import CPrintf

/// `value` with `places` decimals, as C's `printf` writes it with `%.*f`: the exact binary value rounded
/// in decimal (halves to even), `-0.0` written `-0.000`, `nan` and `inf` as such.
///
/// With `plusSign`, `+` before a value that is not negative (`%+f`); with `width`, zeros after the sign
/// until the text has that many characters (`%0*f`).
///
///     fixedDecimal(2.5, places: 0)  // "2"
///     fixedDecimal(8.3, places: 3, width: 8, plusSign: true)  // "+008.300"
package func fixedDecimal(_ value: Double, places: Int, width: Int = 0, plusSign: Bool = false) -> String {
  let places = Int32(clamping: places)
  let width = Int32(clamping: width)
  // On the stack: a double has at most 309 digits before the point, so only a large `width` or `places`
  // needs more.
  return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 400) { buffer in
    let count = Int(
      tunnel_fixed_decimal(buffer.baseAddress, buffer.count, value, places, width, plusSign ? 1 : 0))
    if count < buffer.count {
      return String(
        decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: max(0, count)), as: UTF8.self)
    }
    var larger = [CChar](repeating: 0, count: count + 1)
    _ = tunnel_fixed_decimal(&larger, larger.count, value, places, width, plusSign ? 1 : 0)
    return String(decoding: larger[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
