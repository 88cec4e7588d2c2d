import TunnelGeo

/// The formats `tunnel batch` writes.
public enum BatchOutputFormat: String, Sendable, CaseIterable {
  case csv, tsv, jsonl, geojson
}

/// Writes rows of one output format: the input's values passed through in order, then the fields the
/// batch adds, then, for a bad row, its problem.
///
/// No row has a name twice: a column or member Tunnel adds whose name the input already has is written
/// as `tunnel_` and its name (`tunnel_land`, `tunnel_error`; again while that is taken too). A CSV or TSV
/// header moves them for the whole output, a JSON row for itself.
struct RowFormatter: Sendable {
  var format: BatchOutputFormat
  var fields: [PlacemarkField]
  var antipode: Bool
  var precision: NumberPrecision
  /// Whether bad rows are left out (then CSV has no error column).
  var skipInvalid: Bool
  /// The pass-through columns of CSV output: the input's header, or the first JSON row's names.
  var inputColumns: [String] {
    didSet {
      inputKeys = Self.keys(inputColumns)
      columnsTakeOwnKey = inputColumns.contains(where: ownKeys.contains)
    }
  }
  /// Whether the rows' values are raw JSON.
  var inputIsJSON: Bool
  /// The separator of CSV or TSV input: that of the rows' plain lines (``BatchRecord/plainLine``).
  var inputSeparator: UInt8
  /// The JSON key (`"name":`) of each of ``inputColumns``, written once.
  private var inputKeys: [[UInt8]]
  /// The members Tunnel may add to a JSON row.
  private let ownKeys: Set<String>
  /// The lengths in bytes of ``ownKeys``, one bit each (all are under 64): most names are told apart
  /// from them by length alone, without hashing each name of each JSON row.
  private let ownKeyLengths: UInt64
  /// Whether one of ``inputColumns`` is one of ``ownKeys``.
  private var columnsTakeOwnKey = false

  init(
    format: BatchOutputFormat, fields: [PlacemarkField], antipode: Bool, precision: NumberPrecision,
    skipInvalid: Bool, inputColumns: [String], inputIsJSON: Bool, inputSeparator: UInt8 = UInt8(ascii: ",")
  ) {
    self.format = format
    self.fields = fields
    self.antipode = antipode
    self.precision = precision
    self.skipInvalid = skipInvalid
    self.inputColumns = inputColumns
    self.inputIsJSON = inputIsJSON
    self.inputSeparator = inputSeparator
    inputKeys = Self.keys(inputColumns)
    ownKeys = Set(fields.flatMap(\.keys) + ["antipode", "error"])
    ownKeyLengths = ownKeys.reduce(0) { $0 | 1 << UInt64($1.utf8.count) }
    columnsTakeOwnKey = inputColumns.contains(where: ownKeys.contains)
  }

  /// Whether `name` is one of ``ownKeys``.
  @inline(__always) private func isOwnKey(_ name: String) -> Bool {
    let length = name.utf8.count
    return length < 64 && ownKeyLengths & 1 << UInt64(length) != 0 && ownKeys.contains(name)
  }

  /// Tunnel's own column or member `name`, out of the way of the input's `taken` names.
  static func own(_ name: String, besides taken: Set<String>) -> String {
    var name = name
    while taken.contains(name) { name = "tunnel_" + name }
    return name
  }

  private static func keys(_ names: [String]) -> [[UInt8]] {
    names.map { name in
      var out = OutputBytes()
      out.key(name)
      return out.bytes
    }
  }

  private var separator: UInt8 { format == .tsv ? 0x09 : UInt8(ascii: ",") }

