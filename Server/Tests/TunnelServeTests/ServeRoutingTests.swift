import Foundation
import XCTest

/// Which status a request gets: 404 for what is not there, 405 only for a method a path does not take;
/// one rule for a longitude however it is given; an error in the format the request asked for.
extension ServeTests {
  func testMissingFilesAre404AndOtherMethods405() throws {
    for path in ["/tiles/x", "/tiles/1/2", "/app/", "/app/nope.js", "/leaflet/nope.js"] {
      let response = try server.get(path)
      XCTAssertEqual(response.status, 404, "\(path): \(response.text)")
      XCTAssertFalse(response.text.contains("use GET"), "\(path): \(response.text)")
    }
    let delete = try server.send(
      Data("DELETE /tiles/1/0/0.svg HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
    XCTAssertEqual(delete.status, 405, delete.text)
    XCTAssertEqual(delete.headers["allow"], "GET, HEAD")
    let batch = try server.get("/v1/batch")
    XCTAssertEqual(batch.status, 405, batch.text)
    XCTAssertEqual(batch.headers["allow"], "POST")
  }

  func testALongitudeReadsTheSameAsParametersAndAsText() throws {
    let asText = try server.get("/v1/where?q=56,200")
    let asNumbers = try server.get("/v1/where?lat=56&lon=200")
    XCTAssertEqual(asText.status, 200, asText.text)
    XCTAssertEqual(asNumbers.text, asText.text)
    XCTAssertTrue(asNumbers.text.contains("-160"), asNumbers.text)
    XCTAssertEqual(try server.get("/reverse?lat=56&lon=200&format=jsonv2").status, 200)
    XCTAssertEqual(try server.get("/v1/where?lat=56&lon=400").status, 400)
    XCTAssertEqual(try server.get("/v1/where?q=56,400").status, 400)
  }

  func testABadEncodingIsAnsweredInTheFormatAsked() throws {
    let xml = try server.get("/reverse?lat=56&lon=8&format=xml&x=%zz")
    XCTAssertEqual(xml.status, 400, xml.text)
    XCTAssertTrue(xml.headers["content-type"]?.contains("xml") == true, "\(xml.headers)")
    XCTAssertTrue(xml.text.contains("<error>") && xml.text.contains("&apos;x&apos;"), xml.text)
    let json = try server.get("/reverse?lat=56&lon=8&format=jsonv2&x=%zz")
    XCTAssertEqual(json.status, 400, json.text)
    XCTAssertTrue(json.headers["content-type"]?.contains("json") == true, "\(json.headers)")
  }

  func testHeadSaysTheLengthOfTheGet() throws {
    for path in [
      "/status", "/v1/where?q=56,8.5", "/reverse?lat=56&lon=8.5", "/tiles/2/1/1.svg", "/app/tunnel.js",
    ] {
      let get = try server.get(path)
      XCTAssertEqual(get.status, 200, path)
      let head = try server.send(
        Data("HEAD \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
      XCTAssertEqual(head.status, 200, path)
      XCTAssertEqual(head.headers["content-length"], String(get.body.count), path)
      XCTAssertEqual(head.headers["content-type"], get.headers["content-type"], path)
      XCTAssertTrue(head.body.isEmpty, path)
    }
  }

  func testPreflightsAndCrossOriginPosts() throws {
    let server = try server
    let preflight = try server.send(
      Data(
        ("OPTIONS /v1/where?q=Skjern HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://example.org\r\n"
          + "Access-Control-Request-Method: GET\r\nAccess-Control-Request-Headers: accept\r\n"
          + "Connection: close\r\n\r\n").utf8))
    XCTAssertEqual(preflight.status, 204, preflight.text)
    XCTAssertEqual(preflight.headers["access-control-allow-origin"], "*")
    XCTAssertEqual(preflight.headers["access-control-allow-methods"], "GET, HEAD")
    XCTAssertTrue(preflight.headers["access-control-allow-headers"]?.contains("accept") == true)
    let batchPreflight = try server.send(
      Data(
        ("OPTIONS /v1/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://example.org\r\n"
          + "Access-Control-Request-Method: POST\r\nConnection: close\r\n\r\n").utf8))
    XCTAssertEqual(batchPreflight.status, 204)
    // A browser sends the POST only when the preflight names its method.
    XCTAssertFalse(batchPreflight.headers["access-control-allow-methods"]?.contains("POST") ?? false)
    let rows = "lat,lon\n56,8.5\n"
    func post(origin: String) throws -> ServerProcess.Response {
      try server.send(
        Data(
          ("POST /v1/batch?fields=country HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nOrigin: \(origin)\r\n"
            + "Content-Type: text/plain\r\nContent-Length: \(rows.utf8.count)\r\nConnection: close\r\n\r\n"
            + rows).utf8))
    }
    let foreign = try post(origin: "http://example.org")
    XCTAssertEqual(foreign.status, 403, foreign.text)
    XCTAssertTrue(foreign.text.contains("another origin"), foreign.text)
    let own = try post(origin: "http://127.0.0.1:\(server.port)")
    XCTAssertEqual(own.status, 200, own.text)
    XCTAssertTrue(own.text.contains("Denmark"), own.text)
  }

  func testCompressedBodiesAndFormsAre415() throws {
    let server = try server
    for (field, says) in [
      ("Content-Encoding: gzip", "Content-Encoding gzip"),
      ("Content-Encoding: deflate", "Content-Encoding deflate"),
      ("Content-Type: multipart/form-data; boundary=x", "--data-binary"),
    ] {
      let response = try server.post("/v1/batch", body: Data("lat,lon\n56,8.5\n".utf8), headers: [field])
      XCTAssertEqual(response.status, 415, "\(field): \(response.text)")
      XCTAssertTrue(response.text.contains(says), "\(field): \(response.text)")
    }
    let identity = try server.post(
      "/v1/batch?fields=country", body: Data("lat,lon\n56,8.5\n".utf8),
      headers: ["Content-Encoding: identity"])
    XCTAssertEqual(identity.status, 200, identity.text)
  }
}
