import Foundation
import Testing

@Suite struct BatchCommandTests {
  /// A file in the temporary folder holding `text`, removed by the caller.
  func file(_ text: String, extension name: String = "csv") -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "batch-\(UUID().uuidString).\(name)"
    ).path
    FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    return path
  }

  static let points = """
    \u{FEFF}id,lat,lon,note\r
    1,56,8.5,"Skjern, ""DK""\"\r
    2,-33.9,18.4,"two\r
    lines"\r
    3,91,0,too far north\r
    4,-56,-171.5,plain\r

    """

  @Test("CSV in, CSV out: rows in equal rows out, columns passed through, the bad row named by its line")
  func csv() throws {
    let result = try TunnelProcess.run(
      ["batch", "--fields", "country,nearestPlace"], input: Data(Self.points.utf8))
    #expect(result.status == 65)
    let rows = CSVTable(result.standardOutput).rows
    #expect(rows.count == 5)
    #expect(rows[0].prefix(6) == ["id", "lat", "lon", "note", "country_code", "country_name"])
    #expect(rows[0].last == "error")
    #expect(rows[1].prefix(5) == ["1", "56", "8.5", "Skjern, \"DK\"", "DK"])
    #expect(rows[2][3] == "two\r\nlines" && rows[2][4] == "ZA")
    #expect(rows[3][0] == "3" && rows[3].last == "latitude 91 is outside -90…90")
    #expect(rows[4][4] == "" && rows[4][7] == "Waitangi")
    #expect(
      result.standardError == """
        tunnel: standard input, line 5: latitude 91 is outside -90…90
        tunnel: 1 of 4 rows was bad (see the error column)

        """)
  }

  @Test("Every output format holds every row: JSON Lines, GeoJSON (longitude first) and TSV")
  func formats() throws {
    for format in ["jsonl", "geojson", "tsv", "csv"] {
      let result = try TunnelProcess.run(
        ["batch", "--fields", "timeZone", "--antipode", "--format", format], input: Data(Self.points.utf8))
      #expect(result.status == 65, "\(format): \(result.standardError)")
      let output = result.standardOutput
      switch format {
      case "jsonl":
        let rows = try output.split(separator: "\n").map {
          try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(rows.map { $0["id"] as? String } == ["1", "2", "3", "4"])
        #expect((rows[0]["antipode"] as? [String: Any])?["longitude"] as? Double == -171.5)
        #expect(rows[2]["error"] as? String == "latitude 91 is outside -90…90")
      case "geojson":
        let collection = try #require(
          try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let features = try #require(collection["features"] as? [[String: Any]])
        #expect(features.count == 4)
        #expect((features[0]["geometry"] as? [String: Any])?["coordinates"] as? [Double] == [8.5, 56])
        #expect(features[2]["geometry"] is NSNull)
      default:
        #expect(output.split(separator: "\n").first?.contains(format == "tsv" ? "\t" : ",") == true)
        #expect(output.contains("antipode_time_zone"))
      }
    }
  }

  @Test("The first 20 bad rows are named, then counted; --skip-invalid leaves them out and exits 0")
  func manyBadRows() throws {
    var text = "lat,lon\n"
    for index in 0..<30 { text += index % 6 == 0 ? "\(index),\(index)\n" : "x\(index),0\n" }
    let result = try TunnelProcess.run(["batch", "--fields", "nearestPlace"], input: Data(text.utf8))
    #expect(result.status == 65)
    let lines = result.standardError.split(separator: "\n")
    #expect(lines.count == 22)
    #expect(lines[0] == "tunnel: standard input, line 3: the latitude 'x1' is not a number or an angle")
    #expect(lines[20] == "tunnel: … and 5 more bad rows")
    #expect(lines[21] == "tunnel: 25 of 30 rows were bad (see the error column)")
    #expect(result.standardOutput.split(separator: "\n").count == 31)
    let skipped = try TunnelProcess.run(
      ["batch", "--fields", "nearestPlace", "--skip-invalid"], input: Data(text.utf8))
    #expect(skipped.status == 0)
    #expect(skipped.standardOutput.split(separator: "\n").count == 6)
    #expect(!skipped.standardOutput.contains("error"))
    #expect(skipped.standardError.hasSuffix("tunnel: 25 of 30 rows were bad and left out of the output\n"))
  }

  @Test("--fields none writes every row back with no field, bad rows marked as always, in every format")
  func noField() throws {
    let text = "lat,lon,name\n56,8.5,a\n91,0,bad\n-33.9,18.4,\"b, c\"\n"
    let csv = try TunnelProcess.run(["batch", "--fields", "none", "--antipode"], input: Data(text.utf8))
    #expect(csv.status == 65)
    #expect(
      csv.standardOutput
        == "lat,lon,name,antipode_latitude,antipode_longitude,error\n56,8.5,a,-56,-171.5,\n"
        + "91,0,bad,,,latitude 91 is outside -90…90\n-33.9,18.4,\"b, c\",33.9,-161.6,\n")
    let lines = try TunnelProcess.run(
      ["batch", "--fields", "None", "--format", "jsonl", "--skip-invalid"], input: Data(text.utf8))
    #expect(lines.status == 0)
    #expect(
      lines.standardOutput
        == "{\"lat\":\"56\",\"lon\":\"8.5\",\"name\":\"a\"}\n{\"lat\":\"-33.9\",\"lon\":\"18.4\",\"name\":\"b, c\"}\n"
    )
  }

  @Test(
    "Bad files and options are one plain line and the documented exit status",
    arguments: [
      (
        ["batch", "/nonexistent/points.csv"], "", 66,
        "cannot open '/nonexistent/points.csv': No such file or directory"
      ),
      (["batch", "/tmp"], "", 66, "cannot open '/tmp': it is a folder, not a file"),
      (
        ["batch", "--fields", "bogus"], "", 64,
        "--fields: there is no field 'bogus'; the fields are land, country"
      ),
      (
        ["batch", "--fields", "none,land"], "", 64,
        "--fields: 'none' stands alone: it adds no field, so it cannot be named with others"
      ),
      (
        ["batch", "--lat-column", "nope"], "a,b\n1,2\n", 64,
        "standard input: --lat-column 'nope' is not a column of the input"
      ),
      (
        ["batch"], "a,b\n1,2\n", 65,
        "standard input: cannot tell which columns hold the coordinates (the header, split at commas, is 'a', 'b')"
      ),
      (
        ["batch", "--lat-column", "a"], "a,b,c\n1,2,3\n", 65,
        "standard input: no column of the input is named as a longitude (the header is 'a', 'b', 'c'); name it with --lon-column"
      ),
      (
        ["batch"], "lat,lon,\"na\"me\n1,2,x\n", 65,
        "standard input, line 1, the header: text follows the closing quote of field 3"
      ),
      (
        ["batch"], "lat,lon,lat\n1,2,3\n", 65,
        "standard input, line 1, the header: columns 1 and 3 are both named 'lat'; give each column a name of its own"
      ),
      (
        ["batch", "--lat-column", "1", "--lon-column", "1"], "lat,lon\n1,2\n", 64,
        "--lat-column and --lon-column both name the column '1'"
      ),
      (
        ["batch", "--lat-column", "lon"], "lat,lon\n1,2\n", 64,
        "standard input: --lat-column and --lon-column both name the column 'lon'"
      ),
      (["batch", "--precision", "99"], "", 64, "--precision must be between 0 and 15"),
      (["batch", "--input-format", "xml"], "", 64, "'xml'"),
      (
        ["batch", "--coordinate-column", "a", "--lat-column", "b"], "", 64, "give either --coordinate-column"
      ),
      (
        ["batch", "--fields", "country"], "latitude,lat,lon\n10,56,8.5\n", 65,
        "standard input: more than one column could be the latitude ('latitude', 'lat'); choose one with --lat-column"
      ),
      (
        ["batch", "--fields", "country"], "Lat,lat,lon\n10,56,8.5\n", 65,
        "standard input: more than one column could be the latitude ('Lat', 'lat'); choose one with --lat-column"
      ),
      (
        ["batch", "--fields", "country"], "lat,lng,lon\n56,10,8.5\n", 65,
        "standard input: more than one column could be the longitude ('lng', 'lon'); choose one with --lon-column"
      ),
      (
        ["batch", "--lat-column", "lat"], "lat,lng,lon\n56,10,8.5\n", 65,
        "standard input: more than one column could be the longitude ('lng', 'lon'); choose one with --lon-column"
      ),
      (
        ["batch"], "lat|lon\n56|8.5\n", 65,
        "standard input: cannot tell which columns hold the coordinates (the header, split at commas, is 'lat|lon')"
      ),
      (
        ["batch", "--input-format", "geojson"], "{\"type\":\"FeatureCollection\",\"features\":[{]}", 65,
        "standard input, line 1: not GeoJSON: expected a member's name; the rest of the document cannot be read"
      ),
    ])
  func failures(arguments: [String], input: String, status: Int32, message: String) throws {
    let result = try TunnelProcess.run(arguments, input: Data(input.utf8))
    #expect(result.status == status, "\(arguments): \(result.standardError)")
    #expect(result.standardError.hasPrefix("tunnel: ") && result.standardError.contains(message))
    #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
  }

  @Test("A problem with the header names the file it is in")
  func headerNamesFile() throws {
    let path = file("lat,lon,lat\n1,2,3\n")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = try TunnelProcess.run(["batch", path])
    #expect(result.status == 65)
    #expect(
      result.standardError
        == "tunnel: \(path), line 1, the header: columns 1 and 3 are both named 'lat'; give each column a name of its own\n"
    )
    let other = file("a,b\n1,2\n")
    defer { try? FileManager.default.removeItem(atPath: other) }
    let unnamed = try TunnelProcess.run(["batch", "--lat-column", "x", other])
    #expect(unnamed.status == 64 && unnamed.standardError.hasPrefix("tunnel: \(other): --lat-column 'x'"))
  }

  @Test("A file without a header whose first row is bad: that row is a bad row, the rest are answered")
  func headerlessFirstRowBad() throws {
    let result = try TunnelProcess.run(
      ["batch", "--fields", "land"], input: Data("56,8.5,\"a\"b\n1,2,x\n".utf8))
    #expect(result.status == 65, "\(result.standardError)")
    let rows = result.standardOutput.split(separator: "\n")
    #expect(rows.count == 3 && rows[0] == "latitude,longitude,column3,land,error")
    #expect(rows[1].hasSuffix(",text follows the closing quote of field 3") && rows[2] == "1,2,x,false,")
  }

  @Test("'-' reads standard input; a NUL byte inside a number makes a bad row, not a shorter number")
  func standardInputAndNUL() throws {
    let result = try TunnelProcess.run(
      ["batch", "--fields", "land", "-"], input: Data("lat,lon\n56,8.5\n1\u{0}zzz,2\n".utf8))
    #expect(result.status == 65, "\(result.standardError)")
    let rows = result.standardOutput.split(separator: "\n")
    #expect(rows.count == 3 && rows[1] == "56,8.5,true,")
    #expect(rows[2].hasSuffix(",the latitude holds a NUL byte"))
  }

  @Test("GeoJSON broken part way: the features before it are written and the collection is closed")
  func brokenGeoJSON() throws {
    let text = """
      {"type":"FeatureCollection","features":[
      {"type":"Feature","geometry":{"type":"Point","coordinates":[8.5,56]},"properties":{"n":1}},
      {"type":"Feature" "x"}]}
      """
    let path = file(text, extension: "geojson")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = try TunnelProcess.run(["batch", "--fields", "country", path])
    #expect(result.status == 65)
    #expect(
      result.standardError
        == "tunnel: \(path), line 3: not GeoJSON: expected ',' or '}'; the rest of the document cannot be read\n"
    )
    let collection = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    #expect((collection["features"] as? [Any])?.count == 1)
  }

  @Test("Empty input, or a header alone, is not an error")
  func empty() throws {
    for input in ["", "lat,lon\n", "\n\n"] {
      let result = try TunnelProcess.run(["batch", "--fields", "country"], input: Data(input.utf8))
      #expect(result.status == 0 && result.standardError.isEmpty, "\(input.debugDescription)")
    }
  }

  @Test("A reader that stops reading (| head) ends the batch quietly")
  func closedPipe() throws {
    let note = String(repeating: "n", count: 2_000)
    var text = "lat,lon,note\n"
    for index in 0..<300 { text += "\(index % 90),\(index),\(note)\n" }
    let path = file(text)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let script =
      "set -o pipefail; '\(TunnelProcess.executable.path)' batch --fields nearestPlace '\(path)' | head -c 100 > /dev/null"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", script]
    let error = Pipe()
    process.standardError = error
    try process.run()
    let message = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(message.isEmpty, "\(String(decoding: message, as: UTF8.self))")
  }

  @Test(
    "Ctrl-C or SIGTERM while rows trickle in: the rows so far are written whole, and the exit status says so",
    arguments: zip([SIGINT, SIGTERM], [Int32(130), 143]))
  func interrupt(signal: Int32, status: Int32) throws {
    let process = Process()
    process.executableURL = TunnelProcess.executable
    process.arguments = ["batch", "--fields", "nearestPlace", "--format", "jsonl"]
    let input = Pipe()
    let output = Pipe()
    let error = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = error
    try process.run()
    input.fileHandleForWriting.write(Data("lat,lon\n56,8.5\n-33.9,18.4\n10,10\n".utf8))
    // The rows come out as they arrive, before the input ends.
    var received = Data()
    while received.count { $0 == UInt8(ascii: "\n") } < 3 {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      received += chunk
    }
    kill(process.processIdentifier, signal)
    received += output.fileHandleForReading.readDataToEndOfFile()
    let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    try? input.fileHandleForWriting.close()
    #expect(process.terminationStatus == status)
    let lines = String(decoding: received, as: UTF8.self).split(
      separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 4 && lines.last == "")
    for line in lines.dropLast() {
      #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any])
    }
    let name = signal == SIGINT ? "interrupted" : "terminated"
    #expect(message == "tunnel: \(name) after 3 rows; the output holds those rows, each whole\n")
  }

  @Test("Help explains the formats and the fields, with examples")
  func help() throws {
    let result = try TunnelProcess.run(["batch", "--help"])
    #expect(result.status == 0)
    for text in [
      "Examples:", "tunnel batch points.csv", "--fields",
      "cost several times", "--antipode",
      "tunnel_land", "never quoted", "as it came", "escaped", "Columns are never guessed",
      "the options choose",
      "LATITUDE_DD", "sep=", "semicolons",
    ] {
      #expect(result.standardOutput.contains(text), "\(text)")
    }
  }
}

/// A small RFC 4180 reader, independent of the one under test.
struct CSVTable {
  var rows: [[String]] = []

  init(_ text: String) {
    var row: [String] = []
    var field = ""
    var quoted = false
    var characters = Array(text).makeIterator()
    var pending: Character? = nil
    while let character = pending ?? characters.next() {
      pending = nil
      if quoted {
        if character == "\"" {
          let next = characters.next()
          if next == "\"" {
            field.append("\"")
          } else {
            quoted = false
            pending = next
          }
        } else {
          field.append(character)
        }
        continue
      }
      switch character {
      case "\"": quoted = true
      case ",":
        row.append(field)
        field = ""
      case "\n", "\r\n":
        row.append(field)
        rows.append(row)
        row = []
        field = ""
      default: field.append(character)
      }
    }
    if !field.isEmpty || !row.isEmpty {
      row.append(field)
      rows.append(row)
    }
  }
}
