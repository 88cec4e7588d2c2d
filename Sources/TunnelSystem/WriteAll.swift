#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Hands `bytes` to `write(2)` until all are written: 0, or the `errno` that stopped it.
///
/// This is Tunnel's one write loop; every byte sink (a command's output, standard error, the terminal,
/// a batch's rows, a cache file) writes through it, so each meets the system's answers the same way:
/// - `EINTR`: a signal interrupted the write (a resize, a stop, a signal caught to end cleanly); the
///   rest is written at once.
/// - `EAGAIN`: the descriptor is non-blocking (another program may have left a shared terminal or pipe
///   so); `poll(2)` waits until it takes bytes again, so the loop never spins.
/// - Anything else, `EPIPE` included (a reader gone where SIGPIPE is ignored), stops the write and is
///   returned for the caller to phrase: what a failure means depends on what was being written.
///
/// ```swift
/// let code = writeAll(UnsafeRawBufferPointer(buffer), to: STDOUT_FILENO)
/// if code == EPIPE { return }  // the reader has what it wanted
/// ```
///
/// - Returns: 0 when every byte was written, else the `errno` of the write that failed.
package func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32 {
  var offset = 0
  while offset < bytes.count {
    let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
    if written >= 0 {
      offset += written
      continue
    }
    let code = errno
    switch code {
    case EINTR:
      continue
    case EAGAIN:
      var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
      _ = poll(&ready, 1, -1)
    default:
      return code
    }
  }
  return 0
}

/// Writes all of `text` as UTF-8 through the loop above: 0, or the `errno` that stopped it.
package func writeAll(_ text: String, to descriptor: Int32) -> Int32 {
  var text = text
  return text.withUTF8 { writeAll(UnsafeRawBufferPointer($0), to: descriptor) }
}
