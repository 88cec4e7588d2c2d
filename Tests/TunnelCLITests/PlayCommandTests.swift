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

  /// Types `text` as it is, then Return.
  func type(_ text: String) throws {
    try tmux(["send-keys", "-l", text])
    try tmux(["send-keys", "Enter"])
  }

  /// Sends bytes given in hexadecimal ("1b 5b"), as a terminal would send them.
  func sendBytes(_ hex: String) throws {
    try tmux(["send-keys", "-H"] + hex.split(separator: " ").map(String.init))
  }

  /// One of tmux's formats for the pane, such as `alternate_on` (1 on the alternate screen),
  /// `cursor_flag` (1 when the cursor shows) or `mouse_any_flag` (1 when mouse reports are on).
  func format(_ name: String) throws -> String {
    try tmux(["display-message", "-p", "#{\(name)}"]).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Which of the pane terminal's local modes `icanon`, `echo` and `isig` are on (all three
  /// in canonical, "cooked" mode; none in raw mode), read from the terminal itself.
  func modes() throws -> Set<String> {
    let path = try format("pane_tty")
    let descriptor = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK)
    guard descriptor >= 0 else { throw TerminalSessionError(message: "cannot open \(path)") }
    defer { close(descriptor) }
    var modes = termios()
    guard tcgetattr(descriptor, &modes) == 0 else {
      throw TerminalSessionError(message: "cannot read the modes of \(path)")
    }
    let flags = [("icanon", ICANON), ("echo", ECHO), ("isig", ISIG)]
    return Set(flags.filter { modes.c_lflag & tcflag_t($0.1) != 0 }.map(\.0))
  }

  /// Writes `text` straight onto the pane's terminal, as another program sharing it might.
  func scribble(_ text: String) throws {
    let path = try format("pane_tty")
    let descriptor = open(path, O_WRONLY | O_NOCTTY)
    guard descriptor >= 0 else { throw TerminalSessionError(message: "cannot open \(path)") }
    defer { close(descriptor) }
    _ = text.withCString { write(descriptor, $0, strlen($0)) }
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
  func command(pidFile: String? = nil, place: String = "", environment: String = "") -> String {
    let tunnel = TunnelProcess.executable.path
    let inner = pidFile.map { "sh -c 'echo $$ > \($0); exec \(tunnel) play'" } ?? "\(tunnel) play \(place)"
    return
      "env LANG=C.UTF-8 TERM=xterm-256color \(environment) \(inner); echo EXIT=$?; stty -a | tr ' ;' '\\n\\n' | grep -E -x -- '-?(icanon|echo)' | tr '\\n' ' '; echo; sleep 60"
  }

  /// An interactive shell with job control (dash, which leaves the terminal's modes as a stopped
  /// job left them), and the line that runs `tunnel play` in it, writing its process id to `pidFile`.
  let jobShell = "env PS1='$ ' ENV=/dev/null dash -i"
  func jobLine(pidFile: String) -> String {
    "sh -c 'echo $$ > \(pidFile); exec env LANG=C.UTF-8 TERM=xterm-256color \(TunnelProcess.executable.path) play'"
  }

  /// A file name for a process id, unique to the session.
  func pidFile(_ session: TerminalSession) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("tunnel-play-\(session.socket).pid").path
  }

  func readPid(_ path: String) throws -> Int32 {
    try #require(
      Int32(
        (try String(contentsOfFile: path, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)))
  }

  /// Waits for the whole first frame (the status line) of the app started at Denmark.
  @discardableResult
  func waitForMaps(_ session: TerminalSession, _ description: String = "the maps") throws -> [String] {
    try session.wait(description) { screen in
      screen.contains { $0.contains("▸☻ Lemvig, Denmark") && $0.contains("q quit") }
        && (try? session.format("alternate_on")) == "1"
    }
  }

  /// Checks that the app has the terminal: the alternate screen, no cursor, mouse reports, raw mode.
  func expectTaken(_ session: TerminalSession, _ when: String) throws {
    #expect(try session.format("alternate_on") == "1", "alternate screen \(when)")
    #expect(try session.format("cursor_flag") == "0", "hidden cursor \(when)")
    #expect(try session.format("mouse_sgr_flag") == "1", "mouse reports \(when)")
    #expect(try session.modes().isEmpty, "raw mode \(when)")
  }

  /// Checks that the terminal is handed back as it was: the normal screen, the cursor, no mouse
  /// reports, canonical mode with echo and signals.
  func expectHandedBack(_ session: TerminalSession, _ when: String) throws {
    #expect(try session.format("alternate_on") == "0", "normal screen \(when)")
    #expect(try session.format("cursor_flag") == "1", "cursor shown \(when)")
    #expect(try session.format("mouse_any_flag") == "0", "mouse reports off \(when)")
    #expect(try session.format("mouse_sgr_flag") == "0", "SGR mouse reports off \(when)")
    #expect(try session.modes() == ["icanon", "echo", "isig"], "cooked mode \(when)")
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
      screen.contains { $0.contains("Copenhagen") } && screen.contains { $0.contains("▸☻ Lemvig, Denmark") }
    }
    let braille = start.prefix(session.rows / 2).joined().unicodeScalars.filter {
      (0x2801...0x28FF).contains($0.value)
    }
    #expect(braille.count > 500, "Denmark's land drawn in Braille dots")
    // The status line: both ends by name, the digger marked as the one moving, the scale and the zoom.
    #expect(
      start.contains {
        $0.contains("▸☻ Lemvig, Denmark · ✖ South Pacific Ocean · 1,000 km across, zoom ×1 · ? keys · q quit")
      }, "\(start.joined(separator: "\n"))")
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
      $0.contains { $0.contains("▸☻ Wellington, New Zealand") && $0.contains("✖ Alaejos, Spain") }
    }
    let before = try session.screen()
    try session.send("Tab", "Left")
    try session.wait("the X moved west, and the digger with it") { screen in
      screen.contains {
        $0.contains("▸✖ ") && !$0.contains("✖ Alaejos, Spain") && !$0.contains("☻ Wellington, New Zealand")
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

  @Test("Ctrl-C is a quit key like q: it ends the app, restores the terminal and exits 0")
  func controlC() throws {
    let session = TerminalSession()
    defer { session.stop() }
    try session.start(command())
    try session.wait("the maps") { $0.contains { $0.contains("☻") } }
    try session.send("C-c")
    try expectRestored(session, status: "0")
  }

  @Test(
    "A signal that ends a process ends it too, with the terminal restored and 128 + the signal as status",
    arguments: [SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE])
  func endingSignal(signal: Int32) throws {
    let session = TerminalSession()
    defer { session.stop() }
    let pidFile = pidFile(session)
    defer { try? FileManager.default.removeItem(atPath: pidFile) }
    try session.start(command(pidFile: pidFile))
    try session.wait("the maps") { $0.contains { $0.contains("☻") } }
    kill(try readPid(pidFile), signal)
    try expectRestored(session, status: "\(128 + signal)")
  }

  @Test(
    "A crash (or its signal from outside) hands the terminal back before Swift's backtrace and the end",
    .disabled(
      if: ProcessInfo.processInfo.environment["TUNNEL_TEST_SANITIZER"] != nil,
      "a sanitizer takes the crash signals for itself, and the backtracer does not run under it"),
    arguments: [SIGSEGV, SIGABRT, SIGILL])
  func crash(signal: Int32) throws {
    let session = TerminalSession()
    defer { session.stop() }
    let pidFile = pidFile(session)
    defer { try? FileManager.default.removeItem(atPath: pidFile) }
    try session.start(command(pidFile: pidFile, environment: "SWIFT_BACKTRACE=interactive=no"))
    try session.wait("the maps") { $0.contains { $0.contains("☻") } }
    kill(try readPid(pidFile), signal)
    try expectRestored(session, status: "\(128 + signal)")
    #expect(try session.format("cursor_flag") == "1")
    #expect(try session.format("mouse_any_flag") == "0")
  }

  @Test("Ctrl-Z hands the terminal back to the shell and stops; fg takes it again and redraws everything")
  func suspendAndResume() throws {
    let session = TerminalSession()
    defer { session.stop() }
    let pidFile = pidFile(session)
    defer { try? FileManager.default.removeItem(atPath: pidFile) }
    try session.start(jobShell)
    try session.type(jobLine(pidFile: pidFile))
    try waitForMaps(session)
    try expectTaken(session, "while it runs")
    try session.send("C-z")
    try session.wait("the shell to say the job stopped") { screen in
      screen.contains { $0.contains("Stopped") } && screen.last { !$0.isEmpty } == "$"
    }
    try expectHandedBack(session, "while it is stopped")
    try session.type("fg")
    try waitForMaps(session, "the maps drawn again")
    try expectTaken(session, "after fg")
    // Still working: the radar turns the maps over.
    try session.send("r")
    try session.wait("the geocode view") { $0.contains { $0.contains("South Pacific Ocean") } }
    try session.send("q")
    try session.wait("the prompt") { screen in
      screen.last { !$0.isEmpty } == "$" && (try? session.format("alternate_on")) == "0"
    }
    try session.type("echo EXIT=$?")
    try session.wait("the exit status") { $0.contains("EXIT=0") }
    try expectHandedBack(session, "after q")
  }

  @Test(
    "kill -TSTP from outside suspends it the same way; continued in the background it stops again rather than take the terminal"
  )
  func stopAndContinueFromOutside() throws {
    let session = TerminalSession()
    defer { session.stop() }
    let pidFile = pidFile(session)
    defer { try? FileManager.default.removeItem(atPath: pidFile) }
    try session.start(jobShell)
    try session.type(jobLine(pidFile: pidFile))
    try waitForMaps(session)
    let pid = try readPid(pidFile)
    kill(pid, SIGTSTP)
    try session.wait("the shell to say the job stopped") { $0.contains { $0.contains("Stopped") } }
    try expectHandedBack(session, "after SIGTSTP")
    // Continued while the shell has the terminal, it stops again as a background job writing to
    // the terminal does; the shell says so at its next prompt.
    kill(pid, SIGCONT)
    try session.wait("the shell to say the job stopped for the terminal") { screen in
      if !screen.contains(where: { $0.contains("Stopped (tty output)") }) { try? session.send("Enter") }
      return screen.contains { $0.contains("Stopped (tty output)") }
    }
    try expectHandedBack(session, "after SIGCONT in the background")
    try session.type("fg")
    try waitForMaps(session, "the maps drawn again")
    try expectTaken(session, "after fg")
    try session.send("q")
    try session.wait("the prompt") { screen in
      screen.last { !$0.isEmpty } == "$" && (try? session.format("alternate_on")) == "0"
    }
    try session.type("echo EXIT=$?")
    try session.wait("the exit status") { $0.contains("EXIT=0") }
  }

  @Test("Continued after SIGSTOP, it takes the terminal again and redraws the whole screen")
  func continuedAfterStop() throws {
    let session = TerminalSession()
    defer { session.stop() }
    let pidFile = pidFile(session)
    defer { try? FileManager.default.removeItem(atPath: pidFile) }
    try session.start(command(pidFile: pidFile))
    try waitForMaps(session)
    let pid = try readPid(pidFile)
    kill(pid, SIGSTOP)
    try session.scribble("\u{1B}[2J\u{1B}[?25h\u{1B}[?1000lSCRIBBLED")
    try session.wait("the scribble") { $0.contains { $0.contains("SCRIBBLED") } }
    kill(pid, SIGCONT)
    try session.wait("the whole screen drawn again") { screen in
      !screen.contains { $0.contains("SCRIBBLED") } && screen.contains { $0.contains("▸☻ Lemvig, Denmark") }
    }
    try expectTaken(session, "after SIGCONT")
    try session.send("q")
    try expectRestored(session, status: "0")
  }

  @Test("Keys with Alt, a bare ESC [, and OSC and DCS strings are not quit keys; the app goes on")
  func escapeSequencesDoNotQuit() throws {
    let session = TerminalSession()
    defer { session.stop() }
    try session.start(command())
    try waitForMaps(session)
    try session.send("M-q")
    try session.sendBytes("1b 5b")  // ESC [
    try session.sendBytes("1b 5d 31 31 3b 72 67 62 3a 30 2f 30 2f 30 07")  // OSC 11;rgb:0/0/0 BEL
    try session.sendBytes("1b 50 31 24 72 30 6d 1b 5c")  // DCS 1$r0m ST
    try session.sendBytes("1b 5f 47 1b 5c")  // APC G ST
    try session.send("r")
    try session.wait("the geocode view") { $0.contains { $0.contains("South Pacific Ocean") } }
    try session.send("Escape")
    try expectRestored(session, status: "0")
  }

  /// The bytes of an SGR mouse report for a cell (columns and rows from zero): a press of the left button,
  /// or a move with it held.
  func mouse(_ session: TerminalSession, column: Int, row: Int, drag: Bool = false) throws {
    let report = "\u{1B}[<\(drag ? 32 : 0);\(column + 1);\(row + 1)M"
    try session.sendBytes(report.utf8.map { String($0, radix: 16) }.joined(separator: " "))
  }

  @Test(
    "The mouse: a click on the bottom map makes the X the one moving, a drag pulls it, a click on the radar flips"
  )
  func mouseClicksAndDrags() throws {
    let session = TerminalSession()
    defer { session.stop() }
    try session.start(command())
    let screen = try waitForMaps(session)
    #expect(try session.format("mouse_button_flag") == "1", "mouse reports while a button is held")
    func column(of text: String, in line: String) throws -> Int {
      let found = try #require(line.range(of: text), "'\(text)' in '\(line)'")
      return line.distance(from: line.startIndex, to: found.lowerBound)
    }
    // The X's cell on the bottom map (not the status line's).
    let row = try #require(screen.dropLast(2).lastIndex { $0.contains("✖") })
    let x = try column(of: "✖", in: screen[row])
    try mouse(session, column: x - 10, row: row)
    let clicked = try session.wait("the X made the one moving") { $0.contains { $0.contains("▸✖ ") } }
    // A drag to the right pulls the bottom map: the X goes west, the digger east, so the top map changes.
    let top = Array(clicked.prefix(session.rows / 3))
    try mouse(session, column: x, row: row)
    try mouse(session, column: x + 12, row: row, drag: true)
    try session.wait("the top map moved with the drag") { Array($0.prefix(session.rows / 3)) != top }
    // A click on the radar flips to the words.
    let now = try session.screen()
    let radarRow = try #require(now.firstIndex { $0.contains("( r ) radar") })
    try mouse(session, column: try column(of: "radar", in: now[radarRow]), row: radarRow)
    try session.wait("the geocode view") { $0.contains { $0.contains("Straight through:") } }
    try session.send("q")
    try expectRestored(session, status: "0")
  }

  @Test(
    "The search box: a failed search keeps the text to mend, Ctrl-U clears it, a place moves the digger there"
  )
  func searchBox() throws {
    let session = TerminalSession()
    defer { session.stop() }
    try session.start(command())
    try waitForMaps(session)
    try session.send("g")
    try session.wait("the prompt") { $0.contains { $0.contains("Go to (a place or a coordinate") } }
    try session.type("Wellingtn Zealand Nowhere")
    let failed = try session.wait("the complaint after the kept text") { screen in
      screen.contains { $0.contains("Wellingtn Zealand Nowhere▏ — ") }
    }
    #expect(failed.contains { $0.contains("Go to") }, "the prompt stays open")
    try session.send("C-u")
    try session.wait("the text cleared") {
      $0.contains { $0.hasSuffix("Esc to cancel): ▏") || $0.contains("cancel): ▏ ") }
    }
    try session.type("Wellington")
    try session.wait("the digger in Wellington") { screen in
      screen.contains { $0.contains("▸☻ Wellington, New Zealand") && $0.contains("✖ Alaejos, Spain") }
    }
    try session.send("q")
    try expectRestored(session, status: "0")
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
