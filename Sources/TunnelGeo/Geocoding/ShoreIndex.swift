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
/// and tie rule (the squared chord to the nearest point of each arc, then the lower feature), so both
/// searches find the same point.
final class ShoreIndex: @unchecked Sendable {
  // @unchecked: every array is written during init only and read afterwards.

  /// Edges per piece, at most.
  static let pieceEdges = 8
  /// Added to radii to absorb rounding.
  static let margin = 1e-9

  let grid: PolygonGrid
  /// Per piece: the vertex that starts its first edge, its edge count and its feature.
  private var pieceFirstEdge: [UInt32] = []
  private var pieceEdgeCount: [UInt8] = []
  private var pieceFeature: [Int32] = []
  /// Per piece, while building: its cap.
  private var pieceCentre: [SIMD3<Double>] = []
  private var pieceRadius: [Double] = []
  /// The tree, root first, the two children of a node side by side (one cache line apart at most).
  private var nodes: [Node] = []

  /// A node: its cap, and its children (`first` and `first + 1`) or, for a leaf, its piece.
  struct Node {
    var centre: SIMD3<Double>
    var cosRadius: Double
    var sinRadius: Double
    var radius: Double
    /// The first child, or the piece of a leaf.
    var first: UInt32
    var isLeaf: Bool
  }

