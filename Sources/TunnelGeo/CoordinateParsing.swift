#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Coordinate {
  /// Reads a coordinate from text in any of the common notations.
  ///
  /// Understood, with latitude first unless hemisphere letters say otherwise:
  /// - decimal degrees: `56.0 8.5`, `56.0, 8.5`, `-33.9,18.4`, `56.0° 8.5°`;
  /// - hemisphere letters before or after: `33.9S 18.4E`, `S33.9 E18.4`, `18.4 E, 33.9 S`;
  /// - degrees, minutes and seconds with `°`, `'`/`′` and `"`/`″`: `56°0'N 8°30'E`, `33°54′S 18°24′E`;
  /// - ISO 6709 as degrees, degrees-minutes or degrees-minutes-seconds, with or without the closing
  ///   slash: `+56.0+008.5/`, `+5600+00830`, `+560000+0083000/`;
  /// - `geo:` URIs (RFC 5870): `geo:56,8.5`, `geo:56,8.5,30;u=10`.
  ///
  /// Text is held to the rule of ``init(validatingLatitude:longitude:)``: a latitude in -90…90, a signed
  /// longitude in -180…360 and one with a hemisphere letter in 0…180, normalised into -180..<180.
  ///
  /// - Parameter text: The text to read; surrounding white space is ignored.
  /// - Throws: ``CoordinateError`` saying what was wrong.
  public init(parsing text: String) throws(CoordinateError) {
    let value: (latitude: Double, longitude: Double)
    if let pair = CoordinateTextParser.plainDecimalPair(text) {
      value = pair  // the common case, read straight from the bytes
    } else {
      value = try Self.parseAnyNotation(text)
    }
    try self.init(validatingLatitude: value.latitude, longitude: value.longitude)
  }

  /// Reads every notation; ``init(parsing:)`` tries the byte-level decimal reader first.
  static func parseAnyNotation(
    _ text: String
  ) throws(CoordinateError) -> (latitude: Double, longitude: Double) {
    // U+2212 MINUS SIGN reads as "-" (the command line uses it to keep negative numbers from options).
    var trimmed = text.trimmingWhitespace()
    if trimmed.unicodeScalars.contains("\u{2212}") {
      trimmed = String(String.UnicodeScalarView(trimmed.unicodeScalars.map { $0 == "\u{2212}" ? "-" : $0 }))
    }
    let original = trimmed
    let fail = CoordinateTextParser.Failure(text: original)
    guard !trimmed.isEmpty else { throw .unparsable(text: text, reason: "the text is empty") }
    if let points = CoordinateTextParser.decimalCommas(trimmed) { trimmed = points }

    let value: (latitude: Double, longitude: Double)
    if let link = try CoordinateTextParser.mapLink(original) {
      value = link
    } else if trimmed.utf8.prefix(4).map({ $0 | 0x20 }).elementsEqual("geo:".utf8) {
      value = try CoordinateTextParser.geoURI(trimmed, fail: fail)
    } else if let iso = try CoordinateTextParser.iso6709(trimmed, fail: fail) {
      value = iso
    } else if let utm = try UTMReference.coordinate(trimmed, fail: fail) {
      value = utm
    } else if let grid = try CoordinateTextParser.gridCode(trimmed) {
      value = grid
    } else {
      value = try CoordinateTextParser.pair(trimmed, fail: fail)
    }
    // A number too long to hold (400 digits in a geo: URI) is infinite: ``init(parsing:)`` says it is
    // too large.
    return value
  }
}

/// The notations ``Coordinate/init(parsing:)`` understands, each read by one function.
enum CoordinateTextParser {
  /// Makes the error for text that cannot be read: `fail("'x' is not a number")`, with an example of
  /// what was meant where the reason has one.
  struct Failure {
    /// The text being read.
    var text: String

