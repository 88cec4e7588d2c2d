import Foundation
import HTTPTypes
import Hummingbird

/// The Tunnel in a browser: the page at `/` (and `/index.html`), its files under `/app/`, Debian's Leaflet
/// under `/leaflet/`, and the map tiles at `/tiles/{z}/{x}/{y}.svg`, each answered with 304 when the
/// request's `If-None-Match` names its ETag. Its errors are ``TunnelAPIError``s.
struct PageController: Sendable {
  let service: TunnelService
  let web: WebApp

  func addRoutes<Context: RequestContext>(to router: Router<Context>) -> [ServedRoute] {
    let web = web
    let service = service
    var page = RouteTable(router, refusal: TunnelAPIController.refusal)
    page.get("/") { request, _ in try Self.conditional(request) { try web.pageFile("index.html") } }
    page.get("/index.html") { request, _ in try Self.conditional(request) { try web.pageFile("index.html") } }
    page.get("/app/:name") { request, context in
      try Self.conditional(request) { try web.pageFile(context.parameters.get("name") ?? "") }
    }
    page.get("/leaflet/:name") { request, context in
      try Self.conditional(request) { try web.leafletFile(context.parameters.get("name") ?? "") }
    }
    page.get("/leaflet/images/:name") { request, context in
      try Self.conditional(request) {
        try web.leafletFile("images/" + (context.parameters.get("name") ?? ""))
      }
    }
    for antipodal in [false, true] {
      page.get(antipodal ? "/tiles/antipodal/:z/:x/:file" : "/tiles/:z/:x/:file") { request, context in
        try Self.conditional(request) {
          let tile = try service.tile(
            zoom: context.parameters.get("z") ?? "", x: context.parameters.get("x") ?? "",
            file: context.parameters.get("file") ?? "", antipodal: antipodal)
          return Reply(
            contentType: "image/svg+xml", body: tile.body,
            fields: [.eTag: tile.tag, .cacheControl: "public, max-age=86400"])
        }
      }
    }
    return page.routes
  }

  /// `body`'s reply, or a 304 when the request's `If-None-Match` names its ETag.
  static func conditional(_ request: Request, _ body: () throws -> Reply) throws(TunnelAPIError) -> Response {
    let reply: Reply
    do {
      reply = try body()
    } catch {
      throw TunnelAPIError(error)
    }
    if let tag = reply.fields[.eTag], let wanted = request.headers[.ifNoneMatch],
      wanted.split(separator: ",").contains(where: {
        let candidate = $0.trimmingCharacters(in: .whitespaces)
        return candidate == tag || candidate == "W/" + tag || candidate == "*"
      })
    {
      var response = Response(status: .notModified)
      response.headers[.eTag] = tag
      response.headers[.cacheControl] = reply.fields[.cacheControl]
      return response
    }
    return reply.response(status: .ok)
  }
}
