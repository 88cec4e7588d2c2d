import Foundation
import SeededRandom
import TunnelGeo

/// The command line of the benchmark: flags, then an optional data folder.
struct BenchOptions {
  var directory: String? = nil
  var geocodingOnly = false
  var wherePoint: Coordinate? = nil
  var batchMemoryPoints: Int? = nil
  var batchWhole = false
  var placemarkPoints: Int? = nil
  var coldStartBinary: String? = nil
  var mapFrame = false
  var tiles = false
  var projOverhead = false
  var lookupPoints: Int? = nil
  var nearPoints = 100_000
  var pointsFolder: String? = nil
  var onlyField: String? = nil

  static let usage = """
    usage: tunnel-bench [flags] [data folder]
      (no flag)            everything
      --geocoding          the geocoder only
      --where LAT LON      one placemark, as a whole process would (time it outside)
      --batch-memory N     N placemarks streamed (add --whole to hold them whole): time, peak memory
      --placemarks N       N indexed placemarks on one core: as a batch, then one call at a time
      --cold-start BINARY  whole `BINARY where 56 8.5` processes: their wall time
      --map-frame          one frame of both maps of `tunnel play` at 200×60 cells
      --tiles              map tiles of `tunnel serve`, zooms 0–10: median and p99 (target p99 ≤ 20 ms)
      --proj               PROJ's geodesics and projections through TunnelGeo against PROJ called directly
      --lookups N          each field alone, in process, one call at a time on one thread: median, p99 and mean
                           over N uniform points and --near M (100,000) within 1 km of the field's edges;
                           --points-out DIR writes the uniform points and those near the time zones' edges;
                           --only FIELD times that field alone; with TUNNEL_CACHE_DIR set, the indexes are
                           read from that folder (built and kept there the first time), as a long-running
                           program with a cache folder has them (the countries' cells then list their
                           borders' pieces)
    """

  init(_ arguments: ArraySlice<String>) {
    var rest = Array(arguments)
    /// The value after `flag`, read by `parse`, or a plain error and exit code 2.
    func value<Value>(of flag: String, _ needs: String, _ parse: (String) -> Value?) -> Value {
      guard let text = rest.first, let value = parse(text) else {
        print("\(flag) needs \(needs)")
        exit(2)
      }
      rest.removeFirst()
      return value
    }
    let positive = { (text: String) in Int(text).flatMap { $0 > 0 ? $0 : nil } }
    while let argument = rest.first {
      rest.removeFirst()
      switch argument {
      case "--geocoding": geocodingOnly = true
      case "--map-frame": mapFrame = true
      case "--tiles": tiles = true
      case "--proj": projOverhead = true
      case "--lookups": lookupPoints = value(of: argument, "a number of points", positive)
      case "--near": nearPoints = value(of: argument, "a number of points", positive)
      case "--points-out": pointsFolder = value(of: argument, "a folder") { $0 }
      case "--only": onlyField = value(of: argument, "a field's name") { $0 }
      case "--batch-memory": batchMemoryPoints = value(of: argument, "a number of points", positive)
      case "--whole": batchWhole = true
      case "--placemarks": placemarkPoints = value(of: argument, "a number of points", positive)
      case "--cold-start": coldStartBinary = value(of: argument, "the path of a tunnel executable") { $0 }
      case "--where":
        guard rest.count >= 2, let latitude = Double(rest[0]), let longitude = Double(rest[1]),
          let point = try? Coordinate(latitude: latitude, longitude: longitude)
        else {
          print("--where needs a latitude and a longitude")
          exit(2)
        }
        wherePoint = point
        rest.removeFirst(2)
      case "--help", "-h":
        print(Self.usage)
        exit(0)
      default:
        guard !argument.hasPrefix("-") else {
          print("unknown option \(argument)\n\(Self.usage)")
          exit(2)
        }
        directory = argument
      }
    }
  }
}

extension Coordinate {
  /// A point drawn uniformly over the sphere.
  static func uniform(using generator: inout SplitMix64) -> Coordinate {
    let latitude = asin(Double.random(in: -1...1, using: &generator)) * 180 / .pi
    return try! Coordinate(latitude: latitude, longitude: Double.random(in: -180..<180, using: &generator))
  }
}

/// Points drawn uniformly over the sphere.
func uniformPoints(_ count: Int, seed: UInt64) -> [Coordinate] {
  var generator = SplitMix64(seed: seed)
  return (0..<count).map { _ in Coordinate.uniform(using: &generator) }
}

/// A line from /proc/self/status in MB (`VmHWM`, `RssAnon`, `RssFile`), or nil off Linux.
func statusMB(_ key: String) -> Double? {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
  for line in status.split(separator: "\n") where line.hasPrefix(key + ":") {
    let kilobytes = line.split(separator: " ").compactMap { Double($0) }.first
    return kilobytes.map { $0 / 1024 }
  }
  return nil
}

