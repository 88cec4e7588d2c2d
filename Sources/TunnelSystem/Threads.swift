#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `body` on a new thread of its own, which is not joined: it ends when `body` returns.
///
/// `stackSize` is the thread's stack in bytes; 0 takes the system's default (that of the main thread on
/// Linux, usually 8 MB).
package func startThread(stackSize: Int = 0, _ body: @escaping @Sendable () -> Void) {
  var attributes = pthread_attr_t()
  pthread_attr_init(&attributes)
  defer { pthread_attr_destroy(&attributes) }
  pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
  if stackSize > 0 { pthread_attr_setstacksize(&attributes, stackSize) }
  let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
  #if canImport(Darwin)
  var thread: pthread_t?
  #else
  var thread = pthread_t()
  #endif
  let result = pthread_create(
    &thread, &attributes,
    { context in
      #if canImport(Darwin)
      let body = Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue()
      #else
      let body = Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue()
      #endif
      body.run()
      return nil
    }, box)
  precondition(result == 0, "cannot start a thread: \(String(cString: strerror(result)))")
}

/// What a thread started by ``startThread(stackSize:_:)`` runs, handed over as a pointer.
private final class ThreadBody {
  let run: @Sendable () -> Void
  init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

/// A POSIX mutex and a condition variable on it: threads wait, with the lock held, for what another
/// changes under the lock and broadcasts.
///
/// POSIX ones rather than `Mutex`, as ``Locked``'s, so that the thread sanitizer sees every hand-over.
///
///     condition.lock()
///     while queue.isEmpty { condition.wait() }
///     let item = queue.removeFirst()
///     condition.unlock()
package final class ThreadCondition: @unchecked Sendable {
  // @unchecked: the mutex and the condition are what make the threads' accesses safe.
  private let mutex = PosixMutex()
  private let condition: UnsafeMutablePointer<pthread_cond_t>

  package init() {
    condition = .allocate(capacity: 1)
    condition.initialize(to: pthread_cond_t())
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    condition.deinitialize(count: 1)
    condition.deallocate()
  }

  package func lock() { mutex.lock() }

  package func unlock() { mutex.unlock() }

  /// Waits, the lock released meanwhile and held again on return, until a broadcast (or a spurious
  /// wake-up: wait in a loop that checks what it waits for).
  package func wait() { pthread_cond_wait(condition, mutex.pointer) }

  /// Waits as ``wait()`` does, for `seconds` at most.
  package func wait(seconds: Double) {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    let nanoseconds = Int(now.tv_nsec) + Int(seconds * 1e9)
    var deadline = now
    deadline.tv_sec += nanoseconds / 1_000_000_000
    deadline.tv_nsec = .init(nanoseconds % 1_000_000_000)
    pthread_cond_timedwait(condition, mutex.pointer, &deadline)
  }

  /// Wakes every thread waiting.
  package func broadcast() { pthread_cond_broadcast(condition) }
}
