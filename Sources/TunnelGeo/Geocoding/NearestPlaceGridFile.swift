/// The nearest-place grid kept in an ``IndexCache`` folder, so that a batch loads it in milliseconds
/// instead of building it (a few hundred milliseconds of every core).
///
/// The file is an ``IndexCacheFile`` (magic `TUNLGRID`), named and keyed after what the grid depends on:
/// the place file's checksum and size, and the grid's parameters, so a new place file or a changed grid
/// never meets an old file. Its arrays are the node firsts, the node counts and the candidates. Loading
/// checks the signature and that every index stays in range; a file that fails is ignored (and replaced
/// when the grid is next built).
enum NearestPlaceGridFile {
  static let magic = "TUNLGRID"
  static let version: UInt32 = 2

  /// The file's name for the grid of `places`.
  static func name(for places: PlaceLayer, topSize: Int) -> String {
    let checksum = String(places.file.payloadChecksum, radix: 16)
    return
      "places-grid-v\(version)-\(checksum)-\(places.file.size)-\(topSize)-\(NearestPlaceGrid.leafCapacity)-\(NearestPlaceGrid.maximumDepth).bin"
  }

  /// What the grid's file depends on.
  static func keys(for places: PlaceLayer, topSize: Int) -> [UInt32] {
    [
      version, UInt32(topSize), UInt32(NearestPlaceGrid.leafCapacity), UInt32(NearestPlaceGrid.maximumDepth),
      UInt32(places.count), places.file.payloadChecksum,
    ] + IndexCacheFile.keys(places.file.size)
  }

  /// The grid in `cache`, or a new one built (and saved there), over vectors of `places` made while the
  /// file is read and checked.
  static func grid(places: PlaceLayer, cache: IndexCache?, topSize: Int = 64) -> NearestPlaceGrid {
    let (vectors, saved) = Parallel.both(
      { PlaceVectorArray(places: places) },
      { cache.flatMap { savedArrays(from: $0, places: places, topSize: topSize) } })
    if let saved {
      return NearestPlaceGrid(
        vectors: vectors, topSize: topSize, first: saved.first, count: saved.count,
        candidates: saved.candidates)
    }
    let built = NearestPlaceGrid(places: places, vectors: vectors, topSize: topSize)
    if let cache { save(built, places: places, in: cache) }
    return built
  }

  /// The grid saved in `cache`, or nil when there is none or it does not pass every check.
  static func load(
    from cache: IndexCache, places: PlaceLayer, vectors: PlaceVectorArray, topSize: Int
  )
    -> NearestPlaceGrid?
  {
    savedArrays(from: cache, places: places, topSize: topSize).map {
      NearestPlaceGrid(
        vectors: vectors, topSize: topSize, first: $0.first, count: $0.count, candidates: $0.candidates)
    }
  }

  /// The arrays of the grid saved in `cache`, or nil when there is none or they do not pass every check.
  private static func savedArrays(
    from cache: IndexCache, places: PlaceLayer, topSize: Int
  ) -> (first: [UInt32], count: [UInt32], candidates: [UInt32])? {
    guard
      var file = IndexCacheFile.Reader(
        name(for: places, topSize: topSize), in: cache, magic: magic,
        keys: keys(for: places, topSize: topSize),
        arrays: 3),
      let first = file.read(UInt32.self), let count = file.read(UInt32.self),
      let candidates = file.read(UInt32.self), file.finish(),
      first.count == count.count, first.count >= 6 * topSize * topSize
    else { return nil }
    // Every node either points at four children inside the grid or at candidates inside the list, and
    // every candidate is a place.
    let nodeCount = first.count
    for node in 0..<nodeCount {
      if count[node] == UInt32.max {
        guard Int(first[node]) + 4 <= nodeCount else { return nil }
      } else {
        guard Int(first[node]) + Int(count[node]) <= candidates.count else { return nil }
      }
    }
    guard candidates.allSatisfy({ Int($0) < places.count }) else { return nil }
    return (first, count, candidates)
  }

  /// Saves `grid` in `cache`; failures are ignored (the grid is only a cache).
  static func save(_ grid: NearestPlaceGrid, places: PlaceLayer, in cache: IndexCache) {
    IndexCacheFile.save(
      name(for: places, topSize: grid.topSize), in: cache, magic: magic,
      keys: keys(for: places, topSize: grid.topSize),
      arrays: [CacheArray(grid.first), CacheArray(grid.count), CacheArray(grid.candidates)])
  }
}
