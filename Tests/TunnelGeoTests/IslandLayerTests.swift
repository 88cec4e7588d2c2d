import Testing

@testable import TunnelGeo

/// The islands layer (World Data Bank II via mapdata's `worldHires`), checked against the source.
@Suite struct IslandLayerTests {
  static let data: PlaceData = try! PlaceData()

  @Test func opensWithOneNameAttribute() throws {
    let islands = try Self.data.islands()
    #expect(islands.polygons.attributeNames == ["name"])
    #expect(islands.polygons.featureCount == 1_795)
    #expect(islands.polygons.unitsPerDegree == 10_000)
  }

  @Test(arguments: [
    (-49.68, 178.77, "Antipodes Island"), (-54.42, 3.41, "Bouvet Island"), (-53.08, 73.5, "Heard Island"),
    (37.5, 14.0, "Sicily"), (-19.0, 47.0, "Madagascar"), (58.2, -6.6, "Isle of Lewis"),
  ])
  func islandsByName(latitude: Double, longitude: Double, name: String) throws {
    let islands = try Self.data.islands()
    #expect(islands.names(containing: try Coordinate(latitude: latitude, longitude: longitude)) == [name])
  }

  /// Jutland, Fairbanks (Alaska is part of a continent), Lake Victoria (water) and the open Pacific.
  @Test(arguments: [(56.0, 8.5), (64.8, -147.7), (-1.0, 33.0), (-56.0, -171.5)])
  func noIslandHere(latitude: Double, longitude: Double) throws {
    let islands = try Self.data.islands()
    #expect(islands.names(containing: try Coordinate(latitude: latitude, longitude: longitude)).isEmpty)
  }

  /// Wrangel Island crosses 180°: it is stored on both sides of the antimeridian.
  @Test(arguments: [179.5, -179.5])
  func wrangelIslandOnBothSidesOfTheAntimeridian(longitude: Double) throws {
    let islands = try Self.data.islands()
    #expect(
      islands.names(containing: try Coordinate(latitude: 71.2, longitude: longitude)) == ["Ostrov Vrangelya"])
  }

  @Test func nearestIslandToTheAntipodeOfJutlandIsAntipodesIsland() throws {
    let islands = try Self.data.islands()
    let polygons = islands.polygons
    let antipode = try Coordinate(latitude: -56, longitude: -171.5)
    var best = (distance: Double.infinity, feature: -1, vertex: antipode)
    for ring in 0..<polygons.ringCount {
      let feature = polygons.ring(ring).feature
      var vertices: [Coordinate] = []
      polygons.forEachVertex(ofRing: ring) { vertices.append(polygons.coordinate($0)) }
      for vertex in vertices {
        let distance = try Geodesic.distance(from: antipode, to: vertex)
        if distance < best.distance { best = (distance, feature, vertex) }
      }
    }
    #expect(islands.name(best.feature) == "Antipodes Island")
    #expect(abs(best.distance / 1_000 - 951) < 5)
    #expect(abs(best.vertex.latitude - -49.68) < 0.1 && abs(best.vertex.longitude - 178.77) < 0.1)
  }
}
