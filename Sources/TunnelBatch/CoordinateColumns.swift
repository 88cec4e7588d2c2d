import Foundation
import TunnelGeo

/// Which columns of a row hold its coordinate, and how their text becomes one.
public enum CoordinateColumns: Sendable, Equatable {
  /// A latitude column and a longitude column (0-based).
  case pair(latitude: Int, longitude: Int)
  /// One column holding a whole coordinate in any form the coordinate parser reads.
  case single(Int)

  /// Column names that mean latitude, longitude, or a whole coordinate, compared without case.
  static let latitudeNames: Set<String> = [
    "lat", "latitude", "y", "lat_deg", "latitude_deg", "decimallatitude",
  ]
  static let longitudeNames: Set<String> = [
    "lon", "lng", "long", "longitude", "x", "lon_deg", "longitude_deg", "decimallongitude",
  ]
  static let coordinateNames: Set<String> = [
    "coordinate", "coordinates", "coord", "coords", "location", "position", "point", "latlon", "latlng",
    "lat_lon", "lat_lng", "lat/lon", "geo",
  ]

  /// What the user named with `--lat-column`, `--lon-column` and `--coordinate-column`.
  public struct Names: Sendable, Equatable {
    public var latitude: String?
    public var longitude: String?
    public var coordinate: String?

    public init(latitude: String? = nil, longitude: String? = nil, coordinate: String? = nil) {
      self.latitude = latitude
      self.longitude = longitude
      self.coordinate = coordinate
    }

    var isEmpty: Bool { latitude == nil && longitude == nil && coordinate == nil }
  }

  /// The columns a header names, by the user's names first, then the common ones; nil when the header
  /// names none (a header that names one of a pair without the other also gives nil).
  ///
  /// - Throws: ``BatchError/unknownColumn(option:name:header:)`` for a name the user gave that is not in
  ///   the header, ``BatchError/sameColumn(name:)`` when the latitude's and the longitude's are one.
  static func find(in header: [String], names: Names) throws(BatchError) -> CoordinateColumns? {
    let folded = header.map { $0.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() }
    func position(_ name: String, option: String) throws(BatchError) -> Int {
      if let exact = header.firstIndex(of: name) { return exact }
      if let loose = folded.firstIndex(of: name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased())
      {
        return loose
      }
      if let number = Int(name), number >= 1, number <= header.count { return number - 1 }
      throw .unknownColumn(option: option, name: name, header: header)
    }
    if let coordinate = names.coordinate {
      return .single(try position(coordinate, option: "--coordinate-column"))
    }
    if !names.isEmpty {
      let latitude = try names.latitude.map { name throws(BatchError) in
        try position(name, option: "--lat-column")
      }
      let longitude = try names.longitude.map { name throws(BatchError) in
        try position(name, option: "--lon-column")
      }
      guard let foundLatitude = latitude ?? folded.firstIndex(where: { latitudeNames.contains($0) }) else {
        throw .missingColumn(option: "--lat-column", header: header)
      }
      guard let foundLongitude = longitude ?? folded.firstIndex(where: { longitudeNames.contains($0) }) else {
        throw .missingColumn(option: "--lon-column", header: header)
      }
      if foundLatitude == foundLongitude { throw .sameColumn(name: header[foundLatitude]) }
      return .pair(latitude: foundLatitude, longitude: foundLongitude)
    }
    if let latitude = folded.firstIndex(where: { latitudeNames.contains($0) }),
      let longitude = folded.firstIndex(where: { longitudeNames.contains($0) })
    {
      return .pair(latitude: latitude, longitude: longitude)
    }
    if let single = folded.firstIndex(where: { coordinateNames.contains($0) }) { return .single(single) }
    return nil
  }

  /// The columns of a first row that is data, not a header: a coordinate in the first column, or a
  /// latitude and a longitude in the first two; nil when the row reads as neither.
  static func guess(fromData row: [String]) -> CoordinateColumns? {
    if row.count >= 2, Double(row[0].trimmingCharacters(in: .whitespacesAndNewlines)) != nil,
      Double(row[1].trimmingCharacters(in: .whitespacesAndNewlines)) != nil
    {
      return .pair(latitude: 0, longitude: 1)
    }
    if let first = row.first, (try? Coordinate(parsing: first)) != nil { return .single(0) }
    if row.count >= 2, (try? Coordinate(parsing: row[0] + " " + row[1])) != nil {
      return .pair(latitude: 0, longitude: 1)
    }
    return nil
  }

