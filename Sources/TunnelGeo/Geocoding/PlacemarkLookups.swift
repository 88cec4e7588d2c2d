/// The lookups a placemark is assembled from, each a question about one layer (see
/// ``ReverseGeocoder/placemark(for:)`` for the rules that combine them).
///
/// Two implementations give the same answers: ``LayerLookups`` searches the mapped layers directly (a
/// one-off query builds nothing), and ``BatchIndexes`` answers from its in-memory indexes (many queries,
/// fast). ``PlacemarkAssembly`` puts a placemark together from either.
protocol PlacemarkLookups {
  /// The layers the answers come from.
  var layers: PlacemarkLayers { get }

  // MARK: Places

  /// The nearest place to a unit vector and its squared chord; nil when there are no places.
  func nearestPlace(to vector: SIMD3<Double>) -> (index: Int, chordSquared: Double)?
  /// The nearest place of one country (its code as ``PlaceLayer`` stores it) with a squared chord below
  /// `limit`.
  func nearestPlace(ofCountry value: UInt16, to vector: SIMD3<Double>, within limit: Double) -> Int?

  // MARK: Polygons containing a point

  /// The highest GSHHG level among the high-resolution coastline features containing a point.
  func coastLevel(at coordinate: Coordinate) -> Int?
  /// The high-resolution coastline feature of the lake holding a point: the GSHHG lake (level 2) when it is
  /// the highest level there; nil on land, at sea, and on a pond on an island in a lake.
  func lakeFeature(containing coordinate: Coordinate) -> Int?
  /// The country feature containing a point: the first with an ISO alpha-2 code, else the first.
  func countryFeature(containing coordinate: Coordinate) -> Int?
  /// The country of a point's own (``PlacemarkAssembly/ownCountry(at:_:)``) where an index knows it for
  /// every point around (`.some(nil)` for none); nil where it is to be looked up.
  func settledCountry(at coordinate: Coordinate) -> Int??
  /// Asks the processor for what ``settledCountry(at:)`` reads for a point, ahead of it.
  func prefetchSettledCountry(at coordinate: Coordinate)
  /// Asks the processor for what the country of a point outside the settled cells reads first: at
  /// `listed` false the cells near the country borders and the small islands, at `listed` true (once
  /// those have come) the border cell's feature and where its leaves start.
  func prefetchCountryBorders(near coordinate: Coordinate, listed: Bool)
  /// Asks the processor for what the country of one point reads first, all of it known from the point
  /// alone: the top of the countries' and the time zones' grids and the cells near the country borders,
  /// so that their reads overlap instead of following one another.
  func prefetchCountry(at coordinate: Coordinate)
  /// The first region feature of a country (its code as ``PlaceLayer`` stores it) that contains a point.
  func regionFeature(containing coordinate: Coordinate, country: UInt16) -> Int?
  /// The first named marine feature containing a point.
  func seaFeature(containing coordinate: Coordinate) -> Int?
  /// The lake layer's water that GSHHG draws as sea holding a point (``LakeLayer/seaName(containing:)``).
  func lakeSeaFeature(containing coordinate: Coordinate) -> Int?
  /// The first time zone feature containing a point.
  func timeZoneFeature(containing coordinate: Coordinate) -> Int?
  /// Every time zone feature containing a point, in feature order.
  func timeZoneFeatures(containing coordinate: Coordinate) -> FeatureSet

  // MARK: Polygons containing many points
  //
  // Each writes what the lookup of one point gives for each of `coordinates`, at the same place in
  // `results`; an index may look them up together, faster than one at a time.

  /// ``coastLevel(at:)`` of each point.
  func coastLevels(
    at coordinates: UnsafeBufferPointer<Coordinate>, into results: UnsafeMutableBufferPointer<Int?>)
  /// ``countryFeature(containing:)-(Coordinate)`` of each point.
  func countryFeatures(
    containing coordinates: UnsafeBufferPointer<Coordinate>, into results: UnsafeMutableBufferPointer<Int?>)
  /// Every region feature holding each point, in feature order.
  func regionFeatures(
    containing coordinates: UnsafeBufferPointer<Coordinate>,
    into results: UnsafeMutableBufferPointer<FeatureSet>)
  /// ``regionFeature(containing:country:)`` of a point whose region features are `features`.
  func regionFeature(among features: borrowing FeatureSet, country: UInt16) -> Int?
  /// ``seaFeature(containing:)`` of each point.
  func seaFeatures(
    containing coordinates: UnsafeBufferPointer<Coordinate>, into results: UnsafeMutableBufferPointer<Int?>)
  /// ``timeZoneFeatures(containing:)-(Coordinate)`` of each point.
  func timeZoneFeatures(
    containing coordinates: UnsafeBufferPointer<Coordinate>,
    into results: UnsafeMutableBufferPointer<FeatureSet>)
  /// The first island feature containing a point.
  func islandFeature(containing coordinate: Coordinate) -> Int?

