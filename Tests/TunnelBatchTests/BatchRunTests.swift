import Foundation
import RandomPoints
import SeededRandom
import Testing
import TunnelGeo
import TunnelReports

@testable import TunnelBatch

#if canImport(Glibc)
import Glibc
#endif

@Suite struct BatchRunTests {
  static let geocoder = ReverseGeocoder(data: try! PlaceData())

  /// Runs a batch of `text`, read `blockSize` bytes at a time (CSV and TSV lines all the general way
  /// when not `readsPlainLines`), and returns what it wrote and how it ended.
  func run(
    _ text: String, options: BatchRun.Options, format: BatchInputFormat? = nil,
    shouldStop: @escaping () -> Bool = { false }, blockSize: Int = 64, readsPlainLines: Bool = true
  ) throws -> (output: String, summary: BatchRun.Summary, bad: [Int]) {
    let directory = FileManager.default.temporaryDirectory
    let inputPath = directory.appendingPathComponent("batch-in-\(UUID().uuidString)").path
    let outputPath = directory.appendingPathComponent("batch-out-\(UUID().uuidString)").path
    FileManager.default.createFile(atPath: inputPath, contents: Data(text.utf8))
    defer {
      try? FileManager.default.removeItem(atPath: inputPath)
      try? FileManager.default.removeItem(atPath: outputPath)
    }
    let input = try BatchInput(
      path: inputPath, format: format, columns: .init(), blockSize: blockSize,
      readsPlainLines: readsPlainLines)
    let descriptor = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    defer { close(descriptor) }
    var bad: [Int] = []
    let summary = try BatchRun(input: input, geocoder: Self.geocoder, options: options).run(
      output: descriptor, shouldStop: shouldStop, badRow: { bad.append($0.line) })
    let output = try String(contentsOfFile: outputPath, encoding: .utf8)
    return (output, summary, bad)
  }

  @Test(
    "The boundaries and the nearest land are answered in larger chunks than the rest, unless a size is given")
  func chunkSizesFollowTheFields() {
    let searches: [[PlacemarkField]] = [
      PlacemarkField.allCases, [.boundaryKm], [.nearestLand], [.region, .boundaryKm],
      [.boundaryKm, .nearestPlace],
      [.country, .nearestLand],
    ]
    for fields in searches {
      #expect(BatchRun.Options(fields: fields).chunkSize == BatchRun.Options.searchChunkSize, "\(fields)")
    }
    let others: [[PlacemarkField]] = [
      [], [.nearestPlace], [.timeZone], [.land, .country, .timeZone], [.country, .nearestPlace],
      [.sea, .nearestPlace], [.country, .region], [.subregion],
    ]
    for fields in others {
      #expect(BatchRun.Options(fields: fields).chunkSize == BatchRun.Options.chunkSize, "\(fields)")
    }
    #expect(BatchRun.Options.searchChunkSize > BatchRun.Options.chunkSize)
    #expect(BatchRun.Options(fields: [.sea], chunkSize: 10).chunkSize == 10)
    #expect(BatchRun.Options(fields: [.boundaryKm], chunkSize: 10).chunkSize == 10)
  }

  /// Points spread over the globe, with a bad row every seventh line.
  static func points(_ count: Int) -> (text: String, coordinates: [Coordinate?]) {
    var text = "id,lat,lon,note\n"
    var coordinates: [Coordinate?] = []
    for index in 0..<count {
      if index % 7 == 3 {
        text += "\(index),95,0,\"bad, on purpose\"\n"
        coordinates.append(nil)
        continue
      }
      // Spread by multiplying with primes, so that neighbouring rows are far apart.
      let latitude = Double(index * 7_919 % 1_800_000) / 10_000 - 90
      let longitude = Double(index * 104_729 % 3_600_000) / 10_000 - 180
      text += "\(index),\(latitude),\(longitude),\"note \(index)\"\n"
      coordinates.append(try! Coordinate(latitude: latitude, longitude: longitude))
    }
    return (text, coordinates)
  }

