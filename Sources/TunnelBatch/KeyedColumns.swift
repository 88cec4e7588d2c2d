import TunnelGeo
import TunnelReports
import TunnelSystem

/// The CSV columns or JSON members of a batch's land, country, region, second-level region, time zone and
/// sea for each value they can take, written once per batch and copied into every row that has the value
/// (see `PlacemarkKey`); the boundaries' distances and the nearest land's numbers and place name are written
/// for each row from its search (`PlacemarkSearch`).
///
/// Each value's bytes are those the field writes for a placemark that holds it
/// (`ReverseGeocoder.placemark(of:)`), so a row answered by key is written as the whole placemark's row
/// would be. A zone that a key holds whole (where polygons overlap, or the nearest place's on land: a few
/// rows in ten thousand) is written for its row.
final class KeyedColumns: @unchecked Sendable {
  // @unchecked: nothing changes after init.
  private let format: PlaceColumns.Format
  private let precision: Precision
  /// Every value's bytes, one after another.
  private let bytes: [UInt8]
  /// Where the bytes of `land` false and true are.
  private let land: [Range<Int>]
  /// Where the bytes of each country feature's are, and last those of no country.
  private let countries: [Range<Int>]
  /// Where the bytes of each time zone polygon's zone are.
  private let zones: [Range<Int>]
  /// Where the bytes of each nautical zone are, from 12 hours west.
  private let nautical: [Range<Int>]
  /// Where the bytes of the sea field are.
  private let water: Water
  /// Where the bytes of no region are, then those of each region given by its polygon and by the nearest
  /// place, region after region (``PlacemarkKey/Region``).
  private let regions: [Range<Int>]
  /// Where the bytes of no second-level region are, then those of each second-level region's feature.
  private let subregions: [Range<Int>]
  /// Where the bytes of each country feature's as the nearest land's country are, and last those of none
  /// (``PlacemarkField/writeShoreCountry(_:format:to:)``).
  private let shoreCountries: [Range<Int>]
  /// Where the bytes of each island feature's name are as a text, and last those of none
  /// (``PlacemarkField/writeText(_:format:to:)``).
  private let islands: [Range<Int>]
  /// The place layer the nearest land's place names are read from, for each row (there are too many to
  /// write each beforehand); read without counting a reference (`places` keeps it).
  private let places: PlaceLayer?
  private let unretainedPlaces: Unmanaged<PlaceLayer>?

  /// The sea field's spans: on land, and for each kind of water (at sea, in a lake) unnamed, then named by
  /// each marine feature, then by each lake feature.
  private struct Water {
    var land: Range<Int> = 0..<0
    var sea: [Range<Int>] = []
    var lake: [Range<Int>] = []
    var marineFeatures = 0

    /// Where a name's span is among those of one kind of water.
    func index(_ name: PlacemarkKey.WaterName) -> Int {
      switch name {
      case .none: 0
      case .marine(let feature): 1 + Int(feature)
      case .lake(let feature): 1 + marineFeatures + Int(feature)
      }
    }
  }
  /// A placemark with no value, for the zones written for their row.
  private let empty: Placemark

