import Foundation
import TunnelGeo
import TunnelReports

/// Countries and regions found by name, so that the dialects' searches find what the commands find:
/// `/search?q=Denmark` is the country, as `tunnel where Denmark` is, not Denmark, South Carolina.
///
/// Each area is placed at its most populous place (the capital in most countries and regions; the area's
/// middle may lie outside it, or at sea), with the box around its polygons.
extension TunnelService {
  /// The country and the regions that `text` names, as the dialects name areas. A text with a qualifier
  /// after a comma names a place, not an area.
  func areas(named text: String) -> [GeocodedPlace] {
    guard !text.contains(",") else { return [] }
    var found: [GeocodedPlace] = []
    if let match = gazetteer.country(named: text) {
      let code = match.place.countryCode
      let name = match.countryName ?? code
      let seat = match.place.coordinate
      found.append(
        GeocodedPlace(
          kind: .country, name: name, latitude: seat.latitude, longitude: seat.longitude,
          boundingBox: countryBox(code: code) ?? Self.box(around: seat, km: 300), countryName: name,
          countryCode: code, id: Self.areaID(kind: .country, text: code), importance: 0.8))
    }
    for index in areaNames.regions(named: text) {
      guard let seatIndex = areaNames.seats[index] else { continue }
      let region = places.region(index)
      let seat = places.place(at: seatIndex).coordinate
      // Keyed as a placemark names a region: its ISO 3166-2 code, else country and admin-1 code.
      let code = region.isoCode ?? "\(region.countryCode).\(region.code)"
      let name = PlaceText.regionName(region.name)
      found.append(
        GeocodedPlace(
          kind: .state, name: name, latitude: seat.latitude, longitude: seat.longitude,
          boundingBox: regionBox(code: code) ?? Self.box(around: seat, km: 100), regionName: name,
          regionCode: code, countryName: gazetteer.countryName(forCode: region.countryCode),
          countryCode: region.countryCode, id: Self.areaID(kind: .state, text: region.countryCode + code),
          importance: 0.6))
    }
    return found
  }
}
