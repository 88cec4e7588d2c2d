import CMath
import Dispatch
import TunnelSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A cube-map grid whose cells list every place that can be nearest to some point of the cell: an exact
/// nearest-place answer in one short scan, for batches.
///
/// The sphere is projected onto the six faces of a cube (gnomonic projection, so cell edges are
/// great-circle arcs); each face is cut into `topSize × topSize` cells, and a cell whose list is longer
/// than ``leafCapacity`` is split into four, recursively. For a cell with centre `c`, corner-to-centre
/// radius `r`, and `n` the place nearest to `c`, every point of the cell has a place within
/// `D = max over the corners of d(corner, n)`, and a place `p` can be nearest somewhere in the cell only if
/// `d(c, p) − r ≤ D`: the cell lists exactly those places (with a margin of 10⁻⁹ radians). A query finds its
/// cell and scans that list with the same squared-chord comparison as ``NearestPlaceSearch``, so both give
/// the same place.
///
/// - Complexity: building visits each cell once (milliseconds to a few hundred, see the benchmark); a query
///   costs a few projections and at most ``leafCapacity`` distance computations in all but the cells
///   that stopped splitting at ``maximumDepth``.
final class NearestPlaceGrid: @unchecked Sendable {
  // @unchecked: every array is written during init only and read afterwards.

  /// Cells are split while they list more places than this.
  static let leafCapacity = 24
  /// Cells stop splitting at this depth below the top level (about 40 m across).
  static let maximumDepth = 16
  /// Added to every cell's radius to absorb rounding.
  static let margin = 1e-9
  /// How far below zero a corner's `x · (p − n)` may be and still keep `p`, to absorb rounding.
  static let tieMargin = 1e-12

  let vectors: PlaceVectorArray
  let topSize: Int
  // Constants, not variables: a query reads all three, and a class's variables would each be a checked
  // access at run time (a fifth of the answering time of a nearest-place batch).
  /// Per node: offset into ``candidates`` (leaf) or index of the first of four children (inner node).
  let first: [UInt32]
  /// Per node: number of candidates (leaf) or `UInt32.max` (inner node).
  let count: [UInt32]
  let candidates: [UInt32]

  /// A grid from its arrays, as ``NearestPlaceGridFile`` saved them.
  init(vectors: PlaceVectorArray, topSize: Int, first: [UInt32], count: [UInt32], candidates: [UInt32]) {
    self.vectors = vectors
    self.topSize = topSize
    self.first = first
    self.count = count
    self.candidates = candidates
  }

  /// Builds the grid over every place, the top cells shared out among every core.
  init(places: PlaceLayer, vectors: PlaceVectorArray, topSize: Int = 64) {
    self.vectors = vectors
    self.topSize = topSize
    let tree = NearestPlaceSearch(places: places, vectors: vectors)
    let topCount = 6 * topSize * topSize
    // Each part builds the subtrees of a run of top cells with its own numbering: its top cells are its
    // nodes 0..<run, their descendants follow. The parts are then laid end to end.
    let partCount = min(topCount, 8 * max(1, ProcessInfo.processInfo.activeProcessorCount))
    // One slot per part of the build, each written by one worker.
    let parts = Locked([Part?](repeating: nil, count: partCount))
    DispatchQueue.concurrentPerform(iterations: partCount) { part in
      let range = (topCount * part / partCount)..<(topCount * (part + 1) / partCount)
      var built = Part(topCells: range.count)
      var list: [UInt32] = []
      for (local, node) in range.enumerated() {
        let cell = Cell(top: node, topSize: topSize)
        let centre = cell.centre
        let nearest = tree.nearest(to: centre)!.index
        let limit = cell.candidateRadius(nearest: vectors.vector(nearest))
        list.removeAll(keepingCapacity: true)
        tree.forEach(within: SphereGeometry.chordSquared(angle: limit), of: centre) { index, _ in
          list.append(UInt32(index))
        }
        built.fill(
          node: local, cell: cell, list: cell.keeping(list, nearest: nearest, vectors: vectors), depth: 0,
          vectors: vectors)
      }
      parts.withLock { $0[part] = built }
    }
    var first = [UInt32](repeating: 0, count: topCount)
    var count = [UInt32](repeating: 0, count: topCount)
    var candidates: [UInt32] = []
    var topStart = 0
    for part in parts.withLock({ $0.map { $0! } }) {
      let topCells = part.topCells
      let childBase = first.count
      let candidateBase = candidates.count
      func global(_ local: UInt32) -> UInt32 {
        Int(local) < topCells ? UInt32(topStart) + local : UInt32(childBase) + local - UInt32(topCells)
      }
      for local in 0..<part.first.count {
        let isInner = part.count[local] == UInt32.max
        let value = isInner ? global(part.first[local]) : part.first[local] + UInt32(candidateBase)
        if local < topCells {
          first[topStart + local] = value
          count[topStart + local] = part.count[local]
        } else {
          first.append(value)
          count.append(part.count[local])
        }
      }
      candidates.append(contentsOf: part.candidates)
      topStart += topCells
    }
    (self.first, self.count, self.candidates) = (first.compacted(), count.compacted(), candidates.compacted())
  }

