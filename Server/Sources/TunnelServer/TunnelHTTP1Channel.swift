import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Each connection's pipeline: Hummingbird's `HTTP1Channel`, with ``StrictHTTP1Handler`` between NIO's
/// HTTP/1 parser and the conversion to `HTTPRequest`, where a request's version and every `Host` field are
/// still to be seen.
///
/// From the socket up: NIO's response encoder and request parser (with the configured limits), the
/// ``StrictHTTP1Handler``, the conversion to HTTPTypes, the ``RequestGuard`` and Hummingbird's connection
/// state (its idle timeout), then the routes. Requests are answered by Hummingbird's own loop
/// (`handleHTTP`), as `HTTP1Channel`'s are.
struct TunnelHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
  typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

  let responder: HTTPChannelHandler.Responder
  let configuration: TunnelServer.Configuration
  let metrics: ServerMetrics
  let accessLog: Logger?

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    channel.eventLoop.makeCompletedFuture {
      var limits = NIOHTTPDecoderLimitConfiguration()
      limits.maxHeaderFieldSize = configuration.maximumHeaderField
      limits.maxHeaderListSize = configuration.maximumHeaders
      limits.maxHeaderFieldCount = 200
      let pipeline = channel.pipeline.syncOperations
      // As HTTP1Channel does: no pipelining assistance (Hummingbird answers one request at a time), errors
      // handled here rather than by NIO, and no validation of response headers, which HTTPTypes has done.
      try pipeline.configureHTTPServerPipeline(
        withPipeliningAssistance: false, withErrorHandling: false, withOutboundHeaderValidation: false,
        withEncoderConfiguration: .init(), withDecoderLimitConfiguration: limits)
      try pipeline.addHandler(
        StrictHTTP1Handler(
          hostCheck: HostCheck(listeningOn: configuration.host, allowing: configuration.allowedHosts),
          metrics: metrics, logger: accessLog))
      try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
      try pipeline.addHandler(
        RequestGuard(
          maximumBody: configuration.batch.maximumUpload, deadlineSeconds: configuration.batch.uploadDeadline,
          stallSeconds: configuration.idleTimeout)
      )
      try pipeline.addHandler(
        HTTPConnectionStateHandler(
          idleTimeout: Duration(TunnelServer.Configuration.timeAmount(seconds: configuration.idleTimeout)),
          logger: logger))
      return try NIOAsyncChannel(
        wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
    }
  }

  func handle(value: Value, logger: Logger) async {
    await handleHTTP(asyncChannel: value, logger: logger)
  }
}
