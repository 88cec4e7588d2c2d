import Foundation
import SeededRandom
import Testing

@testable import TunnelBatch

#if canImport(Glibc)
import Glibc
#endif

/// Parquet output read back by a reader written here from the format's specification: the Thrift compact
/// protocol byte for byte, the decimal parser against `strtod`, and every value and null of a file, made
/// by hand or by a batch, against the CSV it was made from.
@Suite struct ParquetOutputTests {
  // MARK: Thrift's compact protocol

  @Test("The compact writer writes each field, list and struct as the Thrift compact protocol spells it")
  func compactProtocolBytes() {
    // A short field header is (id − last id) << 4 | type; i32 is type 5. 1 zigzags to 2.
    #expect(compact { $0.i32(1, 1) } == [0x15, 0x02])
    // Zigzag: −1 → 1, −65 → 129 = varint 0x81 0x01, Int32.min → 2³² − 1 = 0xFF 0xFF 0xFF 0xFF 0x0F.
    #expect(compact { $0.i32(1, -1) } == [0x15, 0x01])
    #expect(compact { $0.i32(1, -65) } == [0x15, 0x81, 0x01])
    #expect(compact { $0.i32(1, .min) } == [0x15, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F])
    // A delta of 15 still fits the header: 0xF5.
    #expect(compact { $0.i32(15, 0) } == [0xF5, 0x00])
    // A delta of 16 or more: the type alone (0x05), then the id zigzagged (16 → 0x20, 17 → 0x22);
    // 300 zigzags to 600 = 0b100_1011000: 0xD8 0x04.
    #expect(compact { $0.i32(16, 0) } == [0x05, 0x20, 0x00])
    #expect(compact { $0.i32(17, 300) } == [0x05, 0x22, 0xD8, 0x04])
    // Going back (5, then 3) or naming an id again (2, then 2) takes the long form too: 3 → 0x06, 2 → 0x04.
    let backwards = compact {
      $0.i32(5, 0)
      $0.i32(3, 7)
    }
    #expect(backwards == [0x55, 0x00, 0x05, 0x06, 0x0E])
    let again = compact {
      $0.i32(2, 0)
      $0.i32(2, 1)
    }
    #expect(again == [0x25, 0x00, 0x05, 0x04, 0x02])
    // After a long form the next delta counts from its id: 20 then 21 is a delta of 1.
    let resumed = compact {
      $0.i32(20, 0)
      $0.i32(21, 0)
    }
    #expect(resumed == [0x05, 0x28, 0x00, 0x15, 0x00])
    // i64 is type 6. 2⁴⁰ zigzags to 2⁴¹: five empty 7-bit groups, then 2⁶ = 0x40.
    #expect(compact { $0.i64(1, 1 << 40) } == [0x16, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40])
    // Int64.min zigzags to 2⁶⁴ − 1: nine full groups and a last bit; Int64.max to 2⁶⁴ − 2.
    #expect(compact { $0.i64(1, .min) } == [0x16] + [UInt8](repeating: 0xFF, count: 9) + [0x01])
    #expect(compact { $0.i64(1, .max) } == [0x16, 0xFE] + [UInt8](repeating: 0xFF, count: 8) + [0x01])
    // Binary is type 8: the UTF-8 length as a varint, then the bytes ("é" is 0xC3 0xA9; 200 is 0xC8 0x01).
    #expect(compact { $0.string(1, "héllo") } == [0x18, 0x06, 0x68, 0xC3, 0xA9, 0x6C, 0x6C, 0x6F])
    #expect(compact { $0.string(1, "") } == [0x18, 0x00])
    #expect(
      compact { $0.string(1, String(repeating: "x", count: 200)) }
        == [0x18, 0xC8, 0x01] + [UInt8](repeating: 0x78, count: 200))
    // A list field is type 9; its header holds the count in the high nibble when under 15, the elements'
    // type in the low one; the elements follow bare.
    #expect(
      compact {
        $0.list(1, of: CompactWriter.i32Type, count: 3)
        $0.zigzag(0)
        $0.zigzag(3)
        $0.zigzag(-1)
      } == [0x19, 0x35, 0x00, 0x06, 0x01])
    #expect(compact { $0.list(1, of: CompactWriter.structType, count: 0) } == [0x19, 0x0C])
    #expect(compact { $0.list(2, of: CompactWriter.binaryType, count: 14) } == [0x29, 0xE8])
    // From 15 elements the nibble is 15 and the count follows as a varint (300 = 0xAC 0x02).
    #expect(compact { $0.list(1, of: CompactWriter.binaryType, count: 15) } == [0x19, 0xF8, 0x0F])
    #expect(compact { $0.list(1, of: CompactWriter.structType, count: 300) } == [0x19, 0xFC, 0xAC, 0x02])
    // A struct field is type 12. Inside it ids count from 0 again (field 1 is a delta of 1, not a step
    // back); each struct ends in a stop byte, and after it the outer deltas resume: 5 after 3 is 0x25.
    let nested = compact {
      $0.i32(1, 1)
      $0.beginStruct(3)
      $0.i32(1, 5)
      $0.beginStruct(2)
      $0.end()
      $0.end()
      $0.i32(5, 2)
      $0.finish()
    }
    #expect(nested == [0x15, 0x02, 0x2C, 0x15, 0x0A, 0x1C, 0x00, 0x00, 0x25, 0x04, 0x00])
    // Structs as a list's elements have no header; each counts its ids from 0. Field 3 after the list
    // (field 2) is a delta of 1.
    let elements = compact {
      $0.list(2, of: CompactWriter.structType, count: 2)
      $0.beginElement()
      $0.i32(1, 7)
      $0.end()
      $0.beginElement()
      $0.string(4, "a")
      $0.end()
      $0.i64(3, 0)
      $0.finish()
    }
    #expect(elements == [0x29, 0x2C, 0x15, 0x0E, 0x00, 0x48, 0x01, 0x61, 0x00, 0x16, 0x00, 0x00])
    // A message is a struct: finish() writes its stop byte.
    #expect(compact { $0.finish() } == [0x00])
  }

  @Test("The reader here decodes what the compact writer writes into the same fields")
  func compactReaderAgrees() throws {
    let bytes = compact {
      $0.i32(1, -65)
      $0.list(2, of: CompactWriter.structType, count: 2)
      $0.beginElement()
      $0.string(4, "schema")
      $0.end()
      $0.beginElement()
      $0.i64(20, .min)
      $0.beginStruct(10)
      $0.beginStruct(1)
      $0.end()
      $0.end()
      $0.end()
      $0.list(3, of: CompactWriter.binaryType, count: 16)
      for index in 0..<16 { $0.binary("v\(index)") }
      $0.finish()
    }
    var reader = CompactReader(bytes: bytes)
    let message = Thrift.structure(try reader.structure())
    #expect(reader.position == bytes.count)
    #expect(message[1]?.int == -65)
    let list = try #require(message[2]?.list)
    #expect(list.count == 2 && list[0][4]?.string == "schema")
    #expect(list[1][20]?.int == .min && list[1][10]?[1] != nil)
    let strings: [String?] = (0..<16).map { "v\($0)" }
    #expect(message[3]?.list?.map(\.string) == strings)
  }

  // MARK: Numbers

  @Test("The decimal parser gives strtod's double bit for bit, and nil for what is not a plain decimal")
  func doublesAsStrtod() {
    var random = SplitMix64(seed: 0x9A5C)
    var texts = ["0", "-0", "0.0", "-0.000", "1", "-1", "0.1", "9007199254740991", "9007199254740993"]
    for _ in 0..<20_000 {
      let magnitude = pow(10, Double(Int.random(in: -7...9, using: &random)))
      let value = Double.random(in: 0..<1, using: &random) * magnitude
      let decimals = Int.random(in: 0...12, using: &random)
      let text = String(format: "%.\(decimals)f", value)
      texts.append(Bool.random(using: &random) ? text : "-" + text)
    }
    // 17 to 19 digits, with and without a point: mostly past 2⁵³, so strtod's.
    for _ in 0..<5_000 {
      let count = Int.random(in: 17...19, using: &random)
      var digits = (0..<count).map { _ in String(Int.random(in: 0...9, using: &random)) }
      digits[0] = String(Int.random(in: 1...9, using: &random))
      let point = Int.random(in: 0..<count, using: &random)
      if point > 0 { digits.insert(".", at: point) }
      texts.append((Bool.random(using: &random) ? "-" : "") + digits.joined())
    }
    // More than 22 decimals, and more than 19 digits before the point.
    for _ in 0..<5_000 {
      let whole = Int.random(in: 0...25, using: &random)
      let fraction = Int.random(in: 23...30, using: &random)
      let digits = { (count: Int) in (0..<count).map { _ in String(Int.random(in: 0...9, using: &random)) } }
      let text = (whole == 0 ? "0" : "1" + digits(whole).joined()) + "." + digits(fraction).joined()
      texts.append((Bool.random(using: &random) ? "-" : "") + text)
    }
    var mismatches: [String] = []
    for text in texts {
      let expected = strtod(text, nil)
      if double(text)?.bitPattern != expected.bitPattern { mismatches.append(text) }
    }
    #expect(mismatches.isEmpty, "\(mismatches.count) differ from strtod, among them \(mismatches.prefix(5))")
    for text in ["", "-", "1e5", "abc", "1.2.3", "1.", "--1", "+1", " 1", "1 ", "1,5", "nan", "inf", "0x10"] {
      #expect(double(text) == nil, "\(text.debugDescription) gave \(String(describing: double(text)))")
    }
  }

  @Test("Whole numbers within 64 bits are read, and nil is given for anything else")
  func integers() {
    #expect(integer("0") == 0)
    #expect(integer("-42") == -42)
    #expect(integer("9223372036854775807") == .max)
    #expect(integer("-9223372036854775807") == -.max)
    for text in ["", "-", "1.5", "12a", "12345678901234567890", "-12345678901234567890", "+1", " 1"] {
      #expect(integer(text) == nil, "\(text.debugDescription)")
    }
  }

  @Test("Nineteen digits beyond 64 bits give nil rather than a crash, and the least Int64 is read")
  func integerOverflow() async {
    // In a process of its own: an overflow traps.
    await #expect(processExitsWith: .success) {
      for text in ["9223372036854775808", "9999999999999999999", "-9223372036854775809"] {
        if integer(text) != nil { exit(1) }
      }
      if integer("-9223372036854775808") != .min { exit(2) }
    }
  }

  // MARK: Files made by hand

  static let handHeader = ["name", "value", "count", "flag"]
  static let handKinds: [ParquetKind] = [.string, .double, .int64, .boolean]

  @Test("CSV fed a byte at a time comes back whole: quoted commas, quotes, line feeds, CR LF rows")
  func byteByByte() throws {
    // The names are never null and the flags always are: both columns' levels are one run.
    let rows: [HandRow] = [
      HandRow(name: "Skjern, DK", value: "55.95", count: 42, flag: nil),
      HandRow(name: "say \"hi\"", value: "-0.5", count: nil, flag: nil),
      HandRow(name: "two\nlines", value: nil, count: -7, flag: nil),
      HandRow(name: "cr\r\nlf", value: "1.25", count: .max, flag: nil),
      HandRow(name: "é", value: "-0", count: 0, flag: nil),
      HandRow(name: "\"", value: "123456789012345678.5", count: -1, flag: nil),
      HandRow(name: " spaced ", value: "0.1", count: nil, flag: nil),
    ]
    let text =
      "name,value,count,flag\r\n"
      + "\"Skjern, DK\",55.95,42,\n"
      + "\"say \"\"hi\"\"\",-0.5,,\r\n"
      + "\"two\nlines\",,-7,\n"
      + "\"cr\r\nlf\",\"1.25\",\"9223372036854775807\",\n"
      + "é,-0,0,\"\"\n"
      + "\"\"\"\",123456789012345678.5,-1,\n"
      + " spaced ,0.1,,\r\n"
    let bytes = Array(text.utf8)
    let file = try parquet(Self.handKinds, pieces: bytes.map { [$0] })
    try expectTable(file, equals: rows)
    let table = try ParquetTable(file)
    #expect(table.rowGroups == 1)
  }

  @Test("CSV cut at random points, inside quoted fields too, comes back with every value and null")
  func randomCuts() throws {
    var random = SplitMix64(seed: 0x51CE)
    let names = [
      "plain", "a,b", "say \"hi\"", "two\nlines", "cr\r\nlf", "ends in cr\r", "é ü 日本", " spaced ", "\"",
      ",", "\"\"",
    ]
    var rows: [HandRow] = []
    var text = "\"name\",value,count,\"flag\"\n"
    for index in 0..<300 {
      var row = HandRow(name: nil, value: nil, count: nil, flag: nil)
      if Int.random(in: 0..<5, using: &random) > 0 {
        row.name = Bool.random(using: &random) ? names.randomElement(using: &random)! : "row \(index)"
      }
      if Int.random(in: 0..<4, using: &random) > 0 {
        let decimals = Int.random(in: 0...8, using: &random)
        let value = Double.random(in: -1e6...1e6, using: &random)
        row.value = String(format: "%.\(decimals)f", value)
      }
      if Int.random(in: 0..<4, using: &random) > 0 {
        row.count =
          Bool.random(using: &random)
          ? Int64.random(in: -Int64.max...Int64.max, using: &random)
          : Int64.random(in: -9...9, using: &random)
      }
      if Int.random(in: 0..<10, using: &random) > 2 { row.flag = Bool.random(using: &random) }
      rows.append(row)
      let fields = [row.name, row.value, row.count.map { String($0) }, row.flag.map { String($0) }]
      text += fields.map { csvField($0, quoted: Int.random(in: 0..<6, using: &random) == 0) }.joined(
        separator: ",")
      // The last row without an end of line: finish() reads it.
      if index < 299 { text += Bool.random(using: &random) ? "\n" : "\r\n" }
    }
    let bytes = Array(text.utf8)
    var pieces: [[UInt8]] = []
    var start = 0
    while start < bytes.count {
      let length = Int.random(in: 0...(Bool.random(using: &random) ? 3 : 60), using: &random)
      let end = min(bytes.count, start + length)
      pieces.append(Array(bytes[start..<end]))
      start = end
    }
    let file = try parquet(Self.handKinds, pieces: pieces)
    try expectTable(file, equals: rows)
    // Every column has nulls and values, so every column's levels were bit-packed.
    for column in 0..<4 {
      #expect(rows.contains { $0.cells[column] == nil } && rows.contains { $0.cells[column] != nil })
    }
  }

  @Test("A header without rows makes a whole file: no row group, the schema typed, strings marked UTF-8")
  func headerOnly() throws {
    let file = try parquet(Self.handKinds, pieces: [Array("name,value,count,flag\n".utf8)])
    let table = try ParquetTable(file)
    #expect(table.rows == 0 && table.rowGroups == 0)
    #expect(table.columns.map(\.name) == Self.handHeader)
    #expect(table.columns.map(\.physicalType) == [6, 5, 2, 0])
    #expect(table.columns.allSatisfy { $0.repetition == 1 })
    #expect(table.columns.map(\.convertedType) == [0, nil, nil, nil])
    #expect(table.columns.map(\.isLogicalString) == [true, false, false, false])
    #expect(table.columns.allSatisfy { $0.cells.isEmpty })
    // Nothing at all: a file without columns.
    let empty = try ParquetTable(try parquet(Self.handKinds, pieces: []))
    #expect(empty.rows == 0 && empty.rowGroups == 0 && empty.columns.isEmpty)
  }

  @Test("A row that does not fit its columns is refused, not written wrong")
  func misfitRows() throws {
    for row in ["a,1.5,2\n", "a,1.5,2,true,x\n", "a,1e5,2,true\n", "a,1.5,2.0,true\n", "a,1.5,2,yes\n"] {
      let sink = ParquetSink(CollectedBytes())
      sink.kinds = Self.handKinds
      #expect(throws: BatchError.self, "\(row.debugDescription)") {
        _ = try sink.write(Array(("name,value,count,flag\n" + row).utf8))
      }
    }
  }

  // MARK: Files made by a batch

  @Test("A batch's Parquet holds its CSV's columns, typed, with every value and null of every row")
  func batchAsCSV() throws {
    var text = "id,lat,lon,note\n"
    for index in 0..<300 {
      let latitude = Double(index * 7_919 % 1_800_000) / 10_000 - 90
      let longitude = Double(index * 104_729 % 3_600_000) / 10_000 - 180
      switch index % 23 {
      case 4: text += "\(index),north,\(longitude),unreadable\n"
      case 9: text += "\(index),\(latitude)\n"
      case 15: text += "\(index),95,\(longitude),\"too far, north\"\n"
      case 17: text += "\(index),\(latitude),\(longitude),\"a \"\"quoted\"\"\nnote é\"\n"
      default: text += "\(index),\(latitude),\(longitude),note \(index)\n"
      }
    }
    let fields: [PlacemarkField] = [.land, .country, .nearestPlace, .timeZone, .boundaryKm]
    var options = BatchRun.Options(fields: fields, antipode: true, format: .csv, threads: 2, chunkSize: 37)
    options.writesParquet = true
    let (file, parquetSummary) = try batch(text, options: options)
    options.writesParquet = false
    let (csv, csvSummary) = try batch(text, options: options)
    #expect(parquetSummary.rows == 300 && parquetSummary.badRows == csvSummary.badRows)
    #expect(csvSummary.badRows >= 3 * 13)

    let table = try ParquetTable(file)
    let csvRows = csvRecords(csv)
    let header = try #require(csvRows.first).map { String(decoding: $0, as: UTF8.self) }
    let rows = csvRows.dropFirst()
    #expect(table.columns.map(\.name) == header)
    #expect(table.rows == 300 && rows.count == 300)
    #expect(rows.allSatisfy { $0.count == header.count })

    // The kinds: the input's columns strings, the fields' by what they hold, the error a string.
    let kinds = header.indices.map { $0 < 4 ? ParquetKind.string : kind(ofColumn: header[$0]) }
    let formatter = RowFormatter(
      format: .csv, fields: fields, antipode: true, precision: .data, skipInvalid: false,
      inputColumns: ["id", "lat", "lon", "note"], inputIsJSON: false)
    #expect(formatter.parquetKinds() == kinds)
    #expect(table.columns.map(\.physicalType) == kinds.map { Int($0.physicalType) })
    #expect(kinds[header.firstIndex(of: "nearest_place_population")!] == .int64)
    #expect(kinds[header.firstIndex(of: "land")!] == .boolean)
    #expect(kinds[header.firstIndex(of: "antipode_country_boundary_km")!] == .double)
    #expect(kinds.last == .string && header.last == "error")
    #expect(table.columns.map(\.convertedType) == kinds.map { kind -> Int? in kind == .string ? 0 : nil })

    for (index, column) in table.columns.enumerated() {
      let expected = try rows.map { row in try cell(row[index], as: kinds[index]) }
      try #require(column.cells.count == expected.count, "\(column.name)")
      let differing = expected.indices.filter { expected[$0] != column.cells[$0] }
      #expect(differing.isEmpty, "\(column.name) differs in rows \(differing.prefix(5).map { $0 + 1 })")
      // Every column has values but the subregion boundary's (few of these points lie in a subregion:
      // that column is all nulls, one run of levels), and every column after the input's has nulls.
      if column.name != "subregion_boundary_km" {
        #expect(column.cells.contains { $0 != nil }, "\(column.name)")
      }
      if index >= 4 { #expect(column.cells.contains(nil), "\(column.name)") }
    }
    let land = try #require(table.columns.first { $0.name == "land" })
    #expect(land.cells.contains(.boolean(true)) && land.cells.contains(.boolean(false)))
  }

  // MARK: Kinds

  @Test("Each field has a kind for each of its columns: kilometres and degrees doubles, flags booleans")
  func fieldKinds() {
    for field in PlacemarkField.allCases {
      #expect(field.parquetKinds.count == field.columns.count, "\(field)")
      #expect(field.parquetKinds == field.columns.map(kind(ofColumn:)), "\(field)")
    }
  }
}

