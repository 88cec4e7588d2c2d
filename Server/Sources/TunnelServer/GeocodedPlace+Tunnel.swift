import Foundation
import TunnelGeo
import TunnelReports

extension TunnelService {
  /// How much of an address a reverse query asks for (Nominatim's `zoom`): the country, the region, or the
  /// settlement.
  enum Detail: Int, Comparable {
    case country, region, settlement

    /// Nominatim's `zoom` (0…18): up to 4 a country, up to 9 a region, from 10 a settlement.
    init(zoom: Int) {
      self = zoom <= 4 ? .country : zoom <= 9 ? .region : .settlement
    }

    static func < (lhs: Detail, rhs: Detail) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  /// What is at `coordinate`, as the dialects name things: the settlement whose name the placemark takes
  /// (its ``Placemark/locality``), else the region or country on land, the lake, or the sea. Nil only where
  /// the data names nothing (a point on land in no country, far from any place).
  ///
  /// At full detail the answer is named as `tunnel where` names the point (its display name is the text's
  /// headline), and its areas are those at the point, as the text's: the town, and the region, county and
  /// country the point is in.
  func geocodedPlace(
    at coordinate: Coordinate, detail: Detail = .settlement
  ) throws(AnswerError) -> GeocodedPlace? {
    let placemark = try placemark(coordinate)
    var found = try geocodedPlace(placemark, at: coordinate, detail: detail)
    if detail == .settlement {
      found?.displayText = PlacemarkText.headline(placemark)
    }
    return found
  }

  private func geocodedPlace(
    _ placemark: Placemark, at coordinate: Coordinate, detail: Detail
  ) throws(AnswerError) -> GeocodedPlace? {
    // As a sentence reads it (and the text): "Comunidad de Madrid", not the ISO list's "Madrid, Comunidad de".
    let regionName = placemark.region.flatMap { $0.name.isEmpty ? nil : PlaceText.regionName($0.name) }
    let regionCode = placemark.region?.code
    let countryName = placemark.country?.name
    let countryCode = placemark.country?.code
    let latitude = coordinate.latitude
    let longitude = coordinate.longitude
    if placemark.land {
      if detail == .settlement, placemark.locality != nil {
        let place = places.place(at: placemark.nearestPlace.index)
        var found = settlement(place, countryName: countryName)
        // The areas the point is in, as the text names them (the headline, the Surface line).
        found.regionName = regionName
        found.regionCode = regionCode
        found.subregionName = placemark.subregion?.name
        found.subregionCode = placemark.subregion?.code
        return found
      }
      if detail >= .region, let regionName {
        return GeocodedPlace(
          kind: .state, name: regionName, latitude: latitude, longitude: longitude,
          boundingBox: regionBox(code: regionCode)
            ?? Self.box(around: coordinate, km: 100),
          regionName: regionName, regionCode: regionCode, countryName: countryName, countryCode: countryCode,
          id: Self.areaID(kind: .state, text: (countryCode ?? "") + (regionCode ?? regionName)),
          importance: 0.6)
      }
      if let countryName {
        return GeocodedPlace(
          kind: .country, name: countryName, latitude: latitude, longitude: longitude,
          boundingBox: countryBox(code: countryCode) ?? Self.box(around: coordinate, km: 300),
          countryName: countryName, countryCode: countryCode,
          id: Self.areaID(kind: .country, text: countryCode ?? countryName), importance: 0.8)
      }
      return nil
    }
    if let water = placemark.inlandWater {
      return GeocodedPlace(
        kind: .water, name: water, latitude: latitude, longitude: longitude,
        boundingBox: Self.box(around: coordinate, km: 10), regionName: regionName, regionCode: regionCode,
        countryName: countryName, countryCode: countryCode, id: Self.areaID(kind: .water, text: water),
        importance: 0.3)
    }
    guard let sea = placemark.sea, let seaKind = placemark.seaKind else { return nil }
    let kind: GeocodedPlace.Kind =
      switch seaKind {
      case .ocean: .ocean
      case .sea: .sea
      }
    return GeocodedPlace(
      kind: kind, name: sea, latitude: latitude, longitude: longitude,
      boundingBox: seaBox(name: sea) ?? Self.box(around: coordinate, km: 500),
      seaName: sea, id: Self.areaID(kind: kind, text: sea), importance: 0.7)
  }

  /// A gazetteer place as the dialects name it.
  func settlement(_ place: Place, countryName: String? = nil) -> GeocodedPlace {
    let kind = GeocodedPlace.Kind.settlement(population: place.population)
    let region = place.region.flatMap { $0.name.isEmpty ? nil : $0 }
    let radiusKm: Double =
      switch kind {
      case .city: 10
      case .town: 4
      case .village: 2
      default: 1
      }
    return GeocodedPlace(
      kind: kind, name: place.name, latitude: place.coordinate.latitude,
      longitude: place.coordinate.longitude,
      boundingBox: Self.box(around: place.coordinate, km: radiusKm), settlement: place.name,
      regionName: region.map { PlaceText.regionName($0.name) }, regionCode: region?.isoCode,
      countryName: countryName ?? gazetteer.countryName(forCode: place.countryCode),
      countryCode: place.countryCode.isEmpty ? nil : place.countryCode, id: place.geonameID,
      population: place.population,
      importance: min(1, max(0.1, log10(Double(max(place.population, 1))) / 7.5)))
  }

