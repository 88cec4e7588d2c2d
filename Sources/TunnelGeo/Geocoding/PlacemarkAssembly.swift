/// A placemark put together from its lookups, one field at a time, by the rules that
/// ``ReverseGeocoder/placemark(for:)`` documents. The same steps run over the mapped layers
/// (``LayerLookups``) and over the batch indexes (``BatchIndexes``), so both give the same answers.
struct PlacemarkAssembly<Lookups: PlacemarkLookups> {
  let lookups: Lookups

  /// Everything the data says about a point.
  func placemark(for coordinate: Coordinate) throws(PlaceDataError) -> Placemark {
    let vector = SphereGeometry.unitVector(coordinate)
    let places = lookups.layers.places
    guard let found = lookups.nearestPlace(to: vector), found.index >= 0 else {
      throw .malformed(path: places.path, detail: "no places")
    }
    let nearest = ReverseGeocoder.nearestPlace(places, found.index, chordSquared: found.chordSquared)
    let level = lookups.coastLevel(at: coordinate)
    let land = level.map { $0 % 2 == 1 } ?? false
    let inLake = level.map { $0 % 2 == 0 } ?? false
    let countryFeature = country(
      at: coordinate, vector, toleranceKm: ReverseGeocoder.coastalToleranceKm)
    let water = land ? nil : self.water(at: coordinate, vector, inLake: inLake)
    return Placemark(
      latitude: coordinate.latitude, longitude: coordinate.longitude, land: land,
      country: countryFeature.map(lookups.country),
      region: countryFeature.flatMap {
        region(at: coordinate, vector, country: $0, nearestPlace: nearest.index)
      },
      sea: water?.sea, lake: water?.lake, inLake: inLake, nearestPlace: nearest,
      nearestLand: water?.nearestLand,
      timeZone: Placemark.TimeZone(
        identifier: timeZone(at: coordinate, land: land, nearestPlace: nearest.index)))
  }

  /// The country feature containing a point, or the one whose border is nearest within `toleranceKm`
  /// (ties to the lower feature).
  func country(at coordinate: Coordinate, _ vector: SIMD3<Double>, toleranceKm: Double) -> Int? {
    lookups.countryFeature(containing: coordinate)
      ?? lookups.countryBorder(nearestTo: coordinate, vector, within: toleranceKm / SphereGeometry.radiusKm)
  }

  /// The region polygon of the country containing the point, or whose border is within
  /// ``ReverseGeocoder/coastalToleranceKm``; else the region of the nearest populated place in the
  /// country (the nearest place of all when it is of the country), within
  /// ``ReverseGeocoder/regionSearchRadiusKm``.
  func region(
    at coordinate: Coordinate, _ vector: SIMD3<Double>, country feature: Int, nearestPlace: Int
  )
    -> Placemark.Region?
  {
    guard let value = lookups.countryCodeValue(feature) else { return nil }
    let polygon =
      lookups.regionFeature(containing: coordinate, country: value)
      ?? lookups.regionBorder(
        nearestTo: coordinate, vector,
        within: ReverseGeocoder.coastalToleranceKm / SphereGeometry.radiusKm, country: value)
    if let index = polygon.flatMap(lookups.regionIndex), var region = lookups.region(index) {
      region.source = .polygon
      return region
    }
    let places = lookups.layers.places
    let regionPlace =
      places.countryCodeValue(at: nearestPlace) == value
      ? nearestPlace
      : lookups.nearestPlace(
        ofCountry: value, to: vector,
        within: SphereGeometry.chordSquared(
          angle: ReverseGeocoder.regionSearchRadiusKm / SphereGeometry.radiusKm))
    guard var region = regionPlace.flatMap(places.regionIndex).flatMap(lookups.region) else { return nil }
    region.source = .nearestPlace
    return region
  }

  /// What a point off land is in: a lake or a sea, and the nearest land.
  func water(
    at coordinate: Coordinate, _ vector: SIMD3<Double>, inLake: Bool
  )
    -> (sea: String?, lake: String?, nearestLand: Placemark.NearestLand?)
  {
    let containing = lookups.seaName(containing: coordinate)
    let shore = lookups.nearestShore(to: coordinate, vector, inLake: inLake)
    return (
      sea: inLake ? nil : containing ?? lookups.nearestSeaName(to: coordinate, vector),
      lake: inLake ? containing : nil,
      nearestLand: shore.map(nearestLand)
    )
  }

  /// The time zone polygon's zone; where none holds the point (gaps between simplified polygons), the
  /// nautical zone at sea and the nearest place's zone on land.
  func timeZone(at coordinate: Coordinate, land: Bool, nearestPlace: Int) -> String {
    lookups.timeZoneFeature(containing: coordinate).map(lookups.timeZone)
      ?? (land ? nil : ReverseGeocoder.oceanZone(longitude: coordinate.longitude))
      ?? lookups.layers.places.timeZone(at: nearestPlace)
  }

  // MARK: Nearest land

  /// Describes a shoreline point: its country and, where a place is near, its name.
  func nearestLand(_ shore: BoundaryHit) -> Placemark.NearestLand {
    let point = SphereGeometry.coordinate(shore.point)
    let described: ShoreDescription
    if let remembered = lookups.shoreDescription(of: shore.point) {
      described = remembered
    } else {
      described = describeShore(shore.point)
      lookups.remember(described, of: shore.point)
    }
    let island = described.island.map(lookups.island)
    return Placemark.NearestLand(
      distanceKm: shore.angle * SphereGeometry.radiusKm, latitude: point.latitude, longitude: point.longitude,
      country: described.country.map(lookups.country),
      name: described.place.map(lookups.layers.places.name) ?? island, island: island)
  }

  /// The country feature, named island and nearby place of a shoreline point.
  func describeShore(_ vector: SIMD3<Double>) -> ShoreDescription {
    let point = SphereGeometry.coordinate(vector)
    let feature = country(at: point, vector, toleranceKm: ReverseGeocoder.landCountryToleranceKm)
    var found: Int? = nil
    if let feature, let value = lookups.countryCodeValue(feature) {
      let limit = SphereGeometry.chordSquared(
        angle: ReverseGeocoder.landNameRadiusKm / SphereGeometry.radiusKm)
      // The nearest place of all settles it when it is too far or of the same country.
      if let nearest = lookups.nearestPlace(to: vector),
        nearest.chordSquared >= limit || lookups.layers.places.countryCodeValue(at: nearest.index) == value
      {
        found = nearest.chordSquared >= limit ? nil : nearest.index
      } else {
        found = lookups.nearestPlace(ofCountry: value, to: vector, within: limit)
      }
    }
    return ShoreDescription(country: feature, island: island(at: point, vector), place: found)
  }

  /// The named island a shoreline point lies on: the island polygon containing it, else the one whose
  /// outline is nearest within ``ReverseGeocoder/islandToleranceKm`` (the island outlines come from
  /// another survey than the shorelines and are simplified).
  func island(at point: Coordinate, _ vector: SIMD3<Double>) -> Int? {
    lookups.islandFeature(containing: point)
      ?? lookups.islandOutline(
        nearestTo: point, vector, within: ReverseGeocoder.islandToleranceKm / SphereGeometry.radiusKm)
  }
}
