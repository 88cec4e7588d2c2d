import Dispatch
import TunnelSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The in-memory indexes of a geocoder that answers many queries.
///
/// Only the parts a batch's fields need are built (``Parts``); a lookup whose index was not built
/// searches the mapped layers instead (``LayerLookups``), with the same answer.
final class BatchIndexes: Sendable {
  /// Groups of indexes, built together.
  struct Parts: OptionSet, Sendable, Hashable {
    let rawValue: UInt16
    /// The nearest-place grid and the places of each country.
    static let places = Parts(rawValue: 1 << 0)
    /// The coastline's grid.
    static let coast = Parts(rawValue: 1 << 1)
    /// The countries' grid, their borders and the clearance of the grid's leaves.
    static let countries = Parts(rawValue: 1 << 2)
    /// The regions' grid and borders.
    static let regions = Parts(rawValue: 1 << 3)
    /// The marine polygons' grid and named borders.
    static let marine = Parts(rawValue: 1 << 4)
    /// The time zones' grid.
    static let timeZones = Parts(rawValue: 1 << 5)
    /// The islands' grid and outlines.
    static let islands = Parts(rawValue: 1 << 6)
    /// The shorelines: every level's, and land's and ice's for points at sea.
    static let shores = Parts(rawValue: 1 << 7)
    /// The time zones' borders, and cube-map grids over theirs, the countries' and the regions', for the
    /// distance to the nearest at any distance.
    static let boundaries = Parts(rawValue: 1 << 8)
    static let all: Parts = [
      .places, .coast, .countries, .regions, .marine, .timeZones, .islands, .shores, .boundaries,
    ]

    /// The indexes that answer `fields` fast. What they need only now and then (the nearest place of a
    /// time zone that no polygon gives) is left to the mapped layers.
    init(_ fields: Placemark.Fields) {
      var parts: Parts = []
      if fields.contains(.land) { parts.formUnion(.coast) }
      // A country near a border is settled by the time zone (ReverseGeocoder.borderAccuracyKm).
      if fields.contains(.country) { parts.formUnion([.countries, .timeZones]) }
      if fields.contains(.region) { parts.formUnion([.countries, .timeZones, .regions, .places]) }
      if fields.contains(.sea) { parts.formUnion([.coast, .marine]) }
      if fields.contains(.nearestPlace) { parts.formUnion(.places) }
      if fields.contains(.nearestLand) {
        parts.formUnion([.coast, .shores, .countries, .timeZones, .islands, .places])
      }
      if fields.contains(.timeZone) { parts.formUnion(.timeZones) }
      // The region's source decides whether its boundary is measured.
      if fields.contains(.boundaries) {
        parts.formUnion([.countries, .timeZones, .regions, .places, .boundaries, .coast])
      }
      self = parts
    }

    init(rawValue: UInt16) { self.rawValue = rawValue }
  }

  /// The parts built.
  let parts: Parts
  /// The cube-map grid of nearest-place candidates.
  let places: NearestPlaceGrid?
  /// The places of each country, for the nearest place of one country.
  let countryPlaces: CountryPlaceIndex?
  /// Point-in-polygon grids of the layers a placemark reads.
  let coast: PolygonGrid?
  let countries: PolygonGrid?
  let marine: PolygonGrid?
  let timeZones: PolygonGrid?
  let islands: PolygonGrid?
  let regions: PolygonGrid?
  /// The nearest shoreline at any distance (every GSHHG level), for points in lakes.
  let shores: ShoreIndex?
  /// The nearest shoreline of land or ice (odd GSHHG levels), for points at sea.
  let seaShores: NearestShoreGrid?
  /// Per feature of the coastline, with ``shores``: whether it is an island the country of the sea round
  /// islands looks for (``LayerLookups/isSmallIsland(_:of:)``), found through ``shores``.
  let smallIslands: [Bool]
  /// The shorelines of the coastline's small islands alone (``LayerLookups/isSmallIsland(_:of:)``), for
  /// the country of the sea round islands when ``shores`` is not built: a search of the mapped coastline
  /// for each point at sea near an island was a seventh of a batch of countries. It holds those islands'
  /// own rings (no coastline grid), and is built only with a cache folder, where it is read back: built
  /// in memory for every batch, it cost more than it saved.
  let smallIslandShores: ShoreIndex?
  /// The cells of a 0.1° grid within the coastal tolerance of a small island, with the leaves of
  /// ``smallIslandShores`` near each (built with it).
  let smallIslandCells: BorderCells?
  /// The nearest country border (coastlines included), for the coastal tolerance.
  let countryBorders: ShoreIndex?
  /// The nearest named marine polygon, for sea points in none.
  let namedSeaBorders: ShoreIndex?
  /// The nearest island outline, for shoreline points just off an island.
  let islandShores: ShoreIndex?
  /// The nearest region border (of regions with a country), for the coastal tolerance.
  let regionBorders: ShoreIndex?
  /// The nearest time zone border, for its distance.
  let zoneBorders: ShoreIndex?
  /// The nearest country, time zone and region border at any distance, for their distances (the region's
  /// over ``regionBorders``' regions).
  let countryBorderGrid: NearestShoreGrid?
  let zoneBorderGrid: NearestShoreGrid?
  let regionBorderGrid: NearestShoreGrid?
  /// The nearest second-level region border at any distance (over a tree of their borders, which the grid
  /// holds), for its distance.
  let subregionBorderGrid: NearestShoreGrid?
  /// Per node of ``countries``, in radians: a lower bound of the distance from any point of the node's
  /// box to the nearest country border, and one of the distance from the box's middle to it (both 0 for
  /// a box with borders in it).
  let countryClearance: [SIMD2<Float>]
  /// The cells of a 0.1° grid near a country border, within the wider of the coastal tolerance and the
  /// border accuracy (built with ``countries``).
  let countryBorderCells: BorderCells?
  /// Where an island may be near, for the country of the sea round islands (built with ``countries``).
  let islandCells: IslandCells?
  /// The 1° cells whose every point has the same country of its own (built with ``countries``).
  let countryCells: CountryCells?
  /// The layers the indexes were built from.
  let layers: PlacemarkLayers
  /// The lookups of the parts not built.
  let unindexed: LayerLookups
  /// The names placemarks quote, decoded.
  let names: PlacemarkNames
  /// Shoreline points described lately: the nearest point of land from open sea is most often a vertex,
  /// the same for many queries.
  private let shoreDescriptions = Locked(ShoreDescriptionCache())
  /// The indexes above again, each read by the lookups without counting a reference to it (the properties
  /// above keep them): every lookup on every core reads one or more of them, and counting a reference to
  /// an object both cores share, for every point, was much of what a batch of one cheap field spent
  /// beyond its lookups.
  private let unretained: UnretainedIndexes

