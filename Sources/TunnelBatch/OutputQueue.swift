import TunnelSystem

/// A byte sink that a batch writes to on its thread and a task reads from: the rows of an HTTP response,
/// handed from ``BatchRun`` to the server's response writer.
///
/// At most ``limit`` bytes wait in the queue: a batch that is ahead of its reader waits in
/// ``write(_:)`` (a single write larger than the limit still goes in, alone), so that memory stays flat
/// however slowly the client reads. ``next()`` takes everything queued.
///
/// ``cancel()`` is how the reader says it has gone: what is queued is dropped, writes return false from
/// then on (the batch ends, ``BatchRun/Summary/outputClosed``), and ``next()`` returns nil. Every wait,
/// the batch's and the reader's, ends then. Every method may be called from any thread.
///
/// ```swift
/// let output = OutputQueue()
/// // The batch's thread: try BatchRun(…).run(to: output); output.finish()
/// while let bytes = await output.next() { try await writer.write(ByteBuffer(bytes: bytes)) }
/// ```
public final class OutputQueue: BatchByteSink, @unchecked Sendable {
  // @unchecked: every stored property that changes is guarded by `condition`.
  private let condition = ThreadCondition()
  /// Bytes queued, at most, before a write waits.
  public let limit: Int
  private var queued: [UInt8] = []
  private var finished = false
  private var cancelled = false
  /// A ``next()`` waiting for bytes; only ever while none are queued.
  private var reader: CheckedContinuation<[UInt8]?, Never>?

  /// A queue that holds up to `limit` bytes.
  public init(limit: Int = 1 << 20) {
    self.limit = limit
  }

  /// Queues all of `bytes`, waiting while the queue is full.
  ///
  /// - Returns: False once the queue is cancelled: the reader has gone.
  public func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(BatchError) -> Bool {
    condition.lock()
    while !cancelled, !queued.isEmpty, queued.count + bytes.count > limit { condition.wait() }
    guard !cancelled else {
      condition.unlock()
      return false
    }
    queued.append(contentsOf: bytes)
    let waiting = reader
    reader = nil
    let taken = waiting == nil ? nil : take()
    condition.unlock()
    waiting?.resume(returning: taken)
    return true
  }

  /// No more bytes will be written: ``next()`` returns nil once the queue is empty.
  public func finish() {
    condition.lock()
    finished = true
    let waiting = reader
    reader = nil
    condition.unlock()
    waiting?.resume(returning: nil)
  }

  /// The reader has gone: the queue is dropped, writes return false and ``next()`` nil, at once and from
  /// then on. Idempotent.
  public func cancel() {
    condition.lock()
    cancelled = true
    queued = []
    condition.broadcast()
    let waiting = reader
    reader = nil
    condition.unlock()
    waiting?.resume(returning: nil)
  }

  /// Everything queued, waiting for bytes if there are none; nil at the end (after ``finish()``) or once
  /// cancelled. Cancelling the task that waits cancels the queue.
  public func next() async -> [UInt8]? {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<[UInt8]?, Never>) in
        condition.lock()
        if !queued.isEmpty {
          let bytes = take()
          condition.unlock()
          continuation.resume(returning: bytes)
        } else if cancelled || finished {
          condition.unlock()
          continuation.resume(returning: nil)
        } else {
          precondition(reader == nil, "one reader at a time")
          reader = continuation
          condition.unlock()
        }
      }
    } onCancel: {
      cancel()
    }
  }

  /// Empties the queue, waking a write waiting for room; its bytes. With the lock held.
  private func take() -> [UInt8] {
    let bytes = queued
    queued = []
    condition.broadcast()
    return bytes
  }
}
