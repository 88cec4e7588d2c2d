import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A cube-map grid whose cells list every shoreline piece of a ``ShoreIndex`` that can hold the nearest
/// shoreline point of some point of the cell: the nearest shore at any distance from one short scan, for
/// batches of points at sea.
///
/// The cells are those of ``NearestPlaceGrid``. For a cell, let `t` be the shoreline point nearest to its
/// centre. For any point `s` of a piece, `x ↦ x · (t − s)` is linear on the flat quadrilateral whose
/// central projection is the cell, and its sign says whether `t` or `s` is nearer to `x`; so a piece can
/// hold a point nearer than `t` somewhere in the cell only if it comes as near as `t` at one of the four
/// corners (within ``ShoreIndex/slack``). A cell keeps those pieces: measured exactly, or, where the
/// shoreline may run through the cell, by their balls alone (a few more, never fewer). A cell keeping more
/// than ``leafCapacity`` pieces is split into four: a child's pieces are among its parent's, and its `t`
/// is the nearest point of them to its own centre. A cell wholly inside a polygon of an admitted feature
/// lists nothing: no point outside them falls in it, and the few queries that do go to the tree.
///
/// A leaf cell lists tree nodes: pieces, and inner nodes whose pieces are all admitted standing for them
/// when it keeps at least half of their children. The node holding the piece nearest to the centre comes
/// first, the others by their bound. A query measures the listed pieces with the tree's arithmetic and tie
/// rule, skipping every node whose ball is farther than the best edge so far, so it finds the same point as
/// ``ShoreIndex/nearest(to:within:accept:)`` with the features the grid was built for.
final class NearestShoreGrid: @unchecked Sendable {
  // @unchecked: ``decoded``'s vectors are written a block at a time, each before its state says so (see
  // ``DecodedVertices``); everything else in init only.
  /// Cells are split while they list more pieces than this.
  static let leafCapacity = 8
  /// Cells stop splitting at this depth below the top level (about 40 km across): cells near the
  /// shoreline list many pieces, but few queries at sea come so near it.
  static let maximumDepth = 2
  /// The `count` of a cell wholly inside the polygons of the admitted features, whose queries (from no
  /// point outside them) go to the tree.
  static let treeCell = UInt32.max - 1

  let shores: ShoreIndex
  let topSize: Int
  /// Per node: offset into ``candidates`` (leaf) or index of the first of four children (inner node).
  let first: [UInt32]
  /// Per node: number of candidates (leaf) or `UInt32.max` (inner node).
  let count: [UInt32]
  /// Per leaf cell: nodes of the tree, the one holding the piece nearest to the cell's centre first.
  let candidates: [UInt32]
  /// Per feature: whether the grid was built for it.
  private let accepted: [Bool]
  /// The tree's vertices decoded once, for the grids whose queries measure many edges each (the
  /// boundaries': some 20 to 70 vertices a query); nil for the others.
  private let decoded: DecodedVertices?

  /// Builds the grid over the pieces of `shores` whose feature `accept` admits. With `listsInteriors`, a
  /// cell wholly inside an admitted polygon lists its pieces too: for layers whose polygons cover most
  /// queries (the time zones cover the whole globe, the countries the land). With `decodesVertices`, the
  /// tree's vertices are decoded once, a block at the `readsBeforeDecoding`-th query that reads it, and held
  /// (``DecodedVertices``).
  init(
    shores: ShoreIndex, topSize: Int = 64, listsInteriors: Bool = false, decodesVertices: Bool = false,
    readsBeforeDecoding: UInt8 = DecodedVertices.threshold, accept: (Int) -> Bool
  ) {
    self.shores = shores
    self.topSize = topSize
    decoded =
      decodesVertices ? DecodedVertices(count: shores.vertices.count, threshold: readsBeforeDecoding) : nil
    let topCount = 6 * topSize * topSize
    accepted = (0..<shores.layer.featureCount).map(accept)
    let built = withoutActuallyEscaping(accept) { accept in
      var builder = Builder(shores: shores, accept: accept, listsInteriors: listsInteriors)
      builder.first = [UInt32](repeating: 0, count: topCount)
      builder.count = [UInt32](repeating: 0, count: topCount)
      for node in 0..<topCount {
        let cell = NearestPlaceGrid.Cell(top: node, topSize: topSize)
        guard let rival = shores.nearest(to: cell.centre, accept: accept)?.point else { continue }
        if builder.isInside(cell, rival: rival) {
          builder.count[node] = NearestShoreGrid.treeCell
          continue
        }
        builder.fill(node: node, cell: cell, list: builder.gather(cell, rival: rival), depth: 0)
      }
      return (builder.first, builder.count, builder.candidates)
    }
    first = built.0.compacted()
    count = built.1.compacted()
    candidates = built.2.compacted()
  }

