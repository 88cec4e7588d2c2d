/// A layer's ``PolygonGrid`` kept in an ``IndexCache`` folder, so that a batch loads its cells instead of
/// building them again (most of a batch's start when it asks for one field: land, a country, a time zone).
///
/// The file is an ``IndexCacheFile`` (magic `TUNLPGRD`), named and keyed after what the grid depends on:
/// the layer file's name, checksum and size, its vertex count and the grid's parameters, so a new data
/// file or a changed grid never meets an old file. Its arrays are the nodes (three little-endian
/// `UInt32`s each; a leaf of one reference feature holds it), the states of the others (`Int32`s) and the
/// runs (`UInt32`s). Loading checks the signature and every node, run and state
/// (``PolygonGrid/init(layer:nodes:states:runs:)``); a file that fails is ignored and replaced.
enum PolygonGridFile {
  static let magic = "TUNLPGRD"
  static let version: UInt32 = 3

  /// The file's name for the grid of `layer`.
  static func name(for layer: PolygonLayer) -> String {
    let file = String(layer.path.split(separator: "/").last ?? "layer")
    let stem = file.hasSuffix(".tunnel") ? String(file.dropLast(7)) : file
    let checksum = String(layer.file.payloadChecksum, radix: 16)
    return
      "\(stem)-grid-v\(version)-\(checksum)-\(layer.file.size)-\(PolygonGrid.leafCapacity)-\(PolygonGrid.maximumDepth).bin"
  }

  /// What the grid's file depends on.
  static func keys(for layer: PolygonLayer) -> [UInt32] {
    [
      version, layer.file.payloadChecksum, UInt32(layer.vertexCount), UInt32(PolygonGrid.leafCapacity),
      UInt32(PolygonGrid.maximumDepth),
    ] + IndexCacheFile.keys(layer.file.size)
  }

  /// The grid of `layer` from `cache`, or built (and saved there). The layer's rings are decoded while
  /// the file is read and its signature checked: the grid needs both, and neither waits for the other.
  static func grid(layer: PolygonLayer, cache: IndexCache?) -> PolygonGrid {
    guard let cache else { return PolygonGrid(layer: layer) }
    let (rings, cells) = Parallel.both(
      { PolygonGrid.decodeRings(of: layer) }, { Cells(loading: layer, from: cache) })
    if let cells,
      let loaded = PolygonGrid(
        layer: layer, rings: rings, nodes: cells.nodes, states: cells.states, runs: cells.runs)
    {
      return loaded
    }
    let built = PolygonGrid(layer: layer, rings: rings)
    save(built, in: cache)
    return built
  }

  /// The grid saved in `cache`, or nil when there is none or it does not pass every check.
  static func load(from cache: IndexCache, layer: PolygonLayer) -> PolygonGrid? {
    guard let cells = Cells(loading: layer, from: cache) else { return nil }
    return PolygonGrid(layer: layer, nodes: cells.nodes, states: cells.states, runs: cells.runs)
  }

  /// The arrays of a layer's grid file, read and signature checked, their values not yet.
  private struct Cells: Sendable {
    let nodes: [PolygonGrid.Node]
    let states: [Int32]
    let runs: [PolygonGrid.Run]

    init?(loading layer: PolygonLayer, from cache: IndexCache) {
      // The arrays are read straight into the grid's own: a node is three UInt32s, a run one, all
      // little-endian as the file's (the build targets are).
      guard MemoryLayout<PolygonGrid.Node>.stride == 12, MemoryLayout<PolygonGrid.Run>.stride == 4,
        var file = IndexCacheFile.Reader(
          name(for: layer), in: cache, magic: magic, keys: keys(for: layer), arrays: 3),
        let nodes = file.read(PolygonGrid.Node.self), let states = file.read(Int32.self),
        let runs = file.read(PolygonGrid.Run.self), file.finish()
      else { return nil }
      (self.nodes, self.states, self.runs) = (nodes, states, runs)
    }
  }

  /// Saves `grid` in `cache`; failures are ignored (the grid is only a cache).
  static func save(_ grid: PolygonGrid, in cache: IndexCache) {
    guard MemoryLayout<PolygonGrid.Node>.stride == 12, MemoryLayout<PolygonGrid.Run>.stride == 4 else {
      return
    }
    let (nodes, states, runs) = grid.cells
    IndexCacheFile.save(
      name(for: grid.layer), in: cache, magic: magic, keys: keys(for: grid.layer),
      arrays: [CacheArray(nodes), CacheArray(states), CacheArray(runs)])
  }
}
