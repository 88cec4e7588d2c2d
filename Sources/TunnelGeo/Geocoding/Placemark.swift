/// What ``ReverseGeocoder`` says about a point: land or sea, country, region, sea, nearest place, nearest
/// land and time zone.
///
/// The stored properties are the structured answer (and the JSON keys, through `Codable`); the
/// CLPlacemark-style names (``name``, ``locality``, ``administrativeArea``, ``isoCountryCode``, ``ocean``,
/// ``inlandWater``) are derived from them. Absent values encode as JSON `null`, never as missing keys.
///
/// ```swift
/// let here = try geocoder.placemark(for: Coordinate(latitude: 56, longitude: 8.5))
/// here.land  // true
/// here.country  // DK, Denmark
/// here.region  // DK-82, Midtjylland
/// here.nearestPlace.name  // Skjern
/// here.timeZone.identifier  // Europe/Copenhagen
/// ```
public struct Placemark: Sendable, Hashable, Codable {
  /// A country: ISO 3166-1 alpha-2 code and English name.
  public struct Country: Sendable, Hashable, Codable {
    /// ISO 3166-1 alpha-2 ("DK"); Natural Earth's own three-letter code for the few areas without one.
    public var code: String
    /// The English name ("Denmark").
    public var name: String
    /// Where Natural Earth marks the area as disputed (its type is Disputed or Indeterminate, or its note
    /// names a claim), what it says, in its words: "Admin. By U.K.; Claimed by Spain" (Gibraltar), "Self
    /// admin.; Claimed by Morocco" (Western Sahara), "Disputed" (Kosovo); nil elsewhere. The borders are
    /// Natural Earth's German point of view (Data/README.md).
    public var disputed: String?

    /// Creates a country.
    public init(code: String, name: String, disputed: String? = nil) {
      self.code = code
      self.name = name
      self.disputed = disputed
    }

    private enum CodingKeys: String, CodingKey {
      case code, name, disputed
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(code, forKey: .code)
      try container.encode(name, forKey: .name)
      try container.encode(disputed, forKey: .disputed)
    }
  }

  /// A first-level region: ISO 3166-2 code and name, and the rule that gave it.
  public struct Region: Sendable, Hashable, Codable {
    /// ISO 3166-2 ("DK-82"); nil where the region has no ISO 3166-2 code in the data (Central Serbia,
    /// the Isle of Man's parishes), when ``name`` is the name the source gives it.
    public var code: String?
    /// The name ("Midtjylland").
    public var name: String
    /// Which rule gave the region.
    public var source: Source

    /// The rules that give a region (see ``ReverseGeocoder/placemark(for:)-90ewk``).
    public enum Source: String, Sendable, Hashable, Codable {
      /// The region polygon containing the point, or whose shore is within the coastal tolerance.
      case polygon
      /// The region of the nearest populated place in the same country, where no polygon answers.
      case nearestPlace
    }

    /// Creates a region.
    public init(code: String?, name: String, source: Source = .polygon) {
      self.code = code
      self.name = name
      self.source = source
    }
  }

  /// The nearest coastline seen from a point in the water.
  public struct NearestLand: Sendable, Hashable, Codable {
    /// Great-circle distance in kilometres (sphere of mean radius) to the nearest point of the shoreline.
    public var distanceKm: Double
    /// Latitude of that shoreline point.
    public var latitude: Double
    /// Longitude of that shoreline point.
    public var longitude: Double
    /// The country the shoreline belongs to (see ``ReverseGeocoder`` for the rule), if any.
    public var country: Country?
    /// A name for the land: the populated place nearest to the shoreline point when one lies within
    /// ``ReverseGeocoder/landNameRadiusKm`` of it in the same country, else the named island it lies on
    /// (``island``); nil when neither is known.
    public var name: String?
    /// The named island the shoreline point lies on ("Antipodes Island"), if the data names one; nil on
    /// continents and unnamed islands.
    public var island: String?

