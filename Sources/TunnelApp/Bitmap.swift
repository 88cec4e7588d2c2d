import TunnelContainment

/// A rectangle of on/off pixels.
public struct Bitmap: Sendable, Hashable {
  public let width: Int
  public let height: Int
  /// The pixels, row after row.
  public private(set) var bits: [Bool]

  /// An all-off bitmap.
  public init(width: Int, height: Int) {
    self.width = max(0, width)
    self.height = max(0, height)
    bits = Array(repeating: false, count: self.width * self.height)
  }

  /// The pixel at column `x`, row `y`; off outside the bitmap.
  public subscript(x: Int, y: Int) -> Bool {
    get {
      guard x >= 0, y >= 0, x < width, y < height else { return false }
      return bits[y * width + x]
    }
    set {
      guard x >= 0, y >= 0, x < width, y < height else { return }
      bits[y * width + x] = newValue
    }
  }

  /// The number of pixels that are on.
  public var count: Int { bits.reduce(0) { $0 + ($1 ? 1 : 0) } }

  /// Turns on the pixels of a straight line between two points (pixel centres at half units), the
  /// part inside the bitmap only.
  mutating func drawLine(from start: MapPoint, to end: MapPoint) {
    guard let (a, b) = clipped(start, end) else { return }
    let from = Point(x: Int(a.x.rounded(.down)), y: Int(a.y.rounded(.down)))
    let to = Point(x: Int(b.x.rounded(.down)), y: Int(b.y.rounded(.down)))
    Point.forEachPoint(onLineFrom: from, to: to) { self[$0.x, $0.y] = true }
  }

  /// The part of a segment inside the bitmap's area (Liang–Barsky), or nil when none is.
  private func clipped(_ a: MapPoint, _ b: MapPoint) -> (MapPoint, MapPoint)? {
    let limit = 0.000_001
    var t0 = 0.0
    var t1 = 1.0
    let dx = b.x - a.x
    let dy = b.y - a.y
    let edges: [(Double, Double)] = [
      (-dx, a.x), (dx, Double(width) - limit - a.x), (-dy, a.y), (dy, Double(height) - limit - a.y),
    ]
    for (p, q) in edges {
      if p == 0 {
        if q < 0 { return nil }
      } else {
        let t = q / p
        if p < 0 {
          if t > t1 { return nil }
          t0 = max(t0, t)
        } else {
          if t < t0 { return nil }
          t1 = min(t1, t)
        }
      }
    }
    return (
      MapPoint(x: a.x + t0 * dx, y: a.y + t0 * dy), MapPoint(x: a.x + t1 * dx, y: a.y + t1 * dy)
    )
  }
}
