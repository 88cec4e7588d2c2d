import Foundation
import RandomPoints
import SeededRandom
import Synchronization
import Testing

@testable import TunnelGeo

/// The point-in-polygon grids give the scan's answers exactly, on random points and on the points where
/// a shortcut would go wrong: vertices, edges, cell corners. The cap trees find the scan's nearest borders.
@Suite struct PolygonGridTests {
  static let data = try! PlaceData()

  /// The polygons of the data file `name` (without its extension).
  static func layer(_ name: String) throws -> PolygonLayer {
    try PolygonLayer(file: DataFile(path: data.directory + "/\(name).tunnel", expectedKind: "POLY"))
  }

  /// Points to check on a layer: uniform over the sphere, every vertex of some rings, the midpoints of
  /// their edges, and whole degrees.
  static func points(on layer: PolygonLayer, seed: UInt64, random: Int, rings: Int) -> [FixedPoint] {
    var generator = SplitMix64(seed: seed)
    var result: [FixedPoint] = []
    for _ in 0..<random { result.append(layer.fixedPoint(Coordinate.random(using: &generator))) }
    for _ in 0..<rings {
      let ring = Int.random(in: 0..<layer.ringCount, using: &generator)
      let vertices = layer.vertices(ofRing: ring).prefix(200)
      result.append(contentsOf: vertices)
      for (a, b) in zip(vertices, vertices.dropFirst()) {
        let latitude = (Int64(a.latitude) + Int64(b.latitude))
        let longitude = (Int64(a.longitude) + Int64(b.longitude))
        if latitude % 2 == 0 && longitude % 2 == 0 {
          result.append(FixedPoint(latitude: Int32(latitude / 2), longitude: Int32(longitude / 2)))
        }
        // Level with a vertex, a little to the west and to the east.
        result.append(FixedPoint(latitude: a.latitude, longitude: a.longitude - 1))
        result.append(FixedPoint(latitude: a.latitude, longitude: a.longitude + 1))
      }
    }
    let units = Int32(layer.unitsPerDegree)
    for _ in 0..<random / 10 {
      result.append(
        FixedPoint(
          latitude: Int32.random(in: -90...90, using: &generator) * units,
          longitude: Int32.random(in: -180...179, using: &generator) * units))
    }
    return result
  }

  static func expectSameAnswers(_ layer: PolygonLayer, _ grid: PolygonGrid, seed: UInt64) {
    var mismatches = 0
    let points = Self.points(on: layer, seed: seed, random: 600, rings: 12)
    // The points also looked up together, in groups (the last one short).
    var grouped = [FeatureSet](repeating: FeatureSet(), count: points.count)
    points.withUnsafeBufferPointer { points in
      grouped.withUnsafeMutableBufferPointer { grid.features(containing: points, into: $0) }
    }
    for (point, together) in zip(points, grouped) {
      let expected = layer.features(containing: point)
      let found = Array(grid.features(containing: point))
      if expected != found || Array(together) != found {
        mismatches += 1
        if mismatches <= 5 {
          Issue.record("\(point): scan \(expected), grid \(found), together \(Array(together))")
        }
      }
    }
    #expect(mismatches == 0, "\(mismatches) of \(points.count) points differ")
  }

  @Test func marineGridMatchesTheScan() throws {
    let layer = try Self.data.marine().polygons
    Self.expectSameAnswers(layer, PolygonGrid(layer: layer), seed: 11)
  }

  @Test func countryGridMatchesTheScan() throws {
    let layer = try Self.data.countries().polygons
    let grid = PolygonGrid(layer: layer)
    Self.expectSameAnswers(layer, grid, seed: 12)
    let borders = ShoreIndex(grid: grid) { _ in true }

    // Borders within the tolerance: the same nearest feature as the exact search.
    var generator = SplitMix64(seed: 13)
    var checked = 0
    for _ in 0..<400 {
      let point = layer.pointNearAVertex(within: 0.2, using: &generator)
      for toleranceKm in [ReverseGeocoder.coastalToleranceKm, ReverseGeocoder.landCountryToleranceKm] {
        let limit = toleranceKm / SphereGeometry.radiusKm
        let expected = NearestBoundarySearch(layer: layer, coordinate: point).nearest(within: limit) { _ in
          true
        }
        let found = borders.nearest(to: SphereGeometry.unitVector(point), within: limit)
        #expect(expected?.feature == found?.feature, "\(point) within \(toleranceKm) km")
        #expect(expected?.angle == found?.angle, "\(point) within \(toleranceKm) km")
        if expected != nil { checked += 1 }
      }
    }
    #expect(checked > 200)
  }

