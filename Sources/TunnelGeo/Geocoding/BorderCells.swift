import CMath

/// Which cells of a 0.1° grid may lie within ``reach`` of a boundary in a ``ShoreIndex``, and which of
/// the tree's leaves (pieces of boundary) come that near each of them: a batch asks for the nearest
/// country border within the coastal tolerance at sea near every coast; most of those points have none
/// so near, and for the others the few leaves of their cell hold the answer, without a walk down the
/// tree.
///
/// Each edge is marked by a cap that holds it and its surroundings: around the middle of its arc, as
/// wide as half the arc plus ``reach`` plus a rounding margin. A point within ``reach`` of the edge is
/// within half the arc plus ``reach`` of that middle, so inside the cap, so in a cell that lists the
/// edge's leaf. A point in a cell left clear has no boundary within ``reach``, and the search would find
/// none; in a marked cell, every leaf with a point within ``reach`` is listed. With the lists, each marked
/// cell also says which of its 4 × 4 sub-cells (``CellBitmap/subcell(_:of:)``) the caps meet, by the same
/// rule on the finer grid: a point in a sub-cell left clear has no boundary within ``reach`` either, and
/// many points in a marked cell but kilometres farther than the reach (about half of those 1.6 times the
/// reach away) are turned away so, unsearched.
struct BorderCells: Sendable, Equatable {
  /// How far from a boundary cells are marked, in radians.
  let reach: Double
  let cells: CellBitmap
  /// Per word of ``cells``: how many cells the words before it mark (a marked cell's place among the
  /// marked ones, with the bits below it in its word).
  private let marksBefore: [UInt32]
  /// Per marked cell, in the order of the cells: where its leaves start in ``leaves``; one entry more
  /// ends the last.
  private let leafStart: [UInt32]
  /// The leaves of the tree that come within ``reach`` of each marked cell, cell after cell, in ascending
  /// order as runs of consecutive nodes (a group's leaves are siblings): the first node's index (high 24
  /// bits) and the run's length less one (low 8).
  private let leaves: [UInt32]
  /// Per marked cell: the feature of every leaf listed, when they are all of one feature; -1 otherwise.
  private let cellFeature: [Int32]
  /// Per marked cell: bit row × 4 + column set for each of its sub-cells that a cap meets (with the
  /// lists; empty without them).
  private let subcells: [UInt16]

  /// Added to each cap's angle, for the rounding of the vectors and angles (about 6 mm).
  static let margin = 1e-9

  /// The cells within `reach` radians of the boundaries in `borders`, with their leaves when `listed`
  /// (else the cells alone, as ``hasLeaves`` says). The tree has fewer than 2²⁴ nodes (a run's first node
  /// takes 24 bits).
  init(borders: ShoreIndex, reach: Double, listed: Bool = true) {
    guard listed else {
      var cells = CellBitmap()
      Self.forEachCell(near: borders, reach: reach) { cell, _ in cells.mark(cell: cell) }
      self.init(reach: reach, cells: cells, leafStart: [], leaves: [], cellFeature: [], subcells: [])
      return
    }
    precondition(borders.nodes.count < 1 << 24, "too many nodes for the cells' lists")
    // (cell, leaf) pairs, the cell in the high half: sorted, they are the lists. A leaf's edges meet
    // many of the same cells: each leaf's cells are made unique before they are paired.
    var pairs: [UInt64] = []
    var near: [Int] = []
    var current = -1
    func pairCurrent() {
      near.sort()
      var previous = -1
      for cell in near where cell != previous {
        pairs.append(UInt64(cell) << 32 | UInt64(current))
        previous = cell
      }
      near.removeAll(keepingCapacity: true)
    }
    Self.forEachCell(near: borders, reach: reach) { cell, leaf in
      if leaf != current {
        pairCurrent()
        current = leaf
      }
      near.append(cell)
    }
    pairCurrent()
    pairs.sort()
    var words = [UInt64](repeating: 0, count: CellBitmap.wordCount)
    var leafStart: [UInt32] = []
    var leaves: [UInt32] = []
    leaves.reserveCapacity(pairs.count)
    var previous = UInt64.max
    for pair in pairs where pair != previous {
      let cell = Int(pair >> 32)
      let leaf = UInt32(truncatingIfNeeded: pair)
      if previous == .max || Int(previous >> 32) != cell {
        words[cell >> 6] |= 1 << UInt64(cell & 63)
        leafStart.append(UInt32(leaves.count))
      } else if let last = leaves.last, last >> 8 + last & 0xFF + 1 == leaf, last & 0xFF < 0xFF {
        // The next node of the cell's last run.
        leaves[leaves.count - 1] += 1
        previous = pair
        continue
      }
      leaves.append(leaf << 8)
      previous = pair
    }
    leafStart.append(UInt32(leaves.count))
    let cellFeature = (0..<(leafStart.count - 1)).map { cell -> Int32 in
      var feature: Int32?
      for run in leaves[Int(leafStart[cell])..<Int(leafStart[cell + 1])] {
        for node in Int(run >> 8)...Int(run >> 8 + run & 0xFF) {
          let own = Int32(borders.nodes[node].feature)
          if feature.map({ $0 != own }) ?? false { return -1 }
          feature = own
        }
      }
      return feature ?? -1
    }
    let cells = CellBitmap(words: words)!
    self.init(
      reach: reach, cells: cells, leafStart: leafStart, leaves: leaves, cellFeature: cellFeature,
      subcells: Self.subcells(near: borders, reach: reach, cells: cells))
  }

