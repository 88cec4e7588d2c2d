#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Handlers installed for a few signals, and what there was before them, to put back.
///
/// Installing sets each signal's handler without `SA_RESTART`, so that a blocking `read` or `poll` returns
/// `EINTR` when the signal arrives, and unblocks the signals in the calling thread (a parent may have left
/// them blocked: some process launchers do). ``restore()`` puts the previous handlers and signal mask back.
/// ``SignalCatcher`` and the terminal's job control both install theirs this way.
///
///     let handlers = SignalHandlers([SIGINT, SIGTERM]) { _ in { number in caught.store(number, …) } }
///     defer { handlers.restore() }
package struct SignalHandlers {
  /// The signals handled, in the order given, each with the action it had before.
  private let previous: [(signal: Int32, action: sigaction)]
  /// The calling thread's signal mask before the signals were unblocked.
  private let previousMask: sigset_t

  /// Installs for each of `signals` the handler `handler(signal)` gives; with `keepingIgnored`, a signal
  /// that is ignored is left ignored and not handled (a shell without job control ignores SIGTSTP for
  /// its jobs, and means it).
  package init(
    _ signals: [Int32], keepingIgnored: Bool = false,
    handler: (Int32) -> @convention(c) (Int32) -> Void
  ) {
    var previous: [(signal: Int32, action: sigaction)] = []
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    for number in signals {
      var old = sigaction()
      sigaction(number, nil, &old)
      if keepingIgnored,
        unsafeBitCast(old.__sigaction_handler.sa_handler, to: Int.self)
          == unsafeBitCast(SIG_IGN, to: Int.self)
      {
        continue
      }
      var action = sigaction()
      action.__sigaction_handler.sa_handler = handler(number)
      action.sa_flags = 0
      sigemptyset(&action.sa_mask)
      sigaction(number, &action, nil)
      previous.append((number, old))
      sigaddset(&unblocked, number)
    }
    self.previous = previous
    var mask = sigset_t()
    pthread_sigmask(SIG_UNBLOCK, &unblocked, &mask)
    previousMask = mask
  }

  /// The signals that got a handler (with `keepingIgnored`, those that were not ignored).
  package var signals: [Int32] { previous.map(\.signal) }

  /// Puts back the signal mask and the handlers there were before.
  package func restore() {
    var mask = previousMask
    pthread_sigmask(SIG_SETMASK, &mask, nil)
    for (number, old) in previous {
      var old = old
      sigaction(number, &old, nil)
    }
  }
}
