import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import XCTest

@testable import TunnelServer

/// The ``RequestGuard`` below Hummingbird's connection state, as every connection has them, on an embedded
/// channel: what is written stays unwritten until the test flushes it, as an answer does that a slow client
/// has not read yet.
final class RequestGuardTests: XCTestCase {
  /// A connection whose one request (a GET) has been read.
  private func connection() throws -> EmbeddedChannel {
    let channel = EmbeddedChannel()
    try channel.pipeline.syncOperations.addHandlers([
      RequestGuard(maximumBody: 1000, deadlineSeconds: 60, stallSeconds: 30),
      HTTPConnectionStateHandler(idleTimeout: .seconds(30), logger: Logger(label: "test")),
    ])
    try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8080)).wait()
    try channel.writeInbound(
      HTTPRequestPart.head(HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1", path: "/")))
    try channel.writeInbound(HTTPRequestPart.end(nil))
    return channel
  }

  /// Writes a whole answer (head, a body of `bytes`, end), without flushing it.
  private func answer(_ channel: EmbeddedChannel, bytes: Int = 100) {
    channel.write(HTTPResponsePart.head(HTTPResponse(status: .ok)), promise: nil)
    channel.write(HTTPResponsePart.body(ByteBuffer(repeating: 7, count: bytes)), promise: nil)
    channel.write(HTTPResponsePart.end(nil), promise: nil)
  }

  /// The parts that reached the socket.
  private func written(_ channel: EmbeddedChannel) throws -> [String] {
    var parts: [String] = []
    while let part = try channel.readOutbound(as: HTTPResponsePart.self) {
      switch part {
      case .head(let head): parts.append("head \(head.status.code)")
      case .body(let body): parts.append("body \(body.readableBytes)")
      case .end: parts.append("end")
      }
    }
    return parts
  }

  /// A graceful stop closes a connection once its answer's end is handed over; the close waits until the
  /// answer is on the socket, so the client gets all of it.
  func testAStopLetsTheLastAnswerReachTheSocket() throws {
    let channel = try connection()
    answer(channel)
    channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
    XCTAssertTrue(channel.isActive, "closed with the answer still unwritten")
    channel.flush()
    channel.embeddedEventLoop.run()
    XCTAssertEqual(try written(channel), ["head 200", "body 100", "end"])
    XCTAssertFalse(channel.isActive, "not closed once the answer was written")
  }

  /// Any close from above waits likewise: the idle timeout's, the connection's task ending.
  func testACloseFromAboveLetsTheLastAnswerReachTheSocket() throws {
    let channel = try connection()
    answer(channel)
    let closed = channel.close()
    XCTAssertTrue(channel.isActive, "closed with the answer still unwritten")
    channel.flush()
    channel.embeddedEventLoop.run()
    XCTAssertEqual(try written(channel), ["head 200", "body 100", "end"])
    XCTAssertFalse(channel.isActive)
    XCTAssertNoThrow(try closed.wait())
  }

  /// A client that never reads the end of its answer does not hold its connection: the held close is made
  /// at the stall limit, and what was not written is dropped.
  func testAnUnreadAnswerIsClosedAtTheStallLimit() throws {
    let channel = try connection()
    answer(channel)
    channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
    channel.embeddedEventLoop.advanceTime(by: .seconds(29))
    XCTAssertTrue(channel.isActive)
    channel.embeddedEventLoop.advanceTime(by: .seconds(2))
    XCTAssertFalse(channel.isActive, "a client that does not read held its connection past the stall limit")
    XCTAssertEqual(try written(channel), [])
  }

  /// The guard's own limits cut at once, whatever is unwritten: an upload past its deadline.
  func testTheUploadDeadlineIsNotHeld() throws {
    let channel = try connection()
    answer(channel)
    var head = HTTPRequest(method: .post, scheme: "http", authority: "127.0.0.1", path: "/v1/batch")
    head.headerFields[.contentLength] = "500"
    try channel.writeInbound(HTTPRequestPart.head(head))
    channel.embeddedEventLoop.advanceTime(by: .seconds(60))
    XCTAssertFalse(channel.isActive, "the upload outlived its deadline")
  }

  /// A connection with nothing unwritten closes at once.
  func testACloseWithNothingUnwrittenIsNotHeld() throws {
    let channel = try connection()
    answer(channel)
    channel.flush()
    XCTAssertEqual(try written(channel), ["head 200", "body 100", "end"])
    channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
    channel.embeddedEventLoop.run()
    XCTAssertFalse(channel.isActive)
  }
}
