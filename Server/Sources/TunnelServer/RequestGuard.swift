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
///
/// It also keeps a whole answer whole when the connection is closed behind it. Hummingbird closes a
/// connection at a graceful stop (once its request in flight is answered) and at the idle timeout as soon as
/// the answer's end has been handed to the connection, and a closed connection drops what it has not yet
/// written to the socket: under load, the last megabyte of a batch's answer. A close asked for above this
/// handler therefore waits until the last answer's end is on the socket (then the system sends the rest), or
/// for the stall limit, whichever comes first. The limits' own closes, here, are not held: they cut on
/// purpose.
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
  /// The last answer's end until it is written to the socket.
  private var unwrittenEnd: EventLoopFuture<Void>?

  init(maximumBody: Int, deadlineSeconds: Double, stallSeconds: Double) {
    self.maximumBody = maximumBody
    deadline = TunnelServer.Configuration.timeAmount(seconds: deadlineSeconds)
    stallLimit = TunnelServer.Configuration.timeAmount(seconds: stallSeconds)
  }

  func channelWritabilityChanged(context: ChannelHandlerContext) {
    stallTask?.cancel()
    stallTask = nil
    if !context.channel.isWritable {
      stallTask = context.eventLoop.assumeIsolated().scheduleTask(in: stallLimit) {
        context.close(promise: nil)
      }
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
        deadlineTask = context.eventLoop.assumeIsolated().scheduleTask(in: deadline) {
          context.close(promise: nil)
        }
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

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    guard case .end = unwrapOutboundIn(data) else {
      context.write(data, promise: promise)
      return
    }
    // Written in order: once the end is on the socket, so is everything before it.
    let written = promise ?? context.eventLoop.makePromise()
    let end = written.futureResult
    unwrittenEnd = end
    end.assumeIsolated().whenComplete { _ in
      if self.unwrittenEnd === end { self.unwrittenEnd = nil }
    }
    context.write(data, promise: written)
  }

  func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
    guard mode == .all, let end = unwrittenEnd else {
      context.close(mode: mode, promise: promise)
      return
    }
    // A client that does not read its answer's end keeps it unwritten: it is closed at the stall limit.
    let limit = context.eventLoop.assumeIsolated().scheduleTask(in: stallLimit) {
      context.close(promise: nil)
    }
    end.assumeIsolated().whenComplete { _ in
      limit.cancel()
      if context.channel.isActive {
        context.close(mode: mode, promise: promise)
      } else {
        promise?.succeed()
      }
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
