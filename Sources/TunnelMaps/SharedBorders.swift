import TunnelGeo

/// The edges of a country layer that two different countries share: the borders. A country's edge along
/// the sea, along a seam where the source cut it (Antarctica at 180°) or round the pole is no border.
enum SharedBorders {
  /// An edge, its ends in a fixed order so that both countries' rings name it alike.
  private struct Edge: Hashable {
    var a: FixedPoint
    var b: FixedPoint

    init(_ p: FixedPoint, _ q: FixedPoint) {
      if (p.latitude, p.longitude) < (q.latitude, q.longitude) {
        (a, b) = (p, q)
      } else {
        (a, b) = (q, p)
      }
    }
  }

  /// Whether the edge between two vertices of `countries` is shared by two countries.
  static func predicate(_ countries: PolygonLayer) -> @Sendable (FixedPoint, FixedPoint) -> Bool {
    // Each edge's feature, or -1 once a second feature has it.
    var owners: [Edge: Int32] = [:]
    owners.reserveCapacity(countries.vertexCount)
    for index in 0..<countries.ringCount {
      let feature = Int32(countries.ring(index).feature)
      var previous: FixedPoint?
      countries.forEachVertex(ofRing: index) { point in
        defer { previous = point }
        guard let last = previous, last != point else { return }
        let edge = Edge(last, point)
        if let owner = owners[edge] {
          if owner != feature { owners[edge] = -1 }
        } else {
          owners[edge] = feature
        }
      }
    }
    let shared = owners
    return { shared[Edge($0, $1)] == -1 }
  }
}