  // MARK: Nearest boundaries

  /// The country feature whose border (coastlines included) is nearest within `limit` radians.
  func countryBorder(nearestTo coordinate: Coordinate, _ vector: SIMD3<Double>, within limit: Double) -> Int?
  /// True where every country border is known to lie farther than `limit` radians (a cheap test before
  /// a search; false where it is not known).
  func countryBorders(fartherThan limit: Double, from coordinate: Coordinate, _ vector: SIMD3<Double>) -> Bool
  /// True where every country border within ``ReverseGeocoder/borderAccuracyKm`` of a coordinate is known
  /// to be of `feature` (a cheap test before a search; false where it is not known).
  func countryBorders(near coordinate: Coordinate, allOf feature: Int) -> Bool
  /// The country feature taken by `accept` whose border is nearest within `limit` radians.
  func countryBorder(
    nearestTo coordinate: Coordinate, _ vector: SIMD3<Double>, within limit: Double,
    where accept: (Int) -> Bool
  ) -> Int?
  /// The region feature of a country whose border is nearest within `limit` radians.
  func regionBorder(
    nearestTo coordinate: Coordinate, _ vector: SIMD3<Double>, within limit: Double, country: UInt16
  ) -> Int?
  /// The named marine feature whose border is nearest.
  func nearestSeaFeature(to coordinate: Coordinate, _ vector: SIMD3<Double>) -> Int?
  /// The nearest point of a shoreline: any shore from a lake, land or ice from the sea.
  func nearestShore(to coordinate: Coordinate, _ vector: SIMD3<Double>, inLake: Bool) -> BoundaryHit?
  /// The nearest point of the shore of an island of the high-resolution coastline (land or ice less than
  /// ``ReverseGeocoder/islandSpanDegrees`` across) within `limit` radians; nil when there is none that near.
  func nearestIsland(to coordinate: Coordinate, _ vector: SIMD3<Double>, within limit: Double) -> BoundaryHit?
  /// False where no island can be within ``ReverseGeocoder/coastalToleranceKm`` (a cheap test before the
  /// search; true where it is not known).
  func mayHaveIsland(near coordinate: Coordinate) -> Bool
  /// The island feature whose outline is nearest within `limit` radians.
  func islandOutline(nearestTo coordinate: Coordinate, _ vector: SIMD3<Double>, within limit: Double) -> Int?
  /// The angle in radians to the nearest edge of a layer's features (for regions, those of a country);
  /// nil for a layer without edges.
  func boundaryAngle(_ layer: BoundaryLayer, to coordinate: Coordinate, _ vector: SIMD3<Double>) -> Double?

  // MARK: Names

  /// A country feature as a placemark names it.
  func country(_ feature: Int) -> Placemark.Country
  /// The code of a country feature as ``PlaceLayer`` stores a place's; nil for a code of another length.
  func countryCodeValue(_ feature: Int) -> UInt16?
  /// A region of the place layer as a placemark names it.
  func region(_ index: Int) -> Placemark.Region?
  /// The place-layer region of a region feature; nil for a feature without an admin-1 code (see
  /// Data/README.md), where the nearest-place rule decides.
  func regionIndex(ofFeature feature: Int) -> Int?
  /// The identifier of a time zone feature.
  func timeZone(_ feature: Int) -> String
  /// The code of a time zone feature's country (``TimeZoneLayer/countryCode(_:)``).
  func zoneCountryCode(_ feature: Int) -> String?
  /// Whether some time zone is of the country of a country feature (``TimeZoneLayer/hasZone(ofCountry:)``
  /// of its code).
  func countryHasZone(_ feature: Int) -> Bool
  /// The name of an island feature.
  func island(_ feature: Int) -> String
  /// The name of a marine feature (nil for the unnamed).
  func sea(_ feature: Int) -> String?
  /// Whether ``region(_:)`` names the region at `index` of the place layer (a region without a name in the
  /// data is none), without making its name.
  func hasRegion(_ index: Int) -> Bool