  @Test("Every row in gives one row out, in input order, across chunks and threads")
  func orderKept() throws {
    let (text, coordinates) = Self.points(300)
    let options = BatchRun.Options(fields: [.nearestPlace], format: .jsonl, threads: 2, chunkSize: 37)
    let (output, summary, bad) = try run(text, options: options)
    let rows = try output.split(separator: "\n").map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    #expect(rows.count == 300)
    #expect(
      summary.rows == 300 && summary.rowsWritten == 300 && summary.badRows == coordinates.count { $0 == nil })
    #expect(bad == coordinates.indices.filter { coordinates[$0] == nil }.map { $0 + 2 })
    for (index, coordinate) in coordinates.enumerated() {
      let row = rows[index]
      #expect(row["id"] as? String == String(index))
      #expect((row["note"] as? String)?.hasPrefix(coordinate == nil ? "bad" : "note") == true)
      if let coordinate {
        let nearest = try Self.geocoder.nearestPlace(to: coordinate)!
        let found = row["nearestPlace"] as? [String: Any]
        #expect(
          found?["name"] as? String == nearest.name && found?["countryCode"] as? String == nearest.countryCode
        )
        #expect(row["error"] == nil)
      } else {
        #expect(row["nearestPlace"] == nil && row["error"] as? String == "latitude 95 is outside -90…90")
      }
    }
  }

  @Test("JSON Lines rows carry the placemark as 'tunnel where --format json' prints it, and the antipode's")
  func placemarkJSON() throws {
    let text = "lat,lon\n56,8.5\n-56,-171.5\n33.87,151.21\n78,-40\n0,0\n"
    let (output, _, _) = try run(text, options: BatchRun.Options(antipode: true, format: .jsonl))
    let lines = output.split(separator: "\n")
    #expect(lines.count == 5)
    for line in lines {
      let row = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      let point = try Coordinate(
        latitude: Double(row["lat"] as! String)!, longitude: Double(row["lon"] as! String)!)
      for (coordinate, members) in [(point, row), (point.antipode, row["antipode"] as! [String: Any])] {
        let placemark = try Self.geocoder.placemark(for: coordinate)
        var expected = try #require(
          try JSONSerialization.jsonObject(with: Data(placemark.json(precision: .data).utf8))
            as? [String: Any])
        expected["latitude"] = nil
        expected["longitude"] = nil
        // A row carries the fields asked for; the headline is the text's line for a whole placemark.
        expected["headline"] = nil
        func canonical(_ value: Any) throws -> String {
          String(
            decoding: try JSONSerialization.data(
              withJSONObject: ["value": value], options: [.sortedKeys, .fragmentsAllowed]), as: UTF8.self)
        }
        for (key, value) in expected {
          #expect(try canonical(members[key] ?? NSNull()) == canonical(value), "\(key) of \(coordinate)")
        }
      }
      let antipode = row["antipode"] as! [String: Any]
      #expect(antipode["latitude"] as? Double == point.antipode.latitude)
    }
  }

  @Test("GeoJSON out is a feature collection, longitude first; bad rows keep a null geometry or are left out")
  func geoJSON() throws {
    let text = "lat,lon,name\n56,8.5,Skjern\n95,0,bad\n-33.9,18.4,Cape Town\n"
    let options = BatchRun.Options(fields: [.country], format: .geojson)
    let (output, summary, _) = try run(text, options: options)
    let collection = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    let features = try #require(collection["features"] as? [[String: Any]])
    #expect(features.count == 3 && summary.badRows == 1)
    let geometry = try #require(features[0]["geometry"] as? [String: Any])
    #expect(geometry["coordinates"] as? [Double] == [8.5, 56])
    #expect(features[1]["geometry"] is NSNull)
    let properties = try #require(features[2]["properties"] as? [String: Any])
    #expect(properties["name"] as? String == "Cape Town")
    #expect((properties["country"] as? [String: Any])?["code"] as? String == "ZA")
    var skipping = options
    skipping.skipInvalid = true
    let skipped = try run(text, options: skipping)
    let kept = try #require(
      try JSONSerialization.jsonObject(with: Data(skipped.output.utf8)) as? [String: Any])
    #expect((kept["features"] as? [Any])?.count == 2 && skipped.summary.badRows == 1)
    #expect(skipped.summary.rowsWritten == 2)
    let empty = try run("lat,lon\n", options: options)
    #expect(
      (try JSONSerialization.jsonObject(with: Data(empty.output.utf8)) as? [String: Any])?["features"]
        as? [Any] != nil)
  }

  @Test("JSON input passes through as written; CSV out from JSON takes the first row's names")
  func jsonPassThrough() throws {
    let text = """
      {"id": 1.50, "lat": 56, "lon": 8.5, "tag": "a\\"b"}
      {"lat": -33.9, "id": 2, "lon": 18.4}
      """
    let (jsonl, _, _) = try run(text, options: BatchRun.Options(fields: [.timeZone], format: .jsonl))
    #expect(
      jsonl.hasPrefix(
        #"{"id":1.50,"lat":56,"lon":8.5,"tag":"a\"b","timeZone":{"identifier":"Europe/Copenhagen","others":[]}}"#
      ))
    let (csv, _, _) = try run(text, options: BatchRun.Options(fields: [.timeZone], format: .csv))
    #expect(
      csv == """
        id,lat,lon,tag,time_zone,time_zone_others,input,error
        1.50,56,8.5,"a""b",Europe/Copenhagen,,,
        2,-33.9,18.4,,Africa/Johannesburg,,,

        """)
    // A bad row first, alone in its chunk, does not give the columns.
    let (late, _, _) = try run(
      "{\"a\": 1}\n" + text, options: BatchRun.Options(fields: [.timeZone], format: .csv, chunkSize: 1))
    #expect(
      late.hasPrefix(
        "id,lat,lon,tag,time_zone,time_zone_others,input,error\n,,,,,,\"{\"\"a\"\":1}\",\"no member holds the coordinate"
      ))
    #expect(late.contains("\n1.50,56,8.5,\"a\"\"b\",Europe/Copenhagen,,,\n"))
  }

  @Test(
    "A plain line passes through as it is and gives the row the same line with quotes gives",
    arguments: BatchOutputFormat.allCases, [[PlacemarkField.nearestPlace], [.country, .nearestPlace]])
  func plainLines(format: BatchOutputFormat, fields: [PlacemarkField]) throws {
    let rows = [
      ["7", "56", "8.5", "Skjern"], ["8", "-33.9", "18.4", "Cape Town; ZA"],
      ["9", "0.000001", "-179.9999", ""],
      ["10", "+12", "360", "x"],
      // Backslashes and control characters, which JSON escapes, are plain.
      ["11", "1", "2", "a\\b\u{1}c\td"],
    ]
    // Each row twice: plain, then every field quoted (which the reader takes the general way).
    var text = "id,lat,lon,note\n"
    for row in rows {
      text += row.joined(separator: ",") + "\n"
      text += row.map { "\"\($0)\"" }.joined(separator: ",") + "\n"
    }
    let options = BatchRun.Options(fields: fields, antipode: true, format: format, threads: 2, chunkSize: 3)
    let (output, summary, _) = try run(text, options: options)
    #expect(summary.rows == 2 * rows.count && summary.badRows == 0)
    var lines = output.split(separator: "\n").map(String.init)
    switch format {
    case .csv, .tsv:
      lines.removeFirst()
    case .jsonl:
      break
    case .geojson:
      lines = lines.dropFirst().dropLast().map { $0.hasSuffix(",") ? String($0.dropLast()) : $0 }
    }
    try #require(lines.count == 2 * rows.count)
    for index in rows.indices {
      #expect(lines[2 * index] == lines[2 * index + 1], "row \(index + 1)")
    }
    if format == .csv { #expect(lines[6].hasPrefix("10,+12,360,x,")) }
  }

  @Test(
    "The nearest place's columns or member, written once per place, are those a whole placemark gives",
    arguments: [
      (BatchOutputFormat.csv, 9), (.tsv, 9), (.csv, 3), (.csv, 12), (.csv, 15), (.jsonl, 9), (.geojson, 15),
    ])
  func placeColumns(format: BatchOutputFormat, places: Int) throws {
    var text = "id,lat,lon\n"
    for index in 0..<2_000 {
      // Many rows share a place: the points come in tight groups of five.
      let latitude = Double(index / 5 * 7_919 % 1_800) / 10 - 90 + Double(index % 5) * 0.001
      let longitude = Double(index / 5 * 104_729 % 3_600) / 10 - 180
      text += "\(index),\(latitude),\(longitude)\n"
    }
    let precision = try Precision(degrees: places)
    let fast = try run(
      text,
      options: BatchRun.Options(fields: [.nearestPlace], antipode: true, format: format, precision: precision)
    ).output
    let whole = try run(
      text,
      options: BatchRun.Options(
        fields: [.nearestPlace, .land], antipode: true, format: format, precision: precision)
    ).output
    if format == .jsonl || format == .geojson {
      // The whole placemark's lines are the fast path's with `land` added after each nearest place.
      let fastLines = fast.split(separator: "\n")
      let wholeLines = whole.split(separator: "\n").map {
        $0.replacing(#/"land":(true|false|null),/#, with: "").replacing(
          #/,"land":(true|false|null)/#, with: "")
      }
      try #require(
        fastLines.count == (format == .jsonl ? 2_000 : 2_002) && fastLines.count == wholeLines.count)
      for (one, other) in zip(fastLines, wholeLines) { #expect(one == other) }
      return
    }
    let separator: Character = format == .tsv ? "\t" : ","
    let fastRows = Self.fields(fast, separator: separator)
    let wholeRows = Self.fields(whole, separator: separator)
    try #require(fastRows.count == 2_001 && wholeRows.count == 2_001)
    // id, lat, lon, six nearest-place columns, [land], the antipode's two and six, [land], error.
    for (one, other) in zip(fastRows, wholeRows) {
      try #require(one.count == 18 && other.count == 20)
      #expect(one[0..<9] == other[0..<9] && one[9..<17] == other[10..<18] && one[17] == other[19], "\(one)")
    }
  }

  /// Points uniform on the sphere, just off coasts and just off country borders, and the batch of every
  /// field with their antipodes, as CSV.
  static let wholeBatch: (text: String, output: String) = {
    let data = try! PlaceData()
    var generator = SplitMix64(seed: 28)
    var coordinates = (0..<600).map { _ in Coordinate.random(using: &generator) }
    let coast = try! data.coastline(.high).polygons
    let borders = try! data.countries().polygons
    for _ in 0..<200 { coordinates.append(coast.pointNearAVertex(within: 0.05, using: &generator)) }
    for _ in 0..<200 { coordinates.append(borders.pointNearAVertex(within: 0.05, using: &generator)) }
    let text = "lat,lon\n" + coordinates.map { "\($0.latitude),\($0.longitude)\n" }.joined()
    let whole = try! BatchRunTests().run(
      text, options: BatchRun.Options(antipode: true, format: .csv, chunkSize: 4_000))
    return (text, whole.output)
  }()

  /// A batch of some fields writes, in each of its columns, the bytes the batch of every field writes
  /// there: on uniform points, points just off coasts and just off country borders (where the tolerances
  /// decide), with the antipodes, across several chunks.
  @Test(arguments: [
    [PlacemarkField.land], [.country], [.region], [.sea], [.nearestLand], [.timeZone], [.timeZone, .country],
    [.nearestLand, .sea], [.region, .land, .nearestPlace],
  ])
  func fieldsCostWhatTheyAsk(_ fields: [PlacemarkField]) throws {
    let (text, whole) = try Self.wholeBatch
    let some = try run(
      text, options: BatchRun.Options(fields: fields, antipode: true, format: .csv, chunkSize: 4_000)
    )
    .output
    let wholeRows = Self.fields(whole, separator: ",")
    let someRows = Self.fields(some, separator: ",")
    try #require(wholeRows.count == 1_001 && someRows.count == wholeRows.count)
    let header = wholeRows[0]
    for (column, name) in someRows[0].enumerated() {
      let wholeColumn = try #require(header.firstIndex(of: name), "no column \(name) in the whole batch")
      for row in 1..<someRows.count where someRows[row][column] != wholeRows[row][wholeColumn] {
        Issue.record(
          "\(name) of \(someRows[row][0]), \(someRows[row][1]): \(someRows[row][column]) against \(wholeRows[row][wholeColumn])"
        )
      }
    }
  }

  /// The fields of each line of CSV or TSV output, unquoted (a doubled quote inside quotes is one).
  /// Nearest places alone take the fast path: their columns are written once per place and copied
  /// into every row, kept from chunk to chunk. Over chunks of more than a thousand points each, they are
  /// the bytes the batch of every field writes in those columns, as CSV and as JSON Lines.
  @Test func nearestPlacesAcrossChunksAreTheWholeBatchs() throws {
    let (text, whole) = try Self.wholeBatch
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let body = lines.dropFirst().joined(separator: "\n")
    let repeated = "lat,lon\n" + body + body + body
    let some = try run(
      repeated,
      options: BatchRun.Options(fields: [.nearestPlace], antipode: true, format: .csv, chunkSize: 1_100)
    ).output
    let wholeRows = Self.fields(whole, separator: ",")
    let someRows = Self.fields(some, separator: ",")
    try #require(someRows.count == 3 * (wholeRows.count - 1) + 1)
    let header = wholeRows[0]
    for (column, name) in someRows[0].enumerated() {
      let wholeColumn = try #require(header.firstIndex(of: name), "no column \(name) in the whole batch")
      for row in 1..<someRows.count
      where someRows[row][column] != wholeRows[(row - 1) % (wholeRows.count - 1) + 1][wholeColumn] {
        Issue.record("\(name), row \(row): \(someRows[row][column])")
      }
    }
    // JSON Lines: each row's nearestPlace members are those of the whole placemark's.
    let jsonFast = try run(
      repeated,
      options: BatchRun.Options(fields: [.nearestPlace], antipode: true, format: .jsonl, chunkSize: 1_100)
    ).output.split(separator: "\n")
    let jsonWhole = try run(
      repeated,
      options: BatchRun.Options(
        fields: [.nearestPlace, .land], antipode: true, format: .jsonl, chunkSize: 1_100)
    ).output.split(separator: "\n")
    try #require(jsonFast.count == jsonWhole.count && jsonFast.count == 3 * (wholeRows.count - 1))
    for (fast, slow) in zip(jsonFast, jsonWhole) {
      let fastObject = try JSONSerialization.jsonObject(with: Data(fast.utf8)) as! [String: Any]
      let slowObject = try JSONSerialization.jsonObject(with: Data(slow.utf8)) as! [String: Any]
      let places = try #require(fastObject["nearestPlace"] as? NSDictionary, "\(fast)")
      #expect(places == slowObject["nearestPlace"] as? NSDictionary, "\(fast)")
      let antipode = try #require(fastObject["antipode"] as? [String: Any], "\(fast)")
      let antipodePlaces = try #require(antipode["nearestPlace"] as? NSDictionary, "\(fast)")
      #expect(
        antipodePlaces == (slowObject["antipode"] as? [String: Any])?["nearestPlace"] as? NSDictionary)
    }
  }

  static func fields(_ text: String, separator: Character) -> [[String]] {
    var rows: [[String]] = []
    var row: [String] = []
    var field = ""
    var quoted = false
    var justClosed = false
    for character in text {
      if quoted {
        if character == "\"" {
          quoted = false
          justClosed = true
        } else {
          field.append(character)
        }
        continue
      }
      defer { justClosed = false }
      switch character {
      case "\"":
        if justClosed { field.append("\"") }
        quoted = true
      case separator:
        row.append(field)
        field = ""
      case "\n":
        row.append(field)
        rows.append(row)
        (row, field) = ([], "")
      default:
        field.append(character)
      }
    }
    return rows
  }

  @Test("A plain TSV line written as CSV quotes the fields that need it, and as TSV stays as it is")
  func plainTSVAsCSV() throws {
    let text = "id\tlat\tlon\tnote\n1\t56\t8.5\tSkjern, DK\n2\t-33.9\t18.4\tsay \"hi\n"
    var options = BatchRun.Options(fields: [.nearestPlace], format: .csv)
    let csv = try run(text, options: options, format: .tsv).output
    #expect(csv.contains("\n1,56,8.5,\"Skjern, DK\",Skjern,DK,"))
    // A quote makes the line not plain: read the general way, and quoted as any field with a quote.
    #expect(csv.contains("\n2,-33.9,18.4,\"say \"\"hi\","))
    options.format = .tsv
    let tsv = try run(text, options: options, format: .tsv).output
    #expect(tsv.contains("\n1\t56\t8.5\tSkjern, DK\tSkjern\tDK\t"))
  }

  @Test("Rows that come down a pipe in bursts are answered as they come, each with its own line")
  func bursts() throws {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    let writer = ends[1]
    var rows: [(line: String, coordinate: Coordinate)] = []
    for index in 0..<100 {
      let coordinate = try Coordinate(
        latitude: Double(index % 20) * 4 - 40, longitude: Double(index / 20) * 30)
      rows.append(("\(index),\(coordinate.latitude),\(coordinate.longitude)", coordinate))
    }
    let bursts = stride(from: 0, to: rows.count, by: 20).map { start in
      rows[start..<(start + 20)].map { $0.line + "\n" }.joined()
    }
    let thread = Thread {
      for text in ["id,lat,lon\n"] + bursts {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
        usleep(30_000)
      }
      close(writer)
    }
    thread.start()
    defer { close(ends[0]) }
    let input = try BatchInput(path: "/dev/fd/\(ends[0])")
    let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent(
      "batch-\(UUID().uuidString)"
    )
    .path
    let descriptor = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    defer { try? FileManager.default.removeItem(atPath: outputPath) }
    let summary = try BatchRun(
      input: input, geocoder: Self.geocoder, options: BatchRun.Options(fields: [.nearestPlace])
    ).run(output: descriptor)
    close(descriptor)
    #expect(summary.rows == rows.count)
    let lines = try String(contentsOfFile: outputPath, encoding: .utf8).split(separator: "\n").dropFirst()
    try #require(lines.count == rows.count)
    for (line, row) in zip(lines, rows) {
      let name = try #require(try Self.geocoder.nearestPlace(to: row.coordinate)).name
      #expect(line.hasPrefix(row.line + "," + name + ","), "\(line)")
    }
  }

  @Test("A stop between chunks ends with whole rows, and GeoJSON closed")
  func stop() throws {
    let (text, _) = Self.points(100)
    var asked = 0
    let options = BatchRun.Options(fields: [.nearestPlace], format: .geojson, chunkSize: 10)
    let (output, summary, _) = try run(text, options: options) {
      asked += 1
      return asked > 2
    }
    #expect(summary.rows < 100 && summary.rows % 10 == 0)
    let collection = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    #expect((collection["features"] as? [Any])?.count == summary.rowsWritten)
  }

  @Test("A reader that goes away ends the batch quietly")
  func closedOutput() throws {
    signal(SIGPIPE, SIG_IGN)
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    close(ends[0])
    defer { close(ends[1]) }
    let (text, _) = Self.points(50)
    let input = try BatchInput(bytes: Array(text.utf8))
    let summary = try BatchRun(
      input: input, geocoder: Self.geocoder, options: BatchRun.Options(fields: [.nearestPlace])
    ).run(output: ends[1])
    #expect(summary.outputClosed)
  }

  /// A sink that keeps what it takes, refuses (or fails) the write numbered `refusing` (the header is
  /// the first) and counts every write asked of it.
  final class CountingSink: BatchByteSink, @unchecked Sendable {
    // @unchecked: the batch hands the sink from thread to thread, one at a time.
    let refusing: Int
    let fails: Bool
    var taken: [UInt8] = []
    var writes = 0

    init(refusing: Int, fails: Bool = false) {
      self.refusing = refusing
      self.fails = fails
    }

    func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(BatchError) -> Bool {
      writes += 1
      if writes == refusing {
        if fails { throw .writeFailed("the disk is full") }
        return false
      }
      // Slow enough that the next chunk is answered while this one is written.
      usleep(2_000)
      taken += bytes
      return true
    }
  }

  @Test("Chunks are written while the next is answered: in order, and none after a refusal")
  func chunksWrittenBeside() throws {
    let (text, _) = Self.points(100)
    for format in [BatchOutputFormat.csv, .geojson] {
      let options = BatchRun.Options(fields: [.nearestPlace, .country], format: format, chunkSize: 10)
      let whole = try run(text, options: options).output
      let all = CountingSink(refusing: 0)
      let summary = try BatchRun(
        input: try BatchInput(bytes: Array(text.utf8)), geocoder: Self.geocoder, options: options
      )
      .run(to: all)
      #expect(String(decoding: all.taken, as: UTF8.self) == whole)
      #expect(summary.rows == 100 && all.writes == 12)
      // The header, two chunks, then the third refused: the batch ends with the rows read until then,
      // and nothing more is asked of the sink.
      let refusing = CountingSink(refusing: 4)
      let ended = try BatchRun(
        input: try BatchInput(bytes: Array(text.utf8)), geocoder: Self.geocoder, options: options
      )
      .run(to: refusing)
      #expect(ended.outputClosed && ended.rows == 30 && ended.rowsWritten == 30 && refusing.writes == 4)
      let header = whole.split(separator: "\n", omittingEmptySubsequences: false).prefix(1)
      #expect(String(decoding: refusing.taken, as: UTF8.self).hasPrefix(header.joined()))
      #expect(whole.hasPrefix(String(decoding: refusing.taken, as: UTF8.self)))
      // A write that fails fails the batch, and nothing more is written.
      let failing = CountingSink(refusing: 3, fails: true)
      #expect(throws: BatchError.writeFailed("the disk is full")) {
        try BatchRun(
          input: try BatchInput(bytes: Array(text.utf8)), geocoder: Self.geocoder, options: options
        )
        .run(to: failing)
      }
      #expect(failing.writes == 3)
    }
  }
}
