import TunnelApp
import TunnelContainment
import TunnelGeo
import TunnelMaps

/// The bundled data and one renderer over it, shared by the suites (decoding the layers takes a
/// moment; doing it once keeps the suites quick).
@MainActor
enum Shared {
  static let data = try! PlaceData()
  static let renderer = try! MapRenderer(data: MapData(data: data))
  static let reverseGeocoder = ReverseGeocoder(data: data)
  static let geocoder = GeoInfoViewController.geocoder(using: reverseGeocoder)
}

/// A coordinate from numbers known to be valid.
func coordinate(_ latitude: Double, _ longitude: Double) -> Coordinate {
  try! Coordinate(latitude: latitude, longitude: longitude)
}

/// The Tunnel in a visible window of `size`, with real maps and the real geocoder unless told otherwise.
@MainActor
func visibleTunnel(
  size: Size = Size(width: 80, height: 30), start: Coordinate = TunnelViewController.defaultStart,
  renderer: MapRenderer? = nil, geocoder: GeoInfoViewController.Geocoder? = nil
) -> (TunnelViewController, Window) {
  let tunnel = TunnelViewController(
    start: start, renderer: renderer, geocoder: geocoder ?? Shared.geocoder)
  let window = Window(size: size)
  window.rootViewController = tunnel
  window.makeKeyAndVisible()
  return (tunnel, window)
}