  /// Per marked cell of `cells`: the sub-cells that the caps around the edges of `borders` meet (the caps
  /// of ``forEachCell(near:reach:_:)``, on the grid ``CellBitmap/subcellsPerSide`` times finer). A cap
  /// wider than a cell marks every sub-cell of the cells it meets.
  private static func subcells(near borders: ShoreIndex, reach: Double, cells: CellBitmap) -> [UInt16] {
    let before = marksBefore(cells)
    let marked = cells.words.reduce(0) { $0 + $1.nonzeroBitCount }
    var subcells = [UInt16](repeating: 0, count: marked)
    func place(_ cell: Int) -> Int? {
      let word = cells.words[cell >> 6]
      let bit = UInt64(cell & 63)
      guard word & (1 << bit) != 0 else { return nil }
      return Int(before[cell >> 6]) + (word & ((1 << bit) - 1)).nonzeroBitCount
    }
    let side = CellBitmap.subcellsPerSide
    let fine = CellBitmap.cellsPerDegree * side
    let fineColumns = 360 * fine
    let cellAngle = .pi / 180 / Double(CellBitmap.cellsPerDegree)
    forEachEdge(of: borders) { start, end, _ in
      guard SphereGeometry.angle(start, end) / 2 + reach + margin < cellAngle else {
        CellBitmap.forEachCell(edgeFrom: start, to: end, reach: reach + margin) { cell in
          if let place = place(cell) { subcells[place] = .max }
        }
        return
      }
      CellBitmap.forEachCell(edgeFrom: start, to: end, reach: reach + margin, perDegree: fine) { index in
        let (row, column) = (index / fineColumns, index % fineColumns)
        guard let place = place((row / side) * CellBitmap.columns + column / side) else { return }
        subcells[place] |= 1 << UInt16((row % side) * side + column % side)
      }
    }
    return subcells
  }

  /// Calls `body` with every cell within `reach` of each edge of the leaves of `borders` (the cells of
  /// the cap that holds the edge and its surroundings), and the leaf's node: leaf after leaf, a cell once
  /// an edge.
  private static func forEachCell(
    near borders: ShoreIndex, reach: Double, _ body: (_ cell: Int, _ leaf: Int) -> Void
  ) {
    forEachEdge(of: borders) { start, end, node in
      CellBitmap.forEachCell(edgeFrom: start, to: end, reach: reach + margin) { body($0, node) }
    }
  }

  /// Calls `body` with the unit vectors of the ends of each edge of the leaves of `borders`, and the
  /// leaf's node: leaf after leaf, in order along each.
  private static func forEachEdge(
    of borders: ShoreIndex, _ body: (_ start: SIMD3<Double>, _ end: SIMD3<Double>, _ leaf: Int) -> Void
  ) {
    borders.vertices.withUnsafeBufferPointer { vertices in
      for node in borders.nodes.indices where borders.nodes[node].isLeaf {
        let leaf = borders.nodes[node]
        var start = borders.vectors.unitVector(vertices[leaf.firstEdge])
        for vertex in (leaf.firstEdge + 1)...(leaf.firstEdge + leaf.edgeCount) {
          let end = borders.vectors.unitVector(vertices[vertex])
          body(start, end, node)
          start = end
        }
      }
    }
  }

