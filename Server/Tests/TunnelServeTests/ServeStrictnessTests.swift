import Foundation
import XCTest

/// What HTTP/1 itself asks of a server, over real sockets: connections that end when the client's version
/// says so, requests refused with a sentence and a closed connection, refusals that wait for the responses
/// before them, and all of them counted and logged.
extension ServeTests {
  /// The error message of a JSON error body.
  static func message(_ response: ServerProcess.Response) -> String {
    ((response.json as? [String: Any])?["error"] as? [String: Any])?["message"] as? String ?? ""
  }

  /// Sends `request` on a connection of its own, which the server must close within two seconds; the response.
  func exchangeThenClosed(
    _ request: String, file: StaticString = #filePath, line: UInt = #line
  ) throws
    -> ServerProcess.Response
  {
    let connection = try Connection(port: try server.port)
    try connection.write(Data(request.utf8))
    let started = Date()
    let raw = connection.readAll(seconds: 5)
    XCTAssertLessThan(
      Date().timeIntervalSince(started), 2, "the connection is closed at once: \(request.prefix(60))",
      file: file, line: line)
    return ServerProcess.parse(raw)
  }

  func testHTTP10EndsTheConnectionUnlessKeptAlive() throws {
    let server = try server
    for request in [
      "GET /status HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n",
      // HTTP/1.0 needs no Host, so a request without one is answered.
      "GET /status HTTP/1.0\r\n\r\n",
    ] {
      let response = try exchangeThenClosed(request)
      XCTAssertEqual(response.status, 200, request)
      XCTAssertEqual(response.text, "OK")
      XCTAssertEqual(response.headers["connection"], "close")
    }
    // Kept alive: two requests on one connection, for both versions.
    for (version, header) in [("1.0", "Connection: keep-alive\r\n"), ("1.1", "")] {
      let connection = try Connection(port: server.port)
      for _ in 0..<2 {
        try connection.write(Data("GET /status HTTP/\(version)\r\nHost: 127.0.0.1\r\n\(header)\r\n".utf8))
        let response = try XCTUnwrap(connection.readResponse(seconds: 5), version)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.text, "OK")
        XCTAssertNotEqual(response.headers["connection"], "close", version)
      }
      XCTAssertFalse(connection.isClosed(within: 0.3), "HTTP/\(version) kept alive")
    }
    // A body of unknown length is not sent in chunks to HTTP/1.0, which has none: the connection's end is
    // the body's, kept alive or not.
    let body = "lat,lon\n56,8.5\n-56,-171.5\n"
    for header in ["", "Connection: keep-alive\r\n"] {
      let response = try exchangeThenClosed(
        "POST /v1/batch?fields=country HTTP/1.0\r\nHost: 127.0.0.1\r\n\(header)Content-Length: \(body.utf8.count)\r\n\r\n"
          + body)
      XCTAssertEqual(response.status, 200, response.text)
      XCTAssertNil(response.headers["transfer-encoding"])
      XCTAssertEqual(response.headers["connection"], "close")
      XCTAssertEqual(response.text.split(separator: "\n").count, 3, response.text)
      XCTAssertTrue(response.text.contains("Denmark"), response.text)
    }
  }

  func testRequestsBreakingHTTP1RulesAreRefusedAndClosed() throws {
    let cases: [(request: String, status: Int, words: String)] = [
      (
        "POST /v1/batch HTTP/1.0\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n8\r\nlat,lon\n\r\n0\r\n\r\n",
        400, "HTTP/1.0 request cannot have a Transfer-Encoding"
      ),
      ("GET /status HTTP/1.1\r\n\r\n", 400, "must have a Host"),
      ("GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: 127.0.0.1\r\n\r\n", 400, "more than one Host"),
      ("GET /status HTTP/1.1\r\nHost: a/b\r\n\r\n", 400, "not a name or an address"),
      ("CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n", 501, "not a proxy"),
      ("GET /status HTTP/1.1\r\nHost: tunnel.example.org\r\n\r\n", 421, "--allowed-host tunnel.example.org"),
      ("GET /status HTTP/1.1\r\nHost: 127.0.0.1.example.org:80\r\n\r\n", 421, "DNS rebinding"),
    ]
    for (request, status, words) in cases {
      let response = try exchangeThenClosed(request + "GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
      XCTAssertEqual(response.status, status, "\(request.prefix(50)): \(response.text)")
      XCTAssertEqual(response.headers["connection"], "close")
      XCTAssertEqual(response.headers["content-type"], "application/json; charset=utf-8")
      let error = (response.json as? [String: Any])?["error"] as? [String: Any]
      XCTAssertEqual(error?["code"] as? Int, status)
      XCTAssertTrue(Self.message(response).contains(words), "\(request.prefix(50)): \(response.text)")
    }
    // A refused HEAD gets the head alone.
    let head = try exchangeThenClosed("HEAD /status HTTP/1.1\r\nHost: evil.example\r\n\r\n")
    XCTAssertEqual(head.status, 421)
    XCTAssertNotNil(head.headers["content-length"])
    XCTAssertTrue(head.body.isEmpty)
  }

  /// Loopback's names, with or without a port, are answered; others only when allowed, and every name on a
  /// server that listens beyond loopback.
  func testHostNamesOnLoopbackAndBeyond() throws {
    let loopback = [
      "localhost", "LocalHost:8080", "tiles.localhost", "127.0.0.1", "127.1.2.3:80", "[::1]", "[::1]:80",
    ]
    for host in loopback {
      XCTAssertEqual(try server.get("/status", host: host).status, 200, host)
    }
    let allowing = try ServerProcess([
      "--allowed-host", "tunnel.example.org", "--allowed-host", "Proxy.Example",
    ])
    defer { XCTAssertEqual(allowing.stop(), 0, allowing.errorText) }
    for host in ["tunnel.example.org", "tunnel.example.org:443", "proxy.example", "localhost"] {
      XCTAssertEqual(try allowing.get("/status", host: host).status, 200, host)
    }
    XCTAssertEqual(try allowing.get("/status", host: "example.org").status, 421)
    // The access log has a line for each refusal, as for any request (standard error is read as it comes).
    _ = try allowing.send(Data("NONSENSE\r\n\r\n".utf8), seconds: 5)
    for line in ["tunnel: GET /status 421 ", "tunnel: - - 400 "] {
      let deadline = Date(timeIntervalSinceNow: 5)
      while !allowing.errorText.contains(line), Date() < deadline { usleep(20_000) }
      XCTAssertTrue(allowing.errorText.contains(line), allowing.errorText)
    }

    let everywhere = try ServerProcess(["--quiet", "--host", "0.0.0.0"])
    defer { XCTAssertEqual(everywhere.stop(), 0, everywhere.errorText) }
    XCTAssertEqual(try everywhere.get("/status", host: "tunnel.example.org").status, 200)
  }

  /// Upgrade is ignored: the request is answered over HTTP/1.1 and the connection ends (what follows the
  /// request is never read), within a second.
  func testUpgradeIsAnsweredThenTheConnectionEnds() throws {
    for upgrade in [
      "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n",
      "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n",
    ] {
      let response = try exchangeThenClosed(
        "GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\n\(upgrade)\r\nGET /status HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
      )
      XCTAssertEqual(response.status, 200, upgrade)
      XCTAssertEqual(response.text, "OK")
      XCTAssertEqual(response.headers["connection"], "close")
    }
    // curl --http2 asks for h2c and goes on over HTTP/1.1.
    let curl = Process()
    curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
    guard FileManager.default.isExecutableFile(atPath: curl.executableURL!.path) else {
      throw XCTSkip("no curl")
    }
    curl.arguments = ["--http2", "--silent", "--max-time", "5", "\(try server.address)/status"]
    let output = Pipe()
    curl.standardOutput = output
    try curl.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    curl.waitUntilExit()
    XCTAssertEqual(curl.terminationStatus, 0)
    XCTAssertEqual(text, "OK")
  }

  /// A refusal that follows requests still being answered comes after their responses, whole.
  func testARefusalWaitsForTheResponsesBeforeIt() throws {
    let server = try server
    let body = Self.points(20_000)
    var request = Data(
      "POST /v1/batch?fields=country HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\n\r\n"
        .utf8)
    request.append(body)
    request.append(Data("GET /status HTTP/1.1\r\nHost: evil.example\r\n\r\n".utf8))
    let connection = try Connection(port: server.port)
    try connection.write(request)
    let bytes = connection.readAll(seconds: 30)
    let refusal = try XCTUnwrap(bytes.range(of: Data("HTTP/1.1 421".utf8)), "the refusal comes")
    let first = ServerProcess.parse(Data(bytes[..<refusal.lowerBound]))
    XCTAssertEqual(first.status, 200)
    XCTAssertTrue(first.complete, "the batch's answer is whole")
    XCTAssertEqual(first.text.utf8.count { $0 == 0x0A }, 20_001)
    XCTAssertEqual(
      Data(bytes[..<refusal.lowerBound].suffix(7)), Data("\r\n0\r\n\r\n".utf8),
      "it follows the batch's last chunk")
    XCTAssertEqual(ServerProcess.parse(Data(bytes[refusal.lowerBound...])).status, 421)
  }

  /// Bytes the parser cannot read get a sentence saying which rule they break.
  func testUnreadableRequestsSayWhy() throws {
    let chunked = "POST /v1/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n"
    let cases: [(request: String, words: String)] = [
      ("GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Name: 1\r\n\r\n", "a header field's name"),
      ("GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nX: a\u{0}b\r\n\r\n", "control character (NUL)"),
      ("GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nX: 1\r\n folded\r\n\r\n", "folded"),
      ("GET /status HTTP/1.1\nHost: 127.0.0.1\n\n", "HTTP/1.1 and CRLF"),
      ("GET /status HTTP/1.1\r\nHost: 127.0.0.1\nX: 1\r\n\r\n", "LF alone"),
      ("GET /sta tus HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "%20"),
      (
        "POST /v1/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: gzip\r\n\r\n",
        "does not end in chunked"
      ),
      (chunked + "-1\r\n", "no valid size"),
      (chunked + "3\nabc\r\n0\r\n\r\n", "LF alone"),
      (chunked + "3\r\nabcXX", "a chunk's data by CRLF"),
      (
        "POST /v1/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
        "more than one Content-Length"
      ),
      (
        "POST /v1/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
        "comes with a Content-Length"
      ),
      ("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "HTTP/1.1 only"),
    ]
    for (request, words) in cases {
      let response = try exchangeThenClosed(request)
      XCTAssertEqual(response.status, 400, "\(request.debugDescription.prefix(60)): \(response.text)")
      XCTAssertFalse(Self.message(response).contains("unknown"), response.text)
      XCTAssertFalse(Self.message(response).contains("paused"), response.text)
      XCTAssertTrue(
        Self.message(response).contains(words), "\(request.debugDescription.prefix(60)): \(response.text)")
    }
  }

  /// Refused and unreadable requests are counted in /metrics.
  func testRefusalsAreCounted() throws {
    let server = try server
    _ = try server.send(Data("NONSENSE\r\n\r\n".utf8), seconds: 5)
    _ = try server.get("/status", host: "evil.example")
    let metrics = try server.get("/metrics").text
    XCTAssertTrue(metrics.contains(#"tunnel_http_requests_total{route="malformed",status="400"}"#), metrics)
    XCTAssertTrue(metrics.contains(#"tunnel_http_requests_total{route="refused",status="421"}"#), metrics)
  }
}
