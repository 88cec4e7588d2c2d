/// Open Location Code ("plus codes"): checking, decoding, encoding and recovering short codes.
///
/// The rules are those of the published Open Location Code specification. A code is a string of
/// digits from the alphabet `23456789CFGHJMPQRVWX` (read without regard to case), with a `+` after
/// the eighth digit of a full code. The first ten digits come in pairs, latitude then longitude, each
/// pair dividing the cell before it into 20 × 20; every digit after the tenth divides the cell into
/// 5 rows of latitude by 4 columns of longitude. A full code shorter than eight digits fills the places
/// up to the `+` with the padding character `0`. A short code has two, four, six or eight of its
/// leading digits removed and is read relative to a nearby reference location.
///
/// All arithmetic is on integers: latitudes in units of 1/2.5e7 degree, longitudes in units of
/// 1/8.192e6 degree (the size of a fifteen-digit cell), counted from -90 and -180. Degrees are formed
/// only at the end, by one division, so that decoded values do not drift.
enum OpenLocationCode {
  /// The twenty digits, in order of their values 0…19.
  private static let alphabet: [UInt8] = Array("23456789CFGHJMPQRVWX".utf8)

  /// The value of each ASCII character as a digit, upper or lower case, or -1 if it is not a digit.
  private static let digitValues: [Int] = {
    var values = [Int](repeating: -1, count: 128)
    for (value, character) in alphabet.enumerated() {
      values[Int(character)] = value
      if character >= UInt8(ascii: "A") && character <= UInt8(ascii: "Z") {
        values[Int(character) + 32] = value
      }
    }
    return values
  }()

  /// The format separator, `+`.
  private static let separator = UInt8(ascii: "+")

  /// The padding character, `0`.
  private static let padding = UInt8(ascii: "0")

  /// The number of digits before the separator in a full code.
  private static let separatorPosition = 8

  /// The number of digits given in latitude and longitude pairs; the digits after them each name a grid cell.
  private static let pairDigitCount = 10

  /// The most digits that carry meaning; any further digits must be valid but are ignored.
  private static let maximumDigitCount = 15

  /// Latitude units in one degree: 8000 · 5⁵ = 2.5e7, so that a fifteen-digit cell is one unit high.
  private static let latitudeUnits = 25_000_000

  /// Longitude units in one degree: 8000 · 4⁵ = 8.192e6, so that a fifteen-digit cell is one unit wide.
  private static let longitudeUnits = 8_192_000

  /// A code that has passed the checks, with its digit values and the place of its separator.
  private struct Parsed {
    /// The values of the digits, padding and separator left out, in order.
    var digits: [Int]
    /// The number of characters before the `+`.
    var separatorIndex: Int
  }

  // MARK: - Validity

  /// Whether the text is a valid full code.
  ///
  /// A full code is a valid code with its `+` after the eighth character, whose first digit gives a
  /// latitude below 90 (value at most 8) and whose second digit a longitude below 180 (value at most 17).
  static func isFull(_ code: Substring) -> Bool {
    guard let parsed = parse(code), parsed.separatorIndex == separatorPosition else { return false }
    return parsed.digits[0] * 20 < 180 && parsed.digits[1] * 20 < 360
  }

  /// Whether the text is a valid short code.
  ///
  /// A short code is a valid code with fewer than eight characters, an even number, before its `+`,
  /// and no padding.
  static func isShort(_ code: Substring) -> Bool {
    guard let parsed = parse(code) else { return false }
    return parsed.separatorIndex < separatorPosition
  }