// MARK: - Helpers

/// The bytes `build` has a fresh compact writer write.
private func compact(_ build: (inout CompactWriter) -> Void) -> [UInt8] {
  var writer = CompactWriter()
  build(&writer)
  return writer.bytes
}

/// `ParquetColumn.double` of the text's bytes.
private func double(_ text: String) -> Double? {
  Array(text.utf8).withUnsafeBufferPointer { ParquetColumn.double($0) }
}

/// `ParquetColumn.integer` of the text's bytes.
private func integer(_ text: String) -> Int64? {
  Array(text.utf8).withUnsafeBufferPointer { ParquetColumn.integer($0) }
}

/// The kind a column of a batch's CSV should have by its name (without an `antipode_` before it).
private func kind(ofColumn name: String) -> ParquetKind {
  let name = name.hasPrefix("antipode_") ? String(name.dropFirst("antipode_".count)) : name
  if name.hasSuffix("_km") || name.hasSuffix("latitude") || name.hasSuffix("longitude") { return .double }
  if name.hasSuffix("population") { return .int64 }
  if name == "land" || name == "in_lake" { return .boolean }
  return .string
}

/// One row of the hand-made files: a name, a decimal's text, a whole number and a flag, each perhaps null.
private struct HandRow {
  var name: String?
  var value: String?
  var count: Int64?
  var flag: Bool?

