import Foundation
import RandomPoints
import SeededRandom
import Testing

@testable import TunnelGeo

/// The bitmap of cells near a country border leaves clear only cells with no border within its reach,
/// and leaves most of the world clear; the leaves listed for a marked cell find the tree's nearest
/// border; read back from the cache, it is the same.
@Suite struct BorderCellsTests {
  /// A point `angle` radians from the unit vector `point`, in a random direction.
  static func offset(
    _ point: SIMD3<Double>, by angle: Double, using generator: inout SplitMix64
  )
    -> SIMD3<Double>
  {
    let random = SphereGeometry.unitVector(Coordinate.random(using: &generator))
    var tangent = random - (random * point).sum() * point
    tangent /= (tangent * tangent).sum().squareRoot()
    return point * cos(angle) + tangent * sin(angle)
  }

  /// A point on a random edge of `borders`, moved in a random direction by up to `angle` radians
  /// (`vectors` is scratch space).
  static func point(
    near borders: ShoreIndex, within angle: Double, using generator: inout SplitMix64,
    _ vectors: inout [SIMD3<Double>]
  ) -> Coordinate {
    let piece = Int(generator.next() % UInt64(borders.pieceFirstEdge.count))
    vectors.removeAll(keepingCapacity: true)
    borders.appendVectors(ofPiece: piece, to: &vectors)
    let edge = Int(generator.next() % UInt64(vectors.count - 1))
    let share = Double(generator.next() % 1_000) / 1_000
    var onEdge = vectors[edge] * (1 - share) + vectors[edge + 1] * share
    onEdge /= (onEdge * onEdge).sum().squareRoot()
    let moved = angle * Double(generator.next() % 1_000) / 1_000
    return SphereGeometry.coordinate(offset(onEdge, by: moved, using: &generator))
  }

  @Test("A cell left clear has no country border within the reach, near the borders and anywhere")
  func clearCellsHaveNoBorderNear() throws {
    let indexes = try BatchIndexTests.indexed.preparedIndexes([.countries, .timeZones])
    let borders = try #require(indexes.countryBorders)
    let cells = try #require(indexes.countryBorderCells)
    var generator = SplitMix64(seed: 61)
    var within = 0
    var clearNear = 0
    var vectors: [SIMD3<Double>] = []
    // Points on random edges of the borders, moved in any direction: half up to the reach and a little
    // more, half up to eight times the reach.
    for round in 0..<4_000 {
      let coordinate = Self.point(
        near: borders, within: cells.reach * (round % 2 == 0 ? 1.2 : 8), using: &generator, &vectors)
      let vector = SphereGeometry.unitVector(coordinate)
      let hit = borders.nearest(to: vector, within: cells.reach)
      if hit != nil { within += 1 }
      guard !cells.mayHaveBoundary(near: coordinate) else { continue }
      clearNear += 1
      #expect(hit == nil, "\(coordinate): a border \(hit!.angle) away in a clear cell")
    }
    #expect(within > 1_500 && clearNear > 300, "\(within) within the reach, \(clearNear) clear")
    // Uniform points: most are clear, and none of those has a border near.
    var clear = 0
    for _ in 0..<4_000 {
      let coordinate = Coordinate.random(using: &generator)
      guard !cells.mayHaveBoundary(near: coordinate) else { continue }
      clear += 1
      #expect(borders.nearest(to: SphereGeometry.unitVector(coordinate), within: cells.reach) == nil)
    }
    #expect(clear > 3_400)
  }