  /// The grid of a cache file, if its top level is whole, every inner node's children come after it and
  /// inside the grid, every leaf's list lies inside ``candidates`` and every candidate is a node of the
  /// tree: a query then stays inside the arrays whatever the file held.
  init?(
    shores: ShoreIndex, topSize: Int, accepted: [Bool], first: [UInt32], count: [UInt32],
    candidates: [UInt32], decodesVertices: Bool = false,
    readsBeforeDecoding: UInt8 = DecodedVertices.threshold
  ) {
    let nodes = first.count
    guard count.count == nodes, nodes >= 6 * topSize * topSize,
      (0..<nodes).allSatisfy({ node in
        switch count[node] {
        case UInt32.max: Int(first[node]) > node && Int(first[node]) + 4 <= nodes
        case Self.treeCell: true
        default: Int(first[node]) + Int(count[node]) <= candidates.count
        }
      }),
      candidates.allSatisfy({ Int($0) < shores.nodes.count })
    else { return nil }
    (self.shores, self.topSize, self.accepted) = (shores, topSize, accepted)
    (self.first, self.count, self.candidates) = (first, count, candidates)
    decoded =
      decodesVertices ? DecodedVertices(count: shores.vertices.count, threshold: readsBeforeDecoding) : nil
  }

  deinit { decoded?.deallocate() }

  static let fileVersion: UInt32 = 2
  static let fileMagic = "TUNLSEAS"

  /// What a grid's file depends on: its tree, its parameters and the features admitted.
  static func fileKeys(shores: ShoreIndex, topSize: Int, accepted: [Bool], listsInteriors: Bool) -> [UInt32] {
    [
      fileVersion, shores.checksum, UInt32(topSize), UInt32(leafCapacity), UInt32(maximumDepth),
      IndexCacheFile.acceptedKey(features: accepted.count) { accepted[$0] },
    ] + (listsInteriors ? [1] : [])
  }

  /// The grid saved as `name` in `cache` with `keys`, or nil when there is none or it does not pass
  /// every check.
  static func load(
    _ name: String, from cache: IndexCache, shores: ShoreIndex, topSize: Int, accepted: [Bool],
    keys: [UInt32],
    decodesVertices: Bool = false
  ) -> NearestShoreGrid? {
    guard var file = IndexCacheFile.Reader(name, in: cache, magic: fileMagic, keys: keys, arrays: 3),
      let first = file.read(UInt32.self), let count = file.read(UInt32.self),
      let candidates = file.read(UInt32.self), file.finish()
    else { return nil }
    return NearestShoreGrid(
      shores: shores, topSize: topSize, accepted: accepted, first: first, count: count,
      candidates: candidates,
      decodesVertices: decodesVertices)
  }

  /// The grid over the pieces of `shores` whose feature `accept` admits, read from `cache` when it was
  /// saved there before, else built and saved there (``IndexCacheFile``); `kind` names what `accept`
  /// admits in the file's name. The file is keyed by the tree's checksum, so a grid never outlives its
  /// tree. `decodesVertices` as the initializer takes it (it does not change the file).
  static func cached(
    shores: ShoreIndex, kind: String, cache: IndexCache?, topSize: Int = 64, listsInteriors: Bool = false,
    decodesVertices: Bool = false, accept: (Int) -> Bool
  ) -> NearestShoreGrid {
    guard let cache else {
      return NearestShoreGrid(
        shores: shores, topSize: topSize, listsInteriors: listsInteriors, decodesVertices: decodesVertices,
        accept: accept)
    }
    let layer = shores.layer
    let name = IndexCacheFile.name(layer: layer, kind: kind, version: fileVersion)
    let accepted = (0..<layer.featureCount).map(accept)
    let keys = fileKeys(shores: shores, topSize: topSize, accepted: accepted, listsInteriors: listsInteriors)
    if let loaded = load(
      name, from: cache, shores: shores, topSize: topSize, accepted: accepted, keys: keys,
      decodesVertices: decodesVertices)
    {
      return loaded
    }
    let built = NearestShoreGrid(
      shores: shores, topSize: topSize, listsInteriors: listsInteriors, decodesVertices: decodesVertices
    ) { accepted[$0] }
    IndexCacheFile.save(
      name, in: cache, magic: fileMagic, keys: keys,
      arrays: [CacheArray(built.first), CacheArray(built.count), CacheArray(built.candidates)])
    return built
  }

