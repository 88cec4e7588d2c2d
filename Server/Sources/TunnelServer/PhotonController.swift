import HTTPTypes
import Hummingbird

/// Photon's dialect under `/photon`: `/photon/api` (search) and `/photon/reverse`, GeoJSON feature
/// collections as Photon writes them. Its errors are ``PhotonError``s.
struct PhotonController: Sendable {
  let service: TunnelService

  func addRoutes<Context: RequestContext>(to router: Router<Context>) -> [ServedRoute] {
    let service = service
    var photon = RouteTable(router, prefix: "/photon") { PhotonError($0, $1, fields: $2) }
    // The router takes "/photon/api/" for "/photon/api" too.
    photon.get("/api") { request, _ in try Self.answer(request, service.photonSearch) }
    photon.get("/reverse") { request, _ in try Self.answer(request, service.photonReverse) }
    return photon.routes
  }

  /// The places `body` finds for the request's parameters, as a feature collection.
  static func answer(
    _ request: Request, _ body: (QueryParameters) throws(AnswerError) -> [GeocodedPlace]
  ) throws(PhotonError) -> Reply {
    do {
      let query = try QueryParameters(request.uri.query.map { Substring($0) })
      return Reply(contentType: Reply.jsonType, body: Photon.featureCollection(try body(query)).bytes)
    } catch let error as QueryParameters.Problem {
      throw PhotonError(.badRequest, error.description)
    } catch {
      throw PhotonError(error)
    }
  }
}