  /// What comes before the first row: the CSV header, or the opening of a feature collection.
  func header() -> [UInt8] {
    var out = OutputBytes()
    switch format {
    case .csv, .tsv:
      var columns = inputColumns + fields.flatMap(\.columns)
      if antipode {
        columns +=
          ["antipode_latitude", "antipode_longitude"] + fields.flatMap(\.columns).map { "antipode_" + $0 }
      }
      if !skipInvalid { columns.append("error") }
      let taken = Set(inputColumns)
      columns = inputColumns + columns.dropFirst(inputColumns.count).map { Self.own($0, besides: taken) }
      for (index, column) in columns.enumerated() {
        if index > 0 { out.append(separator) }
        out.field(column, separator: separator)
      }
      out.append("\n")
    case .jsonl:
      break
    case .geojson:
      out.append("{\"type\":\"FeatureCollection\",\"features\":[\n")
    }
    return out.bytes
  }

  /// What comes after the last row.
  func footer(rowsWritten: Int) -> [UInt8] {
    guard format == .geojson else { return [] }
    return Array((rowsWritten > 0 ? "\n]}\n" : "]}\n").utf8)
  }

  /// Appends one row; `first` says whether it is the first row of the output (GeoJSON puts a comma
  /// before every other feature).
  /// `lines` holds the plain lines of rows that keep theirs.
  func write(
    _ record: BatchRecord, lines: UnsafeBufferPointer<UInt8> = .init(start: nil, count: 0),
    _ answer: BatchAnswer?, _ antipodeAnswer: BatchAnswer?, first: Bool, to out: inout OutputBytes
  ) {
    switch format {
    case .csv, .tsv:
      writeCSV(record, lines, answer, antipodeAnswer, to: &out)
    case .jsonl:
      writeMembers(record, lines, answer, antipodeAnswer, to: &out)
      out.append("\n")
    case .geojson:
      if !first { out.append(",\n") }
      out.append("{\"type\":\"Feature\",\"geometry\":")
      if let geometry = record.geometry {
        // GeoJSON input's, as it came.
        out.append(geometry)
      } else if let coordinate = record.coordinate {
        out.append("{\"type\":\"Point\",\"coordinates\":[")
        out.longitude(coordinate.longitude, places: precision.degrees)
        out.append(",")
        out.number(coordinate.latitude, places: precision.degrees)
        out.append("]}")
      } else {
        out.append("null")
      }
      out.append(",\"properties\":")
      writeMembers(record, lines, answer, antipodeAnswer, to: &out)
      out.append("}")
    }
  }

