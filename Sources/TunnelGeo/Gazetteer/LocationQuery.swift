/// Where a piece of user text points: a coordinate written out, or a place found by name.
///
/// Text is first read as a coordinate (``Coordinate/init(parsing:)``); only when that fails is it looked
/// up by name, so `tunnel 56 8.5` never opens the place data and `tunnel Skjern` finds the town.
///
/// Names mean, in this order:
/// 1. "North Pole" and "South Pole" (any case): the geographic poles, 90° N and 90° S;
/// 2. a country's name or ISO code ("Denmark", "DK", "DNK"): the country, at its most populous place
///    (``Gazetteer/country(named:)``), not Denmark, South Carolina;
/// 3. a name that several countries share ("Congo", "Korea" when both are spelled so): an error naming
///    them, not a village called so; and two capital letters that are no country's code ("AK"): an
///    error, not a town that happens to be called so;
/// 4. a lake's name, unless a place of that name has ``lakeOutranksPopulation`` inhabitants: a point of the
///    lake (``Gazetteer/lake(named:)``), so "Lake Albert" is the lake, not a village in New South Wales;
/// 5. anything else, and any name with a qualifier after a comma: places by that name
///    (``Gazetteer/search(_:limit:)``), so "Denmark, US" and "North Pole, Alaska" find those towns;
/// 6. a name no place has: a region's, at its most populous place (``Gazetteer/region(named:)``), else a
///    second-level region's, an island's or a sea's, at a point of it (``Gazetteer/feature(named:)``).
///
/// ```swift
/// let data = try PlaceData()
/// let town = try LocationQuery("Skjern") { () throws(PlaceDataError) in try Gazetteer(data: data) }
/// town.coordinate  // 55.95, 8.5
/// town.place?.place.name  // "Skjern"
/// let numbers = try LocationQuery("56 8.5") { () throws(PlaceDataError) in try Gazetteer(data: data) }
/// numbers.place  // nil: the gazetteer was never loaded
/// ```
public struct LocationQuery: Sendable, Hashable, Codable {
  /// Where the text points.
  public var coordinate: Coordinate
  /// The place the text named, when it was a name rather than a coordinate.
  public var place: GazetteerMatch?
  /// How many places have the name the text gave, the one taken included (up to 100): more than one says
  /// the name was ambiguous, and that `tunnel find` lists the others. 0 when no place was named.
  public var namesakes: Int

  /// A coordinate given as numbers (no place named).
  public init(coordinate: Coordinate, place: GazetteerMatch? = nil) {
    self.coordinate = coordinate
    self.place = place
    namesakes = place == nil ? 0 : 1
  }

  /// Resolves `text` to a coordinate, asking `gazetteer` only when the text is not a coordinate.
  ///
  /// - Throws: ``LocationQueryError``: the coordinate's own error when the text looks like numbers,
  ///   otherwise what the name search found wrong, with suggestions.
  public init(
    _ text: String, gazetteer gazetteerLoader: () throws(PlaceDataError) -> Gazetteer
  ) throws(LocationQueryError) {
    try self.init(text, gazetteer: gazetteerLoader, unwrapping: true)
  }

