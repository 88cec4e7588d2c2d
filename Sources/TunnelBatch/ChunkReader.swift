import Foundation

/// Reads chunks of rows on a thread of its own, a couple of chunks ahead of the batch that answers
/// them, so that reading overlaps answering.
final class ChunkReader: @unchecked Sendable {
  // @unchecked: `input` is used only by the reading thread; everything else is guarded by `condition`.
  private let input: BatchInput
  private let chunkSize: Int
  private let condition = NSCondition()
  private var ready: [Result<Chunk, BatchError>] = []

  /// Rows read, and the input's bytes read by the end of them.
  struct Chunk {
    var records: [BatchRecord] = []
    var bytesRead = 0
  }
  private var finished = false
  private var cancelled = false
  /// Chunks read ahead at most.
  private let depth = 2

  init(input: BatchInput, chunkSize: Int) {
    self.input = input
    self.chunkSize = chunkSize
    let thread = Thread { [self] in read() }
    thread.stackSize = 1 << 22
    thread.start()
  }

  private func read() {
    while true {
      condition.lock()
      while ready.count >= depth && !cancelled { condition.wait() }
      let stop = cancelled
      condition.unlock()
      if stop { return }
      var chunk: [BatchRecord] = []
      chunk.reserveCapacity(chunkSize)
      var failure: BatchError? = nil
      do throws(BatchError) {
        while chunk.count < chunkSize, let record = try input.next() { chunk.append(record) }
      } catch {
        failure = error
      }
      condition.lock()
      if !chunk.isEmpty { ready.append(.success(Chunk(records: chunk, bytesRead: input.bytesRead))) }
      if let failure { ready.append(.failure(failure)) }
      let done = failure != nil || chunk.count < chunkSize
      if done { finished = true }
      condition.broadcast()
      condition.unlock()
      if done { return }
    }
  }

  /// The next chunk; empty at the end of the input, or when `shouldStop` says so while waiting.
  func next(shouldStop: () -> Bool) throws(BatchError) -> Chunk {
    condition.lock()
    defer { condition.unlock() }
    while ready.isEmpty && !finished {
      if shouldStop() { return Chunk() }
      _ = condition.wait(until: Date(timeIntervalSinceNow: 0.1))
    }
    guard !ready.isEmpty else { return Chunk() }
    let next = ready.removeFirst()
    condition.broadcast()
    return try next.get()
  }

  /// Stops reading ahead (a read under way finishes first).
  func cancel() {
    condition.lock()
    cancelled = true
    condition.broadcast()
    condition.unlock()
  }
}