  /// The places a search text names that `filters` admit, best first (or in the order `filters` ask), as
  /// the dialects name them.
  func searchPlaces(
    _ text: String, limit: Int, filters: SearchFilters = .none
  ) throws(AnswerError) -> [GeocodedPlace] {
    // Filtered or reordered, the answer is chosen from every place of that name, not the first `limit`.
    let filtered =
      filters.countryCodes != nil || filters.box != nil || !filters.excluded.isEmpty
      || filters.kinds != nil || !filters.tags.isEmpty || filters.near != nil
    let search = gazetteer.search(text, limit: filtered ? Self.searchCandidates : limit)
    try checkIntact()
    // The country and regions of the name first, each above the places less important than it (a country
    // above any town, a region above a town but below a city), as Nominatim ranks them.
    var found = search.matches.map { settlement($0.place, countryName: $0.countryName) }
    for area in areas(named: text).reversed() {
      found.insert(area, at: found.firstIndex { $0.importance < area.importance } ?? found.endIndex)
    }
    return Array(filters.ordered(found.filter(filters.admits)).prefix(limit))
  }

  /// How many places of a name a filtered search chooses from: more than any name has (the most common,
  /// San José and the like, have a few hundred).
  static let searchCandidates = 5_000

  // MARK: Boxes

  /// A box `km` around `coordinate` each way (longitudes widened by latitude; the whole circle at a pole).
  static func box(around coordinate: Coordinate, km: Double) -> GeocodedPlace.Box {
    let degrees = km / 111.195
    let cosine = cos(coordinate.latitude * .pi / 180)
    let across = cosine < 1e-6 ? 180 : min(180, degrees / cosine)
    return GeocodedPlace.Box(
      south: max(-90, coordinate.latitude - degrees), north: min(90, coordinate.latitude + degrees),
      west: max(-180, coordinate.longitude - across), east: min(180, coordinate.longitude + across))
  }

  /// The box around every ring of the features of `layer` that share a key (a country's code, a sea's name):
  /// the areas' boxes, made once so that an answer looks its box up rather than searching the polygons.
  static func boxes(of layer: PolygonLayer, key: (Int) -> String?) -> [String: GeocodedPlace.Box] {
    var boxes: [String: (low: FixedPoint, high: FixedPoint)] = [:]
    for feature in 0..<layer.featureCount {
      guard let key = key(feature), !key.isEmpty else { continue }
      var (low, high) =
        boxes[key] ?? (
          FixedPoint(latitude: .max, longitude: .max), FixedPoint(latitude: .min, longitude: .min)
        )
      for ring in layer.rings(of: feature) {
        let box = layer.ringBox(ring)
        low.latitude = min(low.latitude, box.minLatitude)
        low.longitude = min(low.longitude, box.minLongitude)
        high.latitude = max(high.latitude, box.maxLatitude)
        high.longitude = max(high.longitude, box.maxLongitude)
      }
      boxes[key] = (low, high)
    }
    let units = Double(layer.unitsPerDegree)
    return boxes.compactMapValues { low, high in
      guard low.latitude <= high.latitude else { return nil }
      return GeocodedPlace.Box(
        south: Double(low.latitude) / units, north: Double(high.latitude) / units,
        west: Double(low.longitude) / units, east: Double(high.longitude) / units)
    }
  }

  /// Area boxes by kind: countries by ISO code, regions by country code and name, seas by name.
  struct AreaBoxes: Sendable {
    var countries: [String: GeocodedPlace.Box]
    var regions: [String: GeocodedPlace.Box]
    var seas: [String: GeocodedPlace.Box]

    /// Regions are keyed as a placemark names them (``Placemark/Region/code``: ISO 3166-2, else
    /// `country.admin1`).
    init(
      countries countryLayer: CountryLayer, regions regionLayer: RegionLayer, marine: MarineLayer,
      places: PlaceLayer
    ) {
      countries = TunnelService.boxes(of: countryLayer.polygons) { countryLayer.country($0).isoAlpha2 }
      let regionIndexes = regionLayer.placeRegions(in: places)
      regions = TunnelService.boxes(of: regionLayer.polygons) { feature in
        regionIndexes[feature].map { index in
          let region = places.region(index)
          return region.isoCode ?? "\(region.countryCode).\(region.code)"
        }
      }
      seas = TunnelService.boxes(of: marine.polygons) { marine.name($0) }
    }
  }

  func countryBox(code: String?) -> GeocodedPlace.Box? {
    code.flatMap { areaBoxes.countries[$0] }
  }

  func regionBox(code: String?) -> GeocodedPlace.Box? {
    code.flatMap { areaBoxes.regions[$0] }
  }

  func seaBox(name: String) -> GeocodedPlace.Box? {
    areaBoxes.seas[name]
  }

  /// A stable id for an area (none of the data's areas has one of its own): FNV-1a of its kind and name,
  /// kept positive and apart from GeoNames' ids (which are below 2³²).
  static func areaID(kind: GeocodedPlace.Kind, text: String) -> Int {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in (kind.rawValue + ":" + text).utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    return Int(hash >> 12) | (1 << 40)
  }
}
