import Foundation
import SeededRandom
import TunnelGeo

/// One field of the placemark looked up in process, as a library user looks it up: `placemark(for:fields:)`
/// with that field alone, one call at a time on one thread, each call timed on its own. Over `count` points
/// uniform on the sphere, and over `nearCount` points within 1 km of an edge of the layer the field reads
/// (the coastline for land, sea and the nearest land; the country, region and time zone polygons), where a
/// point-in-polygon search has the most to do. The batch indexes of the field are built first, as a
/// long-running program would have them.
///
/// With `TUNNEL_CACHE_DIR` set (and not empty), the indexes come from that cache folder, as a program given
/// one reads them; without it they are built in memory.
///
/// Each time includes reading the clock once (about 20 ns here: the first line of the report measures it).
/// With `pointsFolder`, the uniform points and those near the time zones' edges are written there as CSV
/// (`latitude,longitude`), for the peers to be timed on the same points.
func benchmarkLookups(
  directory: String, count: Int, nearCount: Int, pointsFolder: String?, only: String? = nil
) throws {
  let data = PlaceData(uncheckedDirectory: directory)
  let folder = ProcessInfo.processInfo.environment["TUNNEL_CACHE_DIR"].flatMap { $0.isEmpty ? nil : $0 }
  let geocoder = ReverseGeocoder(data: data, cache: try folder.map { try IndexCache(path: $0) })
  let uniform = uniformPoints(count, seed: 11)
  let layers: [(name: String, fields: Placemark.Fields, edges: PolygonLayer?)] = [
    ("land", .land, try data.coastline(.high).polygons),
    ("country", .country, try data.countries().polygons),
    ("region", .region, try data.regions().polygons),
    ("sea", .sea, try data.coastline(.high).polygons),
    ("timeZone", .timeZone, try data.timeZones().polygons),
    ("nearestPlace", .nearestPlace, nil),
    ("nearestLand", .nearestLand, try data.coastline(.high).polygons),
  ]
  if let pointsFolder {
    try FileManager.default.createDirectory(atPath: pointsFolder, withIntermediateDirectories: true)
    try writePoints(uniform, to: pointsFolder + "/uniform.csv")
    try writePoints(
      pointsNear(try data.timeZones().polygons, count: nearCount, seed: 12),
      to: pointsFolder + "/near-timeZone.csv")
  }
  print(String(format: "reading the clock: %.0f ns a call", clockCost()))
  print(
    "| field | uniform: median | p99 | mean | near an edge (1 km): median | p99 | mean | index built |")
  print("|---|---:|---:|---:|---:|---:|---:|---:|")
  for (name, fields, edges) in layers where only == nil || only == name {
    let build = try milliseconds { try geocoder.prepareForBatch(fields: fields) }
    // Warm: the layers' pages in memory, the branch predictors trained.
    for point in uniform.prefix(10_000) { _ = try geocoder.placemark(for: point, fields: fields) }
    let far = try timeEach(uniform, geocoder, fields)
    var row = "| \(name) | \(micro(far.median)) | \(micro(far.p99)) | \(micro(far.mean)) "
    if let edges {
      let near = try timeEach(pointsNear(edges, count: nearCount, seed: 12), geocoder, fields)
      row += "| \(micro(near.median)) | \(micro(near.p99)) | \(micro(near.mean)) "
    } else {
      row += "| — | — | — "
    }
    print(row + String(format: "| %.0f ms |", build))
  }
}

/// Each point's lookup timed alone: the median, 99th percentile and mean, in nanoseconds.
private func timeEach(
  _ points: [Coordinate], _ geocoder: ReverseGeocoder, _ fields: Placemark.Fields
) throws -> (median: Double, p99: Double, mean: Double) {
  var times = [UInt64](repeating: 0, count: points.count)
  var sink = 0
  for (index, point) in points.enumerated() {
    let start = DispatchTime.now().uptimeNanoseconds
    let placemark = try geocoder.placemark(for: point, fields: fields)
    times[index] = DispatchTime.now().uptimeNanoseconds - start
    sink &+= placemark.land ? 1 : 0
  }
  if sink < 0 { print(sink) }
  let total = times.reduce(0, +)
  times.sort()
  return (
    Double(times[times.count / 2]), Double(times[min(times.count - 1, times.count * 99 / 100)]),
    Double(total) / Double(times.count)
  )
}

/// What reading the clock twice costs, in nanoseconds (the median of a million).
private func clockCost() -> Double {
  var times = [UInt64](repeating: 0, count: 1_000_000)
  for index in times.indices {
    let start = DispatchTime.now().uptimeNanoseconds
    times[index] = DispatchTime.now().uptimeNanoseconds - start
  }
  times.sort()
  return Double(times[times.count / 2])
}

private func micro(_ nanoseconds: Double) -> String {
  String(format: "%.2f µs", nanoseconds / 1000)
}

/// `count` points, each within 1 km (uniform over the disc) of a vertex of `layer` chosen at random: near
/// its edges, on either side.
func pointsNear(_ layer: PolygonLayer, count: Int, seed: UInt64) -> [Coordinate] {
  var vertices: [FixedPoint] = []
  for ring in 0..<layer.ringCount { layer.forEachVertex(ofRing: ring) { vertices.append($0) } }
  var generator = SplitMix64(seed: seed)
  let units = Double(layer.unitsPerDegree)
  var points: [Coordinate] = []
  points.reserveCapacity(count)
  while points.count < count {
    let vertex = vertices[Int.random(in: 0..<vertices.count, using: &generator)]
    let metres = 1000 * Double.random(in: 0...1, using: &generator).squareRoot()
    let bearing = Double.random(in: 0..<(2 * .pi), using: &generator)
    let latitude = Double(vertex.latitude) / units + metres * cos(bearing) / 111_320
    let scale = max(0.01, cos(latitude * .pi / 180))
    var longitude = Double(vertex.longitude) / units + metres * sin(bearing) / (111_320 * scale)
    if longitude > 180 { longitude -= 360 }
    if longitude < -180 { longitude += 360 }
    guard let point = try? Coordinate(latitude: min(90, max(-90, latitude)), longitude: longitude) else {
      continue
    }
    points.append(point)
  }
  return points
}

private func writePoints(_ points: [Coordinate], to path: String) throws {
  var text = "latitude,longitude\n"
  for point in points { text += String(format: "%.7f,%.7f\n", point.latitude, point.longitude) }
  try text.write(toFile: path, atomically: true, encoding: .utf8)
}
