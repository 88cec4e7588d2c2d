/// The names a placemark quotes (countries, regions, seas, time zones, islands), decoded once for the
/// batch indexes: a few thousand short strings, where decoding them from the mapped layers again for
/// every point took a tenth of a placemark's time.
///
/// The static functions are the rules; a one-off query applies them to the one feature it needs.
final class PlacemarkNames: Sendable {
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
  /// Per time zone feature: its country's code (``TimeZoneLayer/countryCode(_:)``).
  let zoneCountryCodes: [String?]
  /// Per country feature: whether some time zone is of its country
  /// (``TimeZoneLayer/hasZone(ofCountry:)``).
  let countryHasZone: [Bool]
  /// Per island feature.
  let islands: [String]
  /// Per region feature: its region in the place layer (nil without one).
  let regionFeatureRegions: [Int?]
  /// Per region feature: its country's code as ``PlaceLayer`` stores a place's.
  let regionFeatureCountries: [UInt16?]

  init(_ layers: PlacemarkLayers) {
    let countries = (0..<layers.countries.polygons.featureCount).map { Self.country(layers.countries, $0) }
    self.countries = countries
    countryCodeValues = countries.map(Self.countryCodeValue)
    regions = (0..<layers.places.regionCount).map { Self.region(layers.places, $0) }
    seas = (0..<layers.marine.polygons.featureCount).map(layers.marine.name)
    zones = (0..<layers.zones.polygons.featureCount).map(layers.zones.identifier)
    let zoneCountryCodes = (0..<layers.zones.polygons.featureCount).map(layers.zones.countryCode)
    self.zoneCountryCodes = zoneCountryCodes
    let zoneCountries = Set(zoneCountryCodes.compactMap { $0 })
    countryHasZone = countries.map { zoneCountries.contains($0.code) }
    islands = (0..<layers.islands.polygons.featureCount).map(layers.islands.name)
    regionFeatureRegions = layers.regions.placeRegions(in: layers.places)
    regionFeatureCountries = (0..<layers.regions.polygons.featureCount).map {
      Self.countryCodeValue(layers.regions.countryCode($0))
    }
  }

  /// A country feature as a placemark names it: its ISO alpha-2 code (Natural Earth's own code where it
  /// has none) and its long name.
  static func country(_ countries: CountryLayer, _ feature: Int) -> Placemark.Country {
    let country = countries.country(feature)
    return Placemark.Country(
      code: country.isoAlpha2 ?? country.naturalEarthCode, name: country.name, disputed: country.dispute)
  }

  /// The two ASCII bytes of a two-letter country code as one number, as ``PlaceLayer`` stores a place's
  /// (first byte low); nil for a code of another length.
  static func countryCodeValue(_ country: Placemark.Country) -> UInt16? {
    countryCodeValue(country.code)
  }

  /// The two ASCII bytes of a two-letter code as one number (first byte low); nil for another length.
  static func countryCodeValue(_ code: String?) -> UInt16? {
    guard let code else { return nil }
    var bytes = code.utf8.makeIterator()
    guard let first = bytes.next(), let second = bytes.next(), bytes.next() == nil else { return nil }
    return UInt16(first) | UInt16(second) << 8
  }

  /// A region as a placemark names it: its ISO 3166-2 code (nil where it has none) and name; nil when the
  /// data has no name for it.
  static func region(_ places: PlaceLayer, _ index: Int) -> Placemark.Region? {
    let found = places.region(index)
    guard !found.name.isEmpty else { return nil }
    return Placemark.Region(code: found.isoCode, name: found.name)
  }
}

/// The layers a placemark reads, opened together once per geocoder.
final class PlacemarkLayers: Sendable {
  let places: PlaceLayer
  /// The high-resolution coastline.
  let coast: CoastlineLayer
  let countries: CountryLayer
  let marine: MarineLayer
  let zones: TimeZoneLayer
  let islands: IslandLayer
  let regions: RegionLayer
  let lakes: LakeLayer
  let subregions: SubregionLayer

  init(data: PlaceData) throws(PlaceDataError) {
    places = try data.places()
    coast = try data.coastline(.high)
    countries = try data.countries()
    marine = try data.marine()
    zones = try data.timeZones()
    islands = try data.islands()
    regions = try data.regions()
    lakes = try data.lakes()
    subregions = try data.subregions()
  }
}
