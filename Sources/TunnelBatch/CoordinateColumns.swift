import TunnelGeo

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which columns of a row hold its coordinate, and how their text becomes one.
///
/// Columns are never guessed silently. A column named by the user is the one used. Otherwise a
/// column's name, compared without case, spaces, a trailing full stop, a unit in brackets or a
/// degrees suffix (`Lat.`, `latitude (deg)`, `LATITUDE_DD`), says what it holds: a latitude (lat,
/// latitude, latitud, Breite, широта, 緯度, …), a longitude (lon, lng, long, longitude, longitud,
/// Länge, долгота, 経度, …), or a whole coordinate (coordinates, coord, location, …); `y` and `x`
/// count only as a pair. A latitude and a longitude are used over a whole-coordinate column. When more
/// than one column could be the latitude, the longitude or (without a pair) the whole coordinate,
/// the header is refused with ``BatchError/ambiguousColumns(_:header:)``, naming the candidates.
public enum CoordinateColumns: Sendable, Equatable {
  /// A latitude column and a longitude column (0-based).
  case pair(latitude: Int, longitude: Int)
  /// One column holding a whole coordinate in any form the coordinate parser reads.
  case single(Int)

  /// What a column holds, for the options that choose columns and the errors that name them.
  public enum Role: Sendable, Equatable, CaseIterable {
    case latitude, longitude, coordinate
  }

  /// The columns that could hold one ``Role``, by their names in the header.
  public struct Candidates: Sendable, Equatable {
    public var role: Role
    public var names: [String]

    public init(_ role: Role, _ names: [String]) {
      self.role = role
      self.names = names
    }
  }

  /// Folded column names (see ``folded(_:)``) that mean latitude, longitude, or a whole coordinate.
  static let latitudeNames: Set<String> = [
    "lat", "latitude", "decimallatitude", "latitud", "latitudine", "breite", "breitengrad", "широта", "緯度",
    "纬度",
  ]
  static let longitudeNames: Set<String> = [
    "lon", "lng", "long", "longitude", "decimallongitude", "longitud", "longitudine", "länge", "laenge",
    "längengrad", "laengengrad", "долгота", "経度", "经度",
  ]
  static let coordinateNames: Set<String> = [
    "coordinate", "coordinates", "coord", "coords", "location", "position", "point", "latlon", "latlng",
    "lat_lon", "lat_lng", "lat/lon", "geo",
  ]
  /// Folded names that mean latitude and longitude only when the header has both.
  static let pairOnlyNames = (latitude: "y", longitude: "x")
  /// Units written after a name (`latitude_deg`, `LATITUDE_DD`, `lat °`), left out when names are compared.
  static let unitSuffixes = ["degrees", "degree", "deg", "dd", "°"]

  /// A column's name as it is compared: trimmed, without case, without a trailing full stop or a unit in
  /// brackets (`Lat.`, `latitude (deg)`, `lat [°]`), and without a unit after a space, `_` or `-`
  /// (`latitude_deg`, `LATITUDE_DD`).
  static func folded(_ name: String) -> String {
    var text = Substring(name.lowercased()).trimmingWhitespace()
    if let close = text.last, close == ")" || close == "]",
      let open = text.lastIndex(of: close == ")" ? "(" : "["), open > text.startIndex
    {
      text = text[..<open].trimmingWhitespace(lineBreaks: false)
    }
    while text.hasSuffix(".") { text.removeLast() }
    for unit in unitSuffixes {
      for separator in ["_", " ", "-", ""] where text.hasSuffix(separator + unit) {
        let stem = text.dropLast(separator.count + unit.count)
        // "dd" alone or a bare "deg" is a name of its own, not a unit.
        if stem.count >= 1, separator != "" || unit == "°" {
          text = stem.trimmingWhitespace(lineBreaks: false)
          return text
        }
      }
    }
    return text
  }

  /// The columns whose names could hold each role, in the header's order.
  static func candidates(in header: [String]) -> (latitude: [Int], longitude: [Int], coordinate: [Int]) {
    let folded = header.map(Self.folded)
    var latitude = folded.indices.filter { latitudeNames.contains(folded[$0]) }
    var longitude = folded.indices.filter { longitudeNames.contains(folded[$0]) }
    let ys = folded.indices.filter { folded[$0] == pairOnlyNames.latitude }
    let xs = folded.indices.filter { folded[$0] == pairOnlyNames.longitude }
    if !ys.isEmpty, !xs.isEmpty {
      latitude = (latitude + ys).sorted()
      longitude = (longitude + xs).sorted()
    }
    return (latitude, longitude, folded.indices.filter { coordinateNames.contains(folded[$0]) })
  }

  /// What the user named with the options that choose columns (the command's `--lat-column`,
  /// `--lon-column` and `--coordinate-column`; the server's parameters).
  public struct Names: Sendable, Equatable {
    public var latitude: String?
    public var longitude: String?
    public var coordinate: String?
    /// How the front end calls those options, for problems reported in rows (a JSON row whose members
    /// leave its coordinate in doubt).
    public var options: OptionNames