/// The peak resident memory of this process, and what is resident now: allocated (anonymous) and
/// mapped from files (the data and the libraries).
func memoryReport(_ label: String) -> String? {
  guard let peak = statusMB("VmHWM"), let anonymous = statusMB("RssAnon"), let file = statusMB("RssFile")
  else {
    return nil
  }
  return String(
    format: "%@: %.1f MB (now %.1f MB allocated, %.1f MB mapped from files)", label, peak, anonymous, file)
}

/// One placemark from a cold start: what `tunnel where` does.
func printOnePlacemark(_ point: Coordinate, directory: String) throws {
  let start = DispatchTime.now().uptimeNanoseconds
  let geocoder = ReverseGeocoder(data: PlaceData(uncheckedDirectory: directory))
  let placemark = try geocoder.placemark(for: point)
  let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
  if let land = placemark.nearestLand {
    print(
      String(
        format: "nearest land %.1f km at %.3f, %.3f (%@)", land.distanceKm, land.latitude, land.longitude,
        land.country?.name ?? "no country"))
  }
  print(
    String(
      format: "%@: %@, %@, nearest %@ %.1f km, %@ (%.2f ms in process)", point.description,
      placemark.land ? "land" : "water", placemark.country?.name ?? placemark.sea ?? "-",
      placemark.nearestPlace.name, placemark.nearestPlace.distanceKm, placemark.timeZone.identifier, elapsed))
}

/// Times the reverse geocoder: nearest place (tree walk and batch grid), placemarks, batches.
func benchmarkGeocoding(directory: String) throws {
  let data = PlaceData(uncheckedDirectory: directory)
  let geocoder = ReverseGeocoder(data: data)
  let skjern = try Coordinate(latitude: 56, longitude: 8.5)

  let cold = try milliseconds { _ = try geocoder.placemark(for: skjern) }
  print(String(format: "first placemark (layers opened, nothing built): %.2f ms", cold))

  let walkPoints = uniformPoints(200_000, seed: 1)
  var sink = 0.0
  let walk = try milliseconds {
    for point in walkPoints { sink += try geocoder.nearestPlace(to: point)!.distanceKm }
  }
  print(
    String(
      format: "nearest place, k-d walk on the mapped file, 1 core: %.3f M queries/s (%.2f µs each)",
      Double(walkPoints.count) / walk / 1000, walk * 1000 / Double(walkPoints.count)))

  let build = try milliseconds { try geocoder.prepareForBatch() }
  print(String(format: "batch indexes built once (all cores): %.1f ms", build))
  for (name, cells, bytes) in geocoder.batchIndexSizes() {
    print(String(format: "  %@: %d cells, %.1f MB", name, cells, Double(bytes) / 1e6))
  }

  let gridPoints = uniformPoints(2_000_000, seed: 2)
  var batch: [NearestPlace] = []
  let index = try geocoder.nearestPlaceIndex()
  print("  grid: \(index.size.cells) cells, \(index.size.candidates) candidate entries")
  let gridOneCore = milliseconds {
    for point in gridPoints { sink += index.nearestIndex(to: point).distanceKm }
  }
  let named = milliseconds {
    for point in gridPoints.prefix(200_000) { sink += index.nearest(to: point).distanceKm }
  }
  print(String(format: "  with the name and attributes read: %.3f M queries/s", 200_000 / named / 1000))
  print(
    String(
      format: "nearest place, batch grid, 1 core: %.3f M queries/s (%.3f µs each)",
      Double(gridPoints.count) / gridOneCore / 1000, gridOneCore * 1000 / Double(gridPoints.count)))
  let gridAll = try milliseconds { batch = try geocoder.nearestPlaces(to: gridPoints) }
  print(
    String(
      format: "nearest place, batch API, all %d cores: %.3f M queries/s",
      ProcessInfo.processInfo.activeProcessorCount,
      Double(batch.count) / gridAll / 1000))

  if let report = memoryReport("peak resident memory so far") { print(report) }
  let placemarkPoints = try timeIndexedPlacemarks(geocoder, count: 200_000)
  let unindexed = ReverseGeocoder(data: data)
  let fewPoints = placemarkPoints.prefix(300)
  let slow = try milliseconds { for point in fewPoints { _ = try unindexed.placemark(for: point) } }
  print(
    String(
      format: "placemark without batch indexes (one-off queries), 1 core: %.0f points/s (%.2f ms each)",
      Double(fewPoints.count) / slow * 1000, slow / Double(fewPoints.count)))
  var placemarks: [Placemark] = []
  let batchPoints = uniformPoints(400_000, seed: 4)
  let all = try milliseconds { placemarks = try geocoder.placemarks(for: batchPoints) }
  print(
    String(
      format: "placemarks, batch API, all cores: %.0f points/s; %d at sea",
      Double(placemarks.count) / all * 1000,
      placemarks.filter { !$0.land }.count))
  if let report = memoryReport("peak resident memory") { print(report) }
  if sink < 0 { print(sink) }
}