  /// A piece being placed: its leaf in the tree, and where its vertices' unit vectors start in the
  /// builder's ``Builder/vectors``.
  private struct Candidate {
    var node: UInt32
    var start: Int
    var edges: Int
  }

  private struct Builder {
    let shores: ShoreIndex
    let accept: (Int) -> Bool
    /// Whether cells inside admitted polygons list their pieces rather than send queries to the tree.
    let listsInteriors: Bool
    var first: [UInt32] = []
    var count: [UInt32] = []
    var candidates: [UInt32] = []
    /// The unit vectors of the pieces gathered for the current top cell, decoded once.
    var vectors: [SIMD3<Double>] = []
    /// Per node of the tree: its parent, -1 for the root.
    let parent: [Int32]
    /// Per node of the tree: whether every piece under it is of an admitted feature.
    let admitted: [Bool]

    init(shores: ShoreIndex, accept: @escaping (Int) -> Bool, listsInteriors: Bool) {
      self.shores = shores
      self.accept = accept
      self.listsInteriors = listsInteriors
      var parent = [Int32](repeating: -1, count: shores.nodes.count)
      for (node, entry) in shores.nodes.enumerated() where !entry.isLeaf {
        for child in entry.target..<(entry.target + Int(entry.count)) { parent[child] = Int32(node) }
      }
      self.parent = parent
      // Children come after their parents: a reverse walk sees every child before its parent.
      var admitted = [Bool](repeating: true, count: shores.nodes.count)
      for (node, entry) in shores.nodes.enumerated().reversed() {
        admitted[node] =
          entry.isLeaf
          ? accept(entry.feature)
          : (entry.target..<(entry.target + Int(entry.count))).allSatisfy { admitted[$0] }
      }
      self.admitted = admitted
    }

    /// The squared chord from `point` to a piece, and the piece's nearest point, with the tree's
    /// arithmetic.
    /// With a `limit`, arcs farther than it are skipped, and the first arc within it ends the measure.
    func measure(
      _ piece: Candidate, from point: SIMD3<Double>, limit: Double = .infinity
    ) -> (chord: Double, point: SIMD3<Double>) {
      var best = (chord: Double.infinity, point: point)
      var reach = limit
      var previousChord = SphereGeometry.chordSquared(point, vectors[piece.start])
      var toPrevious = previousChord.squareRoot()
      for edge in piece.start..<(piece.start + piece.edges) {
        let (a, b) = (vectors[edge], vectors[edge + 1])
        let nextChord = SphereGeometry.chordSquared(point, b)
        let toNext = nextChord.squareRoot()
        defer { (previousChord, toPrevious) = (nextChord, toNext) }
        guard SphereGeometry.arcChordLowerBound(toA: toPrevious, toB: toNext, a, b) <= reach else { continue }
        let (closest, chord) = SphereGeometry.closestPoint(
          on: a, b, to: point, chordToA: previousChord, chordToB: nextChord)
        if chord < best.chord {
          best = (chord, closest)
          if limit.isFinite && chord.squareRoot() <= limit { return best }
          reach = min(reach, chord.squareRoot() + ShoreIndex.slack)
        }
      }
      return best
    }

    /// Whether a piece comes as near to one of `corners` as their `reach`; unless `exact`, whether its
    /// ball does (a cell the shoreline runs through lists nearly every piece its ball test keeps, and
    /// measuring them would cost more than it saves).
    func reaches(_ piece: Candidate, _ corners: [SIMD3<Double>], _ reach: [Double], exact: Bool) -> Bool {
      let entry = shores.nodes[Int(piece.node)]
      for (corner, limit) in zip(corners, reach) where ShoreIndex.bound(entry, corner) <= limit {
        if !exact || measure(piece, from: corner, limit: limit).chord.squareRoot() <= limit { return true }
      }
      return false
    }