  private struct UnretainedIndexes: Sendable {
    let places: Unretained<NearestPlaceGrid>?
    let coast, countries, marine, timeZones, islands, regions: Unretained<PolygonGrid>?
    let shores, smallIslandShores, countryBorders, namedSeaBorders, islandShores, regionBorders,
      zoneBorders: Unretained<ShoreIndex>?
    let seaShores, countryBorderGrid, zoneBorderGrid, regionBorderGrid,
      subregionBorderGrid: Unretained<NearestShoreGrid>?
    /// The layers whose features' levels and names the polygon lookups read.
    let coastLayer: Unretained<PolygonLayer>
    let countryLayer: Unretained<PolygonLayer>
    let lakeLayer: Unretained<PolygonLayer>
  }

  /// Builds the indexes of `parts` (taking those `existing` has, and the nearest-place grid from
  /// `placeGrid`), and decodes the names, as one job per layer, two jobs at a time. With a `cache`,
  /// every index is loaded from there when saved before, and saved there when built
  /// (``PolygonGridFile``, ``IndexCacheFile``).
  ///
  /// Each tree is built right after its grid, in the grid's job, while few other indexes exist, and each
  /// layer's vertex stream is let go as soon as its grid holds the vertices: the scratch space of the
  /// largest builds never comes on top of all the finished indexes, which keeps the peak memory of a
  /// batch low.
  init(
    layers: PlacemarkLayers, parts wanted: Parts = .all, existing: BatchIndexes? = nil,
    cache: IndexCache? = nil,
    placeGrid makePlaceGrid: @escaping @Sendable (PlaceLayer) -> NearestPlaceGrid
  ) {
    let parts = wanted.union(existing?.parts ?? [])
    self.parts = parts
    self.layers = layers
    unindexed = existing?.unindexed ?? LayerLookups(layers: layers)
    let places = layers.places
    let (coastLayer, countryLayer, marineLayer, zoneLayer, islandLayer, regionLayer, subregionLayer) = (
      layers.coast.polygons, layers.countries.polygons, layers.marine.polygons, layers.zones.polygons,
      layers.islands.polygons, layers.regions.polygons, layers.subregions.polygons
    )
    let old = existing
    @Sendable func grid(_ layer: PolygonLayer) -> PolygonGrid {
      let grid = PolygonGridFile.grid(layer: layer, cache: cache)
      layer.releaseVertexStream()
      return grid
    }
    @Sendable func tree(_ grid: PolygonGrid, _ kind: String, accept: (Int) -> Bool) -> ShoreIndex {
      ShoreIndex.cached(grid: grid, kind: kind, cache: cache, accept: accept)
    }
    /// What the jobs below build, each its own members.
    struct Built: Sendable {
      var names: PlacemarkNames?
      var coast: PolygonGrid?
      var shores: ShoreIndex?
      var seaShores: NearestShoreGrid?
      var smallIslands: [Bool] = []
      var smallIslandShores: ShoreIndex?
      var smallIslandCells: BorderCells?
      var regions: PolygonGrid?
      var regionBorders: ShoreIndex?
      var zones: PolygonGrid?
      var zoneBorders: ShoreIndex?
      var subregionBorders: ShoreIndex?
      var countries: PolygonGrid?
      var borders: ShoreIndex?
      var clearance: [SIMD2<Float>] = []
      var borderCells: BorderCells?
      var islandCells: IslandCells?
      var countryCells: CountryCells?
      var marine: PolygonGrid?
      var namedSeas: ShoreIndex?
      var islands: PolygonGrid?
      var islandShores: ShoreIndex?
      var placeGrid: NearestPlaceGrid?
      var countryPlaces: CountryPlaceIndex?
    }
    let built = Locked(Built())
    // One job per layer, none waiting for another, the largest first: two run at a time, whichever core
    // is free taking the next.
    var jobs: [@Sendable () -> Void] = []
    // The shores are found through the coastline's grid. The small islands near which the countries look
    // for one have a tree of their own rings, without the grid (whose vertices take the most decoding).
    let readsSmallIslands = parts.contains(.countries) && !parts.contains(.shores) && cache != nil
    if readsSmallIslands {
      jobs.append {
        // Which features are small islands, found once: the rings decoded and the file's key both ask.
        let smallIslandShores =
          old?.smallIslandShores
          ?? { () -> ShoreIndex in
            let small = (0..<coastLayer.featureCount).map { LayerLookups.isSmallIsland($0, of: coastLayer) }
            return ShoreIndex.cached(layer: coastLayer, kind: "small-island-rings", cache: cache) {
              $0 >= 0 && $0 < small.count && small[$0]
            }
          }()
        let cells =
          old?.smallIslandCells
          ?? BorderCells.cached(
            borders: smallIslandShores,
            reach: ReverseGeocoder.coastalToleranceKm / SphereGeometry.radiusKm, kind: "small-island-cells",
            cache: cache)
        built.withLock { ($0.smallIslandShores, $0.smallIslandCells) = (smallIslandShores, cells) }
      }
    }
    if !parts.isDisjoint(with: [.coast, .shores]) {
      jobs.append {
        let coast = old?.coast ?? grid(coastLayer)
        var (shores, seaShores): (ShoreIndex?, NearestShoreGrid?) = (nil, nil)
        var smallIslands: [Bool] = []
        if parts.contains(.shores) {
          shores = old?.shores ?? tree(coast, "shores") { _ in true }
          seaShores =
            old?.seaShores
            ?? NearestShoreGrid.cached(shores: shores!, kind: "sea-shores", cache: cache) {
              coastLayer.level(of: $0) % 2 == 1
            }
          smallIslands =
            old.flatMap { $0.smallIslands.isEmpty ? nil : $0.smallIslands }
            ?? (0..<coastLayer.featureCount).map { LayerLookups.isSmallIsland($0, of: coastLayer) }
        }
        built.withLock {
          ($0.coast, $0.shores, $0.seaShores, $0.smallIslands) = (coast, shores, seaShores, smallIslands)
        }
      }
    }
    // After the coastline's, the time zones' is the build that needs the most scratch space.
    if !parts.isDisjoint(with: [.timeZones, .boundaries]) {
      jobs.append {
        let zones = old?.timeZones ?? grid(zoneLayer)
        let borders =
          parts.contains(.boundaries) ? old?.zoneBorders ?? tree(zones, "zone-borders") { _ in true } : nil
        built.withLock { ($0.zones, $0.zoneBorders) = (zones, borders) }
      }
    }
    if parts.contains(.countries) {
      // The longest chain of loads a batch waits for: the grid, its borders' tree, then (side by side)
      // the clearances and the cells near the borders. It goes first (after the coastline's, the
      // longest where the shores are wanted), so that the other jobs share the second core meanwhile.
      let job: @Sendable () -> Void = {
        let countries = old?.countries ?? grid(countryLayer)
        let borders = old?.countryBorders ?? tree(countries, "borders") { _ in true }
        // The clearance is an array, empty in indexes built without the countries (say for a time zone
        // batch before a country one): taken from those before only when they had the countries. The
        // cells near islands (which depend on the coastline alone) come after it, the shorter load.
        let ((clearance, islandCells), cells) = Parallel.both(
          {
            (
              old.flatMap { $0.countries == nil ? nil : $0.countryClearance }
                ?? Self.cachedClearances(of: countries, borders: borders, cache: cache),
              old?.islandCells ?? IslandCells.cached(coast: coastLayer, cache: cache)
            )
          },
          {
            old?.countryBorderCells
              ?? BorderCells.cached(
                borders: borders, reach: Self.countryReach, kind: "border-cells", cache: cache)
          })
        // Which country each 1° cell is wholly in, made here while the other jobs still run: made after
        // them, it was the one step of the start that had a core to itself.
        let countryCells =
          old?.countryCells
          ?? CountryCells(
            countries: countries, clearance: clearance, limit: Self.countryReach, borderCells: cells,
            islandCells: islandCells)
        built.withLock {
          ($0.countries, $0.borders, $0.clearance, $0.borderCells) = (countries, borders, clearance, cells)
          ($0.islandCells, $0.countryCells) = (islandCells, countryCells)
        }
      }
      // (The coastline's job is the first when the shores are wanted: no small islands' job then.)
      jobs.insert(job, at: parts.contains(.shores) ? 1 : 0)
    }
    if parts.contains(.regions) {
      jobs.append {
        let regions = old?.regions ?? grid(regionLayer)
        // The rule of PlacemarkNames.regionFeatureCountries, whose names are decoded meanwhile.
        let borders =
          old?.regionBorders
          ?? tree(regions, "region-borders") {
            PlacemarkNames.countryCodeValue(layers.regions.countryCode($0)) != nil
          }
        built.withLock { ($0.regions, $0.regionBorders) = (regions, borders) }
      }
    }
    // The second-level regions' own lookups read their layer still: its pages are kept.
    if parts.contains(.boundaries), old?.subregionBorderGrid == nil {
      jobs.append {
        let borders = tree(PolygonGridFile.grid(layer: subregionLayer, cache: cache), "subregion-borders") {
          _ in true
        }
        built.withLock { $0.subregionBorders = borders }
      }
    }
    if parts.contains(.places) {
      jobs.append {
        let placeGrid = old?.places ?? makePlaceGrid(places)
        let countryPlaces =
          old?.countryPlaces
          ?? CountryPlaceIndex.cached(places: places, vectors: placeGrid.vectors, cache: cache)
        built.withLock { ($0.placeGrid, $0.countryPlaces) = (placeGrid, countryPlaces) }
      }
    }
    if parts.contains(.marine) {
      jobs.append {
        let marine = old?.marine ?? grid(marineLayer)
        let named =
          old?.namedSeaBorders ?? tree(marine, "named-sea-borders") { marineLayer.hasAttribute(0, of: $0) }
        built.withLock { ($0.marine, $0.namedSeas) = (marine, named) }
      }
    }
    if parts.contains(.islands) {
      jobs.append {
        let islands = old?.islands ?? grid(islandLayer)
        let shores = old?.islandShores ?? tree(islands, "island-shores") { _ in true }
        built.withLock { ($0.islands, $0.islandShores) = (islands, shores) }
      }
    }
    if let names = old?.names {
      built.withLock { $0.names = names }
    } else {
      jobs.append {
        let names = PlacemarkNames(layers)
        built.withLock { $0.names = names }
      }
    }
    let work = jobs
    Parallel.perform(iterations: work.count, threads: 2) { work[$0]() }
    let done = built.withLock { $0 }
    names = done.names!
    (coast, shores, seaShores, smallIslands, smallIslandShores, regions, regionBorders) = (
      done.coast, done.shores, done.seaShores, done.smallIslands, done.smallIslandShores, done.regions,
      done.regionBorders
    )
    smallIslandCells = done.smallIslandCells
    zoneBorders = done.zoneBorders
    // The grids over the country, zone and region borders, two at a time, once their trees exist.
    @Sendable func borderGrid(
      _ tree: ShoreIndex, _ kind: String, _ existing: NearestShoreGrid?
    ) -> NearestShoreGrid {
      existing
        ?? NearestShoreGrid.cached(
          shores: tree, kind: kind, cache: cache, listsInteriors: true, decodesVertices: true
        ) { _ in true }
    }
    if parts.contains(.boundaries), let countryTree = done.borders, let zoneTree = done.zoneBorders {
      let (countryGrid, zoneGrid) = (old?.countryBorderGrid, old?.zoneBorderGrid)
      (countryBorderGrid, zoneBorderGrid) = Parallel.both(
        { borderGrid(countryTree, "country-border-grid", countryGrid) },
        { borderGrid(zoneTree, "zone-border-grid", zoneGrid) })
    } else {
      (countryBorderGrid, zoneBorderGrid) = (nil, nil)
    }
    // A point's distance to its region's border was a search of the borders' tree for every point.
    let (regionGrid, subregionGrid) = (old?.regionBorderGrid, old?.subregionBorderGrid)
    (regionBorderGrid, subregionBorderGrid) =
      parts.contains(.boundaries)
      ? Parallel.both(
        { done.regionBorders.map { borderGrid($0, "region-border-grid", regionGrid) } },
        { subregionGrid ?? done.subregionBorders.map { borderGrid($0, "subregion-border-grid", nil) } })
      : (nil, nil)
    (timeZones, countries, countryBorders, countryClearance, marine, namedSeaBorders, islands, islandShores) =
      (
        done.zones, done.countries, done.borders, done.clearance, done.marine, done.namedSeas,
        done.islands, done.islandShores
      )
    (self.places, countryPlaces) = (done.placeGrid, done.countryPlaces)
    (countryBorderCells, islandCells) = (done.borderCells, done.islandCells)
    countryCells = done.countryCells
    let (coastPolygons, countryPolygons) = (layers.coast.polygons, layers.countries.polygons)
    unretained = UnretainedIndexes(
      places: Unretained(self.places), coast: Unretained(coast),
      countries: Unretained(countries), marine: Unretained(marine), timeZones: Unretained(timeZones),
      islands: Unretained(islands), regions: Unretained(regions), shores: Unretained(shores),
      smallIslandShores: Unretained(smallIslandShores), countryBorders: Unretained(countryBorders),
      namedSeaBorders: Unretained(namedSeaBorders),
      islandShores: Unretained(islandShores), regionBorders: Unretained(regionBorders),
      zoneBorders: Unretained(zoneBorders), seaShores: Unretained(seaShores),
      countryBorderGrid: Unretained(countryBorderGrid), zoneBorderGrid: Unretained(zoneBorderGrid),
      regionBorderGrid: Unretained(regionBorderGrid), subregionBorderGrid: Unretained(subregionBorderGrid),
      coastLayer: Unretained(coastPolygons)!,
      countryLayer: Unretained(countryPolygons)!, lakeLayer: Unretained(layers.lakes.polygons)!)
    // The build's scratch space is free now: give it back.
    MemoryRelease.trimAllocator()
  }

