import Foundation
import Testing

@Suite("The containment examples in a real terminal", .serialized)
struct ExampleTerminalTests {
  @Test(
    "An example ended by a signal restores the terminal and exits with 128 + the signal, as tunnel play does",
    arguments: [SIGTERM, SIGQUIT])
  func endedBySignal(signal: Int32) throws {
    let example = TunnelProcess.executable.deletingLastPathComponent().appendingPathComponent(
      "page-container")
    let session = TerminalSession()
    defer { session.stop() }
    let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent(
      "page-container-\(session.socket).pid"
    ).path
    defer { try? FileManager.default.removeItem(atPath: pidFile) }
    try session.start(
      "env LANG=C.UTF-8 TERM=xterm-256color sh -c 'echo $$ > \(pidFile); exec \(example.path)'; echo EXIT=$?; stty -a | tr ' ;' '\\n\\n' | grep -E -x -- '-?(icanon|echo)' | tr '\\n' ' '; echo; sleep 60"
    )
    try session.wait("the first page") { screen in
      screen.contains { $0.contains("Page 1") } && (try? session.format("alternate_on")) == "1"
    }
    let pid = try #require(
      Int32(
        (try String(contentsOfFile: pidFile, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)
      ))
    kill(pid, signal)
    let screen = try session.wait("the example to end and the shell to report") { screen in
      screen.contains { $0.hasPrefix("EXIT=") } && screen.contains { $0.contains("icanon") }
    }
    #expect(screen.contains("EXIT=\(128 + signal)"), "\(screen.joined(separator: "\n"))")
    let modes = screen.first { $0.contains("icanon") } ?? ""
    #expect(
      modes.split(separator: " ").sorted() == ["echo", "icanon"], "terminal modes after exit: \(modes)")
    #expect(try session.format("alternate_on") == "0")
    #expect(try session.format("cursor_flag") == "1")
  }
}
