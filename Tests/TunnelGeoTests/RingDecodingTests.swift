import Foundation
import SeededRandom
import Testing

@testable import TunnelGeo

/// A grid's rings decoded in slices on every core are the rings decoded one by one, and a grid loaded
/// from the cache refuses runs of edges that pass a ring's closing vertex.
@Suite struct RingDecodingTests {
  static let data = try! PlaceData()

  @Test("Rings decoded in slices are the rings decoded one by one, on every polygon layer")
  func slicedDecodingMatches() throws {
    let layers = [
      try Self.data.coastline(.high).polygons, try Self.data.coastline(.low).polygons,
      try Self.data.countries().polygons, try Self.data.timeZones().polygons,
      try Self.data.regions().polygons,
      try Self.data.subregions().polygons, try Self.data.lakes().polygons, try Self.data.marine().polygons,
      try Self.data.islands().polygons,
    ]
    for layer in layers {
      let rings = PolygonGrid.decodeRings(of: layer)
      var vertices: [FixedPoint] = []
      var starts: [Int32] = []
      var features: [Int32] = []
      for ring in 0..<layer.ringCount {
        starts.append(Int32(vertices.count))
        features.append(Int32(layer.ring(ring).feature))
        vertices += layer.vertices(ofRing: ring)
      }
      starts.append(Int32(vertices.count))
      #expect(rings.vertices.count == layer.vertexCount, "\(layer.path)")
      #expect(rings.vertices == vertices, "\(layer.path)")
      #expect(rings.ringStart == starts && rings.ringFeature == features, "\(layer.path)")
    }
  }

  @Test("A loaded grid takes a run of edges only if no edge of it starts at a ring's closing vertex")
  func runsStopAtTheirRing() throws {
    let layer = try Self.data.lakes().polygons
    let built = PolygonGrid(layer: layer)
    let cells = built.cells
    let starts = built.ringStart.map(Int.init)
    var generator = SplitMix64(seed: 67)
    var taken = 0
    var refused = 0
    for round in 0..<300 {
      // Runs ending near a ring's end, across a 64-vertex word or not, and anywhere.
      let ring = Int(generator.next() % UInt64(layer.ringCount))
      let length = 1 + Int(generator.next() % (round % 3 == 0 ? 255 : 70))
      let start =
        round % 2 == 0
        ? max(0, starts[ring + 1] - 1 - Int(generator.next() % 80))
        : Int(generator.next() % UInt64(built.vertices.count - 1))
      guard start + length < built.vertices.count else { continue }
      var runs = cells.runs
      runs[Int(generator.next() % UInt64(runs.count))] = PolygonGrid.Run(
        raw: UInt32(start) << 8 | UInt32(length))
      // The rule: every edge starts before the closing vertex of the ring holding the run's first.
      let holding = starts.lastIndex { $0 <= start }!
      let fits = start + length < starts[holding + 1]
      let loaded = PolygonGrid(layer: layer, nodes: cells.nodes, states: cells.states, runs: runs)
      #expect((loaded != nil) == fits, "run \(start) + \(length) in ring \(holding)")
      if fits { taken += 1 } else { refused += 1 }
    }
    #expect(taken > 50 && refused > 50)
  }

  @Test("Work shared out calls every index once, inside other shared work too")
  func everyIndexOnce() {
    let counts = Counts()
    let (first, second) = Parallel.both(
      {
        Parallel.perform(iterations: 100) { index in counts.add(index) }
        return "first"
      },
      {
        Parallel.perform(iterations: 100) { index in counts.add(100 + index) }
        return 2
      })
    #expect(first == "first" && second == 2)
    #expect(counts.values == [Int](repeating: 1, count: 200))
  }

  /// Calls counted per index, from any thread.
  final class Counts: @unchecked Sendable {
    // @unchecked: the counts are read and written with the lock held.
    private let lock = NSLock()
    private var counts = [Int](repeating: 0, count: 200)

    func add(_ index: Int) {
      lock.lock()
      counts[index] += 1
      lock.unlock()
    }

    var values: [Int] {
      lock.lock()
      defer { lock.unlock() }
      return counts
    }
  }
}