  /// The widest distance within which the country looks for a border, in radians: the cells near the
  /// country borders mark that far.
  static let countryReach =
    max(ReverseGeocoder.coastalToleranceKm, ReverseGeocoder.borderAccuracyKm) / SphereGeometry.radiusKm

  /// ``clearances(of:borders:)``, read from `cache` when saved there before (keyed by the grid's
  /// layer and the borders' checksum), else computed and saved there (``IndexCacheFile``).
  private static func cachedClearances(
    of grid: PolygonGrid, borders: ShoreIndex, cache: IndexCache?
  ) -> [SIMD2<Float>] {
    guard let cache else { return clearances(of: grid, borders: borders) }
    let version: UInt32 = 2
    let name = IndexCacheFile.name(layer: grid.layer, kind: "clearances", version: version)
    let keys = [version, grid.layer.file.payloadChecksum, UInt32(grid.size.nodes), borders.checksum]
    if var file = IndexCacheFile.Reader(name, in: cache, magic: "TUNLCLRS", keys: keys, arrays: 1),
      let loaded = file.read(SIMD2<Float>.self), file.finish(), loaded.count == grid.size.nodes,
      loaded.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.x >= 0 && $0.y >= 0 })
    {
      return loaded
    }
    let computed = clearances(of: grid, borders: borders)
    IndexCacheFile.save(name, in: cache, magic: "TUNLCLRS", keys: keys, arrays: [CacheArray(computed)])
    return computed
  }

  /// Per node of `grid`: for a leaf without edges, how far its box is from the nearest border, found from
  /// the box's middle (less the middle's distance to its farthest corner, where the box reaches farthest),
  /// and how far the middle is; 0 for every other node.
  private static func clearances(of grid: PolygonGrid, borders: ShoreIndex) -> [SIMD2<Float>] {
    // Far enough for the coastal tolerance, with room to spare.
    let horizon = 100 / SphereGeometry.radiusKm
    let leaves = grid.emptyLeaves()
    // Each leaf on its own: in slices over every core (a batch of countries alone has the other core
    // free), each writing its own leaves' entries.
    let result = UnsafeMutableBufferPointer<SIMD2<Float>>.allocate(capacity: grid.size.nodes)
    result.initialize(repeating: .zero)
    defer { result.deallocate() }
    let slices = max(1, min(64, leaves.count / 256))
    let output = SendableBuffer(result)
    DispatchQueue.concurrentPerform(iterations: slices) { slice in
      for (node, box) in leaves[(slice * leaves.count / slices)..<((slice + 1) * leaves.count / slices)] {
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
        output.buffer[node] = SIMD2(lower(nearest - reach), lower(nearest))
      }
    }
    return Array(result)
  }

  /// Whether every country border lies farther than `limit` radians from a coordinate (whose unit vector
  /// is `vector`): by ``countryBorderCells`` where the limit is within their reach, else by the clearance
  /// of its ``countries`` leaf, else by the distance from the leaf's middle less the way from the
  /// coordinate to the middle. False means only that none of them settles it.
  func countryBorders(fartherThan limit: Double, from coordinate: Coordinate, _ vector: SIMD3<Double>) -> Bool
  {
    if let cells = countryBorderCells, limit <= cells.reach, !cells.mayHaveBoundary(near: coordinate) {
      return true
    }
    guard let countries = unretained.countries, !countryClearance.isEmpty else { return false }
    let (node, box) = countries.read { $0.leafDegreeBox($0.layer.fixedPoint(coordinate)) }
    let clearance = countryClearance[node]
    if Double(clearance.x) > limit { return true }
    guard clearance.y > 0 else { return false }
    // The way to the middle rounded up, so that the difference stays a lower bound.
    let way = SphereGeometry.angle(vector, box.middle) * (1 + 1e-9) + 1e-12
    return Double(clearance.y) - way > limit
  }

  /// Whether every country border within ``ReverseGeocoder/borderAccuracyKm`` of a coordinate is of
  /// `feature`, by ``countryBorderCells``.
  func countryBorders(near coordinate: Coordinate, allOf feature: Int) -> Bool {
    guard let cells = countryBorderCells,
      ReverseGeocoder.borderAccuracyKm / SphereGeometry.radiusKm <= cells.reach
    else { return false }
    return cells.boundaries(near: coordinate, allOf: feature)
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
}

