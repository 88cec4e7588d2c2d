import CMath
import TunnelSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A latitude/longitude quadtree over one polygon layer: the same point-in-polygon answers as
/// ``PolygonLayer/features(containing:)-(FixedPoint)``, and the boundary edges near a point, in time that
/// does not grow with the layer.
///
/// The grid decodes every ring once into flat arrays. The world is cut into 1° cells, and a cell whose
/// list of edges is longer than ``leafCapacity`` is split into four, recursively. Every leaf keeps the
/// set of features containing its south-west corner (its reference point); a query starts from that set
/// and toggles a feature for every edge of its rings that the segment from the corner to the query
/// crosses. That segment lies inside the cell, so the cell's edges are the only ones it can cross. A
/// leaf lists its edges as runs of consecutive edges of one ring: a few per leaf, where a list of edge
/// indices would take four bytes per edge.
///
/// Exactness: the scan's ray test counts an edge as if the query sat an infinitesimal step east and a
/// far smaller step north of itself (a vertex level with the query counts as below it, a crossing exactly
/// at the query as west of it). The grid moves its reference corners and queries by the same step and
/// breaks every tie of its crossing test the way that step does (simulation of simplicity), in integer
/// arithmetic, so both agree on every input, points on edges and vertices included.
final class PolygonGrid: @unchecked Sendable {
  // @unchecked: every array is written during init only and read afterwards. For the same reason their
  // accesses are not checked for exclusivity at run time: a lookup reads them a few times, on every core.

  /// Cells are split while they list more edges than this.
  static let leafCapacity = 24
  /// Cells stop splitting at this depth below the 1° cells (about 3 m for 10⁴ units per degree).
  static let maximumDepth = 12

  let layer: PolygonLayer
  /// The decoded vertices of every ring, ring after ring, each ring closed.
  @exclusivity(unchecked) private(set) var vertices: [FixedPoint] = []
  /// Per ring: the index of its first vertex; one more entry holds the vertex count.
  @exclusivity(unchecked) private(set) var ringStart: [Int32] = []
  /// Per ring: its feature.
  @exclusivity(unchecked) private(set) var ringFeature: [Int32] = []
  let cellUnits: Int64
  let originLatitude: Int64
  let originLongitude: Int64
  static let rows = 180
  static let columns = 360
  /// The cells: a query reads one node per level, in one place.
  @exclusivity(unchecked) private(set) var nodes: [Node] = []
  /// The reference features of the leaves, leaf after leaf.
  @exclusivity(unchecked) private(set) var states: [Int32] = []
  /// The edges of the leaves, as runs of consecutive edges of one ring (a shoreline crosses a cell in a
  /// few runs of many edges). Runs never span two rings: a ring's closing vertex starts no edge.
  @exclusivity(unchecked) private(set) var runs: [Run] = []
  /// Per 1° cell (``topCell(_:)``) that no edge crosses and that lies in one feature at most: that
  /// feature, or ``outside``; ``crossed`` for the others. Most of the world's cells are such cells for most
  /// layers (the open sea, the inland), and a query there reads this small table instead of the cell's
  /// node and states, two cache misses when points come in no order.
  @exclusivity(unchecked) private(set) var uniformCells: [Int32] = []
  static let outside: Int32 = -1
  static let crossed: Int32 = -2
  /// Per 1° cell: where its nodes below the root and its runs lie (``CellSpan``), so that a single lookup
  /// asks for them all at once instead of reading one level after another.
  @exclusivity(unchecked) private(set) var cellSpans: [CellSpan] = []

  /// Where the nodes below a 1° cell's root and the cell's runs lie, in 4 bytes: the build makes a cell's
  /// nodes and runs depth first, cell after cell, so each is one stretch of its array. A stretch is given
  /// in cache lines, one more than its bytes fill (an array's start need not be a line's), at most
  /// ``mostNodeLines`` and ``mostRunLines``; a cell whose first run lies beyond ``runLimit`` gives no
  /// runs. (A line past an array's end is harmless to ask for: a prefetch never faults, and nothing is
  /// read through a span.)
  struct CellSpan {
    private var bits: UInt32

    static let mostNodeLines = 63
    static let mostRunLines = 31
    static let runLimit = 1 << 21

    init(firstRun: Int, runBytes: Int, nodeBytes: Int) {
      func lines(_ bytes: Int, _ most: Int) -> UInt32 {
        bytes > 0 ? UInt32(min(most, (bytes + 63) / 64 + 1)) : 0
      }
      let runs =
        firstRun < Self.runLimit ? UInt32(firstRun) << 11 | lines(runBytes, Self.mostRunLines) << 6 : 0
      bits = runs | lines(nodeBytes, Self.mostNodeLines)
    }

    /// The cell's first run.
    var firstRun: Int { Int(bits >> 11) }
    /// The cache lines its runs take.
    var runLines: Int { Int(bits >> 6 & 0x1F) }
    /// The cache lines its nodes below the root take (none for a cell that is a leaf).
    var nodeLines: Int { Int(bits & 0x3F) }
  }

  /// A cell of the grid, in 12 bytes (three `UInt32`s, as ``PolygonGridFile`` stores them).
  struct Node: Equatable {
    /// The index of its first child (inner node) or of its first run of edges (leaf).
    var link: UInt32 = 0
    /// The offset of its reference features in ``PolygonGrid/states`` (leaf), or, where it has one
    /// reference feature (most leaves), that feature: a query then reads no states.
    var stateStart: UInt32 = 0
    /// How many runs of edges it lists (low 24 bits) and how many reference features (high 8), or
    /// ``innerNode``.
    private var counts: UInt32 = 0
    static let innerNode = UInt32.max

