import TunnelGeo
import TunnelReports

/// A part of a placemark that a batch can add to each row, named by its key in the placemark's JSON.
public enum PlacemarkField: String, Sendable, CaseIterable {
  case land, country, region, subregion, sea, nearestPlace, nearestLand, timeZone, boundaryKm

  /// Reads a comma-separated list ("country,nearestPlace"); repeated names count once. `none` alone is
  /// the empty list: the rows read and written back with no field, the cost of the reading and writing alone.
  ///
  /// - Throws: ``RowProblem`` naming the first unknown field and listing the known ones.
  public static func list(_ text: String) throws(RowProblem) -> [PlacemarkField] {
    if text.filter({ !$0.isWhitespace }).lowercased() == "none" { return [] }
    var fields: [PlacemarkField] = []
    for name in text.split(separator: ",", omittingEmptySubsequences: true) {
      let trimmed = name.filter { !$0.isWhitespace }
      guard
        let field = PlacemarkField(rawValue: trimmed)
          ?? allCases.first(where: {
            $0.rawValue.lowercased() == trimmed.lowercased()
          })
      else {
        if trimmed.lowercased() == "none" {
          throw RowProblem("'none' stands alone: it adds no field, so it cannot be named with others")
        }
        throw RowProblem(
          "there is no field \(EchoedText.quoted(trimmed)); the fields are \(allCases.map(\.rawValue).joined(separator: ", ")), or none"
        )
      }
      if !fields.contains(field) { fields.append(field) }
    }
    guard !fields.isEmpty else {
      throw RowProblem(
        "name at least one field: \(allCases.map(\.rawValue).joined(separator: ", ")), or none")
    }
    return fields
  }

  /// The fields of `Placemark.Fields` that give these.
  public static func placemarkFields(_ fields: [PlacemarkField]) -> Placemark.Fields {
    var result: Placemark.Fields = []
    for field in fields {
      switch field {
      case .land: result.insert(.land)
      case .country: result.insert(.country)
      case .region, .subregion: result.insert(.region)
      case .sea: result.insert(.sea)
      case .nearestPlace: result.insert(.nearestPlace)
      case .nearestLand: result.insert(.nearestLand)
      case .timeZone: result.insert(.timeZone)
      case .boundaryKm: result.insert(.boundaries)
      }
    }
    return result
  }

  /// The fields a batch can answer by key (``KeyedColumns``): each has a few thousand values at most, but
  /// for the numbers a key holds (the boundaries' distances, the nearest land's) and the nearest land's
  /// place names, written from the place layer.
  static let keyed: Set<PlacemarkField> = [
    .land, .country, .region, .subregion, .timeZone, .sea, .nearestLand, .boundaryKm,
  ]

  /// The JSON members the field writes (``writeJSON(_:_:to:precision:)``), in order.
  var keys: [String] {
    switch self {
    case .sea: ["inLake", "lake", "sea"]
    default: [rawValue]
    }
  }

  /// The CSV columns the field fills, in order.
  var columns: [String] {
    switch self {
    case .land: ["land"]
    case .country: ["country_code", "country_name", "country_disputed"]
    case .region: ["region_code", "region_name", "region_source"]
    case .subregion: ["subregion_code", "subregion_name"]
    case .sea: ["sea", "lake", "in_lake"]
    case .nearestPlace:
      [
        "nearest_place", "nearest_place_country", "nearest_place_latitude", "nearest_place_longitude",
        "nearest_place_population", "nearest_place_km",
      ]
    case .nearestLand:
      [
        "nearest_land_km", "nearest_land_latitude", "nearest_land_longitude", "nearest_land_country_code",
        "nearest_land_country_name", "nearest_land_name", "nearest_land_island",
      ]
    case .timeZone: ["time_zone", "time_zone_others"]
    case .boundaryKm:
      ["country_boundary_km", "region_boundary_km", "subregion_boundary_km", "time_zone_boundary_km"]
    }
  }
}