  var cells: [Cell?] {
    [
      name.map { Cell.string(Array($0.utf8)) }, value.map { Cell.double(Double($0)!.bitPattern) },
      count.map { Cell.int64($0) }, flag.map { Cell.boolean($0) },
    ]
  }
}

/// A field of CSV: quoted when `quoted` or when it holds a comma, a quote or a line's end; an empty field
/// for null, quoted or not.
private func csvField(_ text: String?, quoted: Bool) -> String {
  guard let text else { return quoted ? "\"\"" : "" }
  guard quoted || text.contains(where: { ",\"\n\r".contains($0) }) || text.unicodeScalars.contains("\r")
  else { return text }
  return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

/// A sink that keeps every byte written to it.
private final class CollectedBytes: BatchByteSink {
  var bytes: [UInt8] = []

  func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(BatchError) -> Bool {
    self.bytes.append(contentsOf: bytes)
    return true
  }
}

/// The Parquet file a sink with these kinds makes of the CSV written to it in `pieces`.
private func parquet(_ kinds: [ParquetKind], pieces: [[UInt8]]) throws -> [UInt8] {
  let collected = CollectedBytes()
  let sink = ParquetSink(collected)
  sink.kinds = kinds
  for piece in pieces { #expect(try sink.write(piece)) }
  #expect(try sink.finish())
  return collected.bytes
}

/// Expects the file to hold the hand-made columns, and these rows in them.
private func expectTable(
  _ file: [UInt8], equals rows: [HandRow], sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let table = try ParquetTable(file)
  #expect(table.rows == rows.count, sourceLocation: sourceLocation)
  #expect(table.columns.map(\.name) == ParquetOutputTests.handHeader, sourceLocation: sourceLocation)
  #expect(table.columns.map(\.physicalType) == [6, 5, 2, 0], sourceLocation: sourceLocation)
  for (index, column) in table.columns.enumerated() {
    let expected = rows.map { $0.cells[index] }
    try #require(column.cells.count == expected.count, "\(column.name)", sourceLocation: sourceLocation)
    let differing = expected.indices.filter { expected[$0] != column.cells[$0] }
    #expect(
      differing.isEmpty,
      "\(column.name) differs in rows \(differing.prefix(5).map { $0 + 1 })", sourceLocation: sourceLocation)
  }
}

/// Runs a batch of `text` to a file and returns the file's bytes, as `BatchRunTests.run` does for text.
private func batch(
  _ text: String, options: BatchRun.Options
) throws -> (bytes: [UInt8], summary: BatchRun.Summary) {
  let directory = FileManager.default.temporaryDirectory
  let inputPath = directory.appendingPathComponent("parquet-in-\(UUID().uuidString)").path
  let outputPath = directory.appendingPathComponent("parquet-out-\(UUID().uuidString)").path
  _ = FileManager.default.createFile(atPath: inputPath, contents: Data(text.utf8))
  defer {
    try? FileManager.default.removeItem(atPath: inputPath)
    try? FileManager.default.removeItem(atPath: outputPath)
  }
  let input = try BatchInput(
    path: inputPath, format: nil, columns: .init(), blockSize: 256, readsPlainLines: true)
  let descriptor = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  defer { close(descriptor) }
  let summary = try BatchRun(input: input, geocoder: BatchRunTests.geocoder, options: options).run(
    output: descriptor)
  let bytes = try #require(FileManager.default.contents(atPath: outputPath))
  return ([UInt8](bytes), summary)
}

/// The rows of CSV as a batch writes it: fields split at commas outside quotes, a quoted field's
/// doubled quote one quote, each row ending in a line feed.
private func csvRecords(_ bytes: [UInt8]) -> [[[UInt8]]] {
  var rows: [[[UInt8]]] = []
  var row: [[UInt8]] = []
  var field: [UInt8] = []
  var quoted = false
  var index = 0
  while index < bytes.count {
    let byte = bytes[index]
    index += 1
    if quoted {
      if byte == UInt8(ascii: "\"") {
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
          field.append(byte)
          index += 1
        } else {
          quoted = false
        }
      } else {
        field.append(byte)
      }
    } else if byte == UInt8(ascii: "\""), field.isEmpty {
      quoted = true
    } else if byte == UInt8(ascii: ",") {
      row.append(field)
      field = []
    } else if byte == 0x0A {
      row.append(field)
      rows.append(row)
      row = []
      field = []
    } else {
      field.append(byte)
    }
  }
  return rows
}

