import Foundation
import RandomPoints
import SeededRandom
import Testing

@testable import TunnelGeo

/// The nearest-place search is exact: it agrees with a brute-force scan over every place.
@Suite struct NearestPlaceTests {
  static let data: PlaceData = try! PlaceData()
  static let geocoder = ReverseGeocoder(data: data)
  static let places = try! data.places()
  static let vectors = PlaceVectorArray(places: places)

  /// Every place's unit vector as three flat arrays, for a scan that stays quick without optimisation.
  static let flat: (x: [Double], y: [Double], z: [Double]) = {
    var x = [Double](repeating: 0, count: places.count)
    var y = x
    var z = x
    for index in 0..<places.count {
      let vector = vectors.vector(index)
      x[index] = vector.x
      y[index] = vector.y
      z[index] = vector.z
    }
    return (x, y, z)
  }()

  /// The place with the smallest squared chord, scanning all of them (lower index on ties).
  static func bruteForce(
    _ query: SIMD3<Double>, accept: (Int) -> Bool = { _ in true }
  ) -> (index: Int, chordSquared: Double) {
    var best = -1
    var bestSquared = Double.infinity
    let (qx, qy, qz) = (query.x, query.y, query.z)
    flat.x.withUnsafeBufferPointer { xs in
      flat.y.withUnsafeBufferPointer { ys in
        flat.z.withUnsafeBufferPointer { zs in
          let (px, py, pz) = (xs.baseAddress!, ys.baseAddress!, zs.baseAddress!)
          var index = 0
          let count = xs.count
          while index < count {
            let dx = px[index] - qx
            let dy = py[index] - qy
            let dz = pz[index] - qz
            let squared = dx * dx + dy * dy + dz * dz
            if squared < bestSquared && accept(index) {
              best = index
              bestSquared = squared
            }
            index &+= 1
          }
        }
      }
    }
    return (best, bestSquared)
  }

  /// Whether the search's answer is the brute-force one, or a tie with it to within a millimetre.
  static func agrees(_ query: Coordinate, minimumPopulation: Int = 0) throws -> Bool {
    let vector = SphereGeometry.unitVector(query)
    let expected = bruteForce(vector) { places.population(at: $0) >= minimumPopulation }
    let found = try #require(try geocoder.nearestPlace(to: query, minimumPopulation: minimumPopulation))
    if found.index == expected.index { return true }
    let foundSquared = SphereGeometry.chordSquared(vector, vectors.vector(found.index))
    let metres =
      abs(
        SphereGeometry.angle(chordSquared: foundSquared)
          - SphereGeometry.angle(chordSquared: expected.chordSquared))
      * WGS84.meanRadius
    return metres < 1e-3
  }

  @Test func tenThousandUniformPointsMatchBruteForce() throws {
    var generator = SplitMix64(seed: 20_260_504)
    var mismatches: [Coordinate] = []
    for _ in 0..<10_000 {
      let point = Coordinate.random(using: &generator)
      if try !Self.agrees(point) { mismatches.append(point) }
    }
    #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, e.g. \(mismatches.prefix(5))")
  }

