/// A Universal Transverse Mercator grid reference as people write it: the zone with its latitude band,
/// then the easting and the northing in metres (`32U 488300 6199200`, `32 U 488300mE 6199200mN`), or the
/// zone with N or S for the hemisphere (`32N 488300 6199200`). PROJ turns it into a coordinate.
enum UTMReference {
  /// The latitude bands from 80° S, 8° each (X, the last, is 12°).
  static let bands = Array("CDEFGHJKLMNPQRSTUVWX")

  /// The coordinate `text` gives, nil when the text does not have the shape of a UTM reference.
  ///
  /// - Throws: ``CoordinateError/unparsable(text:reason:example:)`` for a reference of the right shape that
  ///   names no zone or band, lies outside the grid, or lands outside the band it names.
  static func coordinate(
    _ text: String, fail: CoordinateTextParser.Failure
  ) throws(CoordinateError) -> (latitude: Double, longitude: Double)? {
    var words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }).map(String.init)
    // "32 U 488300 6199200": the band apart from the zone.
    if words.count == 4, words[1].count == 1, words[1].first!.isLetter, words[0].allSatisfy(\.isASCIIDigit) {
      words = [words[0] + words[1]] + words[2...]
    }
    guard words.count == 3, let letter = words[0].last, letter.isLetter,
      case let zoneText = words[0].dropLast(), (1...2).contains(zoneText.count),
      zoneText.allSatisfy(\.isASCIIDigit), let zone = Int(zoneText)
    else { return nil }
    func metres(_ word: String, _ suffixes: [String]) -> Double? {
      var body = Substring(word)
      for suffix in suffixes where body.lowercased().hasSuffix(suffix) {
        body = body.dropLast(suffix.count)
        break
      }
      guard !body.isEmpty, body.allSatisfy({ $0.isASCIIDigit || $0 == "." }) else { return nil }
      return Double(strict: body)
    }
    guard let easting = metres(words[1], ["me", "e"]), let northing = metres(words[2], ["mn", "n"]) else {
      return nil
    }
    let band = Character(letter.uppercased())
    guard (1...60).contains(zone) else {
      throw fail("UTM zone \(zone) does not exist: the zones are 1 to 60")
    }
    guard bands.contains(band) else {
      throw fail(
        "'\(letter)' is not a UTM latitude band: the bands are C to X without I and O (or N and S for the hemisphere)"
      )
    }
    guard (100_000...900_000).contains(easting) else {
      throw fail(
        "the easting \(CoordinateError.number(easting)) m lies outside a UTM zone (100,000 to 900,000 m)")
    }
    guard northing <= 10_000_000 else {
      throw fail("the northing \(CoordinateError.number(northing)) m is more than 10,000,000 m")
    }
    func unproject(south: Bool) throws(CoordinateError) -> (latitude: Double, longitude: Double)? {
      let projection: Projection
      do {
        projection = try Projection.utm(zone: zone, south: south, in: try ProjectionContext())
      } catch {
        throw fail("reading UTM needs PROJ, which failed: \(error)")
      }
      return projection.unproject(x: easting, y: northing).map { ($0.latitude, $0.longitude) }
    }
    // Band letters from N on are northern; S is also read as "south" when band S (32°–40° N) does not
    // hold the point.
    let northern = band >= "N"
    guard let found = try unproject(south: !northern) else {
      throw fail("the UTM reference lies outside the zone's grid")
    }
    if fits(found.latitude, band: band) || band == "N" { return found }
    if band == "S", let southern = try unproject(south: true), southern.latitude < 0 { return southern }
    let low = -80 + 8 * Double(bands.firstIndex(of: band)!)
    throw fail(
      "the reference lands at latitude \(String(format: found.latitude)), outside band \(band) (\(Self.describe(low))–\(Self.describe(band == "X" ? 84 : low + 8)))"
    )
  }

  /// Whether `latitude` lies in `band`, with half a degree to spare for references on a band's edge.
  static func fits(_ latitude: Double, band: Character) -> Bool {
    guard let index = bands.firstIndex(of: band) else { return false }
    let low = -80 + 8 * Double(index)
    let high = band == "X" ? 84 : low + 8
    return latitude >= low - 0.5 && latitude <= high + 0.5
  }

  private static func describe(_ latitude: Double) -> String {
    latitude < 0 ? "\(CoordinateError.number(-latitude))° S" : "\(CoordinateError.number(latitude))° N"
  }
}

extension String {
  /// `latitude` with two decimals, for messages.
  fileprivate init(format latitude: Double) {
    let hundredths = (latitude * 100).rounded()
    self = String(hundredths / 100)
  }
}
