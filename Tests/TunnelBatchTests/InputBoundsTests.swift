import Foundation
import Testing
import TunnelGeo

@testable import TunnelBatch

/// Reading stops when asked whatever it is reading, only a real end makes a cut line a row, and what
/// one row or chunk may hold is bounded.
@Suite struct InputBoundsTests {
  /// `bytes` in a temporary file, removed by the caller.
  func file(_ bytes: [UInt8]) -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("bounds-\(UUID().uuidString)")
      .path
    FileManager.default.createFile(atPath: path, contents: Data(bytes))
    return path
  }

  static let long = String(repeating: "x", count: 3 << 20)

  @Test(
    "A stop asked for after the first row ends the input there: a cut line is no row, an endless one is not read to its end",
    arguments: [
      (BatchInputFormat.csv, "lat,lon\n1,2\n", "3,45.5"),
      (.csv, "lat,lon\n1,2\n", long),
      (.csv, "lat,lon\n1,2\n", "3,\"" + long),
      (.tsv, "lat\tlon\n1\t2\n", "3\t45.5"),
      (.tsv, "lat\tlon\n1\t2\n", long),
      (.jsonl, "{\"lat\":1,\"lon\":2}\n", "{\"lat\":3,\"lon\":45.5}"),
      (.jsonl, "{\"lat\":1,\"lon\":2}\n", "{\"a\":\"" + long),
      (
        .geojson,
        "{\"type\":\"FeatureCollection\",\"features\":[\n"
          + "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[2,1]},\"properties\":{}}",
        ",\n{\"type\":\"Feature\",\"properties\":{\"a\":\"" + long
      ),
      (
        .geojson, "{\"type\":\"Point\",\"coordinates\":[2,1]}\n",
        "{\"type\":\"Point\",\"coordinates\":[45.5,3"
      ),
    ])
  func stopEndsTheInput(format: BatchInputFormat, first: String, rest: String) throws {
    let path = file(Array((first + rest).utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    nonisolated(unsafe) var stop = false
    let input = try BatchInput(
      path: path, format: format, columns: .init(), blockSize: 1 << 16, stopRequested: { stop })
    let row = try #require(try input.next())
    #expect(row.coordinate == (try Coordinate(latitude: 1, longitude: 2)))
    stop = true
    #expect(try input.next() == nil)
    #expect(input.bytesRead < 1 << 20)
  }

  @Test("A stop asked for while a long CSV record is skipped ends the input there")
  func stopWhileSkipping() throws {
    let lines = String(repeating: String(repeating: "x", count: 80) + "\n", count: 150_000)
    let path = file(Array(("lat,lon\n3,\"" + lines + "\"\n5,6\n").utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    // Asked once a read: the reads grow to 2 MiB, and the record (12 MiB) is being skipped by the 8th.
    nonisolated(unsafe) var asks = 0
    let input = try BatchInput(
      path: path, format: .csv, columns: .init(), blockSize: 1 << 16,
      stopRequested: {
        asks += 1
        return asks > 8
      })
    #expect(try input.next() == nil)
    #expect(input.bytesRead < 10 << 20)
  }

  @Test("At the real end, a last line without its newline is a row")
  func lastLineWithoutNewline() throws {
    let (_, rows) = try records("lat,lon\n1,2\n3,45.5", format: .csv)
    #expect(
      rows.map(\.coordinate) == [
        try Coordinate(latitude: 1, longitude: 2), try Coordinate(latitude: 3, longitude: 45.5),
      ])
  }

  @Test("A GeoJSON feature longer than the cap is a bad row, and reading goes on after it")
  func longFeature() throws {
    let huge = String(repeating: "y", count: GeoJSONSource.maximumFeatureBytes + 1)
    let point =
      "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[2,1]},\"properties\":{}}"
    let long = "{\"type\":\"Feature\",\"properties\":{\"a\":\"\\\"" + huge + "\",\"b\":[{}]}}"
    let problem = "the feature is longer than 16 MiB; it is not read"
    for text in [
      "{\"type\":\"FeatureCollection\",\"features\":[\n" + point + ",\n" + long + ",\n" + point + "]}\n",
      point + "\n" + long + "\n" + point + "\n",
    ] {
      let (_, rows) = try records(Array(text.utf8), format: .geojson, blockSize: 1 << 20)
      #expect(rows.map(\.line) == [2, 3, 4].map { $0 - (text.hasPrefix(point) ? 1 : 0) })
      #expect(rows.map(\.problem) == [nil, problem, nil])
      #expect(rows[2].coordinate == (try Coordinate(latitude: 1, longitude: 2)))
    }
  }

  @Test("A feature nested too deep is a bad row, and reading goes on after it; in JSON Lines, a bad line")
  func deepFeature() throws {
    let deep = String(repeating: "{\"a\":[", count: 150) + "1" + String(repeating: "]}", count: 150)
    let point =
      "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[2,1]},\"properties\":{}}"
    let nested = point.replacing("{}}", with: "{\"x\":\(deep)}}")
    let problem = "the feature is nested more than 256 deep; it is not read"
    let collection = "{\"type\":\"FeatureCollection\",\"features\":["
    for (text, lines, problems) in [
      (collection + "\n" + point + ",\n" + nested + ",\n" + point + "]}\n", [2, 3, 4], [nil, problem, nil]),
      (collection + nested + "]}", [1], [problem]),
      (point + "\n" + nested + "\n\u{1E}" + point + "\n", [1, 2, 3], [nil, problem, nil]),
    ] {
      for blockSize in [5, 1 << 16] {
        let (_, rows) = try records(Array(text.utf8), format: .geojson, blockSize: blockSize)
        #expect(rows.map(\.line) == lines)
        #expect(rows.map(\.problem) == problems)
      }
    }
    let jsonLines = "{\"lat\":1,\"lon\":2}\n{\"lat\":1,\"lon\":2,\"x\":\(deep)}\n{\"lat\":3,\"lon\":4}\n"
    let (_, rows) = try records(Array(jsonLines.utf8), format: .jsonl)
    #expect(rows.map(\.line) == [1, 2, 3])
    #expect(rows[1].problem?.hasPrefix("the line is not JSON: nested more than 256 deep at column ") == true)
    #expect(rows[0].problem == nil && rows[2].problem == nil)
  }

  @Test(
    "The end of a JSON value is found a part at a time, without reading the value",
    arguments: [
      ("{\"a\":\"}\\\"]\",\"b\":[1,{\"c\":2}]},", 28),
      ("[[],[\"\\\\\"]] ", 11),
      ("\"x\\\"y\",", 6),
      ("-12.5e3,", 7),
      ("true]", 4),
    ])
  func skip(text: String, end: Int) {
    let bytes = Array(text.utf8)
    for split in 0...bytes.count {
      var skip = JSONSkip()
      let found = bytes.withUnsafeBufferPointer { bytes in
        skip.end(in: bytes, from: 0, to: split) ?? skip.end(in: bytes, from: split, to: bytes.count)
      }
      #expect(found == end, "split at \(split)")
    }
  }

  @Test("A chunk holds the rows of a few megabytes of input at most, however long the rows")
  func chunkBytes() throws {
    let note = String(repeating: "n", count: 900_000)
    var text = "lat,lon,note\n"
    for index in 0..<40 { text += "\(index),\(index),\(note)\n" }
    let path = file(Array(text.utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let reader = ChunkReader(input: try BatchInput(path: path), chunkSize: 16_384)
    defer { reader.cancel() }
    var rows = 0
    var before = 0
    while true {
      let chunk = try reader.next { false }
      if chunk.records.isEmpty { break }
      #expect(chunk.bytesRead - before <= ChunkReader.maximumChunkBytes + 1 << 20)
      #expect(chunk.records.count < 40)
      rows += chunk.records.count
      before = chunk.bytesRead
    }
    #expect(rows == 40)
  }
}
