import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Catches signals that ask a process to stop (SIGINT, SIGTERM, SIGHUP) so that it can stop on its own
/// terms: finish what it was writing, restore the terminal, say what happened.
///
/// The handlers are installed without `SA_RESTART`, so a blocking `read` or `poll` returns `EINTR` when a
/// signal arrives; the signals are unblocked in the calling thread. ``restore()`` puts the previous
/// handlers and mask back.
///
/// The terminal application and `tunnel batch` both stop this way; it lives here, below both, so that a
/// batch links no terminal code.
///
///     let catcher = SignalCatcher()
///     defer { catcher.restore() }
///     while SignalCatcher.caught == nil { … }
package final class SignalCatcher {
  private let handlers: SignalHandlers

  /// The last signal caught since the newest catcher was installed, nil for none.
  package static var caught: Int32? {
    let number = received.load(ordering: .relaxed)
    return number == 0 ? nil : number
  }

  private static let received = Atomic<Int32>(0)

  /// The signals whose default action ends a process and that come from outside it rather than
  /// from a fault: SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM, SIGTERM, SIGVTALRM,
  /// SIGXCPU and SIGXFSZ. A program that changes the terminal catches all of them, so that none can
  /// end it with the terminal left changed. (SIGPROF is left to profilers.)
  package static let endingSignals = [
    SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM, SIGTERM, SIGVTALRM, SIGXCPU, SIGXFSZ,
  ]

  /// Installs handlers for `signals`, forgetting any signal caught before.
  package init(_ signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]) {
    Self.received.store(0, ordering: .relaxed)
    handlers = SignalHandlers(signals) { _ in
      { number in SignalCatcher.received.store(number, ordering: .relaxed) }
    }
  }

  /// Puts back the handlers there were before.
  package func restore() {
    handlers.restore()
  }
}