  // MARK: Remembered shore points

  /// What was found for a shoreline point before, if it is remembered.
  func shoreDescription(of point: SIMD3<Double>) -> ShoreDescription?
  /// Remembers what was found for a shoreline point (or does nothing).
  func remember(_ description: ShoreDescription, of point: SIMD3<Double>)
}

extension PlacemarkLookups {
  // Lookups that read the layers themselves ask for nothing ahead.
  func prefetchSettledCountry(at coordinate: Coordinate) {}
  func prefetchCountryBorders(near coordinate: Coordinate, listed: Bool) {}
  func prefetchCountry(at coordinate: Coordinate) {}

  func coastLevels(
    at coordinates: UnsafeBufferPointer<Coordinate>, into results: UnsafeMutableBufferPointer<Int?>
  ) {
    for index in coordinates.indices { results[index] = coastLevel(at: coordinates[index]) }
  }

  func countryFeatures(
    containing coordinates: UnsafeBufferPointer<Coordinate>, into results: UnsafeMutableBufferPointer<Int?>
  ) {
    for index in coordinates.indices { results[index] = countryFeature(containing: coordinates[index]) }
  }

  func seaFeatures(
    containing coordinates: UnsafeBufferPointer<Coordinate>, into results: UnsafeMutableBufferPointer<Int?>
  ) {
    for index in coordinates.indices { results[index] = seaFeature(containing: coordinates[index]) }
  }

  func regionFeatures(
    containing coordinates: UnsafeBufferPointer<Coordinate>,
    into results: UnsafeMutableBufferPointer<FeatureSet>
  ) {
    let polygons = layers.regions.polygons
    for index in coordinates.indices {
      results[index] = FeatureSet(polygons.features(containing: coordinates[index]))
    }
  }

  func timeZoneFeatures(
    containing coordinates: UnsafeBufferPointer<Coordinate>,
    into results: UnsafeMutableBufferPointer<FeatureSet>
  ) {
    for index in coordinates.indices { results[index] = timeZoneFeatures(containing: coordinates[index]) }
  }
}

/// The layers whose nearest boundary a placemark measures (``Placemark/Boundaries``).
enum BoundaryLayer: Sendable {
  case countries, regions, subregions, timeZones
}

/// The rules that pick one feature among those containing a point, shared by both lookups.
enum FeatureChoice {
  /// The highest GSHHG level among coastline features (of the coastline's `polygons`); nil for none.
  static func highestLevel<Features: Sequence<Int>>(of features: Features, in polygons: PolygonLayer) -> Int?
  {
    var highest: Int? = nil
    for feature in features {
      let level = polygons.level(of: feature)
      if highest.map({ level > $0 }) ?? true { highest = level }
    }
    return highest
  }

  /// The lake (level 2) among coastline features (of the coastline's `polygons`) when it is the highest
  /// level; nil otherwise.
  static func lake<Features: Sequence<Int>>(of features: Features, in polygons: PolygonLayer) -> Int? {
    var highest: (feature: Int, level: Int)? = nil
    for feature in features {
      let level = polygons.level(of: feature)
      if highest.map({ level > $0.level }) ?? true { highest = (feature, level) }
    }
    return highest.flatMap { $0.level == CoastlineLevel.lake.rawValue ? $0.feature : nil }
  }

  /// The first of `features` that `accept` takes.
  static func first<Features: Sequence<Int>>(of features: Features, where accept: (Int) -> Bool) -> Int? {
    for feature in features where accept(feature) { return feature }
    return nil
  }

  /// The first country feature (of the countries' `polygons`) with an ISO alpha-2 code, else the first.
  static func country<Features: Sequence<Int>>(of features: Features, in polygons: PolygonLayer) -> Int? {
    var first: Int? = nil
    for feature in features {
      if polygons.hasAttribute(0, of: feature) { return feature }
      first = first ?? feature
    }
    return first
  }
}
