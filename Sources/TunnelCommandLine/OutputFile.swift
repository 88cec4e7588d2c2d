import TunnelGeo
import TunnelSystem

#if canImport(Glibc)
import Glibc
#endif

/// Where a command writes — standard output, or a file named on the command line — with every write
/// checked.
///
/// A file is opened as a shell's `>` opens it (`open(2)` with `O_WRONLY | O_CREAT | O_TRUNC`): a
/// symbolic link is followed and its target written, a FIFO or a device is written into, a regular file
/// is emptied and written in place. Nothing is ever renamed over the path, so a link stays a link, hard
/// links keep sharing the file, and a device stays a device. `-` names standard output.
///
/// Nothing is buffered: each ``write(_:)`` hands its bytes to `write(2)` until all are taken, so a full
/// disk, a closed descriptor or a reader gone is found at the write that met it, and no flush is left to
/// fail at exit. Every command's output goes through here — results, help, versions, completion scripts,
/// pictures and logs — except a batch's rows, which `BatchRun` writes to descriptor 1 itself, as checked;
/// a failure is an ``OutputError`` (exit 74).
///
/// ```swift
/// let svg = try OutputFile.open("tunnel.svg", for: "the SVG")  // before drawing: a bad path fails early
/// try svg.write(document)
/// try svg.close()
/// ```
public final class OutputFile {
  /// What is written, for messages: "the SVG", or empty for a command's results.
  public let what: String
  /// Where it goes, for messages: "standard output" or the quoted path.
  public let destination: String
  /// Whether this writes to standard output (which is never closed here).
  public let isStandardOutput: Bool
  private var descriptor: Int32

  private init(what: String, destination: String, isStandardOutput: Bool, descriptor: Int32) {
    self.what = what
    self.destination = destination
    self.isStandardOutput = isStandardOutput
    self.descriptor = descriptor
  }

  deinit {
    if !isStandardOutput, descriptor >= 0 { Glibc.close(descriptor) }
  }

  /// Standard output, for a command's results.
  public static var standardOutput: OutputFile {
    OutputFile(what: "", destination: "standard output", isStandardOutput: true, descriptor: STDOUT_FILENO)
  }

  /// Writes `text` to standard output, or throws why it could not.
  public static func print(_ text: String) throws(OutputError) {
    try standardOutput.write(text)
  }

  /// `argument` opened for writing `what` ("the SVG"): `-` is standard output, anything else a path
  /// opened as a shell's `>` opens it.
  ///
  /// Open the file before the work that fills it, so that a path that cannot be written is reported
  /// before anything is drawn or printed. Opening a FIFO waits for its reader, as the shell does.
  ///
  /// - Throws: ``OutputError/folderMissing(what:path:folder:)`` when the path's folder does not exist;
  ///   ``OutputError/cannotOpen(what:path:reason:)`` when the path cannot be written for another reason.
  public static func open(_ argument: String, for what: String) throws(OutputError) -> OutputFile {
    if argument == "-" {
      return OutputFile(
        what: what, destination: "standard output", isStandardOutput: true, descriptor: STDOUT_FILENO)
    }
    var descriptor: Int32
    repeat {
      descriptor = Glibc.open(argument, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
    } while descriptor < 0 && errno == EINTR
    guard descriptor >= 0 else {
      let code = errno
      let folder = PathName.deletingLastComponent(argument)
      if code == ENOENT, !folder.isEmpty, !PathName.isFolder(folder) {
        throw .folderMissing(what: what, path: argument, folder: folder)
      }
      let reason =
        switch code {
        case ELOOP: "its symbolic links go round in a loop"
        case EISDIR: "it is a folder"
        default: OutputError.reason(code)
        }
      throw .cannotOpen(what: what, path: argument, reason: reason)
    }
    return OutputFile(
      what: what, destination: EchoedText.quoted(argument), isStandardOutput: false, descriptor: descriptor)
  }

  /// Writes all of `text` (UTF-8), or throws why it could not.
  public func write(_ text: String) throws(OutputError) {
    let code = writeAll(text, to: descriptor)
    if code == EPIPE, isStandardOutput {
      // The reader went away (`| head` where SIGPIPE is ignored): it has what it wanted. Quietly
      // done, as `tunnel batch` is.
      exit(ExitStatus.success.code)
    }
    if code != 0 {
      throw .cannotWrite(what: what, destination: destination, reason: OutputError.reason(code))
    }
  }

  /// Closes a file (never standard output), reporting what the system reports on closing.
  public func close() throws(OutputError) {
    guard !isStandardOutput, descriptor >= 0 else { return }
    let result = Glibc.close(descriptor)
    let code = errno
    descriptor = -1
    if result != 0, code != EINTR {
      throw .cannotWrite(what: what, destination: destination, reason: OutputError.reason(code))
    }
  }
}