    init() {}

    init(link: UInt32, stateStart: UInt32, counts: UInt32) {
      (self.link, self.stateStart, self.counts) = (link, stateStart, counts)
    }

    var isInner: Bool { counts == Self.innerNode }
    var runCount: Int { Int(counts & 0xFF_FFFF) }
    var stateCount: Int { Int(counts >> 24) }
    /// The leaf's one reference feature, kept in the node (``stateStart``), or nil where it has none or
    /// several (in ``PolygonGrid/states``).
    var onlyState: Int32? { counts >> 24 == 1 ? Int32(bitPattern: stateStart) : nil }

    /// Makes the node an inner node whose children start at `firstChild`.
    mutating func split(firstChild: Int) {
      (link, counts) = (UInt32(firstChild), Self.innerNode)
    }

    /// Makes the node a leaf whose reference features are `states`, kept in the node when there is one,
    /// else appended to `all` (``PolygonGrid/states``).
    mutating func makeLeaf(firstRun: Int, runCount: Int, states: ArraySlice<Int32>, into all: inout [Int32]) {
      // Below the inner-node marker's all-ones.
      precondition(runCount < 0xFF_FFFF && states.count <= 0xFF, "leaf too large")
      link = UInt32(firstRun)
      if states.count == 1, let only = states.first {
        stateStart = UInt32(bitPattern: only)
      } else {
        stateStart = UInt32(all.count)
        all.append(contentsOf: states)
      }
      counts = UInt32(runCount) | UInt32(states.count) << 24
    }
  }

  /// A run of edges: its first edge (the index of its first vertex, high 24 bits) and its length (low 8),
  /// in 4 bytes.
  struct Run: Equatable {
    private var startAndLength: UInt32

    /// Layers of more vertices than this cannot be gridded.
    static let vertexLimit = 1 << 24

    init(start: UInt32) {
      startAndLength = start << 8 | 1
    }

    init(raw: UInt32) { startAndLength = raw }

    var raw: UInt32 { startAndLength }

    var start: Int { Int(startAndLength >> 8) }
    var length: Int { Int(startAndLength & 0xFF) }
    /// Whether the run can take the next edge.
    var canGrow: Bool { startAndLength & 0xFF < 0xFF }
    mutating func grow() { startAndLength += 1 }
  }

  /// Builds the grid, from the layer's rings decoded before if given (``decodeRings(of:)``).
  init(layer: PolygonLayer, rings: Rings? = nil) {
    self.layer = layer
    let units = Int64(layer.unitsPerDegree)
    cellUnits = units
    originLatitude = -90 * units
    originLongitude = -180 * units
    take(rings ?? Self.decodeRings(of: layer))
    buildCells()
    compact()
    uniformCells = findUniformCells()
    cellSpans = findCellSpans()
  }

  /// The grid of `layer` from cells saved before (``PolygonGridFile``), or nil unless every node, run and
  /// state is one the layer's grid could have: children after their parent and inside the grid, runs of
  /// edges inside one ring, states that are features. Only the cells are read: the vertices are decoded
  /// from the layer, as a build does (or were, `rings`).
  init?(layer: PolygonLayer, rings: Rings? = nil, nodes: [Node], states: [Int32], runs: [Run]) {
    self.layer = layer
    let units = Int64(layer.unitsPerDegree)
    cellUnits = units
    originLatitude = -90 * units
    originLongitude = -180 * units
    guard layer.vertexCount < Run.vertexLimit, nodes.count >= Self.rows * Self.columns, nodes.count < 1 << 28
    else { return nil }
    take(rings ?? Self.decodeRings(of: layer))
    let featureCount = Int32(layer.featureCount)
    guard states.allSatisfy({ $0 >= 0 && $0 < featureCount }) else { return nil }
    // Every edge of a run starts before its ring's closing vertex: no vertex an edge of the run starts at
    // closes a ring.
    let closing = Self.closingVertices(ringStart: ringStart, vertexCount: vertices.count)
    for run in runs {
      guard run.length > 0, run.start + run.length < vertices.count,
        !Self.anySet(closing, in: run.start..<(run.start + run.length))
      else { return nil }
    }
    for (index, node) in nodes.enumerated() {
      if node.isInner {
        guard Int(node.link) > index, Int(node.link) + 4 <= nodes.count else { return nil }
      } else {
        guard Int(node.link) + node.runCount <= runs.count,
          node.onlyState.map({ $0 >= 0 && $0 < featureCount })
            ?? (Int(node.stateStart) + node.stateCount <= states.count)
        else { return nil }
      }
    }
    self.nodes = nodes
    self.states = states
    self.runs = runs
    uniformCells = findUniformCells()
    cellSpans = findCellSpans()
  }

  /// ``uniformCells``, from the cells' nodes.
  private func findUniformCells() -> [Int32] {
    (0..<(Self.rows * Self.columns)).map { cell in
      let node = nodes[cell]
      guard !node.isInner, node.runCount == 0, node.stateCount <= 1 else { return Self.crossed }
      return node.onlyState ?? Self.outside
    }
  }

