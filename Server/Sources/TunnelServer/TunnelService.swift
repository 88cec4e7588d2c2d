import Foundation
import NIOConcurrencyHelpers
import TunnelGeo
import TunnelMaps
import TunnelReports

/// What `tunnel serve` answers from, with no HTTP in it: the place data, its geocoder and gazetteer, opened
/// and indexed once, and each answer as text or places, or an error that says why there is none. The
/// routes' controllers turn these into responses in their dialect.
///
/// Tunnel's own answers are the commands' (TunnelReports' reports, in JSON); the dialects' are made from
/// the same placemarks and gazetteer matches.
public final class TunnelService: Sendable {
  public let data: PlaceData
  public let geocoder: ReverseGeocoder
  let gazetteer: Gazetteer
  let places: PlaceLayer
  let countries: CountryLayer
  let regions: RegionLayer
  let marine: MarineLayer
  /// The areas' boxes, made once.
  let areaBoxes: AreaBoxes
  /// Regions by name, for the dialects' searches.
  let areaNames: RegionNames
  /// The map tiles, drawn from the same data: made by the first request that needs them (decoding their
  /// layers takes about a second on two cores), once, whichever thread asks first; the others wait for it.
  public var tiles: MapTiles {
    get throws(PlaceDataError) {
      let made = madeTiles.withLockedValue { tiles -> Result<MapTiles, PlaceDataError> in
        if let tiles { return .success(tiles) }
        do throws(PlaceDataError) {
          let made = try MapTiles(data: MapData(data: data))
          tiles = made
          return .success(made)
        } catch {
          return .failure(error)
        }
      }
      return try made.get()
    }
  }
  private let madeTiles = NIOLockedValueBox<MapTiles?>(nil)
  /// The tiles of the lowest zooms once drawn, with their ETags, by zoom, x and y.
  let tileCache = NIOLockedValueBox<[Int: (body: [UInt8], tag: String)]>([:])

  /// Opens every layer of `data` and builds the indexes that the geocoding answers use, so that the first
  /// such request is answered as fast as the rest. The map tiles are not made here but by the first tile
  /// request (``tiles``), so that a server that restarts on a warm cache answers within a second.
  ///
  /// With a `cache`, the indexes are read from that folder when they were kept there before, and kept
  /// there when built (`ReverseGeocoder(data:cache:)`).
  public init(data: PlaceData, cache: IndexCache? = nil) throws(PlaceDataError) {
    self.data = data
    geocoder = ReverseGeocoder(data: data, cache: cache)
    gazetteer = try Gazetteer(data: data)
    places = try data.places()
    countries = try data.countries()
    regions = try data.regions()
    marine = try data.marine()
    areaBoxes = AreaBoxes(countries: countries, regions: regions, marine: marine, places: places)
    areaNames = RegionNames(places: places)
    try geocoder.prepareForBatch()
    _ = try geocoder.nearestPlaceIndex()
    // Every layer read once: its checksums verified and its pages in memory before the first request.
    for coordinate in [(56.0, 8.5), (-56.0, -171.5)].compactMap({
      try? Coordinate(latitude: $0, longitude: $1)
    }) {
      _ = try geocoder.placemark(for: coordinate)
    }
    _ = gazetteer.search("Skjern", limit: 1)
    try data.checkIntact()
  }

  // MARK: Tunnel's own API

