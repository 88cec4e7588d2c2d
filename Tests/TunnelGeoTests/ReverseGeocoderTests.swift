import Foundation
import RandomPoints
import SeededRandom
import Synchronization
import Testing

@testable import TunnelGeo

/// The checked facts of the place data, answered by the reverse geocoder.
@Suite struct ReverseGeocoderTests {
  static let geocoder = ReverseGeocoder(data: try! PlaceData())

  static func placemark(_ latitude: Double, _ longitude: Double) throws -> Placemark {
    try geocoder.placemark(for: try Coordinate(latitude: latitude, longitude: longitude))
  }

  @Test func westernJutland() throws {
    let here = try Self.placemark(56.0, 8.5)
    #expect(here.land)
    #expect(here.country == Placemark.Country(code: "DK", name: "Denmark"))
    #expect(here.region == Placemark.Region(code: "DK-82", name: "Midtjylland"))
    #expect(here.nearestPlace.name == "Skjern")
    #expect(abs(here.nearestPlace.distanceKm - 5.6) < 0.1)
    #expect(here.timeZone.identifier == "Europe/Copenhagen")
    #expect(here.sea == nil && here.nearestLand == nil && !here.inLake)
    #expect(here.name == "Skjern" && here.locality == "Skjern")
    #expect(here.administrativeArea == "Midtjylland" && here.isoCountryCode == "DK")
  }

  @Test func antipodeOfWesternJutland() throws {
    let there = try Self.placemark(-56.0, -171.5)
    #expect(!there.land)
    #expect(there.country == nil && there.region == nil)
    #expect(there.sea == "South Pacific Ocean")
    #expect(there.ocean == "South Pacific Ocean" && there.name == "South Pacific Ocean")
    #expect(there.timeZone.identifier == "Etc/GMT+11")
    #expect(there.nearestPlace.name == "Waitangi")
    #expect(abs(there.nearestPlace.distanceKm - 1_387) < 5)
    let land = try #require(there.nearestLand)
    // The Antipodes Islands (49.7 S, 178.8 E); 951.5 km on WGS84, within 0.5 % on the sphere.
    #expect(abs(land.distanceKm - 951.5) < 5)
    #expect(abs(land.latitude - -49.7) < 0.2 && abs(land.longitude - 178.7) < 0.3)
    #expect(land.country?.code == "NZ")
  }

  @Test(arguments: [
    (56.0, 7.5, "North Sea"), (-40.0, 160.0, "Tasman Sea"), (57.0, 11.5, "Kattegat"),
    (58.0, 20.0, "Baltic Sea"),
    (-65.0, -100.0, "Southern Ocean"),
  ])
  func namedSeas(latitude: Double, longitude: Double, sea: String) throws {
    let there = try Self.placemark(latitude, longitude)
    #expect(!there.land)
    #expect(there.sea == sea)
    #expect(there.nearestLand != nil)
  }

  @Test func copenhagenCityHallIsInDenmarkByTheCoastalTolerance() throws {
    let coordinate = try Coordinate(latitude: 55.6761, longitude: 12.5683)
    let countries = try Self.geocoder.data.countries()
    #expect(countries.countries(containing: coordinate).isEmpty)
    let here = try Self.geocoder.placemark(for: coordinate)
    #expect(here.country?.code == "DK")
    #expect(here.region?.code == "DK-84")
    #expect(here.nearestPlace.name == "Copenhagen")
    #expect(here.timeZone.identifier == "Europe/Copenhagen")
  }

  @Test func madridsAntipodeIsInNewZealand() throws {
    let there = try Self.geocoder.placemark(
      for: try Coordinate(latitude: 40.4165, longitude: -3.70256).antipode)
    #expect(there.country?.code == "NZ")
    #expect(there.nearestPlace.countryCode == "NZ")
  }

