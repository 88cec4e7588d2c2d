import Foundation

/// A bounding-cap tree over the boundaries of a polygon layer's features: the exact nearest boundary
/// point at any distance, opening only the few pieces of boundary near the answer.
///
/// The boundaries of the accepted features of a ``PolygonGrid`` are cut into pieces of at most
/// ``pieceEdges`` consecutive edges. Each piece is bounded by a spherical cap: an edge is a great-circle
/// arc far shorter than a quarter circle, so it stays inside any such cap that holds its two ends. The
/// pieces are the leaves of a binary tree whose every node has a cap holding its children's. A query
/// visits nodes nearest-bound first and stops when the nearest remaining bound, `angle(q, centre) −
/// radius`, exceeds the best edge found; edges are measured with ``NearestBoundarySearch``'s arithmetic
/// and tie rule, so both searches find the same point.
final class ShoreIndex: @unchecked Sendable {
  // @unchecked: every array is written during init only and read afterwards.

  /// Edges per piece, at most.
  static let pieceEdges = 8
  /// Added to radii to absorb rounding.
  static let margin = 1e-9

  let grid: PolygonGrid
  /// Per piece: the vertex that starts its first edge, and its edge count.
  private var pieceFirstEdge: [UInt32] = []
  private var pieceEdgeCount: [UInt8] = []
  /// Per node: the cap (centre and radius). Nodes `0..<pieceCount` are the pieces; the rest are inner
  /// nodes, the root last.
  private var centres: [SIMD3<Double>] = []
  private var radii: [Double] = []
  /// Per inner node (indexed from `pieceCount`): its two children.
  private var children: [(UInt32, UInt32)] = []
  private var pieceCount = 0

  /// Builds the tree over the boundaries of the features that `accept` admits.
  init(grid: PolygonGrid, accept: (Int) -> Bool) {
    self.grid = grid
    cutPieces(accept: accept)
    pieceCount = centres.count
    guard pieceCount > 1 else { return }
    var order = [Int](0..<pieceCount)
    order.withUnsafeMutableBufferPointer { order in
      _ = buildNode(order, from: 0, to: pieceCount)
    }
  }

  private func cutPieces(accept: (Int) -> Bool) {
    let scale = 1 / Double(grid.cellUnits)
    for ring in 0..<(grid.ringStart.count - 1) where accept(Int(grid.ringFeature[ring])) {
      let start = Int(grid.ringStart[ring])
      let end = Int(grid.ringStart[ring + 1]) - 1  // the last vertex closes the ring
      var edge = start
      while edge < end {
        let edges = min(Self.pieceEdges, end - edge)
        var sum = SIMD3<Double>(0, 0, 0)
        var vectors: [SIMD3<Double>] = []
        for vertex in edge...(edge + edges) {
          let vector = SphereGeometry.unitVector(
            latitude: Double(grid.latitudes[vertex]) * scale, longitude: Double(grid.longitudes[vertex]) * scale)
          vectors.append(vector)
          sum += vector
        }
        let length = (sum * sum).sum().squareRoot()
        let centre = length > 1e-12 ? sum / length : vectors[0]
        pieceFirstEdge.append(UInt32(edge))
        pieceEdgeCount.append(UInt8(edges))
        centres.append(centre)
        radii.append(vectors.map { SphereGeometry.angle(centre, $0) }.max()! + Self.margin)
        edge += edges
      }
    }
  }

  /// Builds the subtree over `order[from..<to]` (split at the median of the widest coordinate) and
  /// returns its node.
  private func buildNode(_ order: UnsafeMutableBufferPointer<Int>, from: Int, to: Int) -> Int {
    if to - from == 1 { return order[from] }
    var low = SIMD3<Double>(repeating: .infinity)
    var high = SIMD3<Double>(repeating: -.infinity)
    for position in from..<to {
      low = pointwiseMin(low, centres[order[position]])
      high = pointwiseMax(high, centres[order[position]])
    }
    let spread = high - low
    let axis = spread.x >= spread.y && spread.x >= spread.z ? 0 : (spread.y >= spread.z ? 1 : 2)
    let middle = (from + to) / 2
    var keyed: [(key: Double, piece: Int)] = (from..<to).map { (centres[order[$0]][axis], order[$0]) }
    keyed.sort { $0.key < $1.key || ($0.key == $1.key && $0.piece < $1.piece) }
    for (offset, item) in keyed.enumerated() { order[from + offset] = item.piece }
    let left = buildNode(order, from: from, to: middle)
    let right = buildNode(order, from: middle, to: to)
    let sum = self.centres[left] + self.centres[right]
    let length = (sum * sum).sum().squareRoot()
    let centre = length > 1e-12 ? sum / length : self.centres[left]
    let leftReach: Double = SphereGeometry.angle(centre, self.centres[left]) + radii[left]
    let rightReach: Double = SphereGeometry.angle(centre, self.centres[right]) + radii[right]
    let radius = max(leftReach, rightReach) + Self.margin
    self.centres.append(centre)
    radii.append(min(radius, .pi))
    children.append((UInt32(left), UInt32(right)))
    return self.centres.count - 1
  }