  /// The nodes of the subtrees of a run of top cells, numbered from 0 with the top cells first.
  private struct Part {
    let topCells: Int
    var first: [UInt32]
    var count: [UInt32]
    var candidates: [UInt32] = []

    init(topCells: Int) {
      self.topCells = topCells
      first = [UInt32](repeating: 0, count: topCells)
      count = [UInt32](repeating: 0, count: topCells)
    }

    mutating func fill(node: Int, cell: Cell, list: [UInt32], depth: Int, vectors: PlaceVectorArray) {
      if list.count <= NearestPlaceGrid.leafCapacity || depth >= NearestPlaceGrid.maximumDepth {
        first[node] = UInt32(candidates.count)
        count[node] = UInt32(list.count)
        candidates.append(contentsOf: list.sorted())
        return
      }
      let children = first.count
      first[node] = UInt32(children)
      count[node] = UInt32.max
      first.append(contentsOf: [0, 0, 0, 0])
      count.append(contentsOf: [0, 0, 0, 0])
      for quadrant in 0..<4 {
        let child = cell.child(quadrant)
        let centre = child.centre
        var nearest = Int(list[0])
        var best = Double.infinity
        for index in list {
          let squared = SphereGeometry.chordSquared(centre, vectors.vector(Int(index)))
          if squared < best || (squared == best && Int(index) < nearest) {
            best = squared
            nearest = Int(index)
          }
        }
        let limit = SphereGeometry.chordSquared(
          angle: child.candidateRadius(nearest: vectors.vector(nearest)))
        let sublist = list.filter { SphereGeometry.chordSquared(centre, vectors.vector(Int($0))) <= limit }
        fill(
          node: children + quadrant, cell: child,
          list: child.keeping(sublist, nearest: nearest, vectors: vectors), depth: depth + 1, vectors: vectors
        )
      }
    }
  }

  /// The index and squared chord of the place nearest to a unit vector.
  @inline(__always) func nearest(to query: SIMD3<Double>) -> (index: Int, chordSquared: Double) {
    first.withUnsafeBufferPointer { first in
      count.withUnsafeBufferPointer { count in
        candidates.withUnsafeBufferPointer { candidates in
          let node = Self.leaf(of: query, topSize: topSize, first: first, count: count)
          return scan(node, query, first: first, count: count, candidates: candidates)
        }
      }
    }
  }

  /// The candidate of leaf `node` nearest to `query` (the first of equals), and its squared chord.
  @inline(__always) private func scan(
    _ node: Int, _ query: SIMD3<Double>, first: UnsafeBufferPointer<UInt32>,
    count: UnsafeBufferPointer<UInt32>,
    candidates: UnsafeBufferPointer<UInt32>
  ) -> (index: Int, chordSquared: Double) {
    var best = -1
    var bestSquared = Double.infinity
    let start = Int(first[node])
    for slot in start..<(start + Int(count[node])) {
      let index = Int(candidates[slot])
      let squared = SphereGeometry.chordSquared(query, vectors.vector(index))
      if squared < bestSquared {
        bestSquared = squared
        best = index
      }
    }
    return (best, bestSquared)
  }

  /// How many queries ``nearest(to:into:)`` walks down the grid side by side.
  static let groupSize = 16

  /// ``nearest(to:)-(SIMD3<Double>)`` of each of `queries`, written to the same place in `results`.
  ///
  /// As ``PolygonGrid/features(containing:into:)`` does: the queries go down the grid a level at a time,
  /// a group at once, each asking for the memory of its next step before the others take theirs; then
  /// each asks for its leaf's candidates, and the vectors of the candidates of the query after next are
  /// asked for while a query's are compared.
  func nearest(
    to queries: UnsafeBufferPointer<SIMD3<Double>>,
    into results: UnsafeMutablePointer<(index: Int, chordSquared: Double)>
  ) {
    withUnsafeTemporaryAllocation(of: Walk.self, capacity: Self.groupSize) { walks in
      first.withUnsafeBufferPointer { first in
        count.withUnsafeBufferPointer { count in
          candidates.withUnsafeBufferPointer { candidates in
            var start = 0
            while start < queries.count {
              let group = min(Self.groupSize, queries.count - start)
              walk(
                UnsafeBufferPointer(rebasing: queries[start..<(start + group)]), walks, results + start,
                first: first, count: count, candidates: candidates)
              start += group
            }
          }
        }
      }
    }
  }