/// A CSV field's text as a cell of the kind: empty is null; a decimal is its nearest double.
private func cell(_ text: [UInt8], as kind: ParquetKind) throws -> Cell? {
  if text.isEmpty { return nil }
  let string = String(decoding: text, as: UTF8.self)
  switch kind {
  case .string: return .string(text)
  case .double: return .double(try #require(Double(string), "\(string)").bitPattern)
  case .int64: return .int64(try #require(Int64(string), "\(string)"))
  case .boolean:
    #expect(string == "true" || string == "false", "\(string)")
    return .boolean(string == "true")
  }
}

// MARK: - A Parquet reader

/// Why a file could not be read.
private struct ReadFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// A value of Thrift's compact protocol, as far as Parquet's footer and page headers use it.
private enum Thrift {
  case int(Int64)
  case bool(Bool)
  case double(Double)
  case binary([UInt8])
  case list([Thrift])
  case structure([Int: Thrift])

  /// A struct's field.
  subscript(_ id: Int) -> Thrift? {
    if case .structure(let fields) = self { fields[id] } else { nil }
  }

  var int: Int64? {
    if case .int(let value) = self { value } else { nil }
  }

  var string: String? {
    if case .binary(let bytes) = self { String(decoding: bytes, as: UTF8.self) } else { nil }
  }

  var list: [Thrift]? {
    if case .list(let elements) = self { elements } else { nil }
  }
}

/// Reads Thrift's compact protocol from `position` on.
private struct CompactReader {
  let bytes: [UInt8]
  var position: Int

  init(bytes: [UInt8], position: Int = 0) {
    self.bytes = bytes
    self.position = position
  }

  mutating func byte() throws -> UInt8 {
    guard position >= 0, position < bytes.count else { throw ReadFailure("the bytes end at \(position)") }
    defer { position += 1 }
    return bytes[position]
  }

  mutating func take(_ count: Int) throws -> [UInt8] {
    guard count >= 0, position >= 0, position + count <= bytes.count else {
      throw ReadFailure("\(count) bytes from \(position) go past the end, \(bytes.count)")
    }
    defer { position += count }
    return Array(bytes[position..<position + count])
  }

  mutating func varint() throws -> UInt64 {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      let byte = try byte()
      guard shift < 64 else { throw ReadFailure("a varint longer than 64 bits at \(position)") }
      value |= UInt64(byte & 0x7F) << shift
      if byte & 0x80 == 0 { return value }
      shift += 7
    }
  }

  mutating func zigzag() throws -> Int64 {
    let raw = try varint()
    return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
  }

  /// A value of the type (a list's elements and a field's value are written the same but for booleans).
  mutating func value(_ type: UInt8) throws -> Thrift {
    switch type {
    case 1, 2: return .bool(try byte() == 1)
    case 3: return .int(Int64(Int8(bitPattern: try byte())))
    case 4, 5, 6: return .int(try zigzag())
    case 7: return .double(Double(bitPattern: littleEndian(try take(8))))
    case 8: return .binary(try take(Int(try varint())))
    case 9, 10:
      let header = try byte()
      let count = header >> 4 == 15 ? Int(try varint()) : Int(header >> 4)
      return .list(try (0..<count).map { _ in try value(header & 0x0F) })
    case 12: return .structure(try structure())
    default: throw ReadFailure("type \(type) at \(position - 1)")
    }
  }

  /// A struct's fields by id, up to its stop byte.
  mutating func structure() throws -> [Int: Thrift] {
    var fields: [Int: Thrift] = [:]
    var last = 0
    while true {
      let header = try byte()
      if header == 0 { return fields }
      let delta = Int(header >> 4)
      let id = delta == 0 ? Int(try zigzag()) : last + delta
      guard fields[id] == nil else { throw ReadFailure("field \(id) twice") }
      last = id
      switch header & 0x0F {
      case 1: fields[id] = .bool(true)
      case 2: fields[id] = .bool(false)
      default: fields[id] = try value(header & 0x0F)
      }
    }
  }
}

/// The little-endian number in `bytes`.
private func littleEndian(_ bytes: [UInt8]) -> UInt64 {
  bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
}

/// A value of a column, a double by its bits so that equal means the same bits.
private enum Cell: Equatable {
  case string([UInt8])
  case double(UInt64)
  case int64(Int64)
  case boolean(Bool)
}

/// A Parquet file of flat optional columns with plain, uncompressed v1 data pages, read as the format's
/// specification says: the footer, each column chunk's page header and page, the definition levels
/// (run-length or bit-packed, one bit wide) and the plain values.
private struct ParquetTable {
  struct Column {
    let name: String
    let physicalType: Int
    let repetition: Int
    let convertedType: Int?
    let isLogicalString: Bool
    /// The values of every row group, in order; nil for null.
    var cells: [Cell?] = []
  }

  let rows: Int
  let rowGroups: Int
  var columns: [Column]

  init(_ bytes: [UInt8]) throws {
    let magic = Array("PAR1".utf8)
    guard bytes.count >= 12, Array(bytes.prefix(4)) == magic, Array(bytes.suffix(4)) == magic else {
      throw ReadFailure("no PAR1 at both ends of \(bytes.count) bytes")
    }
    let footerEnd = bytes.count - 8
    let footerStart = footerEnd - Int(littleEndian(Array(bytes[footerEnd..<footerEnd + 4])))
    guard footerStart >= 4 else { throw ReadFailure("a footer longer than the file") }
    var reader = CompactReader(bytes: bytes, position: footerStart)
    let metadata = Thrift.structure(try reader.structure())
    guard reader.position == footerEnd else { throw ReadFailure("the footer ends at \(reader.position)") }
    guard metadata[1]?.int != nil else { throw ReadFailure("no version") }
    guard let schema = metadata[2]?.list, let root = schema.first,
      root[5]?.int.map(Int.init) == schema.count - 1, root[1] == nil
    else { throw ReadFailure("no schema with its root first") }
    columns = try schema.dropFirst().map { element in
      guard let name = element[4]?.string, let type = element[1]?.int, let repetition = element[3]?.int else {
        throw ReadFailure("a schema element without name, type or repetition")
      }
      return Column(
        name: name, physicalType: Int(type), repetition: Int(repetition),
        convertedType: element[6]?.int.map(Int.init), isLogicalString: element[10]?[1] != nil)
    }
    guard let rows = metadata[3]?.int, let groups = metadata[4]?.list else {
      throw ReadFailure("no num_rows or row_groups")
    }
    self.rows = Int(rows)
    rowGroups = groups.count
    var total = 0
    for group in groups {
      guard let groupRows = group[3]?.int.map(Int.init), let chunks = group[1]?.list,
        chunks.count == columns.count
      else { throw ReadFailure("a row group without rows or a chunk for each column") }
      for (index, chunk) in chunks.enumerated() {
        let column = columns[index]
        guard let metadata = chunk[3], metadata[1]?.int == Int64(column.physicalType),
          metadata[3]?.list?.map(\.string) == [column.name], metadata[4]?.int == 0,
          metadata[5]?.int == Int64(groupRows), let offset = metadata[9]?.int.map(Int.init),
          let chunkSize = metadata[7]?.int.map(Int.init), offset >= 4, offset + chunkSize <= footerStart
        else { throw ReadFailure("column chunk \(index)'s metadata") }
        var pageReader = CompactReader(bytes: bytes, position: offset)
        let header = Thrift.structure(try pageReader.structure())
        guard header[1]?.int == 0, let size = header[3]?.int.map(Int.init), header[2]?.int == Int64(size),
          let data = header[5], data[1]?.int == Int64(groupRows), data[2]?.int == 0, data[3]?.int == 3,
          pageReader.position + size == offset + chunkSize
        else { throw ReadFailure("column chunk \(index)'s page header") }
        let page = try pageReader.take(size)
        columns[index].cells += try Self.cells(page, rows: groupRows, type: column.physicalType)
      }
      total += groupRows
    }
    guard total == self.rows else { throw ReadFailure("num_rows \(rows) where the groups hold \(total)") }
  }

  /// A data page's rows: the definition levels, then the values of those defined.
  static func cells(_ page: [UInt8], rows: Int, type: Int) throws -> [Cell?] {
    var reader = CompactReader(bytes: page)
    let levelsLength = Int(littleEndian(try reader.take(4)))
    var levelReader = CompactReader(bytes: try reader.take(levelsLength))
    var levels: [Bool] = []
    while levels.count < rows {
      let header = try levelReader.varint()
      if header & 1 == 0 {
        // A run: its length, then the level in one byte.
        let level = try levelReader.byte()
        guard level <= 1 else { throw ReadFailure("level \(level) where the most is 1") }
        levels += repeatElement(level == 1, count: Int(header >> 1))
      } else {
        // Groups of eight levels, a bit each, from the lowest.
        for byte in try levelReader.take(Int(header >> 1)) {
          levels += (0..<8).map { byte >> $0 & 1 == 1 }
        }
      }
    }
    guard levelReader.position == levelsLength, levels.count < rows + 8 else {
      throw ReadFailure("levels of \(levels.count) rows in \(levelsLength) bytes where there are \(rows)")
    }
    levels.removeLast(levels.count - rows)
    let present = levels.count { $0 }
    var values: [Cell] = []
    switch type {
    case 0:
      let packed = try reader.take((present + 7) / 8)
      values = (0..<present).map { .boolean(packed[$0 / 8] >> ($0 % 8) & 1 == 1) }
    case 2:
      values = try (0..<present).map { _ in .int64(Int64(bitPattern: littleEndian(try reader.take(8)))) }
    case 5:
      values = try (0..<present).map { _ in .double(littleEndian(try reader.take(8))) }
    case 6:
      values = try (0..<present).map { _ in
        let length = Int(littleEndian(try reader.take(4)))
        return .string(try reader.take(length))
      }
    default:
      throw ReadFailure("physical type \(type)")
    }
    guard reader.position == page.count else {
      throw ReadFailure("\(page.count - reader.position) bytes after the values")
    }
    var next = values.makeIterator()
    return levels.map { $0 ? next.next() : nil }
  }
}
