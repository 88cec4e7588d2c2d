/// Lakes, second-level regions, islands and seas by the names Tunnel prints for them ("Lake Superior", "Cook
/// County", "Antipodes Island", "Tasman Sea"): a point of the named feature, for a name that no place and no
/// region has.
///
/// The point is the one of a 16 × 16 grid over the feature's box nearest the box's middle that lies inside
/// the feature: for a lake, inside the GSHHG lake it names as well (for named water GSHHG draws as sea, at
/// sea); for an island, on GSHHG's land. Of several features of one name, the lake comes first, then the
/// second-level region, the island, the sea; of several second-level regions the one with the most people
/// in its places ("Cook County" is Illinois'; "Washington County, Oregon" is not read), and of several
/// islands or seas the one with the largest box.
enum FeatureNames {
  static func point(named text: String, in data: PlaceData) -> Coordinate? {
    if let lake = lakePoint(named: text, in: data) { return lake }
    let key = PlaceNameKey.fold(text)
    guard !key.isEmpty else { return nil }
    if let subregions = try? data.subregions() {
      let features = named(subregions.polygons.featureCount, key, subregions.name)
      if let point = features.max(by: { subregions.population($0) < subregions.population($1) }).flatMap({
        interiorPoint(of: $0, in: subregions.polygons) { _ in true }
      }) {
        return point
      }
    }
    let coast = try? data.coastline(.high)
    if let islands = try? data.islands() {
      let features = named(islands.polygons.featureCount, key, islands.name)
      // On the island's land as the coastline draws it: the island outlines come from another survey.
      func onLand(_ point: Coordinate) -> Bool {
        guard let coast else { return true }
        return
          (FeatureChoice.highestLevel(of: coast.polygons.features(containing: point), in: coast.polygons) ?? 0)
          % 2 == 1
      }
      if let point = largest(features, in: islands.polygons).flatMap({
        interiorPoint(of: $0, in: islands.polygons, where: onLand)
      }) {
        return point
      }
    }
    if let marine = try? data.marine() {
      let features = named(marine.polygons.featureCount, key, marine.name)
      return largest(features, in: marine.polygons).flatMap {
        interiorPoint(of: $0, in: marine.polygons) { _ in true }
      }
    }
    return nil
  }

  /// The features `name` calls as `key` folds.
  private static func named(_ count: Int, _ key: String, _ name: (Int) -> String?) -> [Int] {
    (0..<count).filter { feature in
      guard let found = name(feature), Gazetteer.asciiAlphanumerics(of: found, canBeIn: key) else {
        return false
      }
      return PlaceNameKey.fold(found) == key
    }
  }

  /// A point of the lake called `text`, inside the GSHHG lake the name is for; nil when no lake is called so.
  static func lakePoint(named text: String, in data: PlaceData) -> Coordinate? {
    let key = PlaceNameKey.fold(text)
    guard !key.isEmpty, let lakes = try? data.lakes() else { return nil }
    let features = named(lakes.polygons.featureCount, key, lakes.name)
    guard !features.isEmpty, let coast = try? data.coastline(.high) else { return nil }
    for feature in features {
      // A lake in its GSHHG lake; named water GSHHG draws as sea, at sea.
      let lake = lakes.coastFeature(feature)
      let point = interiorPoint(of: feature, in: lakes.polygons) {
        let features = coast.polygons.features(containing: $0)
        return lake.map { FeatureChoice.lake(of: features, in: coast.polygons) == $0 } ?? features.isEmpty
      }
      if let point { return point }
    }
    return nil
  }

  /// The box of a feature's rings.
  private static func box(of feature: Int, in layer: PolygonLayer) -> FixedBox? {
    let boxes = layer.rings(of: feature).map { layer.ringBox($0) }
    guard let first = boxes.first else { return nil }
    return boxes.dropFirst().reduce(first) { box, ring in
      FixedBox(
        minLatitude: min(box.minLatitude, ring.minLatitude),
        minLongitude: min(box.minLongitude, ring.minLongitude),
        maxLatitude: max(box.maxLatitude, ring.maxLatitude),
        maxLongitude: max(box.maxLongitude, ring.maxLongitude))
    }
  }

  /// Of `features`, the one with the largest box (in square degrees).
  private static func largest(_ features: [Int], in layer: PolygonLayer) -> Int? {
    features.max { a, b in
      func area(_ feature: Int) -> Double {
        guard let box = box(of: feature, in: layer) else { return 0 }
        return Double(box.maxLatitude - box.minLatitude) * Double(box.maxLongitude - box.minLongitude)
      }
      return area(a) < area(b)
    }
  }

  /// The point of a 16 × 16 grid over a feature's box nearest the box's middle that lies inside the feature
  /// and that `accept` takes; nil when there is none.
  static func interiorPoint(
    of feature: Int, in layer: PolygonLayer, where accept: (Coordinate) -> Bool
  ) -> Coordinate? {
    guard let box = box(of: feature, in: layer) else { return nil }
    let steps = 16
    var candidates: [(distance: Int64, point: FixedPoint)] = []
    let (height, width) = (
      Int64(box.maxLatitude - box.minLatitude), Int64(box.maxLongitude - box.minLongitude)
    )
    for row in 0..<steps {
      for column in 0..<steps {
        let dy = height * Int64(2 * row + 1) / Int64(2 * steps)
        let dx = width * Int64(2 * column + 1) / Int64(2 * steps)
        let point = FixedPoint(
          latitude: box.minLatitude + Int32(dy), longitude: box.minLongitude + Int32(dx))
        let (offsetY, offsetX) = (2 * dy - height, 2 * dx - width)
        candidates.append((offsetY * offsetY + offsetX * offsetX, point))
      }
    }
    for candidate in candidates.sorted(by: { $0.distance < $1.distance }) {
      guard layer.contains(candidate.point, feature: feature) else { continue }
      var coordinate = layer.coordinate(candidate.point)
      // A ring across ±180° is stored a second time shifted by 360°.
      if coordinate.longitude > 180 || coordinate.longitude < -180 {
        let wrapped = coordinate.longitude > 180 ? coordinate.longitude - 360 : coordinate.longitude + 360
        coordinate = Coordinate(uncheckedLatitude: coordinate.latitude, longitude: wrapped)
      }
      if accept(coordinate) { return coordinate }
    }
    return nil
  }
}
