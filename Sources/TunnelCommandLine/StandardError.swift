import TunnelSystem

#if canImport(Glibc)
import Glibc
#endif

/// Standard error, written with write(2) as ``OutputFile`` writes: whole, through interruptions.
///
/// Foundation's `FileHandle.standardError.write(_:)` traps when the write fails (`2>/dev/full`, a
/// closed descriptor, a reader gone with SIGPIPE ignored); a message that cannot be shown must not
/// turn a batch into a crash, so a failed write is dropped and the exit status is left to tell.
public enum StandardError {
  /// Writes `text` as it is (give it its newline).
  public static func write(_ text: String) {
    _ = writeAll(text, to: STDERR_FILENO)
  }

  /// Writes `line` and a line break, then exits with `status`. A standard error that cannot be written
  /// leaves the status alone to tell.
  public static func fail(_ line: String, status: Int32) -> Never {
    write(line + "\n")
    exit(status)
  }
}
