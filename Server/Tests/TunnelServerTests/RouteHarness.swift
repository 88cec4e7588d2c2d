import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOEmbedded
import TunnelGeo

@testable import TunnelServer

/// Tunnel's whole router (middleware, routes, `/metrics`) answering requests made by hand, in process:
/// through the router's responder on an embedded channel, with no socket.
struct RouteHarness: Sendable {
  /// One set of answers for every test in the process: opening the data takes seconds.
  nonisolated(unsafe) private static var shared: TunnelService?
  private static let lock = NSLock()

  static var service: TunnelService {
    get throws {
      lock.lock()
      defer { lock.unlock() }
      if let service = shared { return service }
      let service = try TunnelService(data: PlaceData())
      shared = service
      return service
    }
  }

  let server: TunnelServer
  let responder: RouterResponder<BasicRequestContext>
  /// What the routes serve, as they said when they were added.
  let routes: [ServedRoute]

  init() throws {
    server = TunnelServer(service: try Self.service)
    let router = Router(context: BasicRequestContext.self, options: .autoGenerateHeadEndpoints)
    routes = server.addRoutes(to: router)
    responder = router.buildResponder()
  }

  /// A response as a client reads it.
  struct Reply {
    var status: Int
    var headers: HTTPFields
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }
    var json: Any? { try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]) }
  }

  /// The router's answer to `method` at `target` (a path with its query string).
  func send(
    _ method: HTTPRequest.Method = .get, _ target: String, headers: HTTPFields = [:], body: [UInt8] = []
  ) async throws -> Reply {
    let head = HTTPRequest(
      method: method, scheme: "http", authority: "127.0.0.1:8080", path: target, headerFields: headers)
    let request = Request(head: head, body: RequestBody(buffer: ByteBuffer(bytes: body)))
    let context = BasicRequestContext(
      source: ApplicationRequestContextSource(channel: EmbeddedChannel(), logger: Logger(label: "test")))
    let response = try await responder.respond(to: request, context: context)
    let collected = Collected()
    try await response.body.write(CollectingWriter(collected: collected))
    return Reply(status: response.status.code, headers: response.headers, body: collected.bytes)
  }

  func get(_ target: String, headers: HTTPFields = [:]) async throws -> Reply {
    try await send(.get, target, headers: headers)
  }
}

/// The bytes a response's body wrote.
private final class Collected: @unchecked Sendable {
  var bytes: [UInt8] = []
}

private struct CollectingWriter: ResponseBodyWriter {
  let collected: Collected

  mutating func write(_ buffer: ByteBuffer) async throws {
    collected.bytes += buffer.readableBytesView
  }

  consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
