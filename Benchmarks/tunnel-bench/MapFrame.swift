import Foundation
import TunnelApp
import TunnelContainment
import TunnelGeo
import TunnelMaps

/// One frame of both maps of `tunnel play` at 200×60 cells, projection and drawing included: each
/// round moves the digger (so both maps must be drawn anew, as after a key press) and renders the
/// whole window. Prints the set-up cost and the frame times at a few places.
@MainActor
func benchmarkMapFrame(directory: String, rounds: Int = 60) throws {
  let data = try PlaceData(directory: directory)
  var mapData: MapData?
  let setUp = try milliseconds { mapData = try MapData(data: data) }
  let renderer = try MapRenderer(data: mapData!)
  print(String(format: "map data decoded once: %.1f ms", setUp))
  let places: [(String, Coordinate)] = [
    ("western Denmark (the start)", TunnelViewController.defaultStart),
    ("Wellington", try Coordinate(latitude: -41.2865, longitude: 174.7762)),
    ("North Pole", try Coordinate(latitude: 89.9, longitude: 0)),
    ("Fiji, on 180°", try Coordinate(latitude: -17, longitude: 179.99)),
  ]
  for zoom in [1.0, 0.1] {
    for (name, start) in places {
      let window = Window(size: Size(width: 200, height: 60))
      let tunnel = TunnelViewController(start: start, renderer: renderer) { _ in nil }
      for map in [tunnel.startMap, tunnel.targetMap] {
        map.regionSpan = MapViewController.defaultRegionSpan / zoom
      }
      window.rootViewController = tunnel
      window.makeKeyAndVisible()
      _ = window.render()
      var times: [Double] = []
      for round in 0..<rounds {
        try tunnel.startMap.moveAnnotation(azimuth: round % 2 == 0 ? 90 : 270, fraction: 0.05)
        times.append(milliseconds { _ = window.render() })
      }
      times.sort()
      let span = Int(MapViewController.defaultRegionSpan / zoom / 1000)
      print(
        String(
          format:
            "frame of both maps, 200×60 cells, %@ km across, %@: median %.2f ms, best %.2f ms, worst %.2f ms",
          "\(span)", name, times[times.count / 2], times[0], times[times.count - 1]))
    }
  }
}