  /// The location a request names: `q` (a coordinate or a place, as the commands take it) or `lat` and `lon`.
  func location(_ query: QueryParameters, text name: String = "q") throws(AnswerError) -> LocationQuery {
    let text: String
    if let latitude = query["lat"] ?? query["latitude"],
      let longitude = query["lon"] ?? query["lng"] ?? query["longitude"]
    {
      guard query[name] == nil else {
        throw AnswerError.badRequest("give either '\(name)' or 'lat' and 'lon', not both")
      }
      let coordinate = try Self.coordinate(latitude: latitude, longitude: longitude)
      return LocationQuery(coordinate: coordinate)
    } else if let given = query[name] {
      text = given
    } else if query["lat"] != nil || query["lon"] != nil {
      throw AnswerError.badRequest("give both 'lat' and 'lon'")
    } else {
      throw AnswerError.badRequest(
        "give '\(name)', a place or a coordinate (e.g. \(name)=Skjern or \(name)=56.55,8.32), or 'lat' and 'lon'"
      )
    }
    guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      throw AnswerError.badRequest("'\(name)' is empty: give a place or a coordinate, e.g. \(name)=Skjern")
    }
    do {
      return try LocationLookup.resolve(text, data: data)
    } catch {
      switch error {
      case .badInput(let message): throw AnswerError.badRequest("'\(name)': \(message)")
      case .data(let error): throw .data(error)
      }
    }
  }

  /// `lat` and `lon` as numbers on the Earth.
  static func coordinate(latitude: String, longitude: String) throws(AnswerError) -> Coordinate {
    func number(_ text: String, _ name: String) throws(AnswerError) -> Double {
      // Decimal digits, a sign, a point and an exponent only (no "nan", "inf" or hexadecimal), spaces around.
      let bytes = text.utf8.drop { $0 == 0x20 }.reversed().drop { $0 == 0x20 }.reversed()
      let allowed = bytes.allSatisfy {
        (0x30...0x39).contains($0) || $0 == 0x2E || $0 == 0x2B || $0 == 0x2D || $0 == 0x65 || $0 == 0x45
      }
      guard !bytes.isEmpty, allowed, let value = Double(String(decoding: bytes, as: UTF8.self)),
        value.isFinite
      else {
        throw AnswerError.badRequest("'\(name)' must be a number in degrees, not \(EchoedText.quoted(text))")
      }
      return value
    }
    let lat = try number(latitude, "lat")
    let lon = try number(longitude, "lon")
    guard (-90...90).contains(lat) else {
      throw AnswerError.badRequest("'lat' must be between -90 and 90, not \(latitude)")
    }
    // The rule a coordinate written as text follows (`q=56,200`, `tunnel where 56 200`): -180…360, a
    // longitude past 180 counting on round the globe.
    guard Coordinate.signedLongitudes.contains(lon) else {
      throw AnswerError.badRequest(
        "'lon' must be between -180 and 360 (200 is 160 W), not \(longitude)")
    }
    do {
      return try Coordinate(validatingLatitude: lat, longitude: lon)
    } catch {
      throw AnswerError.badRequest(String(describing: error))
    }
  }

  /// `precision`: decimals of degrees, 0…15, 9 when absent (as the commands' JSON).
  static func precision(_ query: QueryParameters) throws(AnswerError) -> Precision {
    guard let text = query["precision"] else { return .data }
    guard let value = Int(text), let precision = try? Precision(degrees: value) else {
      throw AnswerError.badRequest(
        "'precision' must be a whole number from 0 to \(Precision.maximumDegrees), not \(EchoedText.quoted(text))"
      )
    }
    return precision
  }

  /// `GET /v1/where`: what `tunnel where … --format json` prints.
  func whereJSON(_ query: QueryParameters) throws -> String {
    let precision = try Self.precision(query)
    let location = try location(query)
    return WhereReport(location, placemark: try placemark(location.coordinate)).json(precision: precision)
  }

  /// `GET /v1/antipode`: what `tunnel antipode … --format json` prints.
  func antipodeJSON(_ query: QueryParameters) throws -> String {
    let precision = try Self.precision(query)
    let location = try location(query)
    let placemarks = (try placemark(location.coordinate), try placemark(location.coordinate.antipode))
    return try AntipodeReport(from: location.coordinate, named: location.place, placemarks: placemarks)
      .json(precision: precision)
  }

  /// `GET /v1/dig`: what `tunnel dig … --format json` prints.
  func digJSON(_ query: QueryParameters) throws -> String {
    let precision = try Self.precision(query)
    guard query["from"] != nil, query["to"] != nil else {
      throw AnswerError.badRequest("give both ends: 'from' and 'to', e.g. from=Skjern&to=Wellington")
    }
    let from = try location(query.renaming("from"), text: "from")
    let to = try location(query.renaming("to"), text: "to")
    return try DigReport(from: from, to: to).json(precision: precision)
  }

  /// `GET /v1/find`: what `tunnel find … --format json` prints; 404 when nothing has the name.
  func findJSON(_ query: QueryParameters) throws -> String {
    let precision = try Self.precision(query)
    guard let text = query["q"], !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      throw AnswerError.badRequest("give 'q', the name to look for, e.g. q=Copenhagen")
    }
    let limit = try Self.limit(query, default: 10, maximum: 1000)
    let search = gazetteer.search(text, limit: limit)
    try checkIntact()
    guard !search.matches.isEmpty else {
      throw AnswerError.notFound(search.explanation ?? "nothing found", suggestions: search.suggestions)
    }
    return FindReport(search.matches).json(precision: precision)
  }

  /// `GET /v1/pairs`: what `tunnel pairs … --format json` prints, the closest pairs first, at most `limit`.
  func pairsJSON(_ query: QueryParameters) throws -> String {
    let precision = try Self.precision(query)
    let within = try Self.number(query, "within", default: 25, range: 0...20_000)
    let minimumPopulation = try Self.size(
      query, "minPopulation", default: 10_000, range: 0...Int(Int32.max))
    let limit = try Self.limit(query, default: 1000, maximum: 100_000)
    let pairs: [AntipodalPair]
    do {
      pairs = try geocoder.antipodalPairs(withinKm: within, minimumPopulation: minimumPopulation)
    } catch {
      throw AnswerError.data(error)
    }
    return PairsReport(Array(pairs.prefix(limit))).json(precision: precision)
  }

  /// A number parameter in `range`, or `value` when absent.
  static func number(
    _ query: QueryParameters, _ name: String, default value: Double, range: ClosedRange<Double>
  ) throws(AnswerError) -> Double {
    guard let text = query[name] else { return value }
    guard let number = Double(text), number.isFinite, range.contains(number) else {
      throw AnswerError.badRequest(
        "'\(name)' must be a number from \(Int(range.lowerBound)) to \(Int(range.upperBound)), not "
          + EchoedText.quoted(text))
    }
    return number
  }

  /// `limit`: a whole number from 1 to `maximum`.
  static func limit(_ query: QueryParameters, default value: Int, maximum: Int) throws(AnswerError) -> Int {
    guard let text = query["limit"] else { return value }
    guard let limit = Int(text), (1...maximum).contains(limit) else {
      throw AnswerError.badRequest(
        "'limit' must be a whole number from 1 to \(maximum), not \(EchoedText.quoted(text))")
    }
    return limit
  }

  // MARK: Helpers

  func placemark(_ coordinate: Coordinate) throws(AnswerError) -> Placemark {
    do {
      return try geocoder.placemark(for: coordinate)
    } catch {
      throw .data(error)
    }
  }

  func checkIntact() throws(AnswerError) {
    do {
      try data.checkIntact()
    } catch {
      throw .data(error)
    }
  }
}

/// Why a request gets no answer: said to the client in plain words.
enum AnswerError: Error {
  case badRequest(String)
  case notFound(String, suggestions: [String] = [])
  case data(PlaceDataError)

  var message: String {
    switch self {
    case .badRequest(let message), .notFound(let message, _): message
    case .data(let error): "the place data cannot be read: \(error)"
    }
  }
}

extension QueryParameters {
  /// These parameters with `name`'s value as `q` (for `dig`'s two ends).
  func renaming(_ name: String) -> QueryParameters {
    var copy = QueryParameters.empty
    copy.set(name, self[name] ?? "")
    return copy
  }
}