  /// A query's way down the grid: its face coordinates, its node and that node's corner and width.
  private struct Walk {
    var u: Double
    var v: Double
    var u0: Double
    var v0: Double
    var width: Double
    var node: Int
  }

  /// ``nearest(to:into:)`` for one group of queries.
  @inline(__always) private func walk(
    _ queries: UnsafeBufferPointer<SIMD3<Double>>, _ walks: UnsafeMutableBufferPointer<Walk>,
    _ results: UnsafeMutablePointer<(index: Int, chordSquared: Double)>, first: UnsafeBufferPointer<UInt32>,
    count: UnsafeBufferPointer<UInt32>, candidates: UnsafeBufferPointer<UInt32>
  ) {
    let size = Double(topSize)
    let step = 2 / size
    for index in queries.indices {
      // The top cell, as ``leaf(of:topSize:first:count:)`` finds it.
      let (face, u, v) = Self.faceCoordinates(queries[index])
      let i = min(topSize - 1, max(0, Int((u + 1) * 0.5 * size)))
      let j = min(topSize - 1, max(0, Int((v + 1) * 0.5 * size)))
      let node = (face * topSize + j) * topSize + i
      walks[index] = Walk(
        u: u, v: v, u0: -1 + Double(i) * step, v0: -1 + Double(j) * step, width: step, node: node)
      tunnel_prefetch(count.baseAddress! + node)
      tunnel_prefetch(first.baseAddress! + node)
    }
    // A level at a time, each query still above its leaf taking one step down.
    var walking = true
    while walking {
      walking = false
      for index in queries.indices where count[walks[index].node] == UInt32.max {
        var walk = walks[index]
        walk.width *= 0.5
        var quadrant = 0
        if walk.u >= walk.u0 + walk.width {
          quadrant |= 1
          walk.u0 += walk.width
        }
        if walk.v >= walk.v0 + walk.width {
          quadrant |= 2
          walk.v0 += walk.width
        }
        walk.node = Int(first[walk.node]) + quadrant
        walks[index] = walk
        tunnel_prefetch(count.baseAddress! + walk.node)
        tunnel_prefetch(first.baseAddress! + walk.node)
        walking = true
      }
    }
    for index in queries.indices { tunnel_prefetch(candidates.baseAddress! + Int(first[walks[index].node])) }
    // The vectors of a query's candidates, asked for two queries ahead of their scan.
    func prefetchVectors(_ index: Int) {
      guard index < queries.count else { return }
      let start = Int(first[walks[index].node])
      for slot in start..<(start + Int(count[walks[index].node])) {
        // Both lines of a vector that lies across two.
        let vector = vectors.base + 3 * Int(candidates[slot])
        tunnel_prefetch(vector)
        if UInt(bitPattern: vector) & 63 > 40 { tunnel_prefetch(vector + 2) }
      }
    }
    prefetchVectors(0)
    prefetchVectors(1)
    for index in queries.indices {
      prefetchVectors(index + 2)
      results[index] = scan(
        walks[index].node, queries[index], first: first, count: count, candidates: candidates)
    }
  }

  /// The leaf cell holding a unit vector, in a grid of `topSize × topSize` top cells per face whose nodes
  /// hold, per node, the first of four children at `first` when `count` is `UInt32.max`.
  @inline(__always) static func leaf(
    of query: SIMD3<Double>, topSize: Int, first: UnsafeBufferPointer<UInt32>,
    count: UnsafeBufferPointer<UInt32>
  ) -> Int {
    let (face, u, v) = faceCoordinates(query)
    let size = Double(topSize)
    let i = min(topSize - 1, max(0, Int((u + 1) * 0.5 * size)))
    let j = min(topSize - 1, max(0, Int((v + 1) * 0.5 * size)))
    let step = 2 / size
    var u0 = -1 + Double(i) * step
    var v0 = -1 + Double(j) * step
    var width = step
    var node = (face * topSize + j) * topSize + i
    while count[node] == UInt32.max {
      width *= 0.5
      var quadrant = 0
      if u >= u0 + width {
        quadrant |= 1
        u0 += width
      }
      if v >= v0 + width {
        quadrant |= 2
        v0 += width
      }
      node = Int(first[node]) + quadrant
    }
    return node
  }

