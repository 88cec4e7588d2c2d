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

  @Test("A vertex's two varints read from one load are the two read one after the other, on any bytes")
  func varintPairsMatch() {
    var generator = SplitMix64(seed: 31)
    func encoded(_ value: UInt64) -> [UInt8] {
      var value = value
      var bytes: [UInt8] = []
      while value >= 0x80 {
        bytes.append(UInt8(value & 0x7F) | 0x80)
        value >>= 7
      }
      return bytes + [UInt8(value)]
    }
    for round in 0..<20_000 {
      var bytes: [UInt8]
      if round % 4 == 0 {
        // Any bytes: varints too long, cut short by the end, of every length.
        bytes = (0..<Int.random(in: 0...24, using: &generator)).map { _ in
          UInt8.random(in: 0...255, using: &generator)
        }
      } else {
        // Encoded pairs of every size, one after another, as the layers hold them.
        bytes = []
        for _ in 0..<Int.random(in: 1...6, using: &generator) {
          for _ in 0..<2 {
            let bits = Int.random(in: 0...64, using: &generator)
            let value =
              bits == 64
              ? UInt64.random(in: 0...UInt64.max, using: &generator)
              : UInt64.random(in: 0...(UInt64(1) << bits), using: &generator)
            bytes += encoded(value)
          }
        }
      }
      bytes.withUnsafeBytes { raw in
        var (single, paired) = (0, 0)
        while true {
          let expected = PolygonLayer.varint(raw, &single).flatMap { first in
            PolygonLayer.varint(raw, &single).map { (first, $0) }
          }
          let found = PolygonLayer.varintPair(raw, &paired)
          #expect(found?.0 == expected?.0 && found?.1 == expected?.1, "\(bytes)")
          guard expected != nil, found != nil else { break }
          #expect(paired == single, "\(bytes)")
          guard paired == single else { break }
        }
      }
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