extension PlacemarkField {
  /// The kind of each of ``columns`` in Parquet output: degrees and kilometres are doubles, a population
  /// a 64-bit integer, land and the lake flag booleans; names, codes and lists are strings.
  var parquetKinds: [ParquetKind] {
    switch self {
    case .land: [.boolean]
    case .country: [.string, .string, .string]
    case .region: [.string, .string, .string]
    case .subregion: [.string, .string]
    case .sea: [.string, .string, .boolean]
    case .nearestPlace: [.string, .string, .double, .double, .int64, .double]
    case .nearestLand: [.double, .double, .double, .string, .string, .string, .string]
    case .timeZone: [.string, .string]
    case .boundaryKm: [.double, .double, .double, .double]
    }
  }
}

/// What a batch found for one point: the whole placemark, or only the nearest place (the fast path).
///
/// It refers to its answer in a chunk's answers rather than holding a copy (a placemark is a few hundred
/// bytes, and copying two a row was a tenth of a batch's time), and without counting a reference: every
/// core formats rows of the same chunk, and counting references to one object from all of them was
/// another tenth. The placemark is held by its address, found once per part of a chunk, since reaching it
/// through the chunk's answers counted references to them and to their array for every row (a sixth of a
/// `--fields timeZone` batch). The chunk's answers outlive the formatting of its rows.
struct BatchAnswer {
  /// The whole placemark, read in place (no copy of it or its strings); nil on the fast path.
  let placemark: UnsafePointer<Placemark>?
  /// The key, read in place, when the chunk was answered by key (beside its search when the nearest land
  /// or the boundaries were asked for: `SearchedKey`), and the columns of its values (held by the batch).
  let key: UnsafePointer<PlacemarkKey>?
  let keyedColumns: Unmanaged<KeyedColumns>?
  /// On the fast path: the nearest place's index and distance, read in place, the place layer (held by
  /// the geocoder) and the columns of the batch's places if kept (held by the batch).
  let nearestPlace: UnsafePointer<(index: Int, distanceKm: Double)>?
  let places: Unmanaged<PlaceLayer>?
  let placeColumns: Unmanaged<PlaceColumns>?
  /// What keeps an answer made on its own alive.
  private let owner: PlacemarkCell?

  /// The answer at `index` of a chunk's answers, read through `storage` while they are formatted.
  init(index: Int, storage: AnswerStorage) {
    placemark = storage.placemarks.isEmpty ? nil : storage.placemarks.baseAddress! + index
    key = storage.keys.map { ($0 + index * storage.keyStride).assumingMemoryBound(to: PlacemarkKey.self) }
    keyedColumns = storage.keyedColumns
    nearestPlace = storage.places == nil ? nil : UnsafePointer(storage.nearestPlaces.baseAddress! + index)
    places = storage.places
    placeColumns = storage.placeColumns
    owner = nil
  }

  init(placemark: Placemark) {
    let cell = PlacemarkCell(placemark)
    self.placemark = UnsafePointer(cell.pointer)
    key = nil
    keyedColumns = nil
    nearestPlace = nil
    places = nil
    placeColumns = nil
    owner = cell
  }

  /// The nearest place of a whole placemark, read in place (no copy of its strings); on the fast path
  /// see ``nearestPlaceIndex``.
  func withNearestPlace<Result>(_ body: (borrowing NearestPlace) -> Result) -> Result {
    body(placemark!.pointee.nearestPlace)
  }

  /// On the fast path, writes the nearest place's columns or member (``PlacemarkField/writeNearestPlace(_:_:distanceKm:columns:format:to:precision:)``)
  /// and returns true; false elsewhere.
  func writeNearestPlaceIndex(
    format: PlaceColumns.Format, to out: inout OutputBytes, precision: Precision
  ) -> Bool {
    guard let nearestPlace, let places else { return false }
    let (place, distanceKm) = nearestPlace.pointee
    // Through the guaranteed references: counting them for every row, on every core, was most of a
    // batch of nearest places.
    places._withUnsafeGuaranteedRef { places in
      PlacemarkField.writeNearestPlace(
        places, place, distanceKm: distanceKm, columns: placeColumns, format: format, to: &out,
        precision: precision)
    }
    return true
  }
}

