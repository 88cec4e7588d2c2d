#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A bounding-ball tree over the boundaries of a polygon layer's features: the exact nearest boundary
/// point at any distance, opening only the few pieces of boundary near the answer.
///
/// The boundaries of the accepted features of a ``PolygonGrid`` are cut into pieces of at most
/// ``pieceEdges`` consecutive edges. The pieces are the leaves of a tree with up to ``fanout`` children
/// per node, and every node holds a ball in space (single-precision centre, radius rounded up) that
/// contains its pieces: their vertices, and the great-circle arcs between them, which leave the straight
/// chord by at most their sagitta. The chord from a query to anything in a ball is at least the distance
/// to its centre less its radius. A query visits nodes nearest-bound first and stops when the nearest
/// remaining bound exceeds the best edge found; edges are measured with ``NearestBoundarySearch``'s
/// arithmetic and tie rule (the squared chord to the nearest point of each arc, then the lower feature),
/// so both searches find the same point.
final class ShoreIndex: Sendable {
  /// Edges per piece, at most.
  static let pieceEdges = 8
  /// Children per node, at most: a query reads a node's children from a few adjacent cache lines.
  static let fanout = 8
  /// Added to bounds to absorb rounding (in chord lengths, about a micrometre).
  static let slack = 1e-12

  /// The layer whose features' boundaries the tree holds.
  let layer: PolygonLayer
  /// The vertices the pieces are edges of: the grid's, or those of the rings the tree decoded for itself.
  let vertices: [FixedPoint]
  /// The grid the tree was built over; nil for a tree over rings of its own (``cached(layer:kind:cache:accept:)``).
  let grid: PolygonGrid?
  /// The unit vectors of the vertices.
  let vectors: FixedPointVectors
  /// Per piece: the vertex that starts its first edge, its edge count and its feature.
  let pieceFirstEdge: [UInt32]
  let pieceEdgeCount: [UInt8]
  let pieceFeature: [Int32]
  /// The tree, root first, the children of a node side by side.
  let nodes: [Node]

  /// A node: its ball, and its children (`count` nodes from `link`) or, for a leaf (``leafBit`` set), its
  /// piece: the vertex that starts its first edge in `link`, its edge count in the low byte of `count` and
  /// its feature above it. A query reads a piece from its leaf alone: three arrays more were three more
  /// cache misses for every piece measured.
  struct Node {
    var x: Float
    var y: Float
    var z: Float
    var radius: Float
    var link: UInt32
    /// A whole word, so that a node has no padding: its bytes, written to a cache file, are all set.
    var count: UInt32 = 0

    static let leafBit: UInt32 = 1 << 31
    var isLeaf: Bool { link & Self.leafBit != 0 }
    var target: Int { Int(link & ~Self.leafBit) }
    /// A leaf's piece.
    var firstEdge: Int { target }
    var edgeCount: Int { Int(count & 0xFF) }
    var feature: Int { Int(count >> 8) }
  }

  /// A CRC-32 of the pieces and the tree: what an index built over this one depends on.
  let checksum: UInt32

  /// Builds the tree over the boundaries of the features of `grid` that `accept` admits.
  convenience init(grid: PolygonGrid, accept: (Int) -> Bool) {
    self.init(
      layer: grid.layer,
      rings: PolygonGrid.Rings(
        vertices: grid.vertices, ringStart: grid.ringStart, ringFeature: grid.ringFeature),
      grid: grid, accept: accept)
  }

  /// Builds the tree over the boundaries of the features of `rings` (a layer's) that `accept` admits.
  private init(layer: PolygonLayer, rings: PolygonGrid.Rings, grid: PolygonGrid?, accept: (Int) -> Bool) {
    self.layer = layer
    self.grid = grid
    vertices = rings.vertices
    vectors = FixedPointVectors.shared(unitsPerDegree: layer.unitsPerDegree)
    var builder = Builder(rings: rings, featureCount: layer.featureCount, vectors: vectors)
    builder.cutPieces(accept: accept)
    builder.buildTree()
    pieceFirstEdge = builder.pieceFirstEdge.compacted()
    pieceEdgeCount = builder.pieceEdgeCount.compacted()
    pieceFeature = builder.pieceFeature.compacted()
    nodes = builder.nodes.compacted()
    checksum = Self.checksum(pieceFirstEdge, pieceEdgeCount, pieceFeature, nodes)
  }

