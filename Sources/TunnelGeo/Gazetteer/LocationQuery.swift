/// Where a piece of user text points: a coordinate written out, or a place found by name.
///
/// Text is first read as a coordinate (``Coordinate/init(parsing:)``); only when that fails is it looked
/// up by name, so `tunnel 56 8.5` never opens the place data and `tunnel Skjern` finds the town.
public struct LocationQuery: Sendable, Hashable {
  /// Where the text points.
  public var coordinate: Coordinate
  /// The place the text named, when it was a name rather than a coordinate.
  public var place: GazetteerMatch?

  /// Resolves `text` to a coordinate, asking `gazetteer` only when the text is not a coordinate.
  ///
  /// - Throws: ``LocationQueryError``: the coordinate's own error when the text looks like numbers,
  ///   otherwise what the name search found wrong, with suggestions.
  public init(
    _ text: String, gazetteer: () throws(PlaceDataError) -> Gazetteer
  ) throws(LocationQueryError) {
    do {
      coordinate = try Coordinate(parsing: text)
      place = nil
      return
    } catch {
      // Text with digits in it was meant as a coordinate: say what is wrong with it as one.
      if text.contains(where: \.isNumber) || text.lowercased().hasPrefix("geo:") {
        throw .coordinate(error)
      }
    }
    let search: GazetteerSearch
    do {
      search = try gazetteer().search(text, limit: 1)
    } catch {
      throw .data(error)
    }
    guard let first = search.matches.first else { throw .place(search) }
    coordinate = first.place.coordinate
    place = first
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

  public var description: String {
    switch self {
    case .coordinate(let error): error.description
    case .place(let search): search.explanation ?? "no place found for \(EchoedText.quoted(search.query))"
    case .data(let error): error.description
    }
  }
}
