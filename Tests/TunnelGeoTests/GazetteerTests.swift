import Foundation
import Testing

@testable import TunnelGeo

@Suite struct GazetteerTests {
  static let gazetteer = try! Gazetteer(data: PlaceData())

  @Test(arguments: [
    "Copenhagen", "København", "Kopenhagen", "copenhagen", "COPENHAGEN", "  Copenhagen ", "Копенгаген",
  ])
  func findsCopenhagenUnderEverySpelling(text: String) throws {
    let search = Self.gazetteer.search(text)
    let first = try #require(search.matches.first)
    #expect(first.place.name == "Copenhagen")
    #expect(first.place.countryCode == "DK")
    #expect(abs(first.place.coordinate.latitude - 55.676) < 0.01)
    #expect(abs(first.place.coordinate.longitude - 12.566) < 0.01)
    #expect(first.countryName == "Denmark")
    #expect(search.problem == nil && search.explanation == nil)
  }

  @Test(
    "A code shared by several features names the country itself, not its islands",
    arguments: [("Paris, FR", "France"), ("Lyon", "France"), ("Saint-Étienne", "France"), ("Oslo", "Norway")])
  func countryOfASharedCode(text: String, country: String) throws {
    let first = try #require(Self.gazetteer.search(text).matches.first)
    #expect(first.countryName == country)
  }

  @Test func everySharedCodeNamesItsMainFeature() throws {
    let layer = try PlaceData().countries()
    var byCode: [String: [Country]] = [:]
    for feature in 0..<layer.polygons.featureCount {
      let country = layer.country(feature)
      if let code = country.isoAlpha2 { byCode[code, default: []].append(country) }
    }
    var shared = 0
    for (code, countries) in byCode where countries.count > 1 {
      shared += 1
      if let main = countries.first(where: { $0.naturalEarthCode == $0.isoAlpha3 }) {
        #expect(Self.gazetteer.countryName(forCode: code) == main.name, "\(code)")
      }
    }
    #expect(shared > 0)
  }

  /// Population and the kind of name together: each match's population (its decimal logarithm), plus a
  /// hundred times' worth for a place's own name, never rises down the list.
  @Test(arguments: ["Copenhagen", "Bombay", "Victoria", "Canton", "Springfield", "San Jose"])
  func rankedByPopulationAndKindOfName(text: String) throws {
    let matches = Self.gazetteer.search(text, limit: 100).matches
    #expect(matches.count > 1)
    func score(_ match: GazetteerMatch) -> Double {
      log10(Double(max(match.place.population, 1))) + (match.viaAlternateName ? 0 : Gazetteer.ownNameWeight)
    }
    for (earlier, later) in zip(matches, matches.dropFirst()) {
      #expect(score(earlier) >= score(later), "\(text): \(earlier.place.name) before \(later.place.name)")
    }
    let utah = try #require(
      Self.gazetteer.search("Copenhagen", limit: 50).matches.firstIndex {
        $0.place.countryCode == "US"
      })
    #expect(utah > 0)
  }

  /// Names people use for large places find them, not a small place of that very name (GeoNames lists
  /// each as an alternate name of the large place); an own name of a place of fair size still wins over
  /// a larger place's alternate name.
  @Test(arguments: [
    ("Bombay", "Mumbai", "IN"),  // not Bombay, New Zealand (740 people)
    ("Calcutta", "Kolkata", "IN"),  // not Calcutta, Ohio
    ("Madras", "Chennai", "IN"),  // not Madras, Oregon
    ("Mecca", "Makkah", "SA"),  // not Mecca, California
    ("Cologne", "Köln", "DE"),  // not Cologne, Minnesota
    ("Seville", "Sevilla", "ES"),  // not Seville, Ohio
    ("Victoria", "Victoria", nil),  // not Hong Kong, also called Victoria
    ("Athens", "Athens", "GR"),  // not Athens, Georgia, nor Oshkosh (also called so)
    ("Florence", "Florence", "IT"),
    ("Venice", "Venice", "IT"),  // not Dayton (also called so), nor Venice, Florida
    ("Rome", "Rome", "IT"),
    ("Paris", "Paris", "FR"),
  ])
  func namesPeopleUse(text: String, name: String, country: String?) throws {
    let first = try #require(Self.gazetteer.search(text).matches.first)
    #expect(first.place.name == name, "\(text)")
    if let country { #expect(first.place.countryCode == country, "\(text)") }
  }

  @Test func findsInOtherScripts() throws {
    let moscow = try #require(Self.gazetteer.search("Москва").matches.first)
    #expect(moscow.place.countryCode == "RU")
    #expect(moscow.place.population > 10_000_000)
  }

  @Test(arguments: [
    ("Springfield, IL", "US", "Illinois"),
    ("Springfield, Illinois", "US", "Illinois"),
    ("Springfield, Illinois, USA", "US", "Illinois"),
    ("Springfield, MO", "US", "Missouri"),
    ("Paris, FR", "FR", "Île-de-France"),
    ("Paris, Texas", "US", "Texas"),
    ("Córdoba, Spain", "ES", "Andalucía"),
    ("Cordoba, Argentina", "AR", "Córdoba"),
    ("Skjern, DK-82", "DK", "Midtjylland"),
    ("Skjern, DNK", "DK", "Midtjylland"),
  ])
  func qualifiersNarrowTheSearch(text: String, country: String, region: String) throws {
    let first = try #require(Self.gazetteer.search(text).matches.first, "\(text)")
    #expect(first.place.countryCode == country, "\(text)")
    #expect(first.place.region?.name == region, "\(text): \(String(describing: first.place.region))")
  }

  @Test func aTypoGetsSuggestions() {
    let search = Self.gazetteer.search("Copenhagn")
    #expect(search.matches.isEmpty)
    #expect(search.problem == .unknownName)
    #expect(search.suggestions.first == "Copenhagen")
    #expect(search.explanation?.contains("did you mean 'Copenhagen'") == true)
  }

  @Test func aNameInTheWrongCountrySuggestsWhereItIs() {
    let search = Self.gazetteer.search("Skjern, France")
    #expect(search.matches.isEmpty)
    #expect(search.problem == .noneWhereQualified)
    #expect(search.suggestions.contains("Skjern, DK"))
  }

  @Test(arguments: ["", "   ", ",", ", Denmark"])
  func emptyNamesAreRefused(text: String) {
    let search = Self.gazetteer.search(text)
    #expect(search.matches.isEmpty)
    #expect(search.problem == .emptyName)
    #expect(search.explanation == "give a place name, e.g. 'Copenhagen' or 'Springfield, IL'")
  }

  @Test func nonsenseFindsNothingAndSaysSo() {
    let search = Self.gazetteer.search("Xqzvbnmwk")
    #expect(search.matches.isEmpty)
    #expect(search.suggestions.isEmpty)
    #expect(search.explanation == "no place is called 'Xqzvbnmwk'")
  }

  @Test func editDistance() {
    var distance = EditDistance(target: Array("kitten".utf8))
    #expect(distance.distance(to: Array("sitting".utf8), atMost: 3) == 3)
    #expect(distance.distance(to: Array("sitting".utf8), atMost: 2) == nil)
    #expect(distance.distance(to: Array("kitten".utf8), atMost: 0) == 0)
    #expect(distance.distance(to: Array("kittens".utf8), atMost: 1) == 1)
  }
}
