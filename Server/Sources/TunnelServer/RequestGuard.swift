import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Limits every request on a connection, below the routes:
/// - a body declared larger than the limit: the request is marked `Connection: close`, so that the route's
///   413 ends the connection instead of the server reading the rest of the upload; a body within it that
///   the client waits to send (`Expect: 100-continue`) is asked for at once;
/// - a body that grows past the limit, or a request whose body has not ended by the upload deadline: the
///   connection is closed (an idle timeout alone restarts with every byte a slow client sends).
final class RequestGuard: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart

  private let maximumBody: Int
  private let deadline: TimeAmount
  private var bodyBytes = 0
  private var refusing = false
  private var deadlineTask: Scheduled<Void>?
  /// Whether a response's head has gone out and its end not yet.
  private var responding = false

  init(maximumBody: Int, deadlineSeconds: Double) {
    self.maximumBody = maximumBody
    deadline = TunnelServer.Configuration.timeAmount(seconds: deadlineSeconds)
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(var head):
      bodyBytes = 0
      refusing = false
      if let length = head.headerFields[.contentLength].flatMap(Int.init), length > maximumBody {
        refusing = true
        head.headerFields[.connection] = "close"
      } else if head.headerFields[.expect]?.lowercased() == "100-continue" {
        // The client waits for this before it sends the body (curl for a second, then sends anyway).
        context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
      }
      deadlineTask?.cancel()
      deadlineTask = nil
      // Only a request with a body can take long to arrive once its head has.
      let length = head.headerFields[.contentLength].flatMap(Int.init) ?? 0
      if length > 0 || head.headerFields[.transferEncoding] != nil {
        let channel = context.channel
        deadlineTask = context.eventLoop.scheduleTask(in: deadline) { channel.close(promise: nil) }
      }
      context.fireChannelRead(wrapInboundOut(.head(head)))
    case .body(let buffer):
      // A refused body is not passed on: it is never read into memory.
      if refusing { return }
      bodyBytes += buffer.readableBytes
      if bodyBytes > maximumBody {
        context.close(promise: nil)
        return
      }
      context.fireChannelRead(data)
    case .end:
      deadlineTask?.cancel()
      deadlineTask = nil
      context.fireChannelRead(data)
    }
  }

  /// A request that cannot be read as HTTP/1.1 gets a 400 that says why, and the connection ends (the reader
  /// cannot tell where the next request would begin).
  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    guard let error = error as? HTTPParserError else {
      context.fireErrorCaught(error)
      return
    }
    // A response under way (a batch streaming its rows) cannot be followed by another: the connection ends,
    // and the response without its end tells the client it is not whole.
    if responding {
      context.close(promise: nil)
      return
    }
    let reason: String
    switch error {
    case .headerOverflow:
      reason = "its request line and header fields are too long (at most 16 KiB a field, 64 KiB in all)"
    case .invalidURL, .invalidPath, .invalidQueryString, .invalidFragment, .invalidHost, .invalidPort:
      reason = "its target is not a valid URL"
    case .invalidMethod: reason = "its method is not one HTTP knows"
    case .invalidVersion: reason = "it is not HTTP/1.0 or HTTP/1.1"
    case .invalidContentLength, .unexpectedContentLength: reason = "its Content-Length is not valid"
    case .invalidChunkSize: reason = "a chunk of its body has no valid size"
    default: reason = "it is not well-formed HTTP/1.1 (\(error))"
    }
    let body = TunnelAPIError(.badRequest, "the request cannot be read: \(reason)").body
    var head = HTTPResponse(status: .badRequest)
    head.headerFields[.contentType] = Reply.jsonType
    head.headerFields[.contentLength] = String(body.count)
    head.headerFields[.connection] = "close"
    context.write(wrapOutboundOut(.head(head)), promise: nil)
    context.write(wrapOutboundOut(.body(ByteBuffer(bytes: body))), promise: nil)
    let channel = context.channel
    context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    switch unwrapOutboundIn(data) {
    case .head(let head) where head.status.code >= 200: responding = true
    case .end: responding = false
    default: break
    }
    context.write(data, promise: promise)
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    deadlineTask?.cancel()
  }

  func channelInactive(context: ChannelHandlerContext) {
    deadlineTask?.cancel()
    context.fireChannelInactive()
  }
}