    /// Creates a result.
    public init(
      distanceKm: Double, latitude: Double, longitude: Double, country: Country?, name: String?,
      island: String? = nil
    ) {
      self.distanceKm = distanceKm
      self.latitude = latitude
      self.longitude = longitude
      self.country = country
      self.name = name
      self.island = island
    }

    private enum CodingKeys: String, CodingKey {
      case distanceKm, latitude, longitude, country, name, island
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(distanceKm, forKey: .distanceKm)
      try container.encode(latitude, forKey: .latitude)
      try container.encode(longitude, forKey: .longitude)
      try container.encode(country, forKey: .country)
      try container.encode(name, forKey: .name)
      try container.encode(island, forKey: .island)
    }
  }

  /// How far the point is from the nearest boundary line of each layer an answer comes from: within that
  /// distance the polygon that gives the answer is the same, so a position error smaller than it cannot
  /// change it (see ``ReverseGeocoder/placemark(for:)-90ewk`` for the rules near a border).
  ///
  /// Kilometres along the sphere of mean radius, to the nearest point of the layer's edges, each taken
  /// as the great-circle arc between its vertices. A country's boundary includes its coastline.
  public struct Boundaries: Sendable, Hashable, Codable {
    /// To the nearest border or coastline of the countries layer.
    public var country: Double?
    /// To the nearest edge of the regions layer; nil where the point has no region, or its region comes
    /// from the nearest place (``Placemark/Region/Source/nearestPlace``) rather than a polygon.
    public var region: Double?
    /// To the nearest edge of the second-level regions layer; nil where the point has no
    /// ``Placemark/subregion``. Those polygons are coarser than the others: within 2 km of their edges
    /// more than one answer in ten is a neighbour's, beyond it about one in 500 (see Data/README.md).
    public var subregion: Double?
    /// To the nearest edge of the time zones layer, or at sea outside every zone to the meridian where
    /// the nautical zone changes, whichever is nearer.
    public var timeZone: Double?

    /// Creates the distances.
    public init(country: Double?, region: Double?, subregion: Double? = nil, timeZone: Double?) {
      self.country = country
      self.region = region
      self.subregion = subregion
      self.timeZone = timeZone
    }

    private enum CodingKeys: String, CodingKey {
      case country, region, subregion, timeZone
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(country, forKey: .country)
      try container.encode(region, forKey: .region)
      try container.encode(subregion, forKey: .subregion)
      try container.encode(timeZone, forKey: .timeZone)
    }
  }

  /// An IANA time zone, and any other zones that claim the point.
  public struct TimeZone: Sendable, Hashable, Codable {
    /// The identifier ("Europe/Copenhagen", "Etc/GMT+11").
    public var identifier: String
    /// The other zones whose polygons hold the point too, in the layer's order; empty almost everywhere.
    /// The source's zones overlap where two zones are in use in one place: all of Xinjiang is both
    /// `Asia/Shanghai` (Beijing time, the official one, given as ``identifier``) and `Asia/Urumqi`.
    public var others: [String]

    /// Creates a time zone.
    public init(identifier: String, others: [String] = []) {
      self.identifier = identifier
      self.others = others
    }