  @Test func wellingtonsAntipodeIsInSpainNextToAlaejos() throws {
    let there = try Self.geocoder.placemark(
      for: try Coordinate(latitude: -41.28664, longitude: 174.77557).antipode)
    #expect(there.land)
    #expect(there.country?.code == "ES")
    #expect(there.nearestPlace.name == "Alaejos")
    #expect(there.nearestPlace.distanceKm < 10)
    #expect(there.timeZone.identifier == "Europe/Madrid")
  }

  @Test func aLakeIsNeitherLandNorOcean() throws {
    // Lake Victoria, between Uganda, Kenya and Tanzania.
    let there = try Self.placemark(-1.0, 33.0)
    #expect(!there.land)
    #expect(there.inLake)
    #expect(there.sea == nil && there.ocean == nil)
    #expect(there.inlandWater != nil)
    #expect(there.nearestLand != nil)
  }

  @Test(arguments: [-180.0, -172.5, -171.5, -7.4, 0, 7.6, 172.4, 179.9])
  func oceanZonesFollowTheLongitude(longitude: Double) {
    let hours = Int((longitude / 15).rounded())
    let zone = ReverseGeocoder.oceanZone(longitude: longitude)
    #expect(zone == (hours == 0 ? "Etc/GMT" : hours > 0 ? "Etc/GMT-\(hours)" : "Etc/GMT+\(-hours)"))
  }

  @Test func placemarksEncodeEveryKeyWithNulls() throws {
    let there = try Self.placemark(-56.0, -171.5)
    let json = try #require(String(data: try JSONEncoder().encode(there), encoding: .utf8))
    for key in [
      "latitude", "longitude", "land", "country", "region", "sea", "nearestPlace", "nearestLand", "timeZone",
    ] {
      #expect(json.contains("\"\(key)\":"), "\(key) in \(json)")
    }
    #expect(json.contains("\"country\":null"))
    let decoded = try JSONDecoder().decode(Placemark.self, from: Data(json.utf8))
    #expect(decoded.sea == there.sea && decoded.nearestPlace.name == there.nearestPlace.name)
  }

  @Test func batchPlacemarksKeepOrderAndMatchSingleOnes() throws {
    var generator = SplitMix64(seed: 17)
    let points = (0..<40).map { _ in Coordinate.random(using: &generator) }
    let batch = try Self.geocoder.placemarks(for: points)
    #expect(batch.count == points.count)
    for (point, placemark) in zip(points, batch) {
      #expect(try Self.geocoder.placemark(for: point) == placemark)
    }
  }
}

/// With its batch indexes built, the geocoder gives exactly the placemarks of its one-off searches.
@Suite struct BatchIndexTests {
  static let data = try! PlaceData()
  static let indexed: ReverseGeocoder = {
    let geocoder = ReverseGeocoder(data: data)
    try! geocoder.prepareForBatch()
    return geocoder
  }()
  static let plain = ReverseGeocoder(data: data)

  /// Uniform points, points a few kilometres off random coastline vertices (where the tolerances and
  /// the nearest-sea fallback decide), and the checked facts.
  static func points() throws -> [Coordinate] {
    var generator = SplitMix64(seed: 23)
    var points = (0..<150).map { _ in Coordinate.random(using: &generator) }
    let coast = try data.coastline(.high).polygons
    for _ in 0..<60 { points.append(coast.pointNearAVertex(within: 0.05, using: &generator)) }
    for (latitude, longitude) in [
      (56.0, 8.5), (-56.0, -171.5), (55.6761, 12.5683), (56.0, 7.5), (-40.0, 160.0), (57.0, 11.5),
      (58.0, 20.0),
      (-65.0, -100.0), (47.7, -87.5), (90.0, 0.0), (-90.0, 0.0), (0.0, -180.0),
    ] {
      points.append(try Coordinate(latitude: latitude, longitude: longitude))
    }
    return points
  }

