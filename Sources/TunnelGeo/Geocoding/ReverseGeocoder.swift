import Dispatch
import Foundation
import Synchronization

/// Says where a point is, from Tunnel's bundled place data, offline.
///
/// ```swift
/// let geocoder = ReverseGeocoder(data: try PlaceData())
/// let here = try geocoder.placemark(for: Coordinate(latitude: 56, longitude: 8.5))
/// here.country?.name  // "Denmark"
/// here.nearestPlace.name  // "Skjern", 5.6 km away
/// ```
///
/// A geocoder is `Sendable`: share one across threads. It opens each layer on first use and builds
/// nothing up front, so a process answering a single question stays fast; ``prepareForBatch()`` (called
/// by ``placemarks(for:)`` for large batches) builds the in-memory indexes that make many queries fast.
public final class ReverseGeocoder: Sendable {
  /// The data the geocoder reads.
  public let data: PlaceData
  /// Where built indexes are kept for later processes (the nearest-place grid); nil keeps nothing.
  public let cacheDirectory: String?
  private let batchIndexes = Mutex<BatchIndexes?>(nil)
  private let placeGrid = Mutex<NearestPlaceGrid?>(nil)
  private let openedLayers = Mutex<PlacemarkLayers?>(nil)

  /// Creates a geocoder over `data`; nothing is opened until the first query.
  ///
  /// With a `cacheDirectory`, the nearest-place grid a batch builds is saved there, and later geocoders
  /// load it instead of building it again (see the benchmark for both times); the answers are the same.
  public init(data: PlaceData, cacheDirectory: String? = nil) {
    self.data = data
    self.cacheDirectory = cacheDirectory
  }

  /// The nearest-place grid of `places`, loaded from the cache directory or built (and saved there).
  func loadOrBuildPlaceGrid(_ places: PlaceLayer) -> NearestPlaceGrid {
    NearestPlaceGridFile.grid(
      places: places, vectors: PlaceVectorArray(places: places), directory: cacheDirectory)
  }

  // MARK: Nearest place

  /// The populated place nearest to `coordinate` by great-circle distance, optionally only among places
  /// with at least `minimumPopulation` inhabitants; nil when no place qualifies.
  ///
  /// The answer is exact: the place with the smallest great-circle distance of all 234,908 (on ties, the
  /// one stored first). Distances are on the sphere of mean radius.
  ///
  /// - Complexity: O(log n) for an unfiltered query; a filter that few places pass makes the walk visit
  ///   more of the tree.
  public func nearestPlace(
    to coordinate: Coordinate, minimumPopulation: Int = 0
  ) throws(PlaceDataError)
    -> NearestPlace?
  {
    let places = try data.places()
    let query = SphereGeometry.unitVector(coordinate)
    let search = NearestPlaceSearch(places: places, vectors: MappedPlaceVectors(places: places))
    let found =
      minimumPopulation <= 0
      ? search.nearest(to: query)
      : search.nearest(to: query) { places.population(at: $0) >= minimumPopulation }
    return found.map { nearestPlace(places, $0.index, chordSquared: $0.chordSquared) }
  }

  func nearestPlace(_ places: PlaceLayer, _ index: Int, chordSquared: Double) -> NearestPlace {
    let coordinate = places.coordinate(at: index)
    return NearestPlace(
      index: index, name: places.name(at: index), countryCode: places.countryCode(at: index),
      latitude: coordinate.latitude, longitude: coordinate.longitude,
      population: places.population(at: index),
      distanceKm: SphereGeometry.angle(chordSquared: chordSquared) * SphereGeometry.radiusKm)
  }

  // MARK: Rules

  /// A point in no country polygon belongs to the country whose border (coastline included) is nearest,
  /// if that border is at most this many kilometres away: Natural Earth's polygons miss harbours and
  /// beaches by a few hundred metres (Copenhagen City Hall lies 0.2–0.3 km outside Denmark).
  public static let coastalToleranceKm = 5.0
  /// The country of a nearest-land point is found with this wider tolerance: small islands are often
  /// missing from, or offset in, the country polygons.
  public static let landCountryToleranceKm = 25.0
  /// A nearest-land point is named after the nearest populated place of its country within this distance.
  public static let landNameRadiusKm = 25.0
  /// A nearest-land point lies on a named island when the island's outline contains it or passes within
  /// this distance.
  public static let islandToleranceKm = 5.0
  /// ``Placemark/locality`` is the nearest place when it lies within this distance of a point on land.
  public static let localityRadiusKm = 25.0
  /// The region is looked for among places of the point's country up to this distance away.
  public static let regionSearchRadiusKm = 1_500.0

