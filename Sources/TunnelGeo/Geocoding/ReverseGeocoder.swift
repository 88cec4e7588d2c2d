import Dispatch
import Synchronization
import TunnelSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
/// by ``placemarks(for:fields:threads:)`` for large batches) builds the in-memory indexes that make many queries fast.
public final class ReverseGeocoder: Sendable {
  /// The data the geocoder reads.
  public let data: PlaceData
  /// Where built indexes are kept for later processes; nil keeps nothing.
  public let cache: IndexCache?
  /// The path of ``cache``.
  public var cacheDirectory: String? { cache?.path }
  /// What has been opened or built so far, behind one lock: one generic instance for the three slots, so
  /// a single query's first use of the geocoder makes one type at run time, not three.
  private let prepared = Locked(Prepared())

  private struct Prepared {
    var placeGrid: NearestPlaceGrid?
    var openedLayers: PlacemarkLayers?
    /// Every set of batch indexes built, the latest last, kept as long as the geocoder, so that the address
    /// ``published`` holds always names a live object (a later one shares the parts of those before).
    var publishedIndexes: [BatchIndexes] = []
    /// The latest batch indexes.
    var batchIndexes: BatchIndexes? { publishedIndexes.last }
  }

  /// The address of the latest batch indexes (``Prepared/batchIndexes``), for ``placemark(for:fields:)`` to read without
  /// the lock: a library's single lookups took the lock on every call.
  private let published = Atomic<UInt>(0)

  /// Creates a geocoder over `data`; nothing is opened until the first query.
  ///
  /// With a `cache`, the indexes a batch builds (the nearest-place grid, the polygon grids, the trees of
  /// shores and borders, the sea-shore grid, the border clearances) are saved there, and later geocoders
  /// load them instead of building them again (see the benchmark for both times); the answers are the
  /// same. A file there that is damaged, or was not written by a holder of the folder's key, is never
  /// used (``IndexCache``).
  public init(data: PlaceData, cache: IndexCache? = nil) {
    self.data = data
    self.cache = cache
  }

  /// Creates a geocoder over `data` that keeps its indexes in the folder at `cacheDirectory`, when that
  /// folder can be used (``IndexCache/init(path:)`` says why not); else it keeps none.
  public convenience init(data: PlaceData, cacheDirectory: String?) {
    self.init(data: data, cache: cacheDirectory.flatMap { try? IndexCache(path: $0) })
  }

  /// The nearest-place grid of `places`, loaded from the cache directory or built (and saved there).
  func loadOrBuildPlaceGrid(_ places: PlaceLayer) -> NearestPlaceGrid {
    NearestPlaceGridFile.grid(places: places, cache: cache)
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
    let answer = nearestPlace(places, to: coordinate, minimumPopulation: minimumPopulation).map {
      Self.nearestPlace(places, $0.index, chordSquared: $0.chordSquared)
    }
    try data.checkIntact()
    return answer
  }

  /// The index of the place nearest to `coordinate` with at least `minimumPopulation` inhabitants, by a
  /// search of the place layer's k-d tree.
  private func nearestPlace(
    _ places: PlaceLayer, to coordinate: Coordinate, minimumPopulation: Int
  ) -> (index: Int, chordSquared: Double)? {
    let query = SphereGeometry.unitVector(coordinate)
    let search = NearestPlaceSearch(places: places, vectors: MappedPlaceVectors(places: places))
    return minimumPopulation <= 0
      ? search.nearest(to: query)
      : search.nearest(to: query) { places.population(at: $0) >= minimumPopulation }
  }

