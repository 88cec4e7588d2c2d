import TunnelSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Work shared out between cores while indexes are built or loaded.
///
/// On threads of its own rather than through `DispatchQueue.concurrentPerform`, which runs an apply
/// started inside another's work one index at a time: a batch builds its indexes two at a time, and each
/// shares its own work out again (a grid's rings decode in slices while its file is read).
enum Parallel {
  /// Calls `body` with every index of `0..<iterations`, on as many threads as there are cores or
  /// `threads` if fewer (the calling thread one of them), each taking the next index when it is free,
  /// and returns once every call has.
  static func perform(iterations: Int, threads most: Int = .max, _ body: @escaping @Sendable (Int) -> Void) {
    let threads = min(iterations, most, max(1, ProcessInfo.processInfo.activeProcessorCount))
    guard threads > 1 else {
      for index in 0..<iterations { body(index) }
      return
    }
    let shared = Shared()
    let work: @Sendable () -> Void = {
      while let index = shared.take(below: iterations) { body(index) }
      shared.finish()
    }
    for _ in 1..<threads { startThread(work) }
    work()
    shared.wait(forFinished: threads)
  }

  /// `first()` and `second()`, on two cores.
  static func both<First: Sendable, Second: Sendable>(
    _ first: @escaping @Sendable () -> First, _ second: @escaping @Sendable () -> Second
  ) -> (First, Second) {
    let firstResult = Locked<First?>(nil)
    let secondResult = Locked<Second?>(nil)
    perform(iterations: 2) { task in
      if task == 0 {
        let result = first()
        firstResult.withLock { $0 = result }
      } else {
        let result = second()
        secondResult.withLock { $0 = result }
      }
    }
    return (firstResult.withLock { $0! }, secondResult.withLock { $0! })
  }

  /// The next index to run and how many threads have finished, under one lock.
  private final class Shared: @unchecked Sendable {
    // @unchecked: both counts are read and written with the condition's lock held.
    private let condition = ThreadCondition()
    private var next = 0
    private var finished = 0

    /// The next index not yet taken, if it is below `limit`.
    func take(below limit: Int) -> Int? {
      condition.lock()
      defer { condition.unlock() }
      guard next < limit else { return nil }
      next += 1
      return next - 1
    }

    /// Counts a thread out.
    func finish() {
      condition.lock()
      finished += 1
      condition.broadcast()
      condition.unlock()
    }

    /// Returns once `threads` threads have finished.
    func wait(forFinished threads: Int) {
      condition.lock()
      while finished < threads { condition.wait() }
      condition.unlock()
    }
  }
}

/// A buffer written from several threads, each at its own indices.
struct SendableBuffer<Element>: @unchecked Sendable {
  // @unchecked: the threads write disjoint elements, and the buffer is read after they have all finished.
  let buffer: UnsafeMutableBufferPointer<Element>

  init(_ buffer: UnsafeMutableBufferPointer<Element>) { self.buffer = buffer }
}