  // MARK: Placemark

  /// Everything the data says about a point.
  ///
  /// - Land or water: the highest GSHHG level among the high-resolution coastline polygons containing
  ///   the point — odd (land, island in a lake, Antarctic ice) is land, even (lake, pond) is a lake,
  ///   none is the sea. A lake is `land == false` with ``Placemark/inLake`` set, and no ``Placemark/sea``.
  /// - Country: the Natural Earth polygon containing the point; otherwise the country whose border is
  ///   within ``coastalToleranceKm`` (nearest first); otherwise none.
  /// - Region: the admin-1 region of the nearest populated place in the same country (the data has no
  ///   admin-1 polygons), within ``regionSearchRadiusKm``.
  /// - Sea (water that is not a lake): the named marine polygon containing the point, else the nearest
  ///   named marine polygon.
  /// - Nearest land (water only): the nearest point of a shoreline (of land or ice at sea; any shore in a
  ///   lake), its country by the rule above with ``landCountryToleranceKm``, and its name by
  ///   ``landNameRadiusKm``.
  /// - Time zone: the time zone polygon containing the point; where none does (gaps between simplified
  ///   polygons), the nearest place's zone on land and `Etc/GMT±N` from the longitude at sea.
  ///
  /// - Complexity: without ``prepareForBatch()``, a few milliseconds: the layers are searched by their
  ///   ring boxes. Once the batch indexes are built (``prepareForBatch()``), a few microseconds, with
  ///   the same answers (the benchmark measures both); fewer in a batch, which visits its points in
  ///   spatial order.
  public func placemark(for coordinate: Coordinate) throws(PlaceDataError) -> Placemark {
    try placemark(for: coordinate, indexes: batchIndexes.withLock { $0 })
  }

  func placemark(for coordinate: Coordinate, indexes: BatchIndexes?) throws(PlaceDataError) -> Placemark {
    let layers: PlacemarkLayers
    if let indexes { layers = indexes.layers } else { layers = try placemarkLayers() }
    let places = layers.places
    let query = SphereGeometry.unitVector(coordinate)
    let search = NearestPlaceSearch(places: places, vectors: MappedPlaceVectors(places: places))
    let found = indexes.map { $0.places.nearest(to: query) } ?? search.nearest(to: query)
    guard let nearestIndex = found, nearestIndex.index >= 0 else {
      throw .malformed(path: places.path, detail: "no places")
    }
    let nearest = nearestPlace(places, nearestIndex.index, chordSquared: nearestIndex.chordSquared)

    let coast = layers.coast
    let topLevel =
      indexes.map { Self.highestLevel(of: $0.coast.features(containing: coordinate), in: coast) }
      ?? Self.highestLevel(of: coast.polygons.features(containing: coordinate), in: coast)
    let land = topLevel.map { $0 % 2 == 1 } ?? false
    let inLake = topLevel.map { $0 % 2 == 0 } ?? false

    let countryFeature = countryFeature(
      at: coordinate, query, toleranceKm: Self.coastalToleranceKm, layers: layers, indexes: indexes)
    let countries = layers.countries
    let names = indexes?.names
    let country = countryFeature.map { names?.countries[$0] ?? PlacemarkNames.country(countries, $0) }

    var region: Placemark.Region? = nil
    if let countryFeature,
      let value = names.map({ $0.countryCodeValues[countryFeature] })
        ?? country.flatMap(PlacemarkNames.countryCodeValue)
    {
      let regionPlace =
        places.countryCodeValue(at: nearest.index) == value
        ? nearest.index
        : nearestPlace(
          ofCountry: value, to: query,
          within: SphereGeometry.chordSquared(angle: Self.regionSearchRadiusKm / SphereGeometry.radiusKm),
          search: search, indexes: indexes)
      if let regionPlace, let regionIndex = places.regionIndex(at: regionPlace) {
        region = names.map { $0.regions[regionIndex] } ?? PlacemarkNames.region(places, regionIndex)
      }
    }

    var sea: String? = nil
    var lake: String? = nil
    var nearestLand: Placemark.NearestLand? = nil
    if !land {
      let marine = layers.marine
      func seaName(_ feature: Int) -> String? { names.map { $0.seas[feature] } ?? marine.name(feature) }
      let containing =
        indexes.map { Self.firstName(of: $0.marine.features(containing: coordinate), seaName) }
        ?? Self.firstName(of: marine.polygons.features(containing: coordinate), seaName)
      if inLake {
        lake = containing
      } else {
        sea =
          containing
          ?? (indexes.map { $0.namedSeaBorders.nearest(to: query) }
          ?? NearestBoundarySearch(layer: marine.polygons, coordinate: coordinate).nearest {
            marine.name($0) != nil
          }).flatMap { seaName($0.feature) }
      }
      let shore =
        indexes.map { indexes in
          inLake ? indexes.shores.nearest(to: query) : indexes.seaShores.nearest(to: query)
        }
        ?? NearestBoundarySearch(layer: coast.polygons, coordinate: coordinate).nearest { feature in
          inLake || coast.polygons.level(of: feature) % 2 == 1
        }
      if let shore {
        nearestLand = nearestLandDescription(shore, layers: layers, search: search, indexes: indexes)
      }
    }

    let zones = layers.zones
    let zone =
      (indexes.map { $0.timeZones.features(containing: coordinate).first }
      ?? zones.polygons.features(containing: coordinate).first).map {
        names?.zones[$0] ?? zones.identifier($0)
      }
      ?? (land ? nil : Self.oceanZone(longitude: coordinate.longitude))
      ?? places.timeZone(at: nearest.index)

    return Placemark(
      latitude: coordinate.latitude, longitude: coordinate.longitude, land: land, country: country,
      region: region, sea: sea, lake: lake, inLake: inLake, nearestPlace: nearest, nearestLand: nearestLand,
      timeZone: Placemark.TimeZone(identifier: zone))
  }

