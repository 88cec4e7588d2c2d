import Foundation
import Testing
import TunnelGeo

@testable import TunnelBatch

/// Nothing of the input is lost or altered on its way through a batch: what cannot pass through whole
/// makes a bad row, no output has a name twice, geometry stays as it came, TSV stays TSV.
@Suite struct PassThroughTests {
  func run(
    _ text: String, format: BatchInputFormat? = nil, fields: [PlacemarkField] = [.land],
    output: BatchOutputFormat, toTerminal: Bool = false
  ) throws -> (output: String, summary: BatchRun.Summary) {
    var options = BatchRun.Options(fields: fields, format: output)
    options.toTerminal = toTerminal
    let (written, summary, _) = try BatchRunTests().run(text, options: options, format: format)
    return (written, summary)
  }

  @Test(
    "Quoted fields that need no quotes are read as plain lines without them: the same bytes out as read the general way",
    arguments: BatchOutputFormat.allCases, ["\n", "\r\n"])
  func quotedAsPlain(format: BatchOutputFormat, lineEnd: String) throws {
    // As R writes a table, and every way a quote makes a line more than plain: a quoted separator, a
    // doubled quote, text after a closing quote, a quote inside a field, a quoted newline, a line that
    // is only an empty quoted field, an empty quoted field among others, a CR, bytes above ASCII; lines
    // ending in LF, and in CR LF.
    var text = "\"\",\"name\",\"lat\",\"lon\"" + lineEnd
    let odd = [
      "\"1\",\"Skjern\",55.95,8.5", "\"2\",\"Skjern, DK\",55.95,8.5", "\"3\",\"a\"\"b\",1,2",
      "\"4\",\"a\"b,1,2",
      "\"5\",a\"b,1,2", "\"6\",\"two\nlines\",1,2", "\"\"", "\"7\",\"\",\"56.5\",\"-8.25\"",
      "\"8\",x,\"91\",1",
      "\"9\",x,1\r", "\"10\",\"é\",1,2", "\"11\",\"x\",\"1\"", "\"12\",\"x\",1,2,\"3\"", "\"13\",\"\",,",
    ]
    for row in 0..<400 {
      text +=
        row % 3 == 0
        ? odd[row / 3 % odd.count] : "\"\(row)\",\"p\(row)\",\(row % 180 - 90).5,\(row % 360 - 180)"
      text += lineEnd
    }
    text += "\"last\",\"no newline\",1,2"
    let options = BatchRun.Options(fields: [.land], format: format)
    let general = try BatchRunTests().run(text, options: options, readsPlainLines: false)
    for blockSize in [64, 1 << 20] {
      let plain = try BatchRunTests().run(text, options: options, blockSize: blockSize)
      #expect(plain.output == general.output, "block size \(blockSize)")
      #expect(plain.bad == general.bad)
    }
    #expect(general.bad.count > 30)
  }

  @Test(
    "A JSON row that cannot pass through whole is a bad row with its problem, its values not written",
    arguments: [
      (
        "{\"lat\":1,\"lon\":2,\"n\":\"\u{FF}\"}",
        "the line is not JSON: it holds bytes that are not UTF-8 text"
      ),
      ("{\"lat\":1,\"lon\":2,\"\u{FF}\":3}", "the line is not JSON: it holds bytes that are not UTF-8 text"),
      ("{\"lat\":1,\"lon\":2,\"\\ud800\":3}", "the name of member 3 is not text"),
      ("{\"lat\":1,\"lon\":2,\"lat\":3}", "the member 'lat' is given twice"),
      ("{\"a\":0,\"lat\":1,\"lon\":2,\"a\":3}", "the member 'a' is given twice"),
    ])
  func jsonLinesWhole(line: String, problem: String) throws {
    var bytes = Array("{\"lat\":1,\"lon\":2}\n".utf8)
    // U+00FF stands for the byte 0xFF.
    bytes += line.unicodeScalars.map { $0.value == 0xFF ? 0xFF : UInt8($0.value) } + [0x0A]
    let (_, rows) = try records(bytes, format: .jsonl)
    #expect(rows.count == 2 && rows[0].problem == nil)
    #expect(rows[1].problem == problem && rows[1].values.isEmpty && rows[1].coordinate == nil)
  }

