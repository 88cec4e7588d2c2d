import HTTPTypes
import Hummingbird
import TunnelGeo

/// Nominatim's dialect: `/reverse`, `/search` and `/status`, and each with `.php` as Nominatim's older
/// paths, in any of Nominatim's formats. Its errors are ``NominatimError``s, in the format asked for.
struct NominatimController: Sendable {
  let service: TunnelService
  /// `/status`'s answers, made once.
  let statusText: Reply
  let statusJSON: Reply

  init(service: TunnelService) {
    self.service = service
    let updated = TunnelService.dataUpdated(service.data)
    func status(_ format: String) -> Reply {
      let status = Nominatim.status(format: format, dataUpdated: updated, softwareVersion: TunnelVersion.text)
      return Reply(contentType: status.contentType, body: Array(status.body.utf8))
    }
    statusText = status("text")
    statusJSON = status("json")
  }

  func addRoutes<Context: RequestContext>(to router: Router<Context>) -> [ServedRoute] {
    let service = service
    var nominatim = RouteTable(router) { NominatimError($0, $1, fields: $2) }
    for suffix in ["", ".php"] {
      nominatim.get("/reverse" + suffix) { request, _ in
        try Self.answer(request, default: .xml, service.nominatimReverse)
      }
      nominatim.get("/search" + suffix) { request, _ in
        try Self.answer(request, default: .jsonv2, service.nominatimSearch)
      }
      nominatim.get("/status" + suffix) { [self] request, _ in try status(request) }
    }
    return nominatim.routes
  }

  /// `body`'s answer in the format the request asks for (`fallback` when it asks for none), or its error in
  /// that format (JSON when the format is not one Nominatim knows, as Nominatim does).
  static func answer(
    _ request: Request, default fallback: NominatimFormat,
    _ body: (QueryParameters, NominatimFormat) throws(AnswerError) -> String
  ) throws(NominatimError) -> Reply {
    let query: QueryParameters
    do {
      query = try QueryParameters(request.uri.query.map { Substring($0) })
    } catch {
      let readable = QueryParameters.readable(request.uri.query.map { Substring($0) })
      throw NominatimError(.badRequest, error.description, format: readable["format"] == "xml" ? .xml : .json)
    }
    var format = NominatimFormat.json
    do {
      format = try TunnelService.nominatimFormat(query, default: fallback)
      return Reply(contentType: format.contentType, body: Array(try body(query, format).utf8))
    } catch {
      throw NominatimError(error, format: format)
    }
  }

  /// `/status`: `OK`, or Nominatim's JSON status with `format=json`.
  func status(_ request: Request) throws(NominatimError) -> Reply {
    let query: QueryParameters
    do {
      query = try QueryParameters(request.uri.query.map { Substring($0) })
    } catch {
      throw NominatimError(.badRequest, error.description)
    }
    switch query["format"] {
    case nil, "text": return statusText
    case "json": return statusJSON
    case let format?:
      throw NominatimError(
        .badRequest, "Parameter 'format' must be one of: text, json (not \(EchoedText.quoted(format)))")
    }
  }
}