    /// Whether the nearest shoreline point to the centre of `cell` lies within the cell's radius: the
    /// shoreline may run through the cell.
    func isCrossed(_ cell: NearestPlaceGrid.Cell, rival: SIMD3<Double>) -> Bool {
      let centre = cell.centre
      let clearance = SphereGeometry.chordSquared(centre, rival)
      return cell.corners.contains { SphereGeometry.chordSquared(centre, $0) >= clearance }
    }

    /// `nodes` with every group of siblings that holds at least half of its parent's children replaced
    /// by the parent, if all of the parent's pieces are admitted, level after level: a stretch of
    /// shoreline takes a few entries, not one per piece.
    func merged(_ nodes: [UInt32]) -> [UInt32] {
      var entries = nodes
      while true {
        var children: [Int32: Int] = [:]
        for entry in entries where parent[Int(entry)] >= 0 { children[parent[Int(entry)], default: 0] += 1 }
        let merging = Set(
          children.filter {
            $0.value >= 2 && 2 * $0.value >= Int(shores.nodes[Int($0.key)].count) && admitted[Int($0.key)]
          }.keys)
        if merging.isEmpty { return entries }
        entries = entries.filter { !merging.contains(parent[Int($0)]) } + merging.map { UInt32($0) }
      }
    }

    /// Whether `cell` lies wholly inside a polygon of an admitted feature, so that no query from outside
    /// them comes to it: its centre is inside one, and `rival`, the nearest admitted shoreline point to
    /// the centre, is farther than every corner.
    func isInside(_ cell: NearestPlaceGrid.Cell, rival: SIMD3<Double>) -> Bool {
      if listsInteriors { return false }
      let centre = cell.centre
      let clearance = SphereGeometry.angle(centre, rival)
      guard cell.corners.allSatisfy({ SphereGeometry.angle(centre, $0) * (1 + 1e-9) + 1e-12 < clearance })
      else { return false }
      let point = SphereGeometry.coordinate(centre)
      guard let grid = shores.grid else {
        return shores.layer.features(containing: shores.layer.fixedPoint(point)).contains(where: accept)
      }
      return grid.features(containing: point).contains(where: accept)
    }

    /// The chord from each corner of `cell` to `rival`, plus the slack.
    func reach(_ cell: NearestPlaceGrid.Cell, rival: SIMD3<Double>) -> [Double] {
      cell.corners.map { SphereGeometry.chordSquared($0, rival).squareRoot() + ShoreIndex.slack }
    }

    /// The pieces that come as near to a corner of `cell` as `rival` does, their vectors decoded into
    /// ``vectors`` (emptied first).
    mutating func gather(_ cell: NearestPlaceGrid.Cell, rival: SIMD3<Double>) -> [Candidate] {
      let corners = cell.corners
      let reach = reach(cell, rival: rival)
      let exact = !isCrossed(cell, rival: rival)
      vectors.removeAll(keepingCapacity: true)
      var found: [Candidate] = []
      var stack: [Int] = [0]
      while let node = stack.popLast() {
        let entry = shores.nodes[node]
        guard zip(corners, reach).contains(where: { ShoreIndex.bound(entry, $0) <= $1 }) else { continue }
        if !entry.isLeaf {
          stack.append(contentsOf: entry.target..<(entry.target + Int(entry.count)))
          continue
        }
        guard accept(entry.feature) else { continue }
        let start = vectors.count
        shores.appendVectors(ofLeaf: entry, to: &vectors)
        let piece = Candidate(node: UInt32(node), start: start, edges: vectors.count - start - 1)
        if reaches(piece, corners, reach, exact: exact) {
          found.append(piece)
        } else {
          vectors.removeSubrange(start...)
        }
      }
      return found
    }

    /// The piece of `list` nearest to `point` (its position in the list) and its nearest point: the piece
    /// with the nearest ball is measured first, and the others only when their ball is nearer than the
    /// best so far.
    func nearest(of list: [Candidate], to point: SIMD3<Double>) -> (position: Int, point: SIMD3<Double>)? {
      let bounds = list.map { ShoreIndex.bound(shores.nodes[Int($0.node)], point) }
      guard let opening = bounds.indices.min(by: { bounds[$0] < bounds[$1] }) else { return nil }
      let measured = measure(list[opening], from: point)
      var best = (position: opening, chord: measured.chord, point: measured.point)
      for position in list.indices where position != opening {
        guard bounds[position] <= best.chord.squareRoot() + ShoreIndex.slack else { continue }
        let candidate = measure(list[position], from: point, limit: best.chord.squareRoot())
        if candidate.chord < best.chord { best = (position, candidate.chord, candidate.point) }
      }
      return (best.position, best.point)
    }

