/// A country of the countries layer (Natural Earth 10m admin-0).
public struct Country: Sendable, Hashable {
  /// The feature's index in ``CountryLayer/polygons``.
  public var feature: Int
  /// ISO 3166-1 alpha-2 (`ISO_A2_EH`), nil for the few areas without one (e.g. Bir Tawil).
  public var isoAlpha2: String?
  /// ISO 3166-1 alpha-3 (`ISO_A3_EH`), nil where there is none.
  public var isoAlpha3: String?
  /// The English name, in full (`NAME_LONG`: "Democratic Republic of the Congo"; `NAME_EN` where the former
  /// abbreviates: "Bosnia and Herzegovina", not "Bosnia and Herz.").
  public var name: String
  /// The short English name (`NAME`: "Dem. Rep. Congo").
  public var shortName: String
  /// Natural Earth's own alpha-3 code, present for every feature.
  public var naturalEarthCode: String
  /// What Natural Earth says of an area it marks as disputed or indeterminate, or whose claim it notes, in
  /// its words ("Admin. by U.K.; Claimed by Argentina"; "Disputed" where it says no more); nil elsewhere.
  public var dispute: String? = nil
}

/// Countries as polygons (Natural Earth 10m admin-0, German point of view for disputed areas).
public struct CountryLayer: Sendable {
  /// The polygons; feature attributes are `iso_a2, iso_a3, name, short_name, adm0_a3, sovereignty, dispute`.
  public let polygons: PolygonLayer

  /// The country of a feature.
  public func country(_ feature: Int) -> Country {
    func value(_ position: Int) -> String? {
      let text = polygons.attribute(position, of: feature)
      return text?.isEmpty == false ? text : nil
    }
    return Country(
      feature: feature, isoAlpha2: value(0), isoAlpha3: value(1), name: value(2) ?? "",
      shortName: value(3) ?? "", naturalEarthCode: value(4) ?? "",
      dispute: polygons.attributeNames.count > 6 ? value(6) : nil)
  }

  /// The countries whose polygons contain the coordinate (no coastal tolerance).
  public func countries(containing coordinate: Coordinate) -> [Country] {
    polygons.features(containing: coordinate).map(country)
  }

  /// A point inside a feature, for a country with no populated place to stand for it (Antarctica, Heard
  /// Island): the centre of the box of the feature's largest ring if the feature holds it, else the first
  /// point of a 15 × 15 grid over that box that it holds, else the ring's first vertex (on its shore).
  public func interiorPoint(of feature: Int) -> Coordinate {
    var largest: Int?
    var largestArea: Int64 = -1
    for ring in polygons.rings(of: feature) {
      let box = polygons.ringBox(ring)
      let area =
        (Int64(box.maxLatitude) - Int64(box.minLatitude))
        * (Int64(box.maxLongitude) - Int64(box.minLongitude))
      if area > largestArea { (largest, largestArea) = (ring, area) }
    }
    guard let ring = largest else { return Coordinate(uncheckedLatitude: 0, longitude: 0) }
    let box = polygons.ringBox(ring)
    func point(_ row: Int64, _ column: Int64) -> FixedPoint {
      FixedPoint(
        latitude: Int32(
          Int64(box.minLatitude) + (Int64(box.maxLatitude) - Int64(box.minLatitude)) * row / 16),
        longitude: Int32(
          Int64(box.minLongitude) + (Int64(box.maxLongitude) - Int64(box.minLongitude)) * column / 16))
    }
    let candidates = [point(8, 8)] + (1...15).flatMap { row in (1...15).map { point(row, $0) } }
    let inside = candidates.first { polygons.contains($0, feature: feature) }
    return polygons.coordinate(inside ?? polygons.vertices(ofRing: ring).first ?? point(8, 8))
  }
}

/// Named oceans and seas (Natural Earth 10m marine polygons), upper-case names title-cased.
public struct MarineLayer: Sendable {
  /// The polygons; the single attribute is `name` (absent for the few unnamed polygons).
  public let polygons: PolygonLayer

  /// The name of a feature ("South Pacific Ocean"), nil for unnamed ones.
  public func name(_ feature: Int) -> String? { polygons.attribute(0, of: feature) }

  /// The names of the marine polygons containing the coordinate.
  public func names(containing coordinate: Coordinate) -> [String] {
    polygons.features(containing: coordinate).compactMap(name)
  }
}

/// How fine a coastline layer is.
public enum CoastlineResolution: String, Sendable, CaseIterable {
  /// GSHHG high resolution (polygons under 0.2 km² dropped): for deciding land or sea.
  case high = "h"
  /// GSHHG low resolution: for drawing maps.
  case low = "l"