/// A reference to an object that something else keeps alive, read without counting it
/// (``BatchIndexes``' lookups).
struct Unretained<Object: AnyObject & Sendable>: @unchecked Sendable {
  // @unchecked: the object is Sendable; Unmanaged is only its address.
  private let reference: Unmanaged<Object>

  init?(_ object: Object?) {
    guard let object else { return nil }
    reference = .passUnretained(object)
  }

  /// Calls `body` with the object, neither retained nor released.
  @inline(__always) func read<Result>(_ body: (Object) throws -> Result) rethrows -> Result {
    try reference._withUnsafeGuaranteedRef(body)
  }
}

/// The lookups of a batch: the same answers as ``LayerLookups``, from the in-memory indexes.
extension BatchIndexes: PlacemarkLookups {
  func nearestPlace(to vector: SIMD3<Double>) -> (index: Int, chordSquared: Double)? {
    guard let places = unretained.places else { return unindexed.nearestPlace(to: vector) }
    return places.read { $0.nearest(to: vector) }
  }

  func nearestPlace(ofCountry value: UInt16, to vector: SIMD3<Double>, within limit: Double) -> Int? {
    guard let countryPlaces else {
      return unindexed.nearestPlace(ofCountry: value, to: vector, within: limit)
    }
    return countryPlaces.nearest(to: vector, countryCode: value, within: limit)?.index
  }

