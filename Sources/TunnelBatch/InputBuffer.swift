#if canImport(Glibc)
import Glibc
#endif

/// The bytes of a batch's input, read from a ``BatchByteSource`` in large blocks and held only from the
/// start of the record being read to the end of what has been read.
///
/// Readers look at ``bytes`` (from ``start``), consume what they have parsed with ``consume(_:)``, and
/// call ``fill()`` when a record runs past the end; a record longer than what is held makes the window
/// grow, so a record is always whole in memory when it is parsed.
final class InputBuffer {
  /// The bytes held; only `storage[start..<end]` is input not yet consumed.
  // Unchecked: readers look at the bytes (`withUnsafeBufferPointer`) only between reads, never while
  // `fill()` changes them; checking each look cost a tenth of a nearest-place batch's reading.
  @exclusivity(unchecked) private(set) var storage: InputBytes
  private(set) var start = 0
  private(set) var end = 0
  /// Whether no more bytes will come: the source has reported its end, or a stop was requested.
  private(set) var atEnd = false
  /// Whether the input ended because a stop was requested rather than at its real end. Then the bytes
  /// not yet consumed (a line or value cut short) have been dropped: only a real end makes a last line
  /// without its newline a row.
  private(set) var stopped = false
  /// Bytes consumed since the input began (for progress).
  private(set) var consumedTotal = 0
  /// Newlines consumed since the input began; the line a record starts on is `linesConsumed + 1`.
  private(set) var linesConsumed = 0

  /// Asked before every read, while waiting for input that is slow to come, and when a read is
  /// interrupted by a signal: true ends the input there (see ``stopped``). Every loop that reads, however
  /// long its line or value, reads through ``fill()`` and so stops when asked.
  var isStopRequested: () -> Bool = { false }
  /// Called before waiting for input that is not there yet (from a pipe, a terminal or a request's body).
  var willWait: () -> Void = {}

  /// Where the bytes come from; nil when they were all given at once.
  let source: (any BatchByteSource)?
  private let blockSize: Int

  /// Reads `source`; with `bytes`, reads those instead (for tests and fuzzing).
  init(source: any BatchByteSource, blockSize: Int = 1 << 20) {
    self.source = source
    self.blockSize = blockSize
    storage = InputBytes(count: blockSize)
  }

  init(bytes: [UInt8]) {
    source = nil
    blockSize = max(1, bytes.count)
    storage = InputBytes(count: max(1, bytes.count))
    storage.withUnsafeMutableBufferPointer { _ = $0.initialize(from: bytes) }
    end = bytes.count
    atEnd = true
  }

  deinit { storage.free() }

  /// The bytes not yet consumed.
  var available: Int { end - start }

  /// Reads more input, keeping the unconsumed bytes; returns false at the end of the input, and when a
  /// stop is requested (then the unconsumed bytes are dropped, see ``stopped``).
  ///
  /// - Throws: ``BatchError/readFailed(_:)`` when the source cannot be read.
  @discardableResult
  func fill() throws(BatchError) -> Bool {
    if atEnd { return false }
    guard let source else {
      atEnd = true
      return false
    }
    // Asked once a block: endless input that is always ready (/dev/zero) never waits or is interrupted.
    if isStopRequested() { return stop() }
    if start > 0 {
      storage.withUnsafeMutableBufferPointer { buffer in
        if end > start {
          _ = memmove(buffer.baseAddress!, buffer.baseAddress! + start, end - start)
        }
      }
      end -= start
      start = 0
    }
    if storage.count - end < blockSize / 2 {
      storage.grow(by: max(blockSize, storage.count), keeping: end)
    }
    while true {
      let count = try storage.withUnsafeMutableBufferPointer { buffer throws(BatchError) in
        try source.read(
          into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[end...])),
          stopRequested: isStopRequested)
      }
      if let count {
        if count == 0 {
          atEnd = true
          return false
        }
        end += count
        return true
      }
      willWait()
      guard try source.waitForBytes(stopRequested: isStopRequested) else { return stop() }
    }
  }

  /// Ends the input where a stop was requested, dropping the bytes not yet consumed: they are the
  /// beginning of a record that never came whole. Returns false, as ``fill()`` does at the end.
  private func stop() -> Bool {
    atEnd = true
    stopped = true
    end = start
    return false
  }

  /// Marks `count` bytes from ``start`` as read, counting their newlines.
  func consume(_ count: Int) {
    precondition(count <= available)
    storage.withUnsafeBufferPointer { buffer in
      var lines = 0
      for index in start..<(start + count) where buffer[index] == 0x0A { lines += 1 }
      linesConsumed += lines
    }
    start += count
    consumedTotal += count
  }

  /// Marks `count` bytes from ``start`` as read, of which `newlines` are newlines (known to the caller).
  func consume(_ count: Int, newlines: Int) {
    precondition(count <= available)
    linesConsumed += newlines
    start += count
    consumedTotal += count
  }

  /// Newlines in `storage[start..<position]`: how many lines a record starting at `position` is
  /// past the one at ``start``.
  func lines(before position: Int) -> Int {
    storage.withUnsafeBufferPointer { buffer in
      var lines = 0
      for index in start..<position where buffer[index] == 0x0A { lines += 1 }
      return lines
    }
  }
}

/// The bytes an ``InputBuffer`` holds, at an address of their own: every look at them from the reading
/// thread (each row's plain line, twice) retained and released the array they were in before, a tenth of
/// that thread's time.
struct InputBytes {
  private var bytes: UnsafeMutableBufferPointer<UInt8>

  /// `count` bytes, zero.
  init(count: Int) {
    bytes = .allocate(capacity: count)
    bytes.initialize(repeating: 0)
  }

  var count: Int { bytes.count }

  /// Calls `body` with the bytes, for reading.
  @inline(__always) func withUnsafeBufferPointer<Result, Failure: Error>(
    _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try body(UnsafeBufferPointer(bytes))
  }

  /// Calls `body` with the bytes, for writing.
  @inline(__always) func withUnsafeMutableBufferPointer<Result, Failure: Error>(
    _ body: (UnsafeMutableBufferPointer<UInt8>) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try body(bytes)
  }

  /// Makes room for `more` bytes after the others, keeping the first `kept` (the rest are zero).
  mutating func grow(by more: Int, keeping kept: Int) {
    let grown = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count + more)
    grown.initialize(repeating: 0)
    _ = UnsafeMutableBufferPointer(rebasing: grown[..<kept]).update(fromContentsOf: bytes[..<kept])
    bytes.deallocate()
    bytes = grown
  }

  /// Gives the bytes back; called once, by the buffer's `deinit`.
  func free() { bytes.deallocate() }
}
