import TunnelGeo
import TunnelMaps

/// The bundled data and one renderer over it, shared by the suites (decoding the layers takes a
/// moment; doing it once keeps the suites quick).
@MainActor
enum Shared {
  static let data = try! PlaceData()
  static let mapData = try! MapData(data: data)
  static let renderer = try! MapRenderer(data: mapData)
  static let reverseGeocoder = ReverseGeocoder(data: data)
}

/// A coordinate from numbers known to be valid.
func coordinate(_ latitude: Double, _ longitude: Double) -> Coordinate {
  try! Coordinate(latitude: latitude, longitude: longitude)
}