    mutating func fill(node: Int, cell: NearestPlaceGrid.Cell, list: [Candidate], depth: Int) {
      if list.count <= NearestShoreGrid.leafCapacity || depth >= NearestShoreGrid.maximumDepth {
        let centre = cell.centre
        var entries = merged(list.map(\.node)).map { (ShoreIndex.bound(shores.nodes[Int($0)], centre), $0) }
          .sorted { $0 < $1 }.map(\.1)
        // The entry holding the piece nearest to the centre opens first: it bounds the rest.
        if let nearest = nearest(of: list, to: centre) {
          var holder = Int32(list[nearest.position].node)
          while !entries.contains(UInt32(holder)) { holder = parent[Int(holder)] }
          entries.removeAll { $0 == UInt32(holder) }
          entries.insert(UInt32(holder), at: 0)
        }
        first[node] = UInt32(candidates.count)
        count[node] = UInt32(entries.count)
        candidates.append(contentsOf: entries)
        return
      }
      let children = first.count
      first[node] = UInt32(children)
      count[node] = UInt32.max
      first.append(contentsOf: [0, 0, 0, 0])
      count.append(contentsOf: [0, 0, 0, 0])
      for quadrant in 0..<4 {
        let child = cell.child(quadrant)
        // A child's nearest pieces are among its parent's.
        let rival = nearest(of: list, to: child.centre)!.point
        if isInside(child, rival: rival) {
          (first[children + quadrant], count[children + quadrant]) = (0, NearestShoreGrid.treeCell)
          continue
        }
        let corners = child.corners
        let reach = reach(child, rival: rival)
        let exact = !isCrossed(child, rival: rival)
        fill(
          node: children + quadrant, cell: child,
          list: list.filter { reaches($0, corners, reach, exact: exact) }, depth: depth + 1)
      }
    }
  }

  /// The nearest shoreline point of the admitted features to a unit vector; of points at the same
  /// distance, the one of the lowest feature.
  func nearest(to query: SIMD3<Double>) -> BoundaryHit? {
    var best = ShoreIndex.Best(chord: SphereGeometry.chordSquared(angle: .pi), point: query)
    var reach = best.chord.squareRoot() + ShoreIndex.slack
    let answered = first.withUnsafeBufferPointer { first in
      count.withUnsafeBufferPointer { count in
        let cell = NearestPlaceGrid.leaf(of: query, topSize: topSize, first: first, count: count)
        if count[cell] == Self.treeCell { return false }
        let start = Int(first[cell])
        // Listed nodes and the children of inner ones still to open, depth first, each node's children
        // nearest on top: the nearest pieces are measured first, and their distance rules out more. The
        // nodes are read one at a time through the tree: their array's buffer, taken whole, counted a
        // reference to it for every query, on every core.
        withUnsafeTemporaryAllocation(of: (node: UInt32, bound: Double).self, capacity: 64) { stack in
          for slot in start..<(start + Int(count[cell])) {
            stack[0] = (candidates[slot], 0)
            var depth = 1
            while depth > 0 {
              depth -= 1
              let entry = shores.node(Int(stack[depth].node))
              guard ShoreIndex.bound(entry, query) <= reach else { continue }
              if entry.isLeaf {
                let improved =
                  if let vectors = decoded?.vectors(
                    from: entry.firstEdge, through: entry.firstEdge + entry.edgeCount, of: shores)
                  {
                    shores.scan(leaf: entry, query: query, best: &best) { vectors[$0] }
                  } else {
                    shores.scan(leaf: entry, query: query, best: &best)
                  }
                if improved { reach = best.chord.squareRoot() + ShoreIndex.slack }
                continue
              }
              // A fanout of 8 over at most 7 levels stays well within 64 slots. Each child goes in below
              // the nearer ones pushed before it (an insertion sort of at most 8).
              let base = depth
              for child in entry.target..<(entry.target + Int(entry.count)) {
                let bound = ShoreIndex.bound(shores.node(child), query)
                guard bound <= reach else { continue }
                var position = depth
                while position > base, stack[position - 1].bound < bound {
                  stack[position] = stack[position - 1]
                  position -= 1
                }
                stack[position] = (UInt32(child), bound)
                depth += 1
              }
            }
          }
        }
        return true
      }
    }
    if !answered { return shores.nearest(to: query) { accepted[$0] } }
    return best.hit(from: query)
  }

