import RandomPoints
import SeededRandom
import Testing

@testable import TunnelGeo

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// ``Placemark/boundaryKm``: the distance to each layer's nearest boundary, checked against a brute-force
/// distance to every edge of the layer, measured another way (the angle to an edge's great circle where the
/// foot of the perpendicular falls inside the edge, else to the nearer end).
@Suite struct BoundaryDistanceTests {
  static let data = try! PlaceData()
  static let oneOff = ReverseGeocoder(data: data)
  static let batch: ReverseGeocoder = {
    let geocoder = ReverseGeocoder(data: data)
    try! geocoder.prepareForBatch(fields: .boundaries)
    return geocoder
  }()

  /// Every edge of a layer as unit-vector pairs, with the feature of its ring.
  struct Edges {
    var starts: [SIMD3<Double>] = []
    var ends: [SIMD3<Double>] = []
    var features: [Int] = []

    init(_ layer: PolygonLayer) {
      let scale = Double(layer.unitsPerDegree)
      for ring in 0..<layer.ringCount {
        let feature = layer.ring(ring).feature
        var previous: SIMD3<Double>? = nil
        layer.forEachVertex(ofRing: ring) { point in
          let vector = SphereGeometry.unitVector(
            latitude: Double(point.latitude) / scale, longitude: Double(point.longitude) / scale)
          if let previous {
            starts.append(previous)
            ends.append(vector)
            features.append(feature)
          }
          previous = vector
        }
      }
    }

