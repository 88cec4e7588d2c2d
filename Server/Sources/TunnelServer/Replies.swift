import HTTPTypes
import Hummingbird
import NIOCore
import TunnelGeo
import TunnelReports

/// A route's answer: a body and its type, with `Content-Length` (so that a HEAD made from the GET says the
/// GET's length) and any further fields (a tile's ETag, a page's Content-Security-Policy).
struct Reply: ResponseGenerator {
  var contentType: String
  var body: [UInt8]
  var fields = HTTPFields()

  static let jsonType = "application/json; charset=utf-8"

  /// JSON text, with a final newline.
  static func json(_ text: String) -> Reply {
    Reply(contentType: jsonType, body: Array((text + "\n").utf8))
  }

  func response(from request: Request, context: some RequestContext) -> Response {
    response(status: .ok)
  }

  func response(status: HTTPResponse.Status) -> Response {
    var headers = fields
    headers[.contentType] = contentType
    headers[.contentLength] = String(body.count)
    return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
  }
}

/// The error of Tunnel's own routes (`/v1`, the page, the tiles, `/metrics`) and of a request no route
/// takes: `{"error":{"code":400,"message":"…"}}`, as Nominatim writes its own, with the names a misspelt
/// place may have meant as `"suggestions"`.
struct TunnelAPIError: HTTPResponseError {
  var status: HTTPResponse.Status
  var message: String
  var suggestions: [String] = []
  /// Further fields: a 405's `Allow`.
  var fields = HTTPFields()

  init(
    _ status: HTTPResponse.Status, _ message: String, suggestions: [String] = [], fields: HTTPFields = [:]
  ) {
    self.status = status
    self.message = message
    self.suggestions = suggestions
    self.fields = fields
  }

  /// The error a request gets for `error`: the service's own in its words, PROJ missing as a 503.
  init(_ error: any Error) {
    switch error {
    case let error as AnswerError:
      var suggestions: [String] = []
      if case .notFound(_, let names) = error { suggestions = names }
      self.init(error.status, error.message, suggestions: suggestions)
    case let error as ProjectionError:
      // PROJ's library missing on this machine: the service cannot answer, whatever the request.
      self.init(.serviceUnavailable, "\(error)")
    default: self.init(.internalServerError, "cannot write the answer: \(error)")
    }
  }

  /// The body, as bytes.
  var body: [UInt8] {
    var members: [(String, JSONValue)] = [("code", .integer(status.code)), ("message", .string(message))]
    if !suggestions.isEmpty { members.append(("suggestions", .array(suggestions.map { .string($0) }))) }
    return Array((JSONValue.object([("error", .object(members))]).text + "\n").utf8)
  }

  var response: Response {
    Reply(contentType: Reply.jsonType, body: body, fields: fields).response(status: status)
  }

  func response(from request: Request, context: some RequestContext) -> Response { response }
}

/// The error of Nominatim's routes, in the format the request asked for (JSON when it asked for none, or
/// for one Nominatim does not know), as Nominatim writes its own.
struct NominatimError: HTTPResponseError {
  var status: HTTPResponse.Status
  var message: String
  var format = NominatimFormat.json
  var fields = HTTPFields()

  /// The error for `error`, in `format`.
  init(_ error: any Error, format: NominatimFormat) {
    let tunnel = TunnelAPIError(error)
    status = tunnel.status
    message = tunnel.message
    self.format = format
  }

  init(
    _ status: HTTPResponse.Status, _ message: String, format: NominatimFormat = .json,
    fields: HTTPFields = [:]
  ) {
    self.status = status
    self.message = message
    self.format = format
    self.fields = fields
  }

  func response(from request: Request, context: some RequestContext) -> Response {
    Reply(
      contentType: format.contentType,
      body: Array(Nominatim.error(code: status.code, message: message, format: format).utf8), fields: fields
    ).response(status: status)
  }
}

/// The error of Photon's routes: `{"message":"…"}`, as Photon writes its own.
struct PhotonError: HTTPResponseError {
  var status: HTTPResponse.Status
  var message: String
  var fields = HTTPFields()

  init(_ error: any Error) {
    let tunnel = TunnelAPIError(error)
    status = tunnel.status
    message = tunnel.message
  }

  init(_ status: HTTPResponse.Status, _ message: String, fields: HTTPFields = [:]) {
    self.status = status
    self.message = message
    self.fields = fields
  }

  func response(from request: Request, context: some RequestContext) -> Response {
    Reply(contentType: Reply.jsonType, body: Photon.error(message: message).bytes, fields: fields)
      .response(status: status)
  }
}

extension AnswerError {
  var status: HTTPResponse.Status {
    switch self {
    case .badRequest: .badRequest
    case .notFound: .notFound
    case .data: .internalServerError
    }
  }
}