    public init(
      latitude: String? = nil, longitude: String? = nil, coordinate: String? = nil,
      options: OptionNames = .init()
    ) {
      self.latitude = latitude
      self.longitude = longitude
      self.coordinate = coordinate
      self.options = options
    }

    var isEmpty: Bool { latitude == nil && longitude == nil && coordinate == nil }
  }

  /// What a front end calls the options its users choose with, for the messages that advise them: the
  /// options that choose each role's column (`--lat-column` on the command line, `lat_column` over HTTP)
  /// and the choice of JSON Lines output (`--format jsonl`, `format=jsonl`). Unless told, they are called
  /// by the library's own names for them: the properties of ``Names`` and ``BatchOutputFormat/jsonl``.
  ///
  /// The library's messages carry the roles (``Role``) and take the words from here, so that no front
  /// end's words are written into the library.
  public struct OptionNames: Sendable, Equatable {
    public var latitude: String
    public var longitude: String
    public var coordinate: String
    /// How JSON Lines output is asked for.
    public var jsonLines: String

    public init(
      latitude: String = "CoordinateColumns.Names.latitude",
      longitude: String = "CoordinateColumns.Names.longitude",
      coordinate: String = "CoordinateColumns.Names.coordinate",
      jsonLines: String = "BatchOutputFormat.jsonl"
    ) {
      self.latitude = latitude
      self.longitude = longitude
      self.coordinate = coordinate
      self.jsonLines = jsonLines
    }

    public subscript(role: Role) -> String {
      switch role {
      case .latitude: latitude
      case .longitude: longitude
      case .coordinate: coordinate
      }
    }
  }

  /// The columns a header names, by the user's names first, then by the rule in the type's summary;
  /// nil when the header names none (a header that names one of a pair without the other also gives nil).
  ///
  /// - Throws: ``BatchError/unknownColumn(option:name:header:)`` for a name the user gave that is not in
  ///   the header, ``BatchError/sameColumn(name:)`` when the latitude's and the longitude's are one,
  ///   ``BatchError/ambiguousColumns(_:header:)`` when more than one column could hold a role the user
  ///   left to the names.
  static func find(in header: [String], names: Names) throws(BatchError) -> CoordinateColumns? {
    func position(_ name: String, role: Role) throws(BatchError) -> Int {
      if let exact = header.firstIndex(of: name) { return exact }
      let loose = name.trimmingWhitespace().lowercased()
      if let found = header.firstIndex(where: {
        $0.trimmingWhitespace().lowercased() == loose
      }) {
        return found
      }
      if let number = Int(name), number >= 1, number <= header.count { return number - 1 }
      throw .unknownColumn(option: role, name: name, header: header)
    }
    func ambiguous(_ roles: [(Role, [Int])]) -> BatchError {
      .ambiguousColumns(
        roles.filter { $0.1.count > 1 }.map { Candidates($0.0, $0.1.map { header[$0] }) }, header: header)
    }
    if let coordinate = names.coordinate {
      return .single(try position(coordinate, role: .coordinate))
    }
    let found = candidates(in: header)
    if !names.isEmpty {
      let latitude = try names.latitude.map { name throws(BatchError) in try position(name, role: .latitude) }
      let longitude = try names.longitude.map { name throws(BatchError) in
        try position(name, role: .longitude)
      }
      let unnamed = [
        (Role.latitude, latitude == nil ? found.latitude : []),
        (.longitude, longitude == nil ? found.longitude : []),
      ]
      if unnamed.contains(where: { $0.1.count > 1 }) { throw ambiguous(unnamed) }
      guard let foundLatitude = latitude ?? found.latitude.first else {
        throw .missingColumn(option: .latitude, header: header)
      }
      guard let foundLongitude = longitude ?? found.longitude.first else {
        throw .missingColumn(option: .longitude, header: header)
      }
      if foundLatitude == foundLongitude { throw .sameColumn(name: header[foundLatitude]) }
      return .pair(latitude: foundLatitude, longitude: foundLongitude)
    }
    if !found.latitude.isEmpty, !found.longitude.isEmpty {
      if found.latitude.count > 1 || found.longitude.count > 1 {
        throw ambiguous([(.latitude, found.latitude), (.longitude, found.longitude)])
      }
      return .pair(latitude: found.latitude[0], longitude: found.longitude[0])
    }
    if found.coordinate.count > 1 { throw ambiguous([(.coordinate, found.coordinate)]) }
    return found.coordinate.first.map { .single($0) }
  }

  /// The columns of a first row that is data, not a header: a coordinate in the first column, or a
  /// latitude and a longitude in the first two; nil when the row reads as neither.
  static func guess(fromData row: [String]) -> CoordinateColumns? {
    if row.count >= 2, Double(row[0].trimmingWhitespace()) != nil,
      Double(row[1].trimmingWhitespace()) != nil
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
    let north = latitude.trimmingWhitespace()
    let east = longitude.trimmingWhitespace()
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
    if text.trimmingWhitespace().isEmpty {
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