  /// The digit values of a valid code (full or short), or nil if the text breaks any rule of validity.
  ///
  /// The rules: every character is a digit (either case), the single `+`, or the padding `0`. The `+`
  /// comes after an even number of characters, at most eight, and is not the only character. Exactly
  /// one digit after the `+` is not allowed. Padding appears only in a code with eight characters before
  /// the `+`, as one run of two, four or six `0`s directly before the `+`, with nothing after the `+`.
  private static func parse(_ code: Substring) -> Parsed? {
    let bytes = Array(code.utf8)
    guard bytes.count > 1, let separatorIndex = bytes.firstIndex(of: separator) else { return nil }
    guard separatorIndex <= separatorPosition, separatorIndex % 2 == 0 else { return nil }
    let afterSeparator = bytes.count - separatorIndex - 1
    guard afterSeparator != 1 else { return nil }
    var paddingStart = separatorIndex
    while paddingStart > 0 && bytes[paddingStart - 1] == padding { paddingStart -= 1 }
    let paddingCount = separatorIndex - paddingStart
    if paddingCount > 0 {
      guard separatorIndex == separatorPosition, paddingStart >= 2, paddingCount % 2 == 0, afterSeparator == 0
      else { return nil }
    }
    var digits: [Int] = []
    digits.reserveCapacity(bytes.count)
    for (index, byte) in bytes.enumerated() where index != separatorIndex {
      if index >= paddingStart && index < separatorIndex { continue }
      guard byte < 128 else { return nil }
      let value = digitValues[Int(byte)]
      guard value >= 0 else { return nil }
      digits.append(value)
    }
    return Parsed(digits: digits, separatorIndex: separatorIndex)
  }

  // MARK: - Cells in integer units

  /// The height and width, in units, of the cell named by the first `digitCount` digits of a full code.
  ///
  /// Pairs divide by 20 each way: with no digits the cell is 400° × 400° (a notional parent of the first
  /// pair), with two 20° × 20°, with ten 1/8000°. Each digit after the tenth divides the height by 5
  /// and the width by 4. An odd count below ten has one more latitude digit than longitude digits.
  private static func cellSize(digitCount: Int) -> (height: Int, width: Int) {
    if digitCount >= pairDigitCount {
      let gridDigits = min(digitCount, maximumDigitCount) - pairDigitCount
      return (latitudeUnits / 8_000 / power(5, gridDigits), longitudeUnits / 8_000 / power(4, gridDigits))
    }
    let latitudeDigits = (digitCount + 1) / 2
    let longitudeDigits = digitCount / 2
    return (
      400 * latitudeUnits / power(20, latitudeDigits), 400 * longitudeUnits / power(20, longitudeDigits)
    )
  }

  /// The small non-negative integer power `base` to the `exponent`.
  private static func power(_ base: Int, _ exponent: Int) -> Int {
    var result = 1
    for _ in 0..<max(exponent, 0) { result *= base }
    return result
  }

  /// The south-west offset and size, in units, of the cell named by digits placed from `firstPosition` on.
  ///
  /// The digit at position p (counted from 0 in the full code) adds its value times the size of the cell
  /// of p + 1 digits: to the latitude at even positions below ten, to the longitude at odd ones, and from
  /// the tenth on its row (value / 4) to the latitude and its column (value % 4) to the longitude.
  /// Digits past the fifteenth position are ignored. The size returned is that of the last digit's cell.
  private static func cell(
    of digits: [Int], firstPosition: Int
  ) -> (latitude: Int, longitude: Int, height: Int, width: Int) {
    var latitude = 0
    var longitude = 0
    let end = min(firstPosition + digits.count, maximumDigitCount)
    var position = firstPosition
    while position < end {
      let value = digits[position - firstPosition]
      let size = cellSize(digitCount: position + 1)
      if position >= pairDigitCount {
        latitude += (value / 4) * size.height
        longitude += (value % 4) * size.width
      } else if position % 2 == 0 {
        latitude += value * size.height
      } else {
        longitude += value * size.width
      }
      position += 1
    }
    let size = cellSize(digitCount: max(end, firstPosition))
    return (latitude, longitude, size.height, size.width)
  }

  // MARK: - Decoding

  /// The area of a full code in degrees, or nil if the text is not a valid full code.
  ///
  /// South and west are the corner the code names; north and east add the cell's size. North is at most
  /// 90. `digitCount` is the number of digits that carry meaning (at most 15).
  static func decodeArea(
    _ code: Substring
  ) -> (south: Double, west: Double, north: Double, east: Double, digitCount: Int)? {
    guard isFull(code), let parsed = parse(code) else { return nil }
    let found = cell(of: parsed.digits, firstPosition: 0)
    let south = found.latitude - 90 * latitudeUnits
    let west = found.longitude - 180 * longitudeUnits
    return (
      south: Double(south) / Double(latitudeUnits),
      west: Double(west) / Double(longitudeUnits),
      north: min(Double(south + found.height) / Double(latitudeUnits), 90),
      east: Double(west + found.width) / Double(longitudeUnits),
      digitCount: min(parsed.digits.count, maximumDigitCount)
    )
  }