    func callAsFunction(_ reason: String, example: String? = nil) -> CoordinateError {
      .unparsable(text: text, reason: reason, example: example)
    }
  }

  // MARK: The common case

  /// Two plain decimal numbers separated by spaces or one comma (`56.0 8.5`, `-33.9,18.4`), read from
  /// the UTF-8 bytes without building anything; nil for any other text, which the full parser then reads.
  static func plainDecimalPair(_ text: String) -> (latitude: Double, longitude: Double)? {
    var text = text
    return text.withUTF8 { bytes -> (latitude: Double, longitude: Double)? in
      var position = 0
      func skipSpaces() {
        while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x09 { position += 1 }
      }
      func number() -> Double? {
        var negative = false
        if position < bytes.count, bytes[position] == 0x2B || bytes[position] == 0x2D {
          negative = bytes[position] == 0x2D
          position += 1
        }
        var value = 0.0
        var digits = 0
        while position < bytes.count, bytes[position] &- 0x30 < 10, digits < 15 {
          value = value * 10 + Double(bytes[position] &- 0x30)
          position += 1
          digits += 1
        }
        var scale = 1.0
        if position < bytes.count, bytes[position] == 0x2E {
          position += 1
          while position < bytes.count, bytes[position] &- 0x30 < 10, digits < 15 {
            value = value * 10 + Double(bytes[position] &- 0x30)
            scale *= 10
            position += 1
            digits += 1
          }
        }
        // More than 15 digits could round differently from a correctly rounded reading: leave those
        // to the full parser, as everything else.
        guard digits > 0, digits < 15 else { return nil }
        let magnitude = value / scale  // both exact below 10^15, so the quotient is correctly rounded
        return negative ? -magnitude : magnitude
      }
      skipSpaces()
      guard let latitude = number() else { return nil }
      let beforeSeparator = position
      skipSpaces()
      if position < bytes.count, bytes[position] == 0x2C {
        position += 1
        skipSpaces()
      } else if position == beforeSeparator {
        return nil
      }
      guard let longitude = number() else { return nil }
      skipSpaces()
      return position == bytes.count ? (latitude, longitude) : nil
    }
  }

  // MARK: Links, grid codes and the notations named but not read

  /// The coordinate of a map site's link (``MapLink``), nil for text that is no link.
  static func mapLink(_ text: String) throws(CoordinateError) -> (latitude: Double, longitude: Double)? {
    let target: MapLinkTarget?
    do {
      target = try MapLink.target(of: text)
    } catch {
      throw .unsupported(text: text, explanation: error.reason)
    }
    switch target {
    case nil: return nil
    case .coordinate(let latitude, let longitude)?: return (latitude, longitude)
    case .name(let name)?:
      throw .unsupported(
        text: text,
        explanation:
          "\(EchoedText.quoted(text)) names the place \(EchoedText.quoted(name)) but holds no coordinate; give the name instead: tunnel where \(EchoedText.quoted(name))"
      )
    }
  }

  /// The centre of a full plus code (`9F7GHG8C+XX`) or of a geohash (`u1zr2`, five characters or more,
  /// with a digit and a letter, so that no place name is read as one); nil for other text.
  ///
  /// - Throws: ``CoordinateError/unsupported(text:explanation:)`` for a short plus code without the place
  ///   it is near, and for notations Tunnel names but does not read.
  static func gridCode(_ text: String) throws(CoordinateError) -> (latitude: Double, longitude: Double)? {
    let code = Substring(text)
    if OpenLocationCode.isFull(code) { return OpenLocationCode.decodeCentre(code) }
    if OpenLocationCode.isShort(code) {
      throw .unsupported(
        text: text,
        explanation:
          "\(EchoedText.quoted(text)) is a short plus code, which needs the place it is near: write it with the place's name, as Google Maps shows it ('XG8C+XX Skjern'), or give the full code"
      )
    }
    if let explanation = namedNotation(text) { throw .unsupported(text: text, explanation: explanation) }
    let geohashCharacters = "0123456789bcdefghjkmnpqrstuvwxyz"
    if (5...12).contains(code.count), code.allSatisfy({ geohashCharacters.contains($0.lowercased()) }),
      code.contains(where: \.isASCIIDigit), code.contains(where: \.isLetter),
      let cell = Geohash.decodeCentre(code)
    {
      return (cell.latitude, cell.longitude)
    }
    return nil
  }

