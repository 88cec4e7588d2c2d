import Foundation
import TunnelGeo
import XCTest

@testable import TunnelServer

/// The search filters of Nominatim and Photon: each honoured, or refused with the dialect's 400, never
/// dropped.
final class SearchFilterTests: XCTestCase {
  /// A Nominatim search's places (name, country code, place_id), or its status and message.
  func nominatim(_ query: String) async throws -> (status: Int, places: [[String: Any]], text: String) {
    let reply = try await RouteHarness().get("/search?format=jsonv2&" + query)
    return (reply.status, reply.json as? [[String: Any]] ?? [], reply.text)
  }

  /// A Photon search's features' properties, or its status and message.
  func photon(_ query: String) async throws -> (status: Int, places: [[String: Any]], text: String) {
    let reply = try await RouteHarness().get("/photon/api?" + query)
    let features = (reply.json as? [String: Any])?["features"] as? [[String: Any]] ?? []
    return (reply.status, features.compactMap { $0["properties"] as? [String: Any] }, reply.text)
  }

  func testNominatimCountryCodes() async throws {
    let everywhere = try await nominatim("q=Paris&limit=5")
    XCTAssertEqual(everywhere.places.first?["display_name"] as? String, "Paris, Île-de-France, France")
    let american = try await nominatim("q=Paris&countrycodes=us,ca&limit=40")
    XCTAssertGreaterThan(american.places.count, 5)
    for place in american.places {
      let name = place["display_name"] as? String ?? ""
      XCTAssertTrue(name.hasSuffix("United States") || name.hasSuffix("Canada"), name)
    }
    let reply31 = try await nominatim("q=Paris&countrycodes=DE")
    XCTAssertEqual(reply31.places.count, 0)
    for bad in ["usa", "u1", "us;ca", "us,,ca"] {
      let reply34 = try await nominatim("q=Paris&countrycodes=\(bad)")
      XCTAssertEqual(reply34.status, 400, bad)
    }
  }

  func testNominatimViewboxBoundedOrPreferred() async throws {
    // Illinois's Springfield lies in the box; Missouri's and Massachusetts's do not.
    let bounded = try await nominatim("q=Springfield&viewbox=-90,38,-88,40&bounded=1")
    XCTAssertEqual(
      bounded.places.map { $0["display_name"] as? String }, ["Springfield, Illinois, United States"])
    let preferred = try await nominatim("q=Springfield&viewbox=-88,40,-90,38&limit=3")
    XCTAssertEqual(preferred.places.first?["display_name"] as? String, "Springfield, Illinois, United States")
    XCTAssertEqual(preferred.places.count, 3)
    let reply47 = try await nominatim("q=Springfield&bounded=1")
    XCTAssertEqual(reply47.status, 400)
    let reply49 = try await nominatim("q=Springfield&viewbox=1,2,3")
    XCTAssertEqual(reply49.status, 400)
    let reply51 = try await nominatim("q=Springfield&viewbox=-90,38,-88,40&bounded=2")
    XCTAssertEqual(reply51.status, 400)
  }

  func testNominatimExcludedFeatureTypeAndLayer() async throws {
    let first = try await nominatim("q=Paris&limit=2")
    let id = try XCTUnwrap(first.places.first?["place_id"] as? Int)
    let without = try await nominatim("q=Paris&limit=2&exclude_place_ids=\(id),1")
    XCTAssertFalse(without.places.contains { $0["place_id"] as? Int == id })
    XCTAssertEqual(without.places.first?["place_id"] as? Int, first.places.last?["place_id"] as? Int)
    let reply61 = try await nominatim("q=Paris&exclude_place_ids=x")
    XCTAssertEqual(reply61.status, 400)
    let cities = try await nominatim("q=Paris&featuretype=city&limit=40")
    XCTAssertFalse(cities.places.isEmpty)
    XCTAssertFalse(cities.places.contains { $0["type"] as? String == "hamlet" })
    let reply66 = try await nominatim("q=Paris&featuretype=settlement")
    XCTAssertEqual(reply66.places.count, 10)
    let country = try await nominatim("q=Denmark&featuretype=country")
    XCTAssertEqual(country.places.map { $0["addresstype"] as? String }, ["country"], country.text)
    let state = try await nominatim("q=Texas&featuretype=state")
    XCTAssertEqual(state.places.first?["addresstype"] as? String, "state", state.text)
    XCTAssertTrue(state.places.allSatisfy { $0["addresstype"] as? String == "state" }, state.text)
    let reply73 = try await nominatim("q=Paris&featuretype=street")
    XCTAssertEqual(reply73.status, 400)
    let reply75 = try await nominatim("q=Paris&layer=poi,natural")
    XCTAssertEqual(reply75.places.count, 0)
    let reply77 = try await nominatim("q=Paris&layer=address,poi")
    XCTAssertEqual(reply77.places.count, 10)
    let reply79 = try await nominatim("q=Paris&layer=house")
    XCTAssertEqual(reply79.status, 400)
  }