  /// The centre of a full code's area in degrees, or nil if the text is not a valid full code.
  ///
  /// The centre is half a cell north and east of the south-west corner, computed in half units so that
  /// it is exact before the one division into degrees. The latitude is clipped to at most 90 and the
  /// longitude normalised into -180..<180.
  static func decodeCentre(_ code: Substring) -> (latitude: Double, longitude: Double)? {
    guard isFull(code), let parsed = parse(code) else { return nil }
    let found = cell(of: parsed.digits, firstPosition: 0)
    return degrees(
      doubledLatitude: 2 * found.latitude + found.height - 180 * latitudeUnits,
      doubledLongitude: 2 * found.longitude + found.width - 360 * longitudeUnits)
  }

  /// Degrees from a latitude and longitude in half units measured from 0° (the doubled unit values).
  ///
  /// The latitude is clipped to -90…90 and the longitude normalised into -180..<180.
  private static func degrees(
    doubledLatitude: Int, doubledLongitude: Int
  ) -> (latitude: Double, longitude: Double) {
    let fullTurn = 720 * longitudeUnits
    var longitude = (doubledLongitude + 360 * longitudeUnits) % fullTurn
    if longitude < 0 { longitude += fullTurn }
    longitude -= 360 * longitudeUnits
    let latitude = Double(doubledLatitude) / Double(2 * latitudeUnits)
    return (min(max(latitude, -90), 90), Double(longitude) / Double(2 * longitudeUnits))
  }

  // MARK: - Encoding

  /// The latitude in units from -90, clipped to 0..<180°, per the specification's conversion.
  ///
  /// The degrees are multiplied by 2.5e7 and floored (not rounded), then moved up by 90°; the pole itself
  /// becomes the last unit below it. NaN is read as 0.
  private static func latitudeInUnits(_ degrees: Double) -> Int {
    let clipped = degrees.isNaN ? 0 : min(max(degrees, -90), 90)
    let units = Int((clipped * Double(latitudeUnits)).rounded(.down)) + 90 * latitudeUnits
    return min(units, 180 * latitudeUnits - 1)
  }

  /// The longitude in units from -180, normalised into 0..<360°, per the specification's conversion.
  ///
  /// The degrees are multiplied by 8.192e6 and floored (not rounded), moved up by 180° and taken modulo
  /// 360°. A value too large for that product to be held exactly is first reduced modulo 360 (exactly);
  /// NaN and infinities are read as 0.
  private static func longitudeInUnits(_ degrees: Double) -> Int {
    var value = degrees.isFinite ? degrees : 0
    if abs(value) >= 1e9 { value = value.truncatingRemainder(dividingBy: 360) }
    let fullTurn = 360 * longitudeUnits
    var units = (Int((value * Double(longitudeUnits)).rounded(.down)) + 180 * longitudeUnits) % fullTurn
    if units < 0 { units += fullTurn }
    return units
  }

  /// The full code of the given length for a location, in upper case.
  ///
  /// The latitude is clipped to -90…90 and the longitude normalised; both are turned into units as the
  /// specification prescribes. The length is held to 2…15 digits, and an odd length below 10 is raised
  /// to the next even one. Each digit is the quotient of the remaining units by the size of its cell. Codes
  /// of eight digits or fewer end in `+`, padded with `0` before it up to the eighth place.
  static func encode(latitude: Double, longitude: Double, length: Int = 10) -> String {
    var digitCount = min(max(length, 2), maximumDigitCount)
    if digitCount < pairDigitCount && digitCount % 2 == 1 { digitCount += 1 }
    var latitudeRest = latitudeInUnits(latitude)
    var longitudeRest = longitudeInUnits(longitude)
    var characters: [UInt8] = []
    characters.reserveCapacity(maximumDigitCount + 1)
    for position in 0..<digitCount {
      if position == separatorPosition { characters.append(separator) }
      let size = cellSize(digitCount: position + 1)
      let value: Int
      if position >= pairDigitCount {
        let row = latitudeRest / size.height
        let column = longitudeRest / size.width
        latitudeRest -= row * size.height
        longitudeRest -= column * size.width
        value = row * 4 + column
      } else if position % 2 == 0 {
        value = latitudeRest / size.height
        latitudeRest -= value * size.height
      } else {
        value = longitudeRest / size.width
        longitudeRest -= value * size.width
      }
      characters.append(alphabet[value])
    }
    if digitCount <= separatorPosition {
      characters += [UInt8](repeating: padding, count: separatorPosition - digitCount)
      characters.append(separator)
    }
    return String(decoding: characters, as: UTF8.self)
  }

