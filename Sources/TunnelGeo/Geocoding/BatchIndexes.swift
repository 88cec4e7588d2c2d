import Dispatch
import Foundation

/// The in-memory indexes of a geocoder that answers many queries.
final class BatchIndexes: Sendable {
  /// The cube-map grid of nearest-place candidates.
  let places: NearestPlaceGrid
  /// The places of each country, for the nearest place of one country.
  let countryPlaces: CountryPlaceIndex
  /// Point-in-polygon grids of the layers a placemark reads.
  let coast: PolygonGrid
  let countries: PolygonGrid
  let marine: PolygonGrid
  let timeZones: PolygonGrid
  let islands: PolygonGrid
  let regions: PolygonGrid
  /// The nearest shoreline at any distance (every GSHHG level), for points in lakes.
  let shores: ShoreIndex
  /// The nearest shoreline of land or ice (odd GSHHG levels), for points at sea.
  let seaShores: NearestShoreGrid
  /// The nearest country border (coastlines included), for the coastal tolerance.
  let countryBorders: ShoreIndex
  /// The nearest named marine polygon, for sea points in none.
  let namedSeaBorders: ShoreIndex
  /// The nearest island outline, for shoreline points just off an island.
  let islandShores: ShoreIndex
  /// The nearest region border (of regions with a country), for the coastal tolerance.
  let regionBorders: ShoreIndex
  /// Per node of ``countries``, in radians: a lower bound of the distance from any point of the node's
  /// box to the nearest country border, and one of the distance from the box's middle to it (both 0 for
  /// a box with borders in it).
  let countryClearance: [SIMD2<Float>]
  /// The layers the indexes were built from.
  let layers: PlacemarkLayers
  /// The names placemarks quote, decoded.
  let names: PlacemarkNames
  /// Shoreline points described lately: the nearest point of land from open sea is most often a vertex,
  /// the same for many queries.
  private let shoreDescriptions = Locked(ShoreDescriptionCache())

  /// Builds every index (but the nearest-place grid when one is given) in two chains, one per core.
  ///
  /// Each tree is built right after its grid, while few other indexes exist, and each layer's vertex
  /// stream is let go as soon as its grid holds the vertices: the scratch space of the largest builds
  /// never comes on top of all the finished indexes, which keeps the peak memory of a batch low.
  init(layers: PlacemarkLayers, placeGrid makePlaceGrid: @escaping @Sendable (PlaceLayer) -> NearestPlaceGrid)
  {
    self.layers = layers
    names = PlacemarkNames(layers)
    let places = layers.places
    let (coastLayer, countryLayer, marineLayer, zoneLayer, islandLayer, regionLayer) = (
      layers.coast.polygons, layers.countries.polygons, layers.marine.polygons, layers.zones.polygons,
      layers.islands.polygons, layers.regions.polygons
    )
    let regionFeatureCountries = names.regionFeatureCountries
    @Sendable func grid(_ layer: PolygonLayer) -> PolygonGrid {
      let grid = PolygonGrid(layer: layer)
      layer.releaseVertexStream()
      return grid
    }
    let (first, second) = Self.both(
      { () -> (PolygonGrid, ShoreIndex, NearestShoreGrid, PolygonGrid, ShoreIndex) in
        let coast = grid(coastLayer)
        let shores = ShoreIndex(grid: coast) { _ in true }
        let seaShores = NearestShoreGrid(shores: shores) { coastLayer.level(of: $0) % 2 == 1 }
        let regions = grid(regionLayer)
        let regionBorders = ShoreIndex(grid: regions) { regionFeatureCountries[$0] != nil }
        return (coast, shores, seaShores, regions, regionBorders)
      },
      {
        () -> (
          PolygonGrid, PolygonGrid, ShoreIndex, [SIMD2<Float>], PolygonGrid, ShoreIndex, PolygonGrid,
          ShoreIndex,
          NearestPlaceGrid, CountryPlaceIndex
        ) in
        // The time zones first, while few indexes exist: after the coastline's, theirs is the build that
        // needs the most scratch space.
        let zones = grid(zoneLayer)
        let countries = grid(countryLayer)
        let borders = ShoreIndex(grid: countries) { _ in true }
        let clearance = Self.clearances(of: countries, borders: borders)
        let marine = grid(marineLayer)
        let namedSeas = ShoreIndex(grid: marine) { marineLayer.hasAttribute(0, of: $0) }
        let islands = grid(islandLayer)
        let islandShores = ShoreIndex(grid: islands) { _ in true }
        let placeGrid = makePlaceGrid(places)
        let countryPlaces = CountryPlaceIndex(places: places, vectors: placeGrid.vectors)
        return (
          zones, countries, borders, clearance, marine, namedSeas, islands, islandShores, placeGrid,
          countryPlaces
        )
      })
    (coast, shores, seaShores, regions, regionBorders) = first
    (
      timeZones, countries, countryBorders, countryClearance, marine, namedSeaBorders, islands, islandShores,
      self.places, countryPlaces
    ) = second
    // The build's scratch space is free now: give it back.
    MemoryRelease.trimAllocator()
  }