  func coastLevel(at coordinate: Coordinate) -> Int? {
    guard let coast = unretained.coast else { return unindexed.coastLevel(at: coordinate) }
    let features = coast.read { $0.features(containing: coordinate) }
    // Through its unretained handle: `layers.coast` retained the layer for every point, on every core.
    return unretained.coastLayer.read { FeatureChoice.highestLevel(of: features, in: $0) }
  }

  func lakeFeature(containing coordinate: Coordinate) -> Int? {
    guard let coast = unretained.coast else { return unindexed.lakeFeature(containing: coordinate) }
    let features = coast.read { $0.features(containing: coordinate) }
    return unretained.coastLayer.read { FeatureChoice.lake(of: features, in: $0) }
  }

  func countryFeature(containing coordinate: Coordinate) -> Int? {
    guard let countries = unretained.countries else {
      return unindexed.countryFeature(containing: coordinate)
    }
    let features = countries.read { $0.features(containing: coordinate) }
    return unretained.countryLayer.read { FeatureChoice.country(of: features, in: $0) }
  }

  func settledCountry(at coordinate: Coordinate) -> Int?? {
    guard let countries = unretained.countries, let countryCells else { return nil }
    return countryCells.country(ofCell: countries.read { $0.topCell($0.layer.fixedPoint(coordinate)) })
  }