  /// The cube face of a vector and its gnomonic coordinates on that face, each in -1...1.
  @inline(__always) static func faceCoordinates(_ query: SIMD3<Double>) -> (face: Int, u: Double, v: Double) {
    let magnitude = SIMD3(abs(query.x), abs(query.y), abs(query.z))
    if magnitude.x >= magnitude.y && magnitude.x >= magnitude.z {
      return (query.x >= 0 ? 0 : 1, query.y / magnitude.x, query.z / magnitude.x)
    } else if magnitude.y >= magnitude.z {
      return (query.y >= 0 ? 2 : 3, query.x / magnitude.y, query.z / magnitude.y)
    } else {
      return (query.z >= 0 ? 4 : 5, query.x / magnitude.z, query.y / magnitude.z)
    }
  }

  /// Bytes held by the grid's arrays (not counting the place vectors).
  var byteCount: Int { 4 * (first.count + count.count + candidates.count) }
  /// How many nodes (cells at every level) the grid has.
  var nodeCount: Int { first.count }
  /// How many candidate entries the leaves hold in all.
  var candidateCount: Int { candidates.count }

  /// A cell of a cube face in gnomonic coordinates.
  struct Cell {
    var face: Int
    var u0: Double
    var u1: Double
    var v0: Double
    var v1: Double

    func point(_ u: Double, _ v: Double) -> SIMD3<Double> {
      let sign: Double = face % 2 == 0 ? 1 : -1
      let vector: SIMD3<Double>
      switch face / 2 {
      case 0: vector = SIMD3(sign, u, v)
      case 1: vector = SIMD3(u, sign, v)
      default: vector = SIMD3(u, v, sign)
      }
      return vector / (vector * vector).sum().squareRoot()
    }

    var centre: SIMD3<Double> { point((u0 + u1) / 2, (v0 + v1) / 2) }
    var corners: [SIMD3<Double>] { [point(u0, v0), point(u1, v0), point(u0, v1), point(u1, v1)] }

    func child(_ quadrant: Int) -> Cell {
      let um = (u0 + u1) / 2
      let vm = (v0 + v1) / 2
      return Cell(
        face: face, u0: quadrant & 1 == 0 ? u0 : um, u1: quadrant & 1 == 0 ? um : u1,
        v0: quadrant & 2 == 0 ? v0 : vm, v1: quadrant & 2 == 0 ? vm : v1)
    }

    /// The places of `list` that can be nearer than `nearest` to some point of the cell.
    ///
    /// A place `p` is nearer than `n` at a unit vector `x` exactly when `x · (p − n) > 0`. The cell is the
    /// central projection of a flat quadrilateral on the cube face, and a linear function takes its
    /// largest value over a quadrilateral at a corner, so `p` can win somewhere in the cell only if it
    /// wins (or ties, within rounding) at one of the four corners. The test compares with one rival only,
    /// so it keeps a superset of the places that are nearest somewhere in the cell.
    func keeping(_ list: [UInt32], nearest: Int, vectors: PlaceVectorArray) -> [UInt32] {
      let corners = self.corners
      let rival = vectors.vector(nearest)
      return list.filter { index in
        let difference = vectors.vector(Int(index)) - rival
        return Int(index) == nearest
          || corners.contains { ($0 * difference).sum() >= -NearestPlaceGrid.tieMargin }
      }
    }

    /// The angle from the centre within which every place that can be nearest in the cell lies.
    func candidateRadius(nearest: SIMD3<Double>) -> Double {
      let centre = self.centre
      let corners = self.corners
      let radius = corners.map { SphereGeometry.angle(centre, $0) }.max()!
      var farthest = corners.map { SphereGeometry.angle($0, nearest) }.max()!
      // The corner bound needs distances well below 90°; beyond, the triangle inequality is used.
      if farthest > 1.2 { farthest = SphereGeometry.angle(centre, nearest) + radius }
      return farthest + radius + 2 * NearestPlaceGrid.margin
    }
  }
}

extension NearestPlaceGrid.Cell {
  /// Top cell `node` of a grid of `topSize × topSize` top cells per face, numbered face by face, row by
  /// row.
  init(top node: Int, topSize: Int) {
    let face = node / (topSize * topSize)
    let j = node / topSize % topSize
    let i = node % topSize
    let step = 2 / Double(topSize)
    let u0 = -1 + Double(i) * step
    let v0 = -1 + Double(j) * step
    self.init(face: face, u0: u0, u1: u0 + step, v0: v0, v1: v0 + step)
  }
}