  /// The highest GSHHG level among coastline features; nil for none.
  private static func highestLevel<Features: Sequence<Int>>(
    of features: Features, in coast: CoastlineLayer
  ) -> Int? {
    var highest: Int? = nil
    for feature in features {
      let level = coast.polygons.level(of: feature)
      if highest.map({ level > $0 }) ?? true { highest = level }
    }
    return highest
  }

  /// The first name that `name` gives to one of `features`.
  private static func firstName<Features: Sequence<Int>>(
    of features: Features, _ name: (Int) -> String?
  ) -> String? {
    for feature in features {
      if let found = name(feature) { return found }
    }
    return nil
  }

  /// Describes a shoreline point: its country and, where a place is near, its name.
  private func nearestLandDescription(
    _ shore: BoundaryHit, layers: PlacemarkLayers, search: NearestPlaceSearch<MappedPlaceVectors>,
    indexes: BatchIndexes?
  ) -> Placemark.NearestLand {
    let point = SphereGeometry.coordinate(shore.point)
    let described: ShoreDescription
    if let remembered = indexes?.shoreDescription(of: shore.point) {
      described = remembered
    } else {
      described = describeShore(shore.point, layers: layers, search: search, indexes: indexes)
      indexes?.remember(described, of: shore.point)
    }
    let names = indexes?.names
    let island = described.island.map { names?.islands[$0] ?? layers.islands.name($0) }
    return Placemark.NearestLand(
      distanceKm: shore.angle * SphereGeometry.radiusKm, latitude: point.latitude, longitude: point.longitude,
      country: described.country.map { names?.countries[$0] ?? PlacemarkNames.country(layers.countries, $0) },
      name: described.place.map(layers.places.name) ?? island, island: island)
  }

