/// `value.rounded()` (to the nearest integer, halves away from zero) for a magnitude below 2⁶³, but for the
/// sign of a zero; without a call to the C library's `round`, which x86-64's baseline (no rounding
/// instruction) makes of `rounded()`: it took a twentieth of the time of reading a batch's rows, and a
/// fiftieth of a country batch's in the lookups' fixed-point coordinates.
///
/// The truncation is exact, and so is what it leaves: a difference of two doubles of the same integer part.
/// The rest's two tests are added as 0 or 1, not branched on: a parsed coordinate's rest is as good as
/// random, and a branch on it was mispredicted for every other row of a batch.
///
///     roundedHalfAway(2.5)  // 3
///     roundedHalfAway(-2.5)  // -3
///     roundedHalfAway(-0.4)  // 0
@inlinable @inline(__always) package func roundedHalfAway(_ value: Double) -> Double {
  let whole = Int64(value)
  let rest = value - Double(whole)
  let up = Int64(unsafeBitCast(rest >= 0.5, to: UInt8.self))
  let down = Int64(unsafeBitCast(rest <= -0.5, to: UInt8.self))
  return Double(whole &+ up &- down)
}