  @Test(
    "The nearest border among a cell's leaves is the tree's, for any limit within the reach and any features")
  func cellLeavesFindTheTreesNearest() throws {
    let indexes = try BatchIndexTests.indexed.preparedIndexes([.countries, .timeZones])
    let borders = try #require(indexes.countryBorders)
    // Built without a cache folder, the batch's cells have no lists; built with them, the same cells.
    let unlisted = try #require(indexes.countryBorderCells)
    let cells = BorderCells(borders: borders, reach: unlisted.reach)
    #expect(!unlisted.hasLeaves && cells.hasLeaves && cells.cells == unlisted.cells)
    var generator = SplitMix64(seed: 63)
    var vectors: [SIMD3<Double>] = []
    var found = 0
    var onlyOne = 0
    for round in 0..<6_000 {
      let coordinate = Self.point(near: borders, within: cells.reach * 1.5, using: &generator, &vectors)
      let vector = SphereGeometry.unitVector(coordinate)
      let limit = round % 3 == 0 ? cells.reach : cells.reach * Double(1 + generator.next() % 1_000) / 1_000
      // Every feature, and (a third of the time) the odd features only.
      let odd = round % 3 == 2
      let accept: (Int) -> Bool = { !odd || $0 % 2 == 1 }
      let tree = borders.nearest(to: vector, within: limit, accept: accept)
      let listed = cells.nearest(in: borders, to: coordinate, vector, within: limit, accept: accept)
      #expect(listed?.feature == tree?.feature, "\(coordinate) within \(limit)")
      #expect(listed?.angle == tree?.angle, "\(coordinate) within \(limit)")
      // The feature alone, where a cell of one feature's leaves stops at the first point near enough.
      let feature = cells.nearestFeature(in: borders, to: coordinate, vector, within: limit, accept: accept)
      #expect(feature == tree?.feature, "\(coordinate) within \(limit)")
      if tree != nil { found += 1 }
      // Said to be all of one feature only where no other feature's border is within the reach.
      if let feature = tree?.feature {
        let other = borders.nearest(to: vector, within: cells.reach) { $0 != feature }
        let allOne = cells.boundaries(near: coordinate, allOf: feature)
        #expect(!allOne || other == nil, "\(coordinate): feature \(other?.feature ?? -1) near too")
        if allOne { onlyOne += 1 }
      }
    }
    #expect(found > 2_000 && onlyOne > 500, "\(found) found, \(onlyOne) near one feature's borders alone")
    // A cell's leaves are few: the lists hold runs of the tree's leaves, most cells a handful.
    let size = cells.size
    #expect(size.cells > 10_000 && size.leaves < 8 * size.cells && size.runs <= size.leaves)
  }

  @Test("A sub-cell left clear has no border within the reach, and turns away many points farther off")
  func clearSubcellsHaveNoBorderNear() throws {
    let indexes = try BatchIndexTests.indexed.preparedIndexes([.countries, .timeZones])
    let borders = try #require(indexes.countryBorders)
    let unlisted = try #require(indexes.countryBorderCells)
    let cells = BorderCells(borders: borders, reach: unlisted.reach)
    var generator = SplitMix64(seed: 67)
    var vectors: [SIMD3<Double>] = []
    var (farInMarkedCells, turnedAway) = (0, 0)
    for _ in 0..<6_000 {
      let coordinate = Self.point(near: borders, within: cells.reach * 4, using: &generator, &vectors)
      let vector = SphereGeometry.unitVector(coordinate)
      let hit = borders.nearest(to: vector, within: cells.reach)
      let cellMarked = unlisted.mayHaveBoundary(near: coordinate)
      let subcellMarked = cells.mayHaveBoundary(near: coordinate)
      // A sub-cell is marked only in a marked cell; a clear one has nothing within the reach.
      #expect(cellMarked || !subcellMarked, "\(coordinate)")
      if !subcellMarked {
        #expect(hit == nil, "\(coordinate): a border \(hit!.angle) away in a clear sub-cell")
        #expect(cells.nearest(in: borders, to: coordinate, vector, within: cells.reach) { _ in true } == nil)
        #expect(cells.boundaries(near: coordinate, allOf: -1))
      }
      guard cellMarked, borders.nearest(to: vector, within: cells.reach * 1.6) == nil else { continue }
      farInMarkedCells += 1
      if !subcellMarked { turnedAway += 1 }
    }
    // Of the points in a marked cell with no border within 1.6 times the reach, many are turned away (a
    // half in this run: 479 of 898).
    #expect(
      farInMarkedCells > 500 && turnedAway * 3 > farInMarkedCells, "\(turnedAway) of \(farInMarkedCells)")
  }

  @Test("The cells read back from the cache are the cells built; a damaged file is built again")
  func cachedCellsAreTheBuiltOnes() throws {
    let indexes = try BatchIndexTests.indexed.preparedIndexes([.countries, .timeZones])
    let borders = try #require(indexes.countryBorders)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bcells-\(UUID().uuidString)"
    ).path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let cache = try IndexCache(path: directory)
    let reach = 5 / SphereGeometry.radiusKm
    let built = BorderCells.cached(borders: borders, reach: reach, kind: "border-cells", cache: cache)
    let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter {
      $0.contains("border-cells")
    }
    #expect(files.count == 1)
    let loaded = BorderCells.cached(borders: borders, reach: reach, kind: "border-cells", cache: cache)
    #expect(loaded == built && loaded.reach == reach)
    #expect(built == BorderCells(borders: borders, reach: reach))
    let path = directory + "/" + files[0]
    let original = try Data(contentsOf: URL(fileURLWithPath: path))
    var damaged = original
    damaged[damaged.count / 2] ^= 0x10
    try damaged.write(to: URL(fileURLWithPath: path))
    let rebuilt = BorderCells.cached(borders: borders, reach: reach, kind: "border-cells", cache: cache)
    #expect(rebuilt == built)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
    // Signed with the folder's key, lists whose last run reaches past the tree's nodes, or a cell's one
    // feature past the layer's, are still refused. The file ends with the lists' runs, then the cells'
    // features.
    let featuresAt = original.count - 4 * built.size.cells
    for (offset, value) in [(featuresAt - 4, UInt32.max), (original.count - 4, UInt32(Int32.max))] {
      var forged = Array(original)
      withUnsafeBytes(of: value.littleEndian) { forged.replaceSubrange(offset..<(offset + 4), with: $0) }
      IndexCacheTests.resign(&forged, key: try IndexCacheTests.readKey(directory))
      try Data(forged).write(to: URL(fileURLWithPath: path))
      #expect(BorderCells.cached(borders: borders, reach: reach, kind: "border-cells", cache: cache) == built)
      #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
    }
    // Another reach is not read from the file: it is built, and marks more.
    let wider = BorderCells.cached(borders: borders, reach: 2 * reach, kind: "border-cells", cache: cache)
    #expect(zip(wider.cells.words, built.cells.words).allSatisfy { $0 & $1 == $1 })
    #expect(wider.cells.words != built.cells.words)
  }
}

