import TunnelGeo

/// A row written in one of the batch formats by a command that prints a few results rather than a
/// stream: `tunnel where`, `tunnel antipode` and `tunnel find` with `--format csv|tsv|jsonl|geojson`.
public struct OutputRow: Sendable {
  /// Named values, in order, each as raw JSON text (``number(_:places:)``, ``string(_:)``).
  public var members: [(name: String, json: String)]
  /// The point of the row (its GeoJSON geometry).
  public var coordinate: Coordinate?
  /// The placemark of the point, when the row has one.
  public var placemark: Placemark?
  /// The placemark of the point's antipode, when the row has one.
  public var antipode: Placemark?

  public init(
    members: [(name: String, json: String)], coordinate: Coordinate?, placemark: Placemark? = nil,
    antipode: Placemark? = nil
  ) {
    self.members = members
    self.coordinate = coordinate
    self.placemark = placemark
    self.antipode = antipode
  }

  /// The CSV or TSV column of a member: its camel-case name in snake case, as the placemark's columns
  /// are named (`countryCode` is `country_code`, `surfaceDistanceKm` is `surface_distance_km`).
  public static func columnName(_ member: String) -> String {
    var column = ""
    for character in member {
      if character.isUppercase, !column.isEmpty { column += "_" }
      column += character.lowercased()
    }
    return column
  }

  /// A number as raw JSON, rounded to `places` decimals.
  public static func number(_ value: Double, places: Int) -> String {
    OutputBytes.text(value, places: places)
  }

  /// A text as raw JSON, or `null`.
  public static func string(_ value: String?) -> String {
    var out = OutputBytes()
    out.json(value)
    return String(decoding: out.bytes, as: UTF8.self)
  }
}

/// Whole outputs made of ``OutputRow``s.
public enum OutputDocument {
  /// The rows in `format`: a header and a line a row for CSV and TSV, a line a row for JSON Lines, a
  /// feature collection for GeoJSON. Rows with placemarks get `fields` added (and the antipode's).
  public static func render(
    _ rows: [OutputRow], format: BatchOutputFormat, fields: [PlacemarkField] = PlacemarkField.allCases,
    precision: NumberPrecision = .init()
  ) -> String {
    let withPlacemarks = rows.contains { $0.placemark != nil }
    // Members are named in JSON's style (countryCode); CSV and TSV columns in the batch's (country_code).
    let delimited = format == .csv || format == .tsv
    let name = { (member: String) in delimited ? OutputRow.columnName(member) : member }
    let formatter = RowFormatter(
      format: format, fields: withPlacemarks ? fields : [], antipode: rows.contains { $0.antipode != nil },
      precision: precision, skipInvalid: true, inputColumns: rows.first?.members.map { name($0.name) } ?? [],
      inputIsJSON: true)
    var out = OutputBytes()
    out.append(contentsOf: formatter.header())
    for (index, row) in rows.enumerated() {
      let record = BatchRecord(
        line: index + 1, values: row.members.map(\.json), names: row.members.map { name($0.name) },
        coordinate: row.coordinate, problem: nil)
      formatter.write(
        record, row.placemark.map(BatchAnswer.init(placemark:)),
        row.antipode.map(BatchAnswer.init(placemark:)),
        first: index == 0, to: &out)
    }
    out.append(contentsOf: formatter.footer(rowsWritten: rows.count))
    return String(decoding: out.bytes, as: UTF8.self)
  }
}
