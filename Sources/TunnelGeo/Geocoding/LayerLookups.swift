/// The lookups of a one-off placemark: the mapped layers searched directly, by their ring and chunk
/// boxes and the place layer's k-d tree, building nothing (a few milliseconds a placemark).
struct LayerLookups: PlacemarkLookups, Sendable {
  let layers: PlacemarkLayers
  private let search: NearestPlaceSearch<MappedPlaceVectors>

  init(layers: PlacemarkLayers) {
    self.layers = layers
    search = NearestPlaceSearch(places: layers.places, vectors: MappedPlaceVectors(places: layers.places))
  }

  func nearestPlace(to vector: SIMD3<Double>) -> (index: Int, chordSquared: Double)? {
    search.nearest(to: vector)
  }

  func nearestPlace(ofCountry value: UInt16, to vector: SIMD3<Double>, within limit: Double) -> Int? {
    search.nearest(to: vector, within: limit) { search.places.countryCodeValue(at: $0) == value }?.index
  }

  func coastLevel(at coordinate: Coordinate) -> Int? {
    FeatureChoice.highestLevel(
      of: layers.coast.polygons.features(containing: coordinate), in: layers.coast.polygons)
  }

  func lakeFeature(containing coordinate: Coordinate) -> Int? {
    FeatureChoice.lake(of: layers.coast.polygons.features(containing: coordinate), in: layers.coast.polygons)
  }

  /// Nothing is known ahead: every point is looked up.
  func settledCountry(at coordinate: Coordinate) -> Int?? { nil }

  func countryFeature(containing coordinate: Coordinate) -> Int? {
    FeatureChoice.country(
      of: layers.countries.polygons.features(containing: coordinate), in: layers.countries.polygons)
  }

  func regionFeature(containing coordinate: Coordinate, country: UInt16) -> Int? {
    FeatureChoice.first(of: layers.regions.polygons.features(containing: coordinate)) {
      isRegion($0, of: country)
    }
  }

  func regionFeature(among features: borrowing FeatureSet, country: UInt16) -> Int? {
    features.withMembers { FeatureChoice.first(of: $0.lazy.map { Int($0) }) { isRegion($0, of: country) } }
  }

  func lakeSeaFeature(containing coordinate: Coordinate) -> Int? {
    layers.lakes.seaFeature(containing: coordinate)
  }

  func seaFeature(containing coordinate: Coordinate) -> Int? {
    let marine = layers.marine
    return FeatureChoice.first(of: marine.polygons.features(containing: coordinate)) {
      marine.name($0) != nil
    }
  }

  func timeZoneFeature(containing coordinate: Coordinate) -> Int? {
    layers.zones.polygons.features(containing: coordinate).first
  }

  func timeZoneFeatures(containing coordinate: Coordinate) -> FeatureSet {
    FeatureSet(layers.zones.polygons.features(containing: coordinate))
  }

  func islandFeature(containing coordinate: Coordinate) -> Int? {
    layers.islands.polygons.features(containing: coordinate).first
  }

  func countryBorder(nearestTo coordinate: Coordinate, _ vector: SIMD3<Double>, within limit: Double) -> Int?
  {
    countryBorder(nearestTo: coordinate, vector, within: limit) { _ in true }
  }

  func countryBorder(
    nearestTo coordinate: Coordinate, _ vector: SIMD3<Double>, within limit: Double,
    where accept: (Int) -> Bool
  ) -> Int? {
    NearestBoundarySearch(layer: layers.countries.polygons, coordinate: coordinate).nearest(
      within: limit, accept: accept)?.feature
  }

  func regionBorder(
    nearestTo coordinate: Coordinate, _ vector: SIMD3<Double>, within limit: Double, country: UInt16
  ) -> Int? {
    NearestBoundarySearch(layer: layers.regions.polygons, coordinate: coordinate).nearest(within: limit) {
      isRegion($0, of: country)
    }?.feature
  }

  /// Whether a region feature is of a country.
  private func isRegion(_ feature: Int, of country: UInt16) -> Bool {
    PlacemarkNames.countryCodeValue(layers.regions.countryCode(feature)) == country
  }

  func regionIndex(ofFeature feature: Int) -> Int? {
    layers.regions.placeRegion(of: feature, in: layers.places)
  }

