#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Paths taken apart and put together as Foundation's `NSString` path methods do, so that the folders
/// searched and named in messages read as they always have, without Foundation.
package enum PathName {
  /// `path` without its last component, as `NSString.deletingLastPathComponent` gives it: runs of
  /// slashes read as one and a trailing slash is ignored; "/usr/bin" for "/usr/bin/tunnel" and for
  /// "/usr//bin/tunnel/", "/" for "/tunnel", "" for "tunnel".
  package static func deletingLastComponent(_ path: String) -> String {
    if path == "/" { return path }
    var fixed = ""
    var previousWasSlash = false
    for character in path {
      let isSlash = character == "/"
      if !(isSlash && previousWasSlash) { fixed.append(character) }
      previousWasSlash = isSlash
    }
    if fixed.hasSuffix("/") { fixed.removeLast() }
    guard let slash = fixed.lastIndex(of: "/") else { return "" }
    return slash == fixed.startIndex ? "/" : String(fixed[..<slash])
  }

  /// `component` after `path` and a slash, as `NSString.appendingPathComponent(_:)` puts it: no second
  /// slash after one `path` ends with, and either alone when the other is empty.
  package static func appending(_ component: String, to path: String) -> String {
    if component.isEmpty { return path }
    if path.isEmpty { return component }
    return path.hasSuffix("/") ? path + component : path + "/" + component
  }

  /// Whether `path` names a folder, its symbolic links followed (what `FileManager`'s
  /// `fileExists(atPath:isDirectory:)` says).
  package static func isFolder(_ path: String) -> Bool {
    var information = stat()
    return stat(path, &information) == 0 && information.st_mode & S_IFMT == S_IFDIR
  }
}
