import Testing

@testable import TunnelContainment

#if canImport(Glibc)
import Glibc
#endif

@Suite("Job-control signals", .serialized)
struct JobControlTests {
  @Test("Stop signals and SIGCONT are caught, not acted on, and kept until taken, once each")
  func caughtAndKept() {
    let jobs = JobControl()
    defer { jobs.restore() }
    #expect(jobs.takeStop() == nil && !jobs.takeContinued())
    // Sent to this thread, a signal is handled before raise returns.
    raise(SIGTTIN)
    #expect(jobs.takeStop() == SIGTTIN)
    #expect(jobs.takeStop() == nil)
    raise(SIGCONT)
    #expect(jobs.takeContinued())
    #expect(!jobs.takeContinued())
    #expect(jobs.canSuspend)
  }

  @Test("A stop signal ignored when the catcher is installed stays ignored, and Control-Z does nothing")
  func ignoredStaysIgnored() {
    let old = signal(SIGTSTP, SIG_IGN)
    defer { signal(SIGTSTP, old) }
    let jobs = JobControl()
    defer { jobs.restore() }
    #expect(!jobs.canSuspend)
    raise(SIGTSTP)
    #expect(jobs.takeStop() == nil)
  }
}