  /// Resolves `text`; only when `unwrapping`, a link that names a place and a short plus code with a place
  /// are read as what they hold. What they hold is resolved without unwrapping, so that a link inside a
  /// link, or codes before codes, cannot nest the resolution deeper than one level, however long the text.
  private init(
    _ text: String, gazetteer gazetteerLoader: () throws(PlaceDataError) -> Gazetteer, unwrapping: Bool
  ) throws(LocationQueryError) {
    namesakes = 0
    // A map link that names a place without its coordinates ("…/maps/place/Skjern"): that name.
    if unwrapping, let target = try? MapLink.target(of: text), case .name(let name) = target {
      self = try LocationQuery(name, gazetteer: gazetteerLoader, unwrapping: false)
      return
    }
    // A short plus code with the place it is near, as Google Maps shows it ("XG8C+XX Skjern").
    let words = unwrapping ? text.trimmingWhitespace().split(separator: " ", maxSplits: 1) : []
    if words.count == 2, OpenLocationCode.isShort(words[0]) {
      let near = try LocationQuery(String(words[1]), gazetteer: gazetteerLoader, unwrapping: false)
      guard
        let found = OpenLocationCode.recoverNearest(
          words[0], referenceLatitude: near.coordinate.latitude, referenceLongitude: near.coordinate.longitude
        )
      else {
        throw .coordinate(
          .unparsable(text: text, reason: "the plus code \(EchoedText.quoted(words[0])) cannot be read"))
      }
      do {
        coordinate = try Coordinate(validatingLatitude: found.latitude, longitude: found.longitude)
      } catch {
        throw .coordinate(error)
      }
      place = nil
      return
    }
    do {
      coordinate = try Coordinate(parsing: text)
      place = nil
      return
    } catch {
      // Text with ASCII digits in it was meant as a coordinate: say what is wrong with it as one.
      // Only ASCII digits count: CJK ideographs such as 京 and 万 are numerals to Unicode.
      // So was a notation Tunnel names but does not read ("///filled.count.soap", a short link).
      if text.contains(where: \.isASCIIDigit) || text.lowercased().hasPrefix("geo:") {
        throw .coordinate(error)
      }
      if case .unsupported = error { throw .coordinate(error) }
    }
    let unqualified = !text.contains(",")
    if unqualified, let pole = Self.pole(named: text) {
      coordinate = pole
      place = nil
      return
    }
    let gazetteer: Gazetteer
    do {
      gazetteer = try gazetteerLoader()
    } catch {
      throw .data(error)
    }
    if unqualified, let country = gazetteer.country(named: text) {
      coordinate = country.place.coordinate
      place = country
      return
    }
    if unqualified, let code = Self.twoCapitals(text) {
      // Two capitals read as a country code, which this is not: not a town that happens to be called so.
      throw .notACountryCode(code)
    }
    let sharing = unqualified ? gazetteer.countries(sharingName: text) : []
    if !sharing.isEmpty {
      throw .sharedCountryName(text, countries: sharing.map { "\($0.name) (\($0.code))" })
    }
    var search = gazetteer.search(text, limit: Self.namesakeLimit)
    if search.matches.isEmpty, let qualified = Self.qualifiedForm(of: text) {
      // "Springfield IL", "Washington, D.C.": the last word as the country or region.
      let retried = gazetteer.search(qualified, limit: Self.namesakeLimit)
      if !retried.matches.isEmpty { search = retried }
    }
    // A lake's name, as Tunnel prints it, stands for the lake before a smaller town of that name: every lake
    // named is one the world's small-scale maps show ("Lake Albert", not Lake Albert, New South Wales).
    if unqualified, search.matches.first.map({ $0.place.population < Self.lakeOutranksPopulation }) ?? true,
      let lake = gazetteer.lake(named: text)
    {
      coordinate = lake
      place = nil
      return
    }
    // No place is called so: a region's name stands for its most populous place ("Svalbard": Longyearbyen).
    if search.matches.isEmpty, unqualified, let region = gazetteer.region(named: text) {
      coordinate = region.place.coordinate
      place = region
      return
    }
    // Nor any region: a county's, a département's, an island's or a sea's name, as Tunnel prints them,
    // stands for a point of it.
    if search.matches.isEmpty, unqualified, let point = gazetteer.feature(named: text) {
      coordinate = point
      place = nil
      return
    }
    guard let first = search.matches.first else { throw .place(search) }
    coordinate = first.place.coordinate
    place = first
    namesakes = search.matches.count
  }

  /// A lake's name stands for the lake unless a place of that name has at least this many inhabitants.
  public static let lakeOutranksPopulation = 100_000

  /// Places of one name counted, at most.
  public static let namesakeLimit = 100

  /// `text` with its last word as a qualifier: "Springfield IL" as "Springfield, IL", and a qualifier
  /// written with points ("Washington, D.C.") without them; nil when there is no such form.
  static func qualifiedForm(of text: String) -> String? {
    var parts = text.split(separator: ",", omittingEmptySubsequences: false).map {
      String($0).trimmingWhitespace()
    }
    if parts.count == 1 {
      let words = parts[0].split(separator: " ")
      guard words.count >= 2 else { return nil }
      parts = [words.dropLast().joined(separator: " "), String(words.last!)]
    }
    let undotted = parts.enumerated().map { index, part in
      index > 0 && part.contains(".") && part.split(separator: ".").allSatisfy({ $0.count == 1 })
        ? part.filter { $0 != "." } : part
    }
    let form = undotted.joined(separator: ", ")
    return form == text ? nil : form
  }

  /// `text` without the spaces round it, when that is two capital letters A–Z ("AK"), as a country code is
  /// written.
  static func twoCapitals(_ text: String) -> String? {
    let trimmed = text.trimmingWhitespace()
    let bytes = Array(trimmed.utf8)
    return bytes.count == 2 && bytes.allSatisfy({ (65...90).contains($0) }) ? trimmed : nil
  }

  /// The pole `text` names ("North Pole", "south pole"), at longitude 0.
  static func pole(named text: String) -> Coordinate? {
    switch PlaceNameKey.fold(text) {
    case "north pole": Coordinate(uncheckedLatitude: 90, longitude: 0)
    case "south pole": Coordinate(uncheckedLatitude: -90, longitude: 0)
    default: nil
    }
  }
}

/// Why text could not be resolved to a location.
public enum LocationQueryError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The text looks like a coordinate but is not a valid one.
  case coordinate(CoordinateError)
  /// No place has that name (or none where the qualifiers say).
  case place(GazetteerSearch)
  /// The place data needed for a name search could not be read.
  case data(PlaceDataError)
  /// The text is a name that several countries share ("Congo"), written with each one's code.
  case sharedCountryName(String, countries: [String])
  /// The text is two capital letters, as a country code is written, but no country in the data has that
  /// ISO 3166-1 alpha-2 code ("AK").
  case notACountryCode(String)

  public var description: String {
    switch self {
    case .coordinate(let error): error.description
    case .place(let search): search.explanation ?? "no place found for \(EchoedText.quoted(search.query))"
    case .data(let error): error.description
    case .sharedCountryName(let text, let countries):
      "\(EchoedText.quoted(text)) names \(countries.count) countries, "
        + countries.joined(separator: " and ")
        + "; write the one you mean by its name or code"
    case .notACountryCode(let code):
      "\(EchoedText.quoted(code)) is not the ISO code of a country in the data; for a place called so, "
        + "write it as a name (\(EchoedText.quoted(code.prefix(1) + code.dropFirst().lowercased())))"
    }
  }
}
