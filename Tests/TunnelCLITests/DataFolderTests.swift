import Foundation
import Testing

/// How the commands report a data folder that cannot be used: a loop of links is a loop, and damaged
/// data is exit 66 in every view, the maps' geocode side included.
@Suite final class DataFolderTests {
  /// The package's own data folder.
  static let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Data")

  private var folders: [URL] = []

  deinit {
    for folder in folders { try? FileManager.default.removeItem(at: folder) }
  }

  func folder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tunnel-data-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    folders.append(folder)
    return folder
  }

  @Test(
    "A data folder whose links go round in a loop is reported as a loop, given by --data or TUNNEL_DATA",
    arguments: [true, false])
  func linkLoop(byOption: Bool) throws {
    let folder = try folder()
    let first = folder.appendingPathComponent("first").path
    let second = folder.appendingPathComponent("second").path
    try FileManager.default.createSymbolicLink(atPath: first, withDestinationPath: second)
    try FileManager.default.createSymbolicLink(atPath: second, withDestinationPath: first)
    let result =
      byOption
      ? try TunnelProcess.run(["where", "56", "8.5", "--data", first])
      : try TunnelProcess.run(["where", "56", "8.5"], environment: ["TUNNEL_DATA": first])
    #expect(result.status == 66)
    #expect(result.standardError.hasPrefix("tunnel: \(first): its symbolic links go round in a loop"))
    #expect(result.standardError.hasSuffix("or pass that folder with --data or TUNNEL_DATA\n"))
    #expect(!result.standardError.contains("not found") && !result.standardError.contains("missing"))
  }

  @Test("A data folder that is not there is said in the command line's words: --data, not the library's API")
  func notFound() throws {
    let result = try TunnelProcess.run(["where", "56", "8.5", "--data", "/nonexistent/tunnel-data"])
    #expect(result.status == 66)
    #expect(
      result.standardError
        == "tunnel: place data not found; looked in /nonexistent/tunnel-data; "
        + "pass its folder explicitly (--data) or set TUNNEL_DATA to the Data folder\n")
  }

  @Test("A data file whose link loops is reported as a loop")
  func dataFileLinkLoop() throws {
    let folder = try folder()
    let places = folder.appendingPathComponent("places.tunnel").path
    try FileManager.default.createSymbolicLink(atPath: places, withDestinationPath: places)
    let result = try TunnelProcess.run(["where", "56", "8.5", "--data", folder.path])
    #expect(result.status == 66)
    #expect(result.standardError.hasPrefix("tunnel: \(places): its symbolic links go round in a loop"))
  }

  @Test("Damaged data read for the geocode side of the maps is exit 66, not a message in the picture")
  func damagedGeocodeView() throws {
    let folder = try folder()
    for name in try FileManager.default.contentsOfDirectory(atPath: Self.data.path)
    where name.hasSuffix(".tunnel") && name != "timezones.tunnel" {
      try FileManager.default.createSymbolicLink(
        at: folder.appendingPathComponent(name), withDestinationURL: Self.data.appendingPathComponent(name))
    }
    // One letter of a time zone's name changed: its block no longer matches its checksum.
    var bytes = [UInt8](try Data(contentsOf: Self.data.appendingPathComponent("timezones.tunnel")))
    let name = Array("Europe/Copenhagen".utf8)
    let start = try #require(
      (0...(bytes.count - name.count)).first { bytes[$0..<($0 + name.count)].elementsEqual(name) })
    bytes[start + 1] ^= 0x01
    try Data(bytes).write(to: folder.appendingPathComponent("timezones.tunnel"))
    let result = try TunnelProcess.run([
      "map", "56", "8.5", "--view", "geocode", "--data", folder.path, "--width", "60", "--height", "20",
    ])
    #expect(result.status == 66)
    #expect(result.standardOutput.isEmpty)
    #expect(result.standardError.hasPrefix("tunnel: \(folder.path)/timezones.tunnel: bytes "))
  }
}
