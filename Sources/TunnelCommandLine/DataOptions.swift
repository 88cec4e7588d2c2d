import ArgumentParser
import TunnelGeo
import TunnelSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `--data`, shared by every command that reads the bundled place data.
public struct DataOptions: ParsableArguments {
  @Option(
    name: .long,
    help: ArgumentHelp(
      "The folder holding Tunnel's place data (default: $TUNNEL_DATA, then beside the executable, then the package checkout).",
      valueName: "folder"),
    completion: .directory)
  public var data: String?

  public init() {}

  /// The place data, found once per process; an error names where it looked and how to fix it.
  public func placeData() throws -> PlaceData {
    try Self.placeData(folder: data)
  }

  /// The place data in `folder`, or found (nil).
  public static func placeData(folder: String?) throws -> PlaceData {
    do {
      return try PlaceData(directory: folder)
    } catch {
      throw CommandFailure(error)
    }
  }
}

/// A failure that is not about usage: printed as one line with its own ``ExitStatus``.
public struct CommandFailure: Error, CustomStringConvertible {
  public var message: String
  public var exitCode: Int32

  public init(message: String, exitCode: Int32) {
    self.message = message
    self.exitCode = exitCode
  }

  public var description: String { message }
}

extension CommandFailure {
  /// A failure that ends `tunnel` with `status`.
  public init(message: String, status: ExitStatus) {
    self.init(message: message, exitCode: status.code)
  }

  /// Place data that is missing or damaged: ``ExitStatus/noInput``. Where the data is looked for is said
  /// in the command line's words (`--data`); the rest as the library says it.
  public init(_ error: PlaceDataError) {
    let message: String
    switch error {
    case .dataNotFound(let searched):
      message =
        "place data not found; looked in \(searched.joined(separator: ", ")); "
        + "pass its folder explicitly (--data) or set TUNNEL_DATA to the Data folder"
    case .linkLoop(let path):
      message =
        "\(path): its symbolic links go round in a loop; point them at Tunnel's Data folder, "
        + "or pass that folder with --data or TUNNEL_DATA"
    default:
      message = error.description
    }
    self.init(message: message, status: .noInput)
  }

  /// PROJ's library cannot be loaded: ``ExitStatus/unavailable``, saying what to install; PROJ refused a
  /// projection: ``ExitStatus/failure``, with PROJ's own words.
  public init(_ error: ProjectionError) {
    switch error {
    case .libraryUnavailable(let attempts):
      self.init(
        message: "this command needs PROJ's library, which cannot be loaded ("
          + attempts.map(\.reason).joined(separator: "; ")
          + "); install it with 'apt-get install \(ProjectionError.runtimePackage)' (Debian, Ubuntu) "
          + "or run Scripts/setup",
        status: .unavailable)
    case .failed:
      self.init(message: "drawing the map failed: \(error)", status: .failure)
    }
  }
}

/// Where the commands keep the indexes they build for later runs: `$TUNNEL_CACHE_DIR` (empty for
/// nowhere), else `$XDG_CACHE_HOME/tunnel`, else `~/.cache/tunnel`.
public enum CacheLocation {
  /// The folder `environment`'s variables choose.
  public static func directory(environment: [String: String]) -> String? {
    directory(variable: { environment[$0] })
  }

  /// The folder this process's environment chooses (its variables read one by one, not the whole
  /// environment).
  public static func directory() -> String? {
    directory(variable: environmentVariable)
  }

  static func directory(variable: (String) -> String?) -> String? {
    if let chosen = variable("TUNNEL_CACHE_DIR") { return chosen.isEmpty ? nil : chosen }
    if let base = variable("XDG_CACHE_HOME"), base.hasPrefix("/") { return base + "/tunnel" }
    if let home = variable("HOME"), home.hasPrefix("/") { return home + "/.cache/tunnel" }
    return nil
  }

  /// The cache folder, opened; nil when none is chosen, or when the folder cannot be used, which is said
  /// once on standard error and never fails the command: the indexes are then built in memory. The
  /// folder is the one `environment` chooses, or this process's environment when it is nil.
  public static func cache(environment: [String: String]? = nil) -> IndexCache? {
    guard let path = environment.map(directory(environment:)) ?? directory() else { return nil }
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
