#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds places by name: forward geocoding over the bundled GeoNames places.
///
/// Names are compared by their search keys (``PlaceNameKey/fold(_:)``), so case, diacritics and
/// punctuation do not matter, and every alternate name GeoNames lists counts, in any script:
/// "Copenhagen", "københavn", "Kopenhagen" and "Копенгаген" all find Copenhagen, Denmark.
///
/// Text after a comma narrows the search: each qualifier must name the place's country (ISO alpha-2 or
/// alpha-3 code, or English name) or its first-level region (name, GeoNames code or ISO 3166-2 code):
/// "Springfield, IL", "Paris, FR", "Córdoba, Spain", "Springfield, Illinois, US".
///
/// Matches come best first, by population and by the kind of name together: a place's own name counts as a
/// hundred times the population (``ownNameWeight``), so "Bombay" finds Mumbai before Bombay, New Zealand, and
/// "Victoria" finds Victoria before Hong Kong, which is also called so. When nothing matches,
/// ``GazetteerSearch/suggestions`` holds the nearest spellings that do ("did you mean Copenhagen?").
///
/// ```swift
/// let gazetteer = try Gazetteer(data: PlaceData())
/// gazetteer.search("Kopenhagen").matches.first?.place.name  // "Copenhagen"
/// ```
public struct Gazetteer: Sendable {
  /// The places searched.
  public let places: PlaceLayer
  private let countries: CountryNames
  private let countryLayer: CountryLayer
  private let timeZones: TimeZoneLayer?
  /// The data the layers came from, for the names of lakes, islands and seas (``feature(named:)``).
  private var data: PlaceData?

  /// A gazetteer over the places of `data`, with country names from its countries layer.
  public init(data: PlaceData) throws(PlaceDataError) {
    self.init(places: try data.places(), countries: try data.countries(), timeZones: try data.timeZones())
    self.data = data
  }

  /// A point of the lake, second-level region, island or sea called `text` (by the names Tunnel prints:
  /// "Lake Superior", "Cook County", "Antipodes Island", "Tasman Sea"); nil when none is called so, for text with a qualifier after a
  /// comma, and for a gazetteer made without its ``PlaceData``.
  public func feature(named text: String) -> Coordinate? {
    guard let data, !text.contains(",") else { return nil }
    return FeatureNames.point(named: text, in: data)
  }

  /// A point of the lake called `text` ("Lake Superior"), inside the lake; nil as for ``feature(named:)``.
  public func lake(named text: String) -> Coordinate? {
    guard let data, !text.contains(",") else { return nil }
    return FeatureNames.lakePoint(named: text, in: data)
  }

  /// A gazetteer over `places`; `countries` supplies the country names qualifiers may use, and
  /// `timeZones`, when given, settles whether a place near a border lies in its own country as the
  /// geocoder does (``ReverseGeocoder/borderAccuracyKm``).
  public init(places: PlaceLayer, countries: CountryLayer, timeZones: TimeZoneLayer? = nil) {
    self.places = places
    self.countries = CountryNames(countries)
    countryLayer = countries
    self.timeZones = timeZones
  }

  /// The English name of a country by its ISO alpha-2 code, if the countries layer knows it.
  public func countryName(forCode code: String) -> String? {
    countries.name(forCode: code)
  }

