import Foundation
import Testing

/// Without PROJ's run-time library the commands that need it end with exit 69 (EX_UNAVAILABLE) and one
/// sentence saying what to install; the others answer as before. The library is made unloadable the way a
/// machine without it would be: a folder first on the loader's path holds empty files under both names
/// tunnel tries, which the loader refuses.
@Suite final class MissingPROJTests {
  let folder: URL

  init() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tunnel-noproj-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for name in ["libproj.so.25", "libproj.so"] {
      _ = FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: Data())
    }
  }

  deinit {
    try? FileManager.default.removeItem(at: folder)
  }

  /// The loader's path with the folder first.
  var environment: [String: String] {
    let inherited = ProcessInfo.processInfo.environment["LD_LIBRARY_PATH"].map { ":" + $0 } ?? ""
    return ["LD_LIBRARY_PATH": folder.path + inherited]
  }

  @Test(
    "A command that needs PROJ says what to install, with exit 69",
    arguments: [
      ["Skjern"], ["antipode", "56", "8.5", "--format", "csv"], ["dig", "Skjern", "Wellington"],
      ["map", "56", "8.5", "--width", "60", "--height", "20"],
    ])
  func missingLibrary(arguments: [String]) throws {
    let result = try TunnelProcess.run(arguments, environment: environment)
    #expect(result.status == 69)
    #expect(result.standardOutput.isEmpty)
    #expect(
      result.standardError
        == "tunnel: this command needs PROJ's library, which cannot be loaded "
        + "(\(folder.path)/libproj.so.25: file too short; \(folder.path)/libproj.so: file too short); "
        + "install it with 'apt-get install libproj25' (Debian, Ubuntu) or run Scripts/setup\n")
  }

  @Test("A command that needs no PROJ answers without it")
  func answersWithout() throws {
    let result = try TunnelProcess.run(["where", "56", "8.5"], environment: environment)
    #expect(result.status == 0)
    #expect(result.standardOutput.contains("Denmark"))
    #expect(result.standardError.isEmpty)
  }
}