  func nearestSeaFeature(to coordinate: Coordinate, _ vector: SIMD3<Double>) -> Int? {
    let marine = layers.marine
    return NearestBoundarySearch(layer: marine.polygons, coordinate: coordinate).nearestAtAnyDistance {
      marine.name($0) != nil
    }?.feature
  }

  func nearestShore(to coordinate: Coordinate, _ vector: SIMD3<Double>, inLake: Bool) -> BoundaryHit? {
    let coast = layers.coast.polygons
    return NearestBoundarySearch(layer: coast, coordinate: coordinate).nearestAtAnyDistance { feature in
      inLake || coast.level(of: feature) % 2 == 1
    }
  }

  func mayHaveIsland(near coordinate: Coordinate) -> Bool { true }

  func countryBorders(fartherThan limit: Double, from coordinate: Coordinate, _ vector: SIMD3<Double>) -> Bool
  { false }

  func countryBorders(near coordinate: Coordinate, allOf feature: Int) -> Bool { false }

  func nearestIsland(to coordinate: Coordinate, _ vector: SIMD3<Double>, within limit: Double) -> BoundaryHit?
  {
    let coast = layers.coast.polygons
    return NearestBoundarySearch(layer: coast, coordinate: coordinate).nearest(within: limit) { feature in
      Self.isSmallIsland(feature, of: coast)
    }
  }

  /// Whether a feature of the coastline is land or ice (an odd level) less than
  /// ``ReverseGeocoder/islandSpanDegrees`` across: the islands ``nearestIsland(to:_:within:)`` looks for.
  static func isSmallIsland(_ feature: Int, of coast: PolygonLayer) -> Bool {
    guard coast.level(of: feature) % 2 == 1 else { return false }
    let span = Int32(ReverseGeocoder.islandSpanDegrees * Double(coast.unitsPerDegree))
    // One ring a feature: its box is the island's.
    let box = coast.ringBox(coast.rings(of: feature).lowerBound)
    return box.maxLatitude - box.minLatitude < span && box.maxLongitude - box.minLongitude < span
  }

  func islandOutline(nearestTo coordinate: Coordinate, _ vector: SIMD3<Double>, within limit: Double) -> Int?
  {
    NearestBoundarySearch(layer: layers.islands.polygons, coordinate: coordinate).nearest(within: limit) {
      _ in
      true
    }?.feature
  }

  func boundaryAngle(_ layer: BoundaryLayer, to coordinate: Coordinate, _ vector: SIMD3<Double>) -> Double? {
    switch layer {
    case .countries:
      NearestBoundarySearch(layer: layers.countries.polygons, coordinate: coordinate).nearestAtAnyDistance {
        _ in true
      }?.angle
    case .regions:
      NearestBoundarySearch(layer: layers.regions.polygons, coordinate: coordinate).nearestAtAnyDistance {
        PlacemarkNames.countryCodeValue(layers.regions.countryCode($0)) != nil
      }?.angle
    case .subregions:
      NearestBoundarySearch(layer: layers.subregions.polygons, coordinate: coordinate).nearestAtAnyDistance {
        _ in true
      }?.angle
    case .timeZones:
      NearestBoundarySearch(layer: layers.zones.polygons, coordinate: coordinate).nearestAtAnyDistance {
        _ in true
      }?.angle
    }
  }

  func country(_ feature: Int) -> Placemark.Country { PlacemarkNames.country(layers.countries, feature) }

  func countryCodeValue(_ feature: Int) -> UInt16? { PlacemarkNames.countryCodeValue(country(feature)) }

  func region(_ index: Int) -> Placemark.Region? { PlacemarkNames.region(layers.places, index) }

  func timeZone(_ feature: Int) -> String { layers.zones.identifier(feature) }

  func zoneCountryCode(_ feature: Int) -> String? { layers.zones.countryCode(feature) }

  func countryHasZone(_ feature: Int) -> Bool { layers.zones.hasZone(ofCountry: country(feature).code) }

  func island(_ feature: Int) -> String { layers.islands.name(feature) }

  func sea(_ feature: Int) -> String? { layers.marine.name(feature) }

  func hasRegion(_ index: Int) -> Bool { region(index) != nil }

  func shoreDescription(of point: SIMD3<Double>) -> ShoreDescription? { nil }

  func remember(_ description: ShoreDescription, of point: SIMD3<Double>) {}
}
