import Foundation

/// The nearest point of a polygon layer's boundaries to a query point.
struct BoundaryHit: Sendable {
  /// The feature whose ring holds the nearest edge.
  var feature: Int
  /// Great-circle angle in radians from the query to the nearest boundary point.
  var angle: Double
  /// The nearest boundary point.
  var point: SIMD3<Double>
}

/// Exact nearest-edge search over a polygon layer's rings, pruned by ring and chunk boxes.
///
/// Every edge is taken as the great-circle arc between its two vertices. A ring or chunk is opened
/// only when a lower bound of the angle from the query to its latitude/longitude box is below the best
/// angle found so far, so the search decodes only the few chunks near the answer.
struct NearestBoundarySearch {
  let layer: PolygonLayer
  let query: SIMD3<Double>
  let latitude: Double
  let longitude: Double
  private let cosLatitude: Double
  private let radiansPerUnit: Double

  init(layer: PolygonLayer, coordinate: Coordinate) {
    self.layer = layer
    query = SphereGeometry.unitVector(coordinate)
    latitude = coordinate.latitude * .pi / 180
    longitude = coordinate.longitude * .pi / 180
    cosLatitude = cos(latitude)
    radiansPerUnit = .pi / 180 / Double(layer.unitsPerDegree)
  }

  /// A lower bound of the great-circle angle from the query to any point of a box.
  ///
  /// The larger of the latitude gap and the angle to the great circle through the nearer bounding
  /// meridian (or, when that meridian is more than 90° of longitude away, the angle to the nearer pole).
  func lowerBound(_ box: FixedBox) -> Double {
    let minLatitude = Double(box.minLatitude) * radiansPerUnit
    let maxLatitude = Double(box.maxLatitude) * radiansPerUnit
    let latitudeGap = max(0, latitude - maxLatitude, minLatitude - latitude)
    let minLongitude = Double(box.minLongitude) * radiansPerUnit
    let maxLongitude = Double(box.maxLongitude) * radiansPerUnit
    if longitude >= minLongitude && longitude <= maxLongitude { return latitudeGap }
    func gap(_ a: Double, _ b: Double) -> Double {
      let difference = abs(a - b).truncatingRemainder(dividingBy: 2 * .pi)
      return min(difference, 2 * .pi - difference)
    }
    // The query may also lie inside the box's longitudes across the antimeridian.
    let span = maxLongitude - minLongitude
    if span >= 2 * .pi { return latitudeGap }
    let delta = min(gap(longitude, minLongitude), gap(longitude, maxLongitude))
    let meridianBound =
      delta >= .pi / 2 ? .pi / 2 - abs(latitude) : asin(min(1, cosLatitude * sin(delta)))
    return max(latitudeGap, meridianBound)
  }

  /// The nearest boundary point among the features that `accept` admits, if one lies within `limit`
  /// radians; of boundary points at the same distance, the one of the lowest feature.
  ///
  /// - Complexity: O(rings) box checks, then only the chunks whose boxes could hold a nearer point.
  func nearest(within limit: Double = .pi, accept: (Int) -> Bool) -> BoundaryHit? {
    // First pass: bounds of every ring; remember the most promising one.
    var candidates: [(bound: Double, ring: Int)] = []
    var bestBound = Double.infinity
    var bestRing = -1
    for ring in 0..<layer.ringCount {
      let bound = lowerBound(layer.ringBox(ring))
      guard bound <= limit else { continue }
      candidates.append((bound, ring))
      if bound < bestBound {
        bestBound = bound
        bestRing = ring
      }
    }
    var best: BoundaryHit? = nil
    var bestAngle = limit
    // Open the most promising accepted ring first, so that the cut below is tight.
    if bestRing >= 0, accept(layer.ring(bestRing).feature) {
      scan(ring: bestRing, best: &best, bestAngle: &bestAngle)
    }
    candidates.removeAll { $0.bound > bestAngle }
    candidates.sort { $0.bound < $1.bound }
    for candidate in candidates {
      guard candidate.bound <= bestAngle else { break }
      guard candidate.ring != bestRing, accept(layer.ring(candidate.ring).feature) else { continue }
      scan(ring: candidate.ring, best: &best, bestAngle: &bestAngle)
    }
    return best
  }

  /// Checks every edge of a ring whose chunk box could hold a point nearer than `bestAngle`.
  func scan(ring: Int, best: inout BoundaryHit?, bestAngle: inout Double) {
    let feature = layer.ring(ring).feature
    let scale = 1 / Double(layer.unitsPerDegree)
    layer.forEachChunk(ofRing: ring) { box, offset, count in
      guard lowerBound(box) <= bestAngle else { return }
      var previous: SIMD3<Double>? = nil
      layer.decode(streamOffset: offset, count: count) { point in
        let vector = SphereGeometry.unitVector(
          latitude: Double(point.latitude) * scale, longitude: Double(point.longitude) * scale)
        defer { previous = vector }
        guard let start = previous else {
          let angle = SphereGeometry.angle(query, vector)
          if angle < bestAngle || (angle == bestAngle && best.map { feature < $0.feature } ?? true) {
            bestAngle = angle
            best = BoundaryHit(feature: feature, angle: angle, point: vector)
          }
          return
        }
        let closest = SphereGeometry.closestPoint(on: start, vector, to: query)
        let angle = SphereGeometry.angle(query, closest)
        if angle < bestAngle || (angle == bestAngle && best.map { feature < $0.feature } ?? true) {
          bestAngle = angle
          best = BoundaryHit(feature: feature, angle: angle, point: closest)
        }
      }
    }
  }
}
