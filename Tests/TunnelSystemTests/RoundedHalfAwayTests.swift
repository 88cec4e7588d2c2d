import SeededRandom
import Testing
import TunnelSystem

/// `roundedHalfAway` against the standard library's `rounded()`, which calls the C library's `round`: the
/// same value for every magnitude below 2⁶³, halves and their neighbours included.
@Suite struct RoundedHalfAwayTests {
  @Test func roundingHalvesAwayFromZeroAsTheLibraryDoes() {
    var generator = SplitMix64(seed: 0x726F_756E_64)
    func check(_ value: Double) {
      #expect(roundedHalfAway(value) == value.rounded(), "\(value)")
    }
    for _ in 0..<100_000 {
      // Random quotients of any size a longitude gives, and the halves between two neighbours.
      let quotient = Double.random(in: -0x1p52...0x1p52, using: &generator)
      check(quotient)
      check(quotient / Double(1 << Int.random(in: 1...50, using: &generator)))
      let whole = Double(Int64.random(in: -(1 << 51)...(1 << 51), using: &generator))
      for value in [whole + 0.5, whole - 0.5, (whole + 0.5).nextDown, (whole + 0.5).nextUp] { check(value) }
    }
    for value in [0, -0.0, 0.5, -0.5, 0.49999999999999994, -0.49999999999999994, 0x1p52, -0x1p52, 0x1p62] {
      check(value)
    }
  }
}
