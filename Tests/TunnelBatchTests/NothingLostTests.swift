import Foundation
import Testing
import TunnelGeo

@testable import TunnelBatch

/// Nothing the input gave is lost on its way to another format: a feature's id and point, a bad JSON
/// row's values, a CSV row's extra fields, rows a stray carriage return would join, a NUL.
@Suite struct NothingLostTests {
  func run(
    _ text: String, format: BatchInputFormat? = nil, output: BatchOutputFormat, skipInvalid: Bool = false
  ) throws -> String {
    let options = BatchRun.Options(fields: [.land], format: output, skipInvalid: skipInvalid)
    return try BatchRunTests().run(text, options: options, format: format).output
  }

  static let features = """
    {"type":"FeatureCollection","name":"towns","crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:OGC:1.3:CRS84"}},"features":[
    {"type":"Feature","id":"a1","bbox":[8.50,56.0,8.50,56.0],"geometry":{"type":"Point","coordinates":[8.50,56.0]},"properties":{"latitude":"mine","id":7}},
    {"type":"Feature","geometry":{"type":"Point","coordinates":[8.5,95]},"properties":{"latitude":"bad"}},
    {"type":"Feature","id":3,"geometry":{"type":"Point","coordinates":[-30.5,40.25]},"properties":{"latitude":"too","id":null}}
    ],"bbox":[8.5,-33.9,18.4,56]}

    """