  /// Builds the tree over the boundaries of the features that `accept` admits.
  init(grid: PolygonGrid, accept: (Int) -> Bool) {
    self.grid = grid
    cutPieces(accept: accept)
    guard !pieceCentre.isEmpty else { return }
    var order = [Int](0..<pieceCentre.count)
    nodes.reserveCapacity(2 * pieceCentre.count - 1)
    nodes.append(Node(centre: .zero, cosRadius: 1, sinRadius: 0, radius: 0, first: 0, isLeaf: true))
    order.withUnsafeMutableBufferPointer { order in
      build(node: 0, order, from: 0, to: order.count)
    }
    pieceCentre = []
    pieceRadius = []
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
            latitude: Double(grid.latitudes[vertex]) * scale,
            longitude: Double(grid.longitudes[vertex]) * scale)
          vectors.append(vector)
          sum += vector
        }
        let length = (sum * sum).sum().squareRoot()
        let centre = length > 1e-12 ? sum / length : vectors[0]
        pieceFirstEdge.append(UInt32(edge))
        pieceEdgeCount.append(UInt8(edges))
        pieceFeature.append(grid.ringFeature[ring])
        pieceCentre.append(centre)
        // A cap wider than a hemisphere need not hold the arcs between its points: take the sphere.
        let radius = vectors.map { SphereGeometry.angle(centre, $0) }.max()! + Self.margin
        pieceRadius.append(radius < .pi / 2 ? radius : .pi)
        edge += edges
      }
    }
  }

  /// Fills node `node` with the subtree over `order[from..<to]`, split at the median of the widest
  /// coordinate of the pieces' centres.
  private func build(node: Int, _ order: UnsafeMutableBufferPointer<Int>, from: Int, to: Int) {
    if to - from == 1 {
      let piece = order[from]
      nodes[node] = Node(
        centre: pieceCentre[piece], cosRadius: cos(pieceRadius[piece]), sinRadius: sin(pieceRadius[piece]),
        radius: pieceRadius[piece], first: UInt32(piece), isLeaf: true)
      return
    }
    var low = SIMD3<Double>(repeating: .infinity)
    var high = SIMD3<Double>(repeating: -.infinity)
    for position in from..<to {
      low = pointwiseMin(low, pieceCentre[order[position]])
      high = pointwiseMax(high, pieceCentre[order[position]])
    }
    let spread = high - low
    let axis = spread.x >= spread.y && spread.x >= spread.z ? 0 : (spread.y >= spread.z ? 1 : 2)
    var keyed: [(key: Double, piece: Int)] = (from..<to).map { (pieceCentre[order[$0]][axis], order[$0]) }
    keyed.sort { $0.key < $1.key || ($0.key == $1.key && $0.piece < $1.piece) }
    for (offset, item) in keyed.enumerated() { order[from + offset] = item.piece }
    let left = nodes.count
    let blank = nodes[node]
    nodes.append(blank)
    nodes.append(blank)
    let middle = (from + to) / 2
    build(node: left, order, from: from, to: middle)
    build(node: left + 1, order, from: middle, to: to)
    let a = nodes[left]
    let b = nodes[left + 1]
    let sum = a.centre + b.centre
    let length = (sum * sum).sum().squareRoot()
    let centre = length > 1e-12 ? sum / length : a.centre
    let leftReach: Double = SphereGeometry.angle(centre, a.centre) + a.radius
    let rightReach: Double = SphereGeometry.angle(centre, b.centre) + b.radius
    let radius = min(.pi, max(leftReach, rightReach) + Self.margin)
    nodes[node] = Node(
      centre: centre, cosRadius: cos(radius), sinRadius: sin(radius), radius: radius, first: UInt32(left),
      isLeaf: false)
  }

  // MARK: Queries

  /// The nearest boundary point of the features admitted when the tree was built (and by `accept`, when
  /// given) to a unit vector, if one lies within `limit` radians; of points at the same distance, the one
  /// of the lowest feature.
  func nearest(
    to query: SIMD3<Double>, within limit: Double = .pi, accept: ((Int) -> Bool)? = nil
  ) -> BoundaryHit? {
    guard !nodes.isEmpty else { return nil }
    // Nodes are ordered by the cosine of their lower bound, which needs a square root but no
    // trigonometry: cos(θ − ρ) = cos θ cos ρ + sin θ sin ρ, with θ the angle to the cap's centre.
    var bestChord = SphereGeometry.chordSquared(angle: limit)
    var bestCos = cos(min(limit, .pi))
    var bestFeature = Int.max
    var bestPoint = query
    var found = false
    var heap = BoundHeap()
    let rootKey = key(0, query)
    if rootKey >= bestCos - 1e-12 { heap.push(-rootKey, 0) }
    while let (negativeKey, node) = heap.pop() {
      if min(1, -negativeKey) < bestCos - 1e-12 { break }
      let entry = nodes[node]
      if entry.isLeaf {
        let piece = Int(entry.first)
        if let accept, !accept(Int(pieceFeature[piece])) { continue }
        if scan(
          piece: piece, query: query, bestChord: &bestChord, bestFeature: &bestFeature, bestPoint: &bestPoint)
        {
          found = true
          bestCos = 1 - bestChord / 2
        }
        continue
      }
      let left = Int(entry.first)
      let leftKey = key(left, query)
      if leftKey >= bestCos - 1e-12 { heap.push(-leftKey, left) }
      let rightKey = key(left + 1, query)
      if rightKey >= bestCos - 1e-12 { heap.push(-rightKey, left + 1) }
    }
    guard found else { return nil }
    return BoundaryHit(feature: bestFeature, angle: SphereGeometry.angle(query, bestPoint), point: bestPoint)
  }

  /// The cosine of a lower bound of the angle from `query` to anything in node `node`'s cap; for a cap
  /// holding the query (bound 0), `2 + cos θ`, so that of those the one with the nearest centre is
  /// opened first.
  @inline(__always) private func key(_ node: Int, _ query: SIMD3<Double>) -> Double {
    nodes.withUnsafeBufferPointer { nodes in
      let entry = nodes[node]
      let dot = min(1, max(-1, (query * entry.centre).sum()))
      if dot >= entry.cosRadius { return 2 + dot }
      let sine = (1 - dot * dot).squareRoot()
      return dot * entry.cosRadius + sine * entry.sinRadius
    }
  }

  /// Measures a piece's edges; true when one of them is nearer than the best so far.
  @inline(__always) private func scan(
    piece: Int, query: SIMD3<Double>, bestChord: inout Double, bestFeature: inout Int,
    bestPoint: inout SIMD3<Double>
  ) -> Bool {
    let scale = 1 / Double(grid.cellUnits)
    let edge = Int(pieceFirstEdge[piece])
    let feature = Int(pieceFeature[piece])
    var improved = false
    var previous = SphereGeometry.unitVector(
      latitude: Double(grid.latitudes[edge]) * scale, longitude: Double(grid.longitudes[edge]) * scale)
    for vertex in (edge + 1)...(edge + Int(pieceEdgeCount[piece])) {
      let current = SphereGeometry.unitVector(
        latitude: Double(grid.latitudes[vertex]) * scale, longitude: Double(grid.longitudes[vertex]) * scale)
      let closest = SphereGeometry.closestPoint(on: previous, current, to: query)
      let chord = SphereGeometry.chordSquared(query, closest)
      if chord < bestChord || (chord == bestChord && feature < bestFeature) {
        bestChord = chord
        bestFeature = feature
        bestPoint = closest
        improved = true
      }
      previous = current
    }
    return improved
  }

  /// Pieces, nodes and bytes held.
  var size: (pieces: Int, nodes: Int, bytes: Int) {
    (pieceFirstEdge.count, nodes.count, pieceFirstEdge.count * 9 + nodes.count * MemoryLayout<Node>.stride)
  }
}

/// A binary min-heap of (bound, node) pairs.
private struct BoundHeap {
  private var items: [(Double, Int)] = []

  init() { items.reserveCapacity(64) }

  @inline(__always) mutating func push(_ bound: Double, _ node: Int) {
    items.append((bound, node))
    var child = items.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard items[child].0 < items[parent].0 else { break }
      items.swapAt(child, parent)
      child = parent
    }
  }

  @inline(__always) mutating func pop() -> (Double, Int)? {
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