  static func nearestPlace(_ places: PlaceLayer, _ index: Int, chordSquared: Double) -> NearestPlace {
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

  /// The islands whose shores give a country to the sea round them where Natural Earth's outlines are
  /// farther than ``coastalToleranceKm`` (atolls, reefs) are GSHHG's land polygons less than this many
  /// degrees of latitude and of longitude across: Natural Earth draws the continents and large islands within
  /// its tolerance, and searching their long shores from every point of the sea near them would cost more than
  /// all the rest of a country.
  public static let islandSpanDegrees = 1.0

  /// Natural Earth draws borders at 1:10 million, where the Vatican is a blot of 150 m that misses the
  /// point GeoNames gives its city, Gibraltar ends 400 m short of its town, and Büsingen and Baarle-Hertog
  /// are not drawn: within this many kilometres of a border, a point whose time zone is another
  /// country's (the zones follow OpenStreetMap's borders) belongs to that country, when its border is
  /// that near too.
  public static let borderAccuracyKm = 5.0
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
  ///   within ``coastalToleranceKm`` (nearest first); otherwise none. Within ``borderAccuracyKm`` of a
  ///   border, the time zone's country when its border is that near too (the Vatican, Gibraltar).
  ///   Farther from every outline, in a country's time zone (the zones reach some 22 km out to sea), the
  ///   country of a GSHHG island (less than ``islandSpanDegrees`` across) within ``coastalToleranceKm``,
  ///   as the nearest land names it (atolls that Natural Earth draws kilometres off or not at all: Tarawa,
  ///   Nukunonu).
  /// - Region: the admin-1 region polygon of the point's country containing the point, else the one
  ///   whose border is within ``coastalToleranceKm`` (nearest first); where there is none (farther out at
  ///   sea, a country the polygons do not cover) or it has no admin-1 code (a polygon whose places are in
  ///   several regions, or none), the admin-1 region of the nearest populated place in the same country,
  ///   within ``regionSearchRadiusKm``. ``Placemark/Region/source`` says which.
  /// - Sea (water that is not a lake): the named water GSHHG draws as sea containing the point (the
  ///   IJsselmeer, ``LakeLayer/seaName(containing:)``), else the named marine polygon containing it, else
  ///   the nearest named marine polygon.
  /// - Lake: the name ``LakeLayer`` gives the GSHHG lake holding the point (where a lake has several, the
  ///   named polygon holding the point, else the nearest), else the marine polygon's; none for a lake no
  ///   source names.
  /// - Nearest land (water only): the nearest point of a shoreline (of land or ice at sea; any shore in a
  ///   lake), its country by the rule above with ``landCountryToleranceKm``, and its name by
  ///   ``landNameRadiusKm``.
  /// - Time zone: the time zone polygon containing the point; where none does (gaps between simplified
  ///   polygons), the nearest place's zone on land and `Etc/GMT±N` from the longitude at sea.
  /// - Boundaries (``Placemark/boundaryKm``): the distance to the nearest edge of the countries, regions
  ///   and time zones layers (the region's only where a polygon gave it; at sea outside every zone, the
  ///   meridian where the nautical zone changes counts too). These are distances to the lines
  ///   themselves: the rules above that use a tolerance act that far from a line, so at sea the country
  ///   can change ``coastalToleranceKm`` sooner, and within ``borderAccuracyKm`` of a border the country
  ///   follows the time zone, whose boundary distance is given too.
  ///
  /// - Complexity: without ``prepareForBatch()``, a few milliseconds: the layers are searched by their
  ///   ring boxes. Once the batch indexes are built (``prepareForBatch()``), a few microseconds, with
  ///   the same answers (the benchmark measures both); fewer in a batch, which visits its points in
  ///   spatial order.
  public func placemark(for coordinate: Coordinate) throws(PlaceDataError) -> Placemark {
    try placemark(for: coordinate, fields: .all)
  }

  /// ``placemark(for:)-90ewk`` for concurrent code: the lookup runs on a thread of its own, so a task awaiting
  /// it never holds one of the cooperative pool's few threads for the milliseconds an unprepared lookup
  /// takes.
  ///
  /// ```swift
  /// let geocoder = ReverseGeocoder(data: try PlaceData())
  /// async let here = geocoder.placemark(for: try Coordinate(latitude: 56, longitude: 8.5))
  /// async let there = geocoder.placemark(for: try Coordinate(latitude: -56, longitude: -171.5))
  /// print(try await here, try await there)
  /// ```
  public func placemark(for coordinate: Coordinate) async throws(PlaceDataError) -> Placemark {
    let result = await withCheckedContinuation {
      (continuation: CheckedContinuation<Result<Placemark, PlaceDataError>, Never>) in
      DispatchQueue.global(qos: .userInitiated).async {
        continuation.resume(
          returning: Result { () throws(PlaceDataError) in try self.placemark(for: coordinate) })
      }
    }
    return try result.get()
  }

  /// What the data says about a point in `fields` (see ``Placemark/Fields``): the lookups the other
  /// fields need are not made.
  public func placemark(
    for coordinate: Coordinate, fields: Placemark.Fields
  ) throws(PlaceDataError) -> Placemark {
    let indexes = UnsafeRawPointer(bitPattern: published.load(ordering: .acquiring)).map {
      Unmanaged<BatchIndexes>.fromOpaque($0).takeUnretainedValue()
    }
    let answer = try placemark(for: coordinate, indexes: indexes, fields: fields)
    try data.checkIntact()
    return answer
  }

  func placemark(
    for coordinate: Coordinate, indexes: BatchIndexes?, fields: Placemark.Fields = .all
  ) throws(PlaceDataError) -> Placemark {
    if let indexes {
      return try PlacemarkAssembly(lookups: indexes).placemark(for: coordinate, fields: fields)
    }
    return try PlacemarkAssembly(lookups: LayerLookups(layers: try placemarkLayers())).placemark(
      for: coordinate, fields: fields)
  }

  /// The placemarks of `coordinates` on every core (or `threads`), from one assembly made before the
  /// workers start: made for each point, it counted its references to the shared indexes on every core at
  /// once, for every point.
  private func placemarks(
    of coordinates: [Coordinate], indexes: BatchIndexes?, fields: Placemark.Fields, threads: Int?
  ) throws(PlaceDataError) -> [Placemark] {
    let ordered = SpatialOrder.pays(for: fields)
    if let indexes {
      let assembly = PlacemarkAssembly(lookups: indexes)
      return try parallelMap(coordinates, ordered: ordered, threads: threads) {
        coordinate throws(PlaceDataError) in try assembly.placemark(for: coordinate, fields: fields)
      }
    }
    let assembly = PlacemarkAssembly(lookups: LayerLookups(layers: try placemarkLayers()))
    return try parallelMap(coordinates, ordered: ordered, threads: threads) {
      coordinate throws(PlaceDataError) in try assembly.placemark(for: coordinate, fields: fields)
    }
  }

  /// The nautical time zone of a longitude: `Etc/GMT+11` for 165–180° W (the sign is POSIX's, inverted).
  static func oceanZone(longitude: Double) -> String {
    oceanZone(hours: oceanZoneHours(longitude: longitude))
  }

  /// The offset in hours east of the nautical time zone of a longitude, -12…12.
  static func oceanZoneHours(longitude: Double) -> Int { Int((longitude / 15).rounded()) }

  /// The nautical time zone `hours` east (-12…12) of Greenwich: `Etc/GMT+11` for -11.
  static func oceanZone(hours: Int) -> String {
    if hours == 0 { return "Etc/GMT" }
    return hours > 0 ? "Etc/GMT-\(hours)" : "Etc/GMT+\(-hours)"
  }

  // MARK: Batches

  /// Builds, once per geocoder, the in-memory indexes that make batches fast (see the benchmark for their
  /// build time and size): a cube-map grid of nearest-place candidates, a point-in-polygon grid per
  /// polygon layer (`PolygonGrid`), bounding-ball trees over shorelines, country borders, named
  /// seas and island outlines (`ShoreIndex`), and a cube-map grid of nearest-shoreline candidates for
  /// points at sea (`NearestShoreGrid`). Answers do not change: only their speed.
  ///
  /// ``placemarks(for:fields:threads:)`` and ``nearestPlaces(to:minimumPopulation:threads:)`` call this for
  /// batches of more than ``batchIndexThreshold`` points; call it yourself to pay the cost up front.
  public func prepareForBatch() throws(PlaceDataError) {
    _ = try preparedIndexes()
  }

  /// Builds the batch indexes that `fields` need (see ``prepareForBatch()``), and no others: a batch of
  /// countries builds no index of seas, islands or shores.
  public func prepareForBatch(fields: Placemark.Fields) throws(PlaceDataError) {
    _ = try preparedIndexes(BatchIndexes.Parts(fields))
  }

  /// Batches longer than this build the batch indexes first.
  public static let batchIndexThreshold = 2_000

  /// The batch indexes built so far: name, cells (or nodes) and bytes of each; empty before
  /// ``prepareForBatch()``.
  public func batchIndexSizes() -> [(name: String, cells: Int, bytes: Int)] {
    guard let indexes = prepared.withLock({ $0.batchIndexes }) else { return [] }
    var sizes: [(name: String, cells: Int, bytes: Int)] = []
    if let places = indexes.places {
      sizes.append(("places", places.nodeCount, places.byteCount + 24 * places.vectors.count))
    }
    for (name, grid) in [
      ("coastline-h", indexes.coast), ("countries", indexes.countries), ("marine", indexes.marine),
      ("timezones", indexes.timeZones), ("islands", indexes.islands), ("regions", indexes.regions),
    ] {
      if let grid { sizes.append((name, grid.size.nodes, grid.size.bytes)) }
    }
    for (name, tree) in [
      ("shores", indexes.shores), ("country borders", indexes.countryBorders),
      ("named sea borders", indexes.namedSeaBorders), ("island shores", indexes.islandShores),
      ("region borders", indexes.regionBorders), ("zone borders", indexes.zoneBorders),
    ] {
      if let tree { sizes.append((name, tree.size.nodes, tree.size.bytes)) }
    }
    for (name, grid) in [
      ("sea shores", indexes.seaShores), ("country border grid", indexes.countryBorderGrid),
      ("zone border grid", indexes.zoneBorderGrid), ("region border grid", indexes.regionBorderGrid),
    ] {
      if let grid { sizes.append((name, grid.size.nodes, grid.size.bytes)) }
    }
    if let countryPlaces = indexes.countryPlaces {
      sizes.append(("places by country", countryPlaces.count, countryPlaces.byteCount))
    }
    return sizes
  }

  /// The batch indexes, with at least `parts` built: those already built are kept, and the others
  /// built beside them.
  func preparedIndexes(_ parts: BatchIndexes.Parts = .all) throws(PlaceDataError) -> BatchIndexes {
    let current = prepared.withLock { $0.batchIndexes }
    if let current, current.parts.isSuperset(of: parts) { return current }
    let existingGrid = prepared.withLock { $0.placeGrid }
    let built = try BatchIndexes(
      layers: placemarkLayers(), parts: parts, existing: current, cache: cache
    ) { places in
      existingGrid ?? self.loadOrBuildPlaceGrid(places)
    }
    try data.checkIntact()
    return prepared.withLock { slots in
      if let existing = slots.batchIndexes, existing.parts.isSuperset(of: built.parts) { return existing }
      slots.publishedIndexes.append(built)
      published.store(UInt(bitPattern: Unmanaged.passUnretained(built).toOpaque()), ordering: .releasing)
      return built
    }
  }

  /// The placemarks of many coordinates, in order, computed on every core, or on `threads` threads.
  /// The result holds every placemark; for long inputs, ``forEachPlacemark(of:fields:chunkSize:threads:_:)``
  /// keeps only a chunk at a time.
  ///
  /// The coordinates are answered in a spatial order (`SpatialOrder`) when some field asked for is not
  /// the land, the country or the time zone, and in their own order otherwise, cut into one run per
  /// thread;
  /// each thread writes its own slots of the result, so the loop takes no locks. The batch indexes are
  /// built for inputs longer than ``batchIndexThreshold`` and used for any input once built.
  ///
  /// With `fields`, only those fields are computed (see ``Placemark/Fields``), and only the indexes they
  /// need are built.
  ///
  /// ```swift
  /// let placemarks = try geocoder.placemarks(for: coordinates, fields: [.country, .timeZone])
  /// placemarks[0].country?.code  // "DK"
  /// ```
  public func placemarks(
    for coordinates: [Coordinate], fields: Placemark.Fields = .all, threads: Int? = nil
  ) throws(PlaceDataError) -> [Placemark] {
    _ = try placemarkLayers()
    let built = prepared.withLock { $0.batchIndexes }
    let indexes =
      coordinates.count > Self.batchIndexThreshold ? try preparedIndexes(BatchIndexes.Parts(fields)) : built
    let answers = try placemarks(of: coordinates, indexes: indexes, fields: fields, threads: threads)
    try data.checkIntact()
    return answers
  }

  /// The keys of `coordinates` for `fields` (only ``Placemark/Fields/land``, ``Placemark/Fields/country``,
  /// ``Placemark/Fields/region``, ``Placemark/Fields/timeZone`` and ``Placemark/Fields/sea`` count), found as
  /// ``placemarks(for:fields:threads:)`` finds them: ``placemark(of:search:)`` of each is the placemark that
  /// gives.
  package func placemarkKeys(
    for coordinates: [Coordinate], fields: Placemark.Fields, threads: Int? = nil
  ) throws(PlaceDataError) -> [PlacemarkKey] {
    // Not the searches' indexes: a key holds no search.
    try keys(of: coordinates, fields: fields.subtracting([.boundaries, .nearestLand]), threads: threads)
  }

  /// ``placemarkKeys(for:fields:threads:)``, each with its search for ``Placemark/Fields/nearestLand`` and
  /// ``Placemark/Fields/boundaries`` where `fields` has them; the points in spatial order, since those
  /// searches read trees and vertices that points near each other share.
  package func searchedKeys(
    for coordinates: [Coordinate], fields: Placemark.Fields, threads: Int? = nil
  ) throws(PlaceDataError) -> [SearchedKey] {
    try keys(of: coordinates, fields: fields, threads: threads)
  }

  /// The keys, or searched keys, of `coordinates` on every core, from the batch indexes when there are
  /// more than ``batchIndexThreshold`` (or they were built), else from the layers.
  private func keys<Output: KeyedOutput>(
    of coordinates: [Coordinate], fields: Placemark.Fields, threads: Int?
  ) throws(PlaceDataError) -> [Output] {
    _ = try placemarkLayers()
    let built = prepared.withLock { $0.batchIndexes }
    let keys: [Output]
    if let indexes = coordinates.count > Self.batchIndexThreshold
      ? try preparedIndexes(BatchIndexes.Parts(fields)) : built
    {
      let assembly = PlacemarkAssembly(lookups: indexes)
      keys = try parallelMap(coordinates, ordered: Output.isSpatiallyOrdered, threads: threads) {
        block, output, made throws(PlaceDataError) in
        try Output.keys(of: block, by: assembly, fields: fields, into: output, made: &made)
      }
    } else {
      let assembly = PlacemarkAssembly(lookups: LayerLookups(layers: try placemarkLayers()))
      keys = try parallelMap(coordinates, ordered: Output.isSpatiallyOrdered, threads: threads) {
        block, output, made throws(PlaceDataError) in
        try Output.keys(of: block, by: assembly, fields: fields, into: output, made: &made)
      }
    }
    try data.checkIntact()
    return keys
  }

  /// The placemarks of a sequence of coordinates of any length, handed to `body` in order, one chunk at a
  /// time, each chunk computed on every core (or on `threads` threads), in spatial order as in
  /// ``placemarks(for:fields:threads:)``.
  ///
  /// Only one chunk of coordinates and placemarks is held at a time, so the memory used is that of the
  /// batch indexes (built when the first chunk is longer than ``batchIndexThreshold``) however many
  /// coordinates there are. Errors from the data or from `body` stop the walk and are rethrown.
  ///
  /// ```swift
  /// try geocoder.forEachPlacemark(of: coordinates, fields: .nearestPlace) { chunk in
  ///   for placemark in chunk { print(placemark.nearestPlace.name) }
  /// }
  /// ```
  public func forEachPlacemark<Coordinates: Sequence<Coordinate>>(
    of coordinates: Coordinates, fields: Placemark.Fields = .all, chunkSize: Int = 8_192, threads: Int? = nil,
    _ body: ([Placemark]) throws -> Void
  ) throws {
    precondition(chunkSize > 0, "chunkSize must be positive")
    _ = try placemarkLayers()
    var iterator = coordinates.makeIterator()
    var chunk: [Coordinate] = []
    chunk.reserveCapacity(chunkSize)
    var indexes = prepared.withLock { $0.batchIndexes }
    while true {
      chunk.removeAll(keepingCapacity: true)
      while chunk.count < chunkSize, let next = iterator.next() { chunk.append(next) }
      if chunk.isEmpty { return }
      if indexes == nil && chunk.count > Self.batchIndexThreshold {
        indexes = try preparedIndexes(BatchIndexes.Parts(fields))
      }
      let answers = try placemarks(of: chunk, indexes: indexes, fields: fields, threads: threads)
      try data.checkIntact()
      try body(answers)
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
    try nearestPlaceAnswers(to: coordinates, minimumPopulation: minimumPopulation, threads: threads) {
      places, index, chordSquared in Self.nearestPlace(places, index, chordSquared: chordSquared)
    }
  }

  /// The index in ``PlaceData/places()`` of each coordinate's nearest place and its distance in
  /// kilometres: the places ``nearestPlaces(to:minimumPopulation:threads:)`` finds, without reading their
  /// names and attributes, for a caller that reads only some of them, or reads them its own way.
  public func nearestPlaceIndices(
    to coordinates: [Coordinate], threads: Int? = nil
  ) throws(PlaceDataError) -> [(index: Int, distanceKm: Double)] {
    try nearestPlaceAnswers(to: coordinates, minimumPopulation: 0, threads: threads) {
      _, index, chordSquared in
      (index, SphereGeometry.angle(chordSquared: chordSquared) * SphereGeometry.radiusKm)
    }
  }

  /// Each coordinate's nearest place, made into an answer by `make` (with the place layer, the place's
  /// index and its squared chord distance) on the thread that found it.
  private func nearestPlaceAnswers<Answer: Sendable>(
    to coordinates: [Coordinate], minimumPopulation: Int, threads: Int?,
    _ make: @escaping @Sendable (PlaceLayer, Int, Double) -> Answer
  ) throws(PlaceDataError) -> [Answer] {
    let places = try data.places()
    let built = prepared.withLock({ $0.batchIndexes?.places ?? $0.placeGrid })
    let answers: [Answer]
    if minimumPopulation > 0 || (coordinates.count <= Self.batchIndexThreshold && built == nil) {
      answers = try parallelMap(coordinates, threads: threads) { coordinate throws(PlaceDataError) in
        guard let found = self.nearestPlace(places, to: coordinate, minimumPopulation: minimumPopulation)
        else {
          throw .malformed(path: places.path, detail: "no place has \(minimumPopulation) inhabitants")
        }
        return make(places, found.index, found.chordSquared)
      }
    } else {
      let grid = try preparedPlaceGrid()
      // A block's places found together (`NearestPlaceGrid.nearest(to:into:)`).
      answers = try parallelMap(coordinates, threads: threads) { block, output, made throws(PlaceDataError) in
        withUnsafeTemporaryAllocation(of: SIMD3<Double>.self, capacity: block.count) { vectors in
          withUnsafeTemporaryAllocation(of: (index: Int, chordSquared: Double).self, capacity: block.count) {
            found in
            for index in block.indices { vectors[index] = SphereGeometry.unitVector(block[index]) }
            grid.nearest(to: UnsafeBufferPointer(vectors), into: found.baseAddress!)
            for (index, chordSquared) in found {
              (output + made).initialize(to: make(places, index, chordSquared))
              made += 1
            }
          }
        }
      }
    }
    try data.checkIntact()
    return answers
  }

  /// A lock-free handle on the batch grid for answering many nearest-place queries from one thread (or
  /// several), building the batch indexes first if needed.
  public func nearestPlaceIndex() throws(PlaceDataError) -> NearestPlaceIndex {
    NearestPlaceIndex(places: try data.places(), grid: try preparedPlaceGrid())
  }

  /// The nearest-place grid alone (of the batch indexes, if built), building it if needed.
  func preparedPlaceGrid() throws(PlaceDataError) -> NearestPlaceGrid {
    if let built = prepared.withLock({ $0.batchIndexes?.places ?? $0.placeGrid }) { return built }
    let places = try data.places()
    let built = loadOrBuildPlaceGrid(places)
    try data.checkIntact()
    return prepared.withLock { slots in
      if let existing = slots.placeGrid { return existing }
      slots.placeGrid = built
      return built
    }
  }

  /// Every layer a placemark reads, opened on first use: opening them before a batch starts makes their
  /// errors surface first.
  func placemarkLayers() throws(PlaceDataError) -> PlacemarkLayers {
    if let opened = prepared.withLock({ $0.openedLayers }) { return opened }
    let opened = try PlacemarkLayers(data: data)
    return prepared.withLock { slots in
      if let existing = slots.openedLayers { return existing }
      slots.openedLayers = opened
      return opened
    }
  }

  /// Applies `transform` to every element on `threads` threads (by default, one per core), keeping the
  /// order of the input; an error stops the work and is rethrown (of several, the one of the earliest
  /// run).
  ///
  /// Inputs of ``SpatialOrder/threshold`` elements or more are visited in spatial order when `ordered`,
  /// cut into runs that the threads take in turn.
  private func parallelMap<Result: Sendable>(
    _ input: [Coordinate], ordered: Bool = true, threads: Int?,
    _ transform: @Sendable (Coordinate) throws(PlaceDataError) -> Result
  ) throws(PlaceDataError) -> [Result] {
    try parallelMap(input, ordered: ordered, threads: threads) { block, output, made throws(PlaceDataError) in
      for coordinate in block {
        (output + made).initialize(to: try transform(coordinate))
        made += 1
      }
    }
  }

  /// How many elements the parallel map of blocks hands over at once.
  private static let parallelBlock = 256

  /// The parallel map above with `transform` given blocks of elements, so that it can look their answers
  /// up together: it initializes the results of a block one after another from its pointer, counting them
  /// in its `Int`, also when it throws. In spatial order, a block's elements are copied together first,
  /// and its results moved to their places after.
  private func parallelMap<Result: Sendable>(
    _ input: [Coordinate], ordered: Bool = true, threads: Int?,
    _ transform:
      @Sendable (UnsafeBufferPointer<Coordinate>, UnsafeMutablePointer<Result>, inout Int)
      throws(PlaceDataError) -> Void
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
      ordered && count >= SpatialOrder.threshold ? input.withUnsafeBufferPointer(SpatialOrder.positions) : []
    @Sendable func index(_ position: Int) -> Int { order.isEmpty ? position : Int(order[position]) }
    let block = Self.parallelBlock
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
          let end = count * (run + 1) / runs
          // In spatial order: a block's elements side by side, and its results until they are moved.
          let gathered = UnsafeMutableBufferPointer<Coordinate>.allocate(capacity: order.isEmpty ? 0 : block)
          let made = UnsafeMutablePointer<Result>.allocate(capacity: order.isEmpty ? 0 : block)
          defer {
            gathered.deallocate()
            made.deallocate()
          }
          for position in stride(from: count * run / runs, to: end, by: block) {
            let length = min(block, end - position)
            var madeCount = 0
            do throws(PlaceDataError) {
              defer { done[run] += madeCount }
              if order.isEmpty {
                try transform(
                  UnsafeBufferPointer(rebasing: input[position..<(position + length)]), output + position,
                  &madeCount)
              } else {
                for offset in 0..<length { gathered[offset] = input[index(position + offset)] }
                defer {
                  for offset in 0..<madeCount {
                    (output + index(position + offset)).moveInitialize(from: made + offset, count: 1)
                  }
                }
                try transform(UnsafeBufferPointer(rebasing: gathered[..<length]), made, &madeCount)
              }
            } catch {
              errors[run] = error
              break
            }
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
