import TunnelGeo

/// Raw JSON values of input rows, read as numbers and text.
enum JSONValues {
  /// The text of a raw value: a string's content, a number or literal as written; nil for a string
  /// that does not decode.
  static func text(_ raw: String) -> String? {
    guard raw.utf8.first == UInt8(ascii: "\"") else { return raw }
    var raw = raw
    return raw.withUTF8 { bytes in JSONScan.decodedString(bytes, 0..<bytes.count) }
  }

  /// The coordinate held by the members at `columns`.
  static func coordinate(_ values: [String], _ columns: CoordinateColumns) -> Result<Coordinate, RowProblem> {
    func readable(_ position: Int, _ what: String) -> Result<String, RowProblem> {
      guard position < values.count else { return .failure(RowProblem("no \(what)")) }
      let raw = values[position]
      if raw == "null" { return .failure(RowProblem("the \(what) is null")) }
      if raw.hasPrefix("{") || raw.hasPrefix("[") || raw == "true" || raw == "false" {
        return .failure(RowProblem("the \(what) is not a number or text"))
      }
      guard let text = text(raw) else { return .failure(RowProblem("the \(what) is not readable text")) }
      return .success(text)
    }
    switch columns {
    case .pair(let latitude, let longitude):
      if latitude < values.count, longitude < values.count, let north = DecimalNumber.parse(values[latitude]),
        let east = DecimalNumber.parse(values[longitude])
      {
        return CoordinateColumns.coordinate(north, east)
      }
      switch (readable(latitude, "latitude"), readable(longitude, "longitude")) {
      case (.success(let north), .success(let east)):
        return CoordinateColumns.coordinate(latitude: north, longitude: east)
      case (.failure(let problem), _), (_, .failure(let problem)):
        return .failure(problem)
      }
    case .single(let position):
      return readable(position, "coordinate").flatMap(CoordinateColumns.coordinate(text:))
    }
  }
}
