import TunnelSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a ``Window`` in a terminal: reads keys, drives the window's clock in real time,
/// follows the terminal's size, and draws frames as ANSI text.
///
/// When standard input is a terminal it is switched to raw mode, the screen to the alternate
/// buffer with the cursor hidden (and mouse reporting on, with ``reportsMouse``), until ``run()``
/// returns, whichever way it ends: a quit key, ``quit()``, the end of input, or one of
/// the signals that end a process from outside it (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGALRM, SIGPIPE, …),
/// which end the run loop rather than the process (``stoppedBySignal`` says which). Control-Z,
/// SIGTSTP, SIGTTIN and SIGTTOU suspend it as the shell's job control expects: the terminal is
/// restored, the process stops, and when it continues in the foreground the terminal is taken
/// again and the whole frame redrawn (also after a SIGSTOP and SIGCONT). A crash puts the terminal
/// back before the process dies. Between frames the loop
/// suspends, so work sent to the main actor (a result computed in the background) lands while
/// the application runs. When standard input is not a terminal — a pipe, a file, `/dev/null` —
/// the keys are read from it one by one, each followed by letting every transition finish; at
/// the end of input (or on a quit key) the last frame is printed once, in plain text when
/// standard output is not a terminal. Quit keys are `q` and Control-C/D; keys pressed with Alt,
/// and whatever control sequences and strings the terminal sends, are never keys (``KeyDecoder``).
///
///     let app = TerminalApplication(window: window)
///     app.onKey = { key in container.handle(key) }
///     await app.run()
@MainActor
public final class TerminalApplication {
  /// The window shown.
  public let window: Window
  /// Receives every key that is not a quit key (nor Control-Z, which suspends the application).
  public var onKey: (@MainActor (Key) -> Void)?
  /// Keys that end ``run()``.
  public var quitKeys: Set<Key> = [.character("q"), .character("Q"), .interrupt]
  /// Frames drawn per second at most while something moves.
  public var framesPerSecond = 30.0
  /// How long a lone ESC waits for more bytes before it is the Escape key, in seconds.
  public var escapeDelay = 0.05
  /// What standard output can show.
  public var capabilities: TerminalCapabilities {
    didSet { window.charset = capabilities.charset }
  }
  /// Whether the terminal reports mouse clicks and the wheel (as ``Key/click(_:)`` and
  /// ``Key/scroll(up:at:)``) while the application runs interactively.
  public var reportsMouse = false

  private let input: Int32 = 0
  private let output: Int32 = 1
  private var isRunning = false
  /// The terminal's modes before the run, put back whenever the terminal is handed back.
  private var savedModes: termios?
  /// Whether the terminal is in raw mode on the alternate screen (taken, not handed back).
  private var isOnScreen = false
  /// Asks the job to stop on Control-Z; nil when not running interactively.
  private var jobControl: JobControl?

  /// Creates an application for a window; capabilities come from the environment.
  public init(window: Window) {
    self.window = window
    self.capabilities = TerminalCapabilities(isTerminal: isatty(1) == 1)
    window.charset = capabilities.charset
  }

  /// Whether standard input is a terminal (keys come live, raw mode is used).
  public var isInteractive: Bool { isatty(input) == 1 }

  /// Ends ``run()`` after the current key.
  public func quit() {
    isRunning = false
  }

  /// Runs until a quit key, ``quit()``, the end of input, or a signal to stop.
  public func run() async {
    isRunning = true
    let catcher = SignalCatcher(SignalCatcher.endingSignals)
    defer { catcher.restore() }
    if isInteractive { await runInteractive() } else { await runScripted() }
  }

  /// The signal that ended the last ``run()``, if one did (SIGINT, SIGTERM, SIGHUP, SIGQUIT, …).
  public var stoppedBySignal: Int32? { SignalCatcher.caught }

  private var shouldContinue: Bool { isRunning && SignalCatcher.caught == nil }

  // MARK: - Scripted input

  private func runScripted() async {
    var buffer = [UInt8](repeating: 0, count: 4096)
    var decoder = KeyDecoder()
    reading: while shouldContinue {
      let count = read(input, &buffer, buffer.count)
      if count < 0, errno == EINTR { continue }
      let keys = count > 0 ? decoder.decode(buffer[0..<count]) : decoder.finish()
      for key in keys {
        handle(key)
        window.clock.runUntilIdle()
        await Task.yield()
        if !shouldContinue { break reading }
      }
      if count <= 0 { break }
    }
    window.clock.runUntilIdle()
    await Task.yield()
    let frame = window.render()
    let text =
      capabilities.colors
      ? frame.ansiText(colors: true, charset: capabilities.charset)
      : frame.plainText(charset: capabilities.charset)
    writeAll(text + "\n")
  }

