import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Tunnel's routes, for `tunnel serve` or any Hummingbird application that mounts them:
///
///     let answers = try TunnelAnswers(data: PlaceData())
///     let router = Router()
///     TunnelRoutes(answers: answers).add(to: router)
///
/// - `/v1/where`, `/v1/antipode`, `/v1/find`, `/v1/dig`: Tunnel's own answers, as the commands print them
///   with `--format json`; `POST /v1/batch`: `tunnel batch` over HTTP.
/// - `/reverse`, `/search`, `/status` (and `.php`): Nominatim's dialect. `/photon/api`, `/photon/reverse`:
///   Photon's.
/// - `/openapi.json`: the API's description.
/// - `/`: the Tunnel in a browser (``WebApp``), with `/app/…` its files, `/leaflet/…` Debian's Leaflet,
///   `/tiles/{z}/{x}/{y}.svg` the map tiles and `/v1/map.svg` both ends on Tunnel's own maps.
public struct TunnelRoutes: Sendable {
  public let answers: TunnelAnswers
  public let batch: BatchLimits
  public let web: WebApp

  public init(answers: TunnelAnswers, batch: BatchLimits = BatchLimits(), web: WebApp = WebApp()) {
    self.answers = answers
    self.batch = batch
    self.web = web
  }

  /// The GET routes: path, and the answer to a request's parameters.
  var getRoutes: [(path: String, answer: @Sendable (QueryParameters) -> TunnelAnswers.Answer)] {
    let answers = answers
    var routes: [(path: String, answer: @Sendable (QueryParameters) -> TunnelAnswers.Answer)] = [
      ("/v1/where", answers.whereAnswer),
      ("/v1/antipode", answers.antipodeAnswer),
      ("/v1/find", answers.findAnswer),
      ("/v1/dig", answers.digAnswer),
      ("/v1/map.svg", answers.mapPictureAnswer),
      ("/openapi.json", { _ in OpenAPIDocument.answer }),
    ]
    for name in ["reverse", "search", "status"] {
      let answer: @Sendable (QueryParameters) -> TunnelAnswers.Answer =
        switch name {
        case "reverse": answers.nominatimReverse
        case "search": answers.nominatimSearch
        default: answers.nominatimStatus
        }
      routes += [("/" + name, answer), ("/" + name + ".php", answer)]
    }
    routes += [
      // The router takes "/photon/api/" for "/photon/api" too.
      ("/photon/api", answers.photonSearch), ("/photon/reverse", answers.photonReverse),
    ]
    return routes
  }

  /// Every path served (without the trailing slash the router also takes), `/metrics` included.
  static let servedPaths: Set<String> = {
    var paths: Set<String> = [
      "/v1/where", "/v1/antipode", "/v1/find", "/v1/dig", "/v1/batch", "/v1/map.svg", "/openapi.json",
      "/metrics",
      "/", "/index.html",
    ]
    for name in ["reverse", "search", "status"] { paths.formUnion(["/" + name, "/" + name + ".php"]) }
    paths.formUnion(["/photon/api", "/photon/reverse", "/photon/api/", "/photon/reverse/"])
    return paths
  }()

  /// Whether a path is served (by some method): one of ``servedPaths``, or under `/app/`, `/leaflet/` or
  /// `/tiles/`.
  static func isServed(_ path: String) -> Bool {
    servedPaths.contains(path) || ["/app/", "/leaflet/", "/tiles/"].contains { path.hasPrefix($0) }
  }

  /// Adds the routes to `router`.
  public func add<Context: RequestContext>(to router: Router<Context>) {
    for (path, answer) in getRoutes {
      router.on(RouterPath(path), method: .get) { request, _ in
        Self.respond(request, answer)
      }
      router.on(RouterPath(path), method: .head) { request, _ in
        Self.headResponse(Self.respond(request, answer))
      }
    }
    addPage(to: router)
    let batch = BatchEndpoint(answers: answers, limits: batch)
    router.on("/v1/batch", method: .post) { request, _ in
      await batch.respond(to: request)
    }
  }

