import Hummingbird

/// Tunnel's routes, for `tunnel serve` or any Hummingbird application that mounts them:
///
///     let service = try TunnelService(data: PlaceData())
///     let router = Router(options: .autoGenerateHeadEndpoints)
///     TunnelRoutes(service: service).add(to: router)
///
/// One controller per dialect adds its routes, and each throws its dialect's errors, so that an error's
/// body has the shape its route's clients read:
/// - `/v1/where`, `/v1/antipode`, `/v1/find`, `/v1/dig`: Tunnel's own answers, as the commands print them
///   with `--format json`; `POST /v1/batch`: `tunnel batch` over HTTP; `/openapi.json`: the API's description.
/// - `/reverse`, `/search`, `/status` (and `.php`): Nominatim's dialect.
/// - `/photon/api`, `/photon/reverse`: Photon's.
/// - `/`: the Tunnel in a browser (``WebApp``), with `/app/…` its files, `/leaflet/…` Debian's Leaflet,
///   `/tiles/{z}/{x}/{y}.svg` the map tiles and `/v1/map.svg` both ends on Tunnel's own maps.
///
/// HEAD comes from the router's `.autoGenerateHeadEndpoints`, made from the GET with its `Content-Length`.
/// ``TunnelServer``'s router also answers every other method on a served path with a 405 that says which it
/// takes, in the path's dialect, and `OPTIONS` with the list.
public struct TunnelRoutes: Sendable {
  public let service: TunnelService
  public let batch: BatchLimits
  public let web: WebApp

  /// - Parameters:
  ///   - service: The loaded place data that every route answers from.
  ///   - batch: What `POST /v1/batch` accepts.
  ///   - web: Where the page and Leaflet's files come from.
  public init(service: TunnelService, batch: BatchLimits = BatchLimits(), web: WebApp = WebApp()) {
    self.service = service
    self.batch = batch
    self.web = web
  }

  /// Adds the routes to `router`.
  public func add<Context: RequestContext>(to router: Router<Context>) {
    _ = addRoutes(to: router)
  }

  /// Adds the routes to `router`, and says which paths they serve with which methods.
  func addRoutes<Context: RequestContext>(to router: Router<Context>) -> [ServedRoute] {
    TunnelAPIController(service: service, batch: batch).addRoutes(to: router)
      + NominatimController(service: service).addRoutes(to: router)
      + PhotonController(service: service).addRoutes(to: router)
      + PageController(service: service, web: web).addRoutes(to: router)
  }
}
