import TunnelReports
import TunnelSystem

/// Writes a batch's chunks to its sink on a thread of its own, one chunk at a time, so that writing a
/// chunk overlaps answering the next.
///
/// The batch hands a chunk over with ``write(_:)`` once ``finish()`` has said that the one before was
/// written, and it writes to the sink itself (the header, the footer) only between the two. So the sink
/// is used by one thread at a time, and its bytes go out in the batch's order.
///
/// ```swift
/// let writer = ChunkWriter(sink: sink)
/// defer { writer.close() }
/// guard try writer.finish() else { /* the reader has gone */ }
/// writer.write(parts)
/// ```
final class ChunkWriter: @unchecked Sendable {
  // @unchecked: the sink is used by the writing thread while a chunk is in hand and by the batch's
  // thread otherwise, and every handover goes through `condition`, which guards everything else.
  private let sink: any BatchByteSink
  /// Where chunks already in Parquet columns go: the sink itself, when it writes Parquet.
  private let columnSink: (any ParquetRowsSink)?
  private let condition = ThreadCondition()
  /// A chunk: its bytes, or its rows in Parquet columns.
  private enum Chunk {
    case bytes([OutputBytes])
    case columns([ParquetRows])
  }
  /// The chunk in hand, until it is written.
  private var inHand: Chunk? = nil
  /// What writing the chunks came to: true while every byte was taken.
  private var outcome: Result<Bool, BatchError> = .success(true)
  private var closed = false
  private var threadEnded = false

  init(sink: any BatchByteSink, columns: (any ParquetRowsSink)? = nil) {
    self.sink = sink
    columnSink = columns
    startThread { [self] in
      run()
      condition.lock()
      threadEnded = true
      condition.broadcast()
      condition.unlock()
    }
  }

  /// Hands `parts` over to be written in order: call only after ``finish()`` has returned true.
  func write(_ parts: [OutputBytes]) {
    hand(.bytes(parts))
  }

  /// Hands rows already in Parquet columns over, as ``write(_:)`` does bytes; only with a column sink.
  func write(columns parts: [ParquetRows]) {
    precondition(columnSink != nil, "rows in columns without a sink for them")
    hand(.columns(parts))
  }

  private func hand(_ chunk: Chunk) {
    condition.lock()
    precondition(inHand == nil && !closed, "a chunk handed over before the last was written")
    inHand = chunk
    condition.broadcast()
    condition.unlock()
  }

  /// Waits until the chunk in hand, if any, is written.
  ///
  /// - Returns: False when the sink refused some bytes (the reader has gone): no chunk is written after.
  /// - Throws: The sink's error (``BatchError/writeFailed(_:)``), for this call and every later one.
  func finish() throws(BatchError) -> Bool {
    condition.lock()
    while inHand != nil { condition.wait() }
    let outcome = self.outcome
    condition.unlock()
    return try outcome.get()
  }

  /// Waits until the chunk in hand is written, and ends the writing thread.
  func close() {
    condition.lock()
    closed = true
    condition.broadcast()
    while !threadEnded { condition.wait() }
    condition.unlock()
  }

  private func run() {
    while true {
      condition.lock()
      while inHand == nil && !closed { condition.wait() }
      guard let chunk = inHand else {
        condition.unlock()
        return
      }
      let previous = outcome
      condition.unlock()
      // After a refusal or an error, nothing more is written.
      let result = (try? previous.get()) == true ? deliver(chunk) : previous
      condition.lock()
      outcome = result
      inHand = nil
      condition.broadcast()
      condition.unlock()
    }
  }

  /// Writes the chunk's parts in order, up to the first the sink refuses.
  private func deliver(_ chunk: Chunk) -> Result<Bool, BatchError> {
    let parts: [OutputBytes]
    switch chunk {
    case .bytes(let bytes): parts = bytes
    case .columns(let columns):
      return Result { () throws(BatchError) in try columnSink!.append(columns) }
    }
    for part in parts {
      let taken = part.withBytes { bytes in Result { () throws(BatchError) in try sink.write(bytes) } }
      guard case .success(true) = taken else { return taken }
    }
    return .success(true)
  }
}
