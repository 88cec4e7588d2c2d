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
  @usableFromInline let mutex = PosixMutex()
  @usableFromInline var value: Value

  package init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` on the value with the lock held.
  ///
  /// Inlinable, so that a caller in another module gets it specialised for its own types: called through
  /// the generic entry point, each result type would be made at run time on first use.
  @inlinable package func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    mutex.lock()
    defer { mutex.unlock() }
    return try body(&value)
  }
}

/// A POSIX mutex, at an address of its own that never moves (as POSIX requires): ``Locked``'s, and
/// ``ThreadCondition``'s.
@usableFromInline final class PosixMutex {
  @usableFromInline let pointer: UnsafeMutablePointer<pthread_mutex_t>

  init() {
    pointer = .allocate(capacity: 1)
    pointer.initialize(to: pthread_mutex_t())
    pthread_mutex_init(pointer, nil)
  }

  deinit {
    pthread_mutex_destroy(pointer)
    pointer.deinitialize(count: 1)
    pointer.deallocate()
  }

  @usableFromInline func lock() { pthread_mutex_lock(pointer) }

  @usableFromInline func unlock() { pthread_mutex_unlock(pointer) }
}