  // MARK: - Short codes

  /// The centre of the full code nearest a reference location that a short code stands for.
  ///
  /// A short code with n characters before its `+` lacks 8 − n leading digits, which name a cell whose
  /// size r is 20° for two missing digits, 1° for four, 1/20° for six and 1/400° for eight. The missing
  /// digits are first taken from the reference location (latitude clipped, longitude normalised, both
  /// in units as for encoding). If the centre so found lies more than r/2 north of the reference, it
  /// moves one cell south, unless that would take it below -90; if more than r/2 south, one cell north,
  /// unless that would take it above 90. Longitude moves the same way, with no limit, and is normalised
  /// afterwards. A valid full code gives its own centre. Returns nil for any other text and for a
  /// reference that is not finite.
  static func recoverNearest(
    _ shortCode: Substring, referenceLatitude: Double, referenceLongitude: Double
  ) -> (latitude: Double, longitude: Double)? {
    guard referenceLatitude.isFinite, referenceLongitude.isFinite else { return nil }
    if isFull(shortCode) { return decodeCentre(shortCode) }
    guard let parsed = parse(shortCode), parsed.separatorIndex < separatorPosition else { return nil }
    let missing = separatorPosition - parsed.separatorIndex
    let resolution = cellSize(digitCount: missing)
    let referenceLatitudeUnits = latitudeInUnits(referenceLatitude)
    let referenceLongitudeUnits = longitudeInUnits(referenceLongitude)
    let found = cell(of: parsed.digits, firstPosition: missing)
    let south = referenceLatitudeUnits - referenceLatitudeUnits % resolution.height + found.latitude
    let west = referenceLongitudeUnits - referenceLongitudeUnits % resolution.width + found.longitude
    // Centres and the reference in half units from 0°, so that half a cell is a whole number.
    var latitude = 2 * south + found.height - 180 * latitudeUnits
    var longitude = 2 * west + found.width - 360 * longitudeUnits
    let clippedReference = min(max(referenceLatitude, -90), 90)
    let doubledReferenceLatitude = clippedReference * Double(2 * latitudeUnits)
    let doubledReferenceLongitude = normalisedLongitude(referenceLongitude) * Double(2 * longitudeUnits)
    let latitudeStep = 2 * resolution.height
    let longitudeStep = 2 * resolution.width
    if doubledReferenceLatitude < Double(latitude - resolution.height)
      && latitude - latitudeStep >= -180 * latitudeUnits
    {
      latitude -= latitudeStep
    } else if doubledReferenceLatitude > Double(latitude + resolution.height)
      && latitude + latitudeStep <= 180 * latitudeUnits
    {
      latitude += latitudeStep
    }
    if doubledReferenceLongitude < Double(longitude - resolution.width) {
      longitude -= longitudeStep
    } else if doubledReferenceLongitude > Double(longitude + resolution.width) {
      longitude += longitudeStep
    }
    return degrees(doubledLatitude: latitude, doubledLongitude: longitude)
  }

  /// A finite longitude normalised into -180..<180 degrees, exactly.
  ///
  /// The remainder modulo 360 is exact in floating point, and so is one further step of 360 from there.
  private static func normalisedLongitude(_ degrees: Double) -> Double {
    var value = degrees.truncatingRemainder(dividingBy: 360)
    if value >= 180 { value -= 360 } else if value < -180 { value += 360 }
    return value
  }
}
