import Foundation
import Testing

@testable import tunnel

/// The manual page, docs/man/tunnel.1 (written by Scripts/man): UTF-8, with the environment and the exit
/// statuses, and every example in it runs.
@Suite("The manual page", .serialized)
struct ManPageTests {
  static func page() throws -> String { try ManPage.text() }

  static func examples() throws -> [String] { try ManPage.examples() }

  @Test("The page keeps every character: names, degrees and primes, in UTF-8")
  func utf8() throws {
    let page = try Self.page()
    #expect(page.contains("'København', 'Kopenhagen' and 'Копенгаген'"))
    #expect(page.contains("tunnel \"33°54′S 18°24′E\""))
    #expect(page.contains("Córdoba"))
  }

  @Test("The page has the environment and every exit status")
  func environmentAndExitStatus() throws {
    let page = try Self.page()
    #expect(page.contains(".Sh ENVIRONMENT"))
    for name in ["TUNNEL_DATA", "TUNNEL_CACHE_DIR", "NO_COLOR", "TERM"] {
      #expect(page.contains(".It Ev \(name)"), "\(name)")
    }
    #expect(page.contains(".Sh EXIT STATUS"))
    for status in ["0", "1", "64", "65", "66", "74", "\"128 + n\""] {
      #expect(page.contains(".It \(status)\n"), "\(status)")
    }
  }

  @Test("The page holds every command's examples as its help prints them (Scripts/man was run)")
  func examplesAreCurrent() throws {
    let inPage = Set(try Self.examples())
    // serve's help is tunnel-serve's: Server/Tests/TunnelServeTests checks its examples.
    for command in CommandLineRewriting.commands.sorted() where command != "serve" {
      let help = try TunnelProcess.run([command, "--help"]).standardOutput
      let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
      let start = try #require(lines.firstIndex(of: "Examples:"), "\(command) has examples")
      let examples = lines[(start + 1)...].prefix { $0.hasPrefix("  ") }.map { String($0.dropFirst(2)) }
      #expect(!examples.isEmpty)
      for example in examples {
        #expect(inPage.contains(example), "'\(example)' is not in docs/man/tunnel.1; run Scripts/man")
      }
    }
  }

  /// Examples that start a server, or ask one: run by ``serveExamplesRun()``.
  static func isServeExample(_ example: String) -> Bool {
    example.contains("tunnel serve") || example.hasPrefix("curl ")
  }

  @Test("Every example but play's and serve's runs and exits 0")
  func examplesRun() throws {
    let examples = try Self.examples().filter { !$0.contains("tunnel play") && !Self.isServeExample($0) }
    #expect(examples.count > 20)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tunnel-man-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    // The files the examples read.
    try Data("latitude,longitude,name\n56.55,8.32,Skjern\n-33.9,18.4,Cape Town\n".utf8)
      .write(to: folder.appendingPathComponent("points.csv"))
    try Data(
      """
      {"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"name": "Skjern"}, \
      "geometry": {"type": "Point", "coordinates": [8.32, 56.55]}}]}
      """.utf8
    ).write(to: folder.appendingPathComponent("tracks.geojson"))
    let products = TunnelProcess.executable.deletingLastPathComponent().path
    // Standard input empty and standard output kept, in files of the test's own rather than /dev/null.
    let empty = folder.appendingPathComponent("empty-input")
    let printed = folder.appendingPathComponent("printed-output")
    try Data().write(to: empty)
    for example in examples {
      try Data().write(to: printed)
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = ["-c", example]
      process.currentDirectoryURL = folder
      var environment = ProcessInfo.processInfo.environment
      environment["PATH"] = products + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
      environment["LANG"] = "C.UTF-8"
      process.environment = environment
      process.standardInput = try FileHandle(forReadingFrom: empty)
      process.standardOutput = try FileHandle(forWritingTo: printed)
      let error = Pipe()
      process.standardError = error
      try process.run()
      let message = error.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      #expect(
        process.terminationStatus == 0, "\(example): \(String(decoding: message, as: UTF8.self))")
    }
  }

  @Test("Every example of play runs in a terminal and ends with q, exit 0")
  func playExamplesRun() throws {
    let examples = try Self.examples().filter { $0.contains("tunnel play") }
    #expect(examples.count >= 2)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tunnel-man-play-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let products = TunnelProcess.executable.deletingLastPathComponent().path
    for example in examples {
      let session = TerminalSession()
      defer { session.stop() }
      try session.start(
        "cd '\(folder.path)'; export PATH='\(products)':\"$PATH\" LANG=C.UTF-8 TERM=xterm-256color; \(example); echo EXIT=$?; sleep 60"
      )
      try session.wait("the maps of \(example)") { screen in screen.contains { $0.contains("☻") } }
      try session.send("q")
      let screen = try session.wait("\(example) to end") { $0.contains { $0.hasPrefix("EXIT=") } }
      #expect(screen.contains("EXIT=0"), "\(example): \(screen.joined(separator: "\n"))")
    }
  }
}
