import Foundation
import Testing

@testable import TunnelGeo

/// Second-level regions (``SubregionLayer``): the counties of the contiguous United States and the
/// départements of metropolitan France, drawn by the R maps databases and named by GeoNames. The facts are
/// GeoNames' own (the admin-2 division its places carry) and the two countries' (Broomfield became a county
/// in 2001; Baltimore and St. Louis are cities outside any county; Corsica has two départements).
@Suite struct SubregionTests {
  static let data = try! PlaceData()
  static let oneOff = ReverseGeocoder(data: data)
  static let batch: ReverseGeocoder = {
    let geocoder = ReverseGeocoder(data: data)
    try! geocoder.prepareForBatch(fields: [.region, .boundaries])
    return geocoder
  }()

  @Test(
    arguments: [
      (39.74, -104.99, "US-CO", "Denver County", nil),
      (41.88, -87.63, "US-IL", "Cook County", nil),
      (39.92, -105.07, "US-CO", "Broomfield County", nil),
      (39.29, -76.61, "US-MD", "City of Baltimore", nil),
      (38.64, -90.25, "US-MO", "City of Saint Louis", nil),
      (30.22, -92.02, "US-LA", "Lafayette Parish", nil),
      (34.05, -118.25, "US-CA", "Los Angeles County", nil),
      (48.8566, 2.3522, "FR-IDF", "Paris", "FR-75C"),
      (41.93, 8.74, "FR-20R", "Corse-du-Sud", "FR-2A"),
      (42.70, 9.45, "FR-20R", "Haute-Corse", "FR-2B"),
      (48.58, 7.75, "FR-GES", "Bas-Rhin", "FR-67"),
      (49.03, 2.08, "FR-IDF", "Val-d'Oise", "FR-95"),
    ] as [(Double, Double, String, String, String?)])
  func divisions(latitude: Double, longitude: Double, region: String, name: String, code: String?) throws {
    let point = try Coordinate(latitude: latitude, longitude: longitude)
    for geocoder in [Self.oneOff, Self.batch] {
      let placemark = try geocoder.placemark(for: point, fields: .region)
      #expect(placemark.region?.code == region, "\(latitude), \(longitude)")
      #expect(placemark.subregion == Placemark.Region(code: code, name: name), "\(latitude), \(longitude)")
      #expect(placemark.subAdministrativeArea == name)
    }
    let whole = try Self.oneOff.placemark(for: point)
    #expect(whole.subregion?.name == name)
    let boundary = try #require(whole.boundaryKm?.subregion)
    #expect(boundary > 0 && boundary < 200)
  }

  /// No second level where the data draws none, or none that is right: Virginia (the R database folds 33
  /// of its 38 independent cities into counties), Connecticut (GeoNames has its planning regions, the
  /// database the counties they replaced), the District of Columbia, Alaska and Hawaii, other countries, the
  /// sea.
  @Test(arguments: [
    (37.54, -77.44),  // Richmond, Virginia
    (41.76, -72.67),  // Hartford, Connecticut
    (38.90, -77.04),  // Washington, D.C.
    (61.22, -149.90),  // Anchorage
    (21.31, -157.86),  // Honolulu
    (-21.11, 55.53),  // Réunion
    (56.0, 8.5),  // Denmark
    (45.0, -40.0),  // the Atlantic
  ])
  func noDivision(latitude: Double, longitude: Double) throws {
    let point = try Coordinate(latitude: latitude, longitude: longitude)
    for geocoder in [Self.oneOff, Self.batch] {
      let placemark = try geocoder.placemark(for: point, fields: [.region, .boundaries])
      #expect(placemark.subregion == nil, "\(latitude), \(longitude)")
      #expect(placemark.boundaryKm?.subregion == nil)
    }
  }

  /// Every division, at a point well inside it, is the answer there when the region layer puts the point in
  /// the division's own region; and wherever a division is named, it is one of the region the placemark
  /// gives: a county is never named in a state it is not in.
  @Test func everyDivisionIsFoundInItsRegion() throws {
    let layer = try Self.data.subregions()
    let places = try Self.data.places()
    #expect(layer.countries == ["FR", "US"])
    #expect(layer.polygons.featureCount > 3_000)
    var points: [Coordinate] = []
    var features: [Int] = []
    for feature in 0..<layer.polygons.featureCount {
      guard
        let point = FeatureNames.interiorPoint(
          of: feature, in: layer.polygons, where: { layer.polygons.features(containing: $0) == [feature] })
      else { continue }
      points.append(point)
      features.append(feature)
    }
    #expect(features.count > layer.polygons.featureCount * 95 / 100)
    func regionName(_ feature: Int) throws -> String {
      let country = try #require(layer.countryCode(feature))
      let admin1 = try #require(layer.admin1Code(feature))
      return places.region(try #require(places.regionIndex(country: country, code: admin1))).name
    }
    var divisions: Set<[String]> = []
    for feature in 0..<layer.polygons.featureCount {
      divisions.insert([try regionName(feature), layer.name(feature)])
    }
    let found = try Self.batch.placemarks(for: points, fields: .region)
    var outside = 0
    for (feature, placemark) in zip(features, found) {
      if let subregion = placemark.subregion {
        let region = try #require(placemark.region?.name)
        #expect(divisions.contains([region, subregion.name]), "\(subregion.name) in \(region)")
      }
      guard placemark.region?.name == (try regionName(feature)) else {
        outside += 1
        continue
      }
      #expect(placemark.subregion?.name == layer.name(feature), "\(layer.name(feature))")
      #expect(placemark.subregion?.code == layer.isoCode(feature))
    }
    #expect(outside < features.count / 100)
  }

  /// A division's name, as Tunnel prints it, finds a division of that name where no place or region is
  /// called so ("Val-d'Oise"); of several, the one with the most people ("Cook County" is Illinois').
  @Test(arguments: [
    ("Val-d'Oise", "FR-IDF"), ("Seine-Saint-Denis", "FR-IDF"), ("Corse-du-Sud", "FR-20R"),
    ("Cook County", "US-IL"), ("Washington County", "US-OR"), ("Lafayette Parish", "US-LA"),
    ("Broomfield County", "US-CO"), ("Miami-Dade County", "US-FL"),
  ])
  func namesAreFoundAgain(name: String, region: String) throws {
    let gazetteer = try Gazetteer(data: Self.data)
    let query = try LocationQuery(name) { () throws(PlaceDataError) in gazetteer }
    #expect(query.place == nil)
    let placemark = try Self.oneOff.placemark(for: query.coordinate, fields: .region)
    #expect(placemark.subregion?.name == name)
    #expect(placemark.region?.code == region)
  }
}
