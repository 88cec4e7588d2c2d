/// The land, country, region, time zone and water of a point as the layers number them, before any name is
/// read: what a batch needs of each point for those fields (with ``PlacemarkSearch`` beside it for the
/// nearest land and the boundaries, and the nearest place found beside both).
///
/// A ``Placemark`` is a few hundred bytes of strings; building one per point, copying it into the chunk's
/// answers and dropping its strings afterwards was most of a `--fields timeZone` batch above the cost of
/// reading and writing its rows. A key holds numbers (but for the rare zone read whole), and the batch
/// writes each value's columns once (the country of each feature, the zone of each polygon) and copies
/// them into every row that has it. It stays small: the searches' numbers, held in it, made a batch of
/// countries a tenth slower.
/// ``ReverseGeocoder/placemark(of:search:)`` reads a key into the placemark the same point gives.
package struct PlacemarkKey: Sendable {
  /// Whether the point is on land; false when ``Placemark/Fields/land`` was not asked for.
  package var land: Bool
  /// The country's feature in the country layer; -1 for none, or when ``Placemark/Fields/country`` was
  /// not asked for.
  package var country: Int32
  /// The time zone; nil when ``Placemark/Fields/timeZone`` was not asked for.
  package var timeZone: Zone?
  /// The sea or lake (``Placemark/sea``, ``Placemark/lake``, ``Placemark/inLake``); nil when
  /// ``Placemark/Fields/sea`` was not asked for.
  package var water: Water?
  /// The region and the second-level region; nil when ``Placemark/Fields/region`` was not asked for.
  package var region: Region?

  package init(land: Bool, country: Int32, timeZone: Zone?, water: Water? = nil, region: Region? = nil) {
    self.land = land
    self.country = country
    self.timeZone = timeZone
    self.water = water
    self.region = region
  }

  /// The nearest shoreline point, how far it is, and the features and place that describe it.
  package struct Shore: Sendable, Equatable {
    package var distanceKm: Double
    package var latitude: Double
    package var longitude: Double
    package var description: ShoreDescription

    package init(distanceKm: Double, latitude: Double, longitude: Double, description: ShoreDescription) {
      (self.distanceKm, self.latitude, self.longitude) = (distanceKm, latitude, longitude)
      self.description = description
    }
  }

  /// A time zone as the layers number it.
  package enum Zone: Sendable {
    /// The one zone polygon that holds the point: its feature in the time zone layer.
    case polygon(Int32)
    /// The nautical zone of a point at sea that no polygon holds: its offset in hours east, -12…12
    /// (``ReverseGeocoder/oceanZone(hours:)``).
    case nautical(Int8)
    /// Any other answer, read whole: where polygons overlap, or the nearest place's zone on land.
    case read(Placemark.TimeZone)
  }

  /// Where a point is for the sea field: on land (no sea, no lake), at sea, or in a lake, each with the
  /// feature its name comes from.
  package enum Water: Sendable, Equatable {
    case land
    case sea(WaterName)
    case lake(WaterName)
  }

  /// A region as the place layer numbers it (``PlaceLayer/region(_:)``), with the rule that gave it, and
  /// the second-level region's feature (``SubregionLayer``).
  package struct Region: Sendable, Equatable {
    /// The region's index in the place layer; -1 for none.
    package var index: Int32
    package var source: Placemark.Region.Source
    /// The second-level region's feature; -1 for none.
    package var subregion: Int32

    package init(index: Int32, source: Placemark.Region.Source, subregion: Int32) {
      (self.index, self.source, self.subregion) = (index, source, subregion)
    }

    /// No region (and so no second-level region).
    package static let none = Region(index: -1, source: .polygon, subregion: -1)
  }

  /// The feature a sea's or a lake's name is read from, or none.
  package enum WaterName: Sendable, Equatable {
    case none
    /// A named marine polygon (``MarineLayer``).
    case marine(Int32)
    /// A named lake polygon (``LakeLayer``): a GSHHG lake's name, or water GSHHG draws as sea.
    case lake(Int32)
  }
}

/// What the searches of a point found for a batch, beside its key: how far each layer's nearest boundary
/// is, and its nearest land, numbers written for each row as they are.
package struct PlacemarkSearch: Sendable {
  /// Nil when ``Placemark/Fields/boundaries`` was not asked for.
  package var boundaries: Placemark.Boundaries?
  /// The nearest land of a point at sea or in a lake (``Placemark/nearestLand``); nil on land, or when
  /// ``Placemark/Fields/nearestLand`` was not asked for.
  package var shore: PlacemarkKey.Shore?

  package init(boundaries: Placemark.Boundaries? = nil, shore: PlacemarkKey.Shore? = nil) {
    (self.boundaries, self.shore) = (boundaries, shore)
  }
}