  /// The country feature, named island and nearby place of a shoreline point (see ``placemark(for:)``).
  private func describeShore(
    _ vector: SIMD3<Double>, layers: PlacemarkLayers, search: NearestPlaceSearch<MappedPlaceVectors>,
    indexes: BatchIndexes?
  ) -> ShoreDescription {
    let point = SphereGeometry.coordinate(vector)
    let places = layers.places
    let feature = countryFeature(
      at: point, vector, toleranceKm: Self.landCountryToleranceKm, layers: layers, indexes: indexes)
    let island = islandFeature(at: point, vector, layers: layers, indexes: indexes)
    var found: Int? = nil
    if let feature,
      let value = indexes.map({ $0.names.countryCodeValues[feature] })
        ?? PlacemarkNames.countryCodeValue(PlacemarkNames.country(layers.countries, feature))
    {
      let limit = SphereGeometry.chordSquared(angle: Self.landNameRadiusKm / SphereGeometry.radiusKm)
      // The nearest place of all settles it when it is too far or of the same country.
      var settled = false
      if let nearest = indexes?.places.nearest(to: vector) {
        if nearest.chordSquared >= limit {
          settled = true
        } else if places.countryCodeValue(at: nearest.index) == value {
          (found, settled) = (nearest.index, true)
        }
      }
      if !settled {
        found = nearestPlace(ofCountry: value, to: vector, within: limit, search: search, indexes: indexes)
      }
    }
    return ShoreDescription(country: feature, island: island, place: found)
  }

  /// The index of the place of one country (its code as ``PlaceLayer`` stores it) nearest to a unit
  /// vector with a squared chord below `limit`.
  private func nearestPlace(
    ofCountry value: UInt16, to vector: SIMD3<Double>, within limit: Double,
    search: NearestPlaceSearch<MappedPlaceVectors>, indexes: BatchIndexes?
  ) -> Int? {
    if let indexes {
      return indexes.countryPlaces.nearest(to: vector, countryCode: value, within: limit)?.index
    }
    return search.nearest(to: vector, within: limit) { search.places.countryCodeValue(at: $0) == value }?
      .index
  }

  /// The named island (its feature) a shoreline point lies on: the island polygon containing it, else the
  /// one whose outline is nearest within ``islandToleranceKm`` (the island outlines come from another
  /// survey than the shorelines and are simplified).
  func islandFeature(
    at point: Coordinate, _ vector: SIMD3<Double>, layers: PlacemarkLayers, indexes: BatchIndexes?
  ) -> Int? {
    let islands = layers.islands
    if let feature =
      indexes.map({ $0.islands.features(containing: point).first })
      ?? islands.polygons.features(containing: point).first
    {
      return feature
    }
    let limit = Self.islandToleranceKm / SphereGeometry.radiusKm
    let nearest =
      indexes.map { $0.islandShores.nearest(to: vector, within: limit) }
      ?? NearestBoundarySearch(layer: islands.polygons, coordinate: point).nearest(within: limit) { _ in true
      }
    return nearest?.feature
  }

  /// The country feature containing a point, or the one whose border is nearest within `toleranceKm`
  /// (ties to the lower feature). `vector` is the point's unit vector.
  func countryFeature(
    at coordinate: Coordinate, _ vector: SIMD3<Double>, toleranceKm: Double, layers: PlacemarkLayers,
    indexes: BatchIndexes?
  ) -> Int? {
    let countries = layers.countries
    // The first feature with an ISO alpha-2 code, else the first.
    func chosen<Features: Sequence<Int>>(_ containing: Features) -> Int? {
      var first: Int? = nil
      for feature in containing {
        if countries.polygons.hasAttribute(0, of: feature) { return feature }
        first = first ?? feature
      }
      return first
    }
    if let feature =
      indexes.map({ chosen($0.countries.features(containing: coordinate)) })
      ?? chosen(countries.polygons.features(containing: coordinate))
    {
      return feature
    }
    if let indexes {
      let limit = toleranceKm / SphereGeometry.radiusKm
      if indexes.countryBorders(fartherThan: limit, from: coordinate, vector) { return nil }
      return indexes.countryBorders.nearest(to: vector, within: limit)?.feature
    }
    return NearestBoundarySearch(layer: countries.polygons, coordinate: coordinate).nearest(
      within: toleranceKm / SphereGeometry.radiusKm
    ) { _ in true }?.feature
  }

  /// The nautical time zone of a longitude: `Etc/GMT+11` for 165–180° W (the sign is POSIX's, inverted).
  static func oceanZone(longitude: Double) -> String {
    let hours = Int((longitude / 15).rounded())
    if hours == 0 { return "Etc/GMT" }
    return hours > 0 ? "Etc/GMT-\(hours)" : "Etc/GMT+\(-hours)"
  }

  // MARK: Batches

