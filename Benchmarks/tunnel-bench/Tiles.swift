import Foundation
import SeededRandom
import TunnelApp
import TunnelGeo
import TunnelMaps

/// Drawing map tiles (`/tiles/{z}/{x}/{y}.svg` of `tunnel serve`): for each zoom 0–10, the median, the
/// 99th percentile and the worst time of one tile, and its mean size. The target is a p99 of at most 20 ms.
///
/// The tiles are those people look at: half hold a random point of the sphere (mostly sea), half a
/// random populated place (coasts, borders and crowded labels). Each zoom's labels are chosen before it
/// is timed, as a running server has; that one-off cost is printed apart.
func benchmarkTiles(directory: String, tilesPerZoom: Int = 400) throws {
  let data = try PlaceData(directory: directory)
  var mapData: MapData?
  var tiles: MapTiles?
  let decode = try milliseconds { mapData = try MapData(data: data) }
  let open = try milliseconds { tiles = try MapTiles(data: mapData!) }
  print(
    String(format: "map data decoded: %.0f ms; tile layers decoded and borders found: %.0f ms", decode, open))
  let places = try data.places()
  var random = SplitMix64(seed: 27)
  print("zoom | labels chosen (once) | median | p99 | worst | mean size")
  print("---: | ---: | ---: | ---: | ---: | ---:")
  var worstP99 = 0.0
  for zoom in 0...10 {
    let labels = milliseconds { _ = tiles!.svg(zoom: zoom, x: 0, y: 0) }
    let count = 1 << zoom
    var times: [Double] = []
    var bytes = 0
    for round in 0..<tilesPerZoom {
      let latitude: Double
      let longitude: Double
      if round % 2 == 0 {
        latitude = asin(Double.random(in: -1...1, using: &random)) * 180 / .pi
        longitude = Double.random(in: -180..<180, using: &random)
      } else {
        let place = places.coordinate(at: Int.random(in: 0..<places.count, using: &random))
        latitude = place.latitude
        longitude = place.longitude
      }
      let phi = max(-85, min(85, latitude)) * .pi / 180
      let x = min(count - 1, Int((longitude + 180) / 360 * Double(count)))
      let y = min(count - 1, max(0, Int((1 - log(tan(phi) + 1 / cos(phi)) / .pi) / 2 * Double(count))))
      var size = 0
      times.append(milliseconds { size = tiles!.svg(zoom: zoom, x: x, y: y).count })
      bytes += size
    }
    times.sort()
    let p99 = times[min(times.count - 1, Int((Double(times.count) * 0.99).rounded(.up)) - 1)]
    worstP99 = max(worstP99, p99)
    print(
      String(
        format: "%d | %.0f ms | %.2f ms | %.2f ms | %.2f ms | %.1f KB", zoom, labels, times[times.count / 2],
        p99,
        times[times.count - 1], Double(bytes) / Double(tilesPerZoom) / 1000))
  }
  print(
    String(
      format: "worst p99 over zooms 0–10: %.2f ms (target: at most 20 ms) — %@", worstP99,
      worstP99 <= 20 ? "met" : "not met"))
}