  @Test func indexedPlacemarksEqualOneOffPlacemarks() throws {
    var differences = 0
    for point in try Self.points() {
      let expected = try Self.plain.placemark(for: point, indexes: nil)
      let found = try Self.indexed.placemark(for: point)
      if expected != found {
        differences += 1
        if differences <= 3 { Issue.record("\(point):\n  one-off \(expected)\n  indexed \(found)") }
      }
    }
    #expect(differences == 0)
  }

  /// Keys found together (``ReverseGeocoder/placemarkKeys(for:fields:threads:)``: each polygon layer's
  /// lookups of a block of points in one walk down its grid) stand for the one-off placemarks, also where
  /// the walks of neighbouring points part: near coasts, country borders, the time zones' and the named
  /// seas' edges and in lakes, in blocks that end short; with the boundaries' distances and the nearest land,
  /// in spatial order.
  @Test(arguments: [
    Placemark.Fields.land, .country, .timeZone, .sea, .region, [.land, .country, .timeZone],
    [.land, .sea, .timeZone], [.region, .country, .sea], .boundaries, [.boundaries, .region, .timeZone],
    .nearestLand, [.nearestLand, .land, .country, .sea],
  ])
  func keysFoundTogetherEqualOneOffPlacemarks(_ fields: Placemark.Fields) throws {
    var points = try Self.points()
    var generator = SplitMix64(seed: 53)
    for layer in [
      try Self.data.countries().polygons, try Self.data.timeZones().polygons, try Self.data.marine().polygons,
      try Self.data.lakes().polygons, try Self.data.regions().polygons, try Self.data.subregions().polygons,
    ] {
      for _ in 0..<300 { points.append(layer.pointNearAVertex(within: 0.02, using: &generator)) }
    }
    // In lakes of several names, in water GSHHG draws as sea, and far from every named sea.
    for (latitude, longitude) in [
      (45.78, -85.05), (45.8, -84.6), (42.45, -82.75), (40.0, 50.0), (52.75, 5.4), (54.4, 19.7),
      (-60.0, -140.0),
    ] {
      points.append(try Coordinate(latitude: latitude, longitude: longitude))
    }
    // Longer than a batch's threshold, so that the indexes answer, and not a multiple of any block.
    while points.count <= ReverseGeocoder.batchIndexThreshold + 37 { points += points.prefix(400) }
    let keys = try Self.indexed.searchedKeys(for: points, fields: fields, threads: 2)
    var differences = 0
    for (point, key) in zip(points, keys) {
      let expected = try Self.plain.placemark(for: point, indexes: nil, fields: fields)
      let found = try Self.indexed.placemark(of: key.key, search: key.search)
      if found.land != expected.land || found.country != expected.country
        || found.timeZone != expected.timeZone || found.sea != expected.sea || found.lake != expected.lake
        || found.inLake != expected.inLake || found.region != expected.region
        || found.subregion != expected.subregion || found.boundaryKm != expected.boundaryKm
        || found.nearestLand != expected.nearestLand
      {
        differences += 1
        if differences <= 3 { Issue.record("\(point):\n  one-off \(expected)\n  key \(found)") }
      }
    }
    #expect(differences == 0, "\(differences) of \(points.count)")
  }