  /// The tree of a cache file, if every piece lies within the vertices and the layer's features and every
  /// node links to pieces or to later nodes, at most ``maximumDepth`` deep: a query then stays inside the
  /// arrays whatever the file held.
  init?(
    layer: PolygonLayer, vertices: [FixedPoint], grid: PolygonGrid?, pieceFirstEdge: [UInt32],
    pieceEdgeCount: [UInt8], pieceFeature: [Int32], nodes: [Node]
  ) {
    let pieces = pieceFirstEdge.count
    guard pieceEdgeCount.count == pieces, pieceFeature.count == pieces, nodes.isEmpty == (pieces == 0),
      (0..<pieces).allSatisfy({
        pieceEdgeCount[$0] >= 1 && Int(pieceFirstEdge[$0]) + Int(pieceEdgeCount[$0]) < vertices.count
          && pieceFeature[$0] >= 0 && Int(pieceFeature[$0]) < layer.featureCount
      })
    else { return nil }
    var depth = [UInt8](repeating: 0, count: nodes.count)
    for (node, entry) in nodes.enumerated() {
      if entry.isLeaf {
        guard entry.edgeCount >= 1, entry.firstEdge + entry.edgeCount < vertices.count,
          entry.feature < layer.featureCount
        else { return nil }
        continue
      }
      guard entry.count >= 1, Int(entry.count) <= Self.fanout, entry.target > node,
        entry.target + Int(entry.count) <= nodes.count, Int(depth[node]) < Self.maximumDepth
      else { return nil }
      for child in entry.target..<(entry.target + Int(entry.count)) {
        depth[child] = max(depth[child], depth[node] + 1)
      }
    }
    (self.layer, self.vertices, self.grid) = (layer, vertices, grid)
    vectors = FixedPointVectors.shared(unitsPerDegree: layer.unitsPerDegree)
    (self.pieceFirstEdge, self.pieceEdgeCount, self.pieceFeature, self.nodes) = (
      pieceFirstEdge, pieceEdgeCount, pieceFeature, nodes
    )
    checksum = Self.checksum(pieceFirstEdge, pieceEdgeCount, pieceFeature, nodes)
  }

  /// Levels below the root, at most, in a tree read from a file (a built tree over the finest shoreline
  /// has seven): ``NearestShoreGrid``'s depth-first walk needs at most 1 + 7 × 8 stack slots for it.
  static let maximumDepth = 8

  private static func checksum(
    _ first: [UInt32], _ count: [UInt8], _ feature: [Int32], _ nodes: [Node]
  ) -> UInt32 {
    var crc = CRC32()
    first.withUnsafeBytes { crc.update($0) }
    count.withUnsafeBytes { crc.update($0) }
    feature.withUnsafeBytes { crc.update($0) }
    nodes.withUnsafeBytes { crc.update($0) }
    return crc.value
  }

  /// The tree over the boundaries of the features of `grid` that `accept` admits, read from `cache`
  /// when it was saved there before, else built and saved there (``IndexCacheFile``); `kind` names what
  /// `accept` admits in the file's name.
  static func cached(
    grid: PolygonGrid, kind: String, cache: IndexCache?, accept: (Int) -> Bool
  ) -> ShoreIndex {
    guard let cache else { return ShoreIndex(grid: grid, accept: accept) }
    let name = IndexCacheFile.name(layer: grid.layer, kind: kind, version: fileVersion)
    let keys = fileKeys(layer: grid.layer, accept: accept)
    if let loaded = load(
      name, from: cache, layer: grid.layer, vertices: grid.vertices, grid: grid, keys: keys)
    {
      return loaded
    }
    return save(ShoreIndex(grid: grid, accept: accept), as: name, in: cache, keys: keys)
  }

