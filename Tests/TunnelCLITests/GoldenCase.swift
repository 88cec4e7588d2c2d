import Foundation
import Testing

/// One command line of the golden table, `Golden/cases.json`, and the files that record what it printed.
///
/// The table gives each case a name, its arguments, optionally its standard input and environment variables
/// of its own; the table's `environment` applies to every case (a fixed terminal width, no colour, no index
/// cache), and `TUNNEL_DATA` names the package's `Data` folder. What the case printed is in
/// `Golden/<name>.stdout`, `<name>.stderr` and `<name>.status` (the exit status and a line feed), written by
/// `Scripts/golden --write PATH/TO/tunnel`, which runs the same table in the same environment.
struct GoldenCase: Sendable, Decodable, CustomTestStringConvertible {
  /// The table as it is in `Golden/cases.json`.
  struct Table: Sendable, Decodable {
    /// Variables set for every case.
    var environment: [String: String]
    var cases: [GoldenCase]

    /// Reads `Golden/cases.json`.
    static func load() throws -> Table {
      try JSONDecoder().decode(
        Table.self, from: Data(contentsOf: folder.appendingPathComponent("cases.json")))
    }
  }

  /// The folder holding the table and the recorded output, beside this file.
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "Golden")

  /// The package's own data folder.
  static let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Data")

  /// Every case of the table, each with its whole environment; none when the table cannot be read
  /// (`GoldenOutputTests.tableReads` then fails saying why).
  static let all: [GoldenCase] = {
    guard let table = try? Table.load() else { return [] }
    return table.cases.map { golden in
      var golden = golden
      golden.environment = table.environment.merging(golden.environment ?? [:]) { _, own in own }
        .merging(["TUNNEL_DATA": data.path]) { _, data in data }
      return golden
    }
  }()

  /// The name the recorded files start with: lower-case letters, digits, dots and hyphens.
  var name: String
  var arguments: [String]
  /// Standard input, written as UTF-8 to a file (an empty one when the table gives none).
  var stdin: String?
  /// The case's own variables, laid over the table's; in ``all``, the whole environment.
  var environment: [String: String]?

  var testDescription: String { name }

  /// The recorded file of `part`: `stdout`, `stderr` or `status`.
  func recording(_ part: String) -> URL {
    Self.folder.appendingPathComponent("\(name).\(part)")
  }
}