/// A placemark at an address of its own, for an answer made on its own (``BatchAnswer/init(placemark:)``).
final class PlacemarkCell {
  let pointer: UnsafeMutablePointer<Placemark>

  init(_ placemark: Placemark) {
    pointer = .allocate(capacity: 1)
    pointer.initialize(to: placemark)
  }

  deinit {
    pointer.deinitialize(count: 1)
    pointer.deallocate()
  }
}

extension PlacemarkField {
  /// For an answer by key, appends the fields' columns or members from the keyed columns, and the
  /// nearest place's from the chunk's nearest places, and returns true; false for any other answer.
  private static func writeKeyed(
    _ fields: [PlacemarkField], _ answer: BatchAnswer, format: PlaceColumns.Format, precision: Precision,
    to out: inout OutputBytes
  ) -> Bool {
    guard let key = answer.key, let columns = answer.keyedColumns else { return false }
    columns._withUnsafeGuaranteedRef { columns in
      for field in fields {
        if field == .nearestPlace,
          answer.writeNearestPlaceIndex(format: format, to: &out, precision: precision)
        {
          continue
        }
        columns.write(field, key, to: &out)
      }
    }
    return true
  }

  /// Appends the field's JSON members (`"country":{…}`), each followed by a comma.
  static func writeJSON(
    _ fields: [PlacemarkField], _ answer: BatchAnswer, to out: inout OutputBytes, precision: Precision
  ) {
    if writeKeyed(fields, answer, format: .json, precision: precision, to: &out) { return }
    for field in fields { field.writeJSON(answer.placemark, answer, to: &out, precision: precision) }
  }

  private func writeJSON(
    _ placemark: UnsafePointer<Placemark>?, _ answer: BatchAnswer, to out: inout OutputBytes,
    precision: Precision
  ) {
    let (degrees, kilometres) = (precision.degrees, precision.kilometres)
    func country(_ name: String, _ country: Placemark.Country?) {
      out.object(name, present: country != nil) { out in
        out.member("code", country?.code)
        out.member("disputed", country?.disputed)
        out.member("name", country?.name)
      }
    }
    switch self {
    case .land:
      out.member("land", flag: placemark?.pointee.land)
    case .country:
      country("country", placemark?.pointee.country)
    case .region:
      let region = placemark?.pointee.region
      out.object("region", present: region != nil) { out in
        out.member("code", region?.code)
        out.member("name", region?.name)
        out.member("source", region?.source.rawValue)
      }
    case .subregion:
      let subregion = placemark?.pointee.subregion
      out.object("subregion", present: subregion != nil) { out in
        out.member("code", subregion?.code)
        out.member("name", subregion?.name)
      }
    case .sea:
      out.member("inLake", flag: placemark?.pointee.inLake)
      out.member("lake", placemark?.pointee.lake)
      out.member("sea", placemark?.pointee.sea)
    case .nearestPlace:
      if answer.writeNearestPlaceIndex(format: .json, to: &out, precision: precision) { return }
      answer.withNearestPlace { place in
        out.object("nearestPlace", present: true) { out in
          out.member("countryCode", place.countryCode)
          out.member("distanceKm", number: place.distanceKm, places: kilometres)
          out.member("latitude", number: place.latitude, places: degrees)
          out.member("longitude", longitude: place.longitude, places: degrees)
          out.member("name", place.name)
          out.member("population", number: Double(place.population), places: 0)
        }
      }
    case .nearestLand:
      Self.writeNearestLand(placemark?.pointee.nearestLand, format: .json, to: &out, precision: precision)
    case .timeZone:
      let zone = placemark?.pointee.timeZone
      out.object("timeZone", present: zone != nil) { out in
        out.member("identifier", zone?.identifier)
        out.key("others")
        out.append("[")
        for (position, other) in (zone?.others ?? []).enumerated() {
          if position > 0 { out.append(",") }
          out.json(other)
        }
        out.append("],")
      }
    case .boundaryKm:
      Self.writeBoundaries(placemark?.pointee.boundaryKm, format: .json, to: &out, precision: precision)
    }
  }

