import TunnelSystem

#if canImport(Glibc)
import Glibc
#endif

/// A byte source filled by someone who must never wait: an HTTP server handing over a request's body as
/// it arrives, while the batch reads it on a thread of its own.
///
/// ``append(_:)`` takes bytes at once, however far behind the batch is: they are kept in memory up to
/// ``memoryLimit``, and beyond it in a temporary file whose name is removed as soon as it is made (it goes
/// with the input, or with the process). So a client that sends its whole body before it reads a byte of the answer (most HTTP
/// libraries) is read to the end, up to ``maximumBytes``, while the batch answers at its own pace; and one
/// that reads as it sends gets rows as they come, each append waking the reader.
///
/// Every byte in memory is older than every byte in the file: bytes go to memory only while the file has
/// been read to its end, and are read from memory first. The file is emptied whenever it has been read to
/// its end.
///
/// ``cancel()`` drops what is held, makes further appends return false, and wakes the reader for good: a
/// batch over a cancelled input stops. Every method may be called from any thread.
///
/// ```swift
/// let input = SpooledInput(maximumBytes: 64 << 20)
/// // The batch's thread: BatchRun(input: try BatchInput(source: input), …).run(to: output)
/// for try await buffer in request.body { _ = buffer.withUnsafeReadableBytes(input.append) }
/// input.finish()
/// ```
public final class SpooledInput: BatchByteSource, @unchecked Sendable {
  // @unchecked: every stored property that changes is guarded by `condition`; the file's descriptor is
  // read outside it only by the one reading thread, and closed only in `deinit`.
  private let condition = ThreadCondition()
  /// Bytes kept in memory, at most, before the rest go to the file.
  public let memoryLimit: Int
  /// Bytes taken in all, at most: more fail the input (``BatchError/readFailed(_:)``).
  public let maximumBytes: Int
  /// The folder the file is made in.
  private let directory: String
  /// Bytes in memory: `memory[memoryStart...]` are not read yet.
  private var memory: [UInt8] = []
  private var memoryStart = 0
  /// The file, once there was more than memory takes; `fileRead..<fileWrite` of it are not read yet.
  private var file: Int32 = -1
  private var fileRead = 0
  private var fileWrite = 0
  private var received = 0
  private var finished = false
  private var failure: BatchError?
  private var cancelled = false