  var fileName: String { "coastline-\(rawValue).tunnel" }
}

/// What a GSHHG polygon encloses.
public enum CoastlineLevel: Int, Sendable, Hashable {
  case land = 1
  case lake = 2
  case islandInLake = 3
  case pondOnIsland = 4
  case antarcticIceFront = 5
  case antarcticGroundingLine = 6
}

/// Shorelines from GSHHG 2.3.6, one ring per feature, lakes kept apart from land by their level.
///
/// A point is on land when the highest level among the polygons containing it is odd (land, island in
/// a lake, Antarctic ice) and in inland water when it is even (lake, pond); in no polygon it is at sea.
public struct CoastlineLayer: Sendable {
  /// The polygons; ``PolygonLayer/level(of:)`` gives each feature's ``CoastlineLevel``.
  public let polygons: PolygonLayer
  /// Which resolution this is.
  public let resolution: CoastlineResolution

  /// The level of a feature.
  public func level(_ feature: Int) -> CoastlineLevel? {
    CoastlineLevel(rawValue: polygons.level(of: feature))
  }

  /// The levels of the polygons containing the coordinate, highest first.
  public func levels(containing coordinate: Coordinate) -> [CoastlineLevel] {
    polygons.features(containing: coordinate).compactMap(level).sorted { $0.rawValue > $1.rawValue }
  }
}

/// IANA time zone polygons, including the ocean bands `Etc/GMT-12` … `Etc/GMT+12`.
public struct TimeZoneLayer: Sendable {
  /// The polygons; the attributes are `tzid` and `country`.
  public let polygons: PolygonLayer

  /// The identifier of a feature ("Europe/Copenhagen").
  public func identifier(_ feature: Int) -> String { polygons.attribute(0, of: feature) ?? "" }

  /// The ISO 3166-1 alpha-2 code of a feature's country: the code most GeoNames places naming the zone as
  /// theirs carry ("VA" for Europe/Vatican, "TH" for Asia/Bangkok); nil for a zone no place names (the
  /// nautical `Etc/GMT±N` zones) and for data without the attribute.
  public func countryCode(_ feature: Int) -> String? {
    guard polygons.attributeNames.count > 1, let code = polygons.attribute(1, of: feature), !code.isEmpty
    else {
      return nil
    }
    return code
  }

  /// Whether some zone is of a country (an ISO alpha-2 code): false for a country that keeps another's
  /// time (Kosovo keeps Serbia's) or that the places do not know by its code.
  public func hasZone(ofCountry code: String) -> Bool {
    (0..<polygons.featureCount).contains { countryCode($0) == code }
  }

  /// The zones whose polygons contain the coordinate.
  public func identifiers(containing coordinate: Coordinate) -> [String] {
    polygons.features(containing: coordinate).map(identifier)
  }
}

/// Named islands (CIA World Data Bank II, as `worldHires` of the R package mapdata), one ring per island.
///
/// Only islands with a name of their own are here: not the unnamed islets, not the parts of continents,
/// not lakes. Rings are simplified to about 250 m; a ring crossing ±180° longitude is stored a second time
/// shifted by 360°, so both sides of the antimeridian find it.
///
/// ```swift
/// let islands = try PlaceData().islands()
/// islands.names(containing: try Coordinate(latitude: -49.68, longitude: 178.77))  // ["Antipodes Island"]
/// ```
public struct IslandLayer: Sendable {
  /// The polygons; the single attribute is `name`.
  public let polygons: PolygonLayer

  /// The name of a feature ("Antipodes Island"), spelled as in World Data Bank II.
  public func name(_ feature: Int) -> String { polygons.attribute(0, of: feature) ?? "" }

  /// The names of the islands whose polygons contain the coordinate (no coastal tolerance).
  public func names(containing coordinate: Coordinate) -> [String] {
    polygons.features(containing: coordinate).map(name)
  }
}

/// Names for GSHHG's lakes, which the coastline layers draw but do not name: the named lake polygons of
/// Natural Earth (1:110m and 1:50m) and World Data Bank II, each matched when the data was built to the
/// high-resolution coastline's lake that holds most of it (see Data/README.md).
///
/// Most lakes have one name; a GSHHG lake that joins several (Michigan and Huron at the Straits of
/// Mackinac, Erie and St. Clair) is told apart by the named polygon holding the point, else the nearest.
///
/// ```swift
/// let data = try PlaceData()
/// let coast = try data.coastline(.high)
/// let point = try Coordinate(latitude: 47.7, longitude: -87.5)
/// try data.lakes().name(at: point, coast: coast)  // "Lake Superior"
/// ```
public struct LakeLayer: Sendable {
  /// The named polygons; the attributes are `name` and `coast`.
  public let polygons: PolygonLayer
  /// The named polygons of each high-resolution coastline feature (a GSHHG lake).
  private let byCoastFeature: [Int: [Int]]

