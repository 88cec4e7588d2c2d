import Foundation
import SeededRandom
import Testing
import TunnelGeo

@testable import TunnelBatch

@Suite struct JSONInputTests {
  @Test("JSON Lines: members kept in order and as written; the coordinate found by name")
  func jsonLines() throws {
    let text = """
      {"id": 1, "lat": 56.0, "lon": 8.50, "tags": {"a": [1, 2]}}
      {"lon": "18.4", "id": "x", "lat": "-33.9"}

      {"id": 3, "position": "56°33′N 8°19′E"}
      """
    let (input, rows) = try records(text, blockSize: 4)
    #expect(input.format == .jsonl)
    #expect(rows.count == 3)
    #expect(
      rows[0].names == ["id", "lat", "lon", "tags"]
        && rows[0].values == ["1", "56.0", "8.50", "{\"a\": [1, 2]}"])
    #expect(rows[1].coordinate == (try Coordinate(latitude: -33.9, longitude: 18.4)))
    #expect(rows[2].coordinate?.latitude == 56.55 && rows[2].line == 4)
  }

  @Test(
    "JSON Lines read in chunks, their lines on several threads, are the rows read one at a time",
    arguments: [(16_384, 2, 1 << 20), (1_000, 3, 4_093), (7, 1, 61)], ["\n", "\r\n"])
  func chunked(sizes: (chunkSize: Int, threads: Int, blockSize: Int), lineEnd: String) throws {
    let (chunkSize, threads, blockSize) = sizes
    var generator = SplitMix64(seed: UInt64(chunkSize * 7 + threads))
    // Good rows mostly, in two shapes, and every kind of bad or unusual line among them: a CR alone
    // ending a row before the next on the same line, CR LF, blank and indented lines, an array, text
    // after the object, a name twice, bytes that are not UTF-8, a line cut short, members in another
    // order, no coordinate, a latitude out of range.
    let odd = [
      #"{"id":1,"lat":5,"lon":6}\#r{"id":2,"lat":7,"lon":8}"#, #"{"id":3,"lat":5,"lon":6}\#r"#, "", "  ",
      #"  {"id":4,"lat":5,"lon":6}"#, "[1,2]", #"{"id":5,"lat":5,"lon":6} 7"#, #"{"lat":5,"lat":6,"lon":7}"#,
      "{\"id\":\"\u{FF}\",\"lat\":5,\"lon\":6}", #"{"id":6,"lat":5"#, #"{"lon":6,"lat":5,"id":7}"#,
      #"{"id":8}"#, #"{"id":9,"lat":95,"lon":6}"#,
      #"{"id":10,"lat":"5","lon":"6","tags":{"a":[1,{"b":null}]}}"#,
    ]
    var lines = [#"{"id":0,"lat":1,"lon":2}"#]
    for row in 0..<20_000 {
      if Int.random(in: 0..<15, using: &generator) == 0 {
        lines.append(odd.randomElement(using: &generator)!)
      } else if row % 2 == 0 {
        let latitude = Double(Int.random(in: -90_000...90_000, using: &generator)) / 1e3
        lines.append(#"{"id":\#(row),"lat":\#(latitude),"lon":\#(row % 360 - 180).25}"#)
      } else {
        lines.append(#"{"name":"p\#(row)","latitude":\#(row % 180 - 90),"longitude":-\#(row % 180)}"#)
      }
    }
    var bytes = Array(lines.joined(separator: lineEnd).utf8)
    // A byte that is not UTF-8 inside one row's string.
    if let at = bytes.firstIndex(of: 0xC3), bytes[at + 1] == 0xBF { bytes[at] = 0xFF; bytes[at + 1] = 0x20 }
    let oneByOne = try records(bytes, format: .jsonl, blockSize: blockSize).rows
    let chunked = try chunkedRecords(
      bytes, format: .jsonl, blockSize: blockSize, chunkSize: chunkSize, threads: threads)
    #expect(try differingRows(chunked, oneByOne) == 0)
    #expect(oneByOne.count { $0.problem != nil } > 300)
  }

  @Test(
    "GeoJSON features read in chunks on several threads are the features read one at a time",
    arguments: [(16_384, 2, 1 << 20), (1_000, 3, 4_093), (7, 1, 61)])
  func chunkedFeatures(sizes: (chunkSize: Int, threads: Int, blockSize: Int)) throws {
    let (chunkSize, threads, blockSize) = sizes
    var generator = SplitMix64(seed: UInt64(chunkSize * 3 + threads))
    // Points mostly, and every kind of odd feature among them: spread over lines, no geometry but
    // properties that hold the point, another geometry, a Point without two numbers, a name twice, a
    // property that is not UTF-8, a latitude out of range, an id and a bbox, a bare Point.
    let odd = [
      #"{"type":"Feature","geometry":{"type":"Point","coordinates":[ 8.5 ,"# + "\n"
        + #" 56 ]},"properties":{}}"#,
      #"{"type":"Feature","geometry":null,"properties":{"lat":5,"lon":6}}"#,
      #"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[1,2],[3,4]]},"properties":{}}"#,
      #"{"type":"Feature","geometry":{"type":"Point","coordinates":[8.5]},"properties":{"a":1}}"#,
      #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"a":1,"a":2}}"#,
      "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]},\"properties\":{\"n\":\"\u{FF}\"}}",
      #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,95]},"properties":{}}"#,
      #"{"type":"Feature","id":7,"bbox":[1,2,1,2],"geometry":{"type":"Point","coordinates":[1,2]}}"#,
      #"{"type":"Point","coordinates":[3,4]}"#,
    ]
    var features: [String] = []
    for row in 0..<12_000 {
      if Int.random(in: 0..<12, using: &generator) == 0 {
        features.append(odd.randomElement(using: &generator)!)
      } else {
        let latitude = Double(Int.random(in: -90_000...90_000, using: &generator)) / 1e3
        features.append(
          #"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(row % 360 - 180).5,\#(latitude)]},"#
            + #""properties":{"id":\#(row)}}"#)
      }
    }
    var bytes = Array(
      ("{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}\n").utf8
    )
    if let at = bytes.firstIndex(of: 0xC3), bytes[at + 1] == 0xBF { bytes[at] = 0xFF; bytes[at + 1] = 0x20 }
    let oneByOne = try records(bytes, format: .geojson, blockSize: blockSize).rows
    let chunked = try chunkedRecords(
      bytes, format: .geojson, blockSize: blockSize, chunkSize: chunkSize, threads: threads)
    #expect(try differingRows(chunked, oneByOne) == 0)
    #expect(zip(chunked, oneByOne).allSatisfy { $0.geometry == $1.geometry && $0.feature == $1.feature })
    #expect(oneByOne.count { $0.problem != nil } > 300)
  }

  @Test("Members named by number: a row with fewer members is a bad row, not a crash")
  func numberedMembers() throws {
    let text = "{\"lat\": 56, \"lon\": 8.5}\n{}\n{\"lat\": 1}\n"
    // The options called as the front end calls them.
    let options = CoordinateColumns.OptionNames(latitude: "--lat-column", longitude: "--lon-column")
    let (_, rows) = try records(text, columns: .init(latitude: "1", longitude: "2", options: options))
    #expect(rows.count == 3)
    #expect(rows[0].coordinate == (try Coordinate(latitude: 56, longitude: 8.5)))
    #expect(
      rows[1].coordinate == nil
        && rows[1].problem == "--lat-column '1' names no member of this row (the row has no members)")
    #expect(
      rows[2].coordinate == nil && rows[2].problem?.hasPrefix("--lon-column '2' names no member") == true)
  }

  @Test(
    "Bad JSON lines are rows with their problem",
    arguments: [
      ("[1, 2]", "the line is not a JSON object"),
      ("{\"lat\": 1,", "the line ends inside its JSON object"),
      ("{\"lat\" 1}", "the line is not JSON: expected ':' at column 8"),
      ("{\"lat\": 1} {}", "the line holds more than one JSON value"),
      ("{\"lat\": -00, \"lon\": 2}", "the line is not JSON: a number with a leading zero at column 10"),
      (
        "{\"name\": \"x\"}",
        "no member holds the coordinate (lat and lon, latitude and longitude, or coordinate)"
      ),
      ("{\"lat\": null, \"lon\": 1}", "the latitude is null"),
      ("{\"lat\": true, \"lon\": 1}", "the latitude is not a number or text"),
      ("{\"lat\": 95, \"lon\": 1}", "latitude 95 is outside -90…90"),
    ])
  func badLines(line: String, problem: String) throws {
    let (_, rows) = try records("{\"lat\": 1, \"lon\": 2}\n" + line + "\n", format: .jsonl)
    #expect(rows.count == 2 && rows[0].problem == nil)
    #expect(rows[1].problem == problem && rows[1].line == 2)
  }

  @Test(
    "GeoJSON: a feature collection streamed feature by feature, longitude first, properties passed through")
  func featureCollection() throws {
    let text = """
      {"type": "FeatureCollection", "name": "points", "features": [
        {"type": "Feature", "geometry": {"type": "Point", "coordinates": [8.5, 56.0]}, "properties": {"id": 1}},
        {"type": "Feature", "geometry": {"type": "Point", "coordinates": [18.4, -33.9, 12]}, "properties": null},
        {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}, "properties": {"id": 3}},
        {"type": "Feature", "geometry": null, "properties": {"id": 4}}
      ], "bbox": [0, 0, 1, 1]}
      """
    let (input, rows) = try records(text, blockSize: 16)
    #expect(input.format == .geojson)
    #expect(rows.count == 4)
    #expect(rows[0].coordinate == (try Coordinate(latitude: 56, longitude: 8.5)) && rows[0].values == ["1"])
    #expect(rows[0].line == 2 && rows[3].line == 5)
    #expect(rows[1].coordinate?.latitude == -33.9 && rows[1].values.isEmpty)
    #expect(rows[2].problem == "the geometry is a LineString, not a Point")
    #expect(rows[3].problem?.hasPrefix("the feature has no geometry") == true)
  }

  @Test("GeoJSON: features one after another (one a line, or after RS) and a lone feature")
  func featureSequence() throws {
    let feature =
      #"{"type":"Feature","geometry":{"type":"Point","coordinates":[8.5,56]},"properties":{"n":1}}"#
    let lines = try records(feature + "\n" + feature + "\n", format: .geojson)
    #expect(lines.rows.count == 2 && lines.rows.allSatisfy { $0.coordinate != nil })
    let separated = try records("\u{1E}" + feature + "\n\u{1E}" + feature + "\n")
    #expect(separated.input.format == .geojson && separated.rows.count == 2)
    #expect(try records(feature).rows.count == 1)
  }

  @Test("A type that is not a string is a bad row, not a trap (found by the batch-reader fuzzer)")
  func typeThatIsNotAString() throws {
    let typed = try records(
      #"{"type":4,"geometry":{"type":"Point","coordinates":[8.5,56]}}"# + "\n", format: .geojson)
    #expect(typed.rows.count == 1)
    #expect(typed.rows.first?.problem == "the object is not a GeoJSON Feature (its type is missing)")
    // The fuzzer's own input: a number for a type, then junk.
    let found = Array("{\"type\":4}!}\n{e\":\"\u{14}kjern\"}}}}\n".utf8)
    #expect(found.count == 30)
    _ = try? records(found, format: .geojson)
    _ = try? records(found)
  }

  @Test("A broken collection ends the batch with the line where it broke")
  func brokenCollection() throws {
    let text = """
      {"type":"FeatureCollection","features":[
      {"type":"Feature","geometry":{"type":"Point","coordinates":[8.5,56]},"properties":{}},
      {"type":"Feature","geometry":{"type":"Point" "coordinates":[8.5,56]}}
      ]}
      """
    #expect(throws: BatchError.unreadableDocument(line: 3, reason: "not GeoJSON: expected ',' or '}'")) {
      try records(text, blockSize: 8)
    }
    #expect(throws: BatchError.self) {
      try records("{\"type\":\"FeatureCollection\",\"features\":[", format: .geojson)
    }
  }

  @Test("Random bytes never crash the JSON readers")
  func randomBytes() throws {
    var generator = SystemRandomNumberGenerator()
    let alphabet = Array("{}[]\":,0123456789.-eE truefalsnl\\u\n\u{1E}".utf8) + [0xFF, 0x00]
    for format in [BatchInputFormat.jsonl, .geojson] {
      for _ in 0..<300 {
        let bytes = (0..<Int.random(in: 0..<200, using: &generator)).map { _ in
          alphabet.randomElement(using: &generator)!
        }
        _ = try? records(bytes, format: format, blockSize: 3)
      }
    }
  }

  @Test("Deep nesting is refused, not followed")
  func deepNesting() throws {
    let deep = "{\"lat\":1,\"lon\":2,\"x\":" + String(repeating: "[", count: 100_000) + "}\n"
    let (_, rows) = try records(deep, format: .jsonl, blockSize: 1 << 16)
    #expect(rows.first?.problem?.contains("nested more than 256 deep") == true)
  }
}
