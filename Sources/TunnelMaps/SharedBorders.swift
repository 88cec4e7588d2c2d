import TunnelGeo

/// The edges of a country layer that two different countries share: the borders. A country's edge along
/// the sea, along a seam where the source cut it (Antarctica at 180°) or round the pole is no border.
enum SharedBorders {
  /// An edge as two packed vertices, its ends in a fixed order so that both countries' rings name it
  /// alike.
  private struct Edge: Comparable {
    var first: UInt64
    var second: UInt64

    init(_ p: FixedPoint, _ q: FixedPoint) {
      let (p, q) = (Self.packed(p), Self.packed(q))
      (first, second) = p < q ? (p, q) : (q, p)
    }

    init(first: UInt64, second: UInt64) {
      (self.first, self.second) = (first, second)
    }

    static func packed(_ point: FixedPoint) -> UInt64 {
      UInt64(UInt32(bitPattern: point.latitude)) << 32 | UInt64(UInt32(bitPattern: point.longitude))
    }

    static func < (lhs: Edge, rhs: Edge) -> Bool {
      (lhs.first, lhs.second) < (rhs.first, rhs.second)
    }

    /// A slot for the edge in a table of `mask + 1` slots: a multiply-xor mix, far cheaper than `Hasher`
    /// for the half million edges of the country layer.
    func slot(_ mask: Int) -> Int {
      var mixed = first &* 0x9E37_79B9_7F4A_7C15 ^ second &* 0xC2B2_AE3D_27D4_EB4F
      mixed ^= mixed >> 29
      return Int(truncatingIfNeeded: mixed) & mask
    }
  }

  /// Whether the edge between two vertices of `countries` is shared by two countries.
  static func predicate(_ countries: PolygonLayer) -> @Sendable (FixedPoint, FixedPoint) -> Bool {
    var table = OwnerTable(capacity: min(countries.vertexCount, 1 << 22))
    var shared: [Edge] = []
    for index in 0..<countries.ringCount {
      let feature = Int32(countries.ring(index).feature)
      var previous: FixedPoint?
      countries.forEachVertex(ofRing: index) { point in
        defer { previous = point }
        guard let last = previous, last != point else { return }
        let edge = Edge(last, point)
        if table.own(edge, by: feature) { shared.append(edge) }
      }
    }
    let borders = shared.sorted()
    return { p, q in
      let edge = Edge(p, q)
      // The first border not before the edge, by halving.
      var (low, high) = (0, borders.count)
      while low < high {
        let middle = (low + high) / 2
        if borders[middle] < edge { low = middle + 1 } else { high = middle }
      }
      return low < borders.count && borders[low] == edge
    }
  }

  /// Each edge's feature, in an open-addressed table with linear probing that doubles when half full.
  private struct OwnerTable {
    private var edges: [Edge]
    /// The feature of the edge in each slot; -1 once a second feature has it, -2 for an empty slot.
    private var owners: [Int32]
    private var count = 0

    init(capacity: Int) {
      var slots = 1024
      while slots < 2 * capacity { slots *= 2 }
      edges = Array(repeating: Edge(first: 0, second: 0), count: slots)
      owners = Array(repeating: -2, count: slots)
    }

    /// Records that `feature` has `edge`; true when that makes the edge shared for the first time.
    mutating func own(_ edge: Edge, by feature: Int32) -> Bool {
      if 2 * (count + 1) > owners.count { grow() }
      let slot = find(edge)
      switch owners[slot] {
      case -2:
        (edges[slot], owners[slot]) = (edge, feature)
        count += 1
        return false
      case -1, feature: return false
      default:
        owners[slot] = -1
        return true
      }
    }

    /// The slot that holds `edge`, or the empty one where it would go.
    private func find(_ edge: Edge) -> Int {
      let mask = owners.count - 1
      var slot = edge.slot(mask)
      while owners[slot] != -2, edges[slot] != edge { slot = (slot + 1) & mask }
      return slot
    }

    private mutating func grow() {
      let (oldEdges, oldOwners) = (edges, owners)
      edges = Array(repeating: Edge(first: 0, second: 0), count: 2 * oldOwners.count)
      owners = Array(repeating: -2, count: 2 * oldOwners.count)
      for slot in oldOwners.indices where oldOwners[slot] != -2 {
        let target = find(oldEdges[slot])
        (edges[target], owners[target]) = (oldEdges[slot], oldOwners[slot])
      }
    }
  }
}
