import ArgumentParser
import Foundation
import TunnelGeo

/// `--data`, shared by every command that reads the bundled place data.
struct DataOptions: ParsableArguments {
  @Option(
    name: .long,
    help: ArgumentHelp(
      "The folder holding Tunnel's place data (default: $TUNNEL_DATA, then beside the executable, then the package checkout).",
      valueName: "folder"),
    completion: .directory)
  var data: String?

  /// The place data, found once per process; an error names where it looked and how to fix it.
  func placeData() throws -> PlaceData {
    try Self.placeData(folder: data)
  }

  /// The place data in `folder`, or found (nil).
  static func placeData(folder: String?) throws -> PlaceData {
    do {
      return try PlaceData(directory: folder)
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
  /// Place data that is missing or damaged: exit status 66 (EX_NOINPUT), in the command line's words
  /// where the library's name its API (the folder is given with `--data`).
  init(_ error: PlaceDataError) {
    let message =
      switch error {
      case .dataNotFound(let searched):
        "place data not found; looked in \(searched.joined(separator: ", ")); "
          + "pass its folder explicitly (--data) or set TUNNEL_DATA to the Data folder"
      case .linkLoop(let path):
        "\(path): its symbolic links go round in a loop; point them at Tunnel's Data folder, "
          + "or pass that folder with --data or TUNNEL_DATA"
      default: error.description
      }
    self.init(message: message, exitCode: 66)
  }

  /// PROJ's library cannot be loaded: exit status 69 (EX_UNAVAILABLE), saying what to install; PROJ
  /// refused a projection: exit status 1, with PROJ's own words.
  init(_ error: ProjectionError) {
    switch error {
    case .libraryUnavailable(let attempts):
      self.init(
        message: "this command needs PROJ's library, which cannot be loaded ("
          + attempts.map(\.reason).joined(separator: "; ")
          + "); install it with 'apt-get install \(ProjectionError.runtimePackage)' (Debian, Ubuntu) "
          + "or run Scripts/setup",
        exitCode: 69)
    case .failed:
      self.init(message: "drawing the map failed: \(error)", exitCode: 1)
    }
  }
}

/// Where the commands keep the indexes they build for later runs: `$TUNNEL_CACHE_DIR` (empty for
/// nowhere), else `$XDG_CACHE_HOME/tunnel`, else `~/.cache/tunnel`.
enum CacheLocation {
  static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
    if let chosen = environment["TUNNEL_CACHE_DIR"] { return chosen.isEmpty ? nil : chosen }
    if let base = environment["XDG_CACHE_HOME"], base.hasPrefix("/") { return base + "/tunnel" }
    if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.cache/tunnel" }
    return nil
  }

  /// The cache folder, opened; nil when none is chosen, or when the folder cannot be used, which is said
  /// once on standard error and never fails the command: the indexes are then built in memory.
  static func cache(environment: [String: String] = ProcessInfo.processInfo.environment) -> IndexCache? {
    guard let path = directory(environment: environment) else { return nil }
    do {
      return try IndexCache(path: path)
    } catch {
      StandardError.write(
        "tunnel: not keeping indexes in \(EchoedText.quoted(path, limit: 200)): \(error.reason); "
          + "building them in memory for this run (set TUNNEL_CACHE_DIR to a folder of your own, or to nothing "
          + "to keep none)\n")
      return nil
    }
  }
}
