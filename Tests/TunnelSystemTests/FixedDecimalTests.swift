import Foundation
import SeededRandom
import Testing
import TunnelSystem

/// `fixedDecimal` against Foundation's `String(format:)`, which it replaces: both hand the number to the C
/// library's printf.
@Suite struct FixedDecimalTests {
  @Test("Examples: rounding halves to even on the exact binary value, signs, zeros, widths")
  func examples() {
    #expect(fixedDecimal(2.5, places: 0) == "2")
    #expect(fixedDecimal(3.5, places: 0) == "4")
    #expect(fixedDecimal(0.125, places: 2) == "0.12")
    #expect(fixedDecimal(0.1, places: 20) == "0.10000000000000000555")
    #expect(fixedDecimal(-0.0, places: 3) == "-0.000")
    #expect(fixedDecimal(8.3, places: 3, width: 8, plusSign: true) == "+008.300")
    #expect(fixedDecimal(-8.3, places: 3, width: 8, plusSign: true) == "-008.300")
    #expect(fixedDecimal(56.55, places: 6, width: 9) == "56.550000")
    #expect(fixedDecimal(.infinity, places: 2) == "inf")
    #expect(fixedDecimal(-.infinity, places: 2, plusSign: true) == "-inf")
    #expect(fixedDecimal(.nan, places: 2) == "nan")
  }

  @Test("Longer than the stack buffer: the largest double to 15 places, 400 places")
  func long() {
    #expect(
      fixedDecimal(.greatestFiniteMagnitude, places: 15)
        == String(format: "%.15f", Double.greatestFiniteMagnitude))
    #expect(fixedDecimal(1 / 3, places: 400) == String(format: "%.400f", 1.0 / 3))
    #expect(fixedDecimal(1, places: 0, width: 500).count == 500)
  }

  @Test("Random values at every precision and width, as String(format:) writes them")
  func random() {
    var random = SplitMix64(seed: 6_202)
    for _ in 0..<20_000 {
      let magnitude = Double.random(in: -20...20, using: &random)
      var value = Double.random(in: -1...1, using: &random) * pow(10, magnitude)
      if Bool.random(using: &random) {
        // Values on a decimal grid, where rounding is closest to a tie.
        let places = Double(Int.random(in: 0...15, using: &random))
        value = (value * pow(10, places)).rounded() / pow(10, places) + 5 / pow(10, places + 1)
      }
      let places = Int.random(in: 0...17, using: &random)
      let width = Int.random(in: 0...24, using: &random)
      let plus = Bool.random(using: &random)
      let format = "%\(plus ? "+" : "")0\(width).\(places)f"
      #expect(
        fixedDecimal(value, places: places, width: width, plusSign: plus) == String(format: format, value),
        "\(format) of \(value)")
    }
  }
}
