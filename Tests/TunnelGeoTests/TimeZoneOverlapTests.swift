import Foundation
import Testing

@testable import TunnelGeo

/// Where the source's time zones overlap, a placemark names every zone that claims the point
/// (``Placemark/TimeZone/others``). The facts are tzfpy's `get_tzs` over the same polygons
/// (tzfpy 2.1.1, timezone-boundary-builder with tzdata 2026e): the zones overlap in all of Xinjiang, and
/// where two countries' zones both claim an area (Abyei, Abkhazia).
@Suite struct TimeZoneOverlapTests {
  static let data = try! PlaceData()
  static let oneOff = ReverseGeocoder(data: data)
  static let batch: ReverseGeocoder = {
    let geocoder = ReverseGeocoder(data: data)
    try! geocoder.prepareForBatch(fields: .timeZone)
    return geocoder
  }()

  @Test(arguments: [
    ("Ürümqi", 43.8, 87.6, ["Asia/Shanghai", "Asia/Urumqi"]),
    ("Kashgar", 39.47, 75.99, ["Asia/Shanghai", "Asia/Urumqi"]),
    ("Abyei", 9.6, 28.44, ["Africa/Juba", "Africa/Khartoum"]),
    ("Sukhumi", 43.0, 41.02, ["Asia/Tbilisi", "Europe/Moscow"]),
    ("Tskhinvali", 42.23, 43.97, ["Asia/Tbilisi"]),
    ("Hebron", 31.53, 35.1, ["Asia/Hebron"]),
    ("Lanzhou", 36.06, 103.83, ["Asia/Shanghai"]),
    ("Copenhagen", 55.68, 12.57, ["Europe/Copenhagen"]),
  ])
  func zonesThatClaimAPoint(place: String, latitude: Double, longitude: Double, zones: [String]) throws {
    let point = try Coordinate(latitude: latitude, longitude: longitude)
    for geocoder in [Self.oneOff, Self.batch] {
      let zone = try geocoder.placemark(for: point, fields: .timeZone).timeZone
      #expect([zone.identifier] + zone.others == zones, "\(place)")
    }
    let whole = try Self.oneOff.placemark(for: point).timeZone
    #expect([whole.identifier] + whole.others == zones, "\(place)")
  }

  /// A placemark written before the zones had `others` still reads.
  @Test func decodesWithoutOthers() throws {
    let decoded = try JSONDecoder().decode(
      Placemark.TimeZone.self, from: Data(#"{"identifier":"Europe/Copenhagen"}"#.utf8))
    #expect(decoded == Placemark.TimeZone(identifier: "Europe/Copenhagen", others: []))
  }
}
