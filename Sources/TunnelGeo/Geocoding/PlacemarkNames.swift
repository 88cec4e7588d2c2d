/// The names a placemark quotes (countries, regions, seas, time zones, islands), decoded once for the
/// batch indexes: a few thousand short strings, where decoding them from the mapped layers again for
/// every point took a tenth of a placemark's time.
///
/// The static functions are the rules; a one-off query applies them to the one feature it needs.
struct PlacemarkNames: Sendable {
  /// Per country feature.
  let countries: [Placemark.Country]
  /// Per country feature: its code as ``PlaceLayer`` stores a place's (see ``countryCodeValue(_:)``).
  let countryCodeValues: [UInt16?]
  /// Per region of the place layer.
  let regions: [Placemark.Region?]
  /// Per marine feature (nil for the unnamed).
  let seas: [String?]
  /// Per time zone feature.
  let zones: [String]
  /// Per island feature.
  let islands: [String]

  init(
    places: PlaceLayer, countries: CountryLayer, marine: MarineLayer, zones: TimeZoneLayer,
    islands: IslandLayer
  ) {
    self.countries = (0..<countries.polygons.featureCount).map { Self.country(countries, $0) }
    countryCodeValues = self.countries.map(Self.countryCodeValue)
    regions = (0..<places.regionCount).map { Self.region(places, $0) }
    seas = (0..<marine.polygons.featureCount).map(marine.name)
    self.zones = (0..<zones.polygons.featureCount).map(zones.identifier)
    self.islands = (0..<islands.polygons.featureCount).map(islands.name)
  }

  /// A country feature as a placemark names it: its ISO alpha-2 code (Natural Earth's own code where it
  /// has none) and its long name.
  static func country(_ countries: CountryLayer, _ feature: Int) -> Placemark.Country {
    let country = countries.country(feature)
    return Placemark.Country(code: country.isoAlpha2 ?? country.naturalEarthCode, name: country.name)
  }

  /// The two ASCII bytes of a two-letter country code as one number, as ``PlaceLayer`` stores a place's
  /// (first byte low); nil for a code of another length.
  static func countryCodeValue(_ country: Placemark.Country) -> UInt16? {
    var bytes = country.code.utf8.makeIterator()
    guard let first = bytes.next(), let second = bytes.next(), bytes.next() == nil else { return nil }
    return UInt16(first) | UInt16(second) << 8
  }

  /// A region as a placemark names it: its ISO 3166-2 code (else `country.admin1`) and name; nil when the
  /// data has no name for it.
  static func region(_ places: PlaceLayer, _ index: Int) -> Placemark.Region? {
    let found = places.region(index)
    guard !found.name.isEmpty else { return nil }
    return Placemark.Region(code: found.isoCode ?? "\(found.countryCode).\(found.code)", name: found.name)
  }
}