  private init(
    reach: Double, cells: CellBitmap, leafStart: [UInt32], leaves: [UInt32], cellFeature: [Int32],
    subcells: [UInt16]
  ) {
    self.reach = reach
    self.cells = cells
    marksBefore = Self.marksBefore(cells)
    self.leafStart = leafStart
    self.leaves = leaves
    self.cellFeature = cellFeature
    self.subcells = subcells
  }

  /// Per word of `cells`: how many cells the words before it mark (``marksBefore``).
  private static func marksBefore(_ cells: CellBitmap) -> [UInt32] {
    var marked: UInt32 = 0
    return cells.words.map { word in
      defer { marked += UInt32(word.nonzeroBitCount) }
      return marked
    }
  }

  /// A coordinate's cell's place among the marked cells: nil where no boundary lies within ``reach`` of
  /// it (its cell, or its sub-cell, is clear), -1 where its cell is marked and the cells have no lists.
  @inline(__always) private func place(of coordinate: Coordinate) -> Int? {
    let cell = CellBitmap.index(coordinate)
    let word = cells.words[cell >> 6]
    let bit = UInt64(cell & 63)
    guard word & (1 << bit) != 0 else { return nil }
    guard hasLeaves else { return -1 }
    let marked = Int(marksBefore[cell >> 6]) + (word & ((1 << bit) - 1)).nonzeroBitCount
    if let subcell = CellBitmap.subcell(coordinate, of: cell), subcells[marked] & (1 << UInt16(subcell)) == 0
    {
      return nil
    }
    return marked
  }

  /// Whether the marked cells list their leaves (``nearest(in:to:_:within:accept:)``,
  /// ``boundaries(near:allOf:)``): they do when read from a cache folder, where the lists are built once.
  var hasLeaves: Bool { !leafStart.isEmpty }

  /// Whether a boundary may lie within ``reach`` of a coordinate; false means there is none.
  @inline(__always) func mayHaveBoundary(near coordinate: Coordinate) -> Bool { place(of: coordinate) != nil }

  /// Asks the processor for what a coordinate's cell is looked up in, ahead of its lookups: at
  /// `listed` false the cell's word and its count of marks before, at `listed` true (once those have
  /// come) its feature and where its leaves start.
  @inline(__always) func prefetch(_ coordinate: Coordinate, listed: Bool) {
    let cell = CellBitmap.index(coordinate)
    guard listed else {
      cells.prefetch(coordinate)
      marksBefore.withUnsafeBufferPointer { tunnel_prefetch($0.baseAddress! + (cell >> 6)) }
      return
    }
    let word = cells.words[cell >> 6]
    let bit = UInt64(cell & 63)
    guard hasLeaves, word & (1 << bit) != 0 else { return }
    let marked = Int(marksBefore[cell >> 6]) + (word & ((1 << bit) - 1)).nonzeroBitCount
    subcells.withUnsafeBufferPointer { tunnel_prefetch($0.baseAddress! + marked) }
    cellFeature.withUnsafeBufferPointer { tunnel_prefetch($0.baseAddress! + marked) }
    leafStart.withUnsafeBufferPointer { tunnel_prefetch($0.baseAddress! + marked) }
  }

  /// Asks the processor for the word of ``cells`` that marks a coordinate's cell, ahead of its lookup.
  @inline(__always) func prefetchCell(_ coordinate: Coordinate) { cells.prefetch(coordinate) }

  /// Whether a boundary may lie within ``reach`` of some point of a box in degrees.
  func mayHaveBoundary(south: Double, north: Double, west: Double, east: Double) -> Bool {
    cells.anyMarked(south: south, north: north, west: west, east: east)
  }

  /// The nearest boundary point within `limit` radians (no more than ``reach``) of a coordinate whose unit
  /// vector is `vector`, of the features `accept` admits: ``ShoreIndex/nearest(to:within:accept:)``, from
  /// the leaves of the coordinate's cell. Only where the cells have their leaves (``hasLeaves``).
  @inline(__always) func nearest(
    in borders: ShoreIndex, to coordinate: Coordinate, _ vector: SIMD3<Double>, within limit: Double,
    accept: (Int) -> Bool
  ) -> BoundaryHit? {
    precondition(hasLeaves, "the cells were built without their leaves")
    guard let marked = place(of: coordinate) else { return nil }
    return withRuns(ofMarked: marked) {
      borders.nearest(to: vector, within: limit, amongRuns: $0, accept: accept)
    }
  }

