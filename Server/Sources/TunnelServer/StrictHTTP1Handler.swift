import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1

/// HTTP/1's own rules, checked on each request as NIO's parser read it, before it becomes an `HTTPRequest`
/// (which has no version and keeps one `Host`):
/// - HTTP/1.0 without `Connection: keep-alive`, and a request with `Upgrade`, end the connection after their
///   response (the request is marked `Connection: close`, which ends Hummingbird's loop, and the response
///   says so);
/// - a request that cannot be parsed, HTTP/1.0 with a Transfer-Encoding, HTTP/1.1 without `Host` or any
///   request with two, a `Host` that ``HostCheck`` refuses, and `CONNECT` get an answer that says why (a
///   ``Refusal``), and the connection ends: what follows is dropped unread.
///
/// A refusal is counted in the metrics under its ``Refusal/route`` and written to the access log as the
/// routes' answers are.
///
/// `Upgrade` (WebSocket, h2c as `curl --http2` asks) is ignored, as RFC 9110 §7.8 allows: the request is
/// answered over HTTP/1.1. Its connection then ends, because NIO's parser reads nothing after a request
/// that asks to switch protocols, and a connection kept open would wait for requests it never reads.
///
/// A refusal of a request that comes while earlier ones on the connection are still being answered waits
/// for their responses to end, so that it never falls inside one. A request broken in the middle of its
/// body has been handed to the routes already: it gets the refusal only if nothing has been answered for it
/// yet; otherwise the connection just ends, and the response cut short tells the client it is not whole.
final class StrictHTTP1Handler: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart
  typealias OutboundIn = HTTPServerResponsePart
  typealias OutboundOut = HTTPServerResponsePart

  /// A request handed on whose response has not ended.
  private struct Unanswered {
    var isHTTP10: Bool
    var isHead: Bool
    /// Whether the request was marked `Connection: close`: Hummingbird ends the connection after its
    /// response.
    var closes: Bool
    /// Whether its response has no length, so that only the connection's end can tell where it ends: on
    /// HTTP/1.0, which has no chunks.
    var endsWithConnection = false
  }

  private enum State {
    /// Requests are read and handed on.
    case open
    /// The last request handed on ends the connection: what follows it is dropped.
    case lastRequestRead
    /// A refusal waits for the responses of the requests before it to end.
    case refusing(Refusal, PendingLine)
    /// A refusal is written or the connection is ending: nothing more is read or written.
    case closed
  }

  /// What the access log says of a refused request besides its status.
  private struct PendingLine {
    var method: String
    var target: String
    var isHead: Bool
    var started: ContinuousClock.Instant
  }

  private let hostCheck: HostCheck
  private let metrics: ServerMetrics
  private let logger: Logger?
  private var state = State.open
  private var unanswered = CircularBuffer<Unanswered>()
  /// Whether the last request handed on has had its end read.
  private var requestComplete = true
  /// Whether a response's head has gone out and its end not yet.
  private var responding = false
  /// The `Host` of the last request on this connection that was accepted.
  private var acceptedHost: String?

  init(hostCheck: HostCheck, metrics: ServerMetrics, logger: Logger?) {
    self.hostCheck = hostCheck
    self.metrics = metrics
    self.logger = logger
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard case .open = state else { return }
    switch unwrapInboundIn(data) {
    case .head(var head):
      if let refusal = check(head) {
        refuse(
          refusal,
          PendingLine(
            method: head.method.rawValue, target: head.uri, isHead: head.method == .HEAD,
            started: .now), context: context)
        return
      }
      let closes = !head.isKeepAlive || head.headers.contains(name: "upgrade")
      if closes { head.headers.replaceOrAdd(name: "connection", value: "close") }
      unanswered.append(
        Unanswered(isHTTP10: head.version == .http1_0, isHead: head.method == .HEAD, closes: closes))
      requestComplete = false
      context.fireChannelRead(wrapInboundOut(.head(head)))
    case .body:
      context.fireChannelRead(data)
    case .end:
      requestComplete = true
      if unanswered.last?.closes == true { state = .lastRequestRead }
      context.fireChannelRead(data)
    }
  }

  /// The rule `head` breaks, if any.
  private func check(_ head: HTTPRequestHead) -> Refusal? {
    if head.method == .CONNECT { return .connect }
    if head.version == .http1_0, head.headers.contains(name: "transfer-encoding") {
      return .transferEncodingOnHTTP10
    }
    let hosts = head.headers["host"]
    // HTTP/1.0 has no Host field to require; a browser always sends one, so no web page reaches a server
    // on loopback through a request without it.
    if hosts.isEmpty { return head.version == .http1_0 ? nil : .missingHost }
    if hosts.count > 1 { return .repeatedHost }
    let host = hosts[0]
    // A connection's requests name the same host, as a rule: checked once.
    if host == acceptedHost { return nil }
    if !host.isEmpty, HostCheck.parts(host) == nil { return .invalidHost(host) }
    if !hostCheck.accepts(host) { return .foreignHost(host) }
    acceptedHost = host
    return nil
  }

  /// A request that cannot be read gets a 400 that says why, and the connection ends (the parser cannot tell
  /// where the next request would begin). A client that closes its end in the middle of a request gets
  /// nothing: nobody is left to read it.
  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    guard let error = error as? HTTPParserError else {
      context.fireErrorCaught(error)
      return
    }
    // Errors in what follows a refusal or the last request are about bytes that are dropped anyway.
    guard case .open = state, error != .invalidEOFState else { return }
    refuse(
      .unreadable(error), PendingLine(method: "-", target: "-", isHead: false, started: .now),
      context: context)
  }

  /// Answers with `refusal` now, or once the responses before it have ended; or, when the request it refuses
  /// is already with the routes and being answered, ends the connection.
  private func refuse(_ refusal: Refusal, _ line: PendingLine, context: ChannelHandlerContext) {
    if !requestComplete {
      // The broken request was handed on: it is the last of those unanswered.
      if unanswered.count == 1, !responding {
        unanswered.removeAll()
        write(refusal, line, context: context)
      } else {
        state = .closed
        context.close(promise: nil)
      }
    } else if unanswered.isEmpty {
      write(refusal, line, context: context)
    } else {
      state = .refusing(refusal, line)
    }
  }

  /// Writes the answer to a refused request and ends the connection once it is sent.
  ///
  /// It is written as bytes, below NIO's encoder: the encoder sends no body with any response to a
  /// `CONNECT` (as it must with a 2xx, which opens a tunnel), and the body is what says why.
  private func write(_ refusal: Refusal, _ line: PendingLine, context: ChannelHandlerContext) {
    state = .closed
    let body = TunnelAPIError(HTTPResponse.Status(code: Int(refusal.status.code)), refusal.message).body
    var bytes = context.channel.allocator.buffer(capacity: body.count + 200)
    bytes.writeString(
      "HTTP/1.1 \(refusal.status.code) \(refusal.status.reasonPhrase)\r\n"
        + "Content-Type: \(Reply.jsonType)\r\nContent-Length: \(body.count)\r\n"
        + "Connection: close\r\n\r\n")
    if !line.isHead { bytes.writeBytes(body) }
    let channel = context.channel
    let written: EventLoopFuture<Void>
    if let encoder = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self) {
      written = encoder.writeAndFlush(NIOAny(IOData.byteBuffer(bytes)))
    } else {
      written = context.eventLoop.makeSucceededVoidFuture()
    }
    written.whenComplete { _ in channel.close(promise: nil) }
    let elapsed = ContinuousClock.now - line.started
    metrics.record(route: refusal.route, status: Int(refusal.status.code), elapsed: elapsed)
    if let logger {
      let milliseconds =
        Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
      let text = "\(line.method) \(line.target) \(refusal.status.code) \(body.count)"
      logger.info("\(text + String(format: " %.2fms", milliseconds))")
    }
  }

  /// Each response says whether the connection ends after it. A response to HTTP/1.0 is written as
  /// HTTP/1.0, so that NIO's encoder does not send it chunked (HTTP/1.0 has no chunks): a body without a
  /// length then ends with the connection. HTTP/1.0 gets no 1xx (RFC 9110 §15.2).
  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    if case .closed = state {
      promise?.fail(ChannelError.ioOnClosedChannel)
      return
    }
    switch unwrapOutboundIn(data) {
    case .head(var head) where !unanswered.isEmpty:
      let request = unanswered[unanswered.startIndex]
      if head.status.code < 200 {
        guard !request.isHTTP10 else {
          promise?.succeed(())
          return
        }
        context.write(data, promise: promise)
        return
      }
      responding = true
      if request.isHTTP10 {
        head.version = .http1_0
        if !request.isHead, head.status.mayHaveResponseBody, !head.headers.contains(name: "content-length") {
          unanswered[unanswered.startIndex].endsWithConnection = true
        }
      }
      if request.closes || unanswered[unanswered.startIndex].endsWithConnection {
        head.headers.replaceOrAdd(name: "connection", value: "close")
      } else if request.isHTTP10 {
        head.headers.replaceOrAdd(name: "connection", value: "keep-alive")
      }
      context.write(wrapOutboundOut(.head(head)), promise: promise)
    case .end where !unanswered.isEmpty:
      responding = false
      let request = unanswered.removeFirst()
      if request.endsWithConnection, !request.closes {
        // A kept-alive HTTP/1.0 connection whose response has no length: Hummingbird would go on to the
        // next request, but the end of this one's body is the connection's.
        state = .closed
        let channel = context.channel
        let sent = context.eventLoop.makePromise(of: Void.self)
        sent.futureResult.whenComplete { result in
          promise?.completeWith(result)
          channel.close(promise: nil)
        }
        context.writeAndFlush(data, promise: sent)
        return
      }
      context.write(data, promise: promise)
      if case .refusing(let refusal, let line) = state, unanswered.isEmpty {
        write(refusal, line, context: context)
      }
    default:
      context.write(data, promise: promise)
    }
  }
}
