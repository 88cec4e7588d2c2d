import Foundation

/// Says where a point is, from Tunnel's bundled place data, offline.
///
/// ```swift
/// let geocoder = ReverseGeocoder(data: try PlaceData())
/// let here = try geocoder.placemark(for: Coordinate(latitude: 56, longitude: 8.5))
/// here.country?.name  // "Denmark"
/// here.nearestPlace.name  // "Skjern", 5.6 km away
/// ```
///
/// A geocoder is `Sendable`: share one across threads. It opens each layer on first use and builds
/// nothing up front, so a process answering a single question stays fast; ``prepareForBatch()`` (called
/// by ``placemarks(for:)`` for large batches) builds the in-memory indexes that make many queries fast.
public final class ReverseGeocoder: Sendable {
  /// The data the geocoder reads.
  public let data: PlaceData

  /// Creates a geocoder over `data`; nothing is opened until the first query.
  public init(data: PlaceData) {
    self.data = data
  }

  // MARK: Nearest place

  /// The populated place nearest to `coordinate` by great-circle distance, optionally only among places
  /// with at least `minimumPopulation` inhabitants; nil when no place qualifies.
  ///
  /// The answer is exact: the place with the smallest great-circle distance of all 234,908 (on ties, the
  /// one stored first). Distances are on the sphere of mean radius.
  ///
  /// - Complexity: O(log n) for an unfiltered query; a filter that few places pass makes the walk visit
  ///   more of the tree.
  public func nearestPlace(
    to coordinate: Coordinate, minimumPopulation: Int = 0
  ) throws(PlaceDataError)
    -> NearestPlace?
  {
    let places = try data.places()
    let query = SphereGeometry.unitVector(coordinate)
    let search = NearestPlaceSearch(places: places, vectors: MappedPlaceVectors(places: places))
    let found =
      minimumPopulation <= 0
      ? search.nearest(to: query)
      : search.nearest(to: query) { places.population(at: $0) >= minimumPopulation }
    return found.map { nearestPlace(places, $0.index, chordSquared: $0.chordSquared) }
  }

  func nearestPlace(_ places: PlaceLayer, _ index: Int, chordSquared: Double) -> NearestPlace {
    let coordinate = places.coordinate(at: index)
    return NearestPlace(
      index: index, name: places.name(at: index), countryCode: places.countryCode(at: index),
      latitude: coordinate.latitude, longitude: coordinate.longitude,
      population: places.population(at: index),
      distanceKm: SphereGeometry.angle(chordSquared: chordSquared) * SphereGeometry.radiusKm)
  }

  // MARK: Rules

  /// A point in no country polygon belongs to the country whose border (coastline included) is nearest,
  /// if that border is at most this many kilometres away: Natural Earth's polygons miss harbours and
  /// beaches by a few hundred metres (Copenhagen City Hall lies 0.2–0.3 km outside Denmark).
  public static let coastalToleranceKm = 5.0
  /// The country of a nearest-land point is found with this wider tolerance: small islands are often
  /// missing from, or offset in, the country polygons.
  public static let landCountryToleranceKm = 25.0
  /// A nearest-land point is named after the nearest populated place of its country within this distance.
  public static let landNameRadiusKm = 25.0
  /// ``Placemark/locality`` is the nearest place when it lies within this distance of a point on land.
  public static let localityRadiusKm = 25.0
  /// The region is looked for among places of the point's country up to this distance away.
  public static let regionSearchRadiusKm = 1_500.0

  // MARK: Placemark

