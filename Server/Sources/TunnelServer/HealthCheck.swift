import Foundation
import TunnelGeo

#if canImport(Glibc)
import Glibc
#endif

/// Whether a `tunnel serve` answers: `GET /status` at its address must come back 200 with Nominatim's
/// `OK`, within a deadline. What `tunnel serve health` does, for a container's `HEALTHCHECK` or a load
/// balancer's probe, with no HTTP client installed.
///
/// Plain HTTP/1.1 over one blocking socket (TLS is a proxy's concern, not the server's): the name is
/// resolved, each of its addresses tried in turn, and the whole exchange, connecting included, must end
/// by the deadline.
///
/// ```swift
/// let check = try HealthCheck(url: "http://127.0.0.1:8080", timeout: 2)
/// try check.run()  // returns when the server answers OK, else throws a HealthCheckError
/// ```
public struct HealthCheck: Sendable {
  /// The host to connect to, without brackets around an IPv6 address.
  public let host: String
  /// The port: the URL's, or 80.
  public let port: Int
  /// The path asked for: the URL's own path (a prefix a proxy serves the server under), then `/status`.
  public let path: String
  /// Seconds the whole check may take.
  public let timeout: Double

  /// The address `tunnel serve` listens on by default.
  public static let defaultURL = "http://127.0.0.1:8080"

  /// A check of the server at `url` (`http://host[:port][/prefix]`), to be done within `timeout` seconds.
  ///
  /// - Parameters:
  ///   - url: The server's address, as `tunnel serve` says it (`listening on http://127.0.0.1:8080`).
  ///   - timeout: Seconds the check may take, connecting included.
  /// - Throws: ``HealthCheckError/unsupportedURL(_:)`` for a URL that is not `http://` with a host.
  public init(url: String, timeout: Double) throws(HealthCheckError) {
    guard url.lowercased().hasPrefix("http://") else { throw .unsupportedURL(url) }
    let rest = url.dropFirst("http://".count)
    let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    let pathPrefix = rest.dropFirst(authority.count).prefix { $0 != "?" && $0 != "#" }
    var host = Substring(authority)
    var portText: Substring?
    if host.hasPrefix("[") {
      guard let close = host.firstIndex(of: "]") else { throw .unsupportedURL(url) }
      let after = host[host.index(after: close)...]
      guard after.isEmpty || after.hasPrefix(":") else { throw .unsupportedURL(url) }
      portText = after.isEmpty ? nil : after.dropFirst()
      host = host[host.index(after: host.startIndex)..<close]
    } else if let colon = host.lastIndex(of: ":") {
      portText = host[host.index(after: colon)...]
      host = host[..<colon]
    }
    guard !host.isEmpty, !host.contains("@") else { throw .unsupportedURL(url) }
    var port = 80
    if let portText {
      guard let given = Int(portText), (1...65535).contains(given) else { throw .unsupportedURL(url) }
      port = given
    }
    self.host = String(host)
    self.port = port
    path = (pathPrefix.hasSuffix("/") ? String(pathPrefix.dropLast()) : String(pathPrefix)) + "/status"
    self.timeout = timeout
  }

  /// The URL asked, as the messages name it.
  public var statusURL: String {
    "http://\(host.contains(":") ? "[\(host)]" : host):\(port)\(path)"
  }

