import Foundation
import Testing
import TunnelReports

/// `PlaceText.grouped`, the thousands of populations, against Foundation's own grouping in English.
@Suite struct GroupedNumberTests {
  @Test("Thousands are grouped by commas, as Foundation groups them")
  func grouped() {
    let formatter = NumberFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.numberStyle = .decimal
    formatter.usesGroupingSeparator = true
    formatter.groupingSeparator = ","
    formatter.groupingSize = 3
    var values = [0, 1, -1, 999, 1000, -1000, 7145, 99_999, 100_000, 1_153_615, Int.max]
    var seed: UInt64 = 7
    for _ in 0..<2000 {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      values.append(Int(truncatingIfNeeded: seed) >> Int(seed % 60))
    }
    for value in values {
      #expect(PlaceText.grouped(value) == formatter.string(from: NSNumber(value: value)), "\(value)")
    }
    #expect(PlaceText.grouped(Int.min) == "-9,223,372,036,854,775,808")
  }
}