  /// Everything the data says about a point.
  ///
  /// - Land or water: the highest GSHHG level among the high-resolution coastline polygons containing
  ///   the point — odd (land, island in a lake, Antarctic ice) is land, even (lake, pond) is a lake,
  ///   none is the sea. A lake is `land == false` with ``Placemark/inLake`` set, and no ``Placemark/sea``.
  /// - Country: the Natural Earth polygon containing the point; otherwise the country whose border is
  ///   within ``coastalToleranceKm`` (nearest first); otherwise none.
  /// - Region: the admin-1 region of the nearest populated place in the same country (the data has no
  ///   admin-1 polygons), within ``regionSearchRadiusKm``.
  /// - Sea (water that is not a lake): the named marine polygon containing the point, else the nearest
  ///   named marine polygon.
  /// - Nearest land (water only): the nearest point of a shoreline (of land or ice at sea; any shore in a
  ///   lake), its country by the rule above with ``landCountryToleranceKm``, and its name by
  ///   ``landNameRadiusKm``.
  /// - Time zone: the time zone polygon containing the point; where none does (gaps between simplified
  ///   polygons), the nearest place's zone on land and `Etc/GMT±N` from the longitude at sea.
  ///
  /// - Complexity: without ``prepareForBatch()``, about a millisecond: the layers are searched by their
  ///   ring boxes.
  public func placemark(for coordinate: Coordinate) throws(PlaceDataError) -> Placemark {
    let places = try data.places()
    let query = SphereGeometry.unitVector(coordinate)
    let search = NearestPlaceSearch(places: places, vectors: MappedPlaceVectors(places: places))
    guard let nearestIndex = search.nearest(to: query) else {
      throw .malformed(path: places.path, detail: "no places")
    }
    let nearest = nearestPlace(places, nearestIndex.index, chordSquared: nearestIndex.chordSquared)

    let coast = try data.coastline(.high)
    let topLevel = coast.polygons.features(containing: coordinate).map { coast.polygons.level(of: $0) }.max()
    let land = topLevel.map { $0 % 2 == 1 } ?? false
    let inLake = topLevel.map { $0 % 2 == 0 } ?? false

    let countryFeature = try countryFeature(at: coordinate, toleranceKm: Self.coastalToleranceKm)
    let countries = try data.countries()
    let country = countryFeature.map { placemarkCountry(countries.country($0)) }

    var region: Placemark.Region? = nil
    if let code = country?.code, code.utf8.count == 2 {
      let value = Self.countryCodeValue(code)
      let regionPlace =
        places.countryCodeValue(at: nearest.index) == value
        ? nearest.index
        : search.nearest(
          to: query,
          within: SphereGeometry.chordSquared(angle: Self.regionSearchRadiusKm / SphereGeometry.radiusKm)
        ) { places.countryCodeValue(at: $0) == value }?.index
      if let regionPlace, let regionIndex = places.regionIndex(at: regionPlace) {
        let found = places.region(regionIndex)
        if !found.name.isEmpty {
          region = Placemark.Region(
            code: found.isoCode ?? "\(found.countryCode).\(found.code)", name: found.name)
        }
      }
    }

    var sea: String? = nil
    var lake: String? = nil
    var nearestLand: Placemark.NearestLand? = nil
    if !land {
      let marine = try data.marine()
      let containing = marine.polygons.features(containing: coordinate).compactMap(marine.name).first
      if inLake {
        lake = containing
      } else {
        sea =
          containing
          ?? NearestBoundarySearch(layer: marine.polygons, coordinate: coordinate).nearest {
            marine.name($0) != nil
          }.flatMap { marine.name($0.feature) }
      }
      let shore = NearestBoundarySearch(layer: coast.polygons, coordinate: coordinate).nearest { feature in
        inLake || coast.polygons.level(of: feature) % 2 == 1
      }
      if let shore {
        nearestLand = try self.nearestLand(shore, places: places, search: search)
      }
    }

    let zones = try data.timeZones()
    let zone =
      zones.polygons.features(containing: coordinate).first.map(zones.identifier)
      ?? (land ? nil : Self.oceanZone(longitude: coordinate.longitude))
      ?? places.timeZone(at: nearest.index)

    return Placemark(
      latitude: coordinate.latitude, longitude: coordinate.longitude, land: land, country: country,
      region: region, sea: sea, lake: lake, inLake: inLake, nearestPlace: nearest, nearestLand: nearestLand,
      timeZone: Placemark.TimeZone(identifier: zone))
  }

  /// Describes a shoreline point: its country and, where a place is near, its name.
  private func nearestLand(
    _ shore: BoundaryHit, places: PlaceLayer, search: NearestPlaceSearch<MappedPlaceVectors>
  ) throws(PlaceDataError) -> Placemark.NearestLand {
    let point = SphereGeometry.coordinate(shore.point)
    let countries = try data.countries()
    let feature = try countryFeature(at: point, toleranceKm: Self.landCountryToleranceKm)
    let country = feature.map { placemarkCountry(countries.country($0)) }
    var name: String? = nil
    if let code = country?.code, code.utf8.count == 2 {
      let value = Self.countryCodeValue(code)
      let limit = SphereGeometry.chordSquared(angle: Self.landNameRadiusKm / SphereGeometry.radiusKm)
      if let found = search.nearest(
        to: shore.point, within: limit, accept: { places.countryCodeValue(at: $0) == value })
      {
        name = places.name(at: found.index)
      }
    }
    return Placemark.NearestLand(
      distanceKm: shore.angle * SphereGeometry.radiusKm, latitude: point.latitude, longitude: point.longitude,
      country: country, name: name)
  }

  /// The country feature containing a point, or the one whose border is nearest within `toleranceKm`.
  func countryFeature(at coordinate: Coordinate, toleranceKm: Double) throws(PlaceDataError) -> Int? {
    let countries = try data.countries()
    let containing = countries.polygons.features(containing: coordinate)
    if let feature = containing.first(where: { countries.polygons.attribute(0, of: $0) != nil })
      ?? containing.first
    {
      return feature
    }
    return NearestBoundarySearch(layer: countries.polygons, coordinate: coordinate).nearest(
      within: toleranceKm / SphereGeometry.radiusKm
    ) { _ in true }?.feature
  }

  func placemarkCountry(_ country: Country) -> Placemark.Country {
    Placemark.Country(code: country.isoAlpha2 ?? country.naturalEarthCode, name: country.name)
  }

  /// The two ASCII bytes of a country code as ``PlaceLayer`` stores them.
  static func countryCodeValue(_ code: String) -> UInt16 {
    let bytes = Array(code.utf8)
    return UInt16(bytes.first ?? 0) | UInt16(bytes.count > 1 ? bytes[1] : 0) << 8
  }

  /// The nautical time zone of a longitude: `Etc/GMT+11` for 165–180° W (the sign is POSIX's, inverted).
  static func oceanZone(longitude: Double) -> String {
    let hours = Int((longitude / 15).rounded())
    if hours == 0 { return "Etc/GMT" }
    return hours > 0 ? "Etc/GMT-\(hours)" : "Etc/GMT+\(-hours)"
  }
}
