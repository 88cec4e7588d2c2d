import TunnelGeo
import TunnelReports

/// Whole outputs made of `OutputRow`s.
public enum OutputDocument {
  /// The rows in `format`: a header and a line a row for CSV and TSV, a line a row for JSON Lines, a
  /// feature collection for GeoJSON. Rows with placemarks get `fields` added (and the antipode's).
  public static func render(
    _ rows: [OutputRow], format: BatchOutputFormat, fields: [PlacemarkField] = PlacemarkField.allCases,
    precision: Precision = .data
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