  @Test func polesAndAntimeridianMatchBruteForce() throws {
    var points: [Coordinate] = []
    var generator = SplitMix64(seed: 7)
    for latitude in [90.0, -90, 89.999, -89.999, 88, -88, 80, -80, 66.5, -66.5, 0] {
      for longitude in [-180.0, -179.9999, 179.9999, 179.5, -179.5, 0, 90, -90] {
        points.append(try Coordinate(latitude: latitude, longitude: longitude))
      }
    }
    for _ in 0..<500 {
      let latitude = Double.random(in: -90...90, using: &generator)
      let longitude = 180 + Double.random(in: -2...2, using: &generator)
      points.append(try Coordinate(latitude: latitude, longitude: longitude))
      let polar = Double.random(in: 80...90, using: &generator) * (Bool.random(using: &generator) ? 1 : -1)
      points.append(
        try Coordinate(latitude: polar, longitude: Double.random(in: -180..<180, using: &generator)))
    }
    for point in points { #expect(try Self.agrees(point), "\(point)") }
  }

  @Test func placesThemselvesAreTheirOwnNearest() throws {
    var generator = SplitMix64(seed: 11)
    for _ in 0..<2_000 {
      let index = Int.random(in: 0..<Self.places.count, using: &generator)
      let found = try #require(try Self.geocoder.nearestPlace(to: Self.places.coordinate(at: index)))
      #expect(found.distanceKm < 1e-6)
    }
  }

  @Test(arguments: [1_000, 100_000, 5_000_000])
  func minimumPopulationMatchesBruteForce(minimum: Int) throws {
    var generator = SplitMix64(seed: UInt64(minimum))
    for _ in 0..<300 {
      let point = Coordinate.random(using: &generator)
      #expect(try Self.agrees(point, minimumPopulation: minimum), "\(point)")
    }
  }

  @Test func skjernIsNearestToWesternJutland() throws {
    let found = try #require(try Self.geocoder.nearestPlace(to: try Coordinate(latitude: 56, longitude: 8.5)))
    #expect(found.name == "Skjern")
    #expect(found.countryCode == "DK")
    #expect(abs(found.distanceKm - 5.6) < 0.1)
    #expect(found.population == 7_145)
  }

  @Test func waitangiIsNearestToTheAntipodeOfWesternJutland() throws {
    let found = try #require(
      try Self.geocoder.nearestPlace(to: try Coordinate(latitude: -56, longitude: -171.5)))
    #expect(found.name == "Waitangi")
    #expect(found.countryCode == "NZ")
    #expect(abs(found.distanceKm - 1_387) < 5)
  }