  @Test func nearestNamedSeaAtAnyDistanceMatchesTheSearch() throws {
    let marine = try Self.data.marine()
    let borders = ShoreIndex(grid: PolygonGrid(layer: marine.polygons)) { marine.name($0) != nil }
    var generator = SplitMix64(seed: 16)
    for _ in 0..<60 {
      let point = Coordinate.random(using: &generator)
      let expected = NearestBoundarySearch(layer: marine.polygons, coordinate: point).nearest {
        marine.name($0) != nil
      }
      let found = borders.nearest(to: SphereGeometry.unitVector(point))
      #expect(
        expected?.feature == found?.feature && expected?.angle == found?.angle,
        "\(point): search \(String(describing: expected)), tree \(String(describing: found))")
    }
  }

  @Test func fixedPointVectorsMatchTheTrigonometricFunctions() {
    var generator = SplitMix64(seed: 18)
    for units in [10_000, 100_000, 10_000_000] {
      let vectors = FixedPointVectors.shared(unitsPerDegree: units)
      let limit = Int32(90 * units)
      // Every angle of the layers, and a few beyond them (a damaged file), where `sin` and `cos` answer.
      for _ in 0..<20_000 {
        let latitude = Int32.random(in: -limit...limit, using: &generator)
        let longitude = Int32.random(in: (-2 * limit)...(2 * limit), using: &generator)
        for (lat, lon) in [(latitude, longitude), (latitude, longitude &* 8)] {
          let found = vectors.unitVector(latitude: lat, longitude: lon)
          let expected = SphereGeometry.unitVector(
            latitude: Double(lat) / Double(units), longitude: Double(lon) / Double(units))
          let difference = found - expected
          let largest = max(abs(difference.x), abs(difference.y), abs(difference.z))
          #expect(largest < 4e-15, "\(lat), \(lon) at \(units) units per degree: off by \(largest)")
        }
      }
    }
  }

  @Test func seaShoreGridMatchesTheTree() throws {
    // The low-resolution shoreline keeps the build short; the batch tests use the high one.
    let coast = try Self.data.coastline(.low).polygons
    let shores = ShoreIndex(grid: PolygonGrid(layer: coast)) { _ in true }
    let land = { (feature: Int) in coast.level(of: feature) % 2 == 1 }
    let seaShores = NearestShoreGrid(shores: shores, accept: land)
    // The same grid reading its vertices decoded once, as the boundaries' grids do: a block decoded at its
    // second read, so that the points below read blocks both before and after.
    func decodingGrid(readsBeforeDecoding: UInt8) -> NearestShoreGrid {
      NearestShoreGrid(
        shores: shores, topSize: seaShores.topSize, accepted: (0..<coast.featureCount).map(land),
        first: seaShores.first, count: seaShores.count, candidates: seaShores.candidates,
        decodesVertices: true,
        readsBeforeDecoding: readsBeforeDecoding)!
    }
    let decoded = decodingGrid(readsBeforeDecoding: 2)
    var generator = SplitMix64(seed: 17)
    // Anywhere (inland too, where the grid asks the tree), and near the shore, where cells are small.
    let points =
      (0..<1_500).map { _ in Coordinate.random(using: &generator) }
      + (0..<500).map { _ in coast.pointNearAVertex(within: 0.3, using: &generator) }
    var mismatches = 0
    for point in points {
      let query = SphereGeometry.unitVector(point)
      let expected = shores.nearest(to: query, accept: land)
      let found = seaShores.nearest(to: query)
      let fromDecoded = decoded.nearest(to: query)
      if expected?.feature != found?.feature || expected?.angle != found?.angle
        || expected?.point != found?.point || fromDecoded?.feature != found?.feature
        || fromDecoded?.angle != found?.angle || fromDecoded?.point != found?.point
      {
        mismatches += 1
        if mismatches <= 5 {
          let answers = [expected, found, fromDecoded].map { String(describing: $0) }
          Issue.record("\(point): tree \(answers[0]), grid \(answers[1]), decoded \(answers[2])")
        }
      }
    }
    #expect(mismatches == 0, "\(mismatches) of \(points.count) points differ")

    // On every core at once, where threads race to count and decode the same blocks: the same answers.
    let racing = decodingGrid(readsBeforeDecoding: 3)
    let expected = points.map { seaShores.nearest(to: SphereGeometry.unitVector($0))?.point }
    let differing = Atomic(0)
    DispatchQueue.concurrentPerform(iterations: 8) { slice in
      var differs = 0
      for round in 0..<3 {
        for index in stride(from: (slice + round) % 8, to: points.count, by: 8) {
          let found = racing.nearest(to: SphereGeometry.unitVector(points[index]))?.point
          if found != expected[index] { differs += 1 }
        }
      }
      differing.add(differs, ordering: .relaxed)
    }
    #expect(differing.load(ordering: .relaxed) == 0)
  }

  @Test func timeZoneGridMatchesTheScan() throws {
    let layer = try Self.data.timeZones().polygons
    Self.expectSameAnswers(layer, PolygonGrid(layer: layer), seed: 14)
  }

  @Test func coastlineGridMatchesTheScan() throws {
    let layer = try Self.data.coastline(.high).polygons
    Self.expectSameAnswers(layer, PolygonGrid(layer: layer), seed: 15)
  }

  /// The ring grid in each file (`RGRD`) passes every ring whose box holds the point: the features found
  /// through it are those of a test of every ring, on random points, vertices, the corners of ring boxes and
  /// the edges of the grid's cells.
  @Test(arguments: ["countries", "regions", "marine", "timezones", "islands", "coastline-h", "coastline-l"])
  func ringGridFindsWhatEveryRingSays(_ name: String) throws {
    let layer = try Self.layer(name)
    var points = Self.points(on: layer, seed: 21, random: 300, rings: 6)
    var generator = SplitMix64(seed: 22)
    let units = Int32(layer.unitsPerDegree)
    for _ in 0..<60 {
      let box = layer.ringBox(Int.random(in: 0..<layer.ringCount, using: &generator))
      for latitude in [box.minLatitude, box.maxLatitude] {
        for longitude in [box.minLongitude, box.maxLongitude] {
          points.append(FixedPoint(latitude: latitude, longitude: longitude))
          points.append(FixedPoint(latitude: latitude, longitude: longitude &- 1))
          points.append(FixedPoint(latitude: latitude &- 1, longitude: longitude &+ 1))
        }
      }
      // Where the 2° cells meet: on the edge, and a unit either side.
      let latitude = Int32.random(in: -45...44, using: &generator) * 2 * units
      let longitude = Int32.random(in: -90...89, using: &generator) * 2 * units
      for dLatitude: Int32 in [-1, 0, 1] {
        for dLongitude: Int32 in [-1, 0, 1] {
          points.append(FixedPoint(latitude: latitude + dLatitude, longitude: longitude + dLongitude))
        }
      }
    }
    points.append(FixedPoint(latitude: 90 * units, longitude: 180 * units))
    points.append(FixedPoint(latitude: -90 * units, longitude: -180 * units))
    var mismatches = 0
    for point in points {
      var odd: Set<Int> = []
      for ring in 0..<layer.ringCount where layer.ringBox(ring).contains(point) {
        if layer.ringCrossings(point, ring: ring) { odd.formSymmetricDifference([layer.ring(ring).feature]) }
      }
      let found = layer.features(containing: point)
      if found != odd.sorted() {
        mismatches += 1
        if mismatches <= 5 {
          Issue.record("\(name) \(point): every ring \(odd.sorted()), ring grid \(found)")
        }
      }
    }
    #expect(mismatches == 0, "\(mismatches) of \(points.count) points differ")
  }

  @Test func featureSetTogglesAndKeepsItsOrder() {
    var set = FeatureSet()
    for feature: Int32 in [5, 3, 9, 3, 1, 7] { set.toggle(feature) }
    #expect(Array(set) == [1, 5, 7, 9])
    set.toggle(5)
    #expect(Array(set) == [1, 7, 9])
    #expect(set.first == 1)
    // Past eight members the set moves to an array, still in order.
    for feature: Int32 in [5, 2, 4, 6, 8, 10, 11] { set.toggle(feature) }
    #expect(Array(set) == [1, 2, 4, 5, 6, 7, 8, 9, 10, 11])
    set.toggle(10)
    set.toggle(1)
    #expect(Array(set) == [2, 4, 5, 6, 7, 8, 9, 11])
    #expect(set.first == 2)
    #expect(FeatureSet().isEmpty)
    #expect(FeatureSet().first == nil)
    // A set of one member says which, however it was made; other sets do not.
    #expect(FeatureSet(uniform: 4).single == 4 && Array(FeatureSet(uniform: 4)) == [4])
    #expect(FeatureSet(uniform: PolygonGrid.outside).isEmpty)
    #expect(set.single == nil && FeatureSet().single == nil && FeatureSet([3, 5]).single == nil)
    for feature: Int32 in [4, 5, 6, 7, 8, 9, 11] { set.toggle(feature) }
    #expect(Array(set) == [2] && set.single == 2)
  }
}