  func prefetchSettledCountry(at coordinate: Coordinate) {
    guard let countries = unretained.countries, let countryCells else { return }
    countryCells.prefetch(cell: countries.read { $0.topCell($0.layer.fixedPoint(coordinate)) })
  }

  func prefetchCountry(at coordinate: Coordinate) {
    unretained.countries?.read { $0.prefetchTop($0.layer.fixedPoint(coordinate)) }
    unretained.timeZones?.read { $0.prefetchTop($0.layer.fixedPoint(coordinate)) }
    countryBorderCells?.prefetch(coordinate, listed: false)
  }

  func prefetchCountryBorders(near coordinate: Coordinate, listed: Bool) {
    countryBorderCells?.prefetch(coordinate, listed: listed)
    if !listed { smallIslandCells?.prefetchCell(coordinate) }
  }

  func regionFeature(among features: borrowing FeatureSet, country: UInt16) -> Int? {
    features.withMembers { FeatureChoice.first(of: $0.lazy.map { Int($0) }) { isRegion($0, of: country) } }
  }

  func regionFeatures(
    containing coordinates: UnsafeBufferPointer<Coordinate>,
    into results: UnsafeMutableBufferPointer<FeatureSet>
  ) {
    guard let regions = unretained.regions else {
      return unindexed.regionFeatures(containing: coordinates, into: results)
    }
    Self.features(in: regions, containing: coordinates, into: results)
  }

  /// The features of `grid` holding each of `coordinates`, at the same place in `results`, looked up a
  /// group at a time (``PolygonGrid/features(containing:into:)``).
  private static func features(
    in grid: Unretained<PolygonGrid>, containing coordinates: UnsafeBufferPointer<Coordinate>,
    into results: UnsafeMutableBufferPointer<FeatureSet>
  ) {
    grid.read { grid in
      withUnsafeTemporaryAllocation(of: FixedPoint.self, capacity: coordinates.count) { points in
        for index in coordinates.indices { points[index] = grid.layer.fixedPoint(coordinates[index]) }
        grid.features(containing: UnsafeBufferPointer(points), into: results)
      }
    }
  }

  func regionFeature(containing coordinate: Coordinate, country: UInt16) -> Int? {
    guard let regions = unretained.regions else {
      return unindexed.regionFeature(containing: coordinate, country: country)
    }
    return FeatureChoice.first(of: regions.read { $0.features(containing: coordinate) }) {
      isRegion($0, of: country)
    }
  }