  @Test("GeoJSON as CSV or TSV: each row starts with the feature's id and its point as written, named apart")
  func geoJSONAsCSV() throws {
    #expect(
      try run(Self.features, output: .csv) == """
        tunnel_id,tunnel_latitude,tunnel_longitude,latitude,id,land,input,error
        a1,56.0,8.50,mine,7,true,,
        ,95,8.5,bad,,,"{""type"":""Feature"",""geometry"":{""type"":""Point"",""coordinates"":[8.5,95]},""properties"":{""latitude"":""bad""}}",latitude 95 is outside -90…90
        3,40.25,-30.5,too,,false,,

        """)
    // Left out bad rows do not shift the rest: each says where it is.
    #expect(
      try run(Self.features, output: .tsv, skipInvalid: true) == """
        tunnel_id\ttunnel_latitude\ttunnel_longitude\tlatitude\tid\tland
        a1\t56.0\t8.50\tmine\t7\ttrue
        3\t40.25\t-30.5\ttoo\t\tfalse

        """)
  }

  @Test("GeoJSON as JSON Lines: the id when there is one, the point always, before the properties")
  func geoJSONAsJSONLines() throws {
    let lines = try run(Self.features, output: .jsonl).split(separator: "\n")
    #expect(lines.count == 3)
    #expect(
      lines[0]
        == #"{"tunnel_id":"a1","tunnel_latitude":56.0,"tunnel_longitude":8.50,"latitude":"mine","id":7,"land":true}"#
    )
    #expect(
      lines[1].hasPrefix(#"{"tunnel_latitude":95,"tunnel_longitude":8.5,"latitude":"bad","input":"{\"type\""#)
    )
    #expect(lines[1].hasSuffix(#","error":"latitude 95 is outside -90…90"}"#))
    let plain = try run(
      #"{"type":"Feature","id":9,"geometry":{"type":"Point","coordinates":[8.5,56]},"properties":{}}"#,
      format: .geojson, output: .jsonl)
    #expect(plain == #"{"id":9,"latitude":56,"longitude":8.5,"land":true}"# + "\n")
  }

  @Test("GeoJSON as GeoJSON keeps each feature's id and bbox and the collection's name, crs and bbox")
  func geoJSONAsGeoJSON() throws {
    let output = try run(Self.features, output: .geojson)
    let lines = output.split(separator: "\n")
    #expect(
      lines.first
        == #"{"type":"FeatureCollection","name":"towns","crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:OGC:1.3:CRS84"}},"features":["#
    )
    #expect(
      lines[1].hasPrefix(
        #"{"type":"Feature","id":"a1","bbox":[8.50,56.0,8.50,56.0],"geometry":{"type":"Point","coordinates":[8.50,56.0]},"#
      ))
    #expect(lines[3].hasPrefix(#"{"type":"Feature","id":3,"geometry":"#))
    // The bad feature's members were read: it is not written twice.
    #expect(!lines[2].contains("\"input\""))
    #expect(lines.last == #"],"bbox":[8.5,-33.9,18.4,56]}"#)
    let collection = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    #expect(collection["name"] as? String == "towns" && (collection["features"] as? [Any])?.count == 3)
  }

  @Test(
    "A bad JSON row as CSV or TSV keeps its text as it came in the input column",
    arguments: [BatchOutputFormat.csv, .tsv])
  func badJSONRowKept(output: BatchOutputFormat) throws {
    let text = """
      {"lat":56,"lon":8.5,"note":"first"}
      {"lat":56,"lon":8.5,"lat":1}
      not json, "quoted"
      {"lat":95, "lon":8.5,"note":"far"}
      {"lat":56,"lon":8.5,"extra":[1, 2]}

      """
    let separator = output == .tsv ? "\t" : ","
    let written = try run(text, format: .jsonl, output: output)
    let (_, rows) = try records(written, format: output == .tsv ? .tsv : .csv)
    #expect(
      rows.map(\.values).map { $0[0..<5] } == [
        ["56", "8.5", "first", "true", ""],
        ["", "", "", "", #"{"lat":56,"lon":8.5,"lat":1}"#],
        ["", "", "", "", #"not json, "quoted""#],
        // Read whole: its members as they came.
        ["95", "8.5", "far", "", #"{"lat":95,"lon":8.5,"note":"far"}"#],
        ["56", "8.5", "", "", #"{"lat":56,"lon":8.5,"extra":[1, 2]}"#],
      ])
    #expect(written.hasPrefix(["lat", "lon", "note", "land", "input", "error"].joined(separator: separator)))
  }

  @Test("A JSON row that cannot be read is written with its text as JSON Lines and GeoJSON too")
  func unreadableJSONRowKept() throws {
    let text = "{\"lat\":56,\"lon\":8.5}\n{\"lat\":56,\"lon\":8.5,\"lat\":1}\n"
    let lines = try run(text, format: .jsonl, output: .jsonl).split(separator: "\n")
    #expect(
      lines[1]
        == #"{"input":"{\"lat\":56,\"lon\":8.5,\"lat\":1}","error":"the member 'lat' is given twice"}"#)
    let geoJSON = try run(text, format: .jsonl, output: .geojson)
    #expect(geoJSON.contains(#""properties":{"input":"{\"lat\":56,\"lon\":8.5,\"lat\":1}","error""#))
    // A row with a member of that name gets Tunnel's under another.
    let named = try run(
      #"{"type":"Feature","geometry":{"type":"Point","coordinates":[0,91]},"properties":{"input":1}}"#,
      format: .geojson, output: .jsonl)
    #expect(named.contains(#","input":1,"tunnel_input":"{\"type\":"#))
  }

  @Test(
    "A CSV row with more fields than its header names them apart from the header's own",
    arguments: [BatchOutputFormat.jsonl, .geojson])
  func extraFields(output: BatchOutputFormat) throws {
    let written = try run("lat,lon,column4\n56,8.5,x,y,z\n", output: output)
    #expect(written.contains(#""lat":"56","lon":"8.5","column4":"x","tunnel_column4":"y","column5":"z","#))
  }

  @Test(
    "A carriage return alone ends a row: a file of such lines is refused, a stray one joins no rows",
    arguments: [true, false])
  func carriageReturns(readsPlainLines: Bool) throws {
    for (text, format) in [("lat,lon\r56,8.5\r", BatchInputFormat.csv), ("56\t8.5\r1\t2\r", .tsv)] {
      #expect(throws: BatchError.carriageReturnLineEnds(line: 1)) {
        try records(Array(text.utf8), format: format, readsPlainLines: readsPlainLines)
      }
    }
    #expect(throws: BatchError.carriageReturnLineEnds(line: 1)) {
      try records("{\"lat\":1,\"lon\":2}\r{\"lat\":3,\"lon\":4}\r", format: .jsonl)
    }
    let csv = "lat,lon,note\r\n56,8.5,a\r-33.9,18.4,\"b\rc\"\r\n1,2,x\r\n"
    let (_, rows) = try records(Array(csv.utf8), format: .csv, readsPlainLines: readsPlainLines)
    #expect(rows.map(\.values) == [["56", "8.5", "a"], ["-33.9", "18.4", "b\rc"], ["1", "2", "x"]])
    #expect(rows.map(\.line) == [2, 2, 3] && rows.allSatisfy { $0.problem == nil })
    let tsv = "lat\tlon\r\n56\t8.5\r-33.9\t18.4\r\n"
    let (_, tsvRows) = try records(Array(tsv.utf8), format: .tsv, readsPlainLines: readsPlainLines)
    #expect(tsvRows.map(\.values) == [["56", "8.5"], ["-33.9", "18.4"]])
    let jsonl = "{\"lat\":56,\"lon\":8.5}\r\n{\"lat\":1,\"lon\":2}\r{\"lat\":3,\r\"lon\":4}\r\n"
    let (_, jsonRows) = try records(jsonl, format: .jsonl)
    #expect(jsonRows.map(\.values) == [["56", "8.5"], ["1", "2"], ["3", "4"]])
  }

  @Test(
    "A JSON array is refused with what it is and what to do, guessed or named",
    arguments: [
      ("[{\"lat\":56,\"lon\":8.5}]", nil, BatchError.jsonArray(expected: .jsonl, line: 1)),
      ("\n[\n  {\"lat\":56,\"lon\":8.5}\n]\n", nil, .jsonArray(expected: .jsonl, line: 2)),
      ("[{\"lat\":56,\"lon\":8.5}]", .jsonl, .jsonArray(expected: .jsonl, line: 1)),
      ("[{\"type\":\"Feature\"}]", .geojson, .jsonArray(expected: .geojson, line: 1)),
    ] as [(String, BatchInputFormat?, BatchError)])
  func jsonArray(text: String, format: BatchInputFormat?, error: BatchError) throws {
    #expect(throws: error) { try records(text, format: format) }
    #expect(error.description.contains("JSON array") && error.description.contains("jq -c '.[]'"))
  }

  @Test("A CSV header that starts with a bracket is still CSV")
  func bracketedHeader() throws {
    let (input, rows) = try records("[lat],[lon],lat,lon\n1,2,56,8.5\n")
    #expect(input.format == .csv && rows.count == 1 && rows[0].problem == nil)
  }

  @Test("A NUL is never written raw to CSV or TSV: ␀ in CSV, \\0 in TSV, which reads back as NUL")
  func nul() throws {
    let text = "lat,lon,note\n56,8.5,a\u{0}b\n"
    #expect(try run(text, output: .csv) == "lat,lon,note,land,error\n56,8.5,a\u{2400}b,true,\n")
    let tsv = try run(text, output: .tsv)
    #expect(tsv == "lat\tlon\tnote\tland\terror\n56\t8.5\ta\\0b\ttrue\t\n")
    let (_, rows) = try records(tsv, format: .tsv)
    #expect(rows.first?.values[2] == "a\u{0}b")
    // From JSON too, and in a header.
    #expect(
      try run("{\"lat\":56,\"lon\":8.5,\"n\\u0000\":\"\\u0000\"}\n", format: .jsonl, output: .csv)
        == "lat,lon,n\u{2400},land,input,error\n56,8.5,\u{2400},true,,\n")
  }
}