  /// The feature of ``nearest(in:to:_:within:accept:)``. Where every leaf listed for the coordinate's cell
  /// is of one feature, that feature if `accept` admits it and any of their points lies within `limit`
  /// (``ShoreIndex/hasPoint(within:of:amongRuns:)``, which stops at the first).
  @inline(__always) func nearestFeature(
    in borders: ShoreIndex, to coordinate: Coordinate, _ vector: SIMD3<Double>, within limit: Double,
    accept: (Int) -> Bool
  ) -> Int? {
    precondition(hasLeaves, "the cells were built without their leaves")
    guard let marked = place(of: coordinate) else { return nil }
    let feature = Int(cellFeature[marked])
    return withRuns(ofMarked: marked) { runs in
      guard feature >= 0 else {
        return borders.nearest(to: vector, within: limit, amongRuns: runs, accept: accept)?.feature
      }
      return accept(feature) && borders.hasPoint(within: limit, of: vector, amongRuns: runs) ? feature : nil
    }
  }

  /// Calls `body` with the runs of leaves listed for the marked cell `marked`.
  @inline(__always) private func withRuns<Result>(
    ofMarked marked: Int, _ body: (UnsafeBufferPointer<UInt32>) -> Result
  ) -> Result {
    leaves.withUnsafeBufferPointer { leaves in
      body(UnsafeBufferPointer(rebasing: leaves[Int(leafStart[marked])..<Int(leafStart[marked + 1])]))
    }
  }

  /// Whether every boundary within ``reach`` of a coordinate is of `feature` (true too where there is
  /// none); false where another may be, or it is not known (the cells without their leaves).
  @inline(__always) func boundaries(near coordinate: Coordinate, allOf feature: Int) -> Bool {
    guard let marked = place(of: coordinate) else { return true }
    return marked >= 0 && Int(cellFeature[marked]) == feature
  }

  /// How many cells list their leaves (none without ``hasLeaves``), how many leaves the lists hold and in
  /// how many runs.
  var size: (cells: Int, leaves: Int, runs: Int) {
    (max(0, leafStart.count - 1), leaves.reduce(0) { $0 + Int($1 & 0xFF) + 1 }, leaves.count)
  }

  /// ``init(borders:reach:listed:)``, read from `cache` when saved there before (keyed by the borders' checksum
  /// and the reach), else computed and saved there (``IndexCacheFile``). A file whose lists do not match
  /// its cells or reach past the nodes of `borders`, or whose cells' features are not the layer's, is
  /// built again (a listed node that is not a leaf is passed over by the search).
  static func cached(borders: ShoreIndex, reach: Double, kind: String, cache: IndexCache?) -> BorderCells {
    // Without a cache folder, the cells alone: building the lists for every batch cost more than they
    // save a small one.
    guard let cache else { return BorderCells(borders: borders, reach: reach, listed: false) }
    let version: UInt32 = 5
    let name = IndexCacheFile.name(layer: borders.layer, kind: kind, version: version)
    let keys =
      [version, borders.checksum, Float(reach).bitPattern] + IndexCacheFile.keys(CellBitmap.wordCount)
    if var file = IndexCacheFile.Reader(name, in: cache, magic: fileMagic, keys: keys, arrays: 5),
      let words = file.read(UInt64.self), let subcells = file.read(UInt16.self),
      let leafStart = file.read(UInt32.self), let leaves = file.read(UInt32.self),
      let cellFeature = file.read(Int32.self), file.finish(),
      let cells = CellBitmap(words: words), cellFeature.count == leafStart.count - 1,
      subcells.count == cellFeature.count,
      cellFeature.allSatisfy({ $0 >= -1 && $0 < Int32(borders.layer.featureCount) }),
      leafStart.count == words.reduce(0, { $0 + $1.nonzeroBitCount }) + 1, leafStart.first == 0,
      leafStart.last.map({ Int($0) == leaves.count }) == true,
      zip(leafStart, leafStart.dropFirst()).allSatisfy({ $0 < $1 }),
      leaves.allSatisfy({ Int($0 >> 8 + $0 & 0xFF) < borders.nodes.count })
    {
      return BorderCells(
        reach: reach, cells: cells, leafStart: leafStart, leaves: leaves, cellFeature: cellFeature,
        subcells: subcells)
    }
    let built = BorderCells(borders: borders, reach: reach)
    IndexCacheFile.save(
      name, in: cache, magic: fileMagic, keys: keys,
      arrays: [
        CacheArray(built.cells.words), CacheArray(built.subcells), CacheArray(built.leafStart),
        CacheArray(built.leaves), CacheArray(built.cellFeature),
      ])
    return built
  }

  static let fileMagic = "TUNLBCEL"
}
