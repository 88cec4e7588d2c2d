import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `tunnel serve` run as a user would run it, on a free port, and a plain HTTP/1.1 client that sends exactly
/// the bytes a test gives it (well-formed or not).
final class ServerProcess: @unchecked Sendable {
  let process = Process()
  /// `http://127.0.0.1:PORT`.
  private(set) var address = ""
  private(set) var port: UInt16 = 0
  private let standardError = SharedValue(Data())

  /// Starts `tunnel serve --port 0` with `arguments` added (by default `--quiet`) and `environment` added to
  /// the test's, and waits (60 s at most) for its readiness line.
  init(_ arguments: [String] = ["--quiet"], environment: [String: String] = [:]) throws {
    process.executableURL = TunnelProcess.executable
    process.arguments = ["serve", "--port", "0"] + arguments
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    }
    let error = Pipe()
    process.standardError = error
    process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
    try process.run()
    let ready = DispatchSemaphore(value: 0)
    let collected = standardError
    Thread.detachNewThread {
      var signalled = false
      while true {
        let data = error.fileHandleForReading.availableData
        if data.isEmpty { break }
        collected.set(collected.get() + data)
        if !signalled, String(decoding: collected.get(), as: UTF8.self).contains("listening on") {
          signalled = true
          ready.signal()
        }
      }
      if !signalled { ready.signal() }
    }
    guard ready.wait(timeout: .now() + 60) == .success,
      let line = errorText.split(separator: "\n").first(where: { $0.contains("listening on") }),
      let range = line.range(of: "http://")
    else {
      process.terminate()
      throw ServerFailure(description: "no readiness line: \(errorText)")
    }
    address = String(line[range.lowerBound...])
    port = UInt16(address.split(separator: ":").last!)!
  }

  struct ServerFailure: Error, CustomStringConvertible {
    var description: String
  }

  /// What the server has written to standard error.
  var errorText: String { String(decoding: standardError.get(), as: UTF8.self) }

  /// Sends SIGTERM (or `signal`) and waits for the process to end; its exit status.
  @discardableResult
  func stop(signal: Int32 = SIGTERM, within seconds: Double = 30) -> Int32 {
    if process.isRunning { kill(process.processIdentifier, signal) }
    return waitForExit(within: seconds)
  }

  func waitForExit(within seconds: Double) -> Int32 {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while process.isRunning, Date() < deadline { usleep(20_000) }
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
      return -1
    }
    return process.terminationStatus
  }

  deinit {
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }

  // MARK: Requests

  /// A response as it came: status, header fields (names lower-cased), and the body (chunked decoded).
  struct Response {
    var status: Int
    var headers: [String: String]
    var body: Data
    /// Whether the response ended as HTTP says it should (its length, or its last chunk).
    var complete: Bool

    var text: String { String(decoding: body, as: UTF8.self) }

    var json: Any? { try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) }
  }

  /// `GET path` on a connection of its own, for `host`.
  func get(_ path: String, host: String = "127.0.0.1", headers: [String] = []) throws -> Response {
    try send(
      Data(
        ("GET \(path) HTTP/1.1\r\nHost: \(host)\r\n" + headers.map { $0 + "\r\n" }.joined()
          + "Connection: close\r\n\r\n").utf8))
  }

  /// `POST path` with `body`, its length given.
  func post(_ path: String, body: Data, headers: [String] = []) throws -> Response {
    var request = Data(
      ("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\n"
        + headers.map { $0 + "\r\n" }.joined() + "Connection: close\r\n\r\n").utf8)
    request.append(body)
    return try send(request)
  }

  /// Sends `bytes` on a new connection and reads until the server closes it (at most `seconds`).
  func send(_ bytes: Data, seconds: Double = 30) throws -> Response {
    let connection = try Connection(port: port)
    try connection.write(bytes)
    return Self.parse(connection.readAll(seconds: seconds))
  }

  /// A raw response parsed; a response cut short is marked incomplete.
  static func parse(_ raw: Data) -> Response {
    guard let end = raw.range(of: Data("\r\n\r\n".utf8)) else {
      return Response(status: 0, headers: [:], body: raw, complete: false)
    }
    let head = String(decoding: raw[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
    let status = head.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
    var headers: [String: String] = [:]
    for line in head.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
        in: .whitespaces)
    }
    var body = Data(raw[end.upperBound...])
    var complete = true
    if headers["transfer-encoding"]?.lowercased() == "chunked" {
      var decoded = Data()
      var rest = body[...]
      complete = false
      while let lineEnd = rest.range(of: Data("\r\n".utf8)) {
        let sizeText = String(decoding: rest[..<lineEnd.lowerBound], as: UTF8.self)
        guard let size = Int(sizeText.split(separator: ";").first ?? "", radix: 16) else { break }
        let start = lineEnd.upperBound
        if size == 0 {
          complete = true
          break
        }
        guard rest.distance(from: start, to: rest.endIndex) >= size + 2 else { break }
        let chunkEnd = rest.index(start, offsetBy: size)
        decoded.append(rest[start..<chunkEnd])
        rest = rest[rest.index(chunkEnd, offsetBy: 2)...]
      }
      body = decoded
    } else if let length = headers["content-length"].flatMap(Int.init) {
      complete = body.count >= length
      body = body.prefix(length)
    }
    return Response(status: status, headers: headers, body: body, complete: complete)
  }
}

/// A TCP connection to 127.0.0.1.
final class Connection {
  let socket: Int32