    private enum CodingKeys: String, CodingKey {
      case identifier, others
    }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      identifier = try container.decode(String.self, forKey: .identifier)
      others = try container.decodeIfPresent([String].self, forKey: .others) ?? []
    }
  }

  /// Degrees north of the point described.
  public var latitude: Double
  /// Degrees east of the point described.
  public var longitude: Double
  /// Whether the point is on land by the high-resolution coastline (Antarctic ice counts as land).
  public var land: Bool
  /// The country, by its polygon or the coastal tolerance; nil far out at sea.
  public var country: Country?
  /// The first-level region: the region polygon of the point's country containing it (or within the
  /// coastal tolerance), else that of the nearest populated place in the same country.
  public var region: Region?
  /// The second-level region (a county of the United States, a département of France) where the data
  /// divides the country (``SubregionLayer``): its ISO 3166-2 code where it has one, and its name; nil
  /// elsewhere. It is always a division of ``region``.
  public var subregion: Region?
  /// The ocean or sea by name when the point is at sea; nil on land and in lakes.
  public var sea: String?
  /// The lake's name when the point is in a lake that a source names ("Lake Superior", "Caspian Sea"; see
  /// ``LakeLayer``); nil elsewhere and for the many small lakes no source names.
  public var lake: String?
  /// Whether the point is in a lake (or a pond on an island in one), by the coastline layer.
  public var inLake: Bool
  /// The nearest populated place.
  public var nearestPlace: NearestPlace
  /// The nearest shoreline when the point is in the water (sea or lake); nil on land.
  public var nearestLand: NearestLand?
  /// The IANA time zone; ocean points get `Etc/GMT±N`.
  public var timeZone: TimeZone
  /// How far the nearest boundary of each layer is; nil when not asked for (``Fields/boundaries``).
  public var boundaryKm: Boundaries?

  /// Creates a placemark.
  public init(
    latitude: Double, longitude: Double, land: Bool, country: Country?, region: Region?,
    subregion: Region? = nil, sea: String?, lake: String?, inLake: Bool, nearestPlace: NearestPlace,
    nearestLand: NearestLand?, timeZone: TimeZone, boundaryKm: Boundaries? = nil
  ) {
    self.latitude = latitude
    self.longitude = longitude
    self.land = land
    self.country = country
    self.region = region
    self.subregion = subregion
    self.sea = sea
    self.lake = lake
    self.inLake = inLake
    self.nearestPlace = nearestPlace
    self.nearestLand = nearestLand
    self.timeZone = timeZone
    self.boundaryKm = boundaryKm
  }

  private enum CodingKeys: String, CodingKey {
    case latitude, longitude, land, country, region, subregion, sea, lake, inLake, nearestPlace, nearestLand,
      timeZone, boundaryKm
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(latitude, forKey: .latitude)
    try container.encode(longitude, forKey: .longitude)
    try container.encode(land, forKey: .land)
    try container.encode(country, forKey: .country)
    try container.encode(region, forKey: .region)
    try container.encode(subregion, forKey: .subregion)
    try container.encode(sea, forKey: .sea)
    try container.encode(lake, forKey: .lake)
    try container.encode(inLake, forKey: .inLake)
    try container.encode(nearestPlace, forKey: .nearestPlace)
    try container.encode(nearestLand, forKey: .nearestLand)
    try container.encode(timeZone, forKey: .timeZone)
    try container.encode(boundaryKm, forKey: .boundaryKm)
  }

  // MARK: CLPlacemark names

  /// The point's name, as CLPlacemark's `name`: the locality on land, else the lake or sea, else the
  /// country.
  public var name: String? { locality ?? inlandWater ?? ocean ?? country?.name }

  /// The city, as CLPlacemark's `locality`: the nearest place when the point is on land, in the same
  /// country and within ``ReverseGeocoder/localityRadiusKm`` of it.
  public var locality: String? {
    guard land, nearestPlace.distanceKm <= ReverseGeocoder.localityRadiusKm,
      country.map({ $0.code == nearestPlace.countryCode }) ?? true
    else { return nil }
    return nearestPlace.name
  }

  /// The first-level region's name, as CLPlacemark's `administrativeArea`.
  public var administrativeArea: String? { region?.name }

  /// The second-level region's name, as CLPlacemark's `subAdministrativeArea` ("Denver County").
  public var subAdministrativeArea: String? { subregion?.name }

  /// ISO 3166-1 alpha-2 code, as CLPlacemark's `isoCountryCode`.
  public var isoCountryCode: String? { country?.code }

  /// The ocean or sea, as CLPlacemark's `ocean`.
  public var ocean: String? { sea }

  /// Whether ``sea`` is an ocean or a smaller sea; nil where there is no sea.
  public var seaKind: MarineKind? { sea.map(MarineKind.init(featureNamed:)) }

  /// The lake, as CLPlacemark's `inlandWater`: its name when a source names it, "Lake" otherwise.
  public var inlandWater: String? { inLake ? (lake ?? "Lake") : nil }
}
