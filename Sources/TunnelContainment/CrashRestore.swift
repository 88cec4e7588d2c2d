#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Puts the terminal back when the process crashes — a trap, a bad pointer, `abort()`, or one of
/// those signals sent from outside (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT) — before
/// the crash goes on as it would have: to the handler installed before (Swift's backtracer, which
/// then prints on a normal screen in canonical mode), then to the signal's default action — also
/// for a signal sent from outside, which no instruction raises again.
///
/// The handler only writes bytes prepared beforehand and calls `tcsetattr`, both safe in a signal
/// handler. ``install(input:modes:output:leaving:)`` takes over the signals; ``uninstall()`` puts
/// the previous handlers back.
///
///     CrashRestore.install(input: 0, modes: saved, output: 1, leaving: "\u{1B}[?25h\u{1B}[?1049l")
///     defer { CrashRestore.uninstall() }
enum CrashRestore {
  /// The signals a crash raises.
  static let signals = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT]

  /// What the handler needs, prepared before any signal can come.
  private struct State {
    var input: Int32
    var modes: termios
    var hasModes: Bool
    var output: Int32
    var leaving: UnsafeMutableBufferPointer<UInt8>
    var previous: UnsafeMutableBufferPointer<sigaction>
  }

  nonisolated(unsafe) private static var state: UnsafeMutablePointer<State>?

  /// Installs the handlers: on a crash, `leaving` is written to `output` and `modes` (when given)
  /// are set on `input`.
  static func install(input: Int32, modes: termios?, output: Int32, leaving: String) {
    uninstall()
    let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: leaving.utf8.count)
    _ = bytes.initialize(from: leaving.utf8)
    let previous = UnsafeMutableBufferPointer<sigaction>.allocate(capacity: signals.count)
    previous.initialize(repeating: sigaction())
    let pointer = UnsafeMutablePointer<State>.allocate(capacity: 1)
    pointer.initialize(
      to: State(
        input: input, modes: modes ?? termios(), hasModes: modes != nil, output: output, leaving: bytes,
        previous: previous))
    state = pointer
    var action = sigaction()
    action.__sigaction_handler.sa_sigaction = { number, info, context in
      CrashRestore.handle(number, info, context)
    }
    action.sa_flags = SA_SIGINFO | Int32(SA_ONSTACK)
    sigemptyset(&action.sa_mask)
    for (index, number) in signals.enumerated() {
      sigaction(number, &action, &previous[index])
    }
  }

  /// Puts back the handlers there were before ``install(input:modes:output:leaving:)``.
  ///
  /// The state the handler read is kept, never freed: a crash on another thread may be inside the
  /// handler at this moment, and a few hundred bytes once per full-screen session cost nothing.
  static func uninstall() {
    guard let pointer = state else { return }
    for (index, number) in signals.enumerated() {
      sigaction(number, &pointer.pointee.previous[index], nil)
    }
    state = nil
  }

  private static func handle(
    _ number: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?
  ) {
    guard let pointer = state, let index = signals.firstIndex(of: number) else { return }
    let leaving = pointer.pointee.leaving
    _ = write(pointer.pointee.output, leaving.baseAddress, leaving.count)
    if pointer.pointee.hasModes { tcsetattr(pointer.pointee.input, TCSANOW, &pointer.pointee.modes) }
    // Go on as before: the previous handler, then the default action, which comes once this handler
    // returns (a fault also comes back when its instruction runs again). A signal ignored before stays so.
    var previous = pointer.pointee.previous[index]
    let handler = unsafeBitCast(previous.__sigaction_handler.sa_handler, to: Int.self)
    if handler == unsafeBitCast(SIG_IGN, to: Int.self) {
      sigaction(number, &previous, nil)
      return
    }
    if previous.sa_flags & SA_SIGINFO != 0, let chained = previous.__sigaction_handler.sa_sigaction {
      sigaction(number, &previous, nil)
      chained(number, info, context)
    } else if handler != unsafeBitCast(SIG_DFL, to: Int.self),
      let chained = previous.__sigaction_handler.sa_handler
    {
      sigaction(number, &previous, nil)
      chained(number)
    }
    // The previous handler returned (Swift's backtracer does, for a fault to come back): end as by default.
    signal(number, SIG_DFL)
    raise(number)
  }
}
