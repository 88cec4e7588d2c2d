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
    // Characters, as NSString compares them (a slash with a combining mark after it is no slash); the bytes
    // of an ASCII path, which come to the same, many times quicker.
    if path.utf8.allSatisfy({ $0 < 0x80 }) {
      return String(
        decoding: deletingLastComponent(Array(path.utf8), slash: UInt8(ascii: "/")), as: UTF8.self)
    }
    return String(deletingLastComponent(Array(path), slash: "/"))
  }

  private static func deletingLastComponent<Element: Equatable>(
    _ path: [Element], slash: Element
  ) -> [Element] {
    if path == [slash] { return path }
    var fixed: [Element] = []
    for element in path where element != slash || fixed.last != slash { fixed.append(element) }
    if fixed.last == slash { fixed.removeLast() }
    guard let last = fixed.lastIndex(of: slash) else { return [] }
    return last == 0 ? [slash] : Array(fixed[..<last])
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

  /// Whether `path` names anything, its symbolic links followed (what `FileManager`'s
  /// `fileExists(atPath:)` says).
  package static func exists(_ path: String) -> Bool {
    var information = stat()
    return stat(path, &information) == 0
  }

  /// What the symbolic link at `path` points to, as written in the link; `nil` if `path` is not a link or
  /// cannot be read (what `FileManager`'s `destinationOfSymbolicLink(atPath:)` gives, without its error).
  package static func symbolicLinkDestination(_ path: String) -> String? {
    var capacity = 256
    while capacity <= 1 << 16 {
      let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 1)
      defer { buffer.deallocate() }
      let length = readlink(path, buffer.assumingMemoryBound(to: CChar.self), capacity)
      guard length >= 0 else { return nil }
      // A target that fills the buffer may be longer: read it again into a larger one.
      if length < capacity {
        return String(decoding: UnsafeRawBufferPointer(start: buffer, count: length), as: UTF8.self)
      }
      capacity *= 4
    }
    return nil
  }
}