  /// Appends a whole placemark's nearest land's CSV columns, each preceded by the separator, or its JSON
  /// member followed by a comma.
  static func writeNearestLand(
    _ land: Placemark.NearestLand?, format: PlaceColumns.Format, to out: inout OutputBytes,
    precision: Precision
  ) {
    writeNearestLand(
      land.map { ($0.distanceKm, $0.latitude, $0.longitude) }, format: format, to: &out, precision: precision,
      country: { out in writeShoreCountry(land?.country, format: format, to: &out) },
      name: { out in writeText(land?.name, format: format, to: &out) },
      island: { out in writeText(land?.island, format: format, to: &out) })
  }

  /// Appends the nearest land's CSV columns, each preceded by the separator (empty ones for none), or its
  /// JSON member followed by a comma (null for none), its numbers given and its names written by
  /// `country` (as ``writeShoreCountry(_:format:to:)`` writes it), `name` and `island` (each as
  /// ``writeText(_:format:to:)`` writes a text): for a whole placemark and for a key alike.
  static func writeNearestLand(
    _ land: (distanceKm: Double, latitude: Double, longitude: Double)?, format: PlaceColumns.Format,
    to out: inout OutputBytes, precision: Precision, country: (inout OutputBytes) -> Void,
    name: (inout OutputBytes) -> Void, island: (inout OutputBytes) -> Void
  ) {
    guard case .delimited(let separator) = format else {
      out.object("nearestLand", present: land != nil) { out in
        guard let land else { return }
        country(&out)
        out.member("distanceKm", number: land.distanceKm, places: precision.kilometres)
        out.key("island")
        island(&out)
        out.append(UInt8(ascii: ","))
        out.member("latitude", number: land.latitude, places: precision.degrees)
        out.member("longitude", longitude: land.longitude, places: precision.degrees)
        out.key("name")
        name(&out)
        out.append(UInt8(ascii: ","))
      }
      return
    }
    guard let land else {
      for _ in PlacemarkField.nearestLand.columns { out.append(separator) }
      return
    }
    out.append(separator)
    out.number(land.distanceKm, places: precision.kilometres)
    out.append(separator)
    out.number(land.latitude, places: precision.degrees)
    out.append(separator)
    out.longitude(land.longitude, places: precision.degrees)
    country(&out)
    out.append(separator)
    name(&out)
    out.append(separator)
    island(&out)
  }

  /// Appends the nearest land's country: its code and name as CSV columns, each preceded by the separator
  /// (empty for none), or its JSON member followed by a comma (null for none).
  static func writeShoreCountry(
    _ country: Placemark.Country?, format: PlaceColumns.Format, to out: inout OutputBytes
  ) {
    guard case .delimited(let separator) = format else {
      out.object("country", present: country != nil) { out in
        out.member("code", country?.code)
        out.member("disputed", country?.disputed)
        out.member("name", country?.name)
      }
      return
    }
    out.append(separator)
    if let code = country?.code { out.field(code, separator: separator) }
    out.append(separator)
    if let name = country?.name { out.field(name, separator: separator) }
  }

  /// Appends a text as a CSV field (nothing for none) or a JSON string (null for none).
  static func writeText(_ text: String?, format: PlaceColumns.Format, to out: inout OutputBytes) {
    switch format {
    case .delimited(let separator): if let text { out.field(text, separator: separator) }
    case .json: out.json(text)
    }
  }