  /// ``cellSpans``, from the cells' nodes: the cells taken from the last, each cell's stretches ending
  /// where the next cell's begin. (In cells read from a file whose order is another, a span is only a
  /// poorer guess: what is asked for is never read unchecked.)
  private func findCellSpans() -> [CellSpan] {
    let cells = Self.rows * Self.columns
    var spans = [CellSpan](repeating: CellSpan(firstRun: 0, runBytes: 0, nodeBytes: 0), count: cells)
    var (nodeEnd, runEnd) = (nodes.count, runs.count)
    for cell in stride(from: cells - 1, through: 0, by: -1) {
      // The first run is its first leaf's, down the first children (every link leads to a later node).
      var first = cell
      while nodes[first].isInner { first = Int(nodes[first].link) }
      let firstRun = Int(nodes[first].link)
      var nodeBytes = 0
      if nodes[cell].isInner {
        let link = Int(nodes[cell].link)
        nodeBytes = max(0, nodeEnd - link) * MemoryLayout<Node>.stride
        nodeEnd = min(nodeEnd, link)
      }
      spans[cell] = CellSpan(
        firstRun: firstRun, runBytes: max(0, runEnd - firstRun) * MemoryLayout<Run>.stride,
        nodeBytes: nodeBytes)
      runEnd = min(runEnd, firstRun)
    }
    return spans
  }

  /// One bit per vertex, set at the last vertex of each ring (the one that closes it).
  private static func closingVertices(ringStart: [Int32], vertexCount: Int) -> [UInt64] {
    var bits = [UInt64](repeating: 0, count: (vertexCount + 63) / 64)
    for next in ringStart.dropFirst() where next > 0 && Int(next) <= vertexCount {
      let vertex = Int(next) - 1
      bits[vertex >> 6] |= 1 << UInt64(vertex & 63)
    }
    return bits
  }

  /// Whether any bit of `range` is set in `bits` (which cover it).
  private static func anySet(_ bits: [UInt64], in range: Range<Int>) -> Bool {
    var word = range.lowerBound >> 6
    let lastWord = (range.upperBound - 1) >> 6
    while word <= lastWord {
      var mask = UInt64.max
      if word == range.lowerBound >> 6 { mask &= UInt64.max << UInt64(range.lowerBound & 63) }
      if word == lastWord { mask &= UInt64.max >> UInt64(63 - ((range.upperBound - 1) & 63)) }
      if bits[word] & mask != 0 { return true }
      word += 1
    }
    return false
  }

  /// The cells, as ``PolygonGridFile`` saves them.
  var cells: (nodes: [Node], states: [Int32], runs: [Run]) { (nodes, states, runs) }

  // MARK: Building

  /// A layer's rings, decoded: every vertex, ring after ring, each ring closed; per ring, the index of its
  /// first vertex (one more entry holds the vertex count) and its feature.
  struct Rings: Sendable {
    var vertices: [FixedPoint]
    var ringStart: [Int32]
    var ringFeature: [Int32]
  }

  /// Vertex `index` of ``vertices``.
  @inline(__always) func vertex(_ index: Int) -> FixedPoint { vertices[index] }

  /// Takes decoded rings as the grid's own.
  private func take(_ rings: Rings) {
    vertices = rings.vertices
    ringStart = rings.ringStart
    ringFeature = rings.ringFeature
  }

  /// Decodes every ring of a layer: where the ring table's vertex counts add up to the layer's, straight
  /// into one array, slices of the rings on every core; a ring that decodes to another count than its
  /// record's, or a table that does not add up, has the layer decoded again ring after ring, appending.
  static func decodeRings(of layer: PolygonLayer) -> Rings {
    precondition(layer.vertexCount < Run.vertexLimit, "\(layer.path): too many vertices for a grid")
    return decodeRings(of: layer, selecting: nil)
  }

  /// Decodes the rings of the features of a layer that `accept` admits, one after another (what a tree
  /// over a few of a layer's features needs of it, ``ShoreIndex/cached(layer:kind:cache:accept:)``), as
  /// ``decodeRings(of:)`` decodes them all.
  static func decodeRings(of layer: PolygonLayer, accepting accept: (Int) -> Bool) -> Rings {
    withoutActuallyEscaping(accept) { decodeRings(of: layer, selecting: $0) }
  }

  /// The rings of `layer` whose features `accept` admits (every ring without it): their records read
  /// first, then their vertices decoded in slices on every core, each ring into its place.
  private static func decodeRings(of layer: PolygonLayer, selecting accept: ((Int) -> Bool)?) -> Rings {
    let ringCount = layer.ringCount
    var selected: [Int32] = []
    var ringStart: [Int32] = []
    var ringFeature: [Int32] = []
    ringStart.reserveCapacity(accept == nil ? ringCount + 1 : 0)
    ringFeature.reserveCapacity(accept == nil ? ringCount : 0)
    var total = 0
    for ring in 0..<ringCount {
      let record = layer.ring(ring)
      if let accept, !accept(record.feature) { continue }
      selected.append(Int32(truncatingIfNeeded: ring))
      ringStart.append(Int32(truncatingIfNeeded: total))
      ringFeature.append(Int32(truncatingIfNeeded: record.feature))
      total += record.vertexCount
      // The records cannot hold more vertices than the layer: a table that says so is not trusted.
      if total > layer.vertexCount { return appendingRings(of: layer, accepting: accept) }
    }
    ringStart.append(Int32(truncatingIfNeeded: total))
    if accept == nil, total != layer.vertexCount { return appendingRings(of: layer, accepting: accept) }
    let (starts, rings, vertexCount) = (ringStart, selected, total)
    // The first of the selected rings starting at or after a vertex.
    @Sendable func firstRing(from vertex: Int) -> Int {
      var (low, high) = (0, rings.count)
      while low < high {
        let middle = (low + high) / 2
        if Int(starts[middle]) < vertex { low = middle + 1 } else { high = middle }
      }
      return low
    }
    let slices = max(1, min(16, total / 65_536))
    let intact = Locked(true)
    var whole = true
    let vertices = [FixedPoint](unsafeUninitializedCapacity: total) { buffer, count in
      let output = SendableBuffer(buffer)
      Parallel.perform(iterations: slices) { slice in
        let (lowest, beyond) = (
          firstRing(from: vertexCount * slice / slices), firstRing(from: vertexCount * (slice + 1) / slices)
        )
        for index in lowest..<beyond {
          var position = Int(starts[index])
          let end = Int(starts[index + 1])
          layer.forEachVertex(ofRing: Int(rings[index])) { point in
            if position < end { output.buffer.initializeElement(at: position, to: point) }
            position += 1
          }
          if position != end {
            intact.withLock { $0 = false }
            return
          }
        }
      }
      whole = intact.withLock { $0 }
      // A slice that stopped short left vertices unwritten: then nothing is kept.
      count = whole ? total : 0
    }
    guard whole else { return appendingRings(of: layer, accepting: accept) }
    return Rings(vertices: vertices, ringStart: ringStart, ringFeature: ringFeature)
  }

