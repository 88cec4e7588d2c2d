import RandomPoints
import SeededRandom
import Testing

@testable import TunnelGeo

@Suite struct SpatialOrderTests {
  @Test func positionsAreAPermutationSortedByKeyWithTiesInInputOrder() throws {
    var generator = SplitMix64(seed: 5)
    var points = (0..<5_000).map { _ in Coordinate.random(using: &generator) }
    // Repeats and the corners of the grid.
    points += points.prefix(300)
    for (latitude, longitude) in [(-90.0, -180.0), (90.0, 179.999_999), (0.0, 0.0), (-90.0, -180.0)] {
      points.append(try Coordinate(latitude: latitude, longitude: longitude))
    }
    let positions = points.withUnsafeBufferPointer(SpatialOrder.positions).map(Int.init)
    #expect(positions.sorted() == Array(points.indices))
    for (before, after) in zip(positions, positions.dropFirst()) {
      let (a, b) = (SpatialOrder.key(points[before]), SpatialOrder.key(points[after]))
      #expect(a < b || (a == b && before < after), "\(points[before]) before \(points[after])")
    }
  }

  @Test func keysInterleaveLatitudeAndLongitude() throws {
    #expect(SpatialOrder.key(try Coordinate(latitude: -90, longitude: -180)) == 0)
    // Longitude takes the even bits, latitude the odd ones; the last column (2,047) is 180° itself,
    // which a longitude never reaches.
    #expect(SpatialOrder.bitsPerAxis == 11)
    let east = SpatialOrder.key(try Coordinate(latitude: -90, longitude: 179.999_999_9))
    let north = SpatialOrder.key(try Coordinate(latitude: 90, longitude: -180))
    #expect(east == 0x15_5554 && north == 0x2A_AAAA)
    // Nearby points share their leading bits; points 10 km apart are in cells side by side.
    let here = SpatialOrder.key(try Coordinate(latitude: 56, longitude: 8.5))
    let near = SpatialOrder.key(try Coordinate(latitude: 56.001, longitude: 8.501))
    #expect((here ^ near) >> 2 == 0)
    let across = SpatialOrder.key(try Coordinate(latitude: 56.1, longitude: 8.5))
    #expect(across != here && (here ^ across) >> 12 == 0)
  }

  @Test func theLandTheCountryAndTheTimeZoneAloneAreNotSorted() {
    #expect(!SpatialOrder.pays(for: [.land, .country, .timeZone]))
    #expect(!SpatialOrder.pays(for: .timeZone))
    #expect(!SpatialOrder.pays(for: []))
    for field: Placemark.Fields in [.nearestPlace, .region, .sea, .nearestLand, .boundaries, .all] {
      #expect(SpatialOrder.pays(for: field.union(.country)))
    }
  }
}