  /// The places named by `text`, best first, at most `limit` of them; suggestions when there are none.
  ///
  /// - Complexity: a lookup in the name index, O(log *k*) for *k* keys, plus the matches; when nothing
  ///   matches, one pass over all keys for suggestions (tens of milliseconds).
  public func search(_ text: String, limit: Int = 10) -> GazetteerSearch {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false).map {
      PlaceNameKey.fold(String($0))
    }
    let name = parts.first ?? ""
    let qualifiers = parts.dropFirst().filter { !$0.isEmpty }
    guard !name.isEmpty else {
      return GazetteerSearch(query: text, matches: [], suggestions: [], problem: .emptyName)
    }
    let candidates = places.matches(forKey: name)
    var matches: [GazetteerMatch] = []
    for candidate in ranked(candidates) where matches.count < limit {
      let place = places.place(at: candidate.place)
      guard qualifiers.allSatisfy({ qualifies(place, $0) }) else { continue }
      matches.append(
        GazetteerMatch(
          place: place, viaAlternateName: candidate.viaAlternateName,
          countryName: countries.name(forCode: place.countryCode)))
    }
    if !matches.isEmpty {
      return GazetteerSearch(query: text, matches: matches, suggestions: [], problem: nil)
    }
    if !candidates.isEmpty {
      // The name exists, but not where the qualifiers say: suggest where it does.
      var seen = Set<String>()
      var suggestions: [String] = []
      for candidate in candidates.prefix(50) where suggestions.count < 5 {
        let place = places.place(at: candidate.place)
        let suggestion = "\(place.name), \(place.countryCode)"
        if seen.insert(suggestion).inserted { suggestions.append(suggestion) }
      }
      return GazetteerSearch(query: text, matches: [], suggestions: suggestions, problem: .noneWhereQualified)
    }
    return GazetteerSearch(
      query: text, matches: [], suggestions: suggestions(forKey: name), problem: .unknownName)
  }

  /// How much a place's own name outweighs an alternate one, in powers of ten of population: a place found
  /// by another name ranks above one of that very name only when it is more than a hundred times as populous.
  /// "Bombay" is then Mumbai (12.7 million), not Bombay, New Zealand (740); "Cologne" Köln, not Cologne,
  /// Minnesota; but "Victoria" stays Victoria, not Hong Kong (7.4 million, also called so), and "Athens"
  /// Athens, Greece.
  public static let ownNameWeight = 2.0

  /// `candidates` best first: by the decimal logarithm of the population, plus ``ownNameWeight`` for a
  /// place's own name; ties keep the index's order (own names first, then by population).
  func ranked(_ candidates: [PlaceNameMatch]) -> [PlaceNameMatch] {
    guard candidates.contains(where: \.viaAlternateName) else { return candidates }
    let scores = candidates.map { candidate in
      log10(Double(max(places.population(at: candidate.place), 1)))
        + (candidate.viaAlternateName ? 0 : Self.ownNameWeight)
    }
    let order = candidates.indices.sorted { (scores[$0], -$0) > (scores[$1], -$1) }
    return order.map { candidates[$0] }
  }

  /// Whether `qualifier` (folded) names the place's country or region.
  private func qualifies(_ place: Place, _ qualifier: String) -> Bool {
    if countries.matches(code: place.countryCode, qualifier: qualifier) { return true }
    guard let region = place.region else { return false }
    if PlaceNameKey.fold(region.name) == qualifier || PlaceNameKey.fold(region.code) == qualifier {
      return true
    }
    if let iso = region.isoCode {
      let folded = PlaceNameKey.fold(iso)  // "DK-82" folds to "dk 82"
      if folded == qualifier || folded.split(separator: " ").last.map(String.init) == qualifier {
        return true
      }
    }
    return false
  }

  /// The country `text` names, as a match whose place stands for it: the country's most populous place.
  ///
  /// A country is named by its English name, long or short, in any case ("Denmark", "united states",
  /// "Dem. Rep. Congo"), or by its ISO 3166-1 alpha-2 or alpha-3 code in capitals ("DK", "DNK"; "RE" for
  /// Réunion, which the countries layer has as a territory of its own). The
  /// bundled places do not say which is a capital, so the most populous stands for the country: the
  /// capital in most countries, but Sydney for Australia and Istanbul for Turkey; of places the countries
  /// layer draws inside another country and whose time zone is not its own country's, the next (Palestine
  /// is Gaza, not East Jerusalem, which Natural Earth's point of view draws in Israel; Gibraltar is the
  /// town of Gibraltar, drawn 400 m outside Gibraltar but in its zone). A country with no place
  /// at all (Antarctica, Heard Island and McDonald Islands, Bouvet Island) is stood for by a point inside it
  /// (``CountryLayer/interiorPoint(of:)``), named after the country, with ``GazetteerMatch/pointInsideCountry``
  /// set. Nil when the text names no country.
  ///
  /// - Complexity: O(*n*) over the places' country codes, about a millisecond.
  public func country(named text: String) -> GazetteerMatch? {
    guard let code = countries.code(naming: text), code.utf8.count == 2 else { return nil }
    let bytes = Array(code.utf8)
    let value = UInt16(bytes[0]) | UInt16(bytes[1]) << 8
    var own = (0..<places.count).filter { places.countryCodeValue(at: $0) == value }
    own.sort { (places.population(at: $0), -$0) > (places.population(at: $1), -$1) }
    let best = own.prefix(10).first { !drawnInAnotherCountry(places.coordinate(at: $0), code) } ?? own.first
    guard let best else {
      guard let feature = countries.feature(forCode: code), let name = countries.name(forCode: code) else {
        return nil
      }
      var asciiName = ""
      for scalar in name.unicodeScalars {
        PlaceNameKey.forEachDecomposed(scalar) { if $0.isASCII { asciiName.unicodeScalars.append($0) } }
      }
      let inside = Place(
        index: -1, geonameID: 0, name: name, asciiName: asciiName, countryCode: code, region: nil,
        population: 0, timeZone: "", coordinate: countryLayer.interiorPoint(of: feature))
      return GazetteerMatch(
        place: inside, viaAlternateName: false, countryName: name, standsForCountry: true,
        pointInsideCountry: true)
    }
    return GazetteerMatch(
      place: places.place(at: best), viaAlternateName: false, countryName: countries.name(forCode: code),
      standsForCountry: true)
  }

  /// The most populous place of the first-level regions named `text` (GeoNames' names, compared as place
  /// names are), as a match by another name: "Svalbard" is Longyearbyen, "Queensland" Brisbane. Nil when
  /// no region is called so, or when `text` has a qualifier. ``LocationQuery`` asks it when no place has
  /// the name: reading the region names touches about 3 MB of the place data.
  ///
  /// - Complexity: the region names are read, and only those whose ASCII letters and digits could be in
  ///   the key are folded (a fraction of a millisecond); when one matches, one pass over the places finds
  ///   its largest.
  public func region(named text: String) -> GazetteerMatch? {
    let key = PlaceNameKey.fold(text)
    guard !key.isEmpty, !text.contains(",") else { return nil }
    var named = Set<Int>()
    for region in 0..<places.regionCount {
      let name = places.regionName(region)
      if Self.asciiAlphanumerics(of: name, canBeIn: key), PlaceNameKey.fold(name) == key {
        named.insert(region)
      }
    }
    guard !named.isEmpty else { return nil }
    let seats = RegionNames.seats(in: places) { named.contains($0) }
    guard
      let best = seats.keys.sorted().compactMap({ seats[$0] }).max(by: {
        places.population(at: $0) < places.population(at: $1)
      })
    else { return nil }
    let place = places.place(at: best)
    return GazetteerMatch(
      place: place, viaAlternateName: true, countryName: countries.name(forCode: place.countryCode))
  }

  /// Whether the ASCII letters and digits of `name`, in lower case, appear in that order in `key`: folding
  /// keeps each of them so, so a name for which this is false cannot fold to `key`. Much cheaper than
  /// folding, which for a name with other letters reads the decomposition table.
  static func asciiAlphanumerics(of name: String, canBeIn key: String) -> Bool {
    var remaining = key.utf8.makeIterator()
    for byte in name.utf8 {
      let lower: UInt8
      switch byte {
      case 65...90: lower = byte | 0x20
      case 97...122, 48...57: lower = byte
      default: continue
      }
      while true {
        guard let next = remaining.next() else { return false }
        if next == lower { break }
      }
    }
    return true
  }

  /// Whether the countries layer draws a point inside another country's polygon and not inside that of
  /// `code`.
  private func drawnInAnotherCountry(_ point: Coordinate, _ code: String) -> Bool {
    let around = countryLayer.countries(containing: point)
    guard !around.isEmpty, !around.contains(where: { $0.isoAlpha2 == code }) else { return false }
    // A place whose time zone is its own country's lies in it, as the geocoder's border rule has it: the town
    // of Gibraltar is 400 m outside Gibraltar's polygon, in Europe/Gibraltar; East Jerusalem, drawn in Israel,
    // is in Jerusalem's zone, Israel's.
    if let timeZones, let zone = timeZones.polygons.features(containing: point).first,
      timeZones.countryCode(zone) == code
    {
      return false
    }
    return true
  }

  /// The countries (alpha-2 code and name) that `text` names alike, such as the two Congos for
  /// "Congo": a name that must not quietly become one of them, nor a village called so.
  public func countries(sharingName text: String) -> [(code: String, name: String)] {
    countries.codes(sharing: text).map { ($0, countries.name(forCode: $0) ?? $0) }
  }

  /// Names close to `key` by edit distance, best places first.
  ///
  /// Keys within one edit (two for keys of more than five characters) are considered, ranked by spelling
  /// and size together: each edit counts as much as a factor of 1,000 in population, so "Lodnon" suggests
  /// London (two edits, 9 million people) before Loddon (one edit, a village).
  func suggestions(forKey key: String, limit: Int = 5) -> [String] {
    let target = Array(key.utf8)
    let allowed = target.count > 5 ? 2 : 1
    var found: [(distance: Int, population: Int, name: String)] = []
    var distances = EditDistance(target: target)
    places.forEachKey { candidate, best in
      guard abs(candidate.count - target.count) <= allowed,
        let distance = distances.distance(to: candidate, atMost: allowed)
      else { return }
      found.append((distance, places.population(at: best.place), places.name(at: best.place)))
    }
    func score(_ candidate: (distance: Int, population: Int, name: String)) -> Double {
      Double(candidate.distance) - log10(Double(max(candidate.population, 1))) / 3
    }
    found.sort { (score($0), $0.name) < (score($1), $1.name) }
    var seen = Set<String>()
    var names: [String] = []
    for candidate in found where names.count < limit && seen.insert(candidate.name).inserted {
      names.append(candidate.name)
    }
    return names
  }
}