  /// Decodes the rings `accept` admits (every ring without it) one after another, appending: what a
  /// layer whose rings do not hold what its ring table says decodes to.
  private static func appendingRings(of layer: PolygonLayer, accepting accept: ((Int) -> Bool)?) -> Rings {
    var rings = Rings(vertices: [], ringStart: [], ringFeature: [])
    for ring in 0..<layer.ringCount {
      let feature = layer.ring(ring).feature
      if let accept, !accept(feature) { continue }
      rings.ringStart.append(Int32(truncatingIfNeeded: rings.vertices.count))
      rings.ringFeature.append(Int32(truncatingIfNeeded: feature))
      layer.forEachVertex(ofRing: ring) { rings.vertices.append($0) }
    }
    rings.ringStart.append(Int32(truncatingIfNeeded: rings.vertices.count))
    return rings
  }

  /// Drops the room the arrays grew beyond their contents while they were built.
  private func compact() {
    ringFeature = ringFeature.compacted()
    nodes = nodes.compacted()
    states = states.compacted()
    runs = runs.compacted()
  }

  /// The ring holding the edge that starts at vertex `edge` (a binary search over ``ringStart``).
  @inline(__always) func ring(ofEdge edge: Int) -> Int {
    var low = 0
    var high = ringStart.count - 2
    while low < high {
      let middle = (low + high + 1) >> 1
      if Int(ringStart[middle]) <= edge { low = middle } else { high = middle - 1 }
    }
    return low
  }

  /// The feature of the edge that starts at vertex `edge`.
  @inline(__always) func feature(ofEdge edge: Int) -> Int32 { ringFeature[ring(ofEdge: edge)] }

  /// A box in layer units, bounds included.
  struct Box {
    var minLatitude: Int64
    var minLongitude: Int64
    var maxLatitude: Int64
    var maxLongitude: Int64

    /// Narrows the box to the quarter holding `point` (a point on a middle line goes south or west), and
    /// returns that quarter's number (``quarter(_:)``).
    @inline(__always) mutating func narrow(to point: FixedPoint) -> Int {
      let middleLatitude = (minLatitude + maxLatitude) >> 1
      let middleLongitude = (minLongitude + maxLongitude) >> 1
      var quadrant = 0
      if Int64(point.latitude) > middleLatitude {
        quadrant |= 2
        minLatitude = middleLatitude
      } else {
        maxLatitude = middleLatitude
      }
      if Int64(point.longitude) > middleLongitude {
        quadrant |= 1
        minLongitude = middleLongitude
      } else {
        maxLongitude = middleLongitude
      }
      return quadrant
    }

    /// Quarter `quadrant` of the box: bit 1 picks the northern half, bit 0 the eastern half.
    func quarter(_ quadrant: Int) -> Box {
      let middleLatitude = (minLatitude + maxLatitude) >> 1
      let middleLongitude = (minLongitude + maxLongitude) >> 1
      return Box(
        minLatitude: quadrant & 2 == 0 ? minLatitude : middleLatitude,
        minLongitude: quadrant & 1 == 0 ? minLongitude : middleLongitude,
        maxLatitude: quadrant & 2 == 0 ? middleLatitude : maxLatitude,
        maxLongitude: quadrant & 1 == 0 ? middleLongitude : maxLongitude)
    }
  }

  /// Whether edge `edge` has a vertex box meeting `box` (both closed).
  @inline(__always) private func edgeMeets(_ edge: Int, _ box: Box) -> Bool {
    let (a, b) = (vertices[edge], vertices[edge + 1])
    let ay = Int64(a.latitude)
    let by = Int64(b.latitude)
    guard max(ay, by) >= box.minLatitude, min(ay, by) <= box.maxLatitude else { return false }
    let ax = Int64(a.longitude)
    let bx = Int64(b.longitude)
    return max(ax, bx) >= box.minLongitude && min(ax, bx) <= box.maxLongitude
  }

  private func rootBox(row: Int, column: Int) -> Box {
    Box(
      minLatitude: originLatitude + Int64(row) * cellUnits,
      minLongitude: originLongitude + Int64(column) * cellUnits,
      maxLatitude: originLatitude + Int64(row + 1) * cellUnits,
      maxLongitude: originLongitude + Int64(column + 1) * cellUnits)
  }