  /// Builds, once per geocoder, the in-memory indexes that make batches fast (see the benchmark for their
  /// build time and size): a cube-map grid of nearest-place candidates, a point-in-polygon grid per
  /// polygon layer (``PolygonGrid``), bounding-ball trees over shorelines, country borders, named
  /// seas and island outlines (``ShoreIndex``), and a cube-map grid of nearest-shoreline candidates for
  /// points at sea (``NearestShoreGrid``). Answers do not change: only their speed.
  ///
  /// ``placemarks(for:)`` and ``nearestPlaces(to:minimumPopulation:)`` call this for batches of more than
  /// ``batchIndexThreshold`` points; call it yourself to pay the cost up front.
  public func prepareForBatch() throws(PlaceDataError) {
    _ = try preparedIndexes()
  }

  /// Batches longer than this build the batch indexes first.
  public static let batchIndexThreshold = 2_000

  /// The batch indexes built so far: name, cells (or nodes) and bytes of each; empty before
  /// ``prepareForBatch()``.
  public func batchIndexSizes() -> [(name: String, cells: Int, bytes: Int)] {
    guard let indexes = batchIndexes.withLock({ $0 }) else { return [] }
    var sizes = [
      ("places", indexes.places.nodeCount, indexes.places.byteCount + 24 * indexes.places.vectors.count)
    ]
    for (name, grid) in [
      ("coastline-h", indexes.coast), ("countries", indexes.countries), ("marine", indexes.marine),
      ("timezones", indexes.timeZones), ("islands", indexes.islands),
    ] {
      sizes.append((name, grid.size.nodes, grid.size.bytes))
    }
    for (name, tree) in [
      ("shores", indexes.shores), ("country borders", indexes.countryBorders),
      ("named sea borders", indexes.namedSeaBorders), ("island shores", indexes.islandShores),
    ] {
      sizes.append((name, tree.size.nodes, tree.size.bytes))
    }
    sizes.append(("sea shores", indexes.seaShores.size.nodes, indexes.seaShores.size.bytes))
    sizes.append(("places by country", indexes.countryPlaces.count, indexes.countryPlaces.byteCount))
    return sizes
  }

  func preparedIndexes() throws(PlaceDataError) -> BatchIndexes {
    if let built = batchIndexes.withLock({ $0 }) { return built }
    let existing = placeGrid.withLock { $0 }
    let built = try BatchIndexes(layers: placemarkLayers()) { places in
      existing ?? self.loadOrBuildPlaceGrid(places)
    }
    return batchIndexes.withLock { slot in
      if let existing = slot { return existing }
      slot = built
      return built
    }
  }

  /// The placemarks of many coordinates, in order, computed on every core, or on `threads` threads.
  /// The result holds every placemark; for long inputs, ``forEachPlacemark(of:chunkSize:threads:_:)``
  /// keeps only a chunk at a time.
  ///
  /// The coordinates are answered in a spatial order (``SpatialOrder``), cut into one run per thread;
  /// each thread writes its own slots of the result, so the loop takes no locks. The batch indexes are
  /// built for inputs longer than ``batchIndexThreshold`` and used for any input once built.
  public func placemarks(
    for coordinates: [Coordinate], threads: Int? = nil
  ) throws(PlaceDataError) -> [Placemark] {
    _ = try placemarkLayers()
    let built = batchIndexes.withLock { $0 }
    let indexes = coordinates.count > Self.batchIndexThreshold ? try preparedIndexes() : built
    return try parallelMap(coordinates, threads: threads) { coordinate throws(PlaceDataError) in
      try self.placemark(for: coordinate, indexes: indexes)
    }
  }

