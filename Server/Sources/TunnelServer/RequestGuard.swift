import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Limits every request on a connection, below the routes:
/// - a body declared larger than the limit: the request is marked `Connection: close`, so that the route's
///   413 ends the connection instead of the server reading the rest of the upload; a body within it that
///   the client waits to send (`Expect: 100-continue`) is asked for at once;
/// - a body that grows past the limit, or a request whose body has not ended by the upload deadline: the
///   connection is closed (an idle timeout alone restarts with every byte a slow client sends);
/// - a client that stops reading its answer for longer than the stall limit (the server's output has filled
///   the connection's buffers and stayed full): the connection is closed, which ends the response and
///   whatever produced it (a batch stops and frees what it held). Hummingbird's idle timeout counts only
///   the time between requests, so without this a client that never reads would hold its batch for ever.
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
  private let stallLimit: TimeAmount
  private var stallTask: Scheduled<Void>?

  init(maximumBody: Int, deadlineSeconds: Double, stallSeconds: Double) {
    self.maximumBody = maximumBody
    deadline = TunnelServer.Configuration.timeAmount(seconds: deadlineSeconds)
    stallLimit = TunnelServer.Configuration.timeAmount(seconds: stallSeconds)
  }

  func channelWritabilityChanged(context: ChannelHandlerContext) {
    stallTask?.cancel()
    stallTask = nil
    if !context.channel.isWritable {
      let channel = context.channel
      stallTask = context.eventLoop.scheduleTask(in: stallLimit) { channel.close(promise: nil) }
    }
    context.fireChannelWritabilityChanged()
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

  func handlerRemoved(context: ChannelHandlerContext) {
    deadlineTask?.cancel()
    stallTask?.cancel()
  }

  func channelInactive(context: ChannelHandlerContext) {
    deadlineTask?.cancel()
    stallTask?.cancel()
    context.fireChannelInactive()
  }
}