  /// An input that takes up to `maximumBytes`, the first `memoryLimit` of them (and any that come while the
  /// file is read to its end) in memory and the rest in a file made in `directory` (by default `TMPDIR`'s,
  /// else `/tmp`).
  public init(memoryLimit: Int = 4 << 20, maximumBytes: Int = .max, directory: String? = nil) {
    self.memoryLimit = memoryLimit
    self.maximumBytes = maximumBytes
    self.directory = directory ?? environmentVariable("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
  }

  deinit {
    if file >= 0 { close(file) }
  }

  // MARK: Filling

  /// Adds `bytes` after those already taken, without waiting.
  ///
  /// - Returns: False when the bytes were not taken: the input has been cancelled (its reader has gone),
  ///   or ended, or has failed now because it is past ``maximumBytes`` or the file cannot be written (a
  ///   full disk). The caller may go on reading what it is sent and drop it.
  @discardableResult
  public func append(_ bytes: UnsafeRawBufferPointer) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    guard !cancelled, !finished, failure == nil else { return false }
    guard !bytes.isEmpty else { return true }
    received += bytes.count
    if received > maximumBytes {
      failure = .readFailed("the input is longer than \(maximumBytes) bytes")
    } else if fileRead == fileWrite, memory.count - memoryStart + bytes.count <= memoryLimit {
      memory.append(
        contentsOf: UnsafeBufferPointer(
          start: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), count: bytes.count))
    } else {
      failure = spill(bytes)
    }
    condition.broadcast()
    return failure == nil
  }

  /// Writes `bytes` at the end of the file, making it first; the failure, if any. With the lock held.
  private func spill(_ bytes: UnsafeRawBufferPointer) -> BatchError? {
    if file < 0 {
      file = Self.makeUnnamedFile(in: directory)
      if file < 0 {
        return .readFailed(
          "cannot make a temporary file in \(directory) for the input: \(String(cString: strerror(errno)))")
      }
    }
    var written = 0
    while written < bytes.count {
      let count = pwrite(
        file, bytes.baseAddress! + written, bytes.count - written, off_t(fileWrite + written))
      if count < 0, errno == EINTR { continue }
      if count <= 0 {
        return .readFailed("cannot keep the input in a temporary file: \(String(cString: strerror(errno)))")
      }
      written += count
    }
    fileWrite += written
    return nil
  }

  /// A new file in `directory` that no name leads to, open for reading and writing and not inherited by
  /// programs the process starts; -1 when none can be made. It is made with a name, unlinked at once.
  private static func makeUnnamedFile(in directory: String) -> Int32 {
    var template = Array((directory + "/tunnel-batch-XXXXXX").utf8CString)
    let file = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard file >= 0 else { return -1 }
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    _ = fcntl(file, F_SETFD, FD_CLOEXEC)
    return file
  }

  /// No more bytes will come: the reader reads to the end of those taken.
  public func finish() {
    condition.lock()
    finished = true
    condition.broadcast()
    condition.unlock()
  }

  /// The input cannot be whole (an upload cut off): the reader gets `error` instead of any more bytes.
  public func fail(_ error: BatchError) {
    condition.lock()
    if failure == nil, !finished { failure = error }
    condition.broadcast()
    condition.unlock()
  }

  /// The input is no longer wanted: what is held is dropped, appends return false, and the reader's waits
  /// end (it stops). Idempotent.
  public func cancel() {
    condition.lock()
    if !cancelled {
      cancelled = true
      memory = []
      memoryStart = 0
      if file >= 0 { _ = ftruncate(file, 0) }
    }
    condition.broadcast()
    condition.unlock()
  }

  /// The file's descriptor, -1 while there is none (for tests).
  var fileDescriptor: Int32 {
    condition.lock()
    defer { condition.unlock() }
    return file
  }

  // MARK: Reading

  public var size: Int? { nil }

  public func read(
    into buffer: UnsafeMutableRawBufferPointer, stopRequested: () -> Bool
  ) throws(BatchError)
    -> Int?
  {
    condition.lock()
    if cancelled {
      condition.unlock()
      return nil
    }
    if let failure {
      condition.unlock()
      throw failure
    }
    if memoryStart < memory.count {
      let count = min(buffer.count, memory.count - memoryStart)
      memory.withUnsafeBytes { bytes in
        buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + memoryStart, byteCount: count)
      }
      memoryStart += count
      if memoryStart == memory.count {
        memory.removeAll(keepingCapacity: true)
        memoryStart = 0
      } else if memoryStart > memory.count / 2 {
        memory.removeFirst(memoryStart)
        memoryStart = 0
      }
      condition.unlock()
      return count
    }
    guard fileRead < fileWrite else {
      let ended = finished
      condition.unlock()
      return ended ? 0 : nil
    }
    // Read outside the lock, so that appends go on meanwhile: they only write past `fileWrite`, and
    // only this thread moves `fileRead` or empties the file.
    let (descriptor, offset, wanted) = (file, fileRead, min(buffer.count, fileWrite - fileRead))
    condition.unlock()
    var count: Int
    repeat {
      count = pread(descriptor, buffer.baseAddress!, wanted, off_t(offset))
    } while count < 0 && errno == EINTR
    let reason = count < 0 ? String(cString: strerror(errno)) : "the file ended early"
    condition.lock()
    defer { condition.unlock() }
    if cancelled { return nil }
    guard count > 0 else {
      failure = .readFailed("cannot read back the input kept in a temporary file: \(reason)")
      throw failure!
    }
    fileRead += count
    if fileRead == fileWrite {
      fileRead = 0
      fileWrite = 0
      _ = ftruncate(file, 0)
    }
    return count
  }

  public func waitForBytes(stopRequested: () -> Bool) throws(BatchError) -> Bool {
    // Asked once: whoever requests a stop also cancels the input, which wakes this wait.
    if stopRequested() { return false }
    condition.lock()
    defer { condition.unlock() }
    while true {
      if cancelled { return false }
      if failure != nil || finished || memoryStart < memory.count || fileRead < fileWrite { return true }
      condition.wait()
    }
  }

  /// Cancels the input (``cancel()``): a batch reading it stops.
  public func interrupt() { cancel() }
}