  init(
    geocoder: ReverseGeocoder, fields: [PlacemarkField], format: PlaceColumns.Format, precision: Precision
  ) throws(PlaceDataError) {
    self.format = format
    self.precision = precision
    let none = PlacemarkKey(land: false, country: -1, timeZone: nil)
    empty = try geocoder.placemark(of: none)
    var out = OutputBytes()
    func spans(_ field: PlacemarkField, _ keys: [PlacemarkKey]) throws(PlaceDataError) -> [Range<Int>] {
      guard fields.contains(field) else { return [] }
      var spans: [Range<Int>] = []
      for placemark in try geocoder.placemarks(of: keys) {
        let start = out.count
        Self.write(field, placemark, format: format, precision: precision, to: &out)
        spans.append(start..<out.count)
      }
      return spans
    }
    let counts = try geocoder.keyFeatureCounts()
    func key(country: Int = -1, zone: PlacemarkKey.Zone? = nil) -> PlacemarkKey {
      PlacemarkKey(land: false, country: Int32(country), timeZone: zone)
    }
    land = try spans(.land, [none, PlacemarkKey(land: true, country: -1, timeZone: nil)])
    countries = try spans(.country, (0..<counts.countries).map { key(country: $0) } + [none])
    zones = try spans(.timeZone, (0..<counts.timeZones).map { key(zone: .polygon(Int32($0))) })
    nautical = try spans(.timeZone, (-12...12).map { key(zone: .nautical(Int8($0))) })
    func names() -> [PlacemarkKey.WaterName] {
      [.none] + (0..<counts.seas).map { .marine(Int32($0)) } + (0..<counts.lakes).map { .lake(Int32($0)) }
    }
    func key(water: PlacemarkKey.Water) -> PlacemarkKey {
      PlacemarkKey(land: false, country: -1, timeZone: nil, water: water)
    }
    var water = Water(marineFeatures: counts.seas)
    if fields.contains(.sea) {
      water.land = try spans(.sea, [key(water: .land)])[0]
      water.sea = try spans(.sea, names().map { key(water: .sea($0)) })
      water.lake = try spans(.sea, names().map { key(water: .lake($0)) })
    }
    self.water = water
    func key(region: PlacemarkKey.Region) -> PlacemarkKey {
      PlacemarkKey(land: false, country: -1, timeZone: nil, region: region)
    }
    regions = try spans(
      .region,
      [key(region: .none)]
        + (0..<counts.regions).flatMap { index in
          [Placemark.Region.Source.polygon, .nearestPlace].map {
            key(region: PlacemarkKey.Region(index: Int32(index), source: $0, subregion: -1))
          }
        })
    // A second-level region is written only in a region (here the first, whatever it is).
    subregions = try spans(
      .subregion,
      [key(region: .none)]
        + (0..<counts.subregions).map {
          key(region: PlacemarkKey.Region(index: 0, source: .polygon, subregion: Int32($0)))
        })
    // The nearest land's countries and islands, from placemarks whose nearest land has them.
    func shores(_ count: Int, _ description: (Int?) -> ShoreDescription) throws(PlaceDataError) -> [Placemark]
    {
      guard fields.contains(.nearestLand) else { return [] }
      let searches = (0...count).map { feature in
        PlacemarkSearch(
          shore: PlacemarkKey.Shore(
            distanceKm: 0, latitude: 0, longitude: 0,
            description: description(feature < count ? feature : nil)))
      }
      return try geocoder.placemarks(
        of: Array(repeating: PlacemarkKey(land: false, country: -1, timeZone: nil), count: count + 1),
        searches: searches)
    }
    func shoreSpans(_ placemarks: [Placemark], _ write: (Placemark.NearestLand?) -> Void) -> [Range<Int>] {
      placemarks.map { placemark in
        let start = out.count
        write(placemark.nearestLand)
        return start..<out.count
      }
    }
    shoreCountries = shoreSpans(
      try shores(counts.countries) { ShoreDescription(country: $0, island: nil, place: nil) }
    ) {
      PlacemarkField.writeShoreCountry($0?.country, format: format, to: &out)
    }
    islands = shoreSpans(
      try shores(counts.islands) { ShoreDescription(country: nil, island: $0, place: nil) }
    ) {
      PlacemarkField.writeText($0?.island, format: format, to: &out)
    }
    places = fields.contains(.nearestLand) ? try geocoder.data.places() : nil
    unretainedPlaces = places.map { Unmanaged.passUnretained($0) }
    bytes = out.bytes
  }

  /// The columns for `fields` of `geocoder`'s keys in `format`, made once in a process for each such set
  /// and kept (the latest ``keptSets``), so that a server's batches do not make them again: the regions and
  /// second-level regions are thousands of values, some milliseconds to write.
  static func shared(
    geocoder: ReverseGeocoder, fields: [PlacemarkField], format: PlaceColumns.Format, precision: Precision
  ) throws(PlaceDataError) -> KeyedColumns {
    let wanted = Made.Set(fields: fields, format: format, precision: precision)
    if let kept = made.withLock({ $0.first { $0.geocoder === geocoder && $0.set == wanted }?.columns }) {
      return kept
    }
    let columns = try KeyedColumns(geocoder: geocoder, fields: fields, format: format, precision: precision)
    made.withLock { sets in
      sets.removeAll { $0.geocoder == nil || ($0.geocoder === geocoder && $0.set == wanted) }
      sets.append(Made(geocoder: geocoder, set: wanted, columns: columns))
      if sets.count > keptSets { sets.removeFirst(sets.count - keptSets) }
    }
    return columns
  }

  /// How many sets of columns ``shared(geocoder:fields:format:precision:)`` keeps.
  static let keptSets = 16

  /// A set of columns made, for the geocoder it was made with (not kept alive by it).
  private struct Made: @unchecked Sendable {
    // @unchecked: read and changed only under the lock of `made`.
    weak var geocoder: ReverseGeocoder?
    let set: Set
    let columns: KeyedColumns

    struct Set: Equatable {
      let fields: [PlacemarkField]
      let format: PlaceColumns.Format
      let precision: Precision
    }
  }