/// A full-placemark batch in a fresh process: its time and the process's peak memory, streamed a chunk
/// at a time (`forEachPlacemark`), or held whole (`placemarks(for:)`) with `whole`.
func benchmarkBatchMemory(directory: String, count: Int, whole: Bool) throws {
  let geocoder = ReverseGeocoder(data: PlaceData(uncheckedDirectory: directory))
  var done = 0
  var atSea = 0
  let elapsed: Double
  if whole {
    let points = uniformPoints(count, seed: 6)
    elapsed = try milliseconds {
      let placemarks = try geocoder.placemarks(for: points)
      done = placemarks.count
      atSea = placemarks.filter { !$0.land }.count
    }
  } else {
    // The points are drawn as they are needed, so that nothing grows with the count.
    var generator = SplitMix64(seed: 6)
    let points = (0..<count).lazy.map { _ in Coordinate.uniform(using: &generator) }
    elapsed = try milliseconds {
      try geocoder.forEachPlacemark(of: points) { chunk in
        done += chunk.count
        atSea += chunk.filter { !$0.land }.count
      }
    }
  }
  print(
    String(
      format: "%d placemarks (%d at sea) with %@, indexes built included: %.2f s, %.0f points/s on all cores",
      done, atSea, whole ? "placemarks(for:), held whole" : "forEachPlacemark, streamed",
      elapsed / 1000, Double(done) / elapsed * 1000))
  if let report = memoryReport("peak resident memory") { print(report) }
}

/// Indexed placemarks on one core, after the indexes are built: the loop to profile.
func benchmarkPlacemarks(directory: String, count: Int) throws {
  let geocoder = ReverseGeocoder(data: PlaceData(uncheckedDirectory: directory))
  let build = try milliseconds { try geocoder.prepareForBatch() }
  print(String(format: "batch indexes built: %.1f ms", build))
  _ = try timeIndexedPlacemarks(geocoder, count: count)
}

/// Times `count` placemarks of uniform points (the same points every run) on one core with a geocoder
/// whose batch indexes are built, prints the rates, and returns the points: first as one batch on one
/// thread (answered in spatial order), then one `placemark(for:)` call at a time, in random order, for
/// other points of the same kind (the shoreline descriptions remembered from the batch help a little).
func timeIndexedPlacemarks(_ geocoder: ReverseGeocoder, count: Int) throws -> [Coordinate] {
  let points = uniformPoints(count, seed: 3)
  var placemarks: [Placemark] = []
  let batch = try milliseconds { placemarks = try geocoder.placemarks(for: points, threads: 1) }
  print(
    String(
      format:
        "placemarks, batch API on 1 thread (spatial order): %.0f points/s (%.2f µs each; %d of %d at sea)",
      Double(count) / batch * 1000, batch * 1000 / Double(count), placemarks.filter { !$0.land }.count, count)
  )
  placemarks = []
  let loosePoints = uniformPoints(count, seed: 7)
  var atSea = 0
  let elapsed = try milliseconds {
    for point in loosePoints where try !geocoder.placemark(for: point).land { atSea += 1 }
  }
  print(
    String(
      format:
        "placemark(for:) one call at a time, random order, 1 core: %.0f points/s (%.2f µs each; %d at sea)",
      Double(count) / elapsed * 1000, elapsed * 1000 / Double(count), atSea))
  return points
}

/// The wall time of whole `tunnel where 56 8.5` processes, each started afresh, output discarded.
func benchmarkColdStart(binary: String, runs: Int = 31) throws {
  func run(_ arguments: [String]) -> Double {
    var pid: pid_t = 0
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    defer { posix_spawn_file_actions_destroy(&actions) }
    let argv = ([binary] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let start = DispatchTime.now().uptimeNanoseconds
    guard posix_spawn(&pid, binary, &actions, nil, argv, environ) == 0 else {
      print("cannot start \(binary)")
      exit(1)
    }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    if status != 0 {
      print("\(binary) \(arguments.joined(separator: " ")) failed (status \(status))")
      exit(1)
    }
    return elapsed
  }
  for arguments in [["--version"], ["where", "56", "8.5"], ["Skjern"]] {
    _ = run(arguments)  // the files into the page cache
    let times = (0..<runs).map { _ in run(arguments) }.sorted()
    print(
      String(
        format: "tunnel %@: median %.1f ms, fastest %.1f ms, slowest %.1f ms (%d runs)",
        arguments.joined(separator: " "), times[runs / 2], times[0], times[runs - 1], runs))
  }
}
