import Foundation
import XCTest

/// A client that sends a batch and then neither reads its answer nor goes away.
extension ServeTests {
  /// Once the answer has filled the connection's buffers and stays unread for the idle timeout, the server
  /// closes the connection: the answer ends without its last chunk, and the batch behind it stops.
  func testAClientThatStopsReadingIsClosedAtTheIdleTimeout() throws {
    let server = try ServerProcess(["--quiet", "--idle-timeout", "1"])
    let body = Self.points(200_000)
    let head = Data(
      "POST /v1/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\n\r\n".utf8)
    let connection = try Connection(port: server.port, receiveBuffer: 4096)
    connection.setSendTimeout(seconds: 10)
    // The write may fail once the server has closed the connection under it.
    try? connection.write(head + body)
    usleep(4_000_000)
    let received = connection.readAll(seconds: 20)
    let response = ServerProcess.parse(received)
    XCTAssertEqual(response.status, 200)
    XCTAssertFalse(response.complete, "the whole answer came: \(received.count) bytes")
    // 200,000 rows answered would be tens of megabytes.
    XCTAssertLessThan(received.count, 8 << 20)
    XCTAssertEqual(try server.get("/status").text, "OK")
    XCTAssertEqual(server.stop(), 0)
  }

  /// No more than `--max-batches` run at once: one more is a 503 with `Retry-After`, and once a batch has
  /// ended its place is free again.
  func testBatchesBeyondTheLimitWaitTheirTurn() throws {
    let server = try ServerProcess(["--quiet", "--max-batches", "1"])
    let rows = "lat,lon\n56,8.5\n"
    // A batch whose body is still coming holds the one place: its first row is answered (so it has the
    // place, and no other batch took it first), the rest of its body has not come.
    let holding = try Connection(port: server.port)
    try holding.write(
      Data(
        "POST /v1/batch?fields=country HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n\(rows)"
          .utf8))
    var first = Data()
    XCTAssertTrue(
      holding.read(until: "Denmark", into: &first, seconds: 20), String(decoding: first, as: UTF8.self))
    XCTAssertTrue(first.starts(with: Data("HTTP/1.1 200".utf8)), String(decoding: first, as: UTF8.self))
    let refused = try server.post("/v1/batch?fields=country", body: Data(rows.utf8))
    XCTAssertEqual(refused.status, 503, refused.text)
    XCTAssertEqual(refused.headers["retry-after"], "5")
    XCTAssertTrue(refused.text.contains("1 batches are being answered"), refused.text)
    holding.reset()
    var answered = try server.post("/v1/batch?fields=country", body: Data(rows.utf8))
    for _ in 0..<50 where answered.status == 503 {
      usleep(100_000)
      answered = try server.post("/v1/batch?fields=country", body: Data(rows.utf8))
    }
    XCTAssertEqual(answered.status, 200, answered.text)
    XCTAssertTrue(answered.text.contains("Denmark"), answered.text)
    XCTAssertEqual(server.stop(), 0)
  }
}