  private static let made = Locked<[Made]>([])

  /// Appends `field`'s columns or member for the key at `key` (read in place: no copy of a zone it holds
  /// whole); for the nearest land and the boundaries, from the search beside it (the key lies in a
  /// `SearchedKey` whenever they are asked for).
  func write(_ field: PlacemarkField, _ key: UnsafePointer<PlacemarkKey>, to out: inout OutputBytes) {
    let span: Range<Int>
    switch field {
    case .land: span = land[key.pointee.land ? 1 : 0]
    case .country:
      span = countries[key.pointee.country >= 0 ? Int(key.pointee.country) : countries.count - 1]
    case .timeZone:
      switch key.pointee.timeZone {
      case .polygon(let feature): span = zones[Int(feature)]
      case .nautical(let hours): span = nautical[Int(hours) + 12]
      case .read(let zone):
        var placemark = empty
        placemark.timeZone = zone
        return Self.write(field, placemark, format: format, precision: precision, to: &out)
      case nil: preconditionFailure("a key without the time zone it was asked for")
      }
    case .region:
      guard let region = key.pointee.region else {
        preconditionFailure("a key without the region it was asked for")
      }
      span = regions[region.index < 0 ? 0 : 1 + 2 * Int(region.index) + (region.source == .polygon ? 0 : 1)]
    case .subregion:
      guard let region = key.pointee.region else {
        preconditionFailure("a key without the region it was asked for")
      }
      span = subregions[region.index < 0 || region.subregion < 0 ? 0 : 1 + Int(region.subregion)]
    case .sea:
      switch key.pointee.water {
      case .land: span = water.land
      case .sea(let name): span = water.sea[water.index(name)]
      case .lake(let name): span = water.lake[water.index(name)]
      case nil: preconditionFailure("a key without the sea it was asked for")
      }
    case .nearestLand, .boundaryKm:
      return write(field, SearchedKey.search(besideKeyAt: key), to: &out)
    default: preconditionFailure("\(field) is not a field of a key")
    }
    bytes.withUnsafeBufferPointer { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[span])) }
  }

  /// Appends the nearest land's or the boundaries' columns or member from a search: apart, so that the
  /// copies of the other fields' spans stay as short as they were.
  @inline(never)
  private func write(
    _ field: PlacemarkField, _ search: UnsafePointer<PlacemarkSearch>, to out: inout OutputBytes
  ) {
    guard field == .boundaryKm else { return writeNearestLand(search.pointee.shore, to: &out) }
    guard let boundaries = search.pointee.boundaries else {
      preconditionFailure("a key without the boundaries it was asked for")
    }
    PlacemarkField.writeBoundaries(boundaries, format: format, to: &out, precision: precision)
  }

  /// Appends the nearest land's columns or member for a key's shoreline point (none on land): its country
  /// and island copied from their spans, its place's name from the place layer.
  private func writeNearestLand(_ shore: PlacemarkKey.Shore?, to out: inout OutputBytes) {
    guard let shore else {
      return PlacemarkField.writeNearestLand(nil, format: format, to: &out, precision: precision)
    }
    let described = shore.description
    let country = shoreCountries[described.country ?? shoreCountries.count - 1]
    let island = islands[described.island ?? islands.count - 1]
    let format = format
    bytes.withUnsafeBufferPointer { bytes in
      func append(_ span: Range<Int>, to out: inout OutputBytes) {
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[span]))
      }
      PlacemarkField.writeNearestLand(
        (shore.distanceKm, shore.latitude, shore.longitude), format: format, to: &out, precision: precision,
        country: { append(country, to: &$0) },
        name: { out in
          guard let place = described.place, let places = unretainedPlaces else {
            return append(island, to: &out)
          }
          places._withUnsafeGuaranteedRef { places in
            places.withName(at: place) { name in
              switch format {
              case .delimited(let separator): out.field(utf8: name, separator: separator)
              case .json: out.json(utf8: name)
              }
            }
          }
        },
        island: { append(island, to: &$0) })
    }
  }

  /// Appends `field`'s columns or member as a whole placemark's row has them.
  private static func write(
    _ field: PlacemarkField, _ placemark: Placemark, format: PlaceColumns.Format, precision: Precision,
    to out: inout OutputBytes
  ) {
    let answer = BatchAnswer(placemark: placemark)
    switch format {
    case .delimited(let separator):
      PlacemarkField.writeCSV([field], answer, to: &out, separator: separator, precision: precision)
    case .json:
      PlacemarkField.writeJSON([field], answer, to: &out, precision: precision)
    }
  }
}
