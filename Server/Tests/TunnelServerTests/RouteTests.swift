import Foundation
import HTTPTypes
import TunnelGeo
import TunnelReports
import XCTest

@testable import TunnelServer

/// The routes in process: what each path takes, the shape of each dialect's errors (from the route that
/// raised it), HEAD made from GET, CORS, and 304s.
final class RouteTests: XCTestCase {
  func testEveryPathIsNamedOnceAndTakesItsMethods() throws {
    let routes = try RouteHarness().routes
    XCTAssertEqual(Set(routes.map(\.path)).count, routes.count, "a path added twice")
    let batch = try XCTUnwrap(routes.first { $0.path == "/v1/batch" })
    XCTAssertEqual(batch.allowed, [.post])
    let tiles = try XCTUnwrap(routes.first { $0.path == "/tiles/:z/:x/:file" })
    XCTAssertEqual(tiles.allowed, [.get, .head])
    for path in [
      "/v1/where", "/reverse", "/search.php", "/status", "/photon/api", "/metrics", "/", "/openapi.json",
    ] {
      XCTAssertTrue(routes.contains { $0.path == path }, path)
    }
  }

  /// A method a path does not take is a 405 with `Allow`, in the path's own dialect.
  func testMethodNotAllowedSpeaksTheDialectOfItsRoute() async throws {
    let routes = try RouteHarness()
    let cases: [(target: String, allow: String, shape: (Any?) -> Bool)] = [
      (
        "/v1/where", "GET, HEAD",
        { (($0 as? [String: Any])?["error"] as? [String: Any])?["code"] as? Int == 405 }
      ),
      (
        "/reverse", "GET, HEAD",
        { (($0 as? [String: Any])?["error"] as? [String: Any])?["code"] as? Int == 405 }
      ),
      ("/photon/api", "GET, HEAD", { ($0 as? [String: Any])?["message"] is String }),
      ("/tiles/1/1/1.svg", "GET, HEAD", { (($0 as? [String: Any])?["error"] as? [String: Any]) != nil }),
    ]
    for (target, allow, shape) in cases {
      let reply = try await routes.send(.delete, target)
      XCTAssertEqual(reply.status, 405, "\(target): \(reply.text)")
      XCTAssertEqual(reply.headers[.allow], allow, target)
      XCTAssertTrue(shape(reply.json), "\(target): \(reply.text)")
      XCTAssertTrue(reply.text.contains("use \(allow)"), reply.text)
    }
    // A method no route takes anywhere is refused the same way.
    let query = try await routes.send(try XCTUnwrap(HTTPRequest.Method("QUERY")), "/photon/api")
    XCTAssertEqual(query.status, 405, query.text)
    XCTAssertNotNil((query.json as? [String: Any])?["message"] as? String, query.text)
    let get = try await routes.get("/v1/batch")
    XCTAssertEqual(get.status, 405, get.text)
    XCTAssertEqual(get.headers[.allow], "POST")
    let options = try await routes.send(.options, "/v1/batch")
    XCTAssertEqual(options.status, 204)
    XCTAssertEqual(options.headers[.allow], "POST, OPTIONS")
  }

  /// A 4xx's body has the shape its route's clients read: Photon's `message`, Nominatim's in the format
  /// asked for, Tunnel's `error` elsewhere; a path no route takes is Tunnel's 404.
  func testErrorsHaveTheShapeOfTheirRoute() async throws {
    let routes = try RouteHarness()
    let photon = try await routes.get("/photon/api")
    XCTAssertEqual(photon.status, 400)
    XCTAssertNotNil((photon.json as? [String: Any])?["message"] as? String, photon.text)
    let xml = try await routes.get("/reverse?format=xml")
    XCTAssertEqual(xml.status, 400)
    XCTAssertTrue(xml.headers[.contentType]?.contains("xml") == true, xml.text)
    XCTAssertTrue(xml.text.contains("<error>"), xml.text)
    let badEncoding = try await routes.get("/photon/reverse?lat=%zz")
    XCTAssertEqual(badEncoding.status, 400)
    XCTAssertNotNil((badEncoding.json as? [String: Any])?["message"] as? String, badEncoding.text)
    let unknown = try await routes.get("/photon-like/nowhere")
    XCTAssertEqual(unknown.status, 404)
    XCTAssertTrue(unknown.text.contains("no such page"), unknown.text)
    XCTAssertNotNil((unknown.json as? [String: Any])?["error"], unknown.text)
    let find = try await routes.get("/v1/find?q=Qqqxyzzy")
    XCTAssertEqual(find.status, 404, find.text)
    XCTAssertEqual((((find.json as? [String: Any])?["error"]) as? [String: Any])?["code"] as? Int, 404)
  }