  /// The tree over the boundaries of the features of `layer` that `accept` admits, with no grid: only
  /// their rings are decoded, into vertices of its own (the coastline's small islands are a fraction of
  /// it). Read from `cache` as ``cached(grid:kind:cache:accept:)`` reads a tree.
  static func cached(
    layer: PolygonLayer, kind: String, cache: IndexCache?, accept: (Int) -> Bool
  ) -> ShoreIndex {
    let rings = PolygonGrid.decodeRings(of: layer, accepting: accept)
    guard let cache else { return ShoreIndex(layer: layer, rings: rings, grid: nil) { _ in true } }
    let name = IndexCacheFile.name(layer: layer, kind: kind, version: fileVersion)
    // The pieces count the vertices of the accepted rings alone: another key than a grid's tree.
    let keys = fileKeys(layer: layer, accept: accept) + [UInt32(rings.vertices.count), 0x4F57_4E52]
    if let loaded = load(name, from: cache, layer: layer, vertices: rings.vertices, grid: nil, keys: keys) {
      return loaded
    }
    return save(
      ShoreIndex(layer: layer, rings: rings, grid: nil) { _ in true }, as: name, in: cache, keys: keys)
  }

  /// Saves `built` as `name` in `cache` with `keys`, and returns it.
  private static func save(
    _ built: ShoreIndex, as name: String, in cache: IndexCache, keys: [UInt32]
  ) -> ShoreIndex {
    IndexCacheFile.save(
      name, in: cache, magic: fileMagic, keys: keys,
      arrays: [
        CacheArray(built.pieceFirstEdge), CacheArray(built.pieceEdgeCount), CacheArray(built.pieceFeature),
        CacheArray(built.nodes),
      ])
    return built
  }

  /// What a tree's file depends on: the layer, the tree's parameters and the features admitted.
  static func fileKeys(layer: PolygonLayer, accept: (Int) -> Bool) -> [UInt32] {
    return [fileVersion, layer.file.payloadChecksum] + IndexCacheFile.keys(layer.file.size)
      + [
        UInt32(layer.vertexCount), UInt32(layer.featureCount), UInt32(pieceEdges), UInt32(fanout),
        UInt32(MemoryLayout<Node>.stride), IndexCacheFile.acceptedKey(features: layer.featureCount, accept),
      ]
  }

  /// The tree saved as `name` in `cache` with `keys`, or nil when there is none or it does not pass
  /// every check.
  static func load(
    _ name: String, from cache: IndexCache, layer: PolygonLayer, vertices: [FixedPoint], grid: PolygonGrid?,
    keys: [UInt32]
  ) -> ShoreIndex? {
    guard var file = IndexCacheFile.Reader(name, in: cache, magic: fileMagic, keys: keys, arrays: 4),
      let first = file.read(UInt32.self), let count = file.read(UInt8.self),
      let feature = file.read(Int32.self),
      let nodes = file.read(Node.self), file.finish()
    else { return nil }
    return ShoreIndex(
      layer: layer, vertices: vertices, grid: grid, pieceFirstEdge: first, pieceEdgeCount: count,
      pieceFeature: feature, nodes: nodes)
  }

  static let fileMagic = "TUNLSHOR"
  static let fileVersion: UInt32 = 3

  /// The pieces and the tree while they are built.
  private struct Builder {
    let rings: PolygonGrid.Rings
    let featureCount: Int
    var pieceFirstEdge: [UInt32] = []
    var pieceEdgeCount: [UInt8] = []
    var pieceFeature: [Int32] = []
    /// Per piece: the sum of its vertices' unit vectors (a direction near its middle), and the largest
    /// sagitta of its edges.
    var pieceCentre: [SIMD3<Float>] = []
    var pieceSagitta: [Double] = []
    var nodes: [Node] = []
    /// Per vertex of the grid: its unit vector in single precision (within ``vectorError`` of the exact
    /// one), three floats each, to keep the build's memory down.
    var vectors: [Float] = []
    static let vectorError = 2e-7
    let exactVectors: FixedPointVectors

    @inline(__always) func vector(_ vertex: Int) -> SIMD3<Double> {
      SIMD3(Double(vectors[3 * vertex]), Double(vectors[3 * vertex + 1]), Double(vectors[3 * vertex + 2]))
    }

    init(rings: PolygonGrid.Rings, featureCount: Int, vectors: FixedPointVectors) {
      self.rings = rings
      self.featureCount = featureCount
      exactVectors = vectors
    }

