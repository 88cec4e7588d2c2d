import TunnelSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where Tunnel looks for its data folder, in order:
///
/// 1. an explicit path (the API's `directory:` argument, the command line's `--data`);
/// 2. the `TUNNEL_DATA` environment variable;
/// 3. next to the executable: `<bin>/Data`, then the install prefix `<bin>/../share/tunnel/Data`;
/// 4. the `Data` folder of the package checkout this module was built from.
///
/// A folder qualifies when it holds `places.tunnel`. An explicit path or `TUNNEL_DATA` that does not
/// qualify is an error rather than a reason to look elsewhere, so a typo is never silently ignored.
public enum PlaceDataLocation {
  /// The data folder to use, `TUNNEL_DATA` read from this process's environment.
  public static func find(explicit: String? = nil) throws(PlaceDataError) -> String {
    try find(explicit: explicit, variable: environmentVariable("TUNNEL_DATA"))
  }

  /// The data folder to use, `TUNNEL_DATA` read from `environment`.
  public static func find(
    explicit: String? = nil, environment: [String: String]
  ) throws(PlaceDataError) -> String {
    try find(explicit: explicit, variable: environment["TUNNEL_DATA"])
  }

  /// The data folder to use, given `TUNNEL_DATA`'s value.
  static func find(explicit: String?, variable: String?) throws(PlaceDataError) -> String {
    if let explicit { return try required(explicit) }
    if let variable, !variable.isEmpty { return try required(variable) }
    let candidates = searchPath()
    for candidate in candidates where qualifies(candidate) { return candidate }
    throw .dataNotFound(searched: candidates)
  }

  /// The folders tried after the explicit path and `TUNNEL_DATA`.
  public static func searchPath() -> [String] {
    var candidates: [String] = []
    if let executable = executablePath() {
      let bin = PathName.deletingLastComponent(executable)
      candidates.append(bin + "/Data")
      candidates.append(PathName.appending("share/tunnel/Data", to: PathName.deletingLastComponent(bin)))
    }
    candidates.append(checkoutDataDirectory)
    return candidates
  }

  /// `Data/` of the package checkout this file was compiled from.
  static let checkoutDataDirectory: String = {
    var path = #filePath  // <root>/Sources/TunnelGeo/PlaceData/PlaceDataLocation.swift
    for _ in 0..<4 { path = PathName.deletingLastComponent(path) }
    return PathName.appending("Data", to: path)
  }()

  static func qualifies(_ directory: String) -> Bool {
    PathName.exists(directory + "/places.tunnel")
  }

  private static func required(_ directory: String) throws(PlaceDataError) -> String {
    guard PathName.isFolder(directory) else {
      if isLinkLoop(directory) { throw .linkLoop(path: directory) }
      throw .dataNotFound(searched: [directory])
    }
    guard qualifies(directory) else {
      let file = directory + "/places.tunnel"
      if isLinkLoop(file) { throw .linkLoop(path: file) }
      throw .fileMissing(path: file)
    }
    return directory
  }

  /// Whether `path` cannot be followed because its symbolic links go round in a loop (ELOOP).
  static func isLinkLoop(_ path: String) -> Bool {
    var information = stat()
    return stat(path, &information) != 0 && errno == ELOOP
  }

  private static func executablePath() -> String? {
    #if os(Linux)
    return PathName.symbolicLinkDestination("/proc/self/exe")
    #else
    return Bundle.main.executablePath
    #endif
  }
}
