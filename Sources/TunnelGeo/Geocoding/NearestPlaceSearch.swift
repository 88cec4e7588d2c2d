#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A populated place found by a nearest-place search, with its great-circle distance.
public struct NearestPlace: Sendable, Hashable, Codable {
  /// The place's index in ``PlaceLayer``.
  public var index: Int
  /// The place's name ("Skjern").
  public var name: String
  /// ISO 3166-1 alpha-2 code of the place's country.
  public var countryCode: String
  /// Degrees north.
  public var latitude: Double
  /// Degrees east.
  public var longitude: Double
  /// Inhabitants (0 when GeoNames does not know).
  public var population: Int
  /// Great-circle distance in kilometres on the sphere of mean radius (6,371.0088 km).
  public var distanceKm: Double

  private enum CodingKeys: String, CodingKey {
    case name, countryCode, latitude, longitude, population, distanceKm
  }

  /// Creates a result.
  public init(
    index: Int, name: String, countryCode: String, latitude: Double, longitude: Double, population: Int,
    distanceKm: Double
  ) {
    self.index = index
    self.name = name
    self.countryCode = countryCode
    self.latitude = latitude
    self.longitude = longitude
    self.population = population
    self.distanceKm = distanceKm
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    index = -1
    name = try container.decode(String.self, forKey: .name)
    countryCode = try container.decode(String.self, forKey: .countryCode)
    latitude = try container.decode(Double.self, forKey: .latitude)
    longitude = try container.decode(Double.self, forKey: .longitude)
    population = try container.decode(Int.self, forKey: .population)
    distanceKm = try container.decode(Double.self, forKey: .distanceKm)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(name, forKey: .name)
    try container.encode(countryCode, forKey: .countryCode)
    try container.encode(latitude, forKey: .latitude)
    try container.encode(longitude, forKey: .longitude)
    try container.encode(population, forKey: .population)
    try container.encode(distanceKm, forKey: .distanceKm)
  }
}

/// Where the unit vectors of the places come from during a k-d tree walk.
protocol PlaceVectorSource {
  /// The unit vector of the place stored at `index`.
  func vector(_ index: Int) -> SIMD3<Double>
}

/// Computes unit vectors from the mapped fixed-point coordinates: no set-up at all.
struct MappedPlaceVectors: PlaceVectorSource {
  let places: PlaceLayer

  @inline(__always) func vector(_ index: Int) -> SIMD3<Double> { places.unitVector(at: index) }
}

/// Unit vectors computed once into an array (for many queries), 24 bytes each.
struct PlaceVectorArray: PlaceVectorSource, @unchecked Sendable {
  // @unchecked: the buffer is written once in init and only read afterwards; it is never freed.
  let base: UnsafeMutablePointer<Double>
  let count: Int

  init(places: PlaceLayer) {
    count = places.count
    base = .allocate(capacity: 3 * max(1, count))
    for index in 0..<count {
      let vector = places.unitVector(at: index)
      (base[3 * index], base[3 * index + 1], base[3 * index + 2]) = (vector.x, vector.y, vector.z)
    }
  }

  @inline(__always) func vector(_ index: Int) -> SIMD3<Double> {
    SIMD3(base[3 * index], base[3 * index + 1], base[3 * index + 2])
  }
}

/// Exact nearest-place search over the implicit k-d tree stored in ``PlaceLayer``.
///
/// The places file keeps its places in the order of a balanced k-d tree over their unit vectors (see
/// ``PlaceLayer``), so the search needs no build step: it walks the mapped file. It keeps, for the
/// cell of every subtree, the squared distance from the query to the cell's box and skips a subtree
/// only when that lower bound exceeds the best squared chord found so far, so the answer is exactly the
/// place with the smallest great-circle distance (ties broken by the lower index). The split values were
/// rounded to 32-bit floats when the tree was built; the walk widens every split plane by
/// ``splitMargin`` so that this rounding can never hide a place.
struct NearestPlaceSearch<Vectors: PlaceVectorSource> {
  let places: PlaceLayer
  let vectors: Vectors

  /// How far (in unit-vector coordinates) a place may lie on the wrong side of its split plane because
  /// the tree was built from `Float` vectors: 2⁻²⁴ for the rounding, doubled, plus room.
  static var splitMargin: Double { 2.5e-7 }
  /// Ranges this small are scanned rather than split.
  static var leafSize: Int { 6 }

