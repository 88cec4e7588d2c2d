import Foundation
import XCTest

/// A batch body said to be GeoJSON that is not: a 400 when its start shows it, before any row; a response
/// that ends unfinished, and unclosed, when it breaks after rows have gone out.
extension ServeTests {
  func testABodyThatIsNotGeoJSONIsA400() throws {
    let server = try server
    let csv = "lat,lon\n56,8.5\n-56,-171.5\n"
    let cases: [(query: String, headers: [String], body: String)] = [
      ("", ["Content-Type: application/geo+json"], csv),
      ("", ["Content-Type: application/geo+json"], "garbage\u{1}\u{2}"),
      ("?input=geojson", [], csv),
      ("?input=geojson&format=csv", [], "[1, 2, 3]\n"),
      ("?format=geojson", ["Content-Type: application/geo+json; charset=utf-8"], "{\"type\": oops}\n"),
    ]
    for (query, headers, body) in cases {
      let response = try server.post("/v1/batch" + query, body: Data(body.utf8), headers: headers)
      XCTAssertEqual(response.status, 400, "\(query) \(headers): \(response.text)")
      XCTAssertTrue(response.complete, query)
      let error = (response.json as? [String: Any])?["error"] as? [String: Any]
      let message = error?["message"] as? String ?? ""
      XCTAssertTrue(message.contains("GeoJSON") && message.contains("line"), "\(query): \(response.text)")
    }
  }

  /// Rows have gone out with a 200 when the body breaks: the rest is not made to look whole, neither the
  /// document (no closing `]}`) nor the response (no last chunk; the connection is closed).
  func testGeoJSONThatBreaksLaterEndsTheResponseUnfinished() throws {
    let server = try server
    let first =
      #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"first"},"#
      + #""geometry":{"type":"Point","coordinates":[8.5,56]}},"#
    let rest = "\n{\"type\":\"Feature\", oops}]}\n"
    let connection = try Connection(port: server.port)
    try connection.write(
      Data(
        ("POST /v1/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/geo+json\r\n"
          + "Content-Length: \(first.utf8.count + rest.utf8.count)\r\nConnection: close\r\n\r\n" + first).utf8
      ))
    var received = Data()
    XCTAssertTrue(
      connection.read(until: "\"first\"", into: &received, seconds: 30),
      "the first row is answered before the rest is sent: \(String(decoding: received, as: UTF8.self))")
    try connection.write(Data(rest.utf8))
    received.append(connection.readAll(seconds: 30))
    let response = ServerProcess.parse(received)
    XCTAssertEqual(response.status, 200, response.text)
    XCTAssertEqual(response.headers["content-type"], "application/geo+json; charset=utf-8")
    XCTAssertFalse(response.complete, "the response ends without its last chunk")
    XCTAssertTrue(response.text.hasPrefix(#"{"type":"FeatureCollection","features":["#), response.text)
    XCTAssertTrue(response.text.contains("\"first\""), response.text)
    XCTAssertFalse(
      response.text.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("]}"),
      "the collection is left open: \(response.text)")
    XCTAssertNil(try? JSONSerialization.jsonObject(with: response.body), "the body is not a whole document")
  }
}
