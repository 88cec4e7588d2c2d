import Foundation
import Testing

@testable import TunnelGeo

/// The public values as a library user meets them: printed, stored, and asked for from concurrent code.
@Suite struct LibraryValuesTests {
  static let data = try! PlaceData()
  static let geocoder = ReverseGeocoder(data: data)

  @Test("Placemarks and their parts print as one readable line")
  func descriptions() throws {
    let land = try Self.geocoder.placemark(for: Coordinate(latitude: 56, longitude: 8.5))
    #expect(
      land.description
        == "land in Denmark (DK), Midtjylland (DK-82); nearest place Skjern (DK), 5.6 km away; Europe/Copenhagen; at 56, 8.5"
    )
    let sea = try Self.geocoder.placemark(for: Coordinate(latitude: 16.191796, longitude: -170.996128))
    #expect(
      sea.description.hasPrefix("North Pacific Ocean; nearest land Johnston Island (UM), 164.9 km away at "))
    #expect(sea.description.hasSuffix("; Etc/GMT+11; at 16.191796, -170.996128"))
    let countryOnly = try Self.geocoder.placemark(
      for: Coordinate(latitude: 56, longitude: 8.5), fields: .country)
    #expect(!countryOnly.description.contains("nearest place"))
    let skjern = try #require(try Gazetteer(data: Self.data).search("Skjern", limit: 1).matches.first)
    #expect(skjern.description == "Skjern, Midtjylland, DK (population 7145) at 55.950000, 8.500000")
    let query = try LocationQuery("Skjern") { () throws(PlaceDataError) in try Gazetteer(data: Self.data) }
    #expect(query.description == "Skjern at 55.950000, 8.500000")
  }

  @Test("The values a user would store survive JSON; a stored coordinate out of range is refused")
  func codable() throws {
    let placemark = try Self.geocoder.placemark(for: Coordinate(latitude: -33.9, longitude: 18.4))
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let decoder = JSONDecoder()
    // Numbers are stored as they are: stored again, the bytes are the same.
    let stored = try encoder.encode(placemark)
    let decoded = try decoder.decode(Placemark.self, from: stored)
    #expect(try encoder.encode(decoded) == stored)
    #expect(decoded.country == placemark.country && decoded.nearestPlace.name == placemark.nearestPlace.name)
    #expect(abs(decoded.nearestPlace.distanceKm - placemark.nearestPlace.distanceKm) < 1e-6)
    let query = try LocationQuery("Skjern") { () throws(PlaceDataError) in try Gazetteer(data: Self.data) }
    #expect(try decoder.decode(LocationQuery.self, from: encoder.encode(query)) == query)
    let place = try #require(query.place?.place)
    #expect(try decoder.decode(Place.self, from: encoder.encode(place)) == place)
    #expect(throws: DecodingError.self) {
      try decoder.decode(Coordinate.self, from: Data(#"{"latitude":91,"longitude":0}"#.utf8))
    }
  }

  @Test("placemark(for:) awaited from many tasks gives the answers the synchronous call gives")
  func concurrent() async throws {
    var points: [Coordinate] = []
    for step in 0..<16 {
      points.append(try Coordinate(latitude: Double(step * 10 - 80), longitude: Double(step * 22 - 170)))
    }
    var expected: [Placemark?] = []
    for point in points { expected.append(try Self.geocoder.placemark(for: point, fields: .all)) }
    let found = try await withThrowingTaskGroup(of: (Int, Placemark).self) { group in
      for (index, point) in points.enumerated() {
        group.addTask { (index, try await Self.geocoder.placemark(for: point)) }
      }
      var answers = [Placemark?](repeating: nil, count: points.count)
      for try await (index, placemark) in group { answers[index] = placemark }
      return answers
    }
    #expect(found == expected)
  }
}
