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

  /// Whether an island may lie within the tolerance of a point.
  func mayHaveIsland(near coordinate: Coordinate) -> Bool { cells.isMarked(coordinate) }

  /// Whether an island may lie within the tolerance of some point of a box in degrees.
  func mayHaveIsland(south: Double, north: Double, west: Double, east: Double) -> Bool {
    cells.anyMarked(south: south, north: north, west: west, east: east)
  }
}
