import Testing
import TunnelApp
import TunnelContainment
import TunnelGeo
import TunnelMaps

/// What the terminal map says in words beside the picture TunnelMaps draws (the pictures themselves are
/// tested in TunnelMapsTests).
@MainActor
@Suite("The terminal map")
struct MapViewTests {
  @Test("The sea at the centre is named on the terminal map")
  func seaNamed() {
    let window = Window(size: Size(width: 80, height: 30))
    window.rootViewController = TunnelViewController(renderer: Shared.renderer, geocoder: Shared.geocoder)
    window.makeKeyAndVisible()
    let lines = window.render().plainText().split(separator: "\n")
    #expect(lines.suffix(from: lines.count / 2).contains { $0.contains("South Pacific Ocean") })
  }

  @Test(
    "Zoomed in where no place is in view, the terminal map names the nearest one at its edge",
    arguments: [(-25.0, 133.0), (-56.55, -171.683333), (72.0, -40.0)])
  func nearestOutside(latitude: Double, longitude: Double) throws {
    let centre = coordinate(latitude, longitude)
    let nearest = try Shared.reverseGeocoder.placemark(for: centre, fields: .nearestPlace).nearestPlace
    let map = MapViewController(annotation: .digger, location: centre, renderer: Shared.renderer)
    map.regionSpan = 20_000
    let window = Window(size: Size(width: 60, height: 15))
    window.rootViewController = map
    window.makeKeyAndVisible()
    #expect(window.render().plainText().contains(" \(nearest.name) "))
  }
}