  /// The sentence for a grid reference Tunnel recognises but does not read (MGRS, the British National
  /// Grid, a Maidenhead locator), saying what to give instead; nil for other text.
  static func namedNotation(_ text: String) -> String? {
    let compact = Array(text.uppercased().filter { $0 != " " })
    func letters(_ range: Range<Int>, in allowed: String) -> Bool {
      range.upperBound <= compact.count && compact[range].allSatisfy { allowed.contains($0) }
    }
    func evenDigits(from start: Int) -> Bool {
      let rest = compact.count - start
      return rest >= 2 && rest <= 10 && rest % 2 == 0 && compact[start...].allSatisfy(\.isASCIIDigit)
    }
    let quoted = EchoedText.quoted(text)
    let gridLetters = "ABCDEFGHJKLMNPQRSTUVWXYZ"
    // MGRS: zone, band, two 100 km square letters, an even count of digits ("32UMG8830099200").
    let zoneDigits = compact.prefix(while: \.isASCIIDigit).count
    if (1...2).contains(zoneDigits), letters(zoneDigits..<(zoneDigits + 1), in: "CDEFGHJKLMNPQRSTUVWX"),
      letters((zoneDigits + 1)..<(zoneDigits + 3), in: gridLetters), evenDigits(from: zoneDigits + 3)
    {
      return
        "\(quoted) is an MGRS grid reference, which Tunnel does not read; give it as UTM (zone, band, easting and northing, as in '32U 488300 6199200') or as latitude and longitude"
    }
    // The British National Grid: two letters, an even count of digits ("TQ 30080 80620").
    if letters(0..<1, in: "HJNOST"), letters(1..<2, in: gridLetters), evenDigits(from: 2) {
      return
        "\(quoted) looks like a British National Grid reference, which Tunnel does not read; give the latitude and longitude (the Ordnance Survey's maps show both)"
    }
    // Maidenhead locators: two letters A–R, two digits, then optionally two letters A–X ("JO46", "JO46ax").
    if [4, 6].contains(compact.count), letters(0..<2, in: "ABCDEFGHIJKLMNOPQR"),
      compact[2].isASCIIDigit, compact[3].isASCIIDigit,
      compact.count == 4 || letters(4..<6, in: "ABCDEFGHIJKLMNOPQRSTUVWX")
    {
      return
        "\(quoted) looks like a Maidenhead locator, which Tunnel does not read; give the latitude and longitude of its square"
    }
    return nil
  }

  // MARK: Decimal commas

  /// Text written with decimal commas, as much of Europe writes numbers, rewritten with points: a
  /// semicolon between the two angles and commas only inside numbers (`56,55; 8,32`, `56° 33,5′ N; 8° 19,2′ E`),
  /// or a comma inside each of two numbers apart by spaces (`56,55 8,32`). Nil for other text, which keeps
  /// its commas as separators (`56,8` is 56 and 8).
  static func decimalCommas(_ text: String) -> String? {
    guard !text.contains(".") else { return nil }
    let characters = Array(text)
    func isDigit(_ index: Int) -> Bool {
      characters.indices.contains(index) && characters[index].isASCIIDigit
    }
    let inner = characters.indices.filter { characters[$0] == "," && isDigit($0 - 1) && isDigit($0 + 1) }
    let commas = characters.count { $0 == "," }
    let semicolons = characters.count { $0 == ";" }
    guard !inner.isEmpty, inner.count == commas else { return nil }
    switch semicolons {
    case 1: break
    case 0:
      let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\u{A0}" })
      guard inner.count == 2, words.allSatisfy({ $0.count { $0 == "," } <= 1 }) else { return nil }
    default: return nil
    }
    return String(characters.map { $0 == "," ? "." : $0 == ";" ? "," : $0 })
  }