  /// Per node of `grid`: for a leaf without edges, how far its box is from the nearest border, found from
  /// the box's middle (less the middle's distance to its farthest corner, where the box reaches farthest),
  /// and how far the middle is; 0 for every other node.
  private static func clearances(of grid: PolygonGrid, borders: ShoreIndex) -> [SIMD2<Float>] {
    // Far enough for the coastal tolerance, with room to spare.
    let horizon = 100 / SphereGeometry.radiusKm
    var result = [SIMD2<Float>](repeating: .zero, count: grid.size.nodes)
    for (node, box) in grid.emptyLeaves() {
      let middle = box.middle
      var reach = 0.0
      for (latitude, longitude) in [
        (box.south, box.west), (box.south, box.east), (box.north, box.west), (box.north, box.east),
      ] {
        reach = max(
          reach,
          SphereGeometry.angle(middle, SphereGeometry.unitVector(latitude: latitude, longitude: longitude)))
      }
      let nearest = borders.nearest(to: middle, within: reach + horizon)?.angle ?? (reach + horizon)
      // Rounded down, and a little more, so that they stay lower bounds.
      func lower(_ bound: Double) -> Float {
        let lowered = bound * (1 - 1e-9) - 1e-12
        return lowered > 0 ? Float(lowered).nextDown : 0
      }
      result[node] = SIMD2(lower(nearest - reach), lower(nearest))
    }
    return result
  }

  /// Whether every country border lies farther than `limit` radians from a coordinate (whose unit vector
  /// is `vector`): by the clearance of its ``countries`` leaf, else by the distance from the leaf's middle
  /// less the way from the coordinate to the middle. False means only that neither bound settles it.
  func countryBorders(fartherThan limit: Double, from coordinate: Coordinate, _ vector: SIMD3<Double>) -> Bool
  {
    let (node, box) = countries.leafDegreeBox(countries.layer.fixedPoint(coordinate))
    let clearance = countryClearance[node]
    if Double(clearance.x) > limit { return true }
    guard clearance.y > 0 else { return false }
    // The way to the middle rounded up, so that the difference stays a lower bound.
    let way = SphereGeometry.angle(vector, box.middle) * (1 + 1e-9) + 1e-12
    return Double(clearance.y) - way > limit
  }

  /// What was found for a shoreline point before, if it is still remembered.
  func shoreDescription(of point: SIMD3<Double>) -> ShoreDescription? {
    shoreDescriptions.withLock { $0[ShorePoint(point)] }
  }

  /// How many shoreline points are remembered.
  var rememberedShorePointCount: Int { shoreDescriptions.withLock { $0.count } }

  /// Keeps what was found for a shoreline point, in place of the point remembered in its slot, if any.
  func remember(_ description: ShoreDescription, of point: SIMD3<Double>) {
    shoreDescriptions.withLock { $0[ShorePoint(point)] = description }
  }

