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
    let built = NearestPlaceGridFile.grid(places: places, vectors: vectors, directory: directory + "/a/b")
    let path = directory + "/a/b/" + NearestPlaceGridFile.name(for: places, topSize: 64)
    let loaded = try #require(NearestPlaceGridFile.load(path, places: places, vectors: vectors, topSize: 64))
    #expect(
      loaded.first == built.first && loaded.count == built.count && loaded.candidates == built.candidates)
    #expect(NearestPlaceGridFile.load(path, places: places, vectors: vectors, topSize: 32) == nil)

    let original = try Data(contentsOf: URL(fileURLWithPath: path))
    var generator = SplitMix64(seed: 3)
    for _ in 0..<20 {
      var damaged = original
      let position = Int(generator.next() % UInt64(damaged.count))
      damaged[position] ^= UInt8(1 << (generator.next() % 8))
      try damaged.write(to: URL(fileURLWithPath: path))
      #expect(
        NearestPlaceGridFile.load(path, places: places, vectors: vectors, topSize: 64) == nil, "\(position)")
    }
    for cut in [0, 47, 48, original.count / 2, original.count - 1] {
      try original.prefix(cut).write(to: URL(fileURLWithPath: path))
      #expect(NearestPlaceGridFile.load(path, places: places, vectors: vectors, topSize: 64) == nil)
    }
    try (original + Data([0])).write(to: URL(fileURLWithPath: path))
    #expect(NearestPlaceGridFile.load(path, places: places, vectors: vectors, topSize: 64) == nil)
    // The next build replaces the bad file.
    _ = NearestPlaceGridFile.grid(places: places, vectors: vectors, directory: directory + "/a/b")
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
    let built = PolygonGridFile.grid(layer: layer, directory: directory)
    let path = directory + "/" + PolygonGridFile.name(for: layer)
    #expect(path.hasSuffix(".bin") && path.contains("/countries-grid-v1-"))
    let loaded = try #require(PolygonGridFile.load(path, layer: layer))
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
      #expect(PolygonGridFile.load(path, layer: layer) == nil, "\(position)")
    }
    for cut in [0, 39, 40, original.count / 2, original.count - 1] {
      try original.prefix(cut).write(to: URL(fileURLWithPath: path))
      #expect(PolygonGridFile.load(path, layer: layer) == nil)
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
    var states = cells.states
    states[0] = Int32(layer.featureCount)
    #expect(PolygonGrid(layer: layer, nodes: cells.nodes, states: states, runs: cells.runs) == nil)
    #expect(
      PolygonGrid(
        layer: layer, nodes: Array(cells.nodes.prefix(rootCount - 1)), states: cells.states, runs: cells.runs)
        == nil)
    #expect(PolygonGrid(layer: layer, nodes: cells.nodes, states: cells.states, runs: cells.runs) != nil)
    // The next build replaces the bad file.
    _ = PolygonGridFile.grid(layer: layer, directory: directory)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
  }
}