/// The 1° cells a grid answers from its table (no edge crosses them, one feature at most holds them) give
/// the scan's answer everywhere in them, their corners and edges and a unit outside included.
@Suite struct UniformCellTests {
  @Test(arguments: ["countries", "timezones", "coastline-h"])
  func uniformCellsGiveTheScansAnswers(_ name: String) throws {
    let layer = try PolygonGridTests.layer(name)
    let grid = PolygonGrid(layer: layer)
    let cells = PolygonGrid.rows * PolygonGrid.columns
    let uniform = (0..<cells).filter { grid.uniformCells[$0] != PolygonGrid.crossed }
    // The open sea and the inland: most cells of every layer.
    #expect(uniform.count > cells / 2, "\(uniform.count) of \(cells) cells")
    var generator = SplitMix64(seed: 31)
    let units = Int64(layer.unitsPerDegree)
    var mismatches = 0
    for _ in 0..<400 {
      let cell = uniform[Int(generator.next() % UInt64(uniform.count))]
      let south = Int64(cell / PolygonGrid.columns - 90) * units
      let west = Int64(cell % PolygonGrid.columns - 180) * units
      var points: [(Int64, Int64)] = [
        (south + Int64(generator.next() % UInt64(units)), west + Int64(generator.next() % UInt64(units))),
        (south + units / 2, west + units - 1), (south + units - 1, west + units / 2),
      ]
      for latitude in [south - 1, south, south + 1, south + units - 1, south + units] {
        for longitude in [west - 1, west, west + 1, west + units - 1, west + units] {
          points.append((latitude, longitude))
        }
      }
      for (latitude, longitude) in points where abs(latitude) <= 90 * units && abs(longitude) <= 180 * units {
        let point = FixedPoint(latitude: Int32(latitude), longitude: Int32(longitude))
        let expected = layer.features(containing: point)
        let found = Array(grid.features(containing: point))
        if expected != found {
          mismatches += 1
          if mismatches <= 5 { Issue.record("\(name) \(point): scan \(expected), grid \(found)") }
        }
      }
    }
    #expect(mismatches == 0)
  }
}

