import Foundation
import TunnelGeo
import XCTest

@testable import TunnelServer

/// The search filters of Nominatim and Photon: each honoured, or refused with the dialect's 400, never
/// dropped.
final class SearchFilterTests: XCTestCase {
  nonisolated(unsafe) static var shared: TunnelAnswers?

  var answers: TunnelAnswers {
    get throws {
      if let answers = Self.shared { return answers }
      let answers = try TunnelAnswers(data: PlaceData())
      Self.shared = answers
      return answers
    }
  }

  /// A Nominatim search's places (name, country code, place_id), or its status and message.
  func nominatim(_ query: String) throws -> (status: Int, places: [[String: Any]], text: String) {
    let answer = try answers.nominatimSearch(QueryParameters(Substring("format=jsonv2&" + query)))
    let text = String(decoding: answer.body, as: UTF8.self)
    let places = (try? JSONSerialization.jsonObject(with: Data(answer.body))) as? [[String: Any]] ?? []
    return (answer.status, places, text)
  }

  /// A Photon search's features' properties, or its status and message.
  func photon(_ query: String) throws -> (status: Int, places: [[String: Any]], text: String) {
    let answer = try answers.photonSearch(QueryParameters(Substring(query)))
    let text = String(decoding: answer.body, as: UTF8.self)
    let collection = (try? JSONSerialization.jsonObject(with: Data(answer.body))) as? [String: Any]
    let features = collection?["features"] as? [[String: Any]] ?? []
    return (answer.status, features.compactMap { $0["properties"] as? [String: Any] }, text)
  }

  func testNominatimCountryCodes() throws {
    let everywhere = try nominatim("q=Paris&limit=5")
    XCTAssertEqual(everywhere.places.first?["display_name"] as? String, "Paris, Île-de-France, France")
    let american = try nominatim("q=Paris&countrycodes=us,ca&limit=40")
    XCTAssertGreaterThan(american.places.count, 5)
    for place in american.places {
      let name = place["display_name"] as? String ?? ""
      XCTAssertTrue(name.hasSuffix("United States") || name.hasSuffix("Canada"), name)
    }
    XCTAssertEqual(try nominatim("q=Paris&countrycodes=DE").places.count, 0)
    for bad in ["usa", "u1", "us;ca", "us,,ca"] {
      XCTAssertEqual(try nominatim("q=Paris&countrycodes=\(bad)").status, 400, bad)
    }
  }

  func testNominatimViewboxBoundedOrPreferred() throws {
    // Illinois's Springfield lies in the box; Missouri's and Massachusetts's do not.
    let bounded = try nominatim("q=Springfield&viewbox=-90,38,-88,40&bounded=1")
    XCTAssertEqual(
      bounded.places.map { $0["display_name"] as? String }, ["Springfield, Illinois, United States"])
    let preferred = try nominatim("q=Springfield&viewbox=-88,40,-90,38&limit=3")
    XCTAssertEqual(preferred.places.first?["display_name"] as? String, "Springfield, Illinois, United States")
    XCTAssertEqual(preferred.places.count, 3)
    XCTAssertEqual(try nominatim("q=Springfield&bounded=1").status, 400)
    XCTAssertEqual(try nominatim("q=Springfield&viewbox=1,2,3").status, 400)
    XCTAssertEqual(try nominatim("q=Springfield&viewbox=-90,38,-88,40&bounded=2").status, 400)
  }

  func testNominatimExcludedFeatureTypeAndLayer() throws {
    let first = try nominatim("q=Paris&limit=2")
    let id = try XCTUnwrap(first.places.first?["place_id"] as? Int)
    let without = try nominatim("q=Paris&limit=2&exclude_place_ids=\(id),1")
    XCTAssertFalse(without.places.contains { $0["place_id"] as? Int == id })
    XCTAssertEqual(without.places.first?["place_id"] as? Int, first.places.last?["place_id"] as? Int)
    XCTAssertEqual(try nominatim("q=Paris&exclude_place_ids=x").status, 400)
    let cities = try nominatim("q=Paris&featuretype=city&limit=40")
    XCTAssertFalse(cities.places.isEmpty)
    XCTAssertFalse(cities.places.contains { $0["type"] as? String == "hamlet" })
    XCTAssertEqual(try nominatim("q=Paris&featuretype=settlement").places.count, 10)
    XCTAssertEqual(try nominatim("q=Denmark&featuretype=country").status, 400)
    XCTAssertEqual(try nominatim("q=Paris&featuretype=street").status, 400)
    XCTAssertEqual(try nominatim("q=Paris&layer=poi,natural").places.count, 0)
    XCTAssertEqual(try nominatim("q=Paris&layer=address,poi").places.count, 10)
    XCTAssertEqual(try nominatim("q=Paris&layer=house").status, 400)
  }

  func testPhotonBoxBiasTagsAndLayers() throws {
    let boxed = try photon("q=Paris&bbox=-100,30,-90,40&limit=50")
    XCTAssertFalse(boxed.places.isEmpty)
    XCTAssertTrue(boxed.places.allSatisfy { $0["countrycode"] as? String == "US" })
    // Paris, Tennessee is the nearest Paris to the point.
    let near = try photon("q=Paris&lat=36.3&lon=-88.3&limit=1")
    XCTAssertEqual(near.places.first?["state"] as? String, "Tennessee", near.text)
    XCTAssertEqual(try photon("q=Paris&lat=36.3").status, 400)
    let cities = try photon("q=Paris&osm_tag=place:city&limit=50")
    XCTAssertTrue(cities.places.allSatisfy { $0["osm_value"] as? String == "city" })
    let notCities = try photon("q=Paris&osm_tag=!place:city&limit=50")
    XCTAssertFalse(notCities.places.isEmpty)
    XCTAssertFalse(notCities.places.contains { $0["osm_value"] as? String == "city" })
    let valueOnly = try photon("q=Paris&osm_tag=:town&limit=50")
    XCTAssertTrue(valueOnly.places.allSatisfy { $0["osm_value"] as? String == "town" })
    XCTAssertEqual(try photon("q=Paris&osm_tag=boundary").places.count, 0)
    XCTAssertEqual(try photon("q=Paris&osm_tag=!").status, 400)
    let layers = try photon("q=Paris&layer=city&layer=district&limit=50")
    XCTAssertEqual(layers.places.count, try photon("q=Paris&limit=50").places.count)
    XCTAssertEqual(try photon("q=Paris&layer=street").places.count, 0)
    XCTAssertEqual(try photon("q=Paris&layer=planet").status, 400)
  }
}
