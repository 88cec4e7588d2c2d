#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a lock, shared between threads: what `Mutex` from Synchronization gives, on a POSIX
/// mutex.
///
/// On Linux, `Mutex` locks with atomics and futexes compiled into the standard library, which the thread
/// sanitizer cannot see, so it took every value handed from one thread to another under a `Mutex` for a
/// data race (`Scripts/test --sanitize thread`). A POSIX mutex is one it knows, and costs the same when
/// uncontended.
package final class Locked<Value>: @unchecked Sendable {
  // @unchecked: `value` is only touched with `mutex` held.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var value: Value

  package init(_ value: Value) {
    self.value = value
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` on the value with the lock held.
  package func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}
