import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import Prometheus

/// What every request passes through first and last: its error as a response (the dialect's, from the
/// route that threw it; never an empty 500), a line in the access log, and its count and latency in the
/// metrics.
struct ServerMiddleware<Context: RequestContext>: RouterMiddleware {
  let metrics: ServerMetrics
  let logger: Logger?
  /// For the route a request refused before it (a method the path does not take) is counted under.
  let routes: ServedRoutes

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let started = ContinuousClock.now
    var response: Response
    do {
      response = try await next(request, context)
    } catch let error as any HTTPResponseError {
      response = (try? error.response(from: request, context: context)) ?? TunnelAPIError(error).response
    } catch {
      response = TunnelAPIError(error).response
    }
    let elapsed = ContinuousClock.now - started
    // A request the router found no responder for (a method its path does not take) is counted under the
    // path's route, not under the router's "NotFound"; only refusals pay for the lookup.
    let refused = response.status == .methodNotAllowed || request.method == .options
    let route =
      (refused ? routes.route(matching: request.uri.path)?.path : nil) ?? context.endpointPath ?? "unmatched"
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
}

/// Any page may read the answers (they are public data): CORS preflights are answered for GET and HEAD,
/// and never for POST, so that a browser sends no batch from another site.
func tunnelCORS<Context: RequestContext>() -> CORSMiddleware<Context> {
  CORSMiddleware(
    allowOrigin: .all, allowHeaders: [.accept, .acceptLanguage, .contentType, .ifNoneMatch],
    allowMethods: [.get, .head], maxAge: .seconds(86400))
}

/// What is refused before any route sees it, and the router's own errors in Tunnel's words:
/// - a POST from a page of another origin (a plain-text POST needs no preflight, so CORS alone would let a
///   page on any site make a server on this machine do batch work): 403;
/// - a POST body that cannot be read as rows (compressed, or a form): 415;
/// - a method a served path does not take, whatever the method (`QUERY`, `PROPFIND`): the path's dialect's
///   405, with `Allow`; `OPTIONS` (not a browser's preflight, which the CORS middleware answers): 204 with
///   `Allow`;
/// - a path no route serves: 404 with Tunnel's error body.
struct RequestChecks<Context: RequestContext>: RouterMiddleware {
  let routes: ServedRoutes

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    if request.method == .post, let origin = request.headers[.origin], !Self.isSameOrigin(origin, request) {
      throw TunnelAPIError(
        .forbidden,
        "a POST from a page of another origin (\(origin)) is refused: send it from a program, or from "
          + "this server's own page")
    }
    if request.method == .post, let problem = Self.unreadableBody(request) {
      throw TunnelAPIError(.unsupportedMediaType, problem)
    }
    do {
      return try await next(request, context)
    } catch let error as HTTPError {
      // The router's (no route for the path) and the framework's own errors.
      switch error.status {
      case .notFound:
        // The router says 404 for a method a path does not take, as for a path it does not serve.
        if let route = routes.route(matching: request.uri.path) {
          let allow = route.allowed.map(\.rawValue).joined(separator: ", ")
          if request.method == .options {
            return Response(status: .noContent, headers: [.allow: allow + ", OPTIONS"])
          }
          throw route.refusal(
            .methodNotAllowed,
            "\(request.method.rawValue) is not served at \(request.uri.path); use \(allow)",
            [.allow: allow])
        }
        throw TunnelAPIError(
          .notFound, "no such page: \(request.uri.path) (see /openapi.json for what is served)")
      default:
        throw TunnelAPIError(error.status, error.body ?? error.status.reasonPhrase)
      }
    }
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
    let (counter, histogram) = recorders.withLockedValue { recorders in
      let key = route + " " + String(status)
      if let made = recorders[key] { return made }
      let made = (
        registry.makeCounter(
          descriptor: MetricNameDescriptor(
            metricName: "tunnel_http_requests", unitName: "total",
            helpText: "HTTP requests answered, by route and status."),
          labels: [("route", route), ("status", String(status))]),
        registry.makeDurationHistogram(
          descriptor: MetricNameDescriptor(
            metricName: "tunnel_http_request_duration", unitName: "seconds",
            helpText: "Time from a request's head to its response's head, by route."),
          labels: [("route", route)], buckets: Self.buckets)
      )
      recorders[key] = made
      return made
    }
    counter.increment()
    histogram.record(elapsed)
  }

  /// Each route and status's counter and histogram, made once: the registry checks a metric's name and
  /// help text every time it is asked for one. Routes and statuses are few, so this stays small.
  private let recorders = NIOLockedValueBox<[String: (Counter, DurationHistogram)]>([:])

  /// The metrics in Prometheus's text format.
  var reply: Reply {
    Reply(contentType: "text/plain; version=0.0.4; charset=utf-8", body: registry.emitToBuffer())
  }
}
