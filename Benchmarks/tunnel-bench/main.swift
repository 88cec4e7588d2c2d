import Foundation
import TunnelGeo

/// Times opening every place data layer (the target: under 5 ms in total), a few queries, then the
/// reverse geocoder (see Geocoding.swift).
///
/// Run with `Scripts/bench` (release mode). Each round opens a fresh `PlaceData`, so every layer's file
/// is mapped and its header checked again.
///
///     tunnel-bench [data folder]              everything
///     tunnel-bench --geocoding [data folder]  the geocoder only
///     tunnel-bench --where LAT LON            one placemark, as a whole process would (time it outside)
///     tunnel-bench --batch-memory N [--whole] N placemarks streamed (or held whole): time, peak memory
///     tunnel-bench --placemarks N             N indexed placemarks on one core: as a batch, then one at a time
///     tunnel-bench --cold-start BINARY        whole `BINARY where 56 8.5` processes: their wall time
///     tunnel-bench --map-frame                one frame of both maps of `tunnel play` at 200×60 cells
///     tunnel-bench --tiles                    map tiles of `tunnel serve`, zooms 0–10: median and p99
///     tunnel-bench --proj                     PROJ through TunnelGeo against PROJ called directly
///     tunnel-bench --lookups N [--near M]     each field alone in process, one call at a time: median and p99

func milliseconds(_ body: () throws -> Void) rethrows -> Double {
  let start = DispatchTime.now().uptimeNanoseconds
  try body()
  return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

let options = BenchOptions(CommandLine.arguments.dropFirst())
if options.projOverhead {
  try benchmarkPROJOverhead()
  exit(0)
}
if let binary = options.coldStartBinary {
  try benchmarkColdStart(binary: binary)
  exit(0)
}
let directory: String
do {
  directory = try PlaceDataLocation.find(explicit: options.directory)
} catch {
  print(error)
  exit(1)
}
if let count = options.batchMemoryPoints {
  try benchmarkBatchMemory(directory: directory, count: count, whole: options.batchWhole)
  exit(0)
}
if let count = options.lookupPoints {
  try benchmarkLookups(
    directory: directory, count: count, nearCount: options.nearPoints, pointsFolder: options.pointsFolder,
    only: options.onlyField)
  exit(0)
}
if options.tiles {
  try benchmarkTiles(directory: directory)
  exit(0)
}
if options.mapFrame {
  try MainActor.assumeIsolated { try benchmarkMapFrame(directory: directory) }
  exit(0)
}
if let count = options.placemarkPoints {
  try benchmarkPlacemarks(directory: directory, count: count)
  exit(0)
}
if let point = options.wherePoint {
  try printOnePlacemark(point, directory: directory)
  exit(0)
}
print("data: \(directory)")
if options.geocodingOnly {
  try benchmarkGeocoding(directory: directory)
  exit(0)
}

var firstOpen = 0.0
var rounds: [Double] = []
for round in 0..<50 {
  let data = PlaceData(uncheckedDirectory: directory)
  let elapsed = try milliseconds { try data.openAll() }
  if round == 0 { firstOpen = elapsed } else { rounds.append(elapsed) }
}
rounds.sort()
print(
  String(
    format: "open all %d layers: first %.3f ms, median %.3f ms, best %.3f ms", PlaceData.fileNames.count,
    firstOpen, rounds[rounds.count / 2], rounds[0]))

let data = try PlaceData(directory: directory)
let places = try data.places()
var perLayer: [String] = []
for (name, open) in [
  ("places", { _ = try PlaceData(uncheckedDirectory: directory).places() }),
  ("countries", { _ = try PlaceData(uncheckedDirectory: directory).countries() }),
  ("marine", { _ = try PlaceData(uncheckedDirectory: directory).marine() }),
  ("coastline-h", { _ = try PlaceData(uncheckedDirectory: directory).coastline(.high) }),
  ("coastline-l", { _ = try PlaceData(uncheckedDirectory: directory).coastline(.low) }),
  ("timezones", { _ = try PlaceData(uncheckedDirectory: directory).timeZones() }),
  ("islands", { _ = try PlaceData(uncheckedDirectory: directory).islands() }),
] as [(String, () throws -> Void)] {
  var best = Double.infinity
  for _ in 0..<20 { best = min(best, try milliseconds(open)) }
  perLayer.append(String(format: "%@ %.3f", name, best))
}
print("open one layer, best of 20 (ms): " + perLayer.joined(separator: ", "))

let verify = try milliseconds { try data.verify() }
print(String(format: "verify every checksum: %.1f ms", verify))

var found = 0
let lookup = milliseconds {
  for name in ["Copenhagen", "København", "Skjern", "Москва", "Springfield", "Córdoba"] {
    for _ in 0..<1000 { found += places.matches(forName: name).count }
  }
}
print(String(format: "name lookup: %.2f µs each (%d matches)", lookup * 1000 / 6000, found))

let point = try Coordinate(latitude: 56, longitude: 8.5)
let countries = try data.countries()
var hits = 0
let contains = milliseconds { for _ in 0..<100 { hits += countries.countries(containing: point).count } }
print(String(format: "country by linear scan + point in polygon: %.3f ms each", contains / 100))
let coast = try data.coastline(.high)
let land = milliseconds { for _ in 0..<20 { hits += coast.levels(containing: point).count } }
print(String(format: "coastline-h by linear scan + point in polygon: %.3f ms each", land / 20))

try benchmarkGeocoding(directory: directory)
