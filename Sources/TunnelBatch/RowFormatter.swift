import TunnelGeo
import TunnelReports

/// The formats `tunnel batch` writes.
public enum BatchOutputFormat: String, Sendable, CaseIterable {
  case csv, tsv, jsonl, geojson
}

/// Writes rows of one output format: the input's values passed through in order, then the fields the
/// batch adds, then, for a bad row, its problem.
///
/// No row has a name twice: a column or member Tunnel adds whose name the input already has is written
/// as `tunnel_` and its name (`tunnel_land`, `tunnel_error`; again while that is taken too). A CSV or TSV
/// header moves them for the whole output, a JSON row for itself. The same rule names the columns and
/// members Tunnel writes for the input:
/// - GeoJSON input written as CSV, TSV or JSON Lines starts each row with the feature's `id` (CSV and
///   TSV always have the column, empty for a feature without one; JSON Lines has the member when the
///   feature has one) and its Point's `latitude` and `longitude` as the input wrote them (empty, or
///   `null`, without a Point), before the properties: `tunnel_id` where a property is named `id`, and
///   `tunnel_latitude` and `tunnel_longitude` where one is named `latitude` or `longitude`.
///   GeoJSON output keeps a feature's `id` and `bbox` as its own members, and the collection's
///   ``CollectionMembers``.
/// - A CSV or TSV row with more fields than its header has its extra fields named by their number,
///   `column4`, as a file without a header names its columns, and `tunnel_column4` where the header has
///   a `column4`.
/// - A bad row of JSON input keeps its text as it came (``BatchRecord/source``) in `input` wherever the
///   output would not hold it otherwise: in CSV and TSV, every bad JSON row (a column before `error`,
///   empty for good rows and rows that are not UTF-8; its members as they came for a row read whole); in
///   JSON Lines and GeoJSON, a
///   row whose members could not be read, and, in JSON Lines, a bad GeoJSON feature (whose geometry
///   JSON Lines has no place for).
struct RowFormatter: Sendable {
  var format: BatchOutputFormat
  var fields: [PlacemarkField]
  var antipode: Bool
  var precision: Precision
  /// Whether bad rows are left out (then CSV has no error column).
  var skipInvalid: Bool
  /// The pass-through columns of CSV output: the input's header, or the first JSON row's names.
  var inputColumns: [String] {
    didSet {
      inputKeys = Self.keys(inputColumns)
      columnsTakeOwnKey = inputColumns.contains(where: ownKeys.contains)
      inputColumnSet = Set(inputColumns)
      featureColumns = Self.featureColumns(inputIsGeoJSON, besides: inputColumnSet)
    }
  }
  /// Whether the rows' values are raw JSON.
  var inputIsJSON: Bool
  /// Whether the rows are GeoJSON features (``BatchRecord/feature``).
  var inputIsGeoJSON: Bool
  /// ``inputColumns`` as a set, for naming the columns Tunnel writes for the input.
  private var inputColumnSet: Set<String>
  /// For GeoJSON input written as CSV or TSV, the columns before the properties: the feature's id and
  /// its Point's latitude and longitude, named out of the way of ``inputColumns``.
  private var featureColumns: [String]
  /// Whether CSV or TSV output has an `input` column (for JSON input, unless bad rows are left out).
  private var hasInputColumn: Bool { inputIsJSON && !skipInvalid && (format == .csv || format == .tsv) }
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
    format: BatchOutputFormat, fields: [PlacemarkField], antipode: Bool, precision: Precision,
    skipInvalid: Bool, inputColumns: [String], inputIsJSON: Bool, inputIsGeoJSON: Bool = false,
    inputSeparator: UInt8 = UInt8(ascii: ",")
  ) {
    self.format = format
    self.fields = fields
    self.antipode = antipode
    self.precision = precision
    self.skipInvalid = skipInvalid
    self.inputColumns = inputColumns
    self.inputIsJSON = inputIsJSON
    self.inputIsGeoJSON = inputIsGeoJSON
    self.inputSeparator = inputSeparator
    inputKeys = Self.keys(inputColumns)
    inputColumnSet = Set(inputColumns)
    featureColumns = Self.featureColumns(inputIsGeoJSON, besides: inputColumnSet)
    ownKeys = Set(fields.flatMap(\.keys) + ["antipode", "input", "error"])
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

  /// The columns of a GeoJSON feature's id and point, out of the way of the properties' `taken` names.
  private static func featureColumns(_ inputIsGeoJSON: Bool, besides taken: Set<String>) -> [String] {
    guard inputIsGeoJSON else { return [] }
    let point = pointNames(besides: taken)
    return [own("id", besides: taken), point.latitude, point.longitude]
  }

  /// The names of a GeoJSON feature's latitude and longitude, out of the way of the `taken` names as a
  /// pair: both get `tunnel_` while either is taken, so that they stay a pair.
  static func pointNames(besides taken: Set<String>) -> (latitude: String, longitude: String) {
    var names = (latitude: "latitude", longitude: "longitude")
    while taken.contains(names.latitude) || taken.contains(names.longitude) {
      names = ("tunnel_" + names.latitude, "tunnel_" + names.longitude)
    }
    return names
  }

  /// The name of extra field `index` (from 0) of a CSV or TSV row with more fields than its header:
  /// its number, out of the way of the header's names (see ``RowFormatter``).
  private func extraColumn(_ index: Int) -> String {
    var name = "column\(index + 1)"
    while inputColumnSet.contains(name) { name = "tunnel_" + name }
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

  /// What comes before the first row: the CSV header, or the opening of a feature collection (with
  /// the members of the input's `collection` that came before its features).
  func header(collection: CollectionMembers = .init()) -> [UInt8] {
    var out = OutputBytes()
    switch format {
    case .csv, .tsv:
      var added = fields.flatMap(\.columns)
      if antipode {
        added +=
          ["antipode_latitude", "antipode_longitude"] + fields.flatMap(\.columns).map { "antipode_" + $0 }
      }
      if hasInputColumn { added.append("input") }
      if !skipInvalid { added.append("error") }
      let columns = featureColumns + inputColumns + added.map { Self.own($0, besides: inputColumnSet) }
      for (index, column) in columns.enumerated() {
        if index > 0 { out.append(separator) }
        out.field(column, separator: separator)
      }
      out.append("\n")
    case .jsonl:
      break
    case .geojson:
      out.append("{\"type\":\"FeatureCollection\",")
      for member in collection.before {
        out.key(member.name)
        out.append(member.json)
        out.append(",")
      }
      out.append("\"features\":[\n")
    }
    return out.bytes
  }

  /// The kind of each column of ``header(collection:)``'s CSV when it is written as Parquet: the input's
  /// columns are strings, the fields' typed (``PlacemarkField/parquetKinds``).
  func parquetKinds() -> [ParquetKind] {
    var added = fields.flatMap(\.parquetKinds)
    if antipode { added += [.double, .double] + fields.flatMap(\.parquetKinds) }
    if hasInputColumn { added.append(.string) }
    if !skipInvalid { added.append(.string) }
    return [ParquetKind](repeating: .string, count: featureColumns.count + inputColumns.count) + added
  }

  /// What comes after the last row (with the members of the input's `collection` that came after its
  /// features).
  func footer(rowsWritten: Int, collection: CollectionMembers = .init()) -> [UInt8] {
    guard format == .geojson else { return [] }
    var out = OutputBytes()
    out.append(rowsWritten > 0 ? "\n]" : "]")
    for member in collection.afterNotBefore {
      out.append(",")
      out.key(member.name)
      out.append(member.json)
    }
    out.append("}\n")
    return out.bytes
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
      out.append("{\"type\":\"Feature\",")
      // A GeoJSON input's feature keeps its own members.
      if let id = record.feature?.id {
        out.key("id")
        out.append(id)
        out.append(",")
      }
      if let bbox = record.feature?.bbox {
        out.key("bbox")
        out.append(bbox)
        out.append(",")
      }
      out.append("\"geometry\":")
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
    if inputIsGeoJSON, format != .geojson {
      // The feature's id and point, before its properties and out of their way.
      let taken = Set(record.names)
      let feature = record.feature
      if let id = feature?.id {
        out.key(Self.own("id", besides: taken))
        out.append(id)
        out.append(",")
      }
      let point = Self.pointNames(besides: taken)
      out.key(point.latitude)
      out.append(feature?.latitude ?? "null")
      out.append(",")
      out.key(point.longitude)
      out.append(feature?.longitude ?? "null")
      out.append(",")
    }
    if inputIsJSON {
      let names = record.names
      takesOwnKey = names.contains { isOwnKey($0) }
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
    if let source = record.source, format == .jsonl || record.feature == nil {
      out.member("input", source)
    }
    if let problem = record.problem { out.member("error", problem) }
  }

  /// The key of pass-through column `index` of CSV or TSV input.
  private func writeKey(_ index: Int, to out: inout OutputBytes) {
    if index < inputKeys.count {
      inputKeys[index].withUnsafeBufferPointer { out.append(contentsOf: $0) }
    } else {
      out.key(extraColumn(index))
    }
  }

  /// The pass-through columns of a CSV row: as many as the header has, empty where the row has none.
  /// The input's columns of a row: each of `values` as `text` makes it (nothing where it makes nil).
  private func writeFields(
    _ values: [String], to out: inout OutputBytes, text: (String) -> String? = { $0 }
  ) {
    for index in 0..<inputColumns.count {
      if index > 0 { out.append(separator) }
      if index < values.count, let value = text(values[index]) { out.field(value, separator: separator) }
    }
  }

  private func writeCSV(
    _ record: BatchRecord, _ lines: UnsafeBufferPointer<UInt8>, _ answer: BatchAnswer?,
    _ antipodeAnswer: BatchAnswer?, to out: inout OutputBytes
  ) {
    if inputIsGeoJSON {
      // The feature's id and point (see ``featureColumns``).
      let feature = record.feature
      if let id = feature?.id, id != "null" { out.field(JSONValues.text(id) ?? id, separator: separator) }
      out.append(separator)
      if let latitude = feature?.latitude { out.field(latitude, separator: separator) }
      out.append(separator)
      if let longitude = feature?.longitude { out.field(longitude, separator: separator) }
      if !inputColumns.isEmpty { out.append(separator) }
    }
    if inputIsJSON {
      var values = record.values
      if record.names != inputColumns {
        var byName: [String: String] = [:]
        for (name, value) in zip(record.names, record.values) where byName[name] == nil {
          byName[name] = value
        }
        values = inputColumns.map { byName[$0] ?? "" }
      }
      // Each value's text (a string's, decoded), made as it is written: no array of them per row.
      writeFields(values, to: &out) { $0 == "null" ? nil : JSONValues.text($0) ?? $0 }
    } else if let plainLine = record.plainLine, separator == inputSeparator {
      // A plain line is its fields as they are written: no field needs quotes.
      out.append(contentsOf: UnsafeBufferPointer(rebasing: lines[plainLine]))
    } else {
      writeFields(record.values(lines: lines, separator: inputSeparator), to: &out)
    }
    let fieldsStart = out.count
    PlacemarkField.writeCSV(fields, answer, to: &out, separator: separator, precision: precision)
    // With no column before them, the fields' first separator goes.
    if inputColumns.isEmpty, featureColumns.isEmpty, out.count > fieldsStart { out.remove(at: fieldsStart) }
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
      if hasInputColumn {
        out.append(separator)
        if record.problem != nil {
          out.field(record.source ?? (record.values.isEmpty ? "" : Self.object(record)), separator: separator)
        }
      }
      out.append(separator)
      if let problem = record.problem { out.field(problem, separator: separator) }
    }
    out.append("\n")
  }

  /// A JSON row read member by member, as one object again: its members as they came.
  private static func object(_ record: BatchRecord) -> String {
    var out = OutputBytes()
    out.append("{")
    for (name, value) in zip(record.names, record.values) {
      if out.count > 1 { out.append(",") }
      out.key(name)
      out.append(value)
    }
    out.append("}")
    return String(decoding: out.bytes, as: UTF8.self)
  }
}