    mutating func cutPieces(accept: (Int) -> Bool) {
      // A leaf holds its piece's feature in 24 bits.
      precondition(featureCount < 1 << 24, "too many features for a shoreline tree")
      vectors.reserveCapacity(3 * rings.vertices.count)
      for vertex in 0..<rings.vertices.count {
        let exact = exactVectors.unitVector(rings.vertices[vertex])
        vectors.append(Float(exact.x))
        vectors.append(Float(exact.y))
        vectors.append(Float(exact.z))
      }
      for ring in 0..<(rings.ringStart.count - 1) where accept(Int(rings.ringFeature[ring])) {
        let start = Int(rings.ringStart[ring])
        let end = Int(rings.ringStart[ring + 1]) - 1  // the last vertex closes the ring
        var edge = start
        while edge < end {
          let edges = min(ShoreIndex.pieceEdges, end - edge)
          var sum = vector(edge)
          var sagitta = 0.0
          for vertex in (edge + 1)...(edge + edges) {
            sum += vector(vertex)
            // An arc of chord c leaves its chord by at most 1 − √(1 − c²/4) ≤ c²/4.
            let chord = SphereGeometry.chordSquared(vector(vertex - 1), vector(vertex))
            let longest = chord.squareRoot() + 2 * Self.vectorError
            sagitta = max(sagitta, longest * longest / 4)
          }
          pieceFirstEdge.append(UInt32(edge))
          pieceEdgeCount.append(UInt8(edges))
          pieceFeature.append(rings.ringFeature[ring])
          pieceCentre.append(SIMD3<Float>(sum))
          pieceSagitta.append(sagitta)
          edge += edges
        }
      }
    }

    /// The ball of pieces `order[range]`: the middle of their vertices' bounding box in single precision,
    /// and the farthest vertex from it plus the largest sagitta and the vectors' error, rounded up.
    private func ball(_ order: UnsafeMutableBufferPointer<Int>, _ range: Range<Int>) -> (SIMD3<Float>, Float)
    {
      var low = SIMD3<Double>(repeating: .infinity)
      var high = SIMD3<Double>(repeating: -.infinity)
      var sagitta = 0.0
      for position in range {
        let piece = order[position]
        let first = Int(pieceFirstEdge[piece])
        for vertex in first...(first + Int(pieceEdgeCount[piece])) {
          low = pointwiseMin(low, vector(vertex))
          high = pointwiseMax(high, vector(vertex))
        }
        sagitta = max(sagitta, pieceSagitta[piece])
      }
      let centre = SIMD3<Float>((low + high) / 2)
      let exact = SIMD3<Double>(centre)
      var widest = 0.0
      for position in range {
        let piece = order[position]
        let first = Int(pieceFirstEdge[piece])
        for vertex in first...(first + Int(pieceEdgeCount[piece])) {
          widest = max(widest, SphereGeometry.chordSquared(exact, vector(vertex)))
        }
      }
      let radius = widest.squareRoot() * (1 + 1e-12) + Self.vectorError + sagitta + ShoreIndex.slack
      var rounded = Float(radius)
      while Double(rounded) < radius { rounded = rounded.nextUp }
      return (centre, rounded)
    }

    mutating func buildTree() {
      guard !pieceFirstEdge.isEmpty else { return }
      var order = [Int](0..<pieceFirstEdge.count)
      nodes.reserveCapacity(pieceFirstEdge.count + pieceFirstEdge.count / (ShoreIndex.fanout - 1) + 1)
      nodes.append(Node(x: 0, y: 0, z: 0, radius: 0, link: 0))
      order.withUnsafeMutableBufferPointer { order in build(node: 0, order, 0..<order.count) }
      vectors = []
    }

    /// Fills node `node` with the subtree over `order[range]`, cut into up to ``fanout`` groups by median
    /// splits along the widest coordinate of the pieces' centres.
    private mutating func build(node: Int, _ order: UnsafeMutableBufferPointer<Int>, _ range: Range<Int>) {
      let (centre, radius) = ball(order, range)
      let piece = order[range.lowerBound]
      var link = pieceFirstEdge[piece] | Node.leafBit
      var count = Int(pieceEdgeCount[piece]) | Int(pieceFeature[piece]) << 8
      if range.count > 1 {
        var groups: [Range<Int>] = []
        split(order, range, parts: ShoreIndex.fanout, into: &groups)
        let first = nodes.count
        for _ in groups { nodes.append(Node(x: 0, y: 0, z: 0, radius: 0, link: 0)) }
        for (offset, group) in groups.enumerated() { build(node: first + offset, order, group) }
        (link, count) = (UInt32(first), groups.count)
      }
      nodes[node] = Node(
        x: centre.x, y: centre.y, z: centre.z, radius: radius, link: link, count: UInt32(count))
    }

