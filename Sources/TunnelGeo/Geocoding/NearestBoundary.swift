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
    func consider(_ ring: Int) {
      let bound = lowerBound(layer.ringBox(ring))
      guard bound <= limit + Self.slack else { return }
      candidates.append((bound, ring))
      if bound < bestBound {
        bestBound = bound
        bestRing = ring
      }
    }
    if let near = rings(within: limit) {
      for ring in near { consider(ring) }
    } else {
      for ring in 0..<layer.ringCount { consider(ring) }
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

  /// Searches within this many radians (about 1,600 km) read the rings near the query from the layer's
  /// ring grid; wider ones read every ring's box.
  static let gridLimit = 0.25

  /// The rings whose edges could come within `limit` radians of the query, in ring order, from the
  /// layer's ring grid; nil when the search is too wide for it, or its cap reaches a pole.
  ///
  /// An edge point within `limit` lies in the cap's box: latitudes within `limit`, longitudes within
  /// asin(sin limit / cos φ). Its ring's box holds the point's longitude, and its latitude up to the bow of
  /// an arc beyond its vertices (see ``lowerBound(_:)``); a ring the grid lists by cell spans at most
  /// ``RingGrid/mostCellsOfARing`` cells of longitude, which bounds that bow. So the ring's box meets the
  /// cap's box widened by the bow, and the grid lists it in a cell there, or among its wide rings.
  func rings(within limit: Double) -> [Int]? {
    guard limit <= Self.gridLimit else { return nil }
    let units = Double(layer.unitsPerDegree)
    let span = Double(RingGrid.mostCellsOfARing) * Double(layer.ringGridCellUnits) / units * .pi / 180
    guard span < .pi / 2 else { return nil }
    let bow = (1 / cos(span / 2) - 1) / 2
    let reach = limit + bow + 1e-9
    guard abs(latitude) + reach < .pi / 2 else { return nil }
    let halfWidth = asin(min(1, sin(limit) / cos(abs(latitude) + limit))) + 1e-9
    func fixed(_ radians: Double) -> Int64 { Int64((radians * 180 / .pi * units).rounded(.down)) }
    let south = fixed(latitude - reach) - 1
    let north = fixed(latitude + reach) + 1
    // The half width is at most 90°, so at most one end crosses the antimeridian, and then west > east.
    let turn = 360 * Int64(layer.unitsPerDegree)
    var west = fixed(longitude - halfWidth) - 1
    var east = fixed(longitude + halfWidth) + 1
    if west < -turn / 2 { west += turn }
    if east > turn / 2 { east -= turn }
    return layer.rings(meetingLatitudes: south, north, longitudes: west, east)
  }

  /// The nearest boundary point at any distance, as ``nearest(within:accept:)`` gives it: looked for
  /// within 20 km first, then eight times as far each time. Unbounded, every ring is a candidate and
  /// all of them are sorted; a point near a boundary, as most are, sorts only the few rings nearby.
  func nearestAtAnyDistance(accept: (Int) -> Bool) -> BoundaryHit? {
    var limit = 20 / SphereGeometry.radiusKm
    while true {
      if let hit = nearest(within: limit, accept: accept) { return hit }
      if limit >= .pi { return nil }
      limit = min(.pi, limit * 8)
    }
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