  /// The page, its files, Leaflet and the tiles, for GET and HEAD.
  func addPage<Context: RequestContext>(to router: Router<Context>) {
    let web = web
    let answers = answers
    var routes: [(RouterPath, @Sendable (Request, Context) -> TunnelAnswers.Answer)] = [
      ("/", { _, _ in web.pageFile("index.html") }),
      ("/index.html", { _, _ in web.pageFile("index.html") }),
      ("/app/:name", { _, context in web.pageFile(context.parameters.get("name") ?? "") }),
      ("/leaflet/:name", { _, context in web.leafletFile(context.parameters.get("name") ?? "") }),
      (
        "/leaflet/images/:name",
        { _, context in web.leafletFile("images/" + (context.parameters.get("name") ?? "")) }
      ),
    ]
    routes.append(
      (
        "/tiles/:z/:x/:file",
        { _, context in
          answers.tileAnswer(
            zoom: context.parameters.get("z") ?? "", x: context.parameters.get("x") ?? "",
            file: context.parameters.get("file") ?? "")
        }
      ))
    for (path, answer) in routes {
      router.on(path, method: .get) { request, context in
        Self.conditionalResponse(request, answer(request, context))
      }
      router.on(path, method: .head) { request, context in
        Self.headResponse(Self.conditionalResponse(request, answer(request, context)))
      }
    }
  }

  /// The answer as a response, or a 304 when the request's `If-None-Match` names its ETag.
  static func conditionalResponse(_ request: Request, _ answer: TunnelAnswers.Answer) -> Response {
    if answer.status == 200, let tag = answer.headers.first(where: { $0.name == "ETag" })?.value,
      let wanted = request.headers[.ifNoneMatch],
      wanted.split(separator: ",").contains(where: {
        let candidate = $0.trimmingCharacters(in: .whitespaces)
        return candidate == tag || candidate == "W/" + tag || candidate == "*"
      })
    {
      var response = Response(status: .notModified)
      response.headers[.eTag] = tag
      for (name, value) in answer.headers where name == "Cache-Control" {
        if let field = HTTPField.Name(name) { response.headers[field] = value }
      }
      return response
    }
    return response(answer)
  }

  /// The answer to `request` as a response; a query string that cannot be read is a 400 naming the parameter.
  /// A GET's response as HEAD answers it: the same status and fields, `Content-Length` the GET's, no body.
  static func headResponse(_ response: Response) -> Response {
    var response = response
    let length = response.body.contentLength
    response.body = ResponseBody()
    if let length { response.headers[.contentLength] = String(length) }
    return response
  }

  static func respond(
    _ request: Request, _ answer: @Sendable (QueryParameters) -> TunnelAnswers.Answer
  ) -> Response {
    let query: QueryParameters
    do {
      query = try QueryParameters(request.uri.query.map { Substring($0) })
    } catch {
      let readable = QueryParameters.readable(request.uri.query.map { Substring($0) })
      return response(
        errorAnswer(400, error.description, dialect: Dialect(path: request.uri.path), query: readable))
    }
    return response(answer(query))
  }

  /// An error in the shape of the path's dialect: Photon's `{"message":…}`, else `{"error":{"code":…,
  /// "message":…}}` (Nominatim's, and Tunnel's own), in XML when a Nominatim request asked for XML.
  static func errorAnswer(
    _ status: Int, _ message: String, dialect: Dialect, query: QueryParameters? = nil
  ) -> TunnelAnswers.Answer {
    switch dialect {
    case .photon:
      return TunnelAnswers.Answer(
        status: status, contentType: TunnelAnswers.Answer.jsonType, body: Photon.error(message: message).bytes
      )
    case .nominatim where query?["format"] == "xml":
      return TunnelAnswers.Answer(
        status: status, contentType: NominatimFormat.xml.contentType,
        body: Array(Nominatim.error(code: status, message: message, format: .xml).utf8))
    case .tunnel, .nominatim:
      return .error(status, message)
    }
  }

  /// `answer` as a response.
  static func response(_ answer: TunnelAnswers.Answer) -> Response {
    var headers = HTTPFields()
    headers[.contentType] = answer.contentType
    headers[.contentLength] = String(answer.body.count)
    for (name, value) in answer.headers {
      if let field = HTTPField.Name(name) { headers[field] = value }
    }
    return Response(
      status: HTTPResponse.Status(code: answer.status), headers: headers,
      body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
  }

  /// Which family a path belongs to, for the shape of errors that happen before a route answers.
  enum Dialect {
    case tunnel, nominatim, photon

    init(path: String) {
      if path.hasPrefix("/photon") {
        self = .photon
      } else if path.hasPrefix("/v1") || path.hasPrefix("/openapi") || path.hasPrefix("/metrics")
        || path == "/" || path == "/index.html" || path.hasPrefix("/app/") || path.hasPrefix("/tiles/")
        || path.hasPrefix("/leaflet/")
      {
        self = .tunnel
      } else {
        self = .nominatim
      }
    }
  }
}