  /// Connects to `port`; with `receiveBuffer`, the socket's receive buffer is that many bytes (set before
  /// connecting, so that the window the server sees is small: a client that does not read stops the
  /// server's writes soon).
  init(port: UInt16, receiveBuffer: Int32? = nil) throws {
    socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    if let receiveBuffer { setOption(SO_RCVBUF, to: receiveBuffer) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(socket)
      throw ServerProcess.ServerFailure(description: "cannot connect: \(String(cString: strerror(errno)))")
    }
  }

  deinit { close(socket) }

  /// Sets a socket-level option (`SO_RCVBUF`, `SO_LINGER`, `SO_SNDTIMEO`) to `value`.
  func setOption<Value: BitwiseCopyable>(_ name: Int32, to value: Value) {
    _ = withUnsafeBytes(of: value) {
      setsockopt(socket, SOL_SOCKET, name, $0.baseAddress, socklen_t($0.count))
    }
  }

  /// Makes a send that cannot go on for `seconds` fail instead of waiting.
  func setSendTimeout(seconds: Int) {
    setOption(SO_SNDTIMEO, to: timeval(tv_sec: seconds, tv_usec: 0))
  }

  /// Ends the connection at once with a reset, as a client that is killed or times out does: what the server
  /// sends afterwards fails.
  func reset() {
    setOption(SO_LINGER, to: linger(l_onoff: 1, l_linger: 0))
    shutdown(socket, Int32(SHUT_RDWR))
  }

  /// Sends `bytes` while reading what the server answers, as a client that streams both ways does, until
  /// `enough` bytes have come back, or all are sent and the server closes, or `seconds` pass; the bytes
  /// that came back.
  func exchange(_ bytes: Data, until enough: Int, seconds: Double) -> Data {
    var received = Data()
    var sent = 0
    var buffer = [UInt8](repeating: 0, count: 65536)
    let deadline = Date(timeIntervalSinceNow: seconds)
    while received.count < enough, Date() < deadline {
      var descriptor = pollfd(
        fd: socket, events: Int16(POLLIN) | (sent < bytes.count ? Int16(POLLOUT) : 0), revents: 0)
      guard poll(&descriptor, 1, 100) > 0 else { continue }
      if descriptor.revents & Int16(POLLIN) != 0 {
        let count = recv(socket, &buffer, buffer.count, 0)
        if count <= 0 { break }
        received.append(contentsOf: buffer[0..<count])
      } else if descriptor.revents & Int16(POLLOUT) != 0 {
        let count = bytes.withUnsafeBytes { all in
          Glibc.send(
            socket, all.baseAddress! + sent, min(16384, all.count - sent), Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        }
        if count < 0, errno != EAGAIN, errno != EINTR { break }
        sent += max(0, count)
      } else {
        break
      }
    }
    return received
  }

  func write(_ bytes: Data) throws {
    var written = 0
    try bytes.withUnsafeBytes { buffer in
      while written < buffer.count {
        let count = Glibc.send(
          socket, buffer.baseAddress! + written, buffer.count - written, Int32(MSG_NOSIGNAL))
        if count < 0 {
          if errno == EINTR { continue }
          throw ServerProcess.ServerFailure(description: "cannot send: \(String(cString: strerror(errno)))")
        }
        written += count
      }
    }
  }

  /// Whether the server has closed the connection within `seconds` (reading and dropping what it sends).
  func isClosed(within seconds: Double) -> Bool {
    read(seconds: seconds) { _ in }
  }

  /// Everything the server sends until it closes the connection, or `seconds` pass.
  func readAll(seconds: Double) -> Data {
    var data = Data()
    read(seconds: seconds) { data.append(contentsOf: $0) }
    return data
  }

  /// What the server sends until `text` has come (appended to `received`), it closes the connection, or
  /// `seconds` pass; whether `text` came.
  func read(until text: String, into received: inout Data, seconds: Double) -> Bool {
    let wanted = Data(text.utf8)
    let deadline = Date(timeIntervalSinceNow: seconds)
    var buffer = [UInt8](repeating: 0, count: 65536)
    while received.range(of: wanted) == nil, Date() < deadline {
      var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, 100) > 0 else { continue }
      let count = recv(socket, &buffer, buffer.count, 0)
      if count <= 0 { break }
      received.append(contentsOf: buffer[0..<count])
    }
    return received.range(of: wanted) != nil
  }

  /// The next whole response on a connection the server keeps open (its length or its last chunk come), or
  /// nil if none has come within `seconds`.
  func readResponse(seconds: Double) -> ServerProcess.Response? {
    var received = Data()
    let deadline = Date(timeIntervalSinceNow: seconds)
    while Date() < deadline {
      if received.range(of: Data("\r\n\r\n".utf8)) != nil {
        let response = ServerProcess.parse(received)
        if response.complete { return response }
      }
      var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, 100) > 0 else { continue }
      var buffer = [UInt8](repeating: 0, count: 65536)
      let count = recv(socket, &buffer, buffer.count, 0)
      if count <= 0 { break }
      received.append(contentsOf: buffer[0..<count])
    }
    return nil
  }

  /// Hands `body` what the server sends until it closes the connection (then true) or `seconds` pass.
  @discardableResult
  private func read(seconds: Double, _ body: (ArraySlice<UInt8>) -> Void) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    var buffer = [UInt8](repeating: 0, count: 65536)
    while Date() < deadline {
      var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
      let remaining = Int32(max(1, deadline.timeIntervalSinceNow * 1000))
      guard poll(&descriptor, 1, remaining) > 0 else { continue }
      let count = recv(socket, &buffer, buffer.count, 0)
      if count <= 0 { return true }
      body(buffer[0..<count])
    }
    return false
  }
}