  @Test func batchGridMatchesBruteForce() throws {
    let index = try Self.geocoder.nearestPlaceIndex()
    var generator = SplitMix64(seed: 99)
    var points = (0..<10_000).map { _ in Coordinate.random(using: &generator) }
    for latitude in [90.0, -90, 89.99, -89.99, 45, 0, -45] {
      for longitude in [-180.0, -179.999, 179.999, 0, 45, 90, -90, 135, -135] {
        points.append(try Coordinate(latitude: latitude, longitude: longitude))
      }
    }
    var mismatches: [Coordinate] = []
    for point in points {
      let vector = SphereGeometry.unitVector(point)
      let expected = Self.bruteForce(vector)
      let found = index.nearestIndex(to: point)
      if found.index != expected.index {
        let metres = abs(
          found.distanceKm * 1000 - SphereGeometry.angle(chordSquared: expected.chordSquared)
            * WGS84.meanRadius)
        if metres >= 1e-3 { mismatches.append(point) }
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, e.g. \(mismatches.prefix(5))")
  }

  /// Queries looked up together, a group at a time (the last group short), find what each finds alone:
  /// the same place at the same squared chord, on uniform points, poles and the antimeridian, and the
  /// places themselves.
  @Test func groupedLookupsAreTheSingleOnes() throws {
    let grid = try Self.geocoder.preparedPlaceGrid()
    var generator = SplitMix64(seed: 101)
    var vectors = (0..<5_003).map { _ in SphereGeometry.unitVector(Coordinate.random(using: &generator)) }
    for latitude in [90.0, -90, 89.99, 0] {
      for longitude in [-180.0, 179.999, 0, 90] {
        vectors.append(SphereGeometry.unitVector(try Coordinate(latitude: latitude, longitude: longitude)))
      }
    }
    for _ in 0..<500 {
      vectors.append(Self.places.unitVector(at: Int.random(in: 0..<Self.places.count, using: &generator)))
    }
    var found = [(index: Int, chordSquared: Double)](repeating: (-1, 0), count: vectors.count)
    vectors.withUnsafeBufferPointer { vectors in
      found.withUnsafeMutableBufferPointer { grid.nearest(to: vectors, into: $0.baseAddress!) }
    }
    var mismatches = 0
    for (vector, together) in zip(vectors, found) {
      let alone = grid.nearest(to: vector)
      if alone.index != together.index || alone.chordSquared != together.chordSquared { mismatches += 1 }
    }
    #expect(mismatches == 0, "\(mismatches) of \(vectors.count)")
  }

  @Test func batchAPIKeepsOrder() throws {
    var generator = SplitMix64(seed: 5)
    let points = (0..<3_000).map { _ in Coordinate.random(using: &generator) }
    let batch = try Self.geocoder.nearestPlaces(to: points)
    #expect(batch.count == points.count)
    for (point, found) in zip(points, batch).prefix(300) {
      #expect(try Self.geocoder.nearestPlace(to: point)?.index == found.index)
    }
  }

  /// The indices and distances are those of the whole answers, with antipodes and a pole among the points.
  @Test func indicesAreTheAnswersIndices() throws {
    var generator = SplitMix64(seed: 6)
    let points =
      (0..<3_000).map { _ in Coordinate.random(using: &generator) } + [
        try Coordinate(latitude: 90, longitude: 0)
      ]
    let found = try Self.geocoder.nearestPlaceIndices(to: points, threads: 2)
    let answers = try Self.geocoder.nearestPlaces(to: points, threads: 2)
    #expect(
      found.map(\.index) == answers.map(\.index) && found.map(\.distanceKm) == answers.map(\.distanceKm))
  }

  /// Unit vectors take the sine and cosine together (sincos): the values must be sin's and cos's, or the
  /// cached grids and the answers would drift from those computed before.
  @Test func sineAndCosineTogetherAreSineAndCosine() {
    var generator = SplitMix64(seed: 7)
    for index in 0..<1_000_000 {
      let angle = Double.random(in: index % 2 == 0 ? -4...4 : -1e-3...1e-3, using: &generator)
      let together = SphereGeometry.sineCosine(angle)
      if together.sine != sin(angle) || together.cosine != cos(angle) {
        Issue.record("sincos(\(angle)) is \(together), not (\(sin(angle)), \(cos(angle)))")
        return
      }
    }
  }

  /// The nearest place of one country, from the per-country trees, is the full search's answer with a
  /// country filter: for random points, the countries of random places and several limits.
  @Test func countryTreesMatchTheFilteredSearch() throws {
    let index = CountryPlaceIndex(places: Self.places, vectors: Self.vectors)
    let search = NearestPlaceSearch(places: Self.places, vectors: MappedPlaceVectors(places: Self.places))
    var generator = SplitMix64(seed: 53)
    var found = 0
    for round in 0..<600 {
      let query = SphereGeometry.unitVector(Coordinate.random(using: &generator))
      let code = Self.places.countryCodeValue(at: Int.random(in: 0..<Self.places.count, using: &generator))
      let limit = [0.0005, 0.05, 0.5, 4.5][round % 4]
      let expected = search.nearest(to: query, within: limit) { Self.places.countryCodeValue(at: $0) == code }
      let answer = index.nearest(to: query, countryCode: code, within: limit)
      #expect(answer?.index == expected?.index && answer?.chordSquared == expected?.chordSquared)
      if answer != nil { found += 1 }
    }
    #expect(found > 100)
    // Every place is its own country's nearest.
    for place in stride(from: 0, to: Self.places.count, by: 997) {
      let answer = index.nearest(
        to: Self.vectors.vector(place), countryCode: Self.places.countryCodeValue(at: place), within: 4)
      #expect(answer?.chordSquared == 0)
    }
    // A code no place has, and one that is not two capital letters.
    let query = SphereGeometry.unitVector(latitude: 56, longitude: 8.5)
    #expect(index.nearest(to: query, countryCode: UInt16(0x5A) | UInt16(0x5A) << 8, within: 4) == nil)
    #expect(index.nearest(to: query, countryCode: 0x3132, within: 4) == nil)
  }
}