  /// HEAD is the router's, made from the GET: the same status and fields, the GET's length, no body.
  func testHeadIsTheGetWithoutItsBody() async throws {
    let routes = try RouteHarness()
    for target in ["/status", "/v1/where?q=56,8.5", "/tiles/2/1/1.svg", "/app/tunnel.js", "/v1/where?q="] {
      let get = try await routes.get(target)
      let head = try await routes.send(.head, target)
      XCTAssertEqual(head.status, get.status, target)
      XCTAssertEqual(head.headers[.contentLength], String(get.body.count), target)
      XCTAssertEqual(head.headers[.contentType], get.headers[.contentType], target)
      XCTAssertTrue(head.body.isEmpty, target)
    }
  }

  /// Any page may read; a preflight for a POST is never granted, and a cross-origin POST is refused.
  func testCrossOriginReadsAndPosts() async throws {
    let routes = try RouteHarness()
    let read = try await routes.get("/v1/where?q=56,8.5", headers: [.origin: "http://example.org"])
    XCTAssertEqual(read.headers[.accessControlAllowOrigin], "*")
    let preflight = try await routes.send(
      .options, "/v1/batch",
      headers: [.origin: "http://example.org", .accessControlRequestMethod: "POST"])
    XCTAssertEqual(preflight.status, 204)
    XCTAssertFalse(preflight.headers[.accessControlAllowMethods]?.contains("POST") ?? false)
    let post = try await routes.send(
      .post, "/v1/batch", headers: [.origin: "http://example.org", .contentLength: "15"],
      body: Array("lat,lon\n56,8.5\n".utf8))
    XCTAssertEqual(post.status, 403, post.text)
  }

  func testATileAnswersIfNoneMatchWith304() async throws {
    let routes = try RouteHarness()
    let tile = try await routes.get("/tiles/1/0/0.svg")
    XCTAssertEqual(tile.status, 200)
    let tag = try XCTUnwrap(tile.headers[.eTag])
    let again = try await routes.get("/tiles/1/0/0.svg", headers: [.ifNoneMatch: tag])
    XCTAssertEqual(again.status, 304)
    XCTAssertEqual(again.headers[.eTag], tag)
    XCTAssertTrue(again.body.isEmpty)
  }

  /// The antipodal overlay's tiles: transparent, the other side's land turned onto this one (so not the
  /// ground tile's bytes), cached with their own ETags, and a plain 404 naming their own path.
  func testAntipodalTiles() async throws {
    let routes = try RouteHarness()
    let overlay = try await routes.get("/tiles/antipodal/2/1/1.svg")
    XCTAssertEqual(overlay.status, 200, overlay.text)
    XCTAssertEqual(overlay.headers[.contentType], "image/svg+xml")
    XCTAssertTrue(
      overlay.text.contains("matrix(1 0 0 -1 0 256)") && !overlay.text.contains("<rect"), overlay.text)
    let ground = try await routes.get("/tiles/2/1/1.svg")
    XCTAssertNotEqual(overlay.headers[.eTag], ground.headers[.eTag])
    let tag = try XCTUnwrap(overlay.headers[.eTag])
    let again = try await routes.get("/tiles/antipodal/2/1/1.svg", headers: [.ifNoneMatch: tag])
    XCTAssertEqual(again.status, 304)
    let missing = try await routes.get("/tiles/antipodal/2/4/1.svg")
    XCTAssertEqual(missing.status, 404)
    XCTAssertTrue(missing.text.contains("tiles are /tiles/antipodal/{z}/{x}/{y}.svg"), missing.text)
  }

