#if canImport(Glibc)
import Glibc
#endif

/// Standard error, written with write(2): whole lines, retried when a signal interrupts them.
///
/// Foundation's `FileHandle.standardError.write(_:)` traps when the write fails (`2>/dev/full`, a
/// closed descriptor, a reader gone with SIGPIPE ignored); a message that cannot be shown must not
/// turn a batch into a crash, so a failed write is dropped and the exit status is left to tell.
enum StandardError {
  /// Writes `text` as it is (give it its newline).
  static func write(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = Glibc.write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
        if written > 0 {
          offset += written
        } else if written < 0, errno == EINTR {
          continue
        } else {
          return
        }
      }
    }
  }
}