/// The outcome of ``Gazetteer/search(_:limit:)``.
public struct GazetteerSearch: Sendable, Hashable {
  /// Why nothing was found.
  public enum Problem: Sendable, Hashable {
    /// The text has no name before its first comma (or is empty).
    case emptyName
    /// No place has that name.
    case unknownName
    /// Places have that name, but none in the country or region given.
    case noneWhereQualified
  }

  /// The text searched for.
  public var query: String
  /// The places found, best first.
  public var matches: [GazetteerMatch]
  /// When nothing was found: names that would find something, best first.
  public var suggestions: [String]
  /// When nothing was found: why.
  public var problem: Problem?

  /// A sentence for people when nothing was found: what was wrong and what might be meant.
  public var explanation: String? {
    guard matches.isEmpty else { return nil }
    let hint =
      suggestions.isEmpty
      ? "" : "; did you mean \(suggestions.map { "\(EchoedText.quoted($0))" }.joined(separator: " or "))?"
    switch problem {
    case .emptyName?, nil: return "give a place name, e.g. 'Copenhagen' or 'Springfield, IL'"
    case .unknownName?: return "no place is called \(EchoedText.quoted(query))\(hint)"
    case .noneWhereQualified?:
      return "no place called \(EchoedText.quoted(query)) is in that country or region\(hint)"
    }
  }
}

/// A place found by name.
public struct GazetteerMatch: Sendable, Hashable, Codable {
  /// The place.
  public var place: Place
  /// Whether an alternate name matched rather than the place's own name.
  public var viaAlternateName: Bool
  /// The English name of the place's country, when known.
  public var countryName: String?
  /// Whether the text named the place's country rather than the place, which then stands for the
  /// country (``Gazetteer/country(named:)``).
  public var standsForCountry = false
  /// Whether the country has no place to stand for it, so that ``place`` is a point inside the country,
  /// named after it, with no GeoNames entry (index -1, identifier 0), population or time zone of its own.
  public var pointInsideCountry = false
}