  // MARK: - Interactive terminal

  private func runInteractive() async {
    var modes = termios()
    savedModes = tcgetattr(input, &modes) == 0 ? modes : nil
    let jobControl = JobControl()
    self.jobControl = jobControl
    defer {
      if isOnScreen { leaveScreen() }
      jobControl.restore()
      self.jobControl = nil
    }
    var last = Self.monotonicSeconds()
    var previousFrame: Canvas?
    var buffer = [UInt8](repeating: 0, count: 256)
    var decoder = KeyDecoder()
    while shouldContinue {
      if let signal = jobControl.takeStop() {
        // Control-Z, or a stop signal: hand the terminal back, then stop until continued.
        if isOnScreen { leaveScreen() }
        jobControl.stop(with: signal)
        // Ended while stopped (the shell went away: SIGHUP, then SIGCONT): nothing to take again.
        guard shouldContinue else { break }
      }
      if jobControl.takeContinued() || !isOnScreen {
        // Continued (after a stop of any kind): take the terminal again and draw everything anew,
        // but only in the foreground; a job continued in the background stops until brought back.
        guard isForeground else {
          if isOnScreen { leaveScreen() }
          jobControl.stop(with: SIGTTOU)
          // The stop may be discarded (no shell to continue the job): wait before looking again.
          if !jobControl.takeContinued() { poll(nil, 0, 100) }
          continue
        }
        enterScreen()
        previousFrame = nil
      }
      let frameBudget = 1.0 / max(1, framesPerSecond)
      let timeout =
        decoder.awaitsPause
        ? Int32(escapeDelay * 1000) : window.clock.isIdle ? 100 : Int32(frameBudget * 1000)
      var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
      let ready = poll(&descriptor, 1, timeout)
      var keys: [Key] = []
      if ready > 0 {
        let count = read(input, &buffer, buffer.count)
        if count > 0 {
          keys = decoder.decode(buffer[0..<count])
        } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
          break  // the terminal is gone
        }
      } else if ready == 0 {
        keys = decoder.pause()
      }
      for key in keys where isRunning { handle(key) }
      // Let work queued on the main actor (results computed in the background) run.
      await Task.yield()
      let now = Self.monotonicSeconds()
      window.clock.advance(by: now - last)
      last = now
      followTerminalSize()
      let frame = window.render()
      if frame != previousFrame {
        let text = frame.ansiText(colors: capabilities.colors, charset: capabilities.charset)
        writeAll(
          "\u{1B}[H" + text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n")
        )
        previousFrame = frame
      }
    }
  }

  /// Whether this process's group has the terminal (is the foreground job), or no job control
  /// says otherwise.
  private var isForeground: Bool {
    let owner = tcgetpgrp(input)
    return owner < 0 || owner == getpgrp()
  }

  /// Takes the terminal: raw mode, the alternate screen cleared, the cursor hidden, mouse reports on.
  /// Until ``leaveScreen()``, a crash hands it back too (``CrashRestore``).
  private func enterScreen() {
    if var raw = savedModes {
      cfmakeraw(&raw)
      raw.c_oflag |= tcflag_t(OPOST)
      tcsetattr(input, TCSAFLUSH, &raw)
    }
    let mouse = reportsMouse ? "\u{1B}[?1002h\u{1B}[?1006h" : ""
    writeAll("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J" + mouse)
    CrashRestore.install(input: input, modes: savedModes, output: output, leaving: leavingSequence)
    isOnScreen = true
  }

  /// Hands the terminal back as it was: mouse reports off, colours reset, the cursor shown, the
  /// normal screen, the saved modes.
  private func leaveScreen() {
    CrashRestore.uninstall()
    writeAll(leavingSequence)
    if var modes = savedModes { tcsetattr(input, TCSAFLUSH, &modes) }
    isOnScreen = false
  }

  /// What puts the screen back: mouse reports off, colours reset, the cursor shown, the normal screen.
  private var leavingSequence: String {
    (reportsMouse ? "\u{1B}[?1006l\u{1B}[?1002l" : "") + "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
  }

  private func handle(_ key: Key) {
    if key == .suspend {
      jobControl?.suspend()
    } else if quitKeys.contains(key) {
      isRunning = false
    } else {
      onKey?(key)
    }
  }

  private func followTerminalSize() {
    var size = winsize()
    guard ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return }
    window.resize(to: Size(width: Int(size.ws_col), height: Int(size.ws_row)))
  }

  /// Writes `text` to the terminal whole, through the one write loop of `TunnelSystem`; a write the
  /// terminal refuses is dropped, as there is nowhere left to say so.
  private func writeAll(_ text: String) {
    _ = TunnelSystem.writeAll(text, to: output)
  }

  private static func monotonicSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}
