import Synchronization
import TunnelSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Catches the job-control signals, so that a full-screen program can hand the terminal back before
/// it stops and take it again when it continues, as `less`, `vim` and `top` do.
///
/// SIGTSTP (Control-Z in a shell, `kill -TSTP`), SIGTTIN and SIGTTOU (a background job touching the
/// terminal) are caught and kept for the program to ``takeStop()`` at its next turn: it restores the
/// terminal, then calls ``stop(with:)``, which stops the process with the signal's default action and
/// returns once a SIGCONT continues it. SIGCONT is caught too, so that the program also notices being
/// continued after a SIGSTOP, which cannot be caught (``takeContinued()``). A signal that was ignored
/// when the catcher was installed stays ignored (a shell without job control ignores SIGTSTP for its
/// jobs). The handlers are installed without `SA_RESTART`, so a blocking `poll` or `read` returns `EINTR`;
/// the signals are unblocked in the calling thread; ``restore()`` puts the previous handlers and mask back.
///
///     let jobs = JobControl()
///     defer { jobs.restore() }
///     if let signal = jobs.takeStop() { leaveTerminal(); jobs.stop(with: signal); enterTerminal() }
public final class JobControl {
  /// The signals that stop a process and can be caught.
  public static let stopSignals = [SIGTSTP, SIGTTIN, SIGTTOU]

  private let handlers: SignalHandlers

  /// Stop signals caught and not yet taken, one bit per signal number.
  private static let stops = Atomic<UInt64>(0)
  /// Whether a SIGCONT came that was not yet taken.
  private static let continued = Atomic<Bool>(false)

  /// Installs the handlers, forgetting any signal caught before.
  public init() {
    Self.stops.store(0, ordering: .relaxed)
    Self.continued.store(false, ordering: .relaxed)
    handlers = SignalHandlers(Self.stopSignals + [SIGCONT], keepingIgnored: true) { number in
      if number == SIGCONT {
        return { _ in JobControl.continued.store(true, ordering: .relaxed) }
      }
      return { number in JobControl.stops.bitwiseOr(1 << UInt64(number), ordering: .relaxed) }
    }
  }

  /// Whether Control-Z can stop the program: SIGTSTP was not ignored when the catcher was installed.
  public var canSuspend: Bool { handlers.signals.contains(SIGTSTP) }

  /// Asks the whole foreground job to stop, as Control-Z does in a terminal in canonical mode: sends
  /// SIGTSTP to the process group, this process included, which catches it like any other.
  public func suspend() {
    guard canSuspend else { return }
    kill(0, SIGTSTP)
  }

  /// The stop signal caught since the last call, nil for none; it is then forgotten.
  public func takeStop() -> Int32? {
    let bits = Self.stops.exchange(0, ordering: .acquiringAndReleasing)
    guard bits != 0 else { return nil }
    return Int32(bits.trailingZeroBitCount)
  }

  /// Whether a SIGCONT came since the last call.
  public func takeContinued() -> Bool {
    Self.continued.exchange(false, ordering: .acquiringAndReleasing)
  }

  /// Stops the process as `signal` does by default, and returns once it is continued (at once, if the
  /// system discards the stop: a process group with no shell to continue it is never stopped).
  public func stop(with signal: Int32) {
    var defaultAction = sigaction()
    defaultAction.__sigaction_handler.sa_handler = SIG_DFL
    sigemptyset(&defaultAction.sa_mask)
    var caught = sigaction()
    sigaction(signal, &defaultAction, &caught)
    var only = sigset_t()
    sigemptyset(&only)
    sigaddset(&only, signal)
    pthread_sigmask(SIG_UNBLOCK, &only, nil)
    raise(signal)
    // Continued: catch the signal again.
    sigaction(signal, &caught, nil)
  }

  /// Puts back the handlers and the signal mask there were before.
  public func restore() {
    handlers.restore()
  }
}
