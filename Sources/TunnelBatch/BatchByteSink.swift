/// Where a batch's output bytes go: a file descriptor (a file, standard output, a pipe), or an
/// ``OutputQueue`` that an HTTP response is written from.
///
/// ``BatchRun/run(to:shouldStop:badRow:progress:)`` writes whole rows through it, on the batch's thread; a
/// sink may make that thread wait (a reader that is slower than the batch), and a sink whose reader has gone
/// says so by returning false, which ends the batch quietly (``BatchRun/Summary/outputClosed``).
public protocol BatchByteSink {
  /// Writes all of `bytes`.
  ///
  /// - Returns: True when every byte was taken; false when the reader has gone (a closed pipe, a client
  ///   that left).
  /// - Throws: ``BatchError/writeFailed(_:)`` when the bytes cannot be written (a full disk).
  func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(BatchError) -> Bool
}

extension BatchByteSink {
  /// Writes all of `bytes`: true, or false when the reader has gone.
  func write(_ bytes: [UInt8]) throws(BatchError) -> Bool {
    try bytes.withUnsafeBufferPointer { buffer throws(BatchError) in try write(buffer) }
  }
}
