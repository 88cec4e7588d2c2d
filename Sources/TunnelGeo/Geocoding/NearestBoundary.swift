#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
  private let vectors: FixedPointVectors

  /// Bounds within this many radians of the best distance are still opened, so that rounding in a
  /// bound cannot hide a point at the same distance (ties go to the lower feature).
  static let slack = 1e-12

  init(layer: PolygonLayer, coordinate: Coordinate) {
    self.layer = layer
    query = SphereGeometry.unitVector(coordinate)
    latitude = coordinate.latitude * .pi / 180
    longitude = coordinate.longitude * .pi / 180
    cosLatitude = cos(latitude)
    radiansPerUnit = .pi / 180 / Double(layer.unitsPerDegree)
    vectors = FixedPointVectors.shared(unitsPerDegree: layer.unitsPerDegree)
  }

  /// A lower bound of the great-circle angle from the query to any point of a box.
  ///
  /// The larger of the latitude gap (the box widened by how far an arc can bow) and the angle to the
  /// great circle through the nearer bounding meridian (or, when that meridian is more than 90° of
  /// longitude away, the angle to the nearer pole).
  func lowerBound(_ box: FixedBox) -> Double {
    let minLongitude = Double(box.minLongitude) * radiansPerUnit
    let maxLongitude = Double(box.maxLongitude) * radiansPerUnit
    // An edge is a great-circle arc, which bows towards the pole beyond its ends' latitudes: by at most
    // atan(k·tan φ) − φ ≤ (k − 1)/2 with k = 1/cos(Δλ/2), Δλ at most the box's span of longitude; for
    // Δλ < 0.5, k − 1 ≤ (Δλ/2)², which spares the cosine.
    let span = maxLongitude - minLongitude
    let bow = span < 0.5 ? span * span / 8 : span >= .pi ? Double.pi : (1 / cos(span / 2) - 1) / 2
    let minLatitude = Double(box.minLatitude) * radiansPerUnit - bow
    let maxLatitude = Double(box.maxLatitude) * radiansPerUnit + bow
    let latitudeGap = max(0, latitude - maxLatitude, minLatitude - latitude)
    if longitude >= minLongitude && longitude <= maxLongitude { return latitudeGap }
    func gap(_ a: Double, _ b: Double) -> Double {
      let difference = abs(a - b).truncatingRemainder(dividingBy: 2 * .pi)
      return min(difference, 2 * .pi - difference)
    }
    // The query may also lie inside the box's longitudes across the antimeridian.
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
      guard bound <= limit + Self.slack else { continue }
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
    candidates.removeAll { $0.bound > bestAngle + Self.slack }
    candidates.sort { $0.bound < $1.bound }
    for candidate in candidates {
      guard candidate.bound <= bestAngle + Self.slack else { break }
      guard candidate.ring != bestRing, accept(layer.ring(candidate.ring).feature) else { continue }
      scan(ring: candidate.ring, best: &best, bestAngle: &bestAngle)
    }
    return best
  }

  /// Checks every edge of a ring whose chunk box could hold a point nearer than `bestAngle`.
  ///
  /// Edges are compared by the squared chord from the query to their nearest point, ties going to the
  /// lower feature; `bestAngle` follows the best point.
  func scan(ring: Int, best: inout BoundaryHit?, bestAngle: inout Double) {
    let feature = layer.ring(ring).feature
    var bestChord =
      best.map { SphereGeometry.chordSquared(query, $0.point) }
      ?? SphereGeometry.chordSquared(angle: bestAngle)
    layer.forEachChunk(ofRing: ring) { box, offset, count in
      guard lowerBound(box) <= bestAngle + Self.slack else { return }
      var previous: SIMD3<Double>? = nil
      layer.decode(streamOffset: offset, count: count) { point in
        let vector = vectors.unitVector(point)
        defer { previous = vector }
        let closest = previous.map { SphereGeometry.closestPoint(on: $0, vector, to: query) } ?? vector
        let chord = SphereGeometry.chordSquared(query, closest)
        if chord < bestChord || (chord == bestChord && best.map { feature < $0.feature } ?? true) {
          bestChord = chord
          bestAngle = SphereGeometry.angle(query, closest)
          best = BoundaryHit(feature: feature, angle: bestAngle, point: closest)
        }
      }
    }
  }
}