  /// Appends the boundaries' CSV columns, each preceded by the separator, or their JSON member followed by a
  /// comma (empty columns, a null member for none): for a whole placemark and for a key alike.
  static func writeBoundaries(
    _ boundaries: Placemark.Boundaries?, format: PlaceColumns.Format, to out: inout OutputBytes,
    precision: Precision
  ) {
    let places = precision.kilometres
    guard case .delimited(let separator) = format else {
      out.object("boundaryKm", present: boundaries != nil) { out in
        func member(_ name: String, _ value: Double?) {
          if let value { out.member(name, number: value, places: places) } else { out.member(name, nil) }
        }
        member("country", boundaries?.country)
        member("region", boundaries?.region)
        member("subregion", boundaries?.subregion)
        member("timeZone", boundaries?.timeZone)
      }
      return
    }
    func column(_ value: Double?) {
      out.append(separator)
      if let value { out.number(value, places: places) }
    }
    column(boundaries?.country)
    column(boundaries?.region)
    column(boundaries?.subregion)
    column(boundaries?.timeZone)
  }

  /// Appends the CSV columns of `fields`, each preceded by the separator (empty ones without an answer).
  static func writeCSV(
    _ fields: [PlacemarkField], _ answer: BatchAnswer?, to out: inout OutputBytes, separator: UInt8,
    precision: Precision
  ) {
    if fields.count == 1, fields[0] == .nearestPlace {
      // The fast path: no placemark.
      return writeNearestPlaceCSV(answer, to: &out, separator: separator, precision: precision)
    }
    guard let answer else {
      for field in fields { field.writeCSV(nil, nil, to: &out, separator: separator, precision: precision) }
      return
    }
    if writeKeyed(fields, answer, format: .delimited(separator: separator), precision: precision, to: &out) {
      return
    }
    for field in fields {
      field.writeCSV(answer.placemark, answer, to: &out, separator: separator, precision: precision)
    }
  }

  /// Appends the field's CSV columns, each preceded by the separator.
  private func writeCSV(
    _ placemark: UnsafePointer<Placemark>?, _ answer: BatchAnswer?, to out: inout OutputBytes,
    separator: UInt8,
    precision: Precision
  ) {
    func field(_ text: String?) {
      out.append(separator)
      if let text { out.field(text, separator: separator) }
    }
    func flag(_ value: Bool?) { field(value.map { $0 ? "true" : "false" }) }
    switch self {
    case .land:
      flag(placemark?.pointee.land)
    case .country:
      field(placemark?.pointee.country?.code)
      field(placemark?.pointee.country?.name)
      field(placemark?.pointee.country?.disputed)
    case .region:
      field(placemark?.pointee.region?.code)
      field(placemark?.pointee.region?.name)
      field(placemark?.pointee.region?.source.rawValue)
    case .subregion:
      field(placemark?.pointee.subregion?.code)
      field(placemark?.pointee.subregion?.name)
    case .sea:
      field(placemark?.pointee.sea)
      field(placemark?.pointee.lake)
      flag(placemark?.pointee.inLake)
    case .nearestPlace:
      Self.writeNearestPlaceCSV(answer, to: &out, separator: separator, precision: precision)
    case .nearestLand:
      Self.writeNearestLand(
        placemark?.pointee.nearestLand, format: .delimited(separator: separator), to: &out,
        precision: precision)
    case .timeZone:
      field(placemark?.pointee.timeZone.identifier)
      // IANA identifiers hold no ';'.
      field(placemark.map { $0.pointee.timeZone.others.joined(separator: ";") })
    case .boundaryKm:
      Self.writeBoundaries(
        placemark?.pointee.boundaryKm, format: .delimited(separator: separator), to: &out,
        precision: precision)
    }
  }

  /// Appends the nearest place's CSV columns, each preceded by the separator (empty ones without an
  /// answer).
  private static func writeNearestPlaceCSV(
    _ answer: BatchAnswer?, to out: inout OutputBytes, separator: UInt8, precision: Precision
  ) {
    func field(_ text: String) {
      out.append(separator)
      out.field(text, separator: separator)
    }
    func number(_ value: Double, places: Int) {
      out.append(separator)
      out.number(value, places: places)
    }
    guard let answer else {
      for _ in PlacemarkField.nearestPlace.columns { out.append(separator) }
      return
    }
    if answer.writeNearestPlaceIndex(format: .delimited(separator: separator), to: &out, precision: precision)
    {
      return
    }
    answer.withNearestPlace { place in
      field(place.name)
      field(place.countryCode)
      number(place.latitude, places: precision.degrees)
      out.append(separator)
      out.longitude(place.longitude, places: precision.degrees)
      out.append(separator)
      out.integer(place.population)
      number(place.distanceKm, places: precision.kilometres)
    }
  }

