import TunnelGeo

/// One answer of the geocoding dialects (Nominatim's and Photon's): a thing with a name and a position, and
/// the areas it lies in. Made from a `Placemark` (a reverse query) or a gazetteer place (a search).
public struct GeocodedPlace: Sendable, Equatable {
  /// What the thing is, in OpenStreetMap's terms (`place=town`, `place=ocean`, `boundary=administrative`).
  public enum Kind: String, Sendable, CaseIterable {
    case city, town, village, hamlet
    /// A first-level region (a state, province, Danish region…).
    case state
    case country
    case ocean, sea
    /// A lake or other inland water.
    case water

    /// OpenStreetMap's key for the kind: `place`, `boundary` or `natural`.
    public var osmKey: String {
      switch self {
      case .city, .town, .village, .hamlet, .ocean, .sea: "place"
      case .state, .country: "boundary"
      case .water: "natural"
      }
    }

    /// OpenStreetMap's value under ``osmKey``: `town`, `administrative`, `water`…
    public var osmValue: String {
      switch self {
      case .state, .country: "administrative"
      default: rawValue
      }
    }

    /// Nominatim's address rank (`place_rank`) for the kind.
    public var placeRank: Int {
      switch self {
      case .ocean, .sea: 2
      case .country: 4
      case .state: 8
      case .city: 16
      case .town: 18
      case .village: 19
      case .hamlet: 20
      case .water: 22
      }
    }

    /// Nominatim's address rank for the kind (`address_rank`): where it stands in an address. Towns and
    /// villages rank with cities (16); seas, oceans and inland water are in no address (0).
    public var addressRank: Int {
      switch self {
      case .city, .town, .village: 16
      case .hamlet: 20
      case .state: 8
      case .country: 4
      case .ocean, .sea, .water: 0
      }
    }

    /// Whether the kind is a populated place: a city, town, village or hamlet.
    public var isSettlement: Bool {
      switch self {
      case .city, .town, .village, .hamlet: true
      default: false
      }
    }

    /// The kind of a populated place with `population` people, as OpenStreetMap's guidelines draw the lines.
    public static func settlement(population: Int) -> Kind {
      switch population {
      case 100_000...: .city
      case 10_000...: .town
      case 200...: .village
      default: .hamlet
      }
    }
  }

  /// A box, in degrees.
  public struct Box: Sendable, Equatable {
    public var south: Double
    public var north: Double
    public var west: Double
    public var east: Double

    public init(south: Double, north: Double, west: Double, east: Double) {
      self.south = south
      self.north = north
      self.west = west
      self.east = east
    }
  }

  public var kind: Kind
  /// The thing's own name.
  public var name: String
  /// Where the thing is (a place's point; for an area, the point asked about).
  public var latitude: Double
  public var longitude: Double
  /// The area the thing covers, roughly.
  public var boundingBox: Box
  /// The settlement when the thing is one (its name), for the address's `city`/`town`/`village`/`hamlet`.
  public var settlement: String?
  /// The first-level region: its name and ISO 3166-2 code (`Midtjylland`, `DK-82`).
  public var regionName: String?
  public var regionCode: String?
  /// The second-level region where the data has one: a US county, a French département (`Yvelines`,
  /// `FR-78`; the counties have no ISO code).
  public var subregionName: String?
  public var subregionCode: String?
  /// The country: its name and ISO 3166-1 alpha-2 code in upper case.
  public var countryName: String?
  public var countryCode: String?
  /// The sea or ocean's name when the thing is at sea.
  public var seaName: String?
  /// A stable number for the thing within this data (a GeoNames id for places).
  public var id: Int
  /// People living there, when known.
  public var population: Int?
  /// 0…1: how prominent the thing is (Nominatim's `importance`).
  public var importance: Double
  /// The words that name the thing when they are not its parts joined: a reverse answer's are the headline
  /// `tunnel where` prints ("South Pacific Ocean, 949.2 km from Antipodes Island (New Zealand)").
  public var displayText: String?

  public init(
    kind: Kind, name: String, latitude: Double, longitude: Double, boundingBox: Box,
    settlement: String? = nil,
    regionName: String? = nil, regionCode: String? = nil, subregionName: String? = nil,
    subregionCode: String? = nil, countryName: String? = nil, countryCode: String? = nil,
    seaName: String? = nil, id: Int, population: Int? = nil, importance: Double
  ) {
    self.kind = kind
    self.name = name
    self.latitude = latitude
    self.longitude = longitude
    self.boundingBox = boundingBox
    self.settlement = settlement
    self.regionName = regionName
    self.regionCode = regionCode
    self.subregionName = subregionName
    self.subregionCode = subregionCode
    self.countryName = countryName
    self.countryCode = countryCode
    self.seaName = seaName
    self.id = id
    self.population = population
    self.importance = importance
  }

  /// The thing and the areas it lies in, smallest first: `Skjern, Midtjylland, Denmark`; ``displayText``
  /// when there is one.
  public var displayName: String {
    if let displayText { return displayText }
    var parts = [name]
    for part in [settlement, regionName, countryName, kind == .ocean || kind == .sea ? nil : seaName] {
      if let part, !part.isEmpty, !parts.contains(part) { parts.append(part) }
    }
    return parts.joined(separator: ", ")
  }
}
