#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a folder cannot keep Tunnel's indexes (``IndexCache``).
///
/// None of these stops an answer: whoever meets one builds the indexes in memory for that run. Every case
/// names the folder; ``description`` says what was found and what a usable folder looks like.
public enum IndexCacheError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The folder (or a folder on the way to it) does not exist and could not be made; `errno` says why.
  case cannotCreate(path: String, errno: Int32)
  /// The folder could not be opened (`errno` says why), or what is there is not a folder.
  case cannotOpen(path: String, errno: Int32)
  /// The folder belongs to another user, who could put files in it or change those there.
  case ownedBySomeoneElse(path: String, owner: UInt32)
  /// Others can write in the folder and it is not sticky, so they could replace what Tunnel writes there.
  case writableByOthers(path: String, mode: UInt32)
  /// The folder's key file (the secret every index file is signed with) could not be read or made, or is
  /// not Tunnel's own: another owner's, or readable by others, in a folder where it cannot be replaced.
  case keyUnusable(path: String, errno: Int32)

  /// The folder the error is about.
  public var path: String {
    switch self {
    case .cannotCreate(let path, _), .cannotOpen(let path, _), .ownedBySomeoneElse(let path, _),
      .writableByOthers(let path, _), .keyUnusable(let path, _):
      path
    }
  }

  public var description: String { "\(path): \(reason)" }

  /// What is wrong with the folder and what a usable one looks like, without its path.
  public var reason: String {
    let usable = "a cache folder must be your own and writable by no one else (or sticky, as /tmp is)"
    switch self {
    case .cannotCreate(_, let code):
      return "cannot be made (\(Self.text(code)))"
    case .cannotOpen(_, let code):
      return "cannot be opened as a folder (\(Self.text(code)))"
    case .ownedBySomeoneElse(_, let owner):
      return "belongs to user \(owner), not to you; \(usable)"
    case .writableByOthers(_, let mode):
      return "others can write in it (mode \(String(mode & 0o7777, radix: 8))); \(usable)"
    case .keyUnusable(_, let code):
      return "its signing key (the file 'key' in it) cannot be read, made or replaced (\(Self.text(code))); "
        + usable
    }
  }

  private static func text(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}