  /// `/v1/pairs` answers as `tunnel pairs --format json`: the closest first, within the distance, of places as
  /// large as asked, at most `limit`; bad parameters are 400s that name them.
  func testPairs() async throws {
    let routes = try RouteHarness()
    let answer = try await routes.get("/v1/pairs?within=100&minPopulation=1000000&limit=5")
    XCTAssertEqual(answer.status, 200, answer.text)
    let pairs = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [[String: Any]])
    XCTAssertEqual(pairs.count, 5)
    let distances = pairs.compactMap { $0["distanceKm"] as? Double }
    XCTAssertEqual(distances, distances.sorted())
    XCTAssertTrue(distances.allSatisfy { $0 <= 100 })
    let first = try XCTUnwrap(pairs.first?["first"] as? [String: Any])
    XCTAssertEqual(first["name"] as? String, "Quito")
    for place in pairs.flatMap({ [$0["first"], $0["second"]] }) {
      XCTAssertGreaterThanOrEqual((place as? [String: Any])?["population"] as? Int ?? 0, 1_000_000)
    }
    for (query, words) in [
      ("within=-1", "'within' must be a number from 0 to 20000, not '-1'"),
      ("within=nan", "'within' must be a number"), ("minPopulation=many", "'minPopulation' must be"),
      ("limit=0", "'limit' must be a whole number from 1 to 100000"),
    ] {
      let refused = try await routes.get("/v1/pairs?" + query)
      XCTAssertEqual(refused.status, 400, query)
      XCTAssertTrue(refused.text.contains(words), refused.text)
    }
  }

  /// One naming rule: a reverse answer's `display_name` is the headline `tunnel where` prints for the point
  /// (`PlacemarkText.headline`), on 400 points spread over the globe, at sea (with the way to land), in lakes and
  /// on land (the town with its own country, the region the point is in); and its address names the region
  /// and county the text names.
  func testDisplayNameIsTheHeadline() async throws {
    let routes = try RouteHarness()
    let service = try RouteHarness.service
    var state: UInt64 = 0x5EED_2026
    func next() -> Double {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
    }
    var compared = 0
    var kinds: [String: Int] = [:]
    for _ in 0..<400 {
      // Uniform on the sphere.
      let latitude = asin(2 * next() - 1) * 180 / .pi
      let longitude = 360 * next() - 180
      let target = String(
        format: "/reverse?lat=%.5f&lon=%.5f&format=jsonv2&addressdetails=1", latitude, longitude)
      let answer = try await routes.get(target)
      let coordinate = try Coordinate(
        latitude: (latitude * 1e5).rounded() / 1e5, longitude: (longitude * 1e5).rounded() / 1e5)
      let placemark = try service.placemark(coordinate)
      guard answer.status == 200,
        let object = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any],
        object["error"] == nil
      else {
        XCTFail("\(target): \(answer.status) \(answer.text)")
        continue
      }
      XCTAssertEqual(object["display_name"] as? String, PlacemarkText.headline(placemark), target)
      let address = object["address"] as? [String: String] ?? [:]
      if placemark.land, placemark.locality != nil {
        // The region under the key its country's addresses use (a Swedish län, a Norwegian fylke: `county`).
        if let region = placemark.region.map({ PlaceText.regionName($0.name) }) {
          XCTAssertTrue(address["state"] == region || address["county"] == region, "\(target): \(address)")
        }
        if let county = placemark.subregion?.name {
          XCTAssertEqual(address["county"], county, target)
        }
      }
      kinds[object["addresstype"] as? String ?? "?", default: 0] += 1
      compared += 1
    }
    XCTAssertEqual(compared, 400)
    // The points fall at sea, on land by a town, and on land far from one.
    XCTAssertGreaterThan(kinds["ocean", default: 0] + kinds["sea", default: 0], 200, "\(kinds)")
    XCTAssertGreaterThan(
      kinds.filter { ["city", "town", "village", "hamlet"].contains($0.key) }.values.reduce(0, +), 10,
      "\(kinds)")
  }

  /// Every request is counted under its route's path, refused ones too.
  func testMetricsCountRoutesByPath() async throws {
    let routes = try RouteHarness()
    _ = try await routes.get("/v1/where?q=56,8.5")
    _ = try await routes.send(.delete, "/v1/where")
    let metrics = try await routes.get("/metrics")
    XCTAssertTrue(metrics.text.contains(#"route="/v1/where",status="200""#), metrics.text)
    XCTAssertTrue(metrics.text.contains(#"route="/v1/where",status="405""#), metrics.text)
  }
}