  init(polygons: PolygonLayer) {
    self.polygons = polygons
    var byCoastFeature: [Int: [Int]] = [:]
    for feature in 0..<polygons.featureCount {
      if let coast = polygons.attribute(1, of: feature).flatMap({ Int($0) }) {
        byCoastFeature[coast, default: []].append(feature)
      }
    }
    self.byCoastFeature = byCoastFeature
  }

  /// The name of a feature ("Lake Superior").
  public func name(_ feature: Int) -> String { polygons.attribute(0, of: feature) ?? "" }

  /// The high-resolution coastline feature (a GSHHG lake) a feature names; nil for named water that no
  /// GSHHG lake holds (``seaName(containing:)``).
  public func coastFeature(_ feature: Int) -> Int? { polygons.attribute(1, of: feature).flatMap { Int($0) } }

  /// The features naming a high-resolution coastline feature, in feature order (empty for an unnamed lake).
  public func features(naming coastFeature: Int) -> [Int] { byCoastFeature[coastFeature] ?? [] }

  /// The name of the lake a point is in, given the high-resolution coastline feature (a GSHHG lake, level 2)
  /// holding it: its one name, or where the lake has several, the name of the named polygon holding the
  /// point, else of the nearest; nil for a lake no source names.
  public func name(ofCoastFeature coastFeature: Int, at coordinate: Coordinate) -> String? {
    feature(ofCoastFeature: coastFeature, at: coordinate).map(name)
  }

  /// The feature whose name ``name(ofCoastFeature:at:)`` gives.
  func feature(ofCoastFeature coastFeature: Int, at coordinate: Coordinate) -> Int? {
    let candidates = features(naming: coastFeature)
    guard candidates.count > 1 else { return candidates.first }
    if let holding = polygons.features(containing: coordinate).first(where: candidates.contains) {
      return holding
    }
    return NearestBoundarySearch(layer: polygons, coordinate: coordinate).nearestAtAnyDistance {
      candidates.contains($0)
    }?.feature
  }

  /// The name of the named water holding a point that no GSHHG lake holds (GSHHG draws the IJsselmeer, the
  /// Vistula Lagoon and the Syvash as sea): the sea's name there, more precise than the marine layer's.
  public func seaName(containing coordinate: Coordinate) -> String? {
    seaFeature(containing: coordinate).map(name)
  }

  /// The feature whose name ``seaName(containing:)`` gives.
  func seaFeature(containing coordinate: Coordinate) -> Int? {
    Self.seaFeature(of: polygons, containing: coordinate)
  }

  /// ``seaFeature(containing:)`` of a lake layer's `polygons`.
  static func seaFeature(of polygons: PolygonLayer, containing coordinate: Coordinate) -> Int? {
    polygons.features(containing: coordinate).first {
      polygons.attribute(1, of: $0).flatMap { Int($0) } == nil
    }
  }

  /// The name of the lake holding a point by the high-resolution coastline `coast`; nil on land, at sea, on
  /// a pond on an island in a lake, in a lake no source names, and for a coastline of another resolution.
  public func name(at coordinate: Coordinate, coast: CoastlineLayer) -> String? {
    guard coast.resolution == .high,
      let lake = FeatureChoice.lake(of: coast.polygons.features(containing: coordinate), in: coast.polygons)
    else { return nil }
    return name(ofCoastFeature: lake, at: coordinate)
  }
}

/// First-level regions (states, provinces, oblasts) as polygons: Natural Earth 10m admin-1, each given
/// the GeoNames admin-1 code that the places inside it carry (see Data/README.md).
public struct RegionLayer: Sendable {
  /// The polygons; feature attributes are `iso_a2, admin1, name, match`.
  public let polygons: PolygonLayer

  /// The ISO 3166-1 alpha-2 code of a feature's country, nil where Natural Earth gives none.
  public func countryCode(_ feature: Int) -> String? { polygons.attribute(0, of: feature) }

  /// The GeoNames admin-1 code of a feature ("82" of DK.82), nil where none could be given.
  public func admin1Code(_ feature: Int) -> String? { polygons.attribute(1, of: feature) }

  /// Natural Earth's name of a feature ("Midtjylland").
  public func name(_ feature: Int) -> String { polygons.attribute(2, of: feature) ?? "" }

  /// How the admin-1 code was found: "places and name" (places inside carry it, and it is the polygon's
  /// name), "places" (most places inside carry it) or "name".
  public func match(_ feature: Int) -> String? { polygons.attribute(3, of: feature) }

