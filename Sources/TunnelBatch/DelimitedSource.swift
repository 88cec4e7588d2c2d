import TunnelGeo

/// The rows of a CSV or TSV file: the header found or made up, each record's coordinate read from
/// the coordinate columns, and a record whose field count differs from the header's marked bad.
final class DelimitedSource: RecordSource {
  /// The columns' names: the header's, or made up when the first row is data.
  let header: [String]
  private let reader: DelimitedReader
  private let columns: CoordinateColumns?
  private var pending: DelimitedReader.Record?

  init(reader: DelimitedReader, names: CoordinateColumns.Names) throws(BatchError) {
    self.reader = reader
    guard let first = try reader.next() else {
      header = []
      columns = nil
      return
    }
    // A first row that reads as data is data, even a bad one (it stays a bad row); a header must be whole.
    if !names.isEmpty,
      let numbered = try? CoordinateColumns.find(
        in: CoordinateColumns.pair(latitude: 0, longitude: 1).names(count: first.fields.count), names: names),
      case .success = numbered.coordinate(in: first.fields)
    {
      // No header, and the columns named by number hold a coordinate.
      columns = numbered
      header = numbered.names(count: first.fields.count)
      pending = first
    } else if let guessed = CoordinateColumns.guess(fromData: first.fields) {
      // No header: the first row is data.
      var chosen = guessed
      if !names.isEmpty {
        let numbered = guessed.names(count: first.fields.count)
        chosen = try CoordinateColumns.find(in: numbered, names: names) ?? guessed
      }
      columns = chosen
      header = chosen.names(count: first.fields.count)
      pending = first
    } else {
      if let problem = first.problem { throw .unreadableHeader(problem) }
      guard let found = try CoordinateColumns.find(in: first.fields, names: names) else {
        throw .noCoordinateColumns(header: first.fields)
      }
      columns = found
      header = first.fields
    }
  }

  func next() throws(BatchError) -> BatchRecord? {
    guard let columns else { return nil }
    let record: DelimitedReader.Record
    if let pending {
      record = pending
      self.pending = nil
    } else {
      guard let read = try reader.next() else { return nil }
      record = read
    }
    var problem = record.problem
    if problem == nil, record.fields.count != header.count {
      problem =
        "the row has \(record.fields.count) field\(record.fields.count == 1 ? "" : "s") where the header has \(header.count)"
    }
    var coordinate: Coordinate? = nil
    if problem == nil {
      switch columns.coordinate(in: record.fields) {
      case .success(let found): coordinate = found
      case .failure(let failure): problem = failure.message
      }
    }
    return BatchRecord(line: record.line, values: record.fields, coordinate: coordinate, problem: problem)
  }
}