  private func buildCells() {
    let rows = Self.rows
    let columns = Self.columns
    // Root lists by counting sort: edges arrive in ascending order, so every list is sorted.
    var counts = [Int](repeating: 0, count: rows * columns + 1)
    var roots: [Int] = []
    var isEdge = [Bool](repeating: true, count: vertices.count)
    for ring in 1..<ringStart.count where ringStart[ring] > 0 { isEdge[Int(ringStart[ring]) - 1] = false }
    let edgeTotal = max(0, vertices.count - 1)
    for edge in 0..<edgeTotal where isEdge[edge] {
      self.roots(ofEdge: edge, into: &roots)
      for root in roots { counts[root + 1] += 1 }
    }
    for index in 0..<(rows * columns) { counts[index + 1] += counts[index] }
    var rootEdges = [UInt32](repeating: 0, count: counts[rows * columns])
    var fill = counts
    for edge in 0..<edgeTotal where isEdge[edge] {
      self.roots(ofEdge: edge, into: &roots)
      for root in roots {
        rootEdges[fill[root]] = UInt32(edge)
        fill[root] += 1
      }
    }

    // Reference states of the roots: one full ray test at the south-west corner of the world, then
    // north along the first column and east along every row.
    let rootCount = rows * columns
    nodes = [Node](repeating: Node(), count: rootCount)
    var rowState = layer.features(
      containing: FixedPoint(latitude: Int32(originLatitude), longitude: Int32(originLongitude))
    ).map { Int32($0) }
    for row in 0..<rows {
      var state = rowState
      for column in 0..<columns {
        let root = row * columns + column
        let box = rootBox(row: row, column: column)
        let cellEdges = Array(rootEdges[counts[root]..<counts[root + 1]])
        build(node: root, box: box, edges: cellEdges, state: state, depth: 0)
        if column == 0 && row + 1 < rows {
          rowState = toggled(
            state, by: cellEdges, from: (box.minLatitude, box.minLongitude),
            to: (box.maxLatitude, box.minLongitude))
        }
        if column + 1 < columns {
          state = toggled(
            state, by: cellEdges, from: (box.minLatitude, box.minLongitude),
            to: (box.minLatitude, box.maxLongitude))
        }
      }
    }
  }

  /// The 1° cells whose boxes meet an edge's box.
  private func roots(ofEdge edge: Int, into roots: inout [Int]) {
    roots.removeAll(keepingCapacity: true)
    let (a, b) = (vertices[edge], vertices[edge + 1])
    let ay = Int64(a.latitude)
    let by = Int64(b.latitude)
    let ax = Int64(a.longitude)
    let bx = Int64(b.longitude)
    let firstRow = max(0, Int(floorDivide(min(ay, by) - originLatitude + cellUnits - 1, cellUnits)) - 1)
    let lastRow = min(Self.rows - 1, Int(floorDivide(max(ay, by) - originLatitude, cellUnits)))
    let firstColumn = max(0, Int(floorDivide(min(ax, bx) - originLongitude + cellUnits - 1, cellUnits)) - 1)
    let lastColumn = min(Self.columns - 1, Int(floorDivide(max(ax, bx) - originLongitude, cellUnits)))
    guard firstRow <= lastRow, firstColumn <= lastColumn else { return }
    for row in firstRow...lastRow {
      for column in firstColumn...lastColumn { roots.append(row * Self.columns + column) }
    }
  }

  private func build(node: Int, box: Box, edges list: [UInt32], state: [Int32], depth: Int) {
    let splittable = box.maxLatitude - box.minLatitude >= 2 && box.maxLongitude - box.minLongitude >= 2
    if list.count <= Self.leafCapacity || depth >= Self.maximumDepth || !splittable {
      let firstRun = runs.count
      // The list is ascending: a run ends where the list skips an edge, or at the longest length.
      for edge in list {
        let last = runs.count - 1
        if last >= firstRun && runs[last].canGrow && runs[last].start + runs[last].length == Int(edge) {
          runs[last].grow()
        } else {
          runs.append(Run(start: edge))
        }
      }
      nodes[node].makeLeaf(
        firstRun: firstRun, runCount: runs.count - firstRun, states: state.prefix(Int(UInt8.max)),
        into: &states)
      return
    }
    let children = nodes.count
    nodes[node].split(firstChild: children)
    nodes.append(contentsOf: repeatElement(Node(), count: 4))
    for quadrant in 0..<4 {
      let child = box.quarter(quadrant)
      let sublist = list.filter { edgeMeets(Int($0), child) }
      let childState = toggled(
        state, by: list, from: (box.minLatitude, box.minLongitude),
        to: (child.minLatitude, child.minLongitude))
      build(node: children + quadrant, box: child, edges: sublist, state: childState, depth: depth + 1)
    }
  }

  /// `state` with the feature of every edge crossed by the segment `from` → `to` toggled, kept sorted.
  private func toggled(
    _ state: [Int32], by list: [UInt32], from: (Int64, Int64), to: (Int64, Int64)
  ) -> [Int32] {
    var result = state
    for edge in list where crosses(Int(edge), from, to) {
      let feature = self.feature(ofEdge: Int(edge))
      if let position = result.firstIndex(of: feature) {
        result.remove(at: position)
      } else {
        result.append(feature)
      }
    }
    result.sort()
    return result
  }

  // MARK: Queries