    /// Cuts `range` of `order` into `parts` groups (fewer for short ranges), halving at the median of the
    /// widest coordinate of the pieces' centres.
    private func split(
      _ order: UnsafeMutableBufferPointer<Int>, _ range: Range<Int>, parts: Int,
      into groups: inout [Range<Int>]
    ) {
      if parts == 1 || range.count == 1 {
        groups.append(range)
        return
      }
      var low = SIMD3<Float>(repeating: .infinity)
      var high = SIMD3<Float>(repeating: -.infinity)
      for position in range {
        low = pointwiseMin(low, pieceCentre[order[position]])
        high = pointwiseMax(high, pieceCentre[order[position]])
      }
      let spread = high - low
      let axis = spread.x >= spread.y && spread.x >= spread.z ? 0 : (spread.y >= spread.z ? 1 : 2)
      var keyed: [(key: Float, piece: Int)] = range.map { (pieceCentre[order[$0]][axis], order[$0]) }
      keyed.sort { $0.key < $1.key || ($0.key == $1.key && $0.piece < $1.piece) }
      for (offset, item) in keyed.enumerated() { order[range.lowerBound + offset] = item.piece }
      let middle = (range.lowerBound + range.upperBound) / 2
      split(order, range.lowerBound..<middle, parts: parts / 2, into: &groups)
      split(order, middle..<range.upperBound, parts: parts / 2, into: &groups)
    }
  }

  // MARK: Queries

  /// The nearest boundary point of the features admitted when the tree was built to a unit vector, if one
  /// lies within `limit` radians; of points at the same distance, the one of the lowest feature.
  func nearest(to query: SIMD3<Double>, within limit: Double = .pi) -> BoundaryHit? {
    nearest(to: query, within: limit) { _ in true }
  }

  /// The nearest boundary point of the features admitted when the tree was built and by `accept`.
  func nearest(
    to query: SIMD3<Double>, within limit: Double = .pi, accept: (Int) -> Bool
  ) -> BoundaryHit? {
    guard !nodes.isEmpty else { return nil }
    var best = Best(chord: SphereGeometry.chordSquared(angle: limit), point: query)
    // Nodes whose bound is farther than this cannot hold a better point.
    var reach = best.chord.squareRoot() + Self.slack
    return nodes.withUnsafeBufferPointer { nodes -> BoundaryHit? in
      withUnsafeTemporaryAllocation(of: HeapEntry.self, capacity: 256) { storage in
        var heap = BoundHeap(storage: storage)
        defer { heap.release() }
        guard Self.bound(nodes[0], query) <= reach else { return nil }
        // A first answer from the leaf reached by following the nearest ball down: it bounds the search
        // from the start, so that the balls beyond it are never opened. The other balls met on the way
        // down wait in the heap with the bounds found for them, and the search goes on from there.
        var node = 0
        while node >= 0 && !nodes[node].isLeaf {
          let first = nodes[node].target
          var nearest = (node: -1, bound: reach)
          for child in first..<(first + Int(nodes[node].count)) {
            let bound = Self.bound(nodes[child], query)
            guard bound <= reach else { continue }
            if bound <= nearest.bound {
              if nearest.node >= 0 { heap.push(HeapEntry(bound: nearest.bound, node: UInt32(nearest.node))) }
              nearest = (child, bound)
            } else {
              heap.push(HeapEntry(bound: bound, node: UInt32(child)))
            }
          }
          node = nearest.node
        }
        if node >= 0, accept(nodes[node].feature), scan(leaf: nodes[node], query: query, best: &best) {
          reach = best.chord.squareRoot() + Self.slack
        }
        while let top = heap.pop() {
          if top.bound > reach { break }
          let entry = nodes[Int(top.node)]
          if entry.isLeaf {
            if !accept(entry.feature) { continue }
            if scan(leaf: entry, query: query, best: &best) { reach = best.chord.squareRoot() + Self.slack }
            continue
          }
          let first = entry.target
          for child in first..<(first + Int(entry.count)) {
            let bound = Self.bound(nodes[child], query)
            if bound <= reach { heap.push(HeapEntry(bound: bound, node: UInt32(child))) }
          }
        }
        return best.hit(from: query)
      }
    }
  }

