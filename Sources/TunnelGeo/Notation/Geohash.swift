/// Geohash: decoding a geohash to the centre of its cell, and encoding a location.
///
/// A geohash is up to twelve characters of the base-32 alphabet `0123456789bcdefghjkmnpqrstuvwxyz`
/// (read without regard to case), five bits each, most significant first. The bits alternate between
/// longitude and latitude, longitude first; each bit halves the remaining range of its axis (1 keeps the
/// upper half), starting from -180…180 and -90…90.
enum Geohash {
  /// The thirty-two characters, in order of their values 0…31.
  private static let alphabet: [UInt8] = Array("0123456789bcdefghjkmnpqrstuvwxyz".utf8)

  /// The value of each ASCII character (either case), or -1 if it is not in the alphabet.
  private static let characterValues: [Int] = {
    var values = [Int](repeating: -1, count: 128)
    for (value, character) in alphabet.enumerated() {
      values[Int(character)] = value
      if character >= UInt8(ascii: "a") && character <= UInt8(ascii: "z") {
        values[Int(character) - 32] = value
      }
    }
    return values
  }()

  /// The most characters read or written: 60 bits, 30 for each axis.
  private static let maximumLength = 12

  /// The centre of a geohash's cell and its half height and half width, in degrees; nil if invalid.
  ///
  /// The text must have 1…12 characters, all from the alphabet. Longitude takes the bits at even places
  /// (counting from 0) and latitude those at odd places, so n characters give ⌈5n/2⌉ longitude bits and
  /// ⌊5n/2⌋ latitude bits. With b bits forming the integer i, the cell's centre is
  /// -180 + (2i + 1) · 180 / 2ᵇ for longitude (-90 + (2i + 1) · 90 / 2ᵇ for latitude) and its error,
  /// half the cell, is 180 / 2ᵇ (90 / 2ᵇ). The products and quotients by powers of two are exact, so only
  /// the final addition rounds.
  static func decodeCentre(
    _ text: Substring
  ) -> (latitude: Double, longitude: Double, latitudeError: Double, longitudeError: Double)? {
    let bytes = Array(text.utf8)
    guard (1...maximumLength).contains(bytes.count) else { return nil }
    var latitudeBits = 0
    var longitudeBits = 0
    var latitudeIndex: Int64 = 0
    var longitudeIndex: Int64 = 0
    var isLongitude = true
    for byte in bytes {
      guard byte < 128 else { return nil }
      let value = characterValues[Int(byte)]
      guard value >= 0 else { return nil }
      for shift in stride(from: 4, through: 0, by: -1) {
        let bit = Int64((value >> shift) & 1)
        if isLongitude {
          longitudeIndex = longitudeIndex << 1 | bit
          longitudeBits += 1
        } else {
          latitudeIndex = latitudeIndex << 1 | bit
          latitudeBits += 1
        }
        isLongitude.toggle()
      }
    }
    let latitudeCells = Double(Int64(1) << latitudeBits)
    let longitudeCells = Double(Int64(1) << longitudeBits)
    return (
      latitude: -90 + Double(2 * latitudeIndex + 1) * 90 / latitudeCells,
      longitude: -180 + Double(2 * longitudeIndex + 1) * 180 / longitudeCells,
      latitudeError: 90 / latitudeCells,
      longitudeError: 180 / longitudeCells
    )
  }

  /// The geohash of the given length for a location, in lower case.
  ///
  /// The length is held to 1…12. The latitude is clipped to -90…90 and the longitude normalised into
  /// -180..<180; NaN and infinite longitudes are read as 0, NaN latitudes as 0. Each bit halves its axis'
  /// range at the midpoint and is 1 when the value is at or above it; the midpoints are exact binary
  /// fractions, so the comparisons are exact.
  static func encode(latitude: Double, longitude: Double, length: Int = 12) -> String {
    let count = min(max(length, 1), maximumLength)
    var latitudeRange = (low: -90.0, high: 90.0)
    var longitudeRange = (low: -180.0, high: 180.0)
    let latitudeValue = latitude.isNaN ? 0 : min(max(latitude, -90), 90)
    var longitudeValue = longitude.isFinite ? longitude.truncatingRemainder(dividingBy: 360) : 0
    if longitudeValue >= 180 { longitudeValue -= 360 } else if longitudeValue < -180 { longitudeValue += 360 }
    var isLongitude = true
    var characters: [UInt8] = []
    characters.reserveCapacity(count)
    for _ in 0..<count {
      var value = 0
      for _ in 0..<5 {
        let bit: Int
        if isLongitude {
          let middle = (longitudeRange.low + longitudeRange.high) / 2
          bit = longitudeValue >= middle ? 1 : 0
          if bit == 1 { longitudeRange.low = middle } else { longitudeRange.high = middle }
        } else {
          let middle = (latitudeRange.low + latitudeRange.high) / 2
          bit = latitudeValue >= middle ? 1 : 0
          if bit == 1 { latitudeRange.low = middle } else { latitudeRange.high = middle }
        }
        value = value << 1 | bit
        isLongitude.toggle()
      }
      characters.append(alphabet[value])
    }
    return String(decoding: characters, as: UTF8.self)
  }
}