    /// Angle in radians from `q` to the nearest edge of the features `accept` takes.
    func nearest(to q: SIMD3<Double>, accept: (Int) -> Bool = { _ in true }) -> Double {
      func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
      }
      func angle(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        let normal = cross(a, b)
        return atan2((normal * normal).sum().squareRoot(), (a * b).sum())
      }
      var best = Double.infinity
      for index in starts.indices where accept(features[index]) {
        let (a, b) = (starts[index], ends[index])
        var found = min(angle(q, a), angle(q, b))
        let normal = cross(a, b)
        let length = (normal * normal).sum().squareRoot()
        if length > 1e-15 {
          let n = normal / length
          let height = (q * n).sum()
          let foot = q - height * n
          // The foot lies on the arc when it is on the inner side of both ends.
          if (cross(a, foot) * n).sum() >= 0 && (cross(foot, b) * n).sum() >= 0 {
            found = min(found, atan2(abs(height), (foot * foot).sum().squareRoot()))
          }
        }
        best = min(best, found)
      }
      return best
    }
  }

  /// Points near borders and coasts (within 0.3° of a vertex of the countries layer), and anywhere, from
  /// a fixed seed.
  static func points(count: Int) throws -> [Coordinate] {
    let layer = try data.countries().polygons
    var generator = SplitMix64(seed: 41)
    return (0..<count).map { index in
      index % 4 == 3
        ? Coordinate.random(using: &generator) : layer.pointNearAVertex(within: 0.3, using: &generator)
    }
  }

  @Test func distancesAreThoseToTheNearestEdge() throws {
    let layers = try Self.oneOff.placemarkLayers()
    let countries = Edges(layers.countries.polygons)
    let regions = Edges(layers.regions.polygons)
    let zones = Edges(layers.zones.polygons)
    // Random points, and where the search's box wraps: across the antimeridian (Fiji, Chukotka, Kiribati)
    // and near the poles.
    let points =
      try Self.points(count: 32)
      + [
        (-16.8, 179.95), (-16.8, -179.95), (66.0, -179.9), (65.5, 179.2), (1.9, -157.4), (-85.0, 0.0),
        (-78.0, 166.0), (84.0, -30.0), (89.5, 120.0), (-89.9, 45.0),
      ].map { try Coordinate(latitude: $0.0, longitude: $0.1) }
    let batch = try Self.batch.placemarks(for: points, fields: .boundaries)
    var regionsMeasured = 0
    for (point, batchPlacemark) in zip(points, batch) {
      let placemark = try Self.oneOff.placemark(for: point, indexes: nil, fields: .all)
      let boundaries = try #require(placemark.boundaryKm)
      #expect(batchPlacemark.boundaryKm == boundaries, "\(point)")
      let q = SphereGeometry.unitVector(point)
      let country = countries.nearest(to: q) * SphereGeometry.radiusKm
      #expect(abs(try #require(boundaries.country) - country) < 1e-6, "\(point): \(boundaries) \(country)")
      if placemark.region?.source == .polygon {
        regionsMeasured += 1
        let region =
          regions.nearest(to: q) {
            PlacemarkNames.countryCodeValue(layers.regions.countryCode($0)) != nil
          } * SphereGeometry.radiusKm
        #expect(abs(try #require(boundaries.region) - region) < 1e-6, "\(point): \(boundaries) \(region)")
      } else {
        #expect(boundaries.region == nil, "\(point)")
      }
      var zone = zones.nearest(to: q)
      if layers.zones.polygons.features(containing: point).isEmpty, !placemark.land {
        zone = min(zone, PlacemarkAssembly<LayerLookups>.nauticalBoundaryAngle(point))
      }
      #expect(
        abs(try #require(boundaries.timeZone) - zone * SphereGeometry.radiusKm) < 1e-6,
        "\(point): \(boundaries) \(zone * SphereGeometry.radiusKm)")
    }
    #expect(regionsMeasured > 5)
  }

  /// The nautical zones change at 7.5° + 15°·k and at the antimeridian; the distance to a meridian is
  /// asin(cos φ · sin Δλ).
  @Test(arguments: [
    (0.0, 7.0, 0.5), (0.0, 8.0, 0.5), (0.0, 0.0, 7.5), (60.0, 0.0, 7.5), (0.0, 179.0, 1.0),
    (0.0, -179.5, 0.5), (10.0, 172.0, 0.5), (-45.0, -120.0, 7.5),
  ])
  func nauticalMeridians(latitude: Double, longitude: Double, degrees: Double) throws {
    let point = try Coordinate(latitude: latitude, longitude: longitude)
    let expected = asin(cos(latitude * .pi / 180) * sin(degrees * .pi / 180))
    #expect(abs(PlacemarkAssembly<LayerLookups>.nauticalBoundaryAngle(point) - expected) < 1e-12)
  }

  /// Facts a map shows: Büsingen's zone ends a few hundred metres away, the middle of the Pacific is
  /// hundreds of kilometres from any country, and a point on a border is on it.
  @Test func facts() throws {
    let busingen = try Self.oneOff.placemark(for: Coordinate(latitude: 47.70, longitude: 8.68))
    #expect(try #require(busingen.boundaryKm?.timeZone) < 1)
    let pacific = try Self.oneOff.placemark(for: Coordinate(latitude: -30, longitude: -130))
    #expect(try #require(pacific.boundaryKm?.country) > 300)
    #expect(pacific.boundaryKm?.region == nil)
    // Skjern, 10 km from the North Sea: Denmark's boundary is its coast.
    let skjern = try Self.oneOff.placemark(for: Coordinate(latitude: 56, longitude: 8.5))
    let country = try #require(skjern.boundaryKm?.country)
    #expect(country > 5 && country < 15)
  }

  /// A batch measures the second-level regions' boundaries through its own grid: the distances are the
  /// one-off search's, and those to the nearest edge, near the counties' and départements' vertices.
  @Test func subregionDistancesAreTheOneOffs() throws {
    let layers = try Self.oneOff.placemarkLayers()
    let subregions = Edges(layers.subregions.polygons)
    var generator = SplitMix64(seed: 97)
    let points = (0..<120).map { _ in
      layers.subregions.polygons.pointNearAVertex(within: 0.2, using: &generator)
    }
    let batch = try Self.batch.placemarks(for: points, fields: .boundaries)
    var measured = 0
    for (point, batchPlacemark) in zip(points, batch) {
      let placemark = try Self.oneOff.placemark(for: point, indexes: nil, fields: .boundaries)
      #expect(batchPlacemark.boundaryKm == placemark.boundaryKm, "\(point)")
      guard let subregion = batchPlacemark.boundaryKm?.subregion else { continue }
      measured += 1
      let nearest = subregions.nearest(to: SphereGeometry.unitVector(point)) * SphereGeometry.radiusKm
      #expect(abs(subregion - nearest) < 1e-6, "\(point): \(subregion) \(nearest)")
    }
    #expect(measured > 60, "\(measured) of \(points.count) measured")
  }

  /// Asked alone, the distances are those of the whole placemark.
  @Test func askedAlone() throws {
    for point in try Self.points(count: 8) {
      let whole = try Self.oneOff.placemark(for: point, indexes: nil, fields: .all)
      let alone = try Self.oneOff.placemark(for: point, indexes: nil, fields: .boundaries)
      #expect(alone.boundaryKm == whole.boundaryKm)
      #expect(alone.region == nil && alone.country == nil)
    }
  }
}
