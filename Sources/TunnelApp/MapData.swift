import Synchronization
import TunnelGeo

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What maps are drawn from: the bundled coastlines, country borders and places, decoded once into
/// arrays that a frame scans without touching the mapped files again.
///
/// Coastlines come from GSHHG low resolution (`coastline-l`, about 90,000 vertices: land, lakes,
/// islands in lakes, ponds and the Antarctic ice front), borders from the country polygons, labels
/// from the populated places, largest first. Each vertex and place also gets its unit vector, so a
/// frame can tell what lies near its view without trigonometry. Decoding takes about 60 ms and
/// 16 MB; share one `MapData` between every map of a process. Maps closer than
/// ``detailedMetresPerPixel`` draw GSHHG's high resolution instead (about 1.5 million vertices,
/// decoded the first time one is drawn), so that a map zoomed in shows the coast and lakes as they
/// are, not the low resolution's kilometre-long chords.
///
/// ```swift
/// let mapData = try MapData(data: PlaceData())
/// let renderer = try MapRenderer(data: mapData)
/// ```
public final class MapData: Sendable {
  /// The place data the layers were read from.
  public let placeData: PlaceData
  /// Coastline rings of every level, for filling land and drawing shores.
  let coast: DrawingLayer
  /// The same coastlines as mapped polygons, to tell land from water at one point.
  let coastline: CoastlineLayer
  /// Country rings, for borders.
  let borders: DrawingLayer
  /// The populated places.
  let places: PlaceLayer
  /// The named seas, to name the water at a map's centre.
  let marine: MarineLayer
  /// The high-resolution coastlines, decoded when a map first needs them.
  private let detailed = Mutex<Coast?>(nil)

  /// Maps with pixels smaller than this (in metres) are drawn from the high-resolution coastlines:
  /// the low resolution's edges run to a few kilometres, which shows from here on.
  public static let detailedMetresPerPixel = 500.0

  /// Coastlines to draw and to tell land from water by: the same polygons for both.
  struct Coast: Sendable {
    /// The rings, for filling land and drawing shores.
    let drawing: DrawingLayer
    /// The polygons, to tell land from water at one point.
    let polygons: CoastlineLayer

    /// Whether a point is on land (or on an island in a lake).
    func isLand(_ coordinate: Coordinate) -> Bool {
      polygons.polygons.features(containing: coordinate).count % 2 == 1
    }
  }

  /// Place indices in the order labels are chosen: by population, a capital's counted ``capitalWeight``
  /// times (ties in index order), so that Suva is named before its larger suburb Nasinu while São Paulo still
  /// comes before Brasília.
  let placesByRank: [Int32]
  /// How many times a capital's population counts when labels are chosen.
  static let capitalWeight = 4
  /// The unit vectors of the places in ``placesByRank``'s order.
  let placeVectors: [SIMD3<Float>]

  /// Reads and decodes the layers maps need.
  ///
  /// - Throws: `PlaceDataError` when a layer is missing or damaged.
  public init(data: PlaceData) throws(PlaceDataError) {
    placeData = data
    coastline = try data.coastline(.low)
    coast = DrawingLayer(coastline.polygons)
    let countries = try data.countries().polygons
    borders = DrawingLayer(countries, isStroked: SharedBorders.predicate(countries))
    let places = try data.places()
    self.places = places
    marine = try data.marine()
    var order = (0..<places.count).map {
      (
        rank: places.population(at: $0) * (places.isCapital(at: $0) ? Self.capitalWeight : 1),
        index: Int32($0)
      )
    }
    order.sort { $0.rank != $1.rank ? $0.rank > $1.rank : $0.index < $1.index }
    placesByRank = order.map(\.index)
    placeVectors = order.map { SIMD3<Float>(places.unitVector(at: Int($0.index))) }
    try data.checkIntact()
  }

  /// The coastlines a map with pixels of `metresPerPixel` is drawn from: the high resolution below
  /// ``detailedMetresPerPixel`` (the low one if that layer cannot be read), else the low one.
  func coast(metresPerPixel: Double) -> Coast {
    let low = Coast(drawing: coast, polygons: coastline)
    guard metresPerPixel < Self.detailedMetresPerPixel else { return low }
    return detailed.withLock { cached in
      if let cached { return cached }
      guard let layer = try? placeData.coastline(.high) else { return low }
      let high = Coast(drawing: DrawingLayer(layer.polygons), polygons: layer)
      cached = high
      return high
    }
  }
}

/// The rings of a polygon layer decoded into one array of fixed-point vertices.
struct DrawingLayer: Sendable {
  /// One ring: its bounding box and where its vertices are (closed: the last repeats the first).
  struct Ring: Sendable {
    var box: FixedBox
    var start: Int
    var count: Int
  }

  let rings: [Ring]
  let points: [FixedPoint]
  /// Per point: whether the edge from the ring's previous point to it is drawn (false for a ring's first
  /// point). The fill uses every edge; strokes leave out the others.
  let stroked: [Bool]
  /// The unit vector (x towards 0° 0°, z towards the North Pole) of each point.
  let vectors: [SIMD3<Float>]
  /// Fixed-point units per degree.
  let unitsPerDegree: Int

  /// The rings of `layer`, with the edges `isStroked` admits drawn (by default every shoreline: not the
  /// seams where the source cut a land mass along 0° or 180°, nor the edges round a pole).
  init(_ layer: PolygonLayer, isStroked: ((FixedPoint, FixedPoint) -> Bool)? = nil) {
    let isStroked = isStroked ?? TileLayer.shorelines(unitsPerDegree: layer.unitsPerDegree)
    var rings: [Ring] = []
    var points: [FixedPoint] = []
    var stroked: [Bool] = []
    rings.reserveCapacity(layer.ringCount)
    points.reserveCapacity(layer.vertexCount + layer.ringCount)
    stroked.reserveCapacity(layer.vertexCount + layer.ringCount)
    for index in 0..<layer.ringCount {
      let start = points.count
      layer.forEachVertex(ofRing: index) { point in
        stroked.append(points.count > start && isStroked(points[points.count - 1], point))
        points.append(point)
      }
      rings.append(Ring(box: layer.ringBox(index), start: start, count: points.count - start))
    }
    self.rings = rings
    self.points = points
    self.stroked = stroked
    unitsPerDegree = layer.unitsPerDegree
    let radians = Double.pi / 180 / Double(layer.unitsPerDegree)
    vectors = points.map { point in
      SIMD3<Float>(
        unitVector(latitude: Double(point.latitude) * radians, longitude: Double(point.longitude) * radians))
    }
  }
}

/// The unit vector of a point given in radians: x towards 0° 0°, y towards 0° 90° E, z towards the
/// North Pole.
func unitVector(latitude: Double, longitude: Double) -> SIMD3<Double> {
  SIMD3(cos(latitude) * cos(longitude), cos(latitude) * sin(longitude), sin(latitude))
}