  /// Asks the server; returns when it answers 200 with `OK`.
  ///
  /// - Throws: ``HealthCheckError``, saying what went wrong: a name that does not resolve, a refused or
  ///   timed-out connection, an answer that is not HTTP, another status, or another body.
  public func run() throws(HealthCheckError) {
    let deadline = Date(timeIntervalSinceNow: timeout)
    let socket = try connect(deadline: deadline)
    defer { close(socket) }
    let request =
      "GET \(path) HTTP/1.1\r\nHost: \(host.contains(":") ? "[\(host)]" : host):\(port)\r\n"
      + "User-Agent: tunnel-serve-health\r\nConnection: close\r\n\r\n"
    try send(Array(request.utf8), on: socket, deadline: deadline)
    let answer = try receive(on: socket, deadline: deadline)
    guard let headEnd = answer.firstRange(of: Array("\r\n\r\n".utf8)),
      let statusLine = String(decoding: answer[..<headEnd.lowerBound], as: UTF8.self)
        .split(separator: "\r\n").first,
      statusLine.hasPrefix("HTTP/1."),
      let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "")
    else {
      throw .notHTTP(url: statusURL)
    }
    let body = String(decoding: answer[headEnd.upperBound...], as: UTF8.self)
    guard status == 200 else { throw .status(url: statusURL, status: status, body: body) }
    guard body.trimmingCharacters(in: .whitespacesAndNewlines) == "OK" else {
      throw .notOK(url: statusURL, body: body)
    }
  }

  /// A socket connected to the first of the host's addresses that accepts, by `deadline`.
  private func connect(deadline: Date) throws(HealthCheckError) -> Int32 {
    var hints = addrinfo()
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var found: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else {
      throw .cannotResolve(host: host)
    }
    defer { freeaddrinfo(found) }
    var reason = "no address"
    var next: UnsafeMutablePointer<addrinfo>? = first
    while let address = next?.pointee {
      next = address.ai_next
      let socket = Glibc.socket(
        address.ai_family, address.ai_socktype | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
        address.ai_protocol)
      guard socket >= 0 else {
        reason = String(cString: strerror(errno))
        continue
      }
      if Glibc.connect(socket, address.ai_addr, address.ai_addrlen) == 0 { return socket }
      guard errno == EINPROGRESS else {
        reason = String(cString: strerror(errno))
        close(socket)
        continue
      }
      guard wait(for: Int16(POLLOUT), on: socket, deadline: deadline) else {
        close(socket)
        throw .timedOut(url: statusURL, seconds: timeout)
      }
      var error: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      if getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &length) == 0, error == 0 { return socket }
      reason = String(cString: strerror(error))
      close(socket)
    }
    throw .cannotConnect(url: statusURL, reason: reason)
  }

  private func send(_ bytes: [UInt8], on socket: Int32, deadline: Date) throws(HealthCheckError) {
    var sent = 0
    while sent < bytes.count {
      let count = bytes.withUnsafeBytes {
        Glibc.send(socket, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
      }
      if count >= 0 {
        sent += count
      } else if errno == EAGAIN || errno == EINTR {
        guard wait(for: Int16(POLLOUT), on: socket, deadline: deadline) else {
          throw .timedOut(url: statusURL, seconds: timeout)
        }
      } else {
        throw .cannotConnect(url: statusURL, reason: String(cString: strerror(errno)))
      }
    }
  }

  /// Everything the server sends until it closes the connection, or its answer is whole by its
  /// Content-Length; at most 64 KiB (a status answer is a few bytes).
  private func receive(on socket: Int32, deadline: Date) throws(HealthCheckError) -> [UInt8] {
    var answer: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while answer.count < 1 << 16, !Self.isWhole(answer) {
      let count = recv(socket, &buffer, buffer.count, 0)
      if count > 0 {
        answer += buffer[0..<count]
      } else if count == 0 {
        break
      } else if errno == EAGAIN || errno == EINTR {
        guard wait(for: Int16(POLLIN), on: socket, deadline: deadline) else {
          throw .timedOut(url: statusURL, seconds: timeout)
        }
      } else {
        throw .cannotConnect(url: statusURL, reason: String(cString: strerror(errno)))
      }
    }
    return answer
  }

  /// Whether `answer` holds a head and as many bytes of body as its Content-Length says.
  static func isWhole(_ answer: [UInt8]) -> Bool {
    guard let headEnd = answer.firstRange(of: Array("\r\n\r\n".utf8)) else { return false }
    let head = String(decoding: answer[..<headEnd.lowerBound], as: UTF8.self).lowercased()
    guard
      let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
      let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
    else { return false }
    return answer.count - headEnd.upperBound >= length
  }

  /// Waits until `socket` is ready for `events`; false when `deadline` passes first.
  private func wait(for events: Int16, on socket: Int32, deadline: Date) -> Bool {
    while true {
      let left = deadline.timeIntervalSinceNow
      guard left > 0 else { return false }
      var descriptor = pollfd(fd: socket, events: events, revents: 0)
      let ready = poll(&descriptor, 1, Int32(min(left * 1000, 60_000).rounded(.up)))
      if ready > 0 { return true }
      if ready < 0, errno != EINTR { return true }
    }
  }
}

/// Why a ``HealthCheck`` failed, in words for the one line `tunnel serve health` prints.
public enum HealthCheckError: Error, CustomStringConvertible {
  /// The URL is not `http://host[:port][/prefix]`.
  case unsupportedURL(String)
  /// The host's name does not resolve.
  case cannotResolve(host: String)
  /// No address of the host accepted the connection, or it broke: the system's reason.
  case cannotConnect(url: String, reason: String)
  /// No whole answer came within the time allowed.
  case timedOut(url: String, seconds: Double)
  /// What came back is not an HTTP response.
  case notHTTP(url: String)
  /// The server answered with another status than 200.
  case status(url: String, status: Int, body: String)
  /// The server answered 200 with another body than `OK`.
  case notOK(url: String, body: String)

  public var description: String {
    switch self {
    case .unsupportedURL(let url):
      "\(EchoedText.quoted(url)) is not a URL to check; give one such as http://127.0.0.1:8080 (plain HTTP)"
    case .cannotResolve(let host):
      "cannot resolve the host \(EchoedText.quoted(host))"
    case .cannotConnect(let url, let reason):
      "\(url): cannot connect (\(reason.lowercased()))"
    case .timedOut(let url, let seconds):
      "\(url): no answer within \(seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)) s"
    case .notHTTP(let url):
      "\(url): the answer is not HTTP"
    case .status(let url, let status, let body):
      "\(url): status \(status), not 200" + (body.isEmpty ? "" : ": " + EchoedText.quoted(body))
    case .notOK(let url, let body):
      "\(url): the answer is \(EchoedText.quoted(body)), not OK"
    }
  }
}