  /// Whether the segment from `r` to `q` (latitude, longitude), both moved by the scan's infinitesimal
  /// step, crosses edge `edge`.
  @inline(__always) func crosses(_ edge: Int, _ r: (Int64, Int64), _ q: (Int64, Int64)) -> Bool {
    let (a, b) = (vertices[edge], vertices[edge + 1])
    let ay = Int64(a.latitude)
    let by = Int64(b.latitude)
    if max(ay, by) < min(r.0, q.0) || min(ay, by) > max(r.0, q.0) { return false }
    let ax = Int64(a.longitude)
    let bx = Int64(b.longitude)
    if max(ax, bx) < min(r.1, q.1) || min(ax, bx) > max(r.1, q.1) { return false }
    if ax == bx && ay == by { return false }
    if r == q { return false }
    // x = longitude, y = latitude; the step is (ε₁, ε₂) with 0 < ε₂ ≪ ε₁ ≪ 1.
    let dx = q.1 - r.1
    let dy = q.0 - r.0
    // Side of A and B from the moved segment: cross((q − r), (P − r − ε)).
    @inline(__always) func side(_ px: Int64, _ py: Int64) -> Int64 {
      let value = dx * (py - r.0) - dy * (px - r.1)
      if value != 0 { return value }
      // −cross(q − r, ε) = dy·ε₁ − dx·ε₂.
      return dy != 0 ? dy : -dx
    }
    let sideA = side(ax, ay)
    let sideB = side(bx, by)
    guard (sideA > 0) != (sideB > 0) else { return false }
    // Side of the moved r and q from the edge: cross(B − A, P + ε − A).
    let ex = bx - ax
    let ey = by - ay
    @inline(__always) func edgeSide(_ px: Int64, _ py: Int64) -> Int64 {
      let value = ex * (py - ay) - ey * (px - ax)
      if value != 0 { return value }
      // cross(B − A, ε) = ex·ε₂ − ey·ε₁.
      return ey != 0 ? -ey : ex
    }
    return (edgeSide(r.1, r.0) > 0) != (edgeSide(q.1, q.0) > 0)
  }

  /// The 1° cell holding a point: its row (from the south) × ``columns`` + its column (from the west), the
  /// index of its node.
  @inline(__always) func topCell(_ point: FixedPoint) -> Int {
    let y = Int64(point.latitude) - originLatitude
    let x = Int64(point.longitude) - originLongitude
    let row = min(Self.rows - 1, max(0, Int(floorDivide(y, cellUnits))))
    let column = min(Self.columns - 1, max(0, Int(floorDivide(x, cellUnits))))
    return row * Self.columns + column
  }

  /// The box of a 1° cell (``topCell(_:)``) in degrees, as the layer's units round it.
  func degreeBox(ofCell cell: Int) -> DegreeBox {
    degreeBox(rootBox(row: cell / Self.columns, column: cell % Self.columns))
  }

  /// The leaf holding a point, and the leaf's south-west corner (its reference point).
  @inline(__always) func leaf(_ point: FixedPoint, in cell: Int? = nil) -> (node: Int, corner: (Int64, Int64))
  {
    let (node, box) = leafBox(point, in: cell)
    return (node, (box.minLatitude, box.minLongitude))
  }

  /// The leaf holding a point, and the leaf's box in degrees.
  func leafDegreeBox(_ point: FixedPoint) -> (node: Int, box: DegreeBox) {
    let (node, box) = leafBox(point)
    return (node, degreeBox(box))
  }

  /// A box in layer units in degrees.
  private func degreeBox(_ box: Box) -> DegreeBox {
    let scale = 1 / Double(cellUnits)
    return DegreeBox(
      south: Double(box.minLatitude) * scale, west: Double(box.minLongitude) * scale,
      north: Double(box.maxLatitude) * scale, east: Double(box.maxLongitude) * scale)
  }

  /// The leaf holding a point, and the leaf's box.
  @inline(__always) private func leafBox(_ point: FixedPoint, in cell: Int? = nil) -> (node: Int, box: Box) {
    var node = cell ?? topCell(point)
    var box = rootBox(row: node / Self.columns, column: node % Self.columns)
    while nodes[node].isInner {
      node = Int(nodes[node].link) + box.narrow(to: point)
    }
    return (node, box)
  }

  /// A box in degrees.
  struct DegreeBox: Sendable {
    var south: Double
    var west: Double
    var north: Double
    var east: Double

    /// The unit vector of the middle of its latitudes and longitudes.
    var middle: SIMD3<Double> {
      SphereGeometry.unitVector(latitude: (south + north) / 2, longitude: (west + east) / 2)
    }
  }

  /// The leaves that list no edge, with their boxes.
  func emptyLeaves() -> [(node: Int, box: DegreeBox)] {
    var found: [(node: Int, box: DegreeBox)] = []
    func visit(_ node: Int, _ box: Box) {
      if !nodes[node].isInner {
        if nodes[node].runCount == 0 { found.append((node, degreeBox(box))) }
        return
      }
      for quadrant in 0..<4 { visit(Int(nodes[node].link) + quadrant, box.quarter(quadrant)) }
    }
    for row in 0..<Self.rows {
      for column in 0..<Self.columns { visit(row * Self.columns + column, rootBox(row: row, column: column)) }
    }
    return found
  }

  /// Asks the processor for what ``features(containing:)-(FixedPoint)`` reads first for a point: its 1°
  /// cell's entry in the uniform cells and its root node.
  @inline(__always) func prefetchTop(_ point: FixedPoint) {
    let cell = topCell(point)
    tunnel_prefetch_at(uniformCells, cell * MemoryLayout<Int32>.stride)
    tunnel_prefetch_at(nodes, cell * MemoryLayout<Node>.stride)
  }

