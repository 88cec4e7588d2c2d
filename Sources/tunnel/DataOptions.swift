import ArgumentParser
import TunnelGeo

/// `--data`, shared by every command that reads the bundled place data.
struct DataOptions: ParsableArguments {
  @Option(
    name: .long,
    help: ArgumentHelp(
      "The folder holding Tunnel's place data (default: $TUNNEL_DATA, then beside the executable, then the package checkout).",
      valueName: "folder"))
  var data: String?

  /// The place data, found once per process; an error names where it looked and how to fix it.
  func placeData() throws -> PlaceData {
    do {
      return try PlaceData(directory: data)
    } catch {
      throw CommandFailure(error)
    }
  }
}

/// A failure that is not about usage: printed as one line with its own exit code (EX_* from sysexits).
struct CommandFailure: Error, CustomStringConvertible {
  var message: String
  var exitCode: Int32

  var description: String { message }
}

extension CommandFailure {
  /// Place data that is missing or damaged: exit status 66 (EX_NOINPUT).
  init(_ error: PlaceDataError) {
    self.init(message: error.description, exitCode: 66)
  }

  /// PROJ refused a projection: exit status 1, with PROJ's own words.
  init(_ error: ProjectionError) {
    self.init(message: "drawing the map failed: \(error)", exitCode: 1)
  }
}
