import TunnelGeo

/// Why a whole batch could not go on (a single bad row is a ``BatchRecord`` problem instead).
///
/// Every case reads as a plain sentence through ``description``: what was wrong, where, and what to do.
public enum BatchError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The input file does not exist or cannot be opened.
  case cannotOpen(path: String, reason: String)
  /// Reading the input failed part way.
  case readFailed(String)
  /// Writing the output failed (a full disk, a device error); a closed pipe is not an error.
  case writeFailed(String)
  /// No column could be told to hold the coordinates; the header as split at `separator`.
  case noCoordinateColumns(header: [String], separator: UInt8)
  /// More than one column could hold a role the user left to the columns' names: each such role with
  /// its candidates (see ``CoordinateColumns``).
  case ambiguousColumns([CoordinateColumns.Candidates], header: [String])
  /// A column named by the option that chooses the column of `option` is not in the header.
  case unknownColumn(option: CoordinateColumns.Role, name: String, header: [String])
  /// One column of a pair was named by an option, and the header names no column for the other.
  case missingColumn(option: CoordinateColumns.Role, header: [String])
  /// The header row (line 1) cannot be read whole.
  case unreadableHeader(String)
  /// The header gives one name to several columns (1-based), so that output would have it twice.
  case repeatedColumn(name: String, columns: [Int])
  /// The options for the latitude's column and the longitude's name the same column.
  case sameColumn(name: String)
  /// A GeoJSON document broken in a way that leaves the rest unreadable.
  case unreadableDocument(line: Int, reason: String)
  /// The input's lines end in a carriage return alone (as classic Mac OS ended them): `line` is where the
  /// first such line ends, and the whole input would otherwise read as one line.
  case carriageReturnLineEnds(line: Int)
  /// Input read as JSON Lines or GeoJSON (`expected`) is one JSON array, which neither format is; its
  /// `[` opens line `line`.
  case jsonArray(expected: BatchInputFormat, line: Int)
  /// JSON rows asked for as CSV or TSV, whose columns are the first good row's members, and no good
  /// row among the first `rows` read.
  case noRowForColumns(rows: Int)

  /// The problem in words, the options called as the library's API calls them.
  public var description: String { description(naming: CoordinateColumns.OptionNames()) }

  /// The problem in words, the options called as a front end calls them (`--lat-column`, `lat_column`;
  /// see ``CoordinateColumns/OptionNames``).
  public func description(naming options: CoordinateColumns.OptionNames) -> String {
    switch self {
    case .cannotOpen(let path, let reason):
      return "cannot open \(EchoedText.quoted(path)): \(reason)"
    case .readFailed(let reason):
      return "reading the input failed: \(reason)"
    case .writeFailed(let reason):
      return "writing the output failed: \(reason)"
    case .noCoordinateColumns(let header, let separator):
      return
        "cannot tell which columns hold the coordinates (the header, split at \(Self.separatorName(separator)), is \(Self.list(header))); name them with \(options.latitude) and \(options.longitude), or \(options.coordinate)"
    case .ambiguousColumns(let candidates, _):
      return Self.ambiguity(candidates, options: options)
    case .unknownColumn(let role, let name, let header):
      return
        "\(options[role]) \(EchoedText.quoted(name)) is not a column of the input (the header is \(Self.list(header)))"
    case .missingColumn(let role, let header):
      return
        "no column of the input is named as a \(role) (the header is \(Self.list(header))); name it with \(options[role])"
    case .unreadableHeader(let problem):
      return "line 1, the header: \(problem); fix the header, or give the file without one"
    case .repeatedColumn(let name, let columns):
      let numbers = columns.map(String.init)
      return
        "line 1, the header: columns \(numbers.dropLast().joined(separator: ", ")) and \(numbers.last ?? "") are \(columns.count == 2 ? "both" : "all") named \(EchoedText.quoted(name)); give each column a name of its own"
    case .sameColumn(let name):
      return
        "\(options.latitude) and \(options.longitude) both name the column \(EchoedText.quoted(name)); name the latitude's column and the longitude's"
    case .unreadableDocument(let line, let reason):
      return "line \(line): \(reason); the rest of the document cannot be read"
    case .carriageReturnLineEnds(let line):
      return
        "line \(line) ends in a carriage return alone: the lines end as classic Mac OS ended them (CR), not in a line feed (LF) or CR LF; convert them first, e.g. tr '\\r' '\\n' < in.csv > out.csv"
    case .jsonArray(let expected, let line):
      let wanted =
        expected == .geojson
        ? "GeoJSON (a FeatureCollection, or features one a line)" : "JSON Lines (one object a line)"
      return
        "line \(line): the input is one JSON array, not \(wanted); write its elements one a line first, e.g. jq -c '.[]' in.json > in.jsonl"
    case .noRowForColumns(let rows):
      return
        "none of the first \(rows) rows has a coordinate, so no row can name the CSV columns; write them as JSON Lines (\(options.jsonLines)), or leave out the rows without one"
    }
  }

  /// "more than one column could be the latitude ('latitude', 'lat'); choose one with " and the latitude's
  /// option as `options` calls it; a JSON row's members or a feature's properties are called so by `item`.
  static func ambiguity(
    _ candidates: [CoordinateColumns.Candidates], options: CoordinateColumns.OptionNames,
    item: String = "column"
  ) -> String {
    let doubts = candidates.enumerated().map { index, choice in
      let what = choice.role == .coordinate ? "hold the whole coordinate" : "be the \(choice.role)"
      return (index == 0 ? "more than one \(item) could \(what)" : "more than one could \(what)")
        + " (\(list(choice.names)))"
    }
    let chosen = candidates.map { options[$0.role] }
    var advice =
      candidates.count == 1
      ? "choose one with \(chosen[0])" : "choose them with \(chosen.joined(separator: " and "))"
    if candidates.map(\.role) == [.coordinate] {
      advice += ", or a latitude and a longitude with \(options.latitude) and \(options.longitude)"
    }
    return doubts.joined(separator: ", and ") + "; " + advice
  }

  /// "commas", "tabs", "semicolons", or the separator quoted.
  static func separatorName(_ separator: UInt8) -> String {
    switch separator {
    case UInt8(ascii: ","): "commas"
    case 0x09: "tabs"
    case UInt8(ascii: ";"): "semicolons"
    default: EchoedText.quoted(String(decoding: [separator], as: UTF8.self))
    }
  }

  static func list(_ header: [String]) -> String {
    let shown = header.prefix(12).map { EchoedText.quoted($0) }.joined(separator: ", ")
    return header.count > 12 ? shown + ", … (\(header.count) columns)" : shown.isEmpty ? "empty" : shown
  }
}