  /// The features containing the point, in feature order: exactly ``PolygonLayer/features(containing:)-(FixedPoint)``.
  func features(containing point: FixedPoint) -> FeatureSet {
    let cell = topCell(point)
    // The cell's root node asked for beside its entry in the uniform cells: where an edge crosses the
    // cell, the walk reads it next, and both reads then wait for memory together.
    tunnel_prefetch_at(nodes, cell * MemoryLayout<Node>.stride)
    tunnel_prefetch_at(cellSpans, cell * MemoryLayout<CellSpan>.stride)
    let uniform = uniformCells[cell]
    if uniform != Self.crossed { return FeatureSet(uniform: uniform) }
    // The cell's runs and the nodes below its root, asked for together as soon as the root is known:
    // the walk down then finds each level's node on its way rather than waiting for one after another.
    // (A group's walk gains nothing from it: its points' reads overlap already.)
    let span = cellSpans[cell]
    let firstRun = span.firstRun * MemoryLayout<Run>.stride
    for line in 0..<span.runLines { tunnel_prefetch_at(runs, firstRun + 64 * line) }
    let root = nodes[cell]
    if root.isInner {
      let below = Int(root.link) * MemoryLayout<Node>.stride
      for line in 0..<span.nodeLines { tunnel_prefetch_at(nodes, below + 64 * line) }
    }
    let (index, corner) = leaf(point, in: cell)
    // Every run's first vertices asked for before any is tested, so that their reads overlap: the tests
    // branch on the vertices, and a branch guessed wrong would hold the next run's read back. (A group's
    // walk asks for them all a step before.)
    let first = Int(nodes[index].link)
    for runIndex in first..<(first + nodes[index].runCount) {
      tunnel_prefetch_at(vertices, runs[runIndex].start * MemoryLayout<FixedPoint>.stride)
    }
    return features(inLeaf: index, corner: corner, point)
  }

  /// The features containing `point`, which lies in leaf `index` whose south-west corner is `corner`:
  /// the leaf's reference features, each toggled by the edges the segment from the corner crosses.
  @inline(__always) private func features(
    inLeaf index: Int, corner: (Int64, Int64), _ point: FixedPoint
  )
    -> FeatureSet
  {
    var result = FeatureSet()
    let node = nodes[index]
    if let only = node.onlyState {
      result.toggle(only)
    } else {
      let start = Int(node.stateStart)
      for index in start..<(start + node.stateCount) { result.toggle(states[index]) }
    }
    let q = (Int64(point.latitude), Int64(point.longitude))
    let first = Int(node.link)
    // By index: a slice of the runs held their array, a counted reference on every core for every point.
    for runIndex in first..<(first + node.runCount) {
      let run = runs[runIndex]
      // The edges of a run share their ring, hence their feature: only the parity of crossings counts.
      let start = Int(run.start)
      var odd = false
      for edge in start..<(start + run.length) where crosses(edge, corner, q) { odd.toggle() }
      if odd { result.toggle(feature(ofEdge: start)) }
    }
    return result
  }

  /// How many points ``features(containing:into:)`` walks down the grid side by side.
  static let groupSize = 64

  /// The features containing each of `points`, assigned to the same place in `results` (which must be
  /// initialized): exactly ``features(containing:)-(FixedPoint)`` of each.
  ///
  /// Points far apart read memory far apart, and each step down the grid waits for the one before it:
  /// one point at a time, a lookup spends most of its time waiting for memory. Here the points go down
  /// the grid a level at a time, ``groupSize`` at once, each asking the processor for the memory its
  /// next step reads before the others take theirs, so that their reads overlap.
  func features(
    containing points: UnsafeBufferPointer<FixedPoint>, into results: UnsafeMutableBufferPointer<FeatureSet>
  ) {
    precondition(results.count >= points.count, "fewer results than points")
    withUnsafeTemporaryAllocation(of: Walk.self, capacity: Self.groupSize) { walks in
      var start = 0
      while start < points.count {
        let count = min(Self.groupSize, points.count - start)
        walk(
          UnsafeBufferPointer(rebasing: points[start..<(start + count)]), walks, results.baseAddress! + start)
        start += count
      }
    }
  }

  /// A point's way down the grid: the node it reads next and that node's box; a negative node once its
  /// features are known.
  private struct Walk {
    var node: Int
    var box: Box
  }

  /// ``features(containing:into:)`` for one group of points.
  @inline(__always) private func walk(
    _ points: UnsafeBufferPointer<FixedPoint>, _ walks: UnsafeMutableBufferPointer<Walk>,
    _ results: UnsafeMutablePointer<FeatureSet>
  ) {
    uniformCells.withUnsafeBufferPointer { uniformCells in
      nodes.withUnsafeBufferPointer { nodes in
        for index in points.indices {
          let cell = topCell(points[index])
          walks[index].node = cell
          tunnel_prefetch(uniformCells.baseAddress! + cell)
        }
        var walking = 0
        for index in points.indices {
          let cell = walks[index].node
          let uniform = uniformCells[cell]
          if uniform != Self.crossed {
            results[index] = FeatureSet(uniform: uniform)
            walks[index].node = -1
          } else {
            walks[index].box = rootBox(row: cell / Self.columns, column: cell % Self.columns)
            tunnel_prefetch(nodes.baseAddress! + cell)
            walking += 1
          }
        }
        // A level at a time: every point still above its leaf reads its node, picks the child holding it
        // and asks for that child's node. A point at its leaf asks for its runs and states instead.
        let crossed = walking
        while walking > 0 {
          walking = 0
          for index in points.indices where walks[index].node >= 0 {
            let node = nodes[walks[index].node]
            guard node.isInner else { continue }
            var box = walks[index].box
            let child = Int(node.link) + box.narrow(to: points[index])
            walks[index] = Walk(node: child, box: box)
            tunnel_prefetch(nodes.baseAddress! + child)
            walking += 1
          }
        }
        guard crossed > 0 else { return }
        runs.withUnsafeBufferPointer { runs in
          states.withUnsafeBufferPointer { states in
            for index in points.indices where walks[index].node >= 0 {
              let node = nodes[walks[index].node]
              if node.runCount > 0 { tunnel_prefetch(runs.baseAddress! + Int(node.link)) }
              if node.stateCount > 1 { tunnel_prefetch(states.baseAddress! + Int(node.stateStart)) }
            }
          }
          vertices.withUnsafeBufferPointer { vertices in
            for index in points.indices where walks[index].node >= 0 {
              let node = nodes[walks[index].node]
              let first = Int(node.link)
              for run in runs[first..<(first + node.runCount)] {
                // Every cache line of the run's vertices (8 to a line), its closing vertex included.
                var address = UnsafeRawPointer(vertices.baseAddress! + run.start)
                let end = UnsafeRawPointer(vertices.baseAddress! + run.start + run.length)
                while address <= end {
                  tunnel_prefetch(address)
                  address += 64
                }
              }
            }
          }
        }
        for index in points.indices where walks[index].node >= 0 {
          let walk = walks[index]
          results[index] = features(
            inLeaf: walk.node, corner: (walk.box.minLatitude, walk.box.minLongitude), points[index])
        }
      }
    }
  }