  /// The nearest boundary point within `limit` radians of a unit vector among the pieces of the leaves
  /// in `runs` that `accept` admits: the answer of ``nearest(to:within:accept:)`` when they hold every
  /// piece that comes within `limit` of the query (``BorderCells``), found without walking down the
  /// tree. Each run is a first node (high 24 bits) and a count less one (low 8); a node that is not a
  /// leaf is passed over. Of points at the same distance, the one of the lowest feature.
  func nearest(
    to query: SIMD3<Double>, within limit: Double, amongRuns runs: UnsafeBufferPointer<UInt32>,
    accept: (Int) -> Bool
  ) -> BoundaryHit? {
    var best = Best(chord: SphereGeometry.chordSquared(angle: limit), point: query)
    var reach = best.chord.squareRoot() + Self.slack
    nodes.withUnsafeBufferPointer { nodes in
      for run in runs {
        let first = Int(run >> 8)
        for index in first...(first + Int(run & 0xFF)) {
          let node = nodes[index]
          guard node.isLeaf, Self.bound(node, query) <= reach, accept(node.feature) else { continue }
          if scan(leaf: node, query: query, best: &best) { reach = best.chord.squareRoot() + Self.slack }
        }
      }
    }
    return best.hit(from: query)
  }

  /// Whether any boundary point of the pieces of the leaves in `runs` (as
  /// ``nearest(to:within:amongRuns:accept:)`` takes them) lies within `limit` radians of a unit vector:
  /// whether that search, admitting every feature, finds one. Answered at the first leaf that has one.
  func hasPoint(
    within limit: Double, of query: SIMD3<Double>, amongRuns runs: UnsafeBufferPointer<UInt32>
  ) -> Bool {
    let none = Best(chord: SphereGeometry.chordSquared(angle: limit), point: query)
    let reach = none.chord.squareRoot() + Self.slack
    return nodes.withUnsafeBufferPointer { nodes in
      for run in runs {
        let first = Int(run >> 8)
        for index in first...(first + Int(run & 0xFF)) {
          let node = nodes[index]
          guard node.isLeaf, Self.bound(node, query) <= reach else { continue }
          // The search's own measure of the leaf: what would be its first point found.
          var best = none
          if scan(leaf: node, query: query, best: &best) { return true }
        }
      }
      return false
    }
  }

  /// The best edge point so far: its squared chord, feature (`Int.max` before the first) and point.
  struct Best {
    var chord: Double
    var feature = Int.max
    var point: SIMD3<Double>

    /// The point as a query's answer; nil before the first.
    func hit(from query: SIMD3<Double>) -> BoundaryHit? {
      guard feature != Int.max else { return nil }
      return BoundaryHit(feature: feature, angle: SphereGeometry.angle(query, point), point: point)
    }
  }

  /// A lower bound of the chord from `query` to anything in a node's ball: the distance to its centre
  /// less its radius (negative inside, so that the ball the query is deepest in opens first).
  @inline(__always) static func bound(_ entry: Node, _ query: SIMD3<Double>) -> Double {
    let dx = query.x - Double(entry.x)
    let dy = query.y - Double(entry.y)
    let dz = query.z - Double(entry.z)
    return (dx * dx + dy * dy + dz * dz).squareRoot() - Double(entry.radius)
  }

  /// Measures the edges of a leaf's piece; true when one of them is nearer than the best so far.
  @inline(__always) func scan(leaf: Node, query: SIMD3<Double>, best: inout Best) -> Bool {
    // The vertices one at a time: their array's buffer, taken whole, counted a reference to it for every
    // piece, on every core.
    scan(leaf: leaf, query: query, best: &best) { vectors.unitVector(vertices[$0]) }
  }

