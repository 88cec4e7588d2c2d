import Foundation
import Testing

@testable import TunnelGeo

@Suite struct LocationQueryTests {
  static let gazetteer = try! Gazetteer(data: PlaceData())

  static func query(_ text: String) throws(LocationQueryError) -> LocationQuery {
    try LocationQuery(text) { () throws(PlaceDataError) in gazetteer }
  }

  /// The most populous place with `code`, found the slow way: every place's `Place` value.
  static func mostPopulous(_ code: String) -> Place? {
    let places = gazetteer.places
    var best: Place?
    for index in 0..<places.count {
      let place = places.place(at: index)
      if place.countryCode == code, place.population > best?.population ?? -1 { best = place }
    }
    return best
  }

  @Test(
    "Names in CJK ideographs are names: Unicode counts 京, 万 and 三 as numerals, a coordinate has ASCII digits",
    arguments: [("北京", "CN"), ("東京", "JP"), ("三亚", "CN"), ("万州", "CN")])
  func ideographs(text: String, country: String) throws {
    let found = try Self.query(text)
    let place = try #require(found.place?.place)
    #expect(place.countryCode == country, "\(text): \(place.name)")
    #expect(found.place?.standsForCountry == false)
  }

  @Test("Text with ASCII digits is still held to being a coordinate")
  func digitsMeanACoordinate() {
    #expect(throws: LocationQueryError.self) { try Self.query("56 8.5x") }
    do {
      _ = try Self.query("56 京")
      Issue.record("'56 京' was read")
    } catch {
      guard case .coordinate = error else {
        Issue.record("'56 京' gave \(error)")
        return
      }
    }
  }

  @Test(
    "A country's name or ISO code means the country, at its most populous place",
    arguments: [
      ("Denmark", "DK"), ("denmark", "DK"), ("DK", "DK"), ("DNK", "DK"), ("Fiji", "FJ"), ("FJ", "FJ"),
      ("United States", "US"), ("USA", "US"), ("Brazil", "BR"), ("BRA", "BR"), ("France", "FR"),
      ("Norway", "NO"), ("South Korea", "KR"), ("North Korea", "KP"), ("Czech Republic", "CZ"),
      ("Ivory Coast", "CI"), ("Macedonia", "MK"), ("DR Congo", "CD"),
    ])
  func countries(text: String, code: String) throws {
    let found = try Self.query(text)
    let match = try #require(found.place)
    let expected = try #require(Self.mostPopulous(code))
    #expect(match.standsForCountry)
    #expect(match.place == expected, "\(text): \(match.place.name)")
    #expect(found.coordinate == expected.coordinate)
  }

  @Test(
    "A name with a qualifier, a code not in capitals, and a part of a country are places",
    arguments: [("Denmark, US", "US"), ("Bra", "IT"), ("North Pole, US", "US")])
  func placesNotCountries(text: String, country: String) throws {
    let match = try #require(try Self.query(text).place)
    #expect(!match.standsForCountry, "\(text)")
    #expect(match.place.countryCode == country, "\(text): \(match.place.name)")
  }

  @Test("The poles by name are the geographic poles")
  func poles() throws {
    #expect(try Self.query("North Pole").coordinate == Coordinate(latitude: 90, longitude: 0))
    #expect(try Self.query("south pole").coordinate == Coordinate(latitude: -90, longitude: 0))
    #expect(try Self.query(" North  Pole ").place == nil)
    // France's own feature names France; Clipperton Island, also FR, does not.
    #expect(Self.gazetteer.country(named: "France")?.place.countryCode == "FR")
    #expect(Self.gazetteer.country(named: "Clipperton I.") == nil)
  }

  @Test(
    "A name two countries share is refused with both, not taken for a village of that name",
    arguments: [("Congo", ["CD", "CG"]), ("korea", ["KP", "KR"])])
  func sharedNames(text: String, codes: [String]) {
    do {
      let found = try Self.query(text)
      Issue.record("'\(text)' was read as \(found.place?.place.name ?? "a coordinate")")
    } catch {
      guard case .sharedCountryName(_, let countries) = error else {
        Issue.record("'\(text)' gave \(error)")
        return
      }
      #expect(countries.count == codes.count)
      for code in codes { #expect(countries.contains { $0.hasSuffix("(\(code))") }, "\(countries)") }
    }
  }
}
