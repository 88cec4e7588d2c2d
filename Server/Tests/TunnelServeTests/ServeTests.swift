import Foundation
import XCTest

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `tunnel serve` as clients meet it: its answers byte for byte against the commands', the dialects' shapes,
/// what bad requests get, batch uploads and their limits, and how it stops.
final class ServeTests: XCTestCase {
  /// One server for the tests that only ask it questions.
  nonisolated(unsafe) static var shared: ServerProcess?

  var server: ServerProcess {
    get throws {
      if let server = Self.shared { return server }
      let server = try ServerProcess()
      Self.shared = server
      return server
    }
  }

  override class func tearDown() {
    if let server = shared {
      let status = server.stop()
      XCTAssertEqual(status, 0, server.errorText)
      XCTAssertTrue(server.errorText.contains("stopped"), server.errorText)
    }
    shared = nil
    super.tearDown()
  }

  // MARK: The page, its files and the tiles

  static let webFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Sources/TunnelServer/Web")

  /// The page and every one of its files come from the binary, byte for byte the files in the package, with
  /// a Content-Security-Policy that allows nothing from another host.
  func testPageFilesAreServed() throws {
    let server = try server
    let names = try FileManager.default.contentsOfDirectory(atPath: Self.webFolder.path).filter {
      !$0.hasPrefix(".")
    }
    XCTAssertTrue(names.contains("index.html"))
    for name in names {
      let response = try server.get("/app/" + name)
      XCTAssertEqual(response.status, 200, "\(name): \(response.text)")
      XCTAssertEqual(
        response.body, try Data(contentsOf: Self.webFolder.appendingPathComponent(name)),
        "\(name) is not built into the binary as it is in the package")
    }
    for path in ["/", "/index.html"] {
      let page = try server.get(path)
      XCTAssertEqual(page.status, 200)
      XCTAssertEqual(page.headers["content-type"], "text/html; charset=utf-8")
      let policy = try XCTUnwrap(page.headers["content-security-policy"])
      XCTAssertTrue(policy.contains("default-src 'self'"), policy)
      XCTAssertFalse(policy.contains("http"), "the policy names another host: \(policy)")
      XCTAssertEqual(page.body, try Data(contentsOf: Self.webFolder.appendingPathComponent("index.html")))
    }
    for path in [
      "/app/nothing.js", "/app/..%2FPackage.swift", "/app/.hidden.js", "/app/tunnel.exe", "/leaflet/x.js",
    ] {
      let response = try server.get(path)
      XCTAssertEqual(response.status, 404, path)
      XCTAssertNotNil(response.json, "\(path): \(response.text)")
    }
  }

  /// Leaflet comes from Debian's libjs-leaflet, which Scripts/setup installs.
  func testLeafletFromDebian() throws {
    let installed = "/usr/share/javascript/leaflet/leaflet.js"
    let response = try server.get("/leaflet/leaflet.js")
    guard FileManager.default.fileExists(atPath: installed) else {
      XCTAssertEqual(response.status, 404)
      XCTAssertTrue(response.text.contains("libjs-leaflet"), response.text)
      return
    }
    XCTAssertEqual(response.status, 200)
    XCTAssertEqual(response.body, try Data(contentsOf: URL(fileURLWithPath: installed)))
    XCTAssertEqual(response.headers["content-type"], "text/javascript; charset=utf-8")
    XCTAssertEqual(try server.get("/leaflet/leaflet.css").status, 200)
    XCTAssertEqual(try server.get("/leaflet/images/marker-icon.png").headers["content-type"], "image/png")
  }

