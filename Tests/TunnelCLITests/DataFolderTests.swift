import Foundation
import Testing

/// How the commands report a data folder that cannot be used: a loop of links is a loop.
@Suite final class DataFolderTests {
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
    #expect(!result.standardError.contains("not found") && !result.standardError.contains("missing"))
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
}
