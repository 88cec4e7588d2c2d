import Foundation
import SeededRandom
import Testing
import TunnelGeo

@testable import TunnelBatch

@Suite struct DelimitedInputTests {
  @Test("A header names the coordinate columns; other columns pass through in order")
  func header() throws {
    let (input, rows) = try records("id,Latitude,name,LON\n7,56,Skjern,8.5\n8,-33.9,Cape Town,18.4\n")
    #expect(input.format == .csv && input.columnNames == ["id", "Latitude", "name", "LON"])
    #expect(rows.map(\.values) == [["7", "56", "Skjern", "8.5"], ["8", "-33.9", "Cape Town", "18.4"]])
    #expect(rows.map(\.line) == [2, 3])
    #expect(
      rows.map(\.coordinate) == [
        try Coordinate(latitude: 56, longitude: 8.5), try Coordinate(latitude: -33.9, longitude: 18.4),
      ])
  }

  @Test("Quoted fields keep separators, doubled quotes and line breaks; CRLF and a BOM are handled")
  func quoting() throws {
    let text = "\u{FEFF}lat,lon,note\r\n56,8.5,\"a, \"\"quoted\"\"\r\nnote\"\r\n-33.9,18.4,plain\r\n"
    let (input, rows) = try records(text, blockSize: 3)
    #expect(input.columnNames == ["lat", "lon", "note"])
    #expect(rows.count == 2)
    #expect(rows[0].values[2] == "a, \"quoted\"\r\nnote" && rows[0].problem == nil)
    #expect(rows[1].values == ["-33.9", "18.4", "plain"] && rows[1].line == 4)
  }

  @Test("Without a header: latitude and longitude first, or one column holding a whole coordinate")
  func headerless() throws {
    let pair = try records("56,8.5,x\n-33.9,18.4,y\n")
    #expect(pair.input.columnNames == ["latitude", "longitude", "column3"] && pair.rows.count == 2)
    let single = try records("56°33′N 8°19′E\n33.9S 18.4E\n")
    #expect(single.input.columnNames == ["coordinate"])
    #expect(single.rows.map { $0.coordinate?.latitude } == [56.55, -33.9])
    let tabs = try records("56\t8.5\n1\t2\n")
    #expect(tabs.input.format == .tsv && tabs.rows.count == 2)
  }

  @Test("Columns named by the user, by name or by number")
  func namedColumns() throws {
    let named = try records("a,b,c\n1,56,8.5\n", columns: .init(latitude: "b", longitude: "c"))
    #expect(named.rows.first?.coordinate == (try Coordinate(latitude: 56, longitude: 8.5)))
    let numbered = try records("x,56,8.5\n", columns: .init(latitude: "2", longitude: "3"))
    #expect(numbered.rows.first?.coordinate == (try Coordinate(latitude: 56, longitude: 8.5)))
    let whole = try records("id,where\n1,56 8.5\n", columns: .init(coordinate: "where"))
    #expect(whole.rows.first?.coordinate == (try Coordinate(latitude: 56, longitude: 8.5)))
    #expect(throws: BatchError.self) { try records("a,b\n1,2\n", columns: .init(latitude: "nope")) }
    #expect(throws: BatchError.noCoordinateColumns(header: ["a", "b"], separator: UInt8(ascii: ","))) {
      try records("a,b\n1,2\n")
    }
  }

  @Test(
    "Bad rows are kept, each with its problem and line",
    arguments: [
      ("lat,lon\n91,0\n", "latitude 91 is outside -90…90"),
      ("lat,lon\nnan,0\n", "latitude nan is not a finite number"),
      ("lat,lon\n10,400\n", "longitude 400 is outside -180…360"),
      ("lat,lon\nabc,5\n", "the latitude 'abc' is not a number or an angle"),
      ("lat,lon\n,\n", "no coordinate"),
      ("lat,lon\n10\n", "the row has 1 field where the header has 2"),
      ("lat,lon\n10,20,30\n", "the row has 3 fields where the header has 2"),
      ("lat,lon\n\"10\"x,20\n", "text follows the closing quote of field 1"),
    ])
  func badRows(text: String, problem: String) throws {
    let (_, rows) = try records(text)
    #expect(rows.count == 1)
    #expect(rows[0].problem == problem && rows[0].coordinate == nil && rows[0].line == 2)
  }

  @Test("A quote never closed spoils one line, not the rest of the file")
  func brokenQuote() throws {
    let (_, rows) = try records("lat,lon\n\"56,8.5\n1,2\n3,4\n")
    #expect(rows.count == 3)
    #expect(rows[0].problem == "the quote that opens field 1 is never closed" && rows[0].line == 2)
    #expect(rows[1].coordinate != nil && rows[1].line == 3 && rows[2].line == 4)
  }

  @Test("Bytes that are not UTF-8 in a header refuse it, and in a first row of data make it bad, as anywhere")
  func notTextFirst() throws {
    for readsPlainLines in [true, false] {
      let header = Array("lat,lo".utf8) + [0xFF] + Array("n\n1,2\n".utf8)
      #expect(throws: BatchError.unreadableHeader("field 2 is not UTF-8 text")) {
        try records(header, format: .csv, readsPlainLines: readsPlainLines)
      }
      let data = Array("56,8.5,".utf8) + [0xC3] + Array("\n1,2,x\n".utf8)
      let rows = try records(data, format: .csv, readsPlainLines: readsPlainLines).rows
      #expect(rows.map(\.problem) == ["field 3 is not UTF-8 text", nil], "\(readsPlainLines)")
    }
  }

  @Test("Bytes that are not UTF-8, NULs and an overlong line are bad rows; blank lines are skipped")
  func garbage() throws {
    var bytes = Array("lat,lon,note\n1,2,ok\n\n3,4,".utf8) + [0xFF, 0xFE, 0x00] + Array("\n".utf8)
    bytes += Array("5,6,".utf8) + Array(repeating: UInt8(ascii: "x"), count: (1 << 20) + 10) + [0x0A]
    bytes += Array("7,8,end".utf8)
    let (_, rows) = try records(bytes, blockSize: 1 << 16)
    #expect(rows.count == 4)
    #expect(rows[0].problem == nil)
    #expect(rows[1].problem == "field 3 is not UTF-8 text" && rows[1].line == 4)
    #expect(
      rows[2].problem?.hasPrefix("the line is longer than 1 MiB") == true && rows[2].line == 5,
      "\(rows[2].problem ?? "")")
    #expect(rows[3].values == ["7", "8", "end"] && rows[3].line == 6)
  }

  @Test("A plain line is too long at the same length as any line: its newline counts")
  func longPlainLines() throws {
    let limit = DelimitedReader.maximumRecordBytes
    func line(_ length: Int, _ prefix: String) -> [UInt8] {
      Array(prefix.utf8) + Array(repeating: UInt8(ascii: "x"), count: length - prefix.utf8.count)
    }
    for quoted in [false, true] {
      // With its newline, the first is as long as a record may be; the second a byte longer; the last
      // has no newline and is as long as a record may be.
      let prefix = quoted ? "1,2,\"" : "1,2,"
      let end: [UInt8] = quoted ? [UInt8(ascii: "\""), 0x0A] : [0x0A]
      var bytes = Array("lat,lon,note\n".utf8)
      bytes += line(limit - end.count, prefix) + end
      bytes += line(limit + 1 - end.count, prefix) + end
      bytes += line(limit - end.count + 1, prefix) + end.dropLast()
      let (_, rows) = try records(bytes, blockSize: 1 << 16)
      try #require(rows.count == 3)
      #expect(rows[0].problem == nil && rows[0].values[2].utf8.count == limit - 1 - 4 - (quoted ? 2 : 0))
      #expect(rows[1].problem?.hasPrefix("the line is longer than 1 MiB") == true && rows[1].line == 3)
      #expect(rows[2].problem == nil && rows[2].line == 4, "\(rows[2].problem ?? "")")
    }
  }

  @Test(
    "A record over the cap whose quoted field holds many lines is one bad row; reading goes on at the next record"
  )
  func longQuotedRecord() throws {
    // Newlines, doubled quotes, separators and CRLF inside the quotes, and a doubled quote at the end
    // of a line: none of them ends the record.
    let lines = String(repeating: String(repeating: "x", count: 80) + "\n", count: 13_000)
    let field = "\"" + lines + "a \"\"quoted\"\", with\r\n\"\"\n\"\",\"\"\n" + lines + "\""
    let record = "56,8.5," + field + "\n"
    let newlines = record.utf8.count { $0 == 0x0A }
    let text = "lat,lon,n\n" + record + "57,8.5,ok\n" + record.replacing("\n", with: "\r\n") + "58,8.5,end"
    for blockSize in [1 << 16, (1 << 20) + 3] {
      let (_, rows) = try records(Array(text.utf8), format: .csv, blockSize: blockSize)
      try #require(rows.count == 4, "\(rows.count) rows")
      #expect(rows.map(\.line) == [2, 2 + newlines, 3 + newlines, 3 + 2 * newlines])
      #expect(
        rows[0].problem == "the row on lines 2–\(1 + newlines) is longer than 1 MiB; it is not read")
      #expect(rows[1].values == ["57", "8.5", "ok"] && rows[1].problem == nil)
      #expect(rows[2].problem?.hasPrefix("the row on lines \(3 + newlines)–") == true)
      #expect(rows[3].values == ["58", "8.5", "end"] && rows[3].problem == nil)
    }
  }

  @Test("Past the cap, a quote never closed takes the rest of the input as one bad row")
  func longOpenQuote() throws {
    let lines = String(repeating: String(repeating: "x", count: 80) + "\n", count: 13_000)
    let (_, rows) = try records(
      Array(("lat,lon,n\n1,2,ok\n56,8.5,\"" + lines + "57,8.5,\"\"\n").utf8), format: .csv,
      blockSize: 1 << 16)
    #expect(rows.map(\.line) == [2, 3])
    #expect(
      rows.last?.problem
        == "the quote that opens field 3 is never closed, and the rest of the input is longer than 1 MiB; "
        + "it is not read")
  }

  @Test("TSV is never quoted: a line over the cap ends at its newline, quotes or not")
  func longTSVLine() throws {
    let long = "56\t8.5\t\"" + String(repeating: "x", count: 1 << 20) + "\n"
    let (_, rows) = try records(
      Array(("lat\tlon\tn\n" + long + "57\t8.5\t\"ok\n").utf8), format: .tsv, blockSize: 1 << 16)
    #expect(rows.map(\.line) == [2, 3])
    #expect(rows[0].problem == "the line is longer than 1 MiB; it is not read")
    #expect(rows[1].values == ["57", "8.5", "\"ok"] && rows[1].problem == nil)
  }

  @Test(
    "Where a record ends is found a part at a time, following CSV's quotes",
    arguments: [
      (",", "a,\"b\nc\"\"\n\",d\ne", 13),
      (",", "\"\"\"\"\n", 5),
      (",", "x\"y\n\"", 4),
      (",", "\"a\"b\"\nc", 6),
      ("\t", "\"a\tb\nc\"\n", 5),
    ])
  func recordSkip(separator: String, text: String, end: Int) {
    let bytes = Array(text.utf8)
    for split in 0...bytes.count {
      var skip = RecordSkip(separator: separator.utf8.first!)
      let found = bytes.withUnsafeBufferPointer { bytes in
        skip.end(in: bytes, from: 0, to: split) ?? skip.end(in: bytes, from: split, to: bytes.count)
      }
      #expect(found == end, "split at \(split)")
    }
  }

  @Test("Random lines give the same rows whether plain lines are read as such or not")
  func plainAndGeneral() throws {
    var generator = SplitMix64(seed: 41)
    // Pieces that make plain lines and every way out of one: quotes, CR, bytes above ASCII, separators.
    let pieces = [
      "1", "56", "-8.5", ".", ",", ",", "\t", "\"", "\r", "\n", "\n", "é", "x", " ", "\u{0}", "1e5",
    ]
    // The coordinate columns last, first, and first of many (whose other separators are only counted).
    let headers = ["id,lat,lon", "lat\tlon\tnote", "lat,lon,a,b,c,d"]
    for round in 0..<60 {
      let header = headers[round % 3]
      var text = header + "\n"
      for _ in 0..<60 {
        let length = Int.random(in: 0...(round % 3 == 2 ? 30 : 12), using: &generator)
        text += (0..<length).map { _ in pieces.randomElement(using: &generator)! }.joined() + "\n"
        if Bool.random(using: &generator) {
          let latitude = Int.random(in: -90...90, using: &generator)
          text += round % 3 == 2 ? "\(latitude).125,8.25,x,,yz,\(latitude)\n" : "7,\(latitude),8.25\n"
        }
      }
      let format: BatchInputFormat = header.contains("\t") ? .tsv : .csv
      // Every other round, each x a byte that is not UTF-8 (0xFF).
      let bytes = Array(text.utf8).map { round % 2 == 1 && $0 == UInt8(ascii: "x") ? 0xFF : $0 }
      for blockSize in [3, 8, 61] {
        let plain = try records(bytes, format: format, blockSize: blockSize).rows
        let general = try records(bytes, format: format, blockSize: blockSize, readsPlainLines: false).rows
        try #require(plain.count == general.count, "round \(round)")
        for (one, other) in zip(plain, general) {
          #expect(
            one.line == other.line && one.values == other.values && one.coordinate == other.coordinate
              && one.problem == other.problem, "round \(round), line \(one.line)")
        }
      }
    }
  }

  @Test(
    "Rows read in chunks, their plain lines' fields on several threads, are the rows read the general way",
    arguments: [(16_384, 2, 1 << 20), (16_384, 3, 4_093), (1_000, 2, 61), (7, 1, 8)], ["\n", "\r\n"])
  func chunked(sizes: (chunkSize: Int, threads: Int, blockSize: Int), lineEnd: String) throws {
    let (chunkSize, threads, blockSize) = sizes
    var generator = SplitMix64(seed: UInt64(chunkSize + threads))
    // Good rows mostly, and every kind of bad or unusual one among them: out of range, too few or many
    // fields, an exponent, quotes, a CR, blank lines, text above ASCII, an empty coordinate.
    let odd = [
      "7,91.5,8.25", "7,56", "7,56,8,9", "7,1e1,8", "\"7\",\"56\",\"8\"", "7,56,8\r", "", "7,é,8", "7,,8",
      "7,-0.000,180", "7,+5.,-180.0", "x,56,\"8\"\"\"", "\"7\",56,\"8.5\"", "\"\"", "\"7\",\"\",8",
      "\"7,\",5,6",
      "\"7\"x,5,6", "7,\"5\"6,8", "7,5\"6,8", "\"7\",\"95\",8", "\"7\",\"5\",\"8\",\"9\"",
    ]
    var text = "id,lat,lon" + lineEnd
    for row in 0..<30_000 {
      if Int.random(in: 0..<20, using: &generator) == 0 {
        text += odd.randomElement(using: &generator)! + lineEnd
      } else {
        let latitude = Double(Int.random(in: -90_000_000...90_000_000, using: &generator)) / 1e6
        let longitude = Double(Int.random(in: -180_000_000..<180_000_000, using: &generator)) / 1e6
        text += "\(row),\(latitude),\(longitude)" + lineEnd
      }
    }
    text += "1,2,3"  // no newline at the end
    var bytes = Array(text.utf8)
    // Text above ASCII that is UTF-8 (é), and a byte that is not.
    if let at = bytes.firstIndex(of: 0xC3), bytes[at + 1] == 0xA9 { bytes[at] = 0xFF; bytes[at + 1] = 0x20 }
    // Against the rows read the general way (the plain lines read one at a time are compared with them
    // above).
    let oneByOne = try records(bytes, format: .csv, blockSize: blockSize, readsPlainLines: false).rows
    let chunked = try chunkedRecords(
      bytes, format: .csv, blockSize: blockSize, chunkSize: chunkSize, threads: threads)
    #expect(try differingRows(chunked, oneByOne) == 0)
    #expect(oneByOne.count { $0.problem != nil } > 500)
  }

  @Test("Empty input and a header alone give no rows")
  func empty() throws {
    #expect(try records("").rows.isEmpty)
    #expect(try records("lat,lon\n").rows.isEmpty)
    #expect(try records("lat,lon").rows.isEmpty)
  }

  @Test("Random bytes never stop the reader: every line ends up in a row or is blank")
  func randomBytes() throws {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<200 {
      let count = Int.random(in: 0..<400, using: &generator)
      let alphabet = Array("0123456789.,-\"\n\r\t ab°′NSEW".utf8) + [0xFF, 0xC3, 0x00]
      let bytes = (0..<count).map { _ in alphabet.randomElement(using: &generator)! }
      let text = Array("lat,lon\n".utf8) + bytes
      do {
        let (_, rows) = try records(text, blockSize: 7)
        let lines = rows.map(\.line)
        #expect(lines == lines.sorted())
      } catch let error as BatchError {
        Issue.record("\(error) for \(bytes)")
      }
    }
  }
}
