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
///    them, not a village called so;
/// 4. anything else, and any name with a qualifier after a comma: places by that name
///    (``Gazetteer/search(_:limit:)``), so "Denmark, US" and "North Pole, Alaska" find those towns.
public struct LocationQuery: Sendable, Hashable {
  /// Where the text points.
  public var coordinate: Coordinate
  /// The place the text named, when it was a name rather than a coordinate.
  public var place: GazetteerMatch?

  /// A coordinate given as numbers (no place named).
  public init(coordinate: Coordinate, place: GazetteerMatch? = nil) {
    self.coordinate = coordinate
    self.place = place
  }

  /// Resolves `text` to a coordinate, asking `gazetteer` only when the text is not a coordinate.
  ///
  /// - Throws: ``LocationQueryError``: the coordinate's own error when the text looks like numbers,
  ///   otherwise what the name search found wrong, with suggestions.
  public init(
    _ text: String, gazetteer gazetteerLoader: () throws(PlaceDataError) -> Gazetteer
  ) throws(LocationQueryError) {
    do {
      coordinate = try Coordinate(parsing: text)
      place = nil
      return
    } catch {
      // Text with ASCII digits in it was meant as a coordinate: say what is wrong with it as one.
      // Only ASCII digits count: CJK ideographs such as 京 and 万 are numerals to Unicode.
      if text.contains(where: \.isASCIIDigit) || text.lowercased().hasPrefix("geo:") {
        throw .coordinate(error)
      }
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
    let sharing = unqualified ? gazetteer.countries(sharingName: text) : []
    if !sharing.isEmpty {
      throw .sharedCountryName(text, countries: sharing.map { "\($0.name) (\($0.code))" })
    }
    let search = gazetteer.search(text, limit: 1)
    guard let first = search.matches.first else { throw .place(search) }
    coordinate = first.place.coordinate
    place = first
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

  public var description: String {
    switch self {
    case .coordinate(let error): error.description
    case .place(let search): search.explanation ?? "no place found for \(EchoedText.quoted(search.query))"
    case .data(let error): error.description
    case .sharedCountryName(let text, let countries):
      "\(EchoedText.quoted(text)) names \(countries.count) countries, "
        + countries.joined(separator: " and ")
        + "; write the one you mean by its name or code"
    }
  }
}