  /// `first()` and `second()`, on two cores.
  private static func both<First: Sendable, Second: Sendable>(
    _ first: @Sendable () -> First, _ second: @Sendable () -> Second
  ) -> (First, Second) {
    let firstResult = Locked<First?>(nil)
    let secondResult = Locked<Second?>(nil)
    DispatchQueue.concurrentPerform(iterations: 2) { task in
      if task == 0 {
        let result = first()
        firstResult.withLock { $0 = result }
      } else {
        let result = second()
        secondResult.withLock { $0 = result }
      }
    }
    return (firstResult.withLock { $0! }, secondResult.withLock { $0! })
  }
}

/// The lookups of a batch: the same answers as ``LayerLookups``, from the in-memory indexes.
extension BatchIndexes: PlacemarkLookups {
  func nearestPlace(to vector: SIMD3<Double>) -> (index: Int, chordSquared: Double)? {
    places.nearest(to: vector)
  }

  func nearestPlace(ofCountry value: UInt16, to vector: SIMD3<Double>, within limit: Double) -> Int? {
    countryPlaces.nearest(to: vector, countryCode: value, within: limit)?.index
  }

  func coastLevel(at coordinate: Coordinate) -> Int? {
    FeatureChoice.highestLevel(of: coast.features(containing: coordinate), in: layers.coast)
  }

  func countryFeature(containing coordinate: Coordinate) -> Int? {
    FeatureChoice.country(of: countries.features(containing: coordinate), in: layers.countries)
  }

  func regionFeature(containing coordinate: Coordinate, country: UInt16) -> Int? {
    FeatureChoice.first(of: regions.features(containing: coordinate)) { isRegion($0, of: country) }
  }

  func seaName(containing coordinate: Coordinate) -> String? {
    FeatureChoice.firstName(of: marine.features(containing: coordinate)) { names.seas[$0] }
  }

  func timeZoneFeature(containing coordinate: Coordinate) -> Int? {
    timeZones.features(containing: coordinate).first
  }

  func islandFeature(containing coordinate: Coordinate) -> Int? {
    islands.features(containing: coordinate).first
  }

  func countryBorder(nearestTo coordinate: Coordinate, _ vector: SIMD3<Double>, within limit: Double) -> Int?
  {
    if countryBorders(fartherThan: limit, from: coordinate, vector) { return nil }
    return countryBorders.nearest(to: vector, within: limit)?.feature
  }

  func regionBorder(
    nearestTo coordinate: Coordinate, _ vector: SIMD3<Double>, within limit: Double, country: UInt16
  ) -> Int? {
    regionBorders.nearest(to: vector, within: limit) { isRegion($0, of: country) }?.feature
  }

  /// Whether a region feature is of a country.
  private func isRegion(_ feature: Int, of country: UInt16) -> Bool {
    names.regionFeatureCountries[feature] == country
  }

  func regionIndex(ofFeature feature: Int) -> Int? { names.regionFeatureRegions[feature] }

  func nearestSeaName(to coordinate: Coordinate, _ vector: SIMD3<Double>) -> String? {
    namedSeaBorders.nearest(to: vector).flatMap { names.seas[$0.feature] }
  }

  func nearestShore(to coordinate: Coordinate, _ vector: SIMD3<Double>, inLake: Bool) -> BoundaryHit? {
    inLake ? shores.nearest(to: vector) : seaShores.nearest(to: vector)
  }

  func islandOutline(nearestTo coordinate: Coordinate, _ vector: SIMD3<Double>, within limit: Double) -> Int?
  {
    islandShores.nearest(to: vector, within: limit)?.feature
  }

  func country(_ feature: Int) -> Placemark.Country { names.countries[feature] }

  func countryCodeValue(_ feature: Int) -> UInt16? { names.countryCodeValues[feature] }

  func region(_ index: Int) -> Placemark.Region? { names.regions[index] }

  func timeZone(_ feature: Int) -> String { names.zones[feature] }

  func island(_ feature: Int) -> String { names.islands[feature] }
}