  @Test(
    "A GeoJSON feature that cannot pass through whole is a bad row",
    arguments: [
      (
        "\"properties\":{\"n\":\"\u{FF}\"}", "the feature is not JSON: it holds bytes that are not UTF-8 text"
      ),
      ("\"properties\":{\"\\udc00x\":1}", "the name of property 1 is not text"),
      ("\"properties\":{\"a\":1,\"a\":2}", "the property 'a' is given twice"),
      ("\"properties\":{},\"properties\":{}", "the member 'properties' is given twice"),
    ])
  func geoJSONWhole(members: String, problem: String) throws {
    let point = "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[2,1]},"
    var bytes = Array((point + "\"properties\":{}}\n").utf8)
    bytes += (point + members + "}\n").unicodeScalars.map { $0.value == 0xFF ? 0xFF : UInt8($0.value) }
    let (_, rows) = try records(bytes, format: .geojson)
    #expect(rows.count == 2 && rows[0].problem == nil)
    #expect(rows[1].problem == problem && rows[1].values.isEmpty && rows[1].coordinate == nil)
  }

  @Test("A CSV or TSV header that names two columns alike is refused, naming the columns")
  func repeatedHeader() throws {
    #expect(throws: BatchError.repeatedColumn(name: "lat", columns: [1, 3])) {
      try records("lat,lon,lat\n1,2,3\n")
    }
    #expect(throws: BatchError.repeatedColumn(name: "x", columns: [3, 4])) {
      try records("lat\tlon\tx\tx\n1\t2\t\t\n", format: .tsv)
    }
  }

  @Test("Columns without a name (trailing separators) are called by their numbers, not refused")
  func unnamedColumns() throws {
    let (input, rows) = try records("lat,lon,,\n1,2,,x\n")
    #expect(input.columnNames == ["lat", "lon", "column3", "column4"])
    #expect(rows.count == 1 && rows[0].problem == nil)
    // A number's name already taken is not taken twice.
    #expect(
      try records("lat,lon,,column3\n1,2,,x\n").input.columnNames == [
        "lat", "lon", "tunnel_column3", "column3",
      ])
  }

  @Test(
    "--lat-column and --lon-column naming one column are refused",
    arguments: [("1", "1"), ("lat", "1"), ("lon", nil)] as [(String, String?)])
  func sameColumn(latitude: String, longitude: String?) throws {
    let name = latitude == "lon" ? "lon" : "lat"
    #expect(throws: BatchError.sameColumn(name: name)) {
      try records("lat,lon\n1,2\n", columns: .init(latitude: latitude, longitude: longitude))
    }
  }

  @Test("JSON rows as CSV or TSV: a row with members the first row has not is a bad row that says which")
  func membersBeyondColumns() throws {
    let text = """
      {"lat":56,"lon":8.5,"id":1}
      {"id":2,"lon":8.5,"lat":56}
      {"lat":56,"lon":8.5,"id":3,"note":"x","tag":1}
      {"lat":56,"lon":8.5}

      """
    for format in [BatchOutputFormat.csv, .tsv] {
      let (output, summary) = try run(text, output: format)
      #expect(summary.badRows == 1)
      let separator = format == .csv ? "," : "\t"
      let lines = output.split(separator: "\n").map { $0.components(separatedBy: separator) }
      #expect(lines[0] == ["lat", "lon", "id", "land", "input", "error"])
      #expect(lines[2] == ["56", "8.5", "2", "true", "", ""])
      #expect(lines[3].prefix(3) == ["56", "8.5", "3"])
      #expect(
        output.contains(
          "the output's columns are the first row's, and this row's members 'note', 'tag' are not among them; write JSON Lines (BatchOutputFormat.jsonl) to keep every member"
        ))
      #expect(lines[4] == ["56", "8.5", "", "true", "", ""])
    }
    // JSON Lines keeps them all.
    let (output, summary) = try run(text, output: .jsonl)
    #expect(summary.badRows == 0 && output.contains("\"note\":\"x\",\"tag\":1"))
  }

  @Test(
    "No output has a name twice: Tunnel's columns and members that the input has are written as tunnel_…",
    arguments: BatchOutputFormat.allCases)
  func namesApart(format: BatchOutputFormat) throws {
    let csv = "lat,lon,land,error,tunnel_land\n56,8.5,x,y,z\n95,0,x,y,z\n"
    let (output, summary) = try run(csv, fields: [.land, .sea], output: format)
    #expect(summary.rows == 2 && summary.badRows == 1)
    switch format {
    case .csv, .tsv:
      let separator = format == .csv ? "," : "\t"
      let header = output.split(separator: "\n")[0].components(separatedBy: separator)
      #expect(
        header == [
          "lat", "lon", "land", "error", "tunnel_land", "tunnel_tunnel_land", "sea", "lake", "in_lake",
          "tunnel_error",
        ])
      #expect(
        output.split(separator: "\n")[1].components(separatedBy: separator)[2...5] == ["x", "y", "z", "true"])
    case .jsonl, .geojson:
      let rows =
        format == .jsonl
        ? output.split(separator: "\n").map(String.init)
        : output.split(separator: "\n").dropFirst().dropLast().map {
          String($0.hasSuffix(",") ? $0.dropLast() : $0)
        }
      #expect(rows.count == 2)
      for row in rows {
        for key in ["\"land\":", "\"error\":", "\"tunnel_land\":", "\"lat\":"] {
          #expect(row.components(separatedBy: key).count == 2, "\(key) in \(row)")
        }
      }
      #expect(rows[0].contains("\"land\":\"x\"") && rows[0].contains("\"tunnel_tunnel_land\":true"))
      #expect(rows[1].contains("\"tunnel_error\":\"latitude 95 is outside -90…90\""))
    }
    // A JSON row moves Tunnel's members only for itself.
    let jsonl = "{\"lat\":56,\"lon\":8.5,\"land\":0}\n{\"lat\":56,\"lon\":8.5}\n"
    let (lines, _) = try run(jsonl, output: .jsonl)
    #expect(
      lines
        == "{\"lat\":56,\"lon\":8.5,\"land\":0,\"tunnel_land\":true}\n{\"lat\":56,\"lon\":8.5,\"land\":true}\n"
    )
  }

  @Test("GeoJSON out keeps the input's geometry as it came, for good rows and bad, on one line")
  func geometryAsItCame() throws {
    let text = """
      {"type":"FeatureCollection","features":[
      {"type":"Feature","geometry":{"type":"Point","coordinates":[200,56.000]},"properties":{"a":1}},
      {"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[0,1],[0,0]]]},"properties":{"a":2}},
      {"type":"Feature","geometry":{ "type" : "Point",
        "coordinates" : [ 8.5 , 56, 12 ] },"properties":{"a":{ "b" : [1, 2] }}},
      {"type":"Feature","geometry":null,"properties":{"a":4}}
      ]}

      """
    let (output, _) = try run(text, output: .geojson)
    let features = output.split(separator: "\n").dropFirst().dropLast()
    #expect(features.count == 4)
    #expect(
      features[1].hasPrefix(
        "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[200,56.000]},"))
    #expect(
      features[2].hasPrefix(
        "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1,0],[0,1],[0,0]]]},"
      ))
    #expect(
      features[3].hasPrefix(
        "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[8.5,56,12]},\"properties\":{\"a\":{\"b\":[1,2]},"
      ))
    #expect(features[4].hasPrefix("{\"type\":\"Feature\",\"geometry\":null,"))
    let collection = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    #expect((collection["features"] as? [Any])?.count == 4)
  }

  @Test("TSV out is never quoted: tabs, line breaks and backslashes in values are escaped, one line a row")
  func tsvOut() throws {
    let csv = "lat,lon,note\n56,8.5,\"a\tb\nc\\d\"\"e\"\n56,8.5,\"x,y\"\n"
    let (output, _) = try run(csv, output: .tsv)
    #expect(
      output
        == "lat\tlon\tnote\tland\terror\n56\t8.5\ta\\tb\\nc\\\\d\"e\ttrue\t\n56\t8.5\tx,y\ttrue\t\n")
    // And read back as it was.
    let (_, rows) = try records(output, format: .tsv)
    #expect(
      rows.map(\.values) == [["56", "8.5", "a\tb\nc\\d\"e", "true", ""], ["56", "8.5", "x,y", "true", ""]])
  }

  @Test(
    "TSV in has no quotes: a leading quote is text; escapes are read, any other backslash is kept",
    arguments: [true, false])
  func tsvIn(readsPlainLines: Bool) throws {
    let text = "lat\tlon\tnote\n56\t8.5\t\"quoted\"\n56\t8.5\t\"open\n56\t8.5\ta\\tb\\\\c\\xd\\\n"
    let (_, rows) = try records(Array(text.utf8), format: .tsv, readsPlainLines: readsPlainLines)
    #expect(rows.map(\.problem) == [nil, nil, nil])
    #expect(rows.map { $0.values[2] } == ["\"quoted\"", "\"open", "a\tb\\c\\xd\\"])
  }

  @Test("A terminal gets control, bidirectional and C1 characters escaped; files get the bytes")
  func terminal() throws {
    let csv = "lat,lon,note\n56,8.5,\"\u{1B}[31mred\u{202E}\u{85}\ttab\"\n"
    let (escaped, _) = try run(csv, output: .csv, toTerminal: true)
    #expect(escaped.hasSuffix("56,8.5,\\u{1B}[31mred\\u{202E}\\u{85}\ttab,true,\n"))
    let (raw, _) = try run(csv, output: .csv)
    #expect(raw.hasSuffix("56,8.5,\u{1B}[31mred\u{202E}\u{85}\ttab,true,\n"))
  }
}