  /// The placemarks of a sequence of coordinates of any length, handed to `body` in order, one chunk at a
  /// time, each chunk computed on every core (or on `threads` threads) in spatial order.
  ///
  /// Only one chunk of coordinates and placemarks is held at a time, so the memory used is that of the
  /// batch indexes (built when the first chunk is longer than ``batchIndexThreshold``) however many
  /// coordinates there are. Errors from the data or from `body` stop the walk and are rethrown.
  public func forEachPlacemark<Coordinates: Sequence<Coordinate>>(
    of coordinates: Coordinates, chunkSize: Int = 8_192, threads: Int? = nil,
    _ body: ([Placemark]) throws -> Void
  ) throws {
    precondition(chunkSize > 0, "chunkSize must be positive")
    _ = try placemarkLayers()
    var iterator = coordinates.makeIterator()
    var chunk: [Coordinate] = []
    chunk.reserveCapacity(chunkSize)
    var indexes = batchIndexes.withLock { $0 }
    while true {
      chunk.removeAll(keepingCapacity: true)
      while chunk.count < chunkSize, let next = iterator.next() { chunk.append(next) }
      if chunk.isEmpty { return }
      if indexes == nil && chunk.count > Self.batchIndexThreshold { indexes = try preparedIndexes() }
      let prepared = indexes
      try body(
        try parallelMap(chunk, threads: threads) { coordinate throws(PlaceDataError) in
          try self.placemark(for: coordinate, indexes: prepared)
        })
      if chunk.count < chunkSize { return }
    }
  }

  /// The nearest place to each of many coordinates, in order, computed on every core (or on `threads`
  /// threads): from the nearest-place grid for inputs longer than ``batchIndexThreshold`` or once the grid
  /// is built.
  public func nearestPlaces(
    to coordinates: [Coordinate], minimumPopulation: Int = 0, threads: Int? = nil
  ) throws(PlaceDataError)
    -> [NearestPlace]
  {
    let places = try data.places()
    let built = batchIndexes.withLock({ $0?.places }) ?? placeGrid.withLock({ $0 })
    if minimumPopulation > 0 || (coordinates.count <= Self.batchIndexThreshold && built == nil) {
      return try parallelMap(coordinates, threads: threads) { coordinate throws(PlaceDataError) in
        guard let found = try self.nearestPlace(to: coordinate, minimumPopulation: minimumPopulation) else {
          throw .malformed(path: places.path, detail: "no place has \(minimumPopulation) inhabitants")
        }
        return found
      }
    }
    let grid = try preparedPlaceGrid()
    return try parallelMap(coordinates, threads: threads) { coordinate throws(PlaceDataError) in
      let found = grid.nearest(to: SphereGeometry.unitVector(coordinate))
      return self.nearestPlace(places, found.index, chordSquared: found.chordSquared)
    }
  }

  /// The index in ``PlaceData/places()`` of the nearest place to each of many coordinates and its
  /// great-circle distance, in order, from the nearest-place grid (built if needed) on every core (or on
  /// `threads` threads): the answers of ``nearestPlaces(to:minimumPopulation:threads:)`` for callers that
  /// read the places' attributes from the layer themselves.
  public func nearestPlaceIndexes(
    to coordinates: [Coordinate], threads: Int? = nil
  ) throws(PlaceDataError)
    -> [(index: Int, distanceKm: Double)]
  {
    let index = try nearestPlaceIndex()
    return try parallelMap(coordinates, threads: threads) { coordinate throws(PlaceDataError) in
      index.nearestIndex(to: coordinate)
    }
  }

  /// A lock-free handle on the batch grid for answering many nearest-place queries from one thread (or
  /// several), building the batch indexes first if needed.
  public func nearestPlaceIndex() throws(PlaceDataError) -> NearestPlaceIndex {
    NearestPlaceIndex(places: try data.places(), grid: try preparedPlaceGrid())
  }

  /// The nearest-place grid alone (of the batch indexes, if built), building it if needed.
  func preparedPlaceGrid() throws(PlaceDataError) -> NearestPlaceGrid {
    if let built = batchIndexes.withLock({ $0?.places }) ?? placeGrid.withLock({ $0 }) { return built }
    let places = try data.places()
    let built = loadOrBuildPlaceGrid(places)
    return placeGrid.withLock { slot in
      if let existing = slot { return existing }
      slot = built
      return built
    }
  }

  /// Every layer a placemark reads, opened on first use: opening them before a batch starts makes their
  /// errors surface first.
  func placemarkLayers() throws(PlaceDataError) -> PlacemarkLayers {
    if let opened = openedLayers.withLock({ $0 }) { return opened }
    let opened = try PlacemarkLayers(data: data)
    return openedLayers.withLock { slot in
      if let existing = slot { return existing }
      slot = opened
      return opened
    }
  }

