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

  /// Every pair of capital letters A–Z is a country in the data or refused as no country's code: never a
  /// town reached through an alternate name ("AK" was Acq, France). Written otherwise, a name is searched.
  @Test("Two capital letters are a country's code or refused, never a town called so")
  func twoCapitals() throws {
    let letters = (65...90).map { Character(Unicode.Scalar(UInt8($0))) }
    var countries = 0
    for first in letters {
      for second in letters {
        let code = String([first, second])
        let result = Result { () throws(LocationQueryError) in try Self.query(code) }
        switch result {
        case .success(let found):
          let place = try #require(found.place)
          // "UK" is the everyday name of GB, whose ISO code it is not.
          let country = code == "UK" ? "GB" : code
          #expect(
            place.standsForCountry && place.place.countryCode == country, "\(code): \(place.place.name)")
          countries += 1
        case .failure(.notACountryCode(code)):
          #expect(Self.gazetteer.countryName(forCode: code) == nil, "\(code)")
          #expect(
            LocationQueryError.notACountryCode(code).description.hasPrefix("'\(code)' is not the ISO code"))
        case .failure(let error):
          Issue.record("\(code) gave \(error)")
        }
      }
    }
    #expect(countries > 200)
    // Territories that Natural Earth draws in France, Norway, the Netherlands, Australia and New Zealand.
    for code in ["RE", "MQ", "GP", "GF", "YT", "SJ", "BQ", "CX", "CC", "TK"] {
      #expect(try Self.query(code).place?.place.countryCode == code, "\(code)")
    }
    #expect(try Self.query("Ak").place?.place.countryCode == "FR")  // written as a name: searched
    #expect(try Self.query("AK, FR").place != nil)  // with a qualifier: a name
  }

  /// Country names are written in full, and each name Tunnel prints for a country finds that country again.
  @Test("Every country's name is written in full and finds the country")
  func countryNamesInFull() throws {
    let layer = try PlaceData().countries()
    var checked = 0
    for feature in 0..<layer.polygons.featureCount {
      let country = layer.country(feature)
      #expect(!country.name.contains(".") && !country.name.hasPrefix("St-"), "\(country.name)")
      guard let code = country.isoAlpha2, Self.gazetteer.countryName(forCode: code) == country.name else {
        continue
      }
      let found = Result { () throws(LocationQueryError) in try Self.query(country.name) }
      #expect((try? found.get())?.place?.place.countryCode == code, "\(country.name): \(found)")
      checked += 1
    }
    #expect(checked > 200)
    #expect(try Self.query("Holy See").place?.place.countryCode == "VA")
    // East Jerusalem, GeoNames' most populous place of Palestine, lies in Israel as Natural Earth draws it.
    #expect(try Self.query("Palestine").place?.place.name == "Gaza")
    // The town of Gibraltar lies 400 m outside Natural Earth's Gibraltar, in Gibraltar's time zone.
    #expect(try Self.query("Gibraltar").place?.place.name == "Gibraltar")
    for (name, code) in [("Réunion", "RE"), ("Martinique", "MQ"), ("Svalbard and Jan Mayen", "SJ")] {
      #expect(try Self.query(name).place?.place.countryCode == code, "\(name)")
    }
    for (name, code) in [
      ("Bosnia and Herzegovina", "BA"), ("Central African Republic", "CF"), ("Western Sahara", "EH"),
      ("Saint Barthélemy", "BL"), ("Faroe Islands", "FO"), ("Heard Island and McDonald Islands", "HM"),
      ("Palestine", "PS"), ("Kosovo", "XK"),
    ] {
      #expect(Self.gazetteer.countryName(forCode: code) == name)
      #expect(try Self.query(name).place?.place.countryCode == code, "\(name)")
    }
  }

  /// A first-level region's name that no place has stands for the region's most populous place (GeoNames'
  /// regions and populations); a name that places have is theirs.
  @Test(
    "A region's name that no place has is its largest place",
    arguments: [
      ("Svalbard", "SJ", "Longyearbyen", true), ("Victoria", "HK", "Victoria", false),
    ])
  func regionNames(text: String, country: String, place: String, byAnotherName: Bool) throws {
    let found = try #require(try Self.query(text).place)
    #expect(found.place.countryCode == country && found.place.name == place, "\(text): \(found)")
    #expect(found.viaAlternateName == byAnotherName && !found.standsForCountry)
  }

  /// The cheap test that spares a region name its folding never turns away a name that folds to the key:
  /// checked on every region name of the data against its own key.
  @Test("A region name is folded only when its ASCII letters could be in the key, and never missed")
  func regionNamePrefilter() throws {
    let places = Self.gazetteer.places
    for region in 0..<places.regionCount {
      let name = places.regionName(region)
      #expect(Gazetteer.asciiAlphanumerics(of: name, canBeIn: PlaceNameKey.fold(name)), "\(name)")
    }
    #expect(places.regionCount > 3_000)
    #expect(!Gazetteer.asciiAlphanumerics(of: "Sjælland", canBeIn: "skjern"))
    #expect(Gazetteer.asciiAlphanumerics(of: "Île-de-France", canBeIn: "ile de france"))
  }

  /// A country without a single populated place in the data is stood for by a point inside it, by its code
  /// and by its name: "where AQ" and "where Antarctica" are Antarctica, as the output names it.
  @Test(
    "A country with no places is a point inside it, by code and by name",
    arguments: [("AQ", "AQ"), ("Antarctica", "AQ"), ("HM", "HM")])
  func countryWithoutPlaces(text: String, code: String) throws {
    let found = try #require(try Self.query(text).place)
    #expect(found.standsForCountry && found.pointInsideCountry)
    #expect(found.place.countryCode == code && found.place.population == 0 && found.place.index == -1)
    let layer = try PlaceData().countries()
    let inside = layer.countries(containing: found.place.coordinate).compactMap(\.isoAlpha2)
    #expect(inside.contains(code), "\(text) at \(found.place.coordinate): \(inside)")
  }

  @Test(
    "A qualifier without a comma or written with points finds the place: 'Springfield IL', 'Washington, D.C.'",
    arguments: [
      ("Springfield IL", "US", "Illinois"), ("Washington, D.C.", "US", "District of Columbia"),
      ("Springfield MO", "US", "Missouri"), ("Perth WA", "AU", "Western Australia"),
    ])
  func qualifiers(text: String, country: String, region: String) throws {
    let place = try #require(try Self.query(text).place?.place)
    #expect(place.countryCode == country && place.region?.name == region, "\(text): \(place.name)")
  }

  @Test("An ambiguous name says how many places have it; a unique one or a coordinate does not")
  func namesakes() throws {
    let springfield = try Self.query("Springfield")
    let expected = Self.gazetteer.search("Springfield", limit: 100).matches.count
    #expect(springfield.namesakes == expected && expected > 10)
    #expect(try Self.query("Skjern").namesakes == 1)
    #expect(try Self.query("56 8.5").namesakes == 0)
  }

  @Test("A link that names a place without a coordinate finds it by name; a short plus code by its place")
  func linksAndShortCodes() throws {
    let skjern = try #require(try Self.query("Skjern").place?.place)
    for link in ["https://www.google.com/maps/place/Skjern", "geo:0,0?q=Skjern"] {
      #expect(try Self.query(link).place?.place == skjern, "\(link)")
    }
    let full = OpenLocationCode.encode(latitude: 55.967, longitude: 8.522)
    let short = String(full.dropFirst(4))
    let found = try Self.query("\(short) Skjern")
    let centre = try #require(OpenLocationCode.decodeCentre(Substring(full)))
    #expect(
      abs(found.coordinate.latitude - centre.latitude) < 1e-12
        && abs(found.coordinate.longitude - centre.longitude) < 1e-12)
    #expect(found.place == nil)
  }

  @Test("A notation Tunnel names but does not read is reported as such, not looked up as a name")
  func namedNotations() {
    do {
      _ = try Self.query("///filled.count.soap")
      Issue.record("read")
    } catch {
      #expect(error.description.contains("what3words"), "\(error)")
    }
  }

  @Test(
    "Links inside links and codes before codes are unwrapped once, so no text nests the resolution deeply")
  func nestingIsBounded() {
    let links = String(repeating: "geo:0,0?q=", count: 20_000) + "Skjern"
    let codes = String(repeating: "XG8C+XX ", count: 20_000) + "Skjern"
    for text in [links, codes] {
      // A plain error (or an answer), not a stack overflow.
      _ = try? Self.query(text)
    }
    #expect(throws: LocationQueryError.self) { try Self.query(codes) }
  }
}