  func lakeSeaFeature(containing coordinate: Coordinate) -> Int? {
    // Through its unretained handle: `layers.lakes` retained the layer and its table for every point.
    unretained.lakeLayer.read { LakeLayer.seaFeature(of: $0, containing: coordinate) }
  }

  func seaFeature(containing coordinate: Coordinate) -> Int? {
    guard let marine = unretained.marine else { return unindexed.seaFeature(containing: coordinate) }
    return FeatureChoice.first(of: marine.read { $0.features(containing: coordinate) }) {
      names.seas[$0] != nil
    }
  }

  func timeZoneFeature(containing coordinate: Coordinate) -> Int? {
    guard let timeZones = unretained.timeZones else {
      return unindexed.timeZoneFeature(containing: coordinate)
    }
    return timeZones.read { $0.features(containing: coordinate) }.first
  }

  func timeZoneFeatures(containing coordinate: Coordinate) -> FeatureSet {
    guard let timeZones = unretained.timeZones else {
      return unindexed.timeZoneFeatures(containing: coordinate)
    }
    return timeZones.read { $0.features(containing: coordinate) }
  }

  func coastLevels(
    at coordinates: UnsafeBufferPointer<Coordinate>, into results: UnsafeMutableBufferPointer<Int?>
  ) {
    guard let coast = unretained.coast else { return unindexed.coastLevels(at: coordinates, into: results) }
    unretained.coastLayer.read { layer in
      Self.choose(in: coast, coordinates, into: results) { features in
        features.withMembers { FeatureChoice.highestLevel(of: $0.lazy.map { Int($0) }, in: layer) }
      }
    }
  }

  func countryFeatures(
    containing coordinates: UnsafeBufferPointer<Coordinate>, into results: UnsafeMutableBufferPointer<Int?>
  ) {
    guard let countries = unretained.countries else {
      return unindexed.countryFeatures(containing: coordinates, into: results)
    }
    unretained.countryLayer.read { layer in
      Self.choose(in: countries, coordinates, into: results) { features in
        features.withMembers { FeatureChoice.country(of: $0.lazy.map { Int($0) }, in: layer) }
      }
    }
  }

  func seaFeatures(
    containing coordinates: UnsafeBufferPointer<Coordinate>, into results: UnsafeMutableBufferPointer<Int?>
  ) {
    guard let marine = unretained.marine else {
      return unindexed.seaFeatures(containing: coordinates, into: results)
    }
    let seas = names.seas
    Self.choose(in: marine, coordinates, into: results) { features in
      features.withMembers { FeatureChoice.first(of: $0.lazy.map { Int($0) }) { seas[$0] != nil } }
    }
  }

  func timeZoneFeatures(
    containing coordinates: UnsafeBufferPointer<Coordinate>,
    into results: UnsafeMutableBufferPointer<FeatureSet>
  ) {
    guard let timeZones = unretained.timeZones else {
      return unindexed.timeZoneFeatures(containing: coordinates, into: results)
    }
    Self.features(in: timeZones, containing: coordinates, into: results)
  }

  /// `choice` of the features of `grid` containing each of `coordinates`, at the same place in `results`:
  /// the points looked up a group at a time (``PolygonGrid/features(containing:into:)``).
  @inline(__always) private static func choose<Choice>(
    in grid: Unretained<PolygonGrid>, _ coordinates: UnsafeBufferPointer<Coordinate>,
    into results: UnsafeMutableBufferPointer<Choice>, _ choice: (borrowing FeatureSet) -> Choice
  ) {
    grid.read { grid in
      let size = PolygonGrid.groupSize
      withUnsafeTemporaryAllocation(of: FixedPoint.self, capacity: size) { points in
        withUnsafeTemporaryAllocation(of: FeatureSet.self, capacity: size) { sets in
          _ = sets.initialize(from: repeatElement(FeatureSet(), count: size))
          defer { sets.deinitialize() }
          var start = 0
          while start < coordinates.count {
            let count = min(size, coordinates.count - start)
            for index in 0..<count { points[index] = grid.layer.fixedPoint(coordinates[start + index]) }
            grid.features(containing: UnsafeBufferPointer(rebasing: points[..<count]), into: sets)
            for index in 0..<count { results[start + index] = choice(sets[index]) }
            start += count
          }
        }
      }
    }
  }

  func islandFeature(containing coordinate: Coordinate) -> Int? {
    guard let islands = unretained.islands else { return unindexed.islandFeature(containing: coordinate) }
    return islands.read { $0.features(containing: coordinate) }.first
  }

  func countryBorder(nearestTo coordinate: Coordinate, _ vector: SIMD3<Double>, within limit: Double) -> Int?
  {
    countryBorder(nearestTo: coordinate, vector, within: limit) { _ in true }
  }

  func countryBorder(
    nearestTo coordinate: Coordinate, _ vector: SIMD3<Double>, within limit: Double,
    where accept: (Int) -> Bool
  ) -> Int? {
    guard let countryBorders = unretained.countryBorders else {
      return unindexed.countryBorder(nearestTo: coordinate, vector, within: limit, where: accept)
    }
    if let cells = countryBorderCells, cells.hasLeaves, limit <= cells.reach {
      return countryBorders.read {
        cells.nearestFeature(in: $0, to: coordinate, vector, within: limit, accept: accept)
      }
    }
    if self.countryBorders(fartherThan: limit, from: coordinate, vector) { return nil }
    return countryBorders.read { $0.nearest(to: vector, within: limit, accept: accept) }?.feature
  }

