import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers

/// One dialect's routes, added to a group of the router as they are named: each path once, with the
/// methods it takes and the dialect's error for the others, so that what is served, what each path allows
/// (``RequestChecks``' 405s and `OPTIONS`) and the OpenAPI check all come from the routes themselves.
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
      routes.append(ServedRoute(path: full, methods: [method], refusal: refusal))
    }
  }

  mutating func get(
    _ path: String, use handler: @escaping @Sendable (Request, Context) async throws -> some ResponseGenerator
  ) {
    on(path, .get, use: handler)
  }
}

/// A path that is served, with the methods it takes (HEAD wherever GET is).
struct ServedRoute: Sendable {
  /// As the router takes it: `/v1/where`, `/tiles/:z/:x/:file`.
  var path: String
  var methods: [HTTPRequest.Method]
  /// The dialect's error for a method the path does not take.
  var refusal: @Sendable (_ status: HTTPResponse.Status, _ message: String, _ fields: HTTPFields) -> any Error

  var allowed: [HTTPRequest.Method] { methods.contains(.get) ? methods + [.head] : methods }

  /// Whether a request's path is this one, as the router matches it: segment by segment, `:name` standing
  /// for any one segment, empty segments (a trailing slash) ignored.
  func matches(_ requestPath: String) -> Bool {
    let pattern = path.split(separator: "/")
    let given = requestPath.split(separator: "/")
    guard pattern.count == given.count else { return false }
    return zip(pattern, given).allSatisfy { $0.hasPrefix(":") || $0 == $1 }
  }
}

/// Every route the server serves, known once they are all added (the middleware that reads them is added
/// before them, as Hummingbird's middleware must be).
final class ServedRoutes: Sendable {
  private let routes = NIOLockedValueBox<[ServedRoute]>([])

  func set(_ routes: [ServedRoute]) {
    self.routes.withLockedValue { $0 = routes }
  }

  /// The route a request's path is, whatever its method.
  func route(matching path: String) -> ServedRoute? {
    routes.withLockedValue { $0.first { $0.matches(path) } }
  }
}