  // MARK: geo: URIs

  /// `geo:lat,lon[,alt][;crs=wgs84][;u=…]` (RFC 5870). Other reference systems are refused.
  static func geoURI(
    _ text: String, fail: Failure
  ) throws(CoordinateError) -> (latitude: Double, longitude: Double) {
    let body = text.dropFirst(4)
    let parts = body.split(separator: ";", omittingEmptySubsequences: false)
    // RFC 5870: ";crs=…" first if at all, then ";u=…" (a distance in metres, not negative), then
    // other parameters, each a name of letters, digits and "-", with a value after "=" if any.
    var seen: [String] = []
    for parameter in parts.dropFirst() {
      let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
        $0.lowercased()
      }
      let name = pair[0]
      guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }),
        pair.count == 1 || !pair[1].isEmpty
      else {
        throw fail(
          "the geo: URI has a parameter \(EchoedText.quoted(";" + parameter)) that is not name=value")
      }
      switch name {
      case "crs":
        guard seen.isEmpty else { throw fail("in a geo: URI ';crs=' comes first") }
        if pair.count == 2, pair[1] != "wgs84" {
          throw fail(
            "the geo: URI names the reference system \(EchoedText.quoted(pair[1])); only wgs84 is supported")
        }
      case "u":
        guard !seen.contains("u"), seen.allSatisfy({ $0 == "crs" }) else {
          throw fail("in a geo: URI ';u=' comes once, right after the coordinates or ';crs='")
        }
        guard pair.count == 2, let uncertainty = Double(strict: pair[1]), uncertainty >= 0 else {
          throw fail(
            "the uncertainty \(EchoedText.quoted(";" + parameter)) of a geo: URI must be a distance in metres, 0 or more"
          )
        }
      default:
        break
      }
      seen.append(name)
    }
    let numbers = parts[0].split(separator: ",", omittingEmptySubsequences: false)
    guard numbers.count == 2 || numbers.count == 3 else {
      throw fail("a geo: URI holds latitude,longitude (and an optional altitude)", example: "e.g. geo:56,8.5")
    }
    guard let latitude = Double(strict: numbers[0]) else {
      throw fail("\(EchoedText.quoted(numbers[0])) is not a number")
    }
    guard let longitude = Double(strict: numbers[1]) else {
      throw fail("\(EchoedText.quoted(numbers[1])) is not a number")
    }
    if numbers.count == 3, Double(strict: numbers[2]) == nil {
      throw fail("the altitude \(EchoedText.quoted(numbers[2])) is not a number")
    }
    return (latitude, longitude)
  }

  // MARK: ISO 6709

  /// `±DD[MM[SS]][.f]±DDD[MM[SS]][.f][±alt][CRS…][/]`, or nil when the text does not have that shape.
  static func iso6709(
    _ text: String, fail: Failure
  ) throws(CoordinateError) -> (latitude: Double, longitude: Double)? {
    var scalars = Substring(text)
    guard let first = scalars.first, first == "+" || first == "-" else { return nil }
    if scalars.hasSuffix("/") { scalars = scalars.dropLast() }
    // Split into signed runs: +DDMM.m, +DDDMM.m, and possibly an altitude.
    var runs: [Substring] = []
    var start = scalars.startIndex
    for index in scalars.indices.dropFirst() where scalars[index] == "+" || scalars[index] == "-" {
      runs.append(scalars[start..<index])
      start = index
    }
    runs.append(scalars[start...])
    guard runs.count >= 2 else { return nil }
    // Anything but digits and one point in the two angle runs means this is not ISO 6709.
    for run in runs.prefix(2) where run.dropFirst().contains(where: { !($0.isASCIIDigit || $0 == ".") }) {
      return nil
    }
    if runs.count > 2 {
      let altitude = runs[2].prefix { $0.isASCIIDigit || $0 == "." || $0 == "+" || $0 == "-" }
      guard Double(strict: altitude) != nil else { return nil }
      // After the altitude only the reference system may follow ("+100CRSWGS_84/").
      let rest = runs[2].dropFirst(altitude.count)
      guard runs.count == 3, rest.isEmpty || rest.hasPrefix("CRS") else {
        throw fail(
          "an ISO 6709 coordinate holds a latitude, a longitude and at most an altitude",
          example: "as in +5633+00819+100/")
      }
    }
    let latitude = try isoAngle(runs[0], degreeDigits: 2, axis: "latitude", fail: fail)
    let longitude = try isoAngle(runs[1], degreeDigits: 3, axis: "longitude", fail: fail)
    return (latitude, longitude)
  }

  /// One signed ISO 6709 angle: the count of digits before the point says whether minutes and seconds
  /// are present; a fraction belongs to the last unit.
  private static func isoAngle(
    _ run: Substring, degreeDigits: Int, axis: String, fail: Failure
  ) throws(CoordinateError) -> Double {
    let negative = run.first == "-"
    let digits = run.dropFirst()
    let integer = digits.prefix { $0 != "." }
    let fraction = digits.dropFirst(integer.count)
    guard fraction.isEmpty || (fraction.count > 1 && !fraction.dropFirst().contains(".")) else {
      throw fail("the ISO 6709 \(axis) \(EchoedText.quoted(run)) has a misplaced decimal point")
    }
    let fractionValue = fraction.isEmpty ? 0 : Double("0" + fraction) ?? 0
    let value: Double
    switch integer.count {
    case degreeDigits:
      value = Double(integer)! + fractionValue
    case degreeDigits + 2:
      let minutes = Double(integer.suffix(2))! + fractionValue
      guard minutes < 60 else {
        throw fail("the ISO 6709 \(axis) \(EchoedText.quoted(run)) has \(minutes) minutes")
      }
      value = Double(integer.prefix(degreeDigits))! + minutes / 60
    case degreeDigits + 4:
      let minutes = Double(integer.dropFirst(degreeDigits).prefix(2))!
      let seconds = Double(integer.suffix(2))! + fractionValue
      guard minutes < 60, seconds < 60 else {
        throw fail("the ISO 6709 \(axis) \(EchoedText.quoted(run)) has minutes or seconds of 60 or more")
      }
      value = Double(integer.prefix(degreeDigits))! + minutes / 60 + seconds / 3600
    default:
      let expected = "\(degreeDigits), \(degreeDigits + 2) or \(degreeDigits + 4)"
      throw fail(
        "the ISO 6709 \(axis) \(EchoedText.quoted(run)) has \(integer.count) digits before the point; expected \(expected)"
      )
    }
    return negative ? -value : value
  }

  // MARK: Pairs of angles: decimal, hemisphere letters, degrees-minutes-seconds

  private enum Token: Equatable {
    case number(Double, text: Substring)
    case degree, minute, second
    case hemisphere(Character)
    case comma, space
  }

  private enum Unit: Int {
    case none, degree, minute, second
  }

  /// One angle as read: its parts, its sign and its hemisphere letter.
  private struct Angle {
    var degrees: Double?
    var degreesText: Substring = ""
    var minutes: Double?
    var seconds: Double?
    var last: Unit = .none
    var hemisphere: Character?
    var closed = false

    var isEmpty: Bool { degrees == nil && hemisphere == nil }
  }

  static func pair(
    _ text: String, fail: Failure
  ) throws(CoordinateError) -> (latitude: Double, longitude: Double) {
    let tokens = try tokenize(text, fail: fail)
    let prefixLetters: Bool = {
      if case .hemisphere = tokens.first(where: { $0 != .space }) { return true }
      return false
    }()
    // Text that starts and ends with a number ("33.9 E18.4") has its letters in the middle: there a
    // letter after a space belongs to the number right after it.
    let middleLetters: Bool = {
      guard !prefixLetters else { return false }
      if case .hemisphere = tokens.last(where: { $0 != .space }) { return false }
      return true
    }()
    // With a letter for each angle, before or after its numbers, the numbers between two letters are one
    // angle's: unmarked ones count on from the last unit ("56 33 00 N 8 19 00 E", the geocaching
    // "N 56° 33.000 E 008° 19.000").
    let grouped =
      !middleLetters
      && tokens.count(where: { if case .hemisphere = $0 { true } else { false } }) == 2

    var angles: [Angle] = []
    var current = Angle()
    func finish() {
      if !current.isEmpty { angles.append(current) }
      current = Angle()
    }
    var index = 0
    var closedByLetter = false  // the previous token ended an angle with its hemisphere letter
    while index < tokens.count {
      let token = tokens[index]
      index += 1
      defer {
        if token != .space {
          closedByLetter = !prefixLetters && { if case .hemisphere = token { true } else { false } }()
        }
      }
      switch token {
      case .space:
        continue
      case .comma:
        guard current.degrees != nil || (current.isEmpty && closedByLetter) else {
          throw fail(
            angles.isEmpty && current.isEmpty
              ? "it starts with a comma" : "a comma stands where a number belongs")
        }
        finish()
      case .hemisphere(let letter):
        if prefixLetters {
          if !current.isEmpty { finish() }
          current.hemisphere = letter
        } else {
          let spaced = index >= 2 && (tokens[index - 2] == .space || tokens[index - 2] == .comma)
          if middleLetters, spaced, index < tokens.count {
            if case .number = tokens[index] {
              // Glued to the number after it: that number's letter.
              if !current.isEmpty { finish() }
              current.hemisphere = letter
              continue
            }
            if current.degrees != nil, current.last == .none, tokens[index] == .space,
              case .number? = tokens[index...].first(where: { $0 != .space })
            {
              throw fail(
                "the letter '\(letter)' stands alone between two numbers; write it against the number it belongs to",
                example: "as in '33.9S 18.4E' or 'S33.9 E18.4'")
            }
          }
          guard current.degrees != nil, current.hemisphere == nil else {
            throw fail("the letter '\(letter)' does not follow a number")
          }
          current.hemisphere = letter
          finish()
        }
      case .number(let value, let numberText):
        let marker = tokens[index...].first { $0 != .space }
        let continues: Unit? = {
          // Grouped, bare degrees count as degrees: "56 33′ N".
          let last = grouped && current.last == .none ? .degree : current.last
          switch (last, marker) {
          case (.degree, .minute?): return .minute
          case (.minute, .second?): return .second
          case (.degree, .second?): return .second
          default: return nil
          }
        }()
        // Grouped, an unmarked number after degrees or minutes is the next unit.
        let unmarked: Unit? = {
          guard grouped, current.degrees != nil, continues == nil else { return nil }
          switch marker {
          case .minute?, .second?, .degree?: return nil
          default: break
          }
          if current.minutes == nil, current.seconds == nil, current.last != .second { return .minute }
          if current.seconds == nil, current.last == .minute { return .second }
          return nil
        }()
        if current.degrees != nil, let unit = continues ?? unmarked {
          if numberText.first == "-" || numberText.first == "+" {
            throw fail(
              "the \(unit == .minute ? "minutes" : "seconds") \(EchoedText.quoted(numberText)) carry a sign")
          }
          if unit == .minute { current.minutes = value } else { current.seconds = value }
          current.last = unit
          if continues != nil {
            // Skip to and past the marker.
            while tokens[index] == .space { index += 1 }
            index += 1
          }
        } else {
          if grouped, current.degrees != nil, prefixLetters || current.hemisphere == nil,
            marker != .degree
          {
            throw fail(
              "\(EchoedText.quoted(numberText)) is one number too many: an angle has degrees, minutes and seconds at most"
            )
          }
          if current.degrees != nil { finish() }
          current.degrees = value
          current.degreesText = numberText
          current.last = .none
          if let next = tokens[index...].firstIndex(where: { $0 != .space }) {
            switch tokens[next] {
            case .degree:
              current.last = .degree
              index = next + 1
            case .minute, .second:
              throw fail(
                "\(EchoedText.quoted(numberText)) is given as minutes or seconds without degrees before it")
            default: break
            }
          }
        }
      case .degree, .minute, .second:
        throw fail("a unit sign stands where a number belongs")
      }
    }
    finish()

    if let lonely = angles.first(where: { $0.degrees == nil }) {
      throw fail(
        "the letter \(EchoedText.quoted(lonely.hemisphere.map(String.init) ?? "")) is not followed by a number"
      )
    }
    guard angles.count == 2 else {
      if angles.count < 2 {
        throw fail(
          "it holds \(angles.count == 0 ? "no number" : "one angle"); expected a latitude and a longitude",
          example: "as in \(CoordinateError.examples)")
      }
      throw fail("it holds \(angles.count) angles; expected a latitude and a longitude")
    }
    let first = try value(of: angles[0], fail: fail)
    let second = try value(of: angles[1], fail: fail)
    let (latitude, longitude): (Double, Double)
    switch (first.axis, second.axis) {
    case (.latitude?, .latitude?), (.longitude?, .longitude?):
      throw fail("both angles are \(first.axis!.rawValue)s; one must be N/S and the other E/W")
    case (.longitude?, _), (_, .latitude?):
      (latitude, longitude) = (second.value, first.value)
    default:
      (latitude, longitude) = (first.value, second.value)
    }
    if first.axis == .longitude || second.axis == .longitude {
      try Coordinate.validateHemisphereLongitude(longitude)
    }
    return (latitude, longitude)
  }

  private static func value(
    of angle: Angle, fail: Failure
  ) throws(CoordinateError) -> (value: Double, axis: CoordinateError.Axis?) {
    guard var degrees = angle.degrees else {
      throw fail(
        "the letter \(EchoedText.quoted(angle.hemisphere.map(String.init) ?? "")) is not followed by a number"
      )
    }
    let signed = angle.degreesText.first == "-" || angle.degreesText.first == "+"
    if angle.minutes != nil || angle.seconds != nil {
      guard degrees == degrees.rounded() else {
        throw fail("\(EchoedText.quoted(angle.degreesText)) has a fraction and minutes or seconds too")
      }
    }
    if let minutes = angle.minutes {
      guard minutes < 60 else { throw fail("\(CoordinateError.number(minutes)) minutes is 60 or more") }
      if angle.seconds != nil, minutes != minutes.rounded() {
        throw fail("the minutes have a fraction and seconds follow them")
      }
    }
    if let seconds = angle.seconds, seconds >= 60 {
      throw fail("\(CoordinateError.number(seconds)) seconds is 60 or more")
    }
    let negative = angle.degreesText.first == "-"
    let magnitude = abs(degrees) + (angle.minutes ?? 0) / 60 + (angle.seconds ?? 0) / 3600
    degrees = negative ? -magnitude : magnitude
    guard let letter = angle.hemisphere else { return (degrees, nil) }
    if signed {
      throw fail(
        "\(EchoedText.quoted(angle.degreesText)) has both a sign and the hemisphere letter '\(letter)'")
    }
    switch letter {
    case "N": return (degrees, .latitude)
    case "S": return (-degrees, .latitude)
    case "E": return (degrees, .longitude)
    default: return (-degrees, .longitude)
    }
  }

  private static func tokenize(_ text: String, fail: Failure) throws(CoordinateError) -> [Token] {
    var tokens: [Token] = []
    let characters = Array(text)
    var index = 0
    while index < characters.count {
      let character = characters[index]
      switch character {
      case " ", "\t", "\n", "\r", "\u{A0}":
        if tokens.last != .space { tokens.append(.space) }
        index += 1
      case ",", ";":
        tokens.append(.comma)
        index += 1
      case "°", "º", "˚":
        tokens.append(.degree)
        index += 1
      case "'", "′", "’", "ʹ":
        if index + 1 < characters.count, characters[index + 1] == character,
          character == "'" || character == "′"
        {
          tokens.append(.second)  // two primes for seconds
          index += 2
        } else {
          tokens.append(.minute)
          index += 1
        }
      case "\"", "″", "”", "ʺ":
        tokens.append(.second)
        index += 1
      case _ where character.isLetter:
        var end = index + 1
        while end < characters.count, characters[end].isLetter { end += 1 }
        let word = String(characters[index..<end])
        guard word.count == 1, "NSEWnsew".contains(character) else {
          throw fail("\(EchoedText.quoted(word)) is not a number")
        }
        tokens.append(.hemisphere(Character(character.uppercased())))
        index = end
      case "+", "-", ".", "0"..."9":
        var end = index + 1
        while end < characters.count, characters[end].isASCIIDigit || characters[end] == "." {
          end += 1
        }
        // An exponent ("1e-7", "2.5E3") when it ends the number; "56.5E8.3" is 56.5 east, 8.3.
        if end < characters.count, characters[end] == "e" || characters[end] == "E" {
          var exponentEnd = end + 1
          if exponentEnd < characters.count, characters[exponentEnd] == "-" || characters[exponentEnd] == "+"
          {
            exponentEnd += 1
          }
          let digitsStart = exponentEnd
          while exponentEnd < characters.count, characters[exponentEnd].isASCIIDigit { exponentEnd += 1 }
          let ends =
            exponentEnd == characters.count
            || !(characters[exponentEnd].isLetter || characters[exponentEnd] == ".")
          if exponentEnd > digitsStart, ends { end = exponentEnd }
        }
        let numberText = Substring(String(characters[index..<end]))
        let mantissa = numberText.prefix { $0 != "e" && $0 != "E" }
        guard Double(strict: mantissa) != nil, let number = Double(String(numberText)) else {
          throw fail("\(EchoedText.quoted(numberText)) is not a number")
        }
        guard number.isFinite else {
          throw fail("\(EchoedText.quoted(numberText)) is too large to be an angle")
        }
        tokens.append(.number(number, text: numberText))
        index = end
      default:
        var end = index + 1
        while end < characters.count, !" ,;\t".contains(characters[end]) { end += 1 }
        let word = String(characters[index..<end])
        throw fail("\(EchoedText.quoted(word)) is not a number")
      }
    }
    return tokens
  }
}

extension Double {
  /// A plain decimal number — digits with an optional sign and point — and nothing else:
  /// no `inf`, `nan`, hexadecimal or exponent forms.
  init?<S: StringProtocol>(strict text: S) {
    var body = Substring(text)
    if body.first == "+" || body.first == "-" { body = body.dropFirst() }
    guard !body.isEmpty, body.contains(where: \.isASCIIDigit),
      body.allSatisfy({ $0.isASCIIDigit || $0 == "." }), body.filter({ $0 == "." }).count <= 1
    else { return nil }
    self.init(String(text))
  }
}

extension Character {
  /// 0 to 9: the only digits a coordinate is written with (`Character.isNumber` also holds for
  /// CJK ideographs such as 京, 万 and 三, and for other scripts' digits).
  var isASCIIDigit: Bool { isASCII && isNumber }
}