  /// The index of a feature's region in `places` (``PlaceLayer/region(_:)``), nil where the feature has
  /// no admin-1 code or the place layer no such region: a scan of the region table, for one-off queries.
  public func placeRegion(of feature: Int, in places: PlaceLayer) -> Int? {
    guard let country = countryCode(feature), let code = admin1Code(feature) else { return nil }
    return places.regionIndex(country: country, code: code)
  }

  /// For every feature, the index of its region in `places` (``PlaceLayer/region(_:)``), nil where the
  /// feature has no admin-1 code or the place layer no such region.
  public func placeRegions(in places: PlaceLayer) -> [Int?] {
    var byCode: [String: Int] = [:]
    for index in 0..<places.regionCount {
      let region = places.region(index)
      byCode[region.countryCode + "." + region.code] = index
    }
    return (0..<polygons.featureCount).map { feature in
      guard let country = countryCode(feature), let code = admin1Code(feature) else { return nil }
      return byCode[country + "." + code]
    }
  }
}

/// Second-level regions as polygons, where a source that may be bundled draws them: the counties of the
/// 48 contiguous United States but Connecticut and Virginia, and the départements of metropolitan France
/// (the R maps databases `county` and `france`), each with the GeoNames admin-1 and admin-2 codes of the
/// division it is and, for the départements, its ISO 3166-2 code (Data/README.md says what is left out and
/// why).
///
/// ```swift
/// let data = try PlaceData()
/// let point = try Coordinate(latitude: 39.74, longitude: -104.99)
/// let counties = try data.subregions()
/// let county = counties.feature(at: point, country: "US", admin1: "CO", toleranceKm: 5)
/// county.map(counties.name)  // "Denver County"
/// ```
public struct SubregionLayer: Sendable {
  /// The polygons; feature attributes are `iso_a2, admin1, admin2, name, iso, population`.
  public let polygons: PolygonLayer
  /// The countries the layer divides.
  public let countries: Set<String>
  /// The same, as ``PlaceLayer`` stores country codes (a test without a `String`).
  let countryCodeValues: Set<UInt16>

  init(polygons: PolygonLayer) {
    self.polygons = polygons
    countries = Set((0..<polygons.featureCount).compactMap { polygons.attribute(0, of: $0) })
    countryCodeValues = Set(countries.compactMap(PlacemarkNames.countryCodeValue))
  }

  /// The ISO 3166-1 alpha-2 code of a feature's country ("US").
  public func countryCode(_ feature: Int) -> String? { polygons.attribute(0, of: feature) }

  /// The GeoNames admin-1 code of the region a feature lies in ("CO" of US.CO, "11" of FR.11).
  public func admin1Code(_ feature: Int) -> String? { polygons.attribute(1, of: feature) }

  /// The GeoNames admin-2 code of a feature ("031" of US.CO.031).
  public func admin2Code(_ feature: Int) -> String? { polygons.attribute(2, of: feature) }

  /// The name as GeoNames gives it ("Denver County", "Val-d'Oise").
  public func name(_ feature: Int) -> String { polygons.attribute(3, of: feature) ?? "" }

  /// The ISO 3166-2 code ("FR-95"); nil where the division has none (the counties of the United States).
  public func isoCode(_ feature: Int) -> String? { polygons.attribute(4, of: feature) }

  /// The people of the GeoNames places inside a feature (cities500: places of 500 or more), which tells
  /// namesakes apart: Cook County, Illinois, holds 7.0 million by that count, Cook County, Minnesota, 1,327.
  public func population(_ feature: Int) -> Int {
    polygons.attribute(5, of: feature).flatMap { Int($0) } ?? 0
  }

  /// The feature of a first-level region (a country's ISO code and the region's GeoNames admin-1 code)
  /// that contains a point, or else whose border is nearest within `toleranceKm`: only the divisions of
  /// that region count, so a point the region layer puts in Colorado is never in a Kansas county where the
  /// two sources draw the state line apart. Nil where the layer does not divide the country.
  public func feature(at coordinate: Coordinate, country: String, admin1: String, toleranceKm: Double) -> Int?
  {
    guard countries.contains(country) else { return nil }
    func isOfRegion(_ feature: Int) -> Bool {
      admin1Code(feature) == admin1 && countryCode(feature) == country
    }
    if let holding = polygons.features(containing: coordinate).first(where: isOfRegion) { return holding }
    return NearestBoundarySearch(layer: polygons, coordinate: coordinate)
      .nearest(within: toleranceKm / SphereGeometry.radiusKm, accept: isOfRegion)?.feature
  }
}
