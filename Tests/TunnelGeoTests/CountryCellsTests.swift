import Foundation
import RandomPoints
import SeededRandom
import Testing

@testable import TunnelGeo

/// The 1° cells that settle a point's own country give the country the lookups find for every point in
/// them: inside, on their edges, and a rounding unit outside.
@Suite struct CountryCellsTests {
  @Test("A settled cell's country is every point's own country, by the indexes and by the layers")
  func settledCellsAgreeWithTheLookups() throws {
    let geocoder = BatchIndexTests.indexed
    let indexes = try geocoder.preparedIndexes([.countries, .timeZones])
    let cells = try #require(indexes.countryCells)
    let countries = try #require(indexes.countries)
    let indexed = PlacemarkAssembly(lookups: indexes)
    let layered = PlacemarkAssembly(lookups: LayerLookups(layers: try geocoder.placemarkLayers()))
    let settled = cells.settledCount
    let all = PolygonGrid.rows * PolygonGrid.columns
    // The open sea and the inland far from borders: most cells.
    #expect(settled > all / 2, "\(settled) of \(all) cells settled")
    var generator = SplitMix64(seed: 43)
    let unit = 1 / Double(countries.layer.unitsPerDegree)
    var checked = 0
    func check(_ coordinate: Coordinate) {
      guard let known = indexes.settledCountry(at: coordinate) else { return }
      checked += 1
      let vector = SphereGeometry.unitVector(coordinate)
      let found = indexed.ownCountry(at: coordinate, vector)
      #expect(
        found == known,
        "\(coordinate): settled \(String(describing: known)), found \(String(describing: found))")
      if checked % 8 == 0 {
        #expect(layered.ownCountry(at: coordinate, vector) == known, "\(coordinate): by the layers")
      }
    }
    for _ in 0..<20_000 { check(Coordinate.random(using: &generator)) }
    // The edges and corners of random settled cells, and half a unit (and a little more) past them.
    var cornersChecked = 0
    while cornersChecked < 3_000 {
      let cell = Int(generator.next() % UInt64(all))
      guard cells.country(ofCell: cell) != nil else { continue }
      cornersChecked += 1
      let box = countries.degreeBox(ofCell: cell)
      for (latitude, longitude) in [(box.south, box.west), (box.north, box.east), (box.south, box.east)] {
        for step in [-0.6, -0.5, -0.4, 0, 0.4, 0.5, 0.6] {
          let moved = (latitude + step * unit, longitude + step * unit)
          let share = Double(generator.next() % 1_000) / 1_000
          for (y, x) in [moved, (moved.0, box.west + share), (box.south + share, moved.1)]
          where (-90...90).contains(y) {
            check(try Coordinate(latitude: y, longitude: x >= 180 ? x - 360 : x < -180 ? x + 360 : x))
          }
        }
      }
    }
    #expect(checked > 60_000)
  }
}
