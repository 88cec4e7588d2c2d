import TunnelGeo

/// The rings of a polygon layer decoded into one array of fixed-point vertices.
struct DrawingLayer: Sendable {
  /// One ring: its bounding box and where its vertices are (closed: the last repeats the first).
  struct Ring: Sendable {
    var box: FixedBox
    var start: Int
    var count: Int
  }

  let rings: [Ring]
  let points: [FixedPoint]
  /// Per point: whether the edge from the ring's previous point to it is drawn (false for a ring's first
  /// point). The fill uses every edge; strokes leave out the others.
  let stroked: [Bool]
  /// The unit vector (x towards 0° 0°, z towards the North Pole) of each point.
  let vectors: [SIMD3<Float>]
  /// Fixed-point units per degree.
  let unitsPerDegree: Int

  /// The rings of `layer`, with the edges `isStroked` admits drawn (by default every shoreline: not the
  /// seams where the source cut a land mass along 0° or 180°, nor the edges round a pole).
  init(_ layer: PolygonLayer, isStroked: ((FixedPoint, FixedPoint) -> Bool)? = nil) {
    let isStroked = isStroked ?? TileLayer.shorelines(unitsPerDegree: layer.unitsPerDegree)
    var rings: [Ring] = []
    var points: [FixedPoint] = []
    var stroked: [Bool] = []
    rings.reserveCapacity(layer.ringCount)
    points.reserveCapacity(layer.vertexCount + layer.ringCount)
    stroked.reserveCapacity(layer.vertexCount + layer.ringCount)
    for index in 0..<layer.ringCount {
      let start = points.count
      layer.forEachVertex(ofRing: index) { point in
        stroked.append(points.count > start && isStroked(points[points.count - 1], point))
        points.append(point)
      }
      rings.append(Ring(box: layer.ringBox(index), start: start, count: points.count - start))
    }
    self.rings = rings
    self.points = points
    self.stroked = stroked
    unitsPerDegree = layer.unitsPerDegree
    let radians = Double.pi / 180 / Double(layer.unitsPerDegree)
    vectors = points.map { point in
      SIMD3<Float>(
        unitVector(latitude: Double(point.latitude) * radians, longitude: Double(point.longitude) * radians))
    }
  }
}
