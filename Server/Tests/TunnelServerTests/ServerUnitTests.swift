import Foundation
import XCTest

@testable import TunnelServer

/// The query-string reader and the OpenAPI document, without a server.
final class QueryParametersTests: XCTestCase {
  func testFormsEncoding() throws {
    let query = try QueryParameters("q=K%C3%B8benhavn+Denmark&limit=3&limit=4&flag&&empty=")
    XCTAssertEqual(query["q"], "København Denmark")
    XCTAssertEqual(query["limit"], "4", "a name given twice keeps its last value")
    XCTAssertEqual(query["flag"], "")
    XCTAssertEqual(query["empty"], "")
    XCTAssertNil(query["missing"])
    XCTAssertEqual(query.names, ["q", "limit", "flag", "empty"])
    XCTAssertEqual(try QueryParameters("a=%2B%26%3D")["a"], "+&=")
    XCTAssertEqual(try QueryParameters(nil).names, [])
  }

  func testBadEncodingNamesTheParameter() {
    for (text, parameter) in [
      ("q=%zz", "q"), ("q=%F", "q"), ("lat=1&q=%FF", "q"), ("%C3=1", "'%C3'"), ("a=%", "a"),
    ] {
      XCTAssertThrowsError(try QueryParameters(Substring(text)), text) { error in
        XCTAssertEqual((error as? QueryParameters.Problem)?.parameter, parameter, text)
      }
    }
  }
}

final class OpenAPIDocumentTests: XCTestCase {
  /// Every path served is described, and every path described is served.
  func testDocumentMatchesTheRoutes() throws {
    let document = try XCTUnwrap(
      try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.text.utf8)) as? [String: Any])
    XCTAssertEqual(document["openapi"] as? String, "3.0.3")
    let paths = Set((try XCTUnwrap(document["paths"] as? [String: Any])).keys)
    // The paths as the routes named them when they were added, `{name}` for a parameter as OpenAPI writes
    // it; the page's files and Leaflet's are not part of the API.
    let served = Set(
      try RouteHarness().routes.map(\.path).filter { !$0.hasPrefix("/app/") && !$0.hasPrefix("/leaflet/") })
    XCTAssertEqual(
      paths,
      served.subtracting(["/tiles/:z/:x/:file", "/tiles/antipodal/:z/:x/:file"]).union([
        "/tiles/{z}/{x}/{y}.svg", "/tiles/antipodal/{z}/{x}/{y}.svg",
      ]))
    // Every reference points at a component that exists.
    let text = OpenAPIDocument.text
    let components = try XCTUnwrap(document["components"] as? [String: [String: Any]])
    var searchFrom = text.startIndex
    while let range = text.range(of: "\"#/components/", range: searchFrom..<text.endIndex) {
      let rest = text[range.upperBound...]
      let reference = rest.prefix { $0 != "\"" }.split(separator: "/")
      XCTAssertEqual(reference.count, 2)
      XCTAssertNotNil(
        components[String(reference[0])]?[String(reference[1])], String(reference.joined(separator: "/")))
      searchFrom = range.upperBound
    }
  }
}