  func testPhotonBoxBiasTagsAndLayers() async throws {
    let boxed = try await photon("q=Paris&bbox=-100,30,-90,40&limit=50")
    XCTAssertFalse(boxed.places.isEmpty)
    XCTAssertTrue(boxed.places.allSatisfy { $0["countrycode"] as? String == "US" })
    // Paris, Tennessee is the nearest Paris to the point.
    let near = try await photon("q=Paris&lat=36.3&lon=-88.3&limit=1")
    XCTAssertEqual(near.places.first?["state"] as? String, "Tennessee", near.text)
    let reply90 = try await photon("q=Paris&lat=36.3")
    XCTAssertEqual(reply90.status, 400)
    let cities = try await photon("q=Paris&osm_tag=place:city&limit=50")
    XCTAssertTrue(cities.places.allSatisfy { $0["osm_value"] as? String == "city" })
    let notCities = try await photon("q=Paris&osm_tag=!place:city&limit=50")
    XCTAssertFalse(notCities.places.isEmpty)
    XCTAssertFalse(notCities.places.contains { $0["osm_value"] as? String == "city" })
    let valueOnly = try await photon("q=Paris&osm_tag=:town&limit=50")
    XCTAssertTrue(valueOnly.places.allSatisfy { $0["osm_value"] as? String == "town" })
    let reply99 = try await photon("q=Paris&osm_tag=boundary")
    XCTAssertEqual(reply99.places.count, 0)
    let reply101 = try await photon("q=Paris&osm_tag=!")
    XCTAssertEqual(reply101.status, 400)
    let layers = try await photon("q=Paris&layer=city&layer=district&limit=50")
    let everyLayer = try await photon("q=Paris&limit=50")
    XCTAssertEqual(layers.places.count, everyLayer.places.count)
    let reply106 = try await photon("q=Paris&layer=street")
    XCTAssertEqual(reply106.places.count, 0)
    let reply108 = try await photon("q=Paris&layer=planet")
    XCTAssertEqual(reply108.status, 400)
  }
}

/// A country's or a region's name finds the area, as the commands find it, with the dialects' kind for it
/// and the box around it.
final class AreaSearchTests: XCTestCase {
  func testACountryNameFindsTheCountryFirst() async throws {
    let denmark = try await RouteHarness().get("/search?format=jsonv2&q=Denmark&limit=3")
    let first = try XCTUnwrap((denmark.json as? [[String: Any]])?.first, denmark.text)
    XCTAssertEqual(first["addresstype"] as? String, "country", denmark.text)
    XCTAssertEqual(first["name"] as? String, "Denmark")
    // Denmark's box reaches from Bornholm (15.2° E) to the west coast of Jutland (8.1° E).
    let box = try XCTUnwrap(first["boundingbox"] as? [String]).compactMap(Double.init)
    XCTAssertEqual(box.count, 4)
    XCTAssertLessThan(box[2], 8.2)
    XCTAssertGreaterThan(box[3], 15)
    let photon = try await RouteHarness().get("/photon/api?q=Denmark&limit=1")
    let feature = try XCTUnwrap(((photon.json as? [String: Any])?["features"] as? [[String: Any]])?.first)
    XCTAssertEqual((feature["properties"] as? [String: Any])?["type"] as? String, "country", photon.text)
  }

  func testARegionNameFindsTheRegionAndACityStaysAboveIt() async throws {
    let texas = try await RouteHarness().get("/search?format=jsonv2&q=Texas&limit=3")
    let places = try XCTUnwrap(texas.json as? [[String: Any]], texas.text)
    XCTAssertEqual(places.first?["addresstype"] as? String, "state", texas.text)
    XCTAssertEqual(places.first?["display_name"] as? String, "Texas, United States", texas.text)
    // New York City (8 million people) is more important than the state of New York.
    let newYork = try await RouteHarness().get("/search?format=jsonv2&q=New+York&limit=5")
    let found = try XCTUnwrap(newYork.json as? [[String: Any]], newYork.text)
    XCTAssertEqual(found.first?["addresstype"] as? String, "city", newYork.text)
    XCTAssertTrue(found.contains { $0["addresstype"] as? String == "state" }, newYork.text)
    // With a qualifier the text names a place, not an area.
    let qualified = try await RouteHarness().get("/search?format=jsonv2&q=Georgia,US")
    XCTAssertFalse(
      (qualified.json as? [[String: Any]] ?? []).contains { $0["addresstype"] as? String == "country" })
  }
}