/// What a single lookup asks for ahead (``PolygonGrid/cellSpans``) holds every node below each 1° cell's
/// root and every run of its leaves: from the stretch's start, within its lines where they are not cut at
/// the most.
@Suite struct CellSpanTests {
  @Test(arguments: ["countries", "timezones", "coastline-h"])
  func spansHoldEachCellsNodesAndRuns(_ name: String) throws {
    let layer = try PolygonGridTests.layer(name)
    let grid = PolygonGrid(layer: layer)
    let (nodes, _, runs) = grid.cells
    var (checked, cut) = (0, 0)
    for cell in 0..<(PolygonGrid.rows * PolygonGrid.columns) {
      // The nodes below the root, and the runs of every leaf of the cell.
      var below: [Int] = []
      var cellRuns: [Int] = []
      var stack = [cell]
      while let node = stack.popLast() {
        if node != cell { below.append(node) }
        if nodes[node].isInner {
          stack.append(contentsOf: (0..<4).map { Int(nodes[node].link) + $0 })
        } else {
          cellRuns.append(contentsOf: Int(nodes[node].link)..<(Int(nodes[node].link) + nodes[node].runCount))
        }
      }
      let span = grid.cellSpans[cell]
      if let first = below.min(), let last = below.max() {
        #expect(first == Int(nodes[cell].link), "\(name) cell \(cell): nodes from \(first)")
        let bytes = (last + 1 - first) * MemoryLayout<PolygonGrid.Node>.stride
        if span.nodeLines == PolygonGrid.CellSpan.mostNodeLines {
          cut += 1
        } else {
          #expect(bytes <= (span.nodeLines - 1) * 64, "\(name) cell \(cell): \(bytes) bytes of nodes")
        }
      } else {
        #expect(span.nodeLines == 0, "\(name) cell \(cell) is a leaf")
      }
      if let first = cellRuns.min(), let last = cellRuns.max() {
        #expect(
          first == span.firstRun, "\(name) cell \(cell): runs from \(first), span from \(span.firstRun)")
        let bytes = (last + 1 - first) * MemoryLayout<PolygonGrid.Run>.stride
        #expect(
          span.runLines == PolygonGrid.CellSpan.mostRunLines || bytes <= (span.runLines - 1) * 64,
          "\(name) cell \(cell): \(bytes) bytes of runs")
        checked += 1
      } else {
        #expect(span.runLines == 0, "\(name) cell \(cell) lists no edge")
      }
    }
    #expect(checked > 1_000 && runs.count > 0)
    // Cut short only in the few cells the most edges cross.
    #expect(cut * 20 < checked, "\(cut) of \(checked) cells cut")
  }
}