/// A point's key and its searches, side by side.
package struct SearchedKey: Sendable {
  package var key: PlacemarkKey
  package var search: PlacemarkSearch

  package init(key: PlacemarkKey, search: PlacemarkSearch) {
    (self.key, self.search) = (key, search)
  }

  /// Where the key of the searched key at `element` lies.
  package static func key(at element: UnsafeRawPointer) -> UnsafePointer<PlacemarkKey> {
    (element + keyOffset).assumingMemoryBound(to: PlacemarkKey.self)
  }

  /// The search beside a key that lies in a searched key (``key(at:)``): a batch's rows hold only their
  /// key's address, the same whether the keys were searched or not.
  package static func search(besideKeyAt key: UnsafePointer<PlacemarkKey>) -> UnsafePointer<PlacemarkSearch> {
    (UnsafeRawPointer(key) - keyOffset + searchOffset).assumingMemoryBound(to: PlacemarkSearch.self)
  }

  private static let keyOffset = MemoryLayout<SearchedKey>.offset(of: \SearchedKey.key)!
  private static let searchOffset = MemoryLayout<SearchedKey>.offset(of: \SearchedKey.search)!
}

extension ReverseGeocoder {
  /// The placemark a key and its search stand for: its land, country, region, time zone, water and nearest
  /// land named, its boundaries' distances, the nearest place empty (as ``Placemark/Fields`` describes),
  /// and no coordinate.
  package func placemark(
    of key: PlacemarkKey, search: PlacemarkSearch = PlacemarkSearch()
  ) throws(PlaceDataError) -> Placemark {
    try placemarks(of: [key], searches: [search])[0]
  }

  /// ``placemark(of:search:)`` of each key (with the search at the same place in `searches`, if given), the
  /// layers' lookups made once for them all (a batch names every region and second-level region it can
  /// meet).
  package func placemarks(
    of keys: [PlacemarkKey], searches: [PlacemarkSearch]? = nil
  ) throws(PlaceDataError) -> [Placemark] {
    precondition(searches.map { $0.count == keys.count } ?? true, "a search for each key")
    let assembly = PlacemarkAssembly(lookups: LayerLookups(layers: try placemarkLayers()))
    return keys.indices.map { assembly.placemark(of: keys[$0], search: searches?[$0] ?? PlacemarkSearch()) }
  }

  /// How many features the country, time zone, marine and lake layers have, how many regions the place
  /// layer, how many features the second-level regions' layer and how many the island layer: the values of
  /// ``PlacemarkKey/country``, of ``PlacemarkKey/Zone/polygon(_:)``, of the two kinds of
  /// ``PlacemarkKey/WaterName``, of ``PlacemarkKey/Region``'s two numbers and of a shore's island.
  package func keyFeatureCounts() throws(PlaceDataError) -> (
    countries: Int, timeZones: Int, seas: Int, lakes: Int, regions: Int, subregions: Int, islands: Int
  ) {
    let layers = try placemarkLayers()
    return (
      layers.countries.polygons.featureCount, layers.zones.polygons.featureCount,
      layers.marine.polygons.featureCount, layers.lakes.polygons.featureCount, layers.places.regionCount,
      layers.subregions.polygons.featureCount, layers.islands.polygons.featureCount
    )
  }
}

/// What a batch's keys are made as: ``PlacemarkKey``, or ``SearchedKey`` when searches are asked for.
protocol KeyedOutput: Sendable {
  /// Whether the points are answered in spatial order (``SpatialOrder``).
  static var isSpatiallyOrdered: Bool { get }
  /// ``PlacemarkAssembly/keys(for:fields:into:made:)`` into this type.
  static func keys<Lookups>(
    of coordinates: UnsafeBufferPointer<Coordinate>, by assembly: PlacemarkAssembly<Lookups>,
    fields: Placemark.Fields, into output: UnsafeMutablePointer<Self>, made: inout Int
  ) throws(PlaceDataError)
}

extension PlacemarkKey: KeyedOutput {
  static var isSpatiallyOrdered: Bool { false }

  static func keys<Lookups>(
    of coordinates: UnsafeBufferPointer<Coordinate>, by assembly: PlacemarkAssembly<Lookups>,
    fields: Placemark.Fields, into output: UnsafeMutablePointer<Self>, made: inout Int
  ) throws(PlaceDataError) {
    try assembly.keys(for: coordinates, fields: fields, into: output, made: &made)
  }
}

extension SearchedKey: KeyedOutput {
  static var isSpatiallyOrdered: Bool { true }

  static func keys<Lookups>(
    of coordinates: UnsafeBufferPointer<Coordinate>, by assembly: PlacemarkAssembly<Lookups>,
    fields: Placemark.Fields, into output: UnsafeMutablePointer<Self>, made: inout Int
  ) throws(PlaceDataError) {
    try assembly.keys(for: coordinates, fields: fields, into: output, made: &made)
  }
}
