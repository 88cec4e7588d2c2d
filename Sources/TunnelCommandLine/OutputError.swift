import TunnelGeo

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a command's output could not be written. Every case names where the output was going; the
/// commands exit with status 74 (EX_IOERR) and say it in one line.
public enum OutputError: Error, Equatable, CustomStringConvertible {
  /// The folder a file was to be made in does not exist.
  case folderMissing(what: String, path: String, folder: String)
  /// The path could not be opened for writing: no permission, a folder, a loop of links.
  case cannotOpen(what: String, path: String, reason: String)
  /// A write to an opened file, or to standard output, failed (a full disk, a closed descriptor, a
  /// reader gone).
  case cannotWrite(what: String, destination: String, reason: String)

  /// "cannot write the SVG to 'x.svg': …" and "cannot write to standard output: No space left on device".
  public var description: String {
    switch self {
    case .folderMissing(let what, let path, let folder):
      return
        "cannot write \(what) to \(EchoedText.quoted(path)): there is no folder \(EchoedText.quoted(folder)); create it, or give a path in a folder that exists"
    case .cannotOpen(let what, let path, let reason):
      return "cannot write \(what) to \(EchoedText.quoted(path)): \(reason); give a path you may write to"
    case .cannotWrite(let what, let destination, let reason):
      return what.isEmpty
        ? "cannot write to \(destination): \(reason)" : "cannot write \(what) to \(destination): \(reason)"
    }
  }

  /// The system's words for `code` ("No space left on device").
  public static func reason(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}

extension CommandFailure {
  /// Output that could not be written: ``ExitStatus/ioError``.
  public init(_ error: OutputError) {
    self.init(message: error.description, status: .ioError)
  }
}