  /// The names of the columns of a file without a header: "latitude" and "longitude", or "coordinate",
  /// for the coordinate's columns, "column3" and so on for the others.
  func names(count: Int) -> [String] {
    (0..<count).map { column in
      switch self {
      case .pair(let latitude, _) where column == latitude: "latitude"
      case .pair(_, let longitude) where column == longitude: "longitude"
      case .single(let single) where column == single: "coordinate"
      default: "column\(column + 1)"
      }
    }
  }

  /// The coordinate of a row of field texts, or what is wrong with it.
  func coordinate(in fields: [String]) -> Result<Coordinate, RowProblem> {
    switch self {
    case .pair(let latitude, let longitude):
      guard latitude < fields.count, longitude < fields.count else {
        return .failure(RowProblem("the row has no column \(Swift.max(latitude, longitude) + 1)"))
      }
      return Self.coordinate(latitude: fields[latitude], longitude: fields[longitude])
    case .single(let column):
      guard column < fields.count else { return .failure(RowProblem("the row has no column \(column + 1)")) }
      return Self.coordinate(text: fields[column])
    }
  }

  /// A coordinate from a latitude's text and a longitude's text: plain decimal numbers quickly, any
  /// other notation through the coordinate parser.
  static func coordinate(latitude: String, longitude: String) -> Result<Coordinate, RowProblem> {
    if let north = DecimalNumber.parse(latitude), let east = DecimalNumber.parse(longitude) {
      return coordinate(north, east)
    }
    let north = latitude.trimmingCharacters(in: .whitespacesAndNewlines)
    let east = longitude.trimmingCharacters(in: .whitespacesAndNewlines)
    // Number readers stop at a NUL byte: "1\0junk" would read as 1.
    if north.utf8.contains(0) || east.utf8.contains(0) {
      return .failure(RowProblem("the \(north.utf8.contains(0) ? "latitude" : "longitude") holds a NUL byte"))
    }
    if north.isEmpty { return .failure(RowProblem(east.isEmpty ? "no coordinate" : "no latitude")) }
    if east.isEmpty { return .failure(RowProblem("no longitude")) }
    if let north = DecimalNumber.parse(north), let east = DecimalNumber.parse(east) {
      return coordinate(north, east)
    }
    // Each column says which it is: a latitude's letter is N or S, a longitude's E or W. Read together,
    // "56" and "8N" would otherwise be 8° N 56° E, the columns swapped without a word.
    if let letter = Self.hemisphere(north), letter == "E" || letter == "W" {
      return .failure(
        RowProblem(
          "the latitude \(EchoedText.quoted(north)) has a longitude's letter \(letter); are the columns swapped?"
        ))
    }
    if let letter = Self.hemisphere(east), letter == "N" || letter == "S" {
      return .failure(
        RowProblem(
          "the longitude \(EchoedText.quoted(east)) has a latitude's letter \(letter); are the columns swapped?"
        ))
    }
    let parsed = coordinate(text: north + " " + east)
    guard case .failure = parsed else { return parsed }
    if DecimalNumber.parse(east) != nil, DecimalNumber.parse(north) == nil {
      return .failure(RowProblem("the latitude \(EchoedText.quoted(north)) is not a number or an angle"))
    }
    if DecimalNumber.parse(north) != nil, DecimalNumber.parse(east) == nil {
      return .failure(RowProblem("the longitude \(EchoedText.quoted(east)) is not a number or an angle"))
    }
    return parsed
  }

  /// The hemisphere letter before or after a column's text (`N56.5`, `8.5E`, `56°33′N`), upper-cased.
  static func hemisphere(_ text: String) -> Character? {
    for end in [text.first, text.last] {
      if let end, let letter = end.uppercased().first, "NSEW".contains(letter) { return letter }
    }
    return nil
  }

  /// A coordinate from numbers, held to the rule text is held to
  /// (``Coordinate/init(validatingLatitude:longitude:)``): the latitude within -90…90, the longitude
  /// within -180…360 (0…360 longitudes are common in data), and a number too large to hold too large.
  static func coordinate(_ latitude: Double, _ longitude: Double) -> Result<Coordinate, RowProblem> {
    do {
      return .success(try Coordinate(validatingLatitude: latitude, longitude: longitude))
    } catch {
      return .failure(RowProblem(error.description))
    }
  }

  /// A coordinate from one text in any notation the parser reads.
  static func coordinate(text: String) -> Result<Coordinate, RowProblem> {
    if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
      return .failure(RowProblem("no coordinate"))
    }
    if text.utf8.contains(0) { return .failure(RowProblem("the coordinate holds a NUL byte")) }
    do {
      return .success(try Coordinate(parsing: text))
    } catch {
      return .failure(RowProblem(error.description))
    }
  }
}

/// What is wrong with one row, as a sentence.
public struct RowProblem: Error, Sendable, Equatable {
  public var message: String
  public init(_ message: String) { self.message = message }
}
