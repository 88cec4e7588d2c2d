#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One tile's place in the world: Web Mercator pixel arithmetic, the box (in degrees) of what can
/// reach it, and clipping to it.
struct TileFrame {
  let zoom: Int
  /// The world's width in tile units at this zoom.
  let worldSize: Double
  /// The tile's top-left corner in world units.
  let originX: Double
  let originY: Double
  /// Lines may run this far outside the tile, so that their width never shows a cut end.
  static let margin = 3.0
  /// The clip box in tile units.
  let low = -margin
  let high = 256 + margin
  /// What can reach the clip box, in degrees (north and south beyond the map's edge included).
  let west: Double
  let east: Double
  let south: Double
  let north: Double

  init(zoom: Int, x: Int, y: Int) {
    self.zoom = zoom
    worldSize = Double(MapTiles.tileSize << zoom)
    originX = Double(x * MapTiles.tileSize)
    originY = Double(y * MapTiles.tileSize)
    let degreesPerUnit = 360 / worldSize
    west = (originX + low) * degreesPerUnit - 180
    east = (originX + high) * degreesPerUnit - 180
    north = y == 0 ? 90 : Self.latitude(worldY: originY + low, worldSize: worldSize)
    south = y == (1 << zoom) - 1 ? -90 : Self.latitude(worldY: originY + high, worldSize: worldSize)
  }

  static func latitude(worldY: Double, worldSize: Double) -> Double {
    atan(sinh(.pi * (1 - 2 * worldY / worldSize))) * 180 / .pi
  }

  /// A point's place in tile units. Latitudes are held short of the poles, which Web Mercator puts at
  /// infinity; anything beyond 85.05° lies outside every tile anyway.
  @inline(__always) func point(longitude: Double, latitude: Double) -> (x: Double, y: Double) {
    let phi = min(89.9, max(-89.9, latitude)) * .pi / 180
    let x = (longitude + 180) / 360 * worldSize - originX
    let y = (0.5 - log(tan(.pi / 4 + phi / 2)) / (2 * .pi)) * worldSize - originY
    return (x, y)
  }

  /// The copies of a span of (unwrapped) longitudes, 360° apart, that may reach the tile.
  func shifts(west boxWest: Double, east boxEast: Double) -> [Double] {
    var result: [Double] = []
    for shift in [-720.0, -360, 0, 360, 720] where boxWest + shift <= east && boxEast + shift >= west {
      result.append(shift)
    }
    return result
  }

  /// Whether a box, moved by `shift` degrees of longitude, overlaps what can reach the tile; a box that
  /// does not lies wholly beyond one side of it.
  @inline(__always) func mayReach(_ box: TileLayer.Box, shift: Double) -> Bool {
    box.west + shift <= east && box.east + shift >= west && box.south <= north && box.north >= south
  }

  /// Whether a box is at least half a unit across at this zoom (smaller rings are not drawn).
  func isVisible(_ box: TileLayer.Box, shift: Double) -> Bool {
    let a = point(longitude: box.west + shift, latitude: box.south)
    let b = point(longitude: box.east + shift, latitude: box.north)
    return abs(b.x - a.x) >= 0.5 || abs(b.y - a.y) >= 0.5
  }

  /// A closed polygon clipped to the clip box (Sutherland–Hodgman, one side at a time); what it keeps
  /// fills the same as the polygon, by the even-odd rule, inside the box.
  func clip(_ polygon: [TilePoint]) -> [TilePoint] {
    var current = polygon
    var next: [TilePoint] = []
    next.reserveCapacity(polygon.count + 8)
    for side in 0..<4 {
      next.removeAll(keepingCapacity: true)
      guard let tail = current.last else { return [] }
      var previous = tail
      var previousInside = inside(previous, side)
      for point in current {
        let isInside = inside(point, side)
        if isInside != previousInside { next.append(crossing(previous, point, side)) }
        if isInside { next.append(point) }
        previous = point
        previousInside = isInside
      }
      swap(&current, &next)
    }
    return current
  }

  @inline(__always) private func inside(_ point: TilePoint, _ side: Int) -> Bool {
    switch side {
    case 0: point.x >= low
    case 1: point.x <= high
    case 2: point.y >= low
    default: point.y <= high
    }
  }

  @inline(__always) private func crossing(_ a: TilePoint, _ b: TilePoint, _ side: Int) -> TilePoint {
    let edge = side == 0 || side == 2 ? low : high
    if side < 2 {
      let t = (edge - a.x) / (b.x - a.x)
      return TilePoint(x: edge, y: a.y + t * (b.y - a.y), stroked: false)
    }
    let t = (edge - a.y) / (b.y - a.y)
    return TilePoint(x: a.x + t * (b.x - a.x), y: edge, stroked: false)
  }

  /// The stroked edges of a polyline, each clipped to the clip box (Liang–Barsky), as path data.
  func strokeVisible(_ points: [TilePoint], to out: inout SVGBytes) {
    var drawing = false
    for index in 1..<points.count {
      guard points[index].stroked, let (from, to) = clipSegment(points[index - 1], points[index]) else {
        drawing = false
        continue
      }
      if !drawing || !out.isAt(from.x, from.y) { out.move(to: from.x, from.y) }
      out.line(to: to.x, to.y)
      drawing = true
    }
  }

  /// The part of the edge from `a` to `b` inside the clip box, nil when none is.
  func clipSegment(_ a: TilePoint, _ b: TilePoint) -> ((x: Double, y: Double), (x: Double, y: Double))? {
    guard
      let (from, to) = clippedSegment(
        MapPoint(x: a.x, y: a.y), MapPoint(x: b.x, y: b.y), minX: low, maxX: high, minY: low, maxY: high)
    else { return nil }
    return ((from.x, from.y), (to.x, to.y))
  }
}