  /// Appends the nearest place's CSV columns or JSON member with `distanceKm`: copied from `columns`
  /// when it is there, else written from the place layer.
  static func writeNearestPlace(
    _ places: PlaceLayer, _ place: Int, distanceKm: Double, columns: Unmanaged<PlaceColumns>?,
    format: PlaceColumns.Format, to out: inout OutputBytes, precision: Precision
  ) {
    if let columns {
      return columns._withUnsafeGuaranteedRef { $0.write(place, distanceKm: distanceKm, to: &out) }
    }
    writeNearestPlace(places, place, .beforeDistance, format: format, to: &out, precision: precision)
    out.number(distanceKm, places: precision.kilometres)
    writeNearestPlace(places, place, .afterDistance, format: format, to: &out, precision: precision)
  }

  /// The parts of the nearest place's columns or member around its distance.
  enum NearestPlacePart {
    /// CSV: name, country, latitude, longitude and population, each after a separator, and a
    /// separator; JSON: `"nearestPlace":{"countryCode":…,"distanceKm":`.
    case beforeDistance
    /// CSV: nothing; JSON: `,"latitude":…,"longitude":…,"name":…,"population":…},`.
    case afterDistance
  }

  /// Appends one part of the nearest place's columns or member, as the whole placemark's are written:
  /// names and numbers straight from the place layer, coordinates from its 10⁻⁷-degree units when no
  /// digit of them is rounded away and none is asked for below the 2⁻⁴⁴° grid that a `Coordinate`
  /// holds longitudes on (from 14 decimals on the grid shows, as in the whole placemark).
  static func writeNearestPlace(
    _ places: PlaceLayer, _ place: Int, _ part: NearestPlacePart, format: PlaceColumns.Format,
    to out: inout OutputBytes, precision: Precision
  ) {
    let fromUnits = places.unitsPerDegree == 10_000_000 && (7...13).contains(precision.degrees)
    func latitude() {
      if fromUnits {
        let limit: Int32 = 900_000_000
        out.decimal(units: Int64(min(limit, max(-limit, places.latitudeUnits(at: place)))), decimals: 7)
      } else {
        out.number(places.coordinate(at: place).latitude, places: precision.degrees)
      }
    }
    func longitude() {
      if fromUnits {
        out.decimal(units: Int64(places.longitudeUnits(at: place)), decimals: 7)
      } else {
        out.longitude(places.coordinate(at: place).longitude, places: precision.degrees)
      }
    }
    switch (format, part) {
    case (.delimited(let separator), .beforeDistance):
      out.append(separator)
      places.withName(at: place) { out.field(utf8: $0, separator: separator) }
      out.append(separator)
      places.withCountryCode(at: place) { out.field(utf8: $0, separator: separator) }
      out.append(separator)
      latitude()
      out.append(separator)
      longitude()
      out.append(separator)
      out.integer(places.population(at: place))
      out.append(separator)
    case (.delimited, .afterDistance):
      break
    case (.json, .beforeDistance):
      out.key("nearestPlace")
      out.append("{")
      out.key("countryCode")
      places.withCountryCode(at: place) { out.json(utf8: $0) }
      out.append(",")
      out.key("distanceKm")
    case (.json, .afterDistance):
      out.append(",")
      out.key("latitude")
      latitude()
      out.append(",")
      out.key("longitude")
      longitude()
      out.append(",")
      out.key("name")
      places.withName(at: place) { out.json(utf8: $0) }
      out.append(",")
      out.key("population")
      out.integer(places.population(at: place))
      out.append("},")
    }
  }
}
