import Foundation
import Testing

/// A tmux server of its own, with one window running a command in a real terminal.
struct TerminalSession {
  let socket = "tunnel-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
  let columns = 100
  let rows = 36

  /// Runs a tmux command and returns what it printed.
  ///
  /// Spawned directly and waited for with `waitpid`: the server that a first command starts
  /// inherits the client's descriptors, which would keep a `Process` waiting for it to end.
  @discardableResult
  func tmux(_ arguments: [String]) throws -> String {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent(
      "\(socket)-\(UUID().uuidString).out")
    defer { try? FileManager.default.removeItem(at: output) }
    // tmux wants to know what terminal it runs in, even detached; CI may have no TERM at all.
    let argv = ["env", "TERM=xterm-256color", "tmux", "-L", socket] + arguments
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var pid: pid_t = 0
    let cArguments = argv.map { strdup($0) } + [nil]
    defer { for argument in cArguments { free(argument) } }
    let spawned = posix_spawnp(&pid, "env", &actions, nil, cArguments, environ)
    guard spawned == 0 else {
      throw TerminalSessionError(message: "cannot run env to start tmux (error \(spawned))")
    }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    guard status == 0 else {
      throw TerminalSessionError(
        message:
          "tmux \(arguments.joined(separator: " ")) failed with status \(status); is tmux installed (Scripts/setup)?"
      )
    }
    return (try? String(contentsOf: output, encoding: .utf8)) ?? ""
  }

  /// Starts `command` (a shell command line) in a new detached session.
  func start(_ command: String) throws {
    try tmux(["new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", command])
  }

  /// The visible screen, one string per row.
  func screen() throws -> [String] {
    try tmux(["capture-pane", "-p"]).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  func send(_ keys: String...) throws {
    try tmux(["send-keys"] + keys)
  }

  /// Waits until `condition` holds for the screen, at most `seconds`; returns the last screen seen.
  @discardableResult
  func wait(
    seconds: Double = 20, _ description: String, until condition: ([String]) -> Bool
  ) throws -> [String] {
    let deadline = Date().addingTimeInterval(seconds)
    var last: [String] = []
    while Date() < deadline {
      last = try screen()
      if condition(last) { return last }
      usleep(100_000)
    }
    throw TerminalSessionError(
      message: "timed out waiting for \(description); the screen was:\n\(last.joined(separator: "\n"))")
  }

  func stop() {
    _ = try? tmux(["kill-server"])
  }
}

struct TerminalSessionError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}

@Suite("tunnel play in a real terminal", .serialized)
struct PlayCommandTests {
  /// The shell line that runs `tunnel play` in the pane, then reports how it ended and whether the
  /// terminal is back in canonical mode with echo.
  func command(pidFile: String? = nil, place: String = "") -> String {
    let tunnel = TunnelProcess.executable.path
    let inner = pidFile.map { "sh -c 'echo $$ > \($0); exec \(tunnel) play'" } ?? "\(tunnel) play \(place)"
    return
      "env LANG=C.UTF-8 TERM=xterm-256color \(inner); echo EXIT=$?; stty -a | tr ' ;' '\\n\\n' | grep -E -x -- '-?(icanon|echo)' | tr '\\n' ' '; echo; sleep 60"
  }

  /// Waits for the shell's report after the app ended and checks that the terminal was restored.
  func expectRestored(_ session: TerminalSession, status: String) throws {
    let screen = try session.wait("the app to end and the shell to report") { screen in
      screen.contains { $0.hasPrefix("EXIT=") } && screen.contains { $0.contains("icanon") }
    }
    #expect(screen.contains("EXIT=\(status)"), "\(screen.joined(separator: "\n"))")
    let modes = screen.first { $0.contains("icanon") } ?? ""
    #expect(
      modes.split(separator: " ").sorted() == ["echo", "icanon"], "terminal modes after exit: \(modes)")
    #expect(!screen.contains { $0.contains("( r ) radar") }, "the alternate screen was left")
  }

  @Test(
    "Starts on Denmark's coast; r says Denmark above and South Pacific Ocean below; q restores the terminal")
  func playAndRadar() throws {
    let session = TerminalSession()
    defer { session.stop() }
    try session.start(command())
    // The whole first frame: the maps and the status line (a capture can catch a frame half drawn).
    let start = try session.wait("the maps") { screen in
      screen.contains { $0.contains("Copenhagen") } && screen.contains { $0.contains("☻ 56.55000, 8.31667") }
    }
    let braille = start.prefix(session.rows / 2).joined().unicodeScalars.filter {
      (0x2801...0x28FF).contains($0.value)
    }
    #expect(braille.count > 500, "Denmark's land drawn in Braille dots")
    #expect(start.contains { $0.contains("☻ 56.55000, 8.31667") })
    try session.send("r")
    let flipped = try session.wait("the geocode view") { screen in
      let denmark = screen.firstIndex { $0.contains("Denmark") }
      let pacific = screen.firstIndex { $0.contains("South Pacific Ocean") }
      return denmark != nil && pacific != nil && denmark! < session.rows / 2 && pacific! > session.rows / 2
    }
    #expect(!flipped.contains { $0.contains("Thinking") })
    try session.send("q")
    try expectRestored(session, status: "0")
  }

  @Test(
    "A place to start from: the digger is there, the X at its antipode; a move and Tab move the other end")
  func startsFromAPlace() throws {
    let session = TerminalSession()
    defer { session.stop() }
    try session.start(command(place: "-41.2865 174.7762"))
    try session.wait("Wellington") {
      $0.contains { $0.contains("☻ -41.28650, 174.77620") && $0.contains("✖ 41.28650, -5.22380") }
    }
    let before = try session.screen()
    try session.send("Tab", "Left")
    try session.wait("the X moved west, and the digger with it") { screen in
      screen.contains {
        $0.contains("moving ✖") && !$0.contains("✖ 41.28650, -5.22380")
          && !$0.contains("☻ -41.28650, 174.77620")
      }
    }
    // Zooming in redraws the maps at another scale.
    let moved = try session.screen()
    #expect(before.prefix(10) != moved.prefix(10))
    try session.send("+")
    try session.wait("the maps to zoom in") { $0.prefix(10) != moved.prefix(10) }
    try session.send("q")
    try expectRestored(session, status: "0")
  }

  @Test("Ctrl-C ends it and restores the terminal")
  func controlC() throws {
    let session = TerminalSession()
    defer { session.stop() }
    try session.start(command())
    try session.wait("the maps") { $0.contains { $0.contains("☻") } }
    try session.send("C-c")
    try expectRestored(session, status: "0")
  }

  @Test("SIGTERM ends it, restores the terminal and exits as a process ended by SIGTERM does (143)")
  func terminate() throws {
    let session = TerminalSession()
    defer { session.stop() }
    let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tunnel-play-\(session.socket).pid"
    ).path
    defer { try? FileManager.default.removeItem(atPath: pidFile) }
    try session.start(command(pidFile: pidFile))
    try session.wait("the maps") { $0.contains { $0.contains("☻") } }
    let pid = try #require(
      Int32(
        (try String(contentsOfFile: pidFile, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)
      ))
    kill(pid, SIGTERM)
    try expectRestored(session, status: "143")
  }

  @Test("Without a terminal it refuses politely, with exit 64")
  func refusesWithoutATerminal() throws {
    let result = try TunnelProcess.run(["play"])
    #expect(result.status == 64)
    #expect(
      result.standardError
        == "tunnel: 'tunnel play' needs a terminal; to print the maps once, use 'tunnel map'\n")
  }
}
