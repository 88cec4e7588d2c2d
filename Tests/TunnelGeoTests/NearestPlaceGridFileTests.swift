import Foundation
import RandomPoints
import SeededRandom
import Testing

@testable import TunnelGeo

@Suite struct NearestPlaceGridFileTests {
  @Test("A saved grid loads back exactly; a damaged, cut or foreign file is ignored and replaced")
  func roundTrip() throws {
    let places = try PlaceData().places()
    let vectors = PlaceVectorArray(places: places)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("grid-\(UUID().uuidString)")
      .path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let cache = try IndexCache(path: directory + "/a/b")
    let built = NearestPlaceGridFile.grid(places: places, cache: cache)
    let path = directory + "/a/b/" + NearestPlaceGridFile.name(for: places, topSize: 64)
    func load(topSize: Int = 64) -> NearestPlaceGrid? {
      NearestPlaceGridFile.load(from: cache, places: places, vectors: vectors, topSize: topSize)
    }
    let loaded = try #require(load())
    #expect(
      loaded.first == built.first && loaded.count == built.count && loaded.candidates == built.candidates)
    #expect(load(topSize: 32) == nil)

    let original = try Data(contentsOf: URL(fileURLWithPath: path))
    var generator = SplitMix64(seed: 3)
    for _ in 0..<20 {
      var damaged = original
      let position = Int(generator.next() % UInt64(damaged.count))
      damaged[position] ^= UInt8(1 << (generator.next() % 8))
      try damaged.write(to: URL(fileURLWithPath: path))
      #expect(load() == nil, "\(position)")
    }
    for cut in [0, 47, 48, original.count / 2, original.count - 1] {
      try original.prefix(cut).write(to: URL(fileURLWithPath: path))
      #expect(load() == nil)
    }
    try (original + Data([0])).write(to: URL(fileURLWithPath: path))
    #expect(load() == nil)
    // The next build replaces the bad file.
    _ = NearestPlaceGridFile.grid(places: places, cache: cache)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
  }
}

@Suite struct PolygonGridFileTests {
  @Test(
    "A saved polygon grid loads back to the same cells and answers; a damaged, cut or forged file is ignored and replaced"
  )
  func roundTrip() throws {
    let layer = try PlaceData().countries().polygons
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "pgrid-\(UUID().uuidString)"
    ).path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let cache = try IndexCache(path: directory)
    let built = PolygonGridFile.grid(layer: layer, cache: cache)
    let path = directory + "/" + PolygonGridFile.name(for: layer)
    #expect(path.hasSuffix(".bin") && path.contains("/countries-grid-v3-"))
    let loaded = try #require(PolygonGridFile.load(from: cache, layer: layer))
    #expect(loaded.cells.nodes == built.cells.nodes)
    #expect(loaded.cells.states == built.cells.states && loaded.cells.runs == built.cells.runs)
    var generator = SplitMix64(seed: 5)
    for _ in 0..<2_000 {
      let point = layer.fixedPoint(Coordinate.random(using: &generator))
      #expect(Array(loaded.features(containing: point)) == Array(built.features(containing: point)))
    }

    let original = try Data(contentsOf: URL(fileURLWithPath: path))
    for _ in 0..<20 {
      var damaged = original
      let position = Int(generator.next() % UInt64(damaged.count))
      damaged[position] ^= UInt8(1 << (generator.next() % 8))
      try damaged.write(to: URL(fileURLWithPath: path))
      #expect(PolygonGridFile.load(from: cache, layer: layer) == nil, "\(position)")
    }
    for cut in [0, 39, 40, original.count / 2, original.count - 1] {
      try original.prefix(cut).write(to: URL(fileURLWithPath: path))
      #expect(PolygonGridFile.load(from: cache, layer: layer) == nil)
    }
    // Forged cells whose checksum holds: a node pointing back at itself (a query would never end), a run
    // past its ring, a state that is no feature.
    let rootCount = PolygonGrid.rows * PolygonGrid.columns
    let cells = built.cells
    let inner = try #require(cells.nodes.firstIndex { $0.isInner })
    var loop = cells.nodes
    loop[inner] = PolygonGrid.Node(link: UInt32(inner), stateStart: 0, counts: UInt32.max)
    #expect(PolygonGrid(layer: layer, nodes: loop, states: cells.states, runs: cells.runs) == nil)
    var runs = cells.runs
    runs[0] = PolygonGrid.Run(raw: UInt32(layer.vertexCount) << 8 | 1)
    #expect(PolygonGrid(layer: layer, nodes: cells.nodes, states: cells.states, runs: runs) == nil)
    // Leaves of several reference features list them in the states (the countries have none such; the
    // coastline's lakes and their islands make some).
    let coast = try PlaceData().coastline(.low).polygons
    let coastCells = PolygonGrid(layer: coast).cells
    var states = coastCells.states
    try #require(!states.isEmpty)
    #expect(PolygonGrid(layer: coast, nodes: coastCells.nodes, states: states, runs: coastCells.runs) != nil)
    states[0] = Int32(coast.featureCount)
    #expect(PolygonGrid(layer: coast, nodes: coastCells.nodes, states: states, runs: coastCells.runs) == nil)
    // A leaf of one reference feature keeps it in the node: one that is no feature.
    let single = try #require(cells.nodes.firstIndex { !$0.isInner && $0.stateCount == 1 })
    for forged in [UInt32(layer.featureCount), UInt32.max] {
      var nodes = cells.nodes
      nodes[single] = PolygonGrid.Node(link: nodes[single].link, stateStart: forged, counts: 1 << 24)
      #expect(PolygonGrid(layer: layer, nodes: nodes, states: cells.states, runs: cells.runs) == nil)
    }
    #expect(
      PolygonGrid(
        layer: layer, nodes: Array(cells.nodes.prefix(rootCount - 1)), states: cells.states, runs: cells.runs)
        == nil)
    #expect(PolygonGrid(layer: layer, nodes: cells.nodes, states: cells.states, runs: cells.runs) != nil)
    // The next build replaces the bad file.
    _ = PolygonGridFile.grid(layer: layer, cache: cache)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
  }
}

