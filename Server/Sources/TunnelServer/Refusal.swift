import NIOHTTP1

/// A request refused before it reaches the routes: one case per rule it breaks, each with the status it gets
/// and a message that says what was wrong and what to send instead.
enum Refusal: Error, Equatable {
  /// The bytes are not an HTTP/1 request, as NIO's parser found.
  case unreadable(HTTPParserError)
  /// HTTP/1.0 knows no Transfer-Encoding, so its body's end cannot be found (RFC 9112 §6.1).
  case transferEncodingOnHTTP10
  /// An HTTP/1.1 request without a `Host` field (RFC 9112 §3.2).
  case missingHost
  /// More than one `Host` field: which one the request is for is unclear (RFC 9112 §3.2).
  case repeatedHost
  /// A `Host` that is neither a name nor an address with an optional port.
  case invalidHost(String)
  /// A `Host` that a server on loopback does not answer (``HostCheck``).
  case foreignHost(String)
  /// `CONNECT`: a proxy's method.
  case connect

  /// 400 for a request that breaks HTTP/1.1's rules, 421 for a name this server does not answer to, 501 for a
  /// method it does not implement.
  var status: HTTPResponseStatus {
    switch self {
    case .unreadable, .transferEncodingOnHTTP10, .missingHost, .repeatedHost, .invalidHost: .badRequest
    case .foreignHost: .misdirectedRequest
    case .connect: .notImplemented
    }
  }

  /// The route it is counted under in the metrics: `malformed` for what is not valid HTTP/1.1, `refused` for
  /// valid requests this server does not serve.
  var route: String {
    switch self {
    case .foreignHost, .connect: "refused"
    default: "malformed"
    }
  }

  var message: String {
    switch self {
    case .unreadable(let error):
      "the request cannot be read: \(Self.reason(error))"
    case .transferEncodingOnHTTP10:
      "an HTTP/1.0 request cannot have a Transfer-Encoding (HTTP/1.0 has no chunked bodies): send it as "
        + "HTTP/1.1, or with a Content-Length"
    case .missingHost:
      "an HTTP/1.1 request must have a Host field: add one, such as 'Host: 127.0.0.1:8080'"
    case .repeatedHost:
      "the request has more than one Host field: send exactly one"
    case .invalidHost(let host):
      "the Host field '\(Self.shown(host))' is not a name or an address with an optional port"
    case .foreignHost(let host):
      "this server listens on loopback and answers only requests for a loopback name (localhost, 127.0.0.1, "
        + "[::1]), not for '\(Self.shown(host))', so that no web page can reach it through a name of its own "
        + "(DNS rebinding); ask for http://127.0.0.1 or http://localhost, or start the server with "
        + "--allowed-host \(Self.shown(HostCheck.parts(host).map { String($0.name) } ?? host)) if a proxy "
        + "of yours forwards that name"
    case .connect:
      "this server is not a proxy: CONNECT is not implemented; ask for its pages and API directly"
    }
  }

  /// What a parser error means, in words. NIO's `unknown`, `paused` and `strictModeAssertion` stand for
  /// several of llhttp's errors each; their sentences name the inputs that give them.
  static func reason(_ error: HTTPParserError) -> String {
    switch error {
    case .headerOverflow:
      "its request line and header fields are too long (at most 16 KiB a field, 64 KiB in all)"
    case .invalidURL, .invalidPath, .invalidQueryString, .invalidFragment, .invalidHost, .invalidPort:
      "its target is not a valid URL (a control character or a tab in it)"
    case .invalidMethod: "its method is not one HTTP knows (methods are upper-case)"
    case .invalidVersion: "its request line does not end in HTTP/1.0 or HTTP/1.1 and CRLF"
    case .invalidConstant:
      "its request line is not 'METHOD target HTTP/1.1' (a space in the target must be sent as %20)"
    case .invalidContentLength:
      "its Content-Length is not a single number, or comes with a Transfer-Encoding (send one or the other)"
    case .unexpectedContentLength: "it has more than one Content-Length"
    case .invalidChunkSize: "a chunk of its body has no valid size (a hexadecimal number and CRLF)"
    case .invalidHeaderToken:
      "a header field's name holds a character HTTP does not allow there (a space, a control character, a "
        + "byte above 127) or is empty, a value holds a control character (NUL), or a field is folded onto "
        + "the next line"
    case .lfExpected: "a line of it ends in CR without LF; end each line with CRLF"
    case .unknown:
      "its Transfer-Encoding does not end in chunked (the only one read) or comes with a Content-Length, or "
        + "a line of its head or of a chunk ends in LF alone (end each line with CRLF)"
    case .strictModeAssertion:
      "a line or a chunk of its body does not end as HTTP says: CR must be followed by LF, a chunk's data "
        + "by CRLF, and a chunk extension must be a token"
    case .paused:
      "it starts as HTTP/2 does (PRI * HTTP/2.0), and this server speaks HTTP/1.1 only (curl "
        + "--http2-prior-knowledge cannot be used; --http2 can)"
    default: "it is not well-formed HTTP/1.1 (\(error))"
    }
  }

  /// `text` as it may be shown in a message: at most 100 characters, control characters as `?`.
  private static func shown(_ text: String) -> String {
    String(
      String.UnicodeScalarView(
        text.unicodeScalars.prefix(100).map { $0.properties.generalCategory == .control ? "?" : $0 }))
  }
}
