#if canImport(Glibc)
import Glibc
#endif

/// Where a batch's input bytes come from: a file, standard input, an HTTP request's body, memory.
///
/// ``BatchInput`` reads through one, on the thread that reads rows ahead of the batch: ``read(into:stopRequested:)``
/// whatever is ready, and when nothing is, ``waitForBytes(stopRequested:)`` until something is. A source that
/// has nothing yet says so rather than blocking, so that the rows read so far are answered first (slow input
/// streams, a row at a time if need be).
///
/// A source that can wait for ever must end that wait in ``interrupt()``: it is how a batch that is cancelled
/// gets its reading thread back.
public protocol BatchByteSource: AnyObject {
  /// Copies bytes that are ready into `buffer` without waiting for more.
  ///
  /// - Parameters:
  ///   - buffer: Where the bytes go; at most its count are copied.
  ///   - stopRequested: Asked when a read is interrupted by a signal: true leaves the read there.
  /// - Returns: How many bytes were copied; 0 at the end of the input; nil when none are ready yet (or a
  ///   stop was requested): ``waitForBytes(stopRequested:)`` tells which.
  /// - Throws: ``BatchError/readFailed(_:)`` when the input cannot be read.
  func read(into buffer: UnsafeMutableRawBufferPointer, stopRequested: () -> Bool) throws(BatchError) -> Int?

  /// Waits until ``read(into:stopRequested:)`` would not return nil.
  ///
  /// - Parameter stopRequested: True ends the wait: asked at least before waiting, and, by a source that
  ///   cannot be woken, while it waits.
  /// - Returns: False when the reader is to stop instead (a stop requested, the source interrupted).
  func waitForBytes(stopRequested: () -> Bool) throws(BatchError) -> Bool

  /// Ends a wait under way, and every later one, at once (a batch's reader cancelling its reading); may be
  /// called from any thread.
  func interrupt()

  /// The input's size in bytes when it is known ahead (a regular file), for progress.
  var size: Int? { get }
}

/// A file descriptor as a byte source: a file, standard input, a pipe or a terminal.
///
/// A regular file is read without asking whether it is ready. Anything else is asked first (`poll(2)`),
/// and waited for a tenth of a second at a time, asking whether to stop in between: a quiet pipe or a
/// terminal stops when asked, without a signal, and ``interrupt()`` has nothing to wake.
final class DescriptorSource: BatchByteSource {
  let descriptor: Int32
  /// Whether the source closes the descriptor when it goes (one it opened), or the caller keeps it.
  private let owning: Bool
  /// Whether reads may have to wait: the descriptor is not a regular file.
  private let mayWait: Bool
  let size: Int?

  init(descriptor: Int32, owning: Bool) {
    self.descriptor = descriptor
    self.owning = owning
    var status = stat()
    let isFile = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    mayWait = !isFile
    size = isFile ? Int(status.st_size) : nil
  }

  deinit {
    if owning { close(descriptor) }
  }

  func read(into buffer: UnsafeMutableRawBufferPointer, stopRequested: () -> Bool) throws(BatchError) -> Int?
  {
    if mayWait {
      var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      if poll(&poller, 1, 0) <= 0 { return nil }
    }
    while true {
      let count = Glibc.read(descriptor, buffer.baseAddress!, buffer.count)
      if count >= 0 { return count }
      if errno == EINTR {
        if stopRequested() { return nil }
        continue
      }
      throw .readFailed(String(cString: strerror(errno)))
    }
  }

  func waitForBytes(stopRequested: () -> Bool) throws(BatchError) -> Bool {
    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    while true {
      if stopRequested() { return false }
      let ready = poll(&poller, 1, 100)
      if ready > 0 { return true }
      if ready < 0, errno != EINTR { throw .readFailed(String(cString: strerror(errno))) }
    }
  }

  func interrupt() {}
}