/// The islands the country of the sea round islands looks for, found through the tree of every level's
/// shoreline when a batch has it, else through a tree of the small islands alone: the same point, feature
/// and angle as the coastline layer's own search.
@Suite struct SmallIslandTests {
  @Test("The nearest small island through the shores' tree is the layer's own")
  func islandsThroughTheShoresAreTheLayers() throws {
    let indexes = try BatchIndexTests.indexed.preparedIndexes(.all)
    #expect(!indexes.smallIslands.isEmpty && indexes.shores != nil)
    try expectTheLayersIslands(indexes)
  }

  @Test("Without the shores, the nearest small island through their own tree is the layer's own")
  func islandsThroughTheirOwnTreeAreTheLayers() throws {
    // A batch of countries alone, with a cache folder: no shores' tree and no coastline grid, the small
    // islands' own tree over their own rings, built and saved, then read back.
    let folder = IndexCacheTests.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    for _ in 0..<2 {
      let geocoder = ReverseGeocoder(data: BatchIndexTests.data, cache: try IndexCache(path: folder))
      let indexes = try geocoder.preparedIndexes([.countries, .timeZones])
      #expect(indexes.shores == nil && indexes.smallIslands.isEmpty && indexes.coast == nil)
      let tree = try #require(indexes.smallIslandShores)
      #expect(tree.grid == nil && tree.vertices.count < indexes.layers.coast.polygons.vertexCount / 2)
      try expectTheLayersIslands(indexes)
    }
    let names = try FileManager.default.contentsOfDirectory(atPath: folder)
    #expect(names.contains { $0.contains("-small-island-rings-v") }, "\(names)")
    // Without a cache folder, the mapped coastline's search, as before.
    let uncached = try ReverseGeocoder(data: BatchIndexTests.data).preparedIndexes([.countries, .timeZones])
    #expect(uncached.smallIslandShores == nil && uncached.coast == nil)
  }

  private func expectTheLayersIslands(_ indexes: BatchIndexes) throws {
    let coast = indexes.layers.coast.polygons
    let limit = ReverseGeocoder.coastalToleranceKm / SphereGeometry.radiusKm
    var generator = SplitMix64(seed: 29)
    var found = 0
    for _ in 0..<3_000 {
      let point = coast.pointNearAVertex(within: 0.1, using: &generator)
      let vector = SphereGeometry.unitVector(point)
      let tree = indexes.nearestIsland(to: point, vector, within: limit)
      let layer = indexes.unindexed.nearestIsland(to: point, vector, within: limit)
      #expect(tree?.feature == layer?.feature, "\(point)")
      #expect(tree?.angle == layer?.angle, "\(point)")
      #expect(tree?.point == layer?.point, "\(point)")
      if let tree {
        found += 1
        #expect(LayerLookups.isSmallIsland(tree.feature, of: coast))
      }
    }
    #expect(found > 300, "\(found) islands found")
  }
}