  func regionBorder(
    nearestTo coordinate: Coordinate, _ vector: SIMD3<Double>, within limit: Double, country: UInt16
  ) -> Int? {
    guard let regionBorders = unretained.regionBorders else {
      return unindexed.regionBorder(nearestTo: coordinate, vector, within: limit, country: country)
    }
    return regionBorders.read { $0.nearest(to: vector, within: limit) { isRegion($0, of: country) } }?.feature
  }

  /// Whether a region feature is of a country.
  private func isRegion(_ feature: Int, of country: UInt16) -> Bool {
    names.regionFeatureCountries[feature] == country
  }

  func regionIndex(ofFeature feature: Int) -> Int? { names.regionFeatureRegions[feature] }

  func nearestSeaFeature(to coordinate: Coordinate, _ vector: SIMD3<Double>) -> Int? {
    guard let namedSeaBorders = unretained.namedSeaBorders else {
      return unindexed.nearestSeaFeature(to: coordinate, vector)
    }
    return namedSeaBorders.read { $0.nearest(to: vector) }?.feature
  }

  func nearestShore(to coordinate: Coordinate, _ vector: SIMD3<Double>, inLake: Bool) -> BoundaryHit? {
    guard let shores = unretained.shores, let seaShores = unretained.seaShores else {
      return unindexed.nearestShore(to: coordinate, vector, inLake: inLake)
    }
    return inLake ? shores.read { $0.nearest(to: vector) } : seaShores.read { $0.nearest(to: vector) }
  }

  func mayHaveIsland(near coordinate: Coordinate) -> Bool {
    // The cells near the islands' shores, where built, are fewer than those of their boxes.
    if let cells = smallIslandCells { return cells.mayHaveBoundary(near: coordinate) }
    return islandCells?.mayHaveIsland(near: coordinate) ?? true
  }

  func nearestIsland(to coordinate: Coordinate, _ vector: SIMD3<Double>, within limit: Double) -> BoundaryHit?
  {
    // The shores' tree holds every level's shoreline when the batch finds the nearest land: the islands
    // are among them, and it finds the point the layer's own search does.
    guard let shores = unretained.shores, !smallIslands.isEmpty else {
      // Without them, a tree of the small islands alone.
      if let smallIslandShores = unretained.smallIslandShores {
        if let cells = smallIslandCells, cells.hasLeaves, limit <= cells.reach {
          return smallIslandShores.read {
            cells.nearest(in: $0, to: coordinate, vector, within: limit) { _ in true }
          }
        }
        return smallIslandShores.read { $0.nearest(to: vector, within: limit) }
      }
      return unindexed.nearestIsland(to: coordinate, vector, within: limit)
    }
    return smallIslands.withUnsafeBufferPointer { islands in
      shores.read { $0.nearest(to: vector, within: limit) { islands[$0] } }
    }
  }

  func islandOutline(nearestTo coordinate: Coordinate, _ vector: SIMD3<Double>, within limit: Double) -> Int?
  {
    guard let islandShores = unretained.islandShores else {
      return unindexed.islandOutline(nearestTo: coordinate, vector, within: limit)
    }
    return islandShores.read { $0.nearest(to: vector, within: limit) }?.feature
  }

  func boundaryAngle(_ layer: BoundaryLayer, to coordinate: Coordinate, _ vector: SIMD3<Double>) -> Double? {
    let (borders, grid): (Unretained<ShoreIndex>?, Unretained<NearestShoreGrid>?) =
      switch layer {
      case .countries: (unretained.countryBorders, unretained.countryBorderGrid)
      case .regions: (unretained.regionBorders, unretained.regionBorderGrid)
      case .subregions: (nil, unretained.subregionBorderGrid)
      case .timeZones: (unretained.zoneBorders, unretained.zoneBorderGrid)
      }
    if let grid { return grid.read { $0.nearest(to: vector) }?.angle }
    guard let borders else { return unindexed.boundaryAngle(layer, to: coordinate, vector) }
    return borders.read { $0.nearest(to: vector) }?.angle
  }

  func country(_ feature: Int) -> Placemark.Country { names.countries[feature] }

  func countryCodeValue(_ feature: Int) -> UInt16? { names.countryCodeValues[feature] }

  func region(_ index: Int) -> Placemark.Region? { names.regions[index] }

  func timeZone(_ feature: Int) -> String { names.zones[feature] }

  func zoneCountryCode(_ feature: Int) -> String? { names.zoneCountryCodes[feature] }

  func countryHasZone(_ feature: Int) -> Bool { names.countryHasZone[feature] }

  func island(_ feature: Int) -> String { names.islands[feature] }

  func sea(_ feature: Int) -> String? { names.seas[feature] }

  func hasRegion(_ index: Int) -> Bool { names.regions[index] != nil }
}
