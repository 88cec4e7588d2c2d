import Synchronization
import TunnelGeo

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
  /// The named lakes and the high-resolution coastline they name, to name a lake at a map's centre.
  let lakes: (names: LakeLayer, coast: CoastlineLayer)
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
    lakes = (try data.lakes(), try data.coastline(.high))
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