  /// Nodes (cells at every level), candidate entries, and bytes held.
  var size: (nodes: Int, candidates: Int, bytes: Int) {
    (first.count, candidates.count, 4 * (first.count + count.count + candidates.count))
  }
}

/// The unit vectors of a tree's vertices, each as a scan decodes it (``ShoreIndex/scan(leaf:query:best:)``):
/// read from memory, a piece's vertices cost a search far less than decoding them (two sines and cosines from
/// tables each), 24 bytes a vertex held.
///
/// Decoding a block of vertices costs what reading rather than decoding them saves some 200 scans of a
/// piece: a block is decoded by the query that reads it for the ``threshold``-th time, so that a batch of
/// points far apart (which reads each block a few times) decodes none and holds none, and a large or a local
/// one decodes the blocks it reads often, with no wait at the start (2.3 million vertices for the four
/// boundary layers took some 40 ms). A block's state counts the queries that read it, up to the one that
/// swaps it to being decoded, then says it is decoded, stored after its vectors. Every change is a swap
/// from the state read, so one thread alone decodes a block; a query that finds a block not decoded decodes
/// its piece's vertices itself, as without this.
struct DecodedVertices {
  /// Vertices a block: 512 (12 KiB of vectors).
  static let blockShift = 9
  /// Reads of a block before it is decoded, unless told otherwise.
  static let threshold: UInt8 = 128
  private static let decoding: UInt8 = 254
  private static let ready: UInt8 = 255

  private let vectors: UnsafeMutablePointer<SIMD3<Double>>
  private let states: UnsafeMutablePointer<Atomic<UInt8>>
  private let count: Int
  private let blocks: Int
  /// The read of a block that decodes it (1 to 253).
  private let threshold: UInt8

  /// Room for `count` vertices' vectors (pages of blocks never decoded stay unused) and every block not
  /// read yet; a block is decoded at its `threshold`-th read.
  init(count: Int, threshold: UInt8 = Self.threshold) {
    self.count = count
    self.threshold = min(max(threshold, 1), Self.decoding - 1)
    blocks = (count >> Self.blockShift) + 1
    vectors = .allocate(capacity: max(1, count))
    states = .allocate(capacity: blocks)
    for block in 0..<blocks { (states + block).initialize(to: Atomic(0)) }
  }

  func deallocate() {
    vectors.deallocate()
    states.deinitialize(count: blocks)
    states.deallocate()
  }

  /// The vectors, when vertices `first` through `last` (indices into `tree`'s vertices, those the vectors
  /// were made for) are decoded, counting this read of their first block and decoding it when it is the
  /// `threshold`-th; nil when they are not decoded.
  @inline(__always) func vectors(
    from first: Int, through last: Int, of tree: ShoreIndex
  ) -> UnsafePointer<SIMD3<Double>>? {
    let (low, high) = (first >> Self.blockShift, last >> Self.blockShift)
    guard isDecoded(low, tree), low == high || states[high].load(ordering: .acquiring) == Self.ready
    else { return nil }
    return UnsafePointer(vectors)
  }

  @inline(__always) private func isDecoded(_ block: Int, _ tree: ShoreIndex) -> Bool {
    let state = states[block].load(ordering: .acquiring)
    if state == Self.ready { return true }
    return state < threshold && read(block, state, tree)
  }

  /// Counts a read of `block` in state `state` (a count of reads), decoding the block at the
  /// `threshold`-th read; whether it is decoded. A lost swap leaves the count to the other thread.
  @inline(never) private func read(_ block: Int, _ state: UInt8, _ tree: ShoreIndex) -> Bool {
    let next = state + 1 < threshold ? state + 1 : Self.decoding
    guard states[block].compareExchange(expected: state, desired: next, ordering: .acquiring).exchanged,
      next == Self.decoding
    else { return false }
    let start = block << Self.blockShift
    let end = min(count, start + 1 << Self.blockShift)
    tree.vertices.withUnsafeBufferPointer { vertices in
      for index in start..<end { (vectors + index).initialize(to: tree.vectors.unitVector(vertices[index])) }
    }
    states[block].store(Self.ready, ordering: .releasing)
    return true
  }
}
