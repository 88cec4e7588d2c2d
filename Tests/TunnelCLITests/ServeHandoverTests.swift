import Foundation
import Testing

/// `tunnel serve …` runs the `tunnel-serve` beside `tunnel` with the words after `serve`, unchanged, and
/// ends with its status; without one it says how to get it, with status 69 (EX_UNAVAILABLE).
///
/// The `tunnel-serve` here is a script that prints its arguments and exits with a chosen status, so that what
/// is checked is the handover itself (Server/Tests runs the real server through it).
@Suite("tunnel serve hands over to tunnel-serve", .serialized)
struct ServeHandoverTests {
  /// A folder holding a copy of the built `tunnel` and, when `withServer`, a `tunnel-serve` script.
  static func installation(withServer: Bool) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tunnel-handover-\(UUID().uuidString)/bin")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try copy(TunnelProcess.executable, to: folder.appendingPathComponent("tunnel"))
    if withServer {
      let script = folder.appendingPathComponent("tunnel-serve")
      let text = """
        #!/bin/sh
        printf 'argv0=%s\\n' "$0"
        for word in "$@"; do printf '[%s]\\n' "$word"; done
        exit "${HANDOVER_STATUS:-0}"

        """
      let source = folder.deletingLastPathComponent().appendingPathComponent("tunnel-serve.sh")
      try Data(text.utf8).write(to: source)
      try copy(source, to: script)
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
    }
    return folder
  }

  /// Copies `source` to `destination` in a child process, so that the test process never holds a file it
  /// will run open for writing. Other tests start processes at the same time; one started while this
  /// process had the file open would inherit the descriptor, and running the file would then fail with
  /// ETXTBSY ("Text file busy") for as long as that child kept it.
  static func copy(_ source: URL, to destination: URL) throws {
    let cp = Process()
    cp.executableURL = URL(fileURLWithPath: "/bin/cp")
    cp.arguments = [source.path, destination.path]
    try cp.run()
    cp.waitUntilExit()
    #expect(cp.terminationStatus == 0, "cp \(source.path) \(destination.path)")
  }

  static func remove(_ folder: URL) {
    try? FileManager.default.removeItem(at: folder.deletingLastPathComponent())
  }

  @Test(
    "The words after serve reach tunnel-serve unchanged, and its status is tunnel's",
    arguments: [
      (["serve", "--port", "0", "two words", "--quiet"], ["--port", "0", "two words", "--quiet"], 0),
      (["serve", "--help"], ["--help"], 0),
      (["help", "serve"], ["--help"], 0),
      (["serve"], [], 3),
      (["--color", "never", "serve", "-x", ""], ["-x", ""], 5),
    ])
  func handsOver(command: [String], expected: [String], status: Int) throws {
    let folder = try Self.installation(withServer: true)
    defer { Self.remove(folder) }
    let result = try TunnelProcess.run(
      command, environment: ["HANDOVER_STATUS": String(status)],
      executable: folder.appendingPathComponent("tunnel"))
    #expect(result.status == Int32(status), "\(result.standardError)")
    #expect(result.standardError == "")
    let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(
      String.init)
    #expect(lines.first == "argv0=" + folder.appendingPathComponent("tunnel-serve").path)
    #expect(Array(lines.dropFirst().dropLast()) == expected.map { "[\($0)]" })
  }

  @Test("A link to tunnel elsewhere still finds the tunnel-serve beside the real one")
  func throughALink() throws {
    let folder = try Self.installation(withServer: true)
    defer { Self.remove(folder) }
    let elsewhere = folder.deletingLastPathComponent().appendingPathComponent("elsewhere")
    try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
    let link = elsewhere.appendingPathComponent("tunnel")
    try FileManager.default.createSymbolicLink(
      at: link, withDestinationURL: folder.appendingPathComponent("tunnel"))
    let result = try TunnelProcess.run(["serve", "--quiet"], executable: link)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.hasSuffix("[--quiet]\n"))
  }

  @Test("Without tunnel-serve beside it, tunnel serve says how to install it, with status 69")
  func missing() throws {
    let folder = try Self.installation(withServer: false)
    defer { Self.remove(folder) }
    for command in [["serve"], ["serve", "--help"], ["help", "serve"]] {
      let result = try TunnelProcess.run(command, executable: folder.appendingPathComponent("tunnel"))
      #expect(result.status == 69)
      #expect(result.standardOutput == "")
      #expect(
        result.standardError.hasPrefix(
          "tunnel: serve is run by tunnel-serve, which is not installed beside tunnel (looked in '\(folder.path)'"
        ))
      #expect(result.standardError.contains("Scripts/install"))
      #expect(result.standardError.hasSuffix("\n") && result.standardError.filter { $0 == "\n" }.count == 1)
    }
  }
}