  /// `{…}`: the row's values, fields, antipode and error as one JSON object.
  private func writeMembers(
    _ record: BatchRecord, _ lines: UnsafeBufferPointer<UInt8>, _ answer: BatchAnswer?,
    _ antipodeAnswer: BatchAnswer?, to out: inout OutputBytes
  ) {
    out.append("{")
    var takesOwnKey = columnsTakeOwnKey
    if inputIsJSON {
      let names = record.names
      takesOwnKey = names.contains(where: isOwnKey)
      for (index, value) in record.values.enumerated() {
        out.key(index < names.count ? names[index] : "column\(index + 1)")
        out.append(value)
        out.append(",")
      }
    } else if let plainLine = record.plainLine {
      // The fields of a plain line, straight from its bytes.
      let line = UnsafeBufferPointer(rebasing: lines[plainLine])
      var (index, fieldStart) = (0, 0)
      for position in 0...line.count where position == line.count || line[position] == inputSeparator {
        writeKey(index, to: &out)
        out.json(utf8: UnsafeBufferPointer(rebasing: line[fieldStart..<position]))
        out.append(",")
        (index, fieldStart) = (index + 1, position + 1)
      }
    } else {
      for (index, value) in record.values.enumerated() {
        writeKey(index, to: &out)
        out.json(value)
        out.append(",")
      }
    }
    if takesOwnKey {
      // Tunnel's members apart, then each under a name the row does not have.
      var own = OutputBytes()
      own.append("{")
      writeOwnMembers(record, answer, antipodeAnswer, to: &own)
      if own.last == UInt8(ascii: ",") { own.removeLast() }
      own.append("}")
      let taken = Set(inputIsJSON ? record.names : inputColumns)
      own.withBytes { bytes in
        for member in JSONScan.members(bytes, from: 0, end: bytes.count) {
          out.key(Self.own(member.name ?? "", besides: taken))
          out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[member.value]))
          out.append(",")
        }
      }
    } else {
      writeOwnMembers(record, answer, antipodeAnswer, to: &out)
    }
    if out.last == UInt8(ascii: ",") { out.removeLast() }
    out.append("}")
  }

  /// The members Tunnel adds to a JSON row: the fields, the antipode, the error; each followed by a comma.
  private func writeOwnMembers(
    _ record: BatchRecord, _ answer: BatchAnswer?, _ antipodeAnswer: BatchAnswer?, to out: inout OutputBytes
  ) {
    if let answer {
      PlacemarkField.writeJSON(fields, answer, to: &out, precision: precision)
    }
    if let antipodeAnswer, let antipode = record.coordinate?.antipode {
      out.object("antipode", present: true) { out in
        out.member("latitude", number: antipode.latitude, places: precision.degrees)
        out.member("longitude", longitude: antipode.longitude, places: precision.degrees)
        PlacemarkField.writeJSON(fields, antipodeAnswer, to: &out, precision: precision)
      }
    }
    if let problem = record.problem { out.member("error", problem) }
  }

  /// The key of pass-through column `index` of CSV or TSV input.
  private func writeKey(_ index: Int, to out: inout OutputBytes) {
    if index < inputKeys.count {
      inputKeys[index].withUnsafeBufferPointer { out.append(contentsOf: $0) }
    } else {
      out.key("column\(index + 1)")
    }
  }

  /// The pass-through columns of a CSV row: as many as the header has, empty where the row has none.
  private func writeFields(_ values: [String], to out: inout OutputBytes) {
    for index in 0..<inputColumns.count {
      if index > 0 { out.append(separator) }
      if index < values.count { out.field(values[index], separator: separator) }
    }
  }

  private func writeCSV(
    _ record: BatchRecord, _ lines: UnsafeBufferPointer<UInt8>, _ answer: BatchAnswer?,
    _ antipodeAnswer: BatchAnswer?, to out: inout OutputBytes
  ) {
    if inputIsJSON {
      var values = record.values
      if record.names != inputColumns {
        var byName: [String: String] = [:]
        for (name, value) in zip(record.names, record.values) where byName[name] == nil {
          byName[name] = value
        }
        values = inputColumns.map { byName[$0] ?? "" }
      }
      writeFields(values.map { $0 == "null" ? "" : JSONValues.text($0) ?? $0 }, to: &out)
    } else if let plainLine = record.plainLine, separator == inputSeparator {
      // A plain line is its fields as they are written: no field needs quotes.
      out.append(contentsOf: UnsafeBufferPointer(rebasing: lines[plainLine]))
    } else {
      writeFields(record.values(lines: lines, separator: inputSeparator), to: &out)
    }
    let fieldsStart = out.count
    PlacemarkField.writeCSV(fields, answer, to: &out, separator: separator, precision: precision)
    // With no column before them, the fields' first separator goes.
    if inputColumns.isEmpty, out.count > fieldsStart { out.remove(at: fieldsStart) }
    if antipode {
      let point = answer == nil ? nil : record.coordinate?.antipode
      out.append(separator)
      if let point { out.number(point.latitude, places: precision.degrees) }
      out.append(separator)
      if let point { out.longitude(point.longitude, places: precision.degrees) }
      PlacemarkField.writeCSV(
        fields, point == nil ? nil : antipodeAnswer, to: &out, separator: separator, precision: precision)
    }
    if !skipInvalid {
      out.append(separator)
      if let problem = record.problem { out.field(problem, separator: separator) }
    }
    out.append("\n")
  }
}