@Suite struct IndexCacheFileTests {
  static let data = try! PlaceData()

  static func temporaryDirectory() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("index-\(UUID().uuidString)").path
  }

  static func bytes<Element>(_ array: [Element]) -> [UInt8] { array.withUnsafeBytes { Array($0) } }

  @Test(
    "A saved shore tree and sea-shore grid load back to the same arrays and answers; a damaged, cut, foreign or forged file is ignored and replaced"
  )
  func shoresRoundTrip() throws {
    let coast = try Self.data.coastline(.low).polygons
    let grid = PolygonGrid(layer: coast)
    let directory = Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let every: (Int) -> Bool = { _ in true }
    let land = { (feature: Int) in coast.level(of: feature) % 2 == 1 }
    let cache = try IndexCache(path: directory)
    let built = ShoreIndex.cached(grid: grid, kind: "shores", cache: cache, accept: every)
    let name = IndexCacheFile.name(layer: coast, kind: "shores", version: ShoreIndex.fileVersion)
    let path = directory + "/" + name
    let keys = ShoreIndex.fileKeys(layer: coast, accept: every)
    let loaded = try #require(
      ShoreIndex.load(name, from: cache, layer: coast, vertices: grid.vertices, grid: grid, keys: keys))
    #expect(loaded.checksum == built.checksum && Self.bytes(loaded.nodes) == Self.bytes(built.nodes))
    #expect(loaded.pieceFirstEdge == built.pieceFirstEdge && loaded.pieceFeature == built.pieceFeature)
    // Another choice of features is another file.
    #expect(
      ShoreIndex.load(
        name, from: cache, layer: coast, vertices: grid.vertices, grid: grid,
        keys: ShoreIndex.fileKeys(layer: coast, accept: land))
        == nil)

    let seaBuilt = NearestShoreGrid.cached(shores: loaded, kind: "sea-shores", cache: cache, accept: land)
    let seaName = IndexCacheFile.name(layer: coast, kind: "sea-shores", version: NearestShoreGrid.fileVersion)
    let seaPath = directory + "/" + seaName
    let seaLoaded = NearestShoreGrid.cached(shores: loaded, kind: "sea-shores", cache: cache, accept: land)
    #expect(seaLoaded.first == seaBuilt.first && seaLoaded.candidates == seaBuilt.candidates)
    let accepted = (0..<coast.featureCount).map(land)
    let seaKeys = NearestShoreGrid.fileKeys(
      shores: loaded, topSize: 64, accepted: accepted, listsInteriors: false)
    func loads(_ file: String) -> Bool {
      file == path
        ? ShoreIndex.load(name, from: cache, layer: coast, vertices: grid.vertices, grid: grid, keys: keys)
          != nil
        : NearestShoreGrid.load(
          seaName, from: cache, shores: loaded, topSize: 64, accepted: accepted, keys: seaKeys) != nil
    }
    #expect(loads(path) && loads(seaPath))
    var generator = SplitMix64(seed: 21)
    for _ in 0..<1_000 {
      let query = SphereGeometry.unitVector(Coordinate.random(using: &generator))
      #expect(seaLoaded.nearest(to: query)?.point == built.nearest(to: query, accept: land)?.point)
      #expect(loaded.nearest(to: query)?.point == built.nearest(to: query)?.point)
    }

    // Damaged and cut files are ignored, and the next build puts the file back as it was.
    for file in [path, seaPath] {
      let original = try Data(contentsOf: URL(fileURLWithPath: file))
      for _ in 0..<12 {
        var damaged = original
        let position = Int(generator.next() % UInt64(damaged.count))
        damaged[position] ^= UInt8(1 << (generator.next() % 8))
        try damaged.write(to: URL(fileURLWithPath: file))
        #expect(!loads(file), "\(position)")
        let grid = NearestShoreGrid.cached(shores: loaded, kind: "sea-shores", cache: cache, accept: land)
        #expect(grid.first == seaBuilt.first && grid.candidates == seaBuilt.candidates)
        _ = ShoreIndex.cached(grid: PolygonGrid(layer: coast), kind: "shores", cache: cache, accept: every)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == original, "\(position)")
      }
      for cut in [0, 7, 40, original.count / 2, original.count - 1] {
        try original.prefix(cut).write(to: URL(fileURLWithPath: file))
        #expect(!loads(file), "\(cut)")
      }
      try original.write(to: URL(fileURLWithPath: file))
    }

    // Forged arrays whose checksum would hold: a node that loops back, a piece past the vertices or of no
    // feature, a grid node whose children come before it, a candidate that is no node.
    func tree(
      nodes: [ShoreIndex.Node] = built.nodes, first: [UInt32] = built.pieceFirstEdge,
      feature: [Int32] = built.pieceFeature
    ) -> ShoreIndex? {
      ShoreIndex(
        layer: coast, vertices: grid.vertices, grid: grid, pieceFirstEdge: first,
        pieceEdgeCount: built.pieceEdgeCount, pieceFeature: feature,
        nodes: nodes)
    }
    #expect(tree() != nil)
    var loop = built.nodes
    loop[0].link = 0
    #expect(tree(nodes: loop) == nil)
    var past = built.pieceFirstEdge
    past[0] = UInt32(grid.vertices.count)
    #expect(tree(first: past) == nil)
    var foreign = built.pieceFeature
    foreign[0] = Int32(coast.featureCount)
    #expect(tree(feature: foreign) == nil)
    // A leaf holds its piece, which a query reads from it alone: past the vertices, of no feature or of no
    // edge, the tree is refused too.
    let leaf = try #require(built.nodes.firstIndex { $0.isLeaf })
    var leafPast = built.nodes
    leafPast[leaf].link = UInt32(grid.vertices.count - 1) | ShoreIndex.Node.leafBit
    #expect(tree(nodes: leafPast) == nil)
    var leafForeign = built.nodes
    leafForeign[leaf].count = UInt32(leafForeign[leaf].edgeCount) | UInt32(coast.featureCount) << 8
    #expect(tree(nodes: leafForeign) == nil)
    var leafEmpty = built.nodes
    leafEmpty[leaf].count &= ~0xFF
    #expect(tree(nodes: leafEmpty) == nil)
    func seaGrid(
      first: [UInt32] = seaBuilt.first, candidates: [UInt32] = seaBuilt.candidates
    ) -> NearestShoreGrid? {
      NearestShoreGrid(
        shores: loaded, topSize: 64, accepted: accepted, first: first, count: seaBuilt.count,
        candidates: candidates)
    }
    #expect(seaGrid() != nil)
    let inner = try #require(seaBuilt.count.firstIndex(of: UInt32.max))
    var backwards = seaBuilt.first
    backwards[inner] = UInt32(inner)
    #expect(seaGrid(first: backwards) == nil)
    var stray = seaBuilt.candidates
    stray[0] = UInt32(loaded.nodes.count)
    #expect(seaGrid(candidates: stray) == nil)
  }

  @Test("Batches read their indexes from the cache folder and answer as those built in memory do")
  func batchesFromTheCacheFolder() throws {
    let directory = Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var generator = SplitMix64(seed: 22)
    let points = (0..<3_000).map { _ in Coordinate.random(using: &generator) }
    let fields: Placemark.Fields = [.country, .nearestLand]
    let expected = try ReverseGeocoder(data: Self.data).placemarks(for: points, fields: fields)
    for _ in 0..<2 {  // built and saved, then read
      let geocoder = ReverseGeocoder(data: Self.data, cacheDirectory: directory)
      #expect(try geocoder.placemarks(for: points, fields: fields) == expected)
    }
    let names = try FileManager.default.contentsOfDirectory(atPath: directory)
    for kind in ["shores", "sea-shores", "borders", "clearances", "island-shores"] {
      #expect(names.contains { $0.contains("-\(kind)-v") }, "\(kind): \(names)")
    }
  }
}
