import Foundation
import Testing

@testable import TunnelGeo

/// Lakes by name (``LakeLayer``): GSHHG draws the lakes, Natural Earth (1:110m and 1:50m) and World Data
/// Bank II name them. The facts are those sources' own: Natural Earth 1:110m draws Lake Michigan and Lake Huron
/// apart, meeting at the Straits of Mackinac (its line runs within 10 km west of the Mackinac Bridge, 84.73° W),
/// where GSHHG joins them into one polygon.
@Suite struct LakeTests {
  static let data = try! PlaceData()
  static let oneOff = ReverseGeocoder(data: data)
  static let batch: ReverseGeocoder = {
    let geocoder = ReverseGeocoder(data: data)
    try! geocoder.prepareForBatch(fields: .sea)
    return geocoder
  }()

  @Test(arguments: [
    (47.7, -87.5, "Lake Superior"),
    (44.9, -87.7, "Lake Michigan"),  // Green Bay
    (45.78, -85.05, "Lake Michigan"),  // 25 km west of the Mackinac Bridge
    (45.8, -84.6, "Lake Huron"),  // 10 km east of it
    (45.2, -80.8, "Lake Huron"),  // Georgian Bay
    (42.45, -82.75, "Lake St. Clair"),
    (42.2, -81.2, "Lake Erie"),
    (43.7, -77.9, "Lake Ontario"),
    (-1.0, 33.0, "Lake Victoria"),
    (-6.5, 29.8, "Lake Tanganyika"),
    (-12.0, 34.6, "Lake Malawi"),
    (53.0, 108.0, "Lake Baikal"),
    (41.1, -112.6, "Great Salt Lake"),  // Natural Earth 1:110m labels it "Lake Onega"; the others do not
    (61.8, 35.3, "Lake Onega"),
    (42.4, 77.3, "Issyk-Kul"),
    (-16.0, -69.4, "Lago Titicaca"),
    (40.0, 50.0, "Caspian Sea"),
  ])
  func namedLakes(latitude: Double, longitude: Double, name: String) throws {
    let point = try Coordinate(latitude: latitude, longitude: longitude)
    for geocoder in [Self.oneOff, Self.batch] {
      let placemark = try geocoder.placemark(for: point, fields: .sea)
      #expect(placemark.inLake && placemark.lake == name, "\(latitude), \(longitude)")
    }
    let whole = try Self.oneOff.placemark(for: point)
    #expect(whole.lake == name && whole.inlandWater == name && whole.sea == nil)
  }

  /// Every lake's name, as Tunnel prints it, finds a point of that lake; so do an island's and a sea's.
  @Test func namesAreFoundAgain() throws {
    let lakes = try Self.data.lakes()
    let gazetteer = try Gazetteer(data: Self.data)
    let named = (0..<lakes.polygons.featureCount).filter { lakes.coastFeature($0) != nil }
    for name in Set(named.map(lakes.name)) {
      let query = try LocationQuery(name) { () throws(PlaceDataError) in gazetteer }
      #expect(try Self.oneOff.placemark(for: query.coordinate).lake == name, "\(name)")
    }
    let island = try LocationQuery("Antipodes Island") { () throws(PlaceDataError) in gazetteer }
    let placemark = try Self.oneOff.placemark(for: island.coordinate)
    #expect(placemark.land && placemark.country?.code == "NZ")
    let easter = try LocationQuery("Easter Island") { () throws(PlaceDataError) in gazetteer }
    #expect(try Self.oneOff.placemark(for: easter.coordinate).country?.code == "CL")
    let sea = try LocationQuery("Tasman Sea") { () throws(PlaceDataError) in gazetteer }
    #expect(try Self.oneOff.placemark(for: sea.coordinate).sea == "Tasman Sea")
  }

  /// Named water that GSHHG draws as sea names the sea there, in place of the marine layer's coarser name
  /// (the IJsselmeer was "Waddenzee"), and its name finds it.
  @Test func waterDrawnAsSea() throws {
    let point = try Coordinate(latitude: 52.75, longitude: 5.35)
    for geocoder in [Self.oneOff, Self.batch] {
      let placemark = try geocoder.placemark(for: point, fields: .sea)
      #expect(!placemark.inLake && placemark.sea == "IJsselmeer")
    }
    let gazetteer = try Gazetteer(data: Self.data)
    let query = try LocationQuery("IJsselmeer") { () throws(PlaceDataError) in gazetteer }
    #expect(try Self.oneOff.placemark(for: query.coordinate).sea == "IJsselmeer")
    let lakes = try Self.data.lakes()
    let waters = (0..<lakes.polygons.featureCount).filter { lakes.coastFeature($0) == nil }.map(lakes.name)
    #expect(waters.contains("IJsselmeer") && waters.contains("Vistula Lagoon") && !waters.contains("Ozeros"))
  }

  /// A lake none of the sources names is a lake without a name, not a neighbour's name: Lake Turkana
  /// (GSHHG draws it; Natural Earth's 1:110m and 1:50m lakes and World Data Bank II do not name it).
  @Test func unnamedLake() throws {
    let point = try Coordinate(latitude: 3.6, longitude: 36.1)
    for geocoder in [Self.oneOff, Self.batch] {
      let placemark = try geocoder.placemark(for: point, fields: .sea)
      #expect(placemark.inLake && placemark.lake == nil && placemark.inlandWater == "Lake")
    }
  }

  /// Every named polygon names the GSHHG lake it was matched to, at every point of a grid over it that lies
  /// inside both; and every polygon has such points.
  @Test func everyNamedPolygonIsNamed() throws {
    let lakes = try Self.data.lakes()
    let coast = try Self.data.coastline(.high)
    #expect(lakes.polygons.featureCount >= 40)
    for feature in 0..<lakes.polygons.featureCount {
      let name = lakes.name(feature)
      guard let lake = lakes.coastFeature(feature) else { continue }  // water GSHHG draws as sea: below
      #expect(coast.level(lake) == .lake, "\(name)")
      let boxes = lakes.polygons.rings(of: feature).map { lakes.polygons.ring($0).box }
      let box = FixedBox(
        minLatitude: boxes.map(\.minLatitude).min()!, minLongitude: boxes.map(\.minLongitude).min()!,
        maxLatitude: boxes.map(\.maxLatitude).max()!, maxLongitude: boxes.map(\.maxLongitude).max()!)
      var checked = 0
      for row in 0..<12 {
        for column in 0..<12 {
          let point = FixedPoint(
            latitude: box.minLatitude
              + Int32((Int64(box.maxLatitude - box.minLatitude) * Int64(2 * row + 1)) / 24),
            longitude: box.minLongitude
              + Int32((Int64(box.maxLongitude - box.minLongitude) * Int64(2 * column + 1)) / 24))
          let coordinate = lakes.polygons.coordinate(point)
          guard lakes.polygons.contains(point, feature: feature),
            FeatureChoice.lake(of: coast.polygons.features(containing: coordinate), in: coast.polygons)
              == lake
          else { continue }
          checked += 1
          for geocoder in [Self.oneOff, Self.batch] {
            #expect(
              try geocoder.placemark(for: coordinate, fields: .sea).lake == name, "\(name) \(coordinate)")
          }
        }
      }
      #expect(checked > 0, "\(name): no point of the grid lies in its lake")
    }
  }
}