  // MARK: Queries

  /// The nearest boundary point of the accepted features to a unit vector; nil when there are none.
  func nearest(to query: SIMD3<Double>) -> BoundaryHit? {
    guard !centres.isEmpty else { return nil }
    var best = BoundaryHit(feature: Int.max, angle: .infinity, point: query)
    var heap = BoundHeap()
    let root = centres.count - 1
    heap.push(bound(root, query), root)
    while let (nodeBound, node) = heap.pop() {
      if nodeBound > best.angle { break }
      if node < pieceCount {
        scan(piece: node, query: query, best: &best)
        continue
      }
      let (left, right) = children[node - pieceCount]
      for child in [Int(left), Int(right)] {
        let childBound = bound(child, query)
        if childBound <= best.angle { heap.push(childBound, child) }
      }
    }
    return best.angle.isFinite ? best : nil
  }

  /// A lower bound of the angle from `query` to anything inside node `node`'s cap.
  @inline(__always) private func bound(_ node: Int, _ query: SIMD3<Double>) -> Double {
    max(0, SphereGeometry.angle(query, centres[node]) - radii[node] - Self.margin)
  }

  @inline(__always) private func scan(piece: Int, query: SIMD3<Double>, best: inout BoundaryHit) {
    let scale = 1 / Double(grid.cellUnits)
    let edge = Int(pieceFirstEdge[piece])
    let feature = Int(grid.ringFeature[Int(grid.edgeRing[edge])])
    var previous = SphereGeometry.unitVector(
      latitude: Double(grid.latitudes[edge]) * scale, longitude: Double(grid.longitudes[edge]) * scale)
    for vertex in (edge + 1)...(edge + Int(pieceEdgeCount[piece])) {
      let current = SphereGeometry.unitVector(
        latitude: Double(grid.latitudes[vertex]) * scale, longitude: Double(grid.longitudes[vertex]) * scale)
      let closest = SphereGeometry.closestPoint(on: previous, current, to: query)
      let angle = SphereGeometry.angle(query, closest)
      if angle < best.angle || (angle == best.angle && feature < best.feature) {
        best = BoundaryHit(feature: feature, angle: angle, point: closest)
      }
      previous = current
    }
  }

  /// Pieces, nodes and bytes held.
  var size: (pieces: Int, nodes: Int, bytes: Int) {
    (pieceCount, centres.count, pieceCount * 5 + centres.count * 40 + children.count * 8)
  }
}

/// A binary min-heap of (bound, node) pairs.
private struct BoundHeap {
  private var items: [(Double, Int)] = []

  init() { items.reserveCapacity(64) }

  mutating func push(_ bound: Double, _ node: Int) {
    items.append((bound, node))
    var child = items.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard items[child].0 < items[parent].0 else { break }
      items.swapAt(child, parent)
      child = parent
    }
  }

  mutating func pop() -> (Double, Int)? {
    guard let top = items.first else { return nil }
    let last = items.removeLast()
    if !items.isEmpty {
      items[0] = last
      var parent = 0
      while true {
        let left = 2 * parent + 1
        let right = left + 1
        var smallest = parent
        if left < items.count && items[left].0 < items[smallest].0 { smallest = left }
        if right < items.count && items[right].0 < items[smallest].0 { smallest = right }
        if smallest == parent { break }
        items.swapAt(parent, smallest)
        parent = smallest
      }
    }
    return top
  }
}
