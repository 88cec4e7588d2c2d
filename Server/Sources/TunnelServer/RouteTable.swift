import HTTPTypes
import Hummingbird

/// One dialect's routes, added to a group of the router as they are named: each path once, with the
/// methods it takes. ``finish()`` then answers every other method on those paths with the dialect's 405
/// (and its `Allow`), and `OPTIONS` with the list, so that what is served, what each path allows and the
/// OpenAPI check all come from the routes themselves.
///
/// HEAD is the router's (`Router(options: .autoGenerateHeadEndpoints)`): made from the GET, with its
/// fields and `Content-Length`.
struct RouteTable<Context: RequestContext> {
  let group: RouterGroup<Context>
  /// The group's path, for the list of what is served.
  let prefix: String
  /// The dialect's error for a method a path does not take.
  let refusal: @Sendable (_ status: HTTPResponse.Status, _ message: String, _ fields: HTTPFields) -> any Error
  private(set) var routes: [ServedRoute] = []

  init(
    _ router: Router<Context>, prefix: String = "",
    refusal: @escaping @Sendable (HTTPResponse.Status, String, HTTPFields) -> any Error
  ) {
    group = router.group(RouterPath(prefix))
    self.prefix = prefix
    self.refusal = refusal
  }

  /// Adds `handler` for `method` at `path` (below the group's).
  mutating func on(
    _ path: String, _ method: HTTPRequest.Method,
    use handler: @escaping @Sendable (Request, Context) async throws -> some ResponseGenerator
  ) {
    group.on(RouterPath(path), method: method, use: handler)
    let full = prefix + path
    if let index = routes.firstIndex(where: { $0.path == full }) {
      routes[index].methods.append(method)
    } else {
      routes.append(ServedRoute(path: full, methods: [method]))
    }
  }

  mutating func get(
    _ path: String, use handler: @escaping @Sendable (Request, Context) async throws -> some ResponseGenerator
  ) {
    on(path, .get, use: handler)
  }

  /// The methods no route takes, answered on each path with 405.
  static var otherMethods: [HTTPRequest.Method] { [.get, .head, .post, .put, .delete, .patch, .trace] }

  /// Answers every other method on the table's paths: 405 with `Allow`, and `OPTIONS` (a request that is
  /// not a browser's preflight, which the CORS middleware answers) with 204 and `Allow`.
  func finish() {
    let refusal = refusal
    for route in routes {
      let path = String(route.path.dropFirst(prefix.count))
      let allow = route.allowed.map(\.rawValue).joined(separator: ", ")
      for method in Self.otherMethods where !route.allowed.contains(method) {
        group.on(RouterPath(path), method: method) { request, _ -> Response in
          throw refusal(
            .methodNotAllowed,
            "\(request.method.rawValue) is not served at \(request.uri.path); use \(allow)",
            [.allow: allow])
        }
      }
      group.on(RouterPath(path), method: .options) { _, _ -> Response in
        Response(status: .noContent, headers: [.allow: allow + ", OPTIONS"])
      }
    }
  }
}

/// A path that is served, with the methods it takes (HEAD wherever GET is).
struct ServedRoute: Sendable, Equatable {
  var path: String
  var methods: [HTTPRequest.Method]

  var allowed: [HTTPRequest.Method] { methods.contains(.get) ? methods + [.head] : methods }
}
