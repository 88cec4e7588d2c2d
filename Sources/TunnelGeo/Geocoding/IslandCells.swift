#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which cells of a 0.1° grid may lie within ``ReverseGeocoder/coastalToleranceKm`` of an island of the
/// high-resolution coastline (``ReverseGeocoder/islandSpanDegrees``): a batch asks for the nearest island
/// only where one may be that near, and most of the sea near a coast has none. Conservative: every cell
/// that meets an island's box widened by the tolerance is marked, so a point in an unmarked cell has no
/// island within it, and the answers are those of the search alone.
struct IslandCells: Sendable {
  private var cells = CellBitmap()

  init(coast: PolygonLayer) {
    let units = Double(coast.unitsPerDegree)
    let span = Int32(ReverseGeocoder.islandSpanDegrees * units)
    let margin = ReverseGeocoder.coastalToleranceKm / SphereGeometry.radiusKm * 180 / .pi
    for feature in 0..<coast.featureCount where coast.level(of: feature) % 2 == 1 {
      for ring in coast.rings(of: feature) {
        let box = coast.ringBox(ring)
        guard box.maxLatitude - box.minLatitude < span, box.maxLongitude - box.minLongitude < span else {
          continue
        }
        let south = max(-90, Double(box.minLatitude) / units - margin)
        let north = min(90, Double(box.maxLatitude) / units + margin)
        // A degree of longitude is shortest at the box's latitude farthest from the equator.
        let cosine = cos(max(abs(south), abs(north)) * .pi / 180)
        let widen = cosine > margin ? margin / cosine : 180
        cells.mark(
          south: south, north: north, west: Double(box.minLongitude) / units - widen,
          east: Double(box.maxLongitude) / units + widen)
      }
    }
  }

  private init(cells: CellBitmap) { self.cells = cells }

  /// ``init(coast:)``, read from `cache` when saved there before (keyed by the layer, the island span and
  /// the tolerance), else computed and saved there (``IndexCacheFile``).
  static func cached(coast: PolygonLayer, cache: IndexCache?) -> IslandCells {
    let version: UInt32 = 1
    let name = IndexCacheFile.name(layer: coast, kind: "island-cells", version: version)
    let keys =
      [version, coast.file.payloadChecksum] + IndexCacheFile.keys(coast.file.size)
      + [
        Float(ReverseGeocoder.islandSpanDegrees).bitPattern,
        Float(ReverseGeocoder.coastalToleranceKm).bitPattern,
      ]
    return IslandCells(
      cells: CellBitmap.cached(name, keys: keys, cache: cache) { IslandCells(coast: coast).cells })
  }

  /// Whether an island may lie within the tolerance of a point.
  func mayHaveIsland(near coordinate: Coordinate) -> Bool { cells.isMarked(coordinate) }

  /// Whether an island may lie within the tolerance of some point of a box in degrees.
  func mayHaveIsland(south: Double, north: Double, west: Double, east: Double) -> Bool {
    cells.anyMarked(south: south, north: north, west: west, east: east)
  }
}
