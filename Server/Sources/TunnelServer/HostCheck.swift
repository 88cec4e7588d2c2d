import Foundation

/// Which `Host` a request may name: on a server that listens on loopback, only a loopback name or address
/// (`localhost`, `*.localhost`, `127.x.x.x`, `[::1]`, with or without a port) or one of the names allowed
/// besides; on any other address, every name.
///
/// A page on another site can make a browser on this machine send requests to a server on loopback through a
/// name of its own that it points at 127.0.0.1 (DNS rebinding); the browser then treats the answers as that
/// site's own and lets the page read them. The browser still sends the page's name as `Host`, so refusing
/// names that are not loopback's ends the attack. A server that listens beyond loopback is meant to be
/// reached by names this one cannot know, and is checked for none.
struct HostCheck: Sendable {
  /// Names accepted besides loopback's, lower-cased; nil when any name is.
  let allowed: Set<String>?

  /// The check for a server listening on `address` (`127.0.0.1`, `::1`, `localhost`, `0.0.0.0`), which also
  /// accepts `names` (with or without a port) on loopback.
  init(listeningOn address: String, allowing names: [String]) {
    allowed = Self.isLoopback(address) ? Set(names.map { $0.lowercased() }) : nil
  }

  /// A `Host` field's value split into its name (an IPv6 address without its brackets) and port; nil when it
  /// is neither a name nor an address with an optional port (RFC 9110 §7.2: `uri-host [ ":" port ]`).
  static func parts(_ value: String) -> (name: Substring, port: Substring)? {
    let name: Substring
    let rest: Substring
    if value.hasPrefix("[") {
      guard let close = value.firstIndex(of: "]") else { return nil }
      name = value[value.index(after: value.startIndex)..<close]
      guard name.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
      rest = value[value.index(after: close)...]
    } else {
      let colon = value.firstIndex(of: ":") ?? value.endIndex
      name = value[..<colon]
      guard name.utf8.allSatisfy(isNameByte) else { return nil }
      rest = value[colon...]
    }
    guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy { $0.isASCII && $0.isNumber })
    else {
      return nil
    }
    return (name, rest.dropFirst())
  }

  /// Whether `byte` is a character of a registered name or an IPv4 address (RFC 3986's `reg-name`:
  /// unreserved, percent-encoded and sub-delims). Bytes, not a CharacterSet: every request is checked.
  private static func isNameByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    default:
      return "-._~%!$&'()*+,;=".utf8.contains(byte)
    }
  }

  /// Whether a request that names `host` (a `Host` field's value) is answered.
  func accepts(_ host: String) -> Bool {
    guard let allowed, !host.isEmpty else { return true }
    guard let (name, _) = Self.parts(host) else { return false }
    let lowered = host.lowercased()
    return Self.isLoopback(String(name)) || allowed.contains(lowered)
      || allowed.contains(String(name).lowercased())
  }

  /// Whether `name` (without a port or brackets) can only mean this machine: `localhost` and the names under
  /// it (RFC 6761 §6.3), 127.0.0.0/8 and ::1.
  static func isLoopback(_ name: String) -> Bool {
    var name = name.lowercased()
    if name.hasSuffix(".") { name.removeLast() }
    if name == "localhost" || name.hasSuffix(".localhost") { return true }
    var v4 = in_addr()
    if inet_pton(AF_INET, name, &v4) == 1 {
      return UInt32(bigEndian: v4.s_addr) >> 24 == 127
    }
    var v6 = in6_addr()
    if inet_pton(AF_INET6, name, &v6) == 1 {
      let bytes = withUnsafeBytes(of: v6) { Array($0) }
      // ::1, or an IPv4 loopback address mapped into IPv6 (::ffff:127.0.0.1).
      return bytes == Array(repeating: 0, count: 15) + [1]
        || (bytes[..<12] == Array(repeating: 0, count: 10) + [0xFF, 0xFF] && bytes[12] == 127)
    }
    return false
  }
}
