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
///     let catcher = SignalCatcher()
///     defer { catcher.restore() }
///     while SignalCatcher.caught == nil { … }
public final class SignalCatcher {
  private let previous: [(Int32, sigaction)]
  private let previousMask: sigset_t

  /// The last signal caught since the newest catcher was installed, nil for none.
  public static var caught: Int32? {
    let number = received.load(ordering: .relaxed)
    return number == 0 ? nil : number
  }

  private static let received = Atomic<Int32>(0)

  /// The signals whose default action ends a process and that come from outside it rather than
  /// from a fault: SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM, SIGTERM, SIGVTALRM,
  /// SIGXCPU and SIGXFSZ. A program that changes the terminal catches all of them, so that none can
  /// end it with the terminal left changed. (SIGPROF is left to profilers.)
  public static let endingSignals = [
    SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM, SIGTERM, SIGVTALRM, SIGXCPU, SIGXFSZ,
  ]

  /// Installs handlers for `signals`, forgetting any signal caught before.
  public init(_ signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]) {
    Self.received.store(0, ordering: .relaxed)
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { number in
      SignalCatcher.received.store(number, ordering: .relaxed)
    }
    action.sa_flags = 0
    sigemptyset(&action.sa_mask)
    var previous: [(Int32, sigaction)] = []
    for number in signals {
      var old = sigaction()
      sigaction(number, &action, &old)
      previous.append((number, old))
    }
    self.previous = previous
    // A parent may have left them blocked (some process launchers do): unblock them in this thread.
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    for number in signals { sigaddset(&unblocked, number) }
    var mask = sigset_t()
    pthread_sigmask(SIG_UNBLOCK, &unblocked, &mask)
    previousMask = mask
  }

  /// Puts back the handlers there were before.
  public func restore() {
    var mask = previousMask
    pthread_sigmask(SIG_SETMASK, &mask, nil)
    for (number, old) in previous {
      var old = old
      sigaction(number, &old, nil)
    }
  }
}