  /// The features containing a coordinate.
  func features(containing coordinate: Coordinate) -> FeatureSet {
    features(containing: layer.fixedPoint(coordinate))
  }

  /// Nodes, runs of edges and bytes held (vertices included).
  var size: (nodes: Int, runs: Int, bytes: Int) {
    let nodeBytes = nodes.count * MemoryLayout<Node>.stride
    let vertexBytes =
      vertices.count * MemoryLayout<FixedPoint>.stride + ringStart.count * 4 + ringFeature.count * 4
    return (
      nodes.count, runs.count,
      nodeBytes + vertexBytes + 4 * states.count + runs.count * MemoryLayout<Run>.stride
    )
  }
}

/// A small set of features, kept in ascending order, that allocates only past eight members: iterating
/// it yields the features in order and allocates nothing.
struct FeatureSet: Sequence {
  private var inline: (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32) = (0, 0, 0, 0, 0, 0, 0, 0)
  private var inlineCount = 0
  private var overflow: [Int32]? = nil

  /// Adds `feature` if absent, removes it if present.
  @inline(__always) mutating func toggle(_ feature: Int32) {
    if overflow == nil {
      let count = inlineCount
      // +1 when inserted, −1 when removed, nil when the inline storage is full.
      let change = withUnsafeMutableBytes(of: &inline) { raw -> Int? in
        let items = raw.bindMemory(to: Int32.self)
        var position = 0
        while position < count && items[position] < feature { position += 1 }
        if position < count && items[position] == feature {
          for index in position..<(count - 1) { items[index] = items[index + 1] }
          return -1
        }
        guard count < 8 else { return nil }
        var index = count
        while index > position {
          items[index] = items[index - 1]
          index -= 1
        }
        items[position] = feature
        return 1
      }
      if let change {
        inlineCount += change
        return
      }
    }
    toggleBeyondInline(feature)
  }

  /// ``toggle(_:)`` once the set holds eight members or more: in an array.
  @inline(never) private mutating func toggleBeyondInline(_ feature: Int32) {
    if overflow == nil { overflow = map { Int32($0) } }
    let position = overflow!.firstIndex { $0 >= feature } ?? overflow!.count
    if position < overflow!.count && overflow![position] == feature {
      overflow!.remove(at: position)
    } else {
      overflow!.insert(feature, at: position)
    }
  }

  /// An empty set.
  init() {}

  /// The set of one feature, or an empty set for ``PolygonGrid/outside``.
  init(uniform feature: Int32) {
    if feature != PolygonGrid.outside { (inline.0, inlineCount) = (feature, 1) }
  }

  /// The set of `members` (each once).
  init(_ members: some Sequence<Int>) {
    for member in members { toggle(Int32(member)) }
  }

  var isEmpty: Bool { overflow?.isEmpty ?? (inlineCount == 0) }

  /// The only member of a set of one member; nil for any other set.
  var single: Int32? {
    if let overflow { return overflow.count == 1 ? overflow[0] : nil }
    return inlineCount == 1 ? inline.0 : nil
  }

  /// Calls `body` with the members in ascending order, in place: iterating the set copies it, which
  /// counts a reference to its array, held or not.
  func withMembers<Result>(_ body: (UnsafeBufferPointer<Int32>) -> Result) -> Result {
    if let overflow { return overflow.withUnsafeBufferPointer(body) }
    return withUnsafeBytes(of: inline) { raw in
      body(
        UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: Int32.self), count: inlineCount))
    }
  }

  /// The smallest member.
  var first: Int? {
    var iterator = makeIterator()
    return iterator.next()
  }

  /// The members in ascending order.
  struct Iterator: IteratorProtocol {
    fileprivate var inline: (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32)
    fileprivate let count: Int
    fileprivate let overflow: [Int32]?
    fileprivate var position = 0

    mutating func next() -> Int? {
      guard position < count else { return nil }
      defer { position += 1 }
      if let overflow { return Int(overflow[position]) }
      let index = position
      return withUnsafeBytes(of: &inline) { Int($0.bindMemory(to: Int32.self)[index]) }
    }
  }

  func makeIterator() -> Iterator {
    Iterator(inline: inline, count: overflow?.count ?? inlineCount, overflow: overflow)
  }
}

/// Integer division rounding towards negative infinity.
@inline(__always) func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
  let quotient = value / divisor
  return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
}