  /// Applies `transform` to every element on `threads` threads (by default, one per core), keeping the
  /// order of the input; an error stops the work and is rethrown (of several, the one of the earliest
  /// run).
  ///
  /// Inputs of ``SpatialOrder/threshold`` elements or more are visited in spatial order, cut into runs
  /// that the threads take in turn.
  private func parallelMap<Result: Sendable>(
    _ input: [Coordinate], threads: Int?,
    _ transform: @Sendable (Coordinate) throws(PlaceDataError) -> Result
  ) throws(PlaceDataError) -> [Result] {
    precondition(threads.map { $0 > 0 } ?? true, "threads must be positive")
    let count = input.count
    guard count > 0 else { return [] }
    let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
    let workers = min(count, threads ?? cores)
    // On every core, more runs than cores, taken in turn: a worker held up (by another thread of the
    // process, say) leaves its remaining runs to the others instead of making them wait. With fewer
    // threads than cores, one run each, so that no more than `threads` run at once.
    let runs = workers > 1 && workers >= cores ? min(count, workers * 8) : workers
    let order =
      count >= SpatialOrder.threshold ? input.withUnsafeBufferPointer(SpatialOrder.positions) : []
    @Sendable func index(_ position: Int) -> Int { order.isEmpty ? position : Int(order[position]) }
    let errors = UnsafeMutablePointer<PlaceDataError?>.allocate(capacity: runs)
    let done = UnsafeMutablePointer<Int>.allocate(capacity: runs)
    errors.initialize(repeating: nil, count: runs)
    done.initialize(repeating: 0, count: runs)
    defer {
      errors.deinitialize(count: runs)
      errors.deallocate()
      done.deallocate()
    }
    var failure: PlaceDataError? = nil
    // The workers write straight into the result's storage.
    let result = [Result](unsafeUninitializedCapacity: count) { buffer, initialized in
      let output = buffer.baseAddress!
      input.withUnsafeBufferPointer { input in
        let slots = WorkerSlots(input: input, output: output, errors: errors, done: done)
        DispatchQueue.concurrentPerform(iterations: runs) { run in
          let (input, output, errors, done) = (slots.input, slots.output, slots.errors, slots.done)
          for position in (count * run / runs)..<(count * (run + 1) / runs) {
            let index = index(position)
            do throws(PlaceDataError) {
              (output + index).initialize(to: try transform(input[index]))
            } catch {
              errors[run] = error
              break
            }
            done[run] += 1
          }
        }
      }
      if let error = (0..<runs).lazy.compactMap({ errors[$0] }).first {
        for run in 0..<runs {
          let start = count * run / runs
          for position in start..<(start + done[run]) { (output + index(position)).deinitialize(count: 1) }
        }
        failure = error
        initialized = 0
      } else {
        initialized = count
      }
    }
    if let failure { throw failure }
    return result
  }
}

/// The buffers of a parallel map: each worker touches only its own slots.
private struct WorkerSlots<Result>: @unchecked Sendable {
  // @unchecked: workers write disjoint index ranges of `output` and their own entries of `errors`/`done`.
  let input: UnsafeBufferPointer<Coordinate>
  let output: UnsafeMutablePointer<Result>
  let errors: UnsafeMutablePointer<PlaceDataError?>
  let done: UnsafeMutablePointer<Int>
}

/// Exact nearest-place answers from the batch grid of a ``ReverseGeocoder`` (see
/// ``ReverseGeocoder/nearestPlaceIndex()``): the same answers as ``ReverseGeocoder/nearestPlace(to:minimumPopulation:)``
/// without a population filter, several times faster.
public struct NearestPlaceIndex: Sendable {
  let places: PlaceLayer
  let grid: NearestPlaceGrid

  /// The place nearest to `coordinate` by great-circle distance.
  ///
  /// - Complexity: O(1): a cell lookup and a scan of a dozen candidates.
  public func nearest(to coordinate: Coordinate) -> NearestPlace {
    let found = grid.nearest(to: SphereGeometry.unitVector(coordinate))
    let point = places.coordinate(at: found.index)
    return NearestPlace(
      index: found.index, name: places.name(at: found.index),
      countryCode: places.countryCode(at: found.index),
      latitude: point.latitude, longitude: point.longitude, population: places.population(at: found.index),
      distanceKm: SphereGeometry.angle(chordSquared: found.chordSquared) * SphereGeometry.radiusKm)
  }

