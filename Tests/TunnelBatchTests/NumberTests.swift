import Foundation
import SeededRandom
import Testing
import TunnelGeo
import TunnelReports

@testable import TunnelBatch

@Suite struct NumberTests {
  @Test("Plain decimals read exactly as Double(_:) reads them")
  func decimals() {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<20_000 {
      let value = Double.random(in: -400...400, using: &generator)
      for places in [0, 1, 4, 6, 9, 12] {
        let text = String(format: "%.\(places)f", value)
        #expect(DecimalNumber.parse(text) == Double(text), "\(text)")
      }
    }
    for text in [
      "", "-", ".", "1.2.3", "1e5", " 5", "12345678901234567890.5", "+7", "-0.0", "007.50",
    ] {
      let parsed = DecimalNumber.parse(text)
      #expect(parsed == Double(text) || (parsed == nil && Double(text) == nil), "\(text)")
    }
    // Hexadecimal, which Double(_:) reads, is no number of degrees.
    for text in ["0x10", "0X1p3", "-0x1.8p1"] { #expect(DecimalNumber.parse(text) == nil, "\(text)") }
  }

  @Test("Plain decimals read several digits at a time give what one digit at a time gives")
  func decimalsByBlocks() {
    // The reader as it was, a digit at a time: the reference the blocks of four and eight must match,
    // down to which texts are no number (`.some(nil)`) and which are left to `Double(_:)` (nil).
    func oneByOne(_ text: [UInt8]) -> Double?? {
      var index = 0
      var negative = false
      if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
        negative = text[index] == UInt8(ascii: "-")
        index += 1
      }
      var (mantissa, digits): (UInt64, Int) = (0, 0)
      var pointAt: Int?
      while index < text.count {
        let digit = text[index] &- UInt8(ascii: "0")
        if digit < 10 {
          if mantissa >= 100_000_000_000_000 { return nil }
          mantissa = mantissa * 10 + UInt64(digit)
          digits += 1
        } else if text[index] == UInt8(ascii: "."), pointAt == nil {
          pointAt = index
        } else {
          return text[index] == UInt8(ascii: ".") ? .some(nil) : nil
        }
        index += 1
      }
      let fraction = pointAt.map { text.count - $0 - 1 } ?? 0
      guard digits > 0, fraction < 23 else { return digits == 0 ? .some(nil) : nil }
      let value = Double(mantissa) / PowerOfTen.double(fraction)
      return .some(negative ? -value : value)
    }
    var generator = SplitMix64(seed: 0x626C_6F63_6B73)
    let alphabets: [[UInt8]] = [
      Array("0123456789".utf8), Array("0000000001".utf8), Array("0123456789.".utf8),
      Array("0123456789.-+e ,:/9".utf8),
    ]
    for round in 0..<200_000 {
      let alphabet = alphabets[round % alphabets.count]
      var text = (0..<Int.random(in: 0...26, using: &generator)).map { _ in
        alphabet.randomElement(using: &generator)!
      }
      // Mostly one point, somewhere; sometimes a sign first.
      if !text.isEmpty, round % 5 != 0 {
        text[Int.random(in: 0..<text.count, using: &generator)] = UInt8(ascii: ".")
      }
      if round % 7 == 0 { text.insert(UInt8(ascii: "-"), at: 0) }
      let parsed = text.withUnsafeBufferPointer(DecimalNumber.parse(plain:))
      let expected = oneByOne(text)
      #expect(
        parsed.map { $0?.bitPattern } == expected.map { $0?.bitPattern },
        "\(String(decoding: text, as: UTF8.self))")
    }
  }

  @Test("Numbers are written rounded, without trailing zeros, as the rounded Double prints")
  func numbers() {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<20_000 {
      let value = Double.random(in: -20_000...20_000, using: &generator)
      for places in [0, 3, 6, 9] {
        let scale = pow(10, Double(places))
        let rounded = (value * scale).rounded() / scale + 0
        let text = OutputBytes.text(value, places: places)
        #expect(Double(text) == rounded, "\(value) at \(places) places gave \(text)")
        #expect(!text.contains(".") || !text.hasSuffix("0"))
      }
    }
    #expect(OutputBytes.text(-0.25, places: 9) == "-0.25")
    #expect(OutputBytes.text(1e-7, places: 9) == "0.0000001")
    #expect(OutputBytes.text(-1e-12, places: 9) == "0")
    #expect(OutputBytes.text(56, places: 9) == "56")
    #expect(OutputBytes.text(.nan, places: 9) == "null")
  }

  @Test("Degrees with more decimals asked for than a double holds are written as they are, in JSON too")
  func manyDecimals() throws {
    var generator = SplitMix64(seed: 15)
    for _ in 0..<20_000 {
      // Seven decimals, as the place data and most input have them.
      let units = Int(generator.next() % 3_600_000_001) - 1_800_000_000
      let degrees = Double(units) / 1e7
      for places in 7...15 {
        let text = OutputBytes.text(degrees, places: places)
        let decimals = text.split(separator: ".").dropFirst().first?.count ?? 0
        #expect(
          Double(text) == degrees && decimals <= 7 && !text.contains("e"), "\(degrees) at \(places): \(text)")
        #expect(try Precision(degrees: places).degrees(degrees) == degrees)
      }
    }
    // 70.21937 × 10¹⁵ is past 2⁵²: it once came back as 70.21937000000003.
    #expect(OutputBytes.text(70.21937, places: 15) == "70.21937")
    #expect(try Precision(degrees: 15).degrees(-70.21937) == -70.21937)
    // Whole numbers past it once kept the `.0` of their description.
    #expect(OutputBytes.text(123, places: 13) == "123" && OutputBytes.text(-180, places: 15) == "-180")
  }

  @Test("Integers and exact decimals from units are written as their Double would be")
  func units() throws {
    for value in [0, 7, -7, 10, 100, 1_000_000, 123_456_789, Int.max, Int.min, -1] {
      var out = OutputBytes()
      out.integer(value)
      #expect(String(decoding: out.bytes, as: UTF8.self) == String(value))
    }
    // Every place's coordinates, as the nearest-place columns write them from the layer's units.
    let places = try PlaceData().places()
    for index in 0..<places.count {
      let point = places.coordinate(at: index)
      for (units, degrees) in [
        (places.latitudeUnits(at: index), point.latitude),
        (places.longitudeUnits(at: index), point.longitude),
      ] {
        var out = OutputBytes()
        out.decimal(units: Int64(units), decimals: 7)
        let text = String(decoding: out.bytes, as: UTF8.self)
        #expect(
          text == OutputBytes.text(degrees, places: 9) && text == OutputBytes.text(degrees, places: 7)
            && text == OutputBytes.text(degrees, places: 13))
      }
    }
  }

  @Test("JSON strings escape quotes, backslashes and control characters")
  func jsonStrings() throws {
    var out = OutputBytes()
    out.json("a\"b\\c\nd\u{1}é")
    let text = String(decoding: out.bytes, as: UTF8.self)
    #expect(text == #""a\"b\\c\nd\u0001é""#)
    #expect(
      try JSONSerialization.jsonObject(with: Data(out.bytes), options: .fragmentsAllowed) as? String
        == "a\"b\\c\nd\u{1}é")
  }
}