  /// Tiles: SVG with an ETag that a second request can name to get a 304; tiles that do not exist are a
  /// JSON 404 that says which do.
  func testTilesAreCached() throws {
    let server = try server
    let tile = try server.get("/tiles/3/4/2.svg")
    XCTAssertEqual(tile.status, 200, tile.text)
    XCTAssertEqual(tile.headers["content-type"], "image/svg+xml")
    XCTAssertTrue(tile.text.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
    XCTAssertEqual(tile.headers["cache-control"], "public, max-age=86400")
    let tag = try XCTUnwrap(tile.headers["etag"])
    let again = try server.get("/tiles/3/4/2.svg", headers: ["If-None-Match: \(tag)"])
    XCTAssertEqual(again.status, 304)
    XCTAssertEqual(again.headers["etag"], tag)
    XCTAssertTrue(again.body.isEmpty)
    XCTAssertEqual(try server.get("/tiles/3/4/2.svg", headers: ["If-None-Match: \"other\""]).status, 200)
    XCTAssertNotEqual(try server.get("/tiles/3/5/2.svg").headers["etag"], tag)
    for path in [
      "/tiles/13/0/0.svg", "/tiles/2/4/0.svg", "/tiles/2/0/-1.svg", "/tiles/a/0/0.svg", "/tiles/1/0/0.png",
    ] {
      let response = try server.get(path)
      XCTAssertEqual(response.status, 404, path)
      XCTAssertTrue(response.text.contains("/tiles/{z}/{x}/{y}.svg"), "\(path): \(response.text)")
    }
  }

  /// Both ends on Tunnel's own maps, which reach the poles where the tiles end.
  func testMapPictureAtThePole() throws {
    let response = try server.get("/v1/map.svg?lat=89.5&lon=0")
    XCTAssertEqual(response.status, 200, response.text)
    XCTAssertEqual(response.headers["content-type"], "image/svg+xml")
    XCTAssertTrue(response.text.contains("<svg"))
    XCTAssertEqual(try server.get("/v1/map.svg?lat=91&lon=0").status, 400)
    XCTAssertEqual(try server.get("/v1/map.svg?q=Skjern&width=5").status, 400)
  }

  /// A name nothing has gets suggestions as a list, for the page's search box.
  func testFindSuggestsNames() throws {
    let response = try server.get("/v1/find?q=Skjren")
    XCTAssertEqual(response.status, 404)
    let error = try XCTUnwrap((response.json as? [String: Any])?["error"] as? [String: Any])
    let suggestions = try XCTUnwrap(error["suggestions"] as? [String])
    XCTAssertFalse(suggestions.isEmpty)
    XCTAssertTrue((error["message"] as? String)?.contains(suggestions[0]) ?? false)
  }

  // MARK: Tunnel's own API

  func testOwnAnswersAreTheCommandsBytes() throws {
    let server = try server
    let cases: [(path: String, command: [String])] = [
      ("/v1/where?q=56+8.5", ["where", "56", "8.5"]),
      ("/v1/where?lat=-56&lon=-171.5", ["where", "-56", "-171.5"]),
      ("/v1/where?q=S%C3%B8nderborg&precision=4", ["where", "Sønderborg", "--precision", "4"]),
      ("/v1/antipode?q=Skjern", ["antipode", "Skjern"]),
      ("/v1/antipode?q=90+0", ["antipode", "90", "0"]),
      ("/v1/dig?from=Skjern&to=Wellington", ["dig", "Skjern", "Wellington"]),
      ("/v1/find?q=Springfield%2C+IL&limit=3", ["find", "Springfield, IL", "--limit", "3"]),
      ("/v1/find?q=%D0%9A%D0%BE%D0%BF%D0%B5%D0%BD%D0%B3%D0%B0%D0%B3%D0%B5%D0%BD", ["find", "Копенгаген"]),
    ]
    for (path, command) in cases {
      let response = try server.get(path)
      let expected = try TunnelProcess.run(command + ["--format", "json"])
      XCTAssertEqual(expected.status, 0, expected.standardError)
      XCTAssertEqual(response.status, 200, "\(path): \(response.text)")
      XCTAssertEqual(response.text, expected.standardOutput, path)
      XCTAssertEqual(response.headers["content-type"], "application/json; charset=utf-8", path)
    }
  }

  func testOwnErrorsSayWhatWasWrong() throws {
    let server = try server
    let cases: [(path: String, status: Int, words: String)] = [
      ("/v1/where", 400, "give 'q'"),
      ("/v1/where?q=", 400, "'q' is empty"),
      ("/v1/where?q=91+0", 400, "latitude"),
      ("/v1/where?lat=91&lon=0", 400, "between -90 and 90"),
      ("/v1/where?lat=abc&lon=0", 400, "'lat' must be a number"),
      ("/v1/where?lat=1", 400, "give both 'lat' and 'lon'"),
      ("/v1/where?q=Skjern&lat=1&lon=2", 400, "not both"),
      ("/v1/where?q=Xqzzyvillle", 400, "Xqzzyvillle"),
      ("/v1/where?q=56+8.5&precision=99", 400, "'precision'"),
      ("/v1/find?q=Qqqqqqqqqq", 404, "Qqqqqqqqqq"),
      ("/v1/find?q=Paris&limit=0", 400, "'limit'"),
      ("/v1/dig?from=Paris", 400, "'from' and 'to'"),
      ("/v1/where?q=%zz", 400, "parameter 'q'"),
      ("/v1/where?q=%FF%FE", 400, "parameter 'q'"),
      ("/v1/where?%C3=1", 400, "its name"),
      ("/nowhere", 404, "/nowhere"),
    ]
    for (path, status, words) in cases {
      let response = try server.get(path)
      XCTAssertEqual(response.status, status, "\(path): \(response.text)")
      let error = (response.json as? [String: Any])?["error"] as? [String: Any]
      XCTAssertEqual(error?["code"] as? Int, status, path)
      let message = error?["message"] as? String ?? ""
      XCTAssertTrue(message.contains(words), "\(path): \(message)")
    }
  }

  func testQueryStringsAreReadAsFormsWriteThem() throws {
    let server = try server
    let expected = try TunnelProcess.run(["where", "56", "8.5", "--format", "json"]).standardOutput
    // `+` is a space; a repeated name keeps its last value; unknown names are ignored; `;` is not a separator.
    for path in [
      "/v1/where?q=56+8.5", "/v1/where?q=56%208.5", "/v1/where?q=Paris&q=56+8.5",
      "/v1/where?q=56+8.5&key=x&email=a%40b.c&&",
    ] {
      XCTAssertEqual(try server.get(path).text, expected, path)
    }
  }

  // MARK: Nominatim

  func testNominatimReverseInEveryFormat() throws {
    let server = try server
    for format in ["json", "jsonv2"] {
      for path in [
        "/reverse?lat=56&lon=8.5&format=\(format)",
        "/reverse.php?format=\(format)&lat=56&lon=8.5&key=k&email=x",
      ] {
        let response = try server.get(path)
        XCTAssertEqual(response.status, 200, response.text)
        let answer = try XCTUnwrap(response.json as? [String: Any], response.text)
        XCTAssertEqual(answer["name"] as? String, "Skjern")
        XCTAssertNotNil(answer["lat"] as? String, "lat is a string, as Nominatim writes it")
        XCTAssertEqual((answer["boundingbox"] as? [String])?.count, 4)
        let address = try XCTUnwrap(answer["address"] as? [String: String])
        XCTAssertEqual(address["country"], "Denmark")
        XCTAssertEqual(address["country_code"], "dk")
        XCTAssertEqual(address["ISO3166-2-lvl4"], "DK-82")
        XCTAssertEqual(address["state"], "Midtjylland")
        XCTAssertNotNil(answer[format == "json" ? "class" : "category"])
      }
    }
    let geojson = try XCTUnwrap(
      try server.get("/reverse?lat=56&lon=8.5&format=geojson").json as? [String: Any])
    XCTAssertEqual(geojson["type"] as? String, "FeatureCollection")
    let geocodejson = try XCTUnwrap(
      try server.get("/reverse?lat=56&lon=8.5&format=geocodejson").json as? [String: Any])
    XCTAssertNotNil(geocodejson["geocoding"])
    let xml = try server.get("/reverse?lat=56&lon=8.5&format=xml")
    XCTAssertEqual(xml.headers["content-type"], "text/xml; charset=utf-8")
    XCTAssertTrue(XMLParser(data: xml.body).parse(), xml.text)
    XCTAssertTrue(xml.text.contains("<country_code>dk</country_code>"), xml.text)
    // Nominatim's default format for /reverse is XML.
    XCTAssertTrue(try server.get("/reverse?lat=56&lon=8.5").text.hasPrefix("<?xml"))
  }

  /// A US county and a French département are the address's `county`, as Nominatim names them; a
  /// département's ISO 3166-2 code is `ISO3166-2-lvl6`.
  func testCountiesAndDepartementsInTheAddress() throws {
    let server = try server
    let denver = try XCTUnwrap(
      try server.get("/reverse?lat=39.74&lon=-104.99&format=jsonv2").json as? [String: Any])
    let address = try XCTUnwrap(denver["address"] as? [String: String])
    XCTAssertEqual(address["county"], "Denver County")
    XCTAssertEqual(address["state"], "Colorado")
    XCTAssertNil(address["ISO3166-2-lvl6"])
    let versailles = try XCTUnwrap(
      try server.get("/reverse?lat=48.80&lon=2.13&format=jsonv2").json as? [String: Any])
    let french = try XCTUnwrap(versailles["address"] as? [String: String])
    XCTAssertEqual(french["county"], "Yvelines")
    XCTAssertEqual(french["ISO3166-2-lvl6"], "FR-78")
    XCTAssertEqual(french["ISO3166-2-lvl4"], "FR-IDF")
    let photon = try XCTUnwrap(try server.get("/photon/reverse?lat=39.74&lon=-104.99").json as? [String: Any])
    let features = try XCTUnwrap(photon["features"] as? [[String: Any]])
    let properties = try XCTUnwrap(features.first?["properties"] as? [String: Any])
    XCTAssertEqual(properties["county"] as? String, "Denver County")
  }

  /// A region the ISO lists write inverted ("Madrid, Comunidad de") reads as the text says it, in the address,
  /// the display name and a search for it.
  func testInvertedRegionNamesReadTheRightWayRound() throws {
    let server = try server
    let madrid = try XCTUnwrap(
      try server.get("/reverse?lat=40.42&lon=-3.70&format=jsonv2").json as? [String: Any])
    let address = try XCTUnwrap(madrid["address"] as? [String: String])
    XCTAssertEqual(address["state"], "Comunidad de Madrid")
    XCTAssertEqual(madrid["display_name"] as? String, "Madrid Centro, Comunidad de Madrid, Spain")
    let region = try XCTUnwrap(
      try server.get("/reverse?lat=40.42&lon=-3.70&format=jsonv2&zoom=5").json as? [String: Any])
    XCTAssertEqual(region["name"] as? String, "Comunidad de Madrid")
  }

  func testNominatimAtSeaNamesTheSea() throws {
    let server = try server
    let answer = try XCTUnwrap(
      try server.get("/reverse?lat=-56&lon=-171.5&format=jsonv2").json as? [String: Any])
    XCTAssertEqual(answer["name"] as? String, "South Pacific Ocean")
    // Named as `tunnel where` names the point: the water and the way to land.
    XCTAssertEqual(
      answer["display_name"] as? String, "South Pacific Ocean, 952.5 km from Antipodes Island (New Zealand)")
    XCTAssertNil(answer["error"])
  }

  func testNominatimZoomChoosesTheArea() throws {
    let server = try server
    let country = try XCTUnwrap(
      try server.get("/reverse?lat=56&lon=8.5&format=jsonv2&zoom=3").json as? [String: Any])
    XCTAssertEqual(country["name"] as? String, "Denmark")
    let region = try XCTUnwrap(
      try server.get("/reverse?lat=56&lon=8.5&format=jsonv2&zoom=5").json as? [String: Any])
    XCTAssertEqual(region["name"] as? String, "Midtjylland")
  }

  func testNominatimSearchAndStatus() throws {
    let server = try server
    let found = try XCTUnwrap(
      try server.get("/search?q=K%C3%B8benhavn&format=json&limit=1").json as? [[String: Any]])
    XCTAssertEqual(found.count, 1)
    XCTAssertEqual(found.first?["name"] as? String, "Copenhagen")
    XCTAssertEqual(try server.get("/search?q=Qqqqqqqqqq&format=json").text, "[]")
    XCTAssertEqual(try server.get("/status").text, "OK")
    let status = try XCTUnwrap(try server.get("/status.php?format=json").json as? [String: Any])
    XCTAssertEqual(status["status"] as? Int, 0)
  }

  func testNominatimErrors() throws {
    let server = try server
    for path in [
      "/reverse?lat=91&lon=0&format=json", "/reverse?lat=56&format=json", "/reverse?lat=x&lon=1&format=json",
      "/reverse?lat=56&lon=8.5&format=yaml", "/reverse?lat=56&lon=8.5&zoom=40&format=json",
      "/search?format=json",
      "/reverse?lat=%zz&lon=1",
    ] {
      let response = try server.get(path)
      XCTAssertEqual(response.status, 400, path)
      let error = (response.json as? [String: Any])?["error"] as? [String: Any]
      XCTAssertEqual(error?["code"] as? Int, 400, "\(path): \(response.text)")
      XCTAssertFalse((error?["message"] as? String ?? "").isEmpty, path)
    }
    let xml = try server.get("/reverse?lat=91&lon=0&format=xml")
    XCTAssertEqual(xml.status, 400)
    XCTAssertTrue(xml.text.contains("<code>400</code>"), xml.text)
  }

  // MARK: Photon

  func testPhotonDialect() throws {
    let server = try server
    for path in ["/photon/reverse?lat=56&lon=8.5", "/photon/reverse/?lat=56&lon=8.5"] {
      let collection = try XCTUnwrap(try server.get(path).json as? [String: Any], path)
      let features = try XCTUnwrap(collection["features"] as? [[String: Any]])
      let properties = try XCTUnwrap(features.first?["properties"] as? [String: Any])
      XCTAssertEqual(properties["name"] as? String, "Skjern")
      XCTAssertEqual(properties["countrycode"] as? String, "DK")
    }
    let search = try XCTUnwrap(try server.get("/photon/api/?q=Springfield&limit=2").json as? [String: Any])
    XCTAssertEqual((search["features"] as? [Any])?.count, 2)
    XCTAssertEqual(
      try server.get("/photon/api?q=Qqqqqqqqqq").text, #"{"type":"FeatureCollection","features":[]}"#)
    let error = try server.get("/photon/api")
    XCTAssertEqual(error.status, 400)
    XCTAssertNotNil((error.json as? [String: Any])?["message"] as? String, error.text)
  }

  // MARK: HTTP

  func testMethodsHeadCorsAndMetrics() throws {
    let server = try server
    let post = try server.post("/reverse?lat=56&lon=8.5", body: Data())
    XCTAssertEqual(post.status, 405)
    XCTAssertEqual(post.headers["allow"], "GET, HEAD")
    let head = try server.send(
      Data("HEAD /v1/where?q=56+8.5 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
    XCTAssertEqual(head.status, 200)
    XCTAssertTrue(head.body.isEmpty)
    _ = try server.get("/v1/where?q=56+8.5")
    let metrics = try server.get("/metrics").text
    XCTAssertTrue(metrics.contains(#"tunnel_http_requests_total{route="/v1/where",status="200"}"#), metrics)
    XCTAssertTrue(metrics.contains("tunnel_http_request_duration_seconds_bucket"), metrics)
  }

  func testRequestsThatAreNotHTTPGetA400SayingWhy() throws {
    let server = try server
    let cases: [(request: String, words: String)] = [
      (
        "GET /v1/where?q=\(String(repeating: "a", count: 70_000)) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        "too long"
      ),
      ("NONSENSE\r\n\r\n", "method"),
      ("GET /status HTTP/9.9\r\n\r\n", "HTTP/1.0 or HTTP/1.1"),
      ("GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n", "Content-Length"),
      ("POST /v1/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "chunk"),
    ]
    for (request, words) in cases {
      let response = try server.send(Data(request.utf8), seconds: 10)
      XCTAssertEqual(response.status, 400, String(request.prefix(40)))
      XCTAssertEqual(response.headers["connection"], "close")
      let message =
        ((response.json as? [String: Any])?["error"] as? [String: Any])?["message"] as? String ?? ""
      XCTAssertTrue(message.contains(words), "\(request.prefix(40)): \(message)")
    }
  }

  func testMalformedRequestsNeverGetAnEmpty500() throws {
    let server = try server
    let requests = [
      "GET /v1/where?q=56+8.5 HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: \(String(repeating: "a", count: 100_000))\r\n\r\n",
      "NONSENSE\r\n\r\n",
      "GET /v1/where?q=%%% HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
      "GET /v1/where?q=56+8.5&q=1&q=2&q=3 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
    ]
    for request in requests {
      let response = try server.send(Data(request.utf8), seconds: 10)
      XCTAssertTrue(
        response.status == 0 || response.status < 500, "\(request.prefix(60)): \(response.status)")
      if response.status >= 400 { XCTAssertFalse(response.body.isEmpty && response.status != 400, request) }
    }
    XCTAssertEqual(try server.get("/status").text, "OK", "the server still answers")
  }

  // MARK: Batch

  func testBatchIsTunnelBatchOverHTTP() throws {
    let server = try server
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "serve-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var csv = "id,lat,lon\n"
    for index in 0..<3000 {
      csv += "\(index),\(Double(index % 170) - 85.25),\(Double(index * 7 % 360) - 179.5)\n"
    }
    csv += "bad,abc,1\n"
    let inputs: [(name: String, body: String, query: String, options: [String])] = [
      ("points.csv", csv, "", []),
      (
        "points.csv", csv, "?fields=country,timeZone&antipode=true&format=jsonl",
        ["--fields", "country,timeZone", "--antipode", "--format", "jsonl"]
      ),
      (
        "points.jsonl", #"{"lat":56,"lon":8.5,"name":"Skjern"}"# + "\n" + #"{"lat":-56,"lon":-171.5}"# + "\n",
        "?format=geojson&precision=4", ["--format", "geojson", "--precision", "4"]
      ),
      ("points.tsv", "lat\tlon\n56\t8.5\n", "?input=tsv", ["--input-format", "tsv"]),
    ]
    for (name, body, query, options) in inputs {
      let file = directory.appendingPathComponent(name)
      try body.write(to: file, atomically: true, encoding: .utf8)
      let expected = try TunnelProcess.run(["batch", file.path] + options)
      let response = try server.post(
        "/v1/batch" + query, body: Data(body.utf8),
        headers: name.hasSuffix("jsonl") ? ["Content-Type: application/x-ndjson"] : [])
      XCTAssertEqual(response.status, 200, response.text)
      XCTAssertTrue(response.complete, name + query)
      XCTAssertEqual(response.text, expected.standardOutput, name + query)
    }
    // Chunked: the same rows.
    var chunked = Data(
      "POST /v1/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        .utf8)
    let bytes = Data(csv.utf8)
    var offset = 0
    while offset < bytes.count {
      let piece = bytes[offset..<min(bytes.count, offset + 1000)]
      chunked.append(Data((String(piece.count, radix: 16) + "\r\n").utf8) + piece + Data("\r\n".utf8))
      offset += piece.count
    }
    chunked.append(Data("0\r\n\r\n".utf8))
    let file = directory.appendingPathComponent("points.csv")
    try csv.write(to: file, atomically: true, encoding: .utf8)
    let response = try server.send(chunked)
    XCTAssertTrue(response.complete)
    XCTAssertEqual(response.text, try TunnelProcess.run(["batch", file.path]).standardOutput)
  }

  func testBatchProblemsBeforeTheFirstRowAre400() throws {
    let server = try server
    let cases: [(query: String, body: String, words: String)] = [
      ("", "hello world\n", "lat_column"),
      ("?fields=colour", "lat,lon\n1,2\n", "colour"),
      ("?format=xlsx", "lat,lon\n1,2\n", "'format'"),
      ("?lat_column=x&lon_column=x", "x\n1\n", "x"),
      (
        "", "latitude,lat,lon\n10,56,8.5\n",
        "could be the latitude ('latitude', 'lat'); choose one with lat_column"
      ),
      ("?lat_column=lat", "lat,lng,lon\n56,10,8.5\n", "('lng', 'lon'); choose one with lon_column"),
      ("?lat_column=nope", "lat,lon\n56,8.5\n", "lat_column 'nope' is not a column"),
      ("?antipode=perhaps", "lat,lon\n1,2\n", "'antipode'"),
    ]
    for (query, body, words) in cases {
      let response = try server.post("/v1/batch" + query, body: Data(body.utf8))
      XCTAssertEqual(response.status, 400, "\(query): \(response.text)")
      let message =
        ((response.json as? [String: Any])?["error"] as? [String: Any])?["message"] as? String ?? ""
      XCTAssertTrue(message.contains(words), "\(query): \(message)")
    }
  }

  /// A client that sends its whole body before it reads a byte of the answer (Python's urllib and
  /// `requests`, most HTTP libraries) gets the whole of a large batch: the server reads the body ahead of
  /// the batch instead of waiting for the client to read.
  func testSendThenReadClientGetsAWholeLargeBatch() throws {
    let server = try server
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "serve-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let rows = 500_000
    let body = Self.points(rows)
    let file = directory.appendingPathComponent("points.csv")
    try body.write(to: file)
    let started = Date()
    let response = try server.post("/v1/batch?fields=country", body: body)
    let elapsed = Date().timeIntervalSince(started)
    XCTAssertEqual(response.status, 200, response.text.prefix(500) + "")
    XCTAssertTrue(response.complete, "answered in \(elapsed) s")
    let expected = try TunnelProcess.run(["batch", file.path, "--fields", "country"]).standardOutput
    XCTAssertEqual(response.text.utf8.count { $0 == 0x0A }, rows + 1)
    XCTAssertTrue(response.text == expected, "the same bytes as tunnel batch")
  }

  /// A client that reads as it sends gets each row's answer as soon as the row has come, before the body
  /// ends: reading the body ahead does not hold rows back.
  func testBatchAnswersRowsAsTheyCome() throws {
    let server = try server
    let connection = try Connection(port: server.port)
    try connection.write(
      Data(
        "POST /v1/batch?fields=country HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
          .utf8))
    func chunk(_ text: String) -> Data {
      Data((String(text.utf8.count, radix: 16) + "\r\n" + text + "\r\n").utf8)
    }
    var received = Data()
    for (index, row) in ["id,lat,lon\n1,56,8.5\n", "2,-56,-171.5\n", "3,48.85,2.35\n"].enumerated() {
      try connection.write(chunk(row))
      let started = Date()
      XCTAssertTrue(
        connection.read(until: "\n\(index + 1),", into: &received, seconds: 5),
        "row \(index + 1) answered before the next is sent: \(String(decoding: received, as: UTF8.self))")
      XCTAssertLessThan(Date().timeIntervalSince(started), 2)
    }
    try connection.write(Data("0\r\n\r\n".utf8))
    received.append(connection.readAll(seconds: 10))
    let response = ServerProcess.parse(received)
    XCTAssertEqual(response.status, 200)
    XCTAssertTrue(response.complete)
    XCTAssertEqual(response.text.split(separator: "\n").count, 4, response.text)
  }

  /// `count` rows of CSV, spread over the globe.
  static func points(_ count: Int) -> Data {
    var csv = "id,lat,lon\n"
    csv.reserveCapacity(count * 28)
    for index in 0..<count {
      csv += "\(index),\(Double(index * 7_919 % 1_700_000) / 10_000 - 85),"
      csv += "\(Double(index * 104_729 % 3_600_000) / 10_000 - 180)\n"
    }
    return Data(csv.utf8)
  }

  // MARK: Limits and stopping

  /// Anonymous memory a server may have gained after 100 abandoned batches, in kB: what the allocator keeps
  /// whatever its settings (60 to 100 MB measured). A batch that leaked what it held would add some 15 MB,
  /// and one that leaked its read-ahead alone 4 MB: 100 of either are far beyond.
  static let memorySlackKB = 160 << 10

  /// Clients that go away in the middle of a batch (one that stops reading after the first rows, one
  /// that gives up during its upload, one that sends everything, reads nothing and times out) leave
  /// nothing behind: the server's descriptors are back to where they were, its threads and memory nearly so,
  /// and SIGTERM alone still ends it at once.
  func testAbandonedBatchesFreeEverything() throws {
    // One arena, large blocks mapped on their own and free memory given back: glibc otherwise keeps the
    // peak of 8 batches at once in an arena per thread (some hundreds of megabytes), which would hide a leak.
    let server = try ServerProcess(
      ["--quiet", "--idle-timeout", "2", "--upload-deadline", "20"],
      environment: [
        "MALLOC_ARENA_MAX": "1", "MALLOC_MMAP_THRESHOLD_": "131072", "MALLOC_TRIM_THRESHOLD_": "131072",
      ])
    let pid = server.process.processIdentifier
    let body = Self.points(200_000)
    let head = Data(
      "POST /v1/batch?fields=country HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\n\r\n"
        .utf8)
    let port = server.port
    /// One client going away, in the way `index` picks.
    @Sendable func goAway(_ index: Int) {
      switch index % 3 {
      case 0:
        // Reads as it sends, and leaves after the first rows (`curl … | head -c 1000`).
        guard let connection = try? Connection(port: port) else { return }
        _ = connection.exchange(head + body, until: 1000, seconds: 20)
        connection.reset()
      case 1:
        // Gives up half way through its upload.
        guard let connection = try? Connection(port: port) else { return }
        try? connection.write(head + body.prefix(body.count / 2))
        connection.reset()
      default:
        // Sends everything, reads nothing, and times out.
        guard let connection = try? Connection(port: port, receiveBuffer: 4096) else { return }
        connection.setSendTimeout(seconds: 10)
        try? connection.write(head + body)
        usleep(500_000)
        connection.reset()
      }
    }
    /// `count` clients going away, 8 at a time.
    func abandon(count: Int) {
      let slots = DispatchSemaphore(value: 8)
      let group = DispatchGroup()
      for index in 0..<count {
        slots.wait()
        group.enter()
        Thread.detachNewThread {
          goAway(index)
          slots.signal()
          group.leave()
        }
      }
      group.wait()
    }
    struct Usage: CustomStringConvertible {
      var descriptors: [String]
      /// The threads' names.
      var threadNames: [String]
      var residentKB: Int
      var threads: Int { threadNames.count }
      /// Dispatch's worker threads (`com.apple.root.default-qos` and the like): a pool that grows with the
      /// work at hand (8 clients at once here) and shrinks when it has been idle a while.
      var poolThreads: Int { threadNames.filter { $0.contains("qos") }.count }
      /// Every other thread: the event loops, and any thread a batch would start and leave behind.
      var ownThreads: Int { threads - poolThreads }
      var description: String {
        "\(descriptors.count) descriptors, \(threads) threads, \(residentKB / 1024) MB resident"
      }
    }
    func usage() -> Usage {
      let folder = "/proc/\(pid)/fd"
      let descriptors = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).map {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + $0)) ?? $0
      }
      let threads = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []).map {
        ((try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/comm", encoding: .utf8)) ?? "")
          .trimmingCharacters(in: .whitespacesAndNewlines)
      }
      let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
      // Anonymous memory: what a leak holds (the place data's pages, mapped from files, come and go).
      let resident = status.split(separator: "\n").first { $0.hasPrefix("RssAnon:") }.flatMap {
        Int($0.split(separator: " ").dropFirst().first ?? "")
      }
      return Usage(descriptors: descriptors, threadNames: threads, residentKB: resident ?? 0)
    }
    // Warm up: the batch indexes built for every point of the body, the pools and the allocator grown to 8
    // batches at once.
    let whole = try server.post("/v1/batch?fields=country", body: body)
    XCTAssertTrue(whole.complete)
    abandon(count: 16)
    usleep(3_000_000)
    let before = usage()
    let started = Date()
    abandon(count: 100)
    let abandoned = Date().timeIntervalSince(started)
    var after = usage()
    let deadline = Date(timeIntervalSinceNow: 15)
    while Date() < deadline,
      after.descriptors.count > before.descriptors.count || after.ownThreads > before.ownThreads
        || after.poolThreads > before.poolThreads + 8
        || after.residentKB > before.residentKB + Self.memorySlackKB
    {
      usleep(200_000)
      after = usage()
    }
    XCTAssertLessThanOrEqual(
      after.descriptors.count, before.descriptors.count,
      "before: \(before.descriptors.sorted()), after: \(after.descriptors.sorted())")
    XCTAssertFalse(after.descriptors.contains { $0.hasSuffix("(deleted)") }, "\(after.descriptors)")
    XCTAssertLessThanOrEqual(
      after.ownThreads, before.ownThreads, "before: \(before.threadNames), after: \(after.threadNames)")
    XCTAssertLessThanOrEqual(
      after.poolThreads, before.poolThreads + 8, "before: \(before.threadNames), after: \(after.threadNames)")
    XCTAssertLessThanOrEqual(
      after.residentKB, before.residentKB + Self.memorySlackKB, "before: \(before), after: \(after)")
    XCTAssertEqual(try server.get("/status").text, "OK")
    let stopping = Date()
    XCTAssertEqual(server.stop(within: 5), 0, server.errorText)
    XCTAssertLessThan(Date().timeIntervalSince(stopping), 5)
    print("100 abandoned batches in \(abandoned) s; before: \(before); after: \(after)")
  }

  func testLargeUploadsAreRefusedEarlyAndSlowOnesCut() throws {
    let server = try ServerProcess([
      "--quiet", "--max-upload", "1K", "--upload-deadline", "1", "--idle-timeout", "1",
    ])
    defer {
      let status = server.stop()
      usleep(500_000)
      XCTAssertEqual(status, 0, server.errorText)
    }
    // A declared length over the limit: 413 at once, without the body.
    let started = Date()
    let refused = try server.send(
      Data("POST /v1/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000000\r\n\r\n".utf8),
      seconds: 10)
    XCTAssertEqual(refused.status, 413, refused.text)
    XCTAssertLessThan(Date().timeIntervalSince(started), 5)
    // A chunked body that grows past it: cut off, the response never finished.
    let connection = try Connection(port: server.port)
    try connection.write(
      Data("POST /v1/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n".utf8))
    let piece = "lat,lon\n" + String(repeating: "1,2\n", count: 200)
    for _ in 0..<3 {
      try? connection.write(Data((String(piece.utf8.count, radix: 16) + "\r\n" + piece + "\r\n").utf8))
    }
    let cut = ServerProcess.parse(connection.readAll(seconds: 10))
    XCTAssertFalse(cut.complete && cut.status == 200, "a cut upload does not look like a whole answer")
    // A body that trickles past the upload deadline: closed, though each byte restarts the idle timeout.
    let slow = try Connection(port: server.port)
    try slow.write(
      Data("POST /v1/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\nlat,lon\n".utf8))
    var closed = false
    for _ in 0..<8 {
      try? slow.write(Data("1".utf8))
      if slow.isClosed(within: 0.4) {
        closed = true
        break
      }
    }
    XCTAssertTrue(closed, "the upload deadline closes a trickling body")
    // Headers that trickle in: closed at the idle timeout.
    let trickle = try Connection(port: server.port)
    try trickle.write(Data("GET /status HTTP/1.1\r\nHost:".utf8))
    XCTAssertTrue(trickle.isClosed(within: 5))
    XCTAssertEqual(try server.get("/status").text, "OK")
  }

  func testStopFinishesWhatIsInFlightAndASecondSignalDoesNot() throws {
    let server = try ServerProcess()
    let body = "lat,lon\n56,8.5\n-56,-171.5\n"
    let connection = try Connection(port: server.port)
    try connection.write(
      Data(
        "POST /v1/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.utf8.count)\r\n\r\nlat,lon\n"
          .utf8))
    usleep(300_000)
    kill(server.process.processIdentifier, SIGTERM)
    usleep(300_000)
    XCTAssertTrue(server.process.isRunning, "a request in flight holds the stop")
    try connection.write(Data(body.utf8.dropFirst("lat,lon\n".utf8.count)))
    let response = ServerProcess.parse(connection.readAll(seconds: 20))
    XCTAssertEqual(response.status, 200)
    XCTAssertTrue(response.complete)
    XCTAssertEqual(response.text.split(separator: "\n").count, 3, response.text)
    XCTAssertEqual(server.waitForExit(within: 30), 0, server.errorText)

    let stuck = try ServerProcess()
    let hanging = try Connection(port: stuck.port)
    try hanging.write(
      Data("POST /v1/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\nlat".utf8))
    usleep(300_000)
    kill(stuck.process.processIdentifier, SIGTERM)
    usleep(300_000)
    XCTAssertEqual(stuck.stop(signal: SIGTERM, within: 5), 128 + SIGTERM, stuck.errorText)
  }

  func testAPortInUseIsSaidPlainly() throws {
    let server = try server
    let second = try TunnelProcess.run(["serve", "--port", String(server.port)])
    XCTAssertEqual(second.status, 69)
    XCTAssertTrue(second.standardError.contains("in use"), second.standardError)
    let bad = try TunnelProcess.run(["serve", "--max-upload", "lots"])
    XCTAssertEqual(bad.status, 64)
  }
}