  /// How many cells (at every level) the grid holds, and how many candidate entries its leaves list.
  public var size: (cells: Int, candidates: Int) { (grid.nodeCount, grid.candidateCount) }

  /// The index of the place nearest to `coordinate` and its great-circle distance in kilometres, without
  /// reading the place's attributes.
  public func nearestIndex(to coordinate: Coordinate) -> (index: Int, distanceKm: Double) {
    let found = grid.nearest(to: SphereGeometry.unitVector(coordinate))
    return (found.index, SphereGeometry.angle(chordSquared: found.chordSquared) * SphereGeometry.radiusKm)
  }
}

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
  private let shoreDescriptions = Mutex(ShoreDescriptionCache())

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
    let (coastLayer, countryLayer, marineLayer, zoneLayer, islandLayer) = (
      layers.coast.polygons, layers.countries.polygons, layers.marine.polygons, layers.zones.polygons,
      layers.islands.polygons
    )
    @Sendable func grid(_ layer: PolygonLayer) -> PolygonGrid {
      let grid = PolygonGrid(layer: layer)
      layer.releaseVertexStream()
      return grid
    }
    let (first, second) = Self.both(
      { () -> (PolygonGrid, ShoreIndex, NearestShoreGrid) in
        let coast = grid(coastLayer)
        let shores = ShoreIndex(grid: coast) { _ in true }
        let seaShores = NearestShoreGrid(shores: shores) { coastLayer.level(of: $0) % 2 == 1 }
        return (coast, shores, seaShores)
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
    (coast, shores, seaShores) = first
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
    let firstResult = Mutex<First?>(nil)
    let secondResult = Mutex<Second?>(nil)
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

/// A shoreline point by the exact bits of its unit vector.
struct ShorePoint: Equatable {
  let x: UInt64
  let y: UInt64
  let z: UInt64

  init(_ vector: SIMD3<Double>) {
    (x, y, z) = (vector.x.bitPattern, vector.y.bitPattern, vector.z.bitPattern)
  }

  /// No unit vector: the key of an empty slot.
  static let none = ShorePoint(.zero)

  /// A well-mixed hash of the bits.
  var hash: UInt64 {
    var mixed = (x &* 0x9E37_79B9_7F4A_7C15) ^ (y &* 0xC2B2_AE3D_27D4_EB4F) ^ (z &* 0x1656_67B1_9E37_79F9)
    mixed ^= mixed >> 29
    return mixed &* 0xBF58_476D_1CE4_E5B9
  }
}

/// What describes a shoreline point: its country feature, named island feature and nearby place (an index
/// in the place layer), kept in 12 bytes.
struct ShoreDescription: Sendable, Equatable {
  private let countryValue: Int32
  private let islandValue: Int32
  private let placeValue: Int32

  init(country: Int?, island: Int?, place: Int?) {
    countryValue = country.map { Int32($0) } ?? -1
    islandValue = island.map { Int32($0) } ?? -1
    placeValue = place.map { Int32($0) } ?? -1
  }

  var country: Int? { countryValue < 0 ? nil : Int(countryValue) }
  var island: Int? { islandValue < 0 ? nil : Int(islandValue) }
  var place: Int? { placeValue < 0 ? nil : Int(placeValue) }
}

/// A fixed number of described shoreline points, each in the slot its bits hash to: a point takes the
/// slot of the one before it, so the memory stays the same (1.2 MB) however many points a batch meets.
struct ShoreDescriptionCache {
  static let slotBits = 15
  static let slotCount = 1 << slotBits
  private var keys = [ShorePoint](repeating: .none, count: slotCount)
  private var values = [ShoreDescription](
    repeating: ShoreDescription(country: nil, island: nil, place: nil), count: slotCount)
  /// How many slots hold a point.
  private(set) var count = 0

  private func slot(_ point: ShorePoint) -> Int {
    Int(truncatingIfNeeded: point.hash >> (64 - Self.slotBits))
  }

  subscript(point: ShorePoint) -> ShoreDescription? {
    get {
      let slot = slot(point)
      return keys[slot] == point ? values[slot] : nil
    }
    set {
      guard let newValue, point != .none else { return }
      let slot = slot(point)
      if keys[slot] == .none { count += 1 }
      (keys[slot], values[slot]) = (point, newValue)
    }
  }
}
