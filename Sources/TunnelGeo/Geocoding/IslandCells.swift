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
  private static let cellsPerDegree = 10
  private static let columns = 360 * cellsPerDegree
  private static let rows = 180 * cellsPerDegree
  private var bits: [UInt64]

  init(coast: PolygonLayer) {
    bits = Array(repeating: 0, count: (Self.rows * Self.columns + 63) / 64)
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
        mark(
          south: south, north: north, west: Double(box.minLongitude) / units - widen,
          east: Double(box.maxLongitude) / units + widen)
      }
    }
  }

  private mutating func mark(south: Double, north: Double, west: Double, east: Double) {
    let firstRow = Self.row(south)
    let lastRow = Self.row(north)
    let wide = east - west >= 360
    for row in firstRow...lastRow {
      if wide {
        for column in 0..<Self.columns { set(row * Self.columns + column) }
        continue
      }
      var column = Self.column(west)
      let last = Self.column(east)
      while true {
        set(row * Self.columns + column)
        if column == last { break }
        column = (column + 1) % Self.columns
      }
    }
  }

  private mutating func set(_ index: Int) { bits[index >> 6] |= 1 << UInt64(index & 63) }

  private static func row(_ latitude: Double) -> Int {
    min(rows - 1, max(0, Int(((latitude + 90) * Double(cellsPerDegree)).rounded(.down))))
  }

  private static func column(_ longitude: Double) -> Int {
    var wrapped = longitude.truncatingRemainder(dividingBy: 360)
    if wrapped < -180 { wrapped += 360 }
    if wrapped >= 180 { wrapped -= 360 }
    return min(columns - 1, max(0, Int(((wrapped + 180) * Double(cellsPerDegree)).rounded(.down))))
  }

  /// Whether an island may lie within the tolerance of a point.
  func mayHaveIsland(near coordinate: Coordinate) -> Bool {
    let index = Self.row(coordinate.latitude) * Self.columns + Self.column(coordinate.longitude)
    return bits[index >> 6] & (1 << UInt64(index & 63)) != 0
  }
}
