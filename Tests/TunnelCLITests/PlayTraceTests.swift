import Foundation
import Testing

/// `tunnel play --trace-lifecycle FILE` writes its log as a shell's `>` would: through a link, into the
/// file it names, never replacing it.
@Suite("tunnel play --trace-lifecycle", .serialized)
struct PlayTraceTests {
  @Test("The log written through a symbolic link lands in its target; the link stays a link")
  func traceThroughSymbolicLink() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tunnel-trace-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let target = folder.appendingPathComponent("target.log").path
    let link = folder.appendingPathComponent("trace.log").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    let session = TerminalSession()
    defer { session.stop() }
    try session.start(
      "env LANG=C.UTF-8 TERM=xterm-256color '\(TunnelProcess.executable.path)' play --trace-lifecycle '\(link)'; echo EXIT=$?; sleep 60"
    )
    try session.wait("the maps") { screen in screen.contains { $0.contains("☻") } }
    try session.send("q")
    let screen = try session.wait("the app to end") { $0.contains { $0.hasPrefix("EXIT=") } }
    #expect(screen.contains("EXIT=0"), "\(screen.joined(separator: "\n"))")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
    let log = try String(contentsOfFile: target, encoding: .utf8)
    #expect(log.contains("viewDidAppear"), "\(log.prefix(500))")
  }

  @Test(
    "A log that cannot be written (a link to /dev/full) never stops the game; it is said once the game ends")
  func traceIntoFullDevice() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tunnel-trace-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let link = folder.appendingPathComponent("full.log").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/full")
    let session = TerminalSession()
    defer { session.stop() }
    try session.start(
      "cd '\(folder.path)'; env LANG=C.UTF-8 TERM=xterm-256color '\(TunnelProcess.executable.path)' play --trace-lifecycle full.log; echo EXIT=$?; sleep 60"
    )
    try session.wait("the maps") { screen in screen.contains { $0.contains("☻") } }
    try session.send("q")
    let screen = try session.wait("the app to end") { $0.contains { $0.hasPrefix("EXIT=") } }
    #expect(screen.contains("EXIT=74"), "\(screen.joined(separator: "\n"))")
    #expect(
      screen.contains("tunnel: cannot write the lifecycle log to 'full.log': No space left on device"),
      "\(screen.joined(separator: "\n"))")
  }

  @Test("A log into a folder that does not exist is refused before the terminal is taken")
  func traceIntoMissingFolder() throws {
    let session = TerminalSession()
    defer { session.stop() }
    try session.start(
      "cd /tmp; env LANG=C.UTF-8 TERM=xterm-256color '\(TunnelProcess.executable.path)' play --trace-lifecycle no-such-folder-\(UUID().uuidString)/x.log; echo EXIT=$?; sleep 60"
    )
    let screen = try session.wait("the refusal") { $0.contains { $0.hasPrefix("EXIT=") } }
    #expect(screen.contains("EXIT=74"), "\(screen.joined(separator: "\n"))")
    #expect(screen.contains { $0.contains("tunnel: cannot write the lifecycle log to ") })
  }
}
