import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Prometheus

/// What every request passes through, around the routes: its error as a body in the right dialect (never an
/// empty 500), `Access-Control-Allow-Origin: *` on GET and HEAD, a line in the access log, and its count and
/// latency in the metrics.
struct ServerMiddleware<Context: RequestContext>: RouterMiddleware {
  let metrics: ServerMetrics
  let logger: Logger?

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let started = ContinuousClock.now
    var response: Response
    if request.method == .options, TunnelRoutes.isServed(request.uri.path) {
      response = Self.preflight(request)
    } else if request.method == .post, let origin = request.headers[.origin],
      !Self.isSameOrigin(origin, request)
    {
      // A page from another site may send a plain-text POST without asking first: refused here, so that no
      // web page can make a server on this machine do batch work.
      response = TunnelRoutes.response(
        TunnelRoutes.errorAnswer(
          403,
          "a POST from a page of another origin (\(origin)) is refused: send it from a program, or from "
            + "this server's own page",
          dialect: TunnelRoutes.Dialect(path: request.uri.path)))
    } else if request.method == .post, let problem = Self.unreadableBody(request) {
      response = TunnelRoutes.response(
        TunnelRoutes.errorAnswer(415, problem, dialect: TunnelRoutes.Dialect(path: request.uri.path)))
    } else {
      do {
        response = try await next(request, context)
      } catch {
        response = Self.errorResponse(error, request: request)
      }
    }
    if request.method == .get || request.method == .head {
      response.headers[.accessControlAllowOrigin] = "*"
    }
    let elapsed = ContinuousClock.now - started
    let route = context.endpointPath ?? "unmatched"
    metrics.record(route: route, status: response.status.code, elapsed: elapsed)
    if let logger {
      let milliseconds =
        Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
      var line = "\(request.method.rawValue) \(request.uri.string) \(response.status.code)"
      if let length = response.body.contentLength { line += " \(length)" }
      line += String(format: " %.2fms", milliseconds)
      logger.info("\(line)")
    }
    return response
  }

  /// An error thrown below (no such route, a method the route does not take, a framework error) as a body.
  static func errorResponse(_ error: any Error, request: Request) -> Response {
    let status: Int
    let message: String
    if let error = error as? any HTTPResponseError {
      status = error.status.code
      switch error.status.code {
      case 404
      where TunnelRoutes.isServed(request.uri.path)
        && !allowedMethods(request.uri.path).contains(request.method):
        // The router says 404 for a method a path does not take. A method it does take that still found
        // nothing (a file missing under /app/, /leaflet/ or /tiles/) is a 404 like any other.
        return methodNotAllowed(request)
      case 404:
        message = "no such page: \(request.uri.path) (see /openapi.json for what is served)"
      case 405:
        message = "\(request.method.rawValue) is not served at \(request.uri.path)"
      default:
        message = (error as? HTTPError)?.body ?? error.status.reasonPhrase
      }
    } else {
      status = 500
      message = "the request failed: \(error)"
    }
    return TunnelRoutes.response(
      TunnelRoutes.errorAnswer(status, message, dialect: TunnelRoutes.Dialect(path: request.uri.path)))
  }

  /// The answer to a CORS preflight (`OPTIONS`): any page may GET and HEAD (the answers are public data);
  /// none is told it may POST from elsewhere, so a browser sends no cross-origin batch.
  static func preflight(_ request: Request) -> Response {
    var response = Response(status: .noContent)
    let allowed = allowedMethods(request.uri.path)
    response.headers[.allow] = (allowed + [.options]).map(\.rawValue).joined(separator: ", ")
    if allowed.contains(.get) {
      response.headers[.accessControlAllowOrigin] = "*"
      response.headers[.accessControlAllowMethods] = "GET, HEAD"
      if let asked = request.headers[.accessControlRequestHeaders] {
        response.headers[.accessControlAllowHeaders] = asked
      }
      response.headers[.accessControlMaxAge] = "86400"
    }
    return response
  }

  /// Why a POST's body cannot be read as rows, before any of it is: compressed, or a form rather than the file.
  static func unreadableBody(_ request: Request) -> String? {
    if let encoding = request.headers[.contentEncoding]?.trimmingCharacters(in: .whitespaces).lowercased(),
      !encoding.isEmpty, encoding != "identity"
    {
      return "a body with Content-Encoding \(encoding) is not read: send the rows uncompressed"
    }
    if let type = request.headers[.contentType]?.lowercased(), type.hasPrefix("multipart/") {
      return
        "a form (\(type.split(separator: ";").first ?? "")) is not read: send the file itself as the body "
        + "(curl --data-binary @points.csv, not curl -F)"
    }
    return nil
  }

  /// Whether `origin` (`http://127.0.0.1:8080`) is the one the request was sent to (its Host).
  static func isSameOrigin(_ origin: String, _ request: Request) -> Bool {
    guard let authority = request.head.authority?.lowercased(), !authority.isEmpty else { return false }
    let lowered = origin.lowercased()
    return lowered == "http://" + authority || lowered == "https://" + authority
  }

  /// The methods a served path takes: POST for the batch, GET and HEAD for everything else.
  static func allowedMethods(_ path: String) -> [HTTPRequest.Method] {
    path == "/v1/batch" ? [.post] : [.get, .head]
  }

  /// 405, with the methods the path takes.
  static func methodNotAllowed(_ request: Request) -> Response {
    let allowed = allowedMethods(request.uri.path).map(\.rawValue).joined(separator: ", ")
    var response = TunnelRoutes.response(
      TunnelRoutes.errorAnswer(
        405, "\(request.method.rawValue) is not served at \(request.uri.path); use \(allowed)",
        dialect: TunnelRoutes.Dialect(path: request.uri.path)))
    response.headers[.allow] = allowed
    return response
  }
}

/// Counts and latencies of requests, by route and status, for Prometheus at `/metrics`.
public final class ServerMetrics: Sendable {
  public let registry: PrometheusCollectorRegistry

  static let buckets: [Duration] = [
    .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2),
    .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
    .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5), .seconds(30),
  ]

  public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
    self.registry = registry
  }

  func record(route: String, status: Int, elapsed: Duration) {
    registry.makeCounter(
      descriptor: MetricNameDescriptor(
        metricName: "tunnel_http_requests", unitName: "total",
        helpText: "HTTP requests answered, by route and status."),
      labels: [("route", route), ("status", String(status))]
    ).increment()
    registry.makeDurationHistogram(
      descriptor: MetricNameDescriptor(
        metricName: "tunnel_http_request_duration", unitName: "seconds",
        helpText: "Time from a request's head to its response's head, by route."),
      labels: [("route", route)], buckets: Self.buckets
    ).record(elapsed)
  }

  /// The metrics in Prometheus's text format.
  var answer: TunnelAnswers.Answer {
    TunnelAnswers.Answer(
      contentType: "text/plain; version=0.0.4; charset=utf-8", body: registry.emitToBuffer())
  }
}