  /// ``scan(leaf:query:best:)`` with each vertex's unit vector from `vector` (of its index), which must give
  /// what ``vectors`` decodes: from vectors decoded before (``NearestShoreGrid``).
  @inline(__always) func scan(
    leaf: Node, query: SIMD3<Double>, best: inout Best, vector: (Int) -> SIMD3<Double>
  ) -> Bool {
    let edge = leaf.firstEdge
    let feature = leaf.feature
    let last = edge + leaf.edgeCount
    var improved = false
    var previous = vector(edge)
    var previousChord = SphereGeometry.chordSquared(query, previous)
    var previousDot = SphereGeometry.dot(previous, query)
    for vertex in (edge + 1)...last {
      let current = vector(vertex)
      let currentChord = SphereGeometry.chordSquared(query, current)
      let currentDot = SphereGeometry.dot(current, query)
      defer { (previous, previousChord, previousDot) = (current, currentChord, currentDot) }
      let closest: SIMD3<Double>
      let chord: Double
      // Most arcs are nearest at an end, whose chord is known: no root is taken for them. The others
      // are measured only when they can come as near as the best point.
      if SphereGeometry.footIsOutside(
        aDotP: previousDot, bDotP: currentDot, aDotB: SphereGeometry.dot(previous, current))
      {
        (closest, chord) =
          previousChord <= currentChord ? (previous, previousChord) : (current, currentChord)
      } else {
        guard
          SphereGeometry.arcChordLowerBound(
            toA: previousChord.squareRoot(), toB: currentChord.squareRoot(), previous, current)
            <= best.chord.squareRoot() + Self.slack
        else { continue }
        closest = SphereGeometry.closestPoint(on: previous, current, to: query)
        chord = SphereGeometry.chordSquared(query, closest)
      }
      if chord < best.chord || (chord == best.chord && feature < best.feature) {
        best = Best(chord: chord, feature: feature, point: closest)
        improved = true
      }
    }
    return improved
  }

  /// Node `index` of the tree, read on its own (see ``scan(leaf:query:best:)``).
  @inline(__always) func node(_ index: Int) -> Node { nodes[index] }

  /// Appends the unit vectors of a piece's vertices (its edge count plus one), as ``scan(leaf:query:best:)``
  /// computes them.
  func appendVectors(ofPiece piece: Int, to vectors: inout [SIMD3<Double>]) {
    appendVectors(from: Int(pieceFirstEdge[piece]), edges: Int(pieceEdgeCount[piece]), to: &vectors)
  }

  /// Appends the unit vectors of a leaf's piece's vertices.
  func appendVectors(ofLeaf leaf: Node, to vectors: inout [SIMD3<Double>]) {
    appendVectors(from: leaf.firstEdge, edges: leaf.edgeCount, to: &vectors)
  }

  private func appendVectors(from edge: Int, edges: Int, to vectors: inout [SIMD3<Double>]) {
    for vertex in edge...(edge + edges) { vectors.append(self.vectors.unitVector(self.vertices[vertex])) }
  }

  /// Pieces, nodes and bytes held.
  var size: (pieces: Int, nodes: Int, bytes: Int) {
    (pieceFirstEdge.count, nodes.count, pieceFirstEdge.count * 9 + nodes.count * MemoryLayout<Node>.stride)
  }
}

/// An entry of a query's heap: a node and its bound.
private struct HeapEntry {
  var bound: Double
  var node: UInt32
}

/// A binary min-heap of nodes by bound, in caller-provided storage that moves to the heap when it fills.
private struct BoundHeap {
  private var items: UnsafeMutableBufferPointer<HeapEntry>
  private var owned = false
  private var count = 0

  init(storage: UnsafeMutableBufferPointer<HeapEntry>) { items = storage }

  /// Frees the storage this heap allocated, if any.
  mutating func release() {
    if owned { items.deallocate() }
  }

  @inline(__always) mutating func push(_ entry: HeapEntry) {
    if count == items.count { grow() }
    var child = count
    count += 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard entry.bound < items[parent].bound else { break }
      items[child] = items[parent]
      child = parent
    }
    items[child] = entry
  }

  @inline(__always) mutating func pop() -> HeapEntry? {
    guard count > 0 else { return nil }
    let top = items[0]
    count -= 1
    guard count > 0 else { return top }
    let last = items[count]
    var parent = 0
    while true {
      let left = 2 * parent + 1
      guard left < count else { break }
      var smaller = left
      if left + 1 < count && items[left + 1].bound < items[left].bound { smaller = left + 1 }
      guard items[smaller].bound < last.bound else { break }
      items[parent] = items[smaller]
      parent = smaller
    }
    items[parent] = last
    return top
  }

  private mutating func grow() {
    let larger = UnsafeMutableBufferPointer<HeapEntry>.allocate(capacity: max(16, items.count * 2))
    _ = larger.initialize(from: items[0..<count])
    release()
    items = larger
    owned = true
  }
}