  /// The index and squared chord of the place nearest to `query` among those accepted by `accept`, or nil
  /// when no place is accepted.
  ///
  /// - Complexity: O(log n) expected for well-spread places and an accept-all filter; O(n) at worst.
  func nearest(
    to query: SIMD3<Double>, within limit: Double = .infinity, accept: (Int) -> Bool = { _ in true }
  ) -> (index: Int, chordSquared: Double)? {
    var walk = Walk(query: query, best: -1, bestSquared: limit)
    walk.visit(lo: 0, hi: places.count, boundSquared: 0, self, accept)
    return walk.best >= 0 ? (walk.best, walk.bestSquared) : nil
  }

  /// Calls `body` with every place whose squared chord from `query` is at most `limitSquared`.
  func forEach(
    within limitSquared: Double, of query: SIMD3<Double>, _ body: (Int, Double) -> Void
  ) {
    var offsets = SIMD3<Double>(repeating: 0)
    rangeVisit(lo: 0, hi: places.count, boundSquared: 0, offsets: &offsets, query, limitSquared, body)
  }

  private func rangeVisit(
    lo: Int, hi: Int, boundSquared: Double, offsets: inout SIMD3<Double>, _ query: SIMD3<Double>,
    _ limit: Double, _ body: (Int, Double) -> Void
  ) {
    if hi - lo <= Self.leafSize {
      for index in lo..<hi {
        let squared = SphereGeometry.chordSquared(query, vectors.vector(index))
        if squared <= limit { body(index, squared) }
      }
      return
    }
    let mid = lo + (hi - lo) / 2
    let point = vectors.vector(mid)
    let squared = SphereGeometry.chordSquared(query, point)
    if squared <= limit { body(mid, squared) }
    let axis = places.splitAxis(at: mid)
    let difference = query[axis] - point[axis]
    let (nearLo, nearHi, farLo, farHi) = difference <= 0 ? (lo, mid, mid + 1, hi) : (mid + 1, hi, lo, mid)
    rangeVisit(
      lo: nearLo, hi: nearHi, boundSquared: boundSquared, offsets: &offsets, query, limit, body)
    let old = offsets[axis]
    let offset = max(old, abs(difference) - Self.splitMargin)
    let farBound = boundSquared - old * old + offset * offset
    if farBound <= limit {
      offsets[axis] = offset
      rangeVisit(lo: farLo, hi: farHi, boundSquared: farBound, offsets: &offsets, query, limit, body)
      offsets[axis] = old
    }
  }

  private struct Walk {
    let query: SIMD3<Double>
    var best: Int
    var bestSquared: Double
    var offsets = SIMD3<Double>(repeating: 0)

    init(query: SIMD3<Double>, best: Int, bestSquared: Double) {
      self.query = query
      self.best = best
      self.bestSquared = bestSquared
    }

    @inline(__always) mutating func consider(_ index: Int, _ point: SIMD3<Double>, _ accept: (Int) -> Bool) {
      let squared = SphereGeometry.chordSquared(query, point)
      if squared < bestSquared || (squared == bestSquared && index < best) {
        if accept(index) {
          best = index
          bestSquared = squared
        }
      }
    }

    mutating func visit(
      lo: Int, hi: Int, boundSquared: Double, _ search: NearestPlaceSearch, _ accept: (Int) -> Bool
    ) {
      if hi - lo <= NearestPlaceSearch.leafSize {
        for index in lo..<hi { consider(index, search.vectors.vector(index), accept) }
        return
      }
      let mid = lo + (hi - lo) / 2
      let point = search.vectors.vector(mid)
      consider(mid, point, accept)
      let axis = search.places.splitAxis(at: mid)
      let difference = query[axis] - point[axis]
      let (nearLo, nearHi, farLo, farHi) =
        difference <= 0 ? (lo, mid, mid + 1, hi) : (mid + 1, hi, lo, mid)
      visit(lo: nearLo, hi: nearHi, boundSquared: boundSquared, search, accept)
      let old = offsets[axis]
      let offset = max(old, abs(difference) - NearestPlaceSearch.splitMargin)
      let farBound = boundSquared - old * old + offset * offset
      if farBound <= bestSquared {
        offsets[axis] = offset
        visit(lo: farLo, hi: farHi, boundSquared: farBound, search, accept)
        offsets[axis] = old
      }
    }
  }
}

extension NearestPlaceSearch: Sendable where Vectors: Sendable {}
