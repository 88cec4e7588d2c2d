import HTTPTypes
import Hummingbird

/// Tunnel's own API: `/v1/where`, `/v1/antipode`, `/v1/find`, `/v1/dig`, `/v1/pairs` (as the commands answer with
/// `--format json`), `/v1/map.svg`, `POST /v1/batch`, and `/openapi.json`, which describes every route.
/// Its errors are ``TunnelAPIError``s.
struct TunnelAPIController: Sendable {
  let service: TunnelService
  let batch: BatchLimits

  func addRoutes<Context: RequestContext>(to router: Router<Context>) -> [ServedRoute] {
    let service = service
    var api = RouteTable(router, prefix: "/v1", refusal: Self.refusal)
    api.get("/where") { request, _ in try Self.json(request, service.whereJSON) }
    api.get("/antipode") { request, _ in try Self.json(request, service.antipodeJSON) }
    api.get("/find") { request, _ in try Self.json(request, service.findJSON) }
    api.get("/dig") { request, _ in try Self.json(request, service.digJSON) }
    api.get("/pairs") { request, _ in try Self.json(request, service.pairsJSON) }
    api.get("/map.svg") { request, _ in
      try Self.answer(request) {
        Reply(contentType: "image/svg+xml", body: Array(try service.mapPicture($0).utf8))
      }
    }
    let endpoint = BatchEndpoint(service: service, limits: batch)
    api.on("/batch", .post) { request, _ in await endpoint.respond(to: request) }
    var root = RouteTable(router, refusal: Self.refusal)
    let document = Reply(contentType: Reply.jsonType, body: Array(OpenAPIDocument.text.utf8))
    root.get("/openapi.json") { _, _ in document }
    return api.routes + root.routes
  }

  static func refusal(_ status: HTTPResponse.Status, _ message: String, _ fields: HTTPFields) -> any Error {
    TunnelAPIError(status, message, fields: fields)
  }

  /// The request's query string, or the 400 that names the parameter that cannot be read.
  static func query(_ request: Request) throws(TunnelAPIError) -> QueryParameters {
    do {
      return try QueryParameters(request.uri.query.map { Substring($0) })
    } catch {
      throw TunnelAPIError(.badRequest, error.description)
    }
  }

  /// `body`'s answer to the request's parameters, or its error as Tunnel's.
  static func answer(
    _ request: Request, _ body: (QueryParameters) throws -> Reply
  ) throws(TunnelAPIError) -> Reply {
    let query = try query(request)
    do {
      return try body(query)
    } catch {
      throw TunnelAPIError(error)
    }
  }

  /// `body`'s JSON for the request's parameters.
  static func json(
    _ request: Request, _ body: (QueryParameters) throws -> String
  ) throws(TunnelAPIError) -> Reply {
    try answer(request) { .json(try body($0)) }
  }
}