  /// A placemark of some fields holds the whole placemark's values in them and empty values elsewhere,
  /// one-off and from indexes built for those fields alone (whose other lookups go to the mapped layers).
  @Test(arguments: [Placemark.Fields.country, .region, .sea, .timeZone, [.land, .nearestPlace]])
  func fieldsAloneEqualTheWholePlacemark(_ fields: Placemark.Fields) throws {
    var points = try Self.points()
    var generator = SplitMix64(seed: 47)
    let borders = try Self.data.countries().polygons
    for _ in 0..<40 { points.append(borders.pointNearAVertex(within: 0.05, using: &generator)) }
    let partial = ReverseGeocoder(data: Self.data)
    try partial.prepareForBatch(fields: fields)
    let parts = try partial.preparedIndexes(BatchIndexes.Parts(fields)).parts
    #expect(parts == BatchIndexes.Parts(fields))
    for point in points {
      let whole = try Self.plain.placemark(for: point, indexes: nil)
      for found in [
        try Self.plain.placemark(for: point, indexes: nil, fields: fields),
        try partial.placemark(for: point, fields: fields),
      ] {
        #expect(found.land == (fields.contains(.land) && whole.land), "\(point)")
        #expect(found.country == (fields.contains(.country) ? whole.country : nil), "\(point)")
        #expect(found.region == (fields.contains(.region) ? whole.region : nil), "\(point)")
        #expect(found.sea == (fields.contains(.sea) ? whole.sea : nil), "\(point)")
        #expect(found.lake == (fields.contains(.sea) ? whole.lake : nil), "\(point)")
        #expect(found.inLake == (fields.contains(.sea) && whole.inLake), "\(point)")
        #expect(
          found.nearestPlace == (fields.contains(.nearestPlace) ? whole.nearestPlace : NearestPlace.unasked))
        #expect(found.nearestLand == (fields.contains(.nearestLand) ? whole.nearestLand : nil), "\(point)")
        #expect(
          found.timeZone.identifier == (fields.contains(.timeZone) ? whole.timeZone.identifier : ""),
          "\(point)")
      }
    }
  }

  /// Indexes built for some fields grow to more when a batch asks for more, keeping what they had.
  @Test func indexesGrowWithTheFieldsAsked() throws {
    let geocoder = ReverseGeocoder(data: Self.data)
    try geocoder.prepareForBatch(fields: .country)
    let first = try geocoder.preparedIndexes(.countries)
    // The country near a border reads the time zones too; without a cache folder, nothing of the
    // coastline (SmallIslandTests has the small islands' tree, read from one).
    #expect(first.parts == [.countries, .timeZones] && first.coast == nil && first.shores == nil)
    #expect(first.smallIslandShores == nil)
    #expect(first.marine == nil)
    try geocoder.prepareForBatch(fields: .sea)
    let second = try geocoder.preparedIndexes()
    #expect(second.parts == .all)
    #expect(second.countries === first.countries)
    #expect(second.shores != nil && second.smallIslandShores == nil)
    let point = try Coordinate(latitude: -56, longitude: -171.5)
    #expect(try geocoder.placemark(for: point) == Self.plain.placemark(for: point, indexes: nil))
  }

  /// Indexes built for the time zones alone grow to the countries: the countries' clearance is built then
  /// (indexes without the countries hold an empty one, which a growth took for theirs and read past).
  @Test func indexesForTimeZonesGrowToCountries() throws {
    let geocoder = ReverseGeocoder(data: Self.data)
    try geocoder.prepareForBatch(fields: .timeZone)
    #expect(try geocoder.preparedIndexes(.timeZones).countries == nil)
    try geocoder.prepareForBatch(fields: .country)
    let grown = try geocoder.preparedIndexes(.countries)
    #expect(grown.countryClearance.count == grown.countries?.cells.nodes.count)
    for point in try Self.points() {
      #expect(
        try geocoder.placemark(for: point, fields: .country)
          == Self.plain.placemark(for: point, indexes: nil, fields: .country), "\(point)")
    }
  }

  /// Single lookups on other threads while the indexes are built and grown read each published set whole
  /// (or none yet), and answer as the one-off searches do throughout.
  @Test func lookupsWhileTheIndexesArePublished() throws {
    let geocoder = ReverseGeocoder(data: Self.data)
    let fields: Placemark.Fields = [.land, .country, .timeZone, .sea]
    let points = try Self.points()
    let expected = try points.map { try Self.plain.placemark(for: $0, indexes: nil, fields: fields) }
    let mismatches = Atomic(0)
    let failures = Atomic(0)
    DispatchQueue.concurrentPerform(iterations: 3) { worker in
      do {
        if worker == 0 {
          try geocoder.prepareForBatch(fields: .timeZone)
          try geocoder.prepareForBatch(fields: .country)
          try geocoder.prepareForBatch(fields: fields)
          return
        }
        for _ in 0..<4 {
          for (point, answer) in zip(points, expected)
          where try geocoder.placemark(for: point, fields: fields) != answer {
            mismatches.add(1, ordering: .relaxed)
          }
        }
      } catch {
        failures.add(1, ordering: .relaxed)
      }
    }
    #expect(failures.load(ordering: .relaxed) == 0)
    #expect(mismatches.load(ordering: .relaxed) == 0)
    #expect(try geocoder.preparedIndexes(.countries).parts.isSuperset(of: [.countries, .timeZones]))
  }

  /// Pairs of sea points a few kilometres apart mostly share their nearest shore point, so the second of
  /// each pair reuses what was found for the first: both must still equal the one-off answers.
  @Test func rememberedShorePointsGiveTheOneOffAnswers() throws {
    let geocoder = ReverseGeocoder(data: Self.data)
    try geocoder.prepareForBatch()
    let indexes = try geocoder.preparedIndexes()
    var generator = SplitMix64(seed: 31)
    var pairs = 0
    var shared = 0
    while pairs < 25 {
      let first = Coordinate.random(using: &generator)
      guard try !geocoder.placemark(for: first).land, abs(first.latitude) < 80 else { continue }
      let second = try Coordinate(latitude: first.latitude + 0.02, longitude: first.longitude)
      pairs += 1
      var counts: [Int] = []
      for point in [first, second] {
        #expect(try geocoder.placemark(for: point) == Self.plain.placemark(for: point, indexes: nil))
        counts.append(indexes.rememberedShorePointCount)
      }
      if counts[1] == counts[0] { shared += 1 }
    }
    #expect(indexes.rememberedShorePointCount > 0)
    // Most pairs share their shore point: the second point's description was the first's.
    #expect(shared >= 10)
  }

  /// The cache of shoreline descriptions holds at most one point per slot, whatever the batch, and gives
  /// back what was kept for a point, or nothing: never another point's description.
  @Test func shoreDescriptionCacheKeepsAFixedNumberOfPoints() {
    var cache = ShoreDescriptionCache()
    var generator = SplitMix64(seed: 43)
    let points = (0..<(2 * ShoreDescriptionCache.slotCount)).map { _ in
      SphereGeometry.unitVector(Coordinate.random(using: &generator))
    }
    func description(_ index: Int) -> ShoreDescription {
      ShoreDescription(
        country: index % 250, island: index % 3 == 0 ? nil : index, place: index % 7 == 0 ? nil : index)
    }
    for (index, point) in points.enumerated() { cache[ShorePoint(point)] = description(index) }
    #expect(cache.count <= ShoreDescriptionCache.slotCount)
    #expect(cache.count > ShoreDescriptionCache.slotCount / 2)
    var found = 0
    for (index, point) in points.enumerated() {
      guard let kept = cache[ShorePoint(point)] else { continue }
      found += 1
      #expect(kept == description(index))
    }
    #expect(found == cache.count)
    // The last point took its slot last.
    #expect(cache[ShorePoint(points[points.count - 1])] == description(points.count - 1))
  }

  /// Building the indexes lets the vertex streams' pages go; reading a ring afterwards pages it back in,
  /// unchanged.
  @Test func releasedVertexStreamsReadTheSame() throws {
    _ = try Self.indexed.preparedIndexes()
    let released = try Self.data.coastline(.high).polygons
    let reopened = try PlaceData().coastline(.high).polygons
    for ring in stride(from: 0, to: released.ringCount, by: 4_999) {
      var before: [FixedPoint] = []
      var after: [FixedPoint] = []
      reopened.forEachVertex(ofRing: ring) { before.append($0) }
      released.forEachVertex(ofRing: ring) { after.append($0) }
      #expect(!after.isEmpty && after == before)
    }
  }

  /// A country leaf's clearance never exceeds the distance from a point in it to the nearest border.
  @Test func countryBordersAreFartherWhenTheClearancesSaySo() throws {
    let indexes = try Self.indexed.preparedIndexes()
    var generator = SplitMix64(seed: 37)
    var cleared = 0
    for round in 0..<2_000 {
      let point = Coordinate.random(using: &generator)
      let vector = SphereGeometry.unitVector(point)
      let limit = [1.0, 5.0, 25.0, 80.0][round % 4] / SphereGeometry.radiusKm
      guard indexes.countryBorders(fartherThan: limit, from: point, vector) else { continue }
      cleared += 1
      let nearest = try #require(indexes.countryBorders?.nearest(to: vector))
      #expect(nearest.angle > limit, "\(point): border at \(nearest.angle), not farther than \(limit)")
    }
    #expect(cleared > 500)
  }

  /// A batch long enough to be answered in spatial order still hands back the placemarks in input
  /// order, on one thread or several.
  @Test func batchesInSpatialOrderKeepTheInputOrder() throws {
    var generator = SplitMix64(seed: 43)
    let points = (0..<(SpatialOrder.threshold + 500)).map { _ in Coordinate.random(using: &generator) }
    let single = try points.map { try Self.indexed.placemark(for: $0) }
    #expect(try Self.indexed.placemarks(for: points, threads: 1) == single)
    #expect(try Self.indexed.placemarks(for: points, threads: 3) == single)
    let places = try Self.indexed.nearestPlaces(to: points, threads: 2)
    #expect(places == single.map(\.nearestPlace))
  }

  /// The streamed batch hands over every placemark once, in order, in chunks of the size asked for.
  @Test func streamedPlacemarksComeInOrderAndInChunks() throws {
    var generator = SplitMix64(seed: 41)
    let points = (0..<2_500).map { _ in Coordinate.random(using: &generator) }
    var streamed: [Placemark] = []
    var sizes: [Int] = []
    try Self.indexed.forEachPlacemark(of: points, chunkSize: 1_000) { chunk in
      sizes.append(chunk.count)
      streamed += chunk
    }
    #expect(sizes == [1_000, 1_000, 500])
    #expect(streamed == (try Self.indexed.placemarks(for: points)))
    // An empty sequence calls nothing; a failing body stops the walk with its error.
    try Self.indexed.forEachPlacemark(of: [Coordinate]()) { _ in Issue.record("called for nothing") }
    struct Stop: Error {}
    var calls = 0
    #expect(throws: Stop.self) {
      try Self.indexed.forEachPlacemark(of: points, chunkSize: 1_000) { _ in
        calls += 1
        throw Stop()
      }
    }
    #expect(calls == 1)
  }

  @Test func theAntipodeOfWesternJutlandFacesAntipodesIsland() throws {
    for geocoder in [Self.indexed, Self.plain] {
      let land = try #require(
        try geocoder.placemark(for: Coordinate(latitude: -56, longitude: -171.5)).nearestLand)
      #expect(land.island == "Antipodes Island")
      #expect(land.name == "Antipodes Island")
      #expect(land.country?.code == "NZ")
    }
    // Off Waitangi the shore has a place of its own: the name is the place's, the island is still said.
    for geocoder in [Self.indexed, Self.plain] {
      let chatham = try #require(
        try geocoder.placemark(for: Coordinate(latitude: -43.93, longitude: -176.65)).nearestLand)
      #expect(chatham.name == "Waitangi" && chatham.island == "Chatham Island")
      // Jutland is part of the mainland: no island.
      let jutland = try #require(
        try geocoder.placemark(for: Coordinate(latitude: 56, longitude: 7.9)).nearestLand)
      #expect(jutland.name == "Hvide Sande" && jutland.island == nil)
    }
  }
}
