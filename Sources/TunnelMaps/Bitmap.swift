import TunnelSystem

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
    // Clipped a hair inside the far edges, so that no end rounds down onto the pixel past them.
    let limit = 0.000_001
    guard
      let (a, b) = clippedSegment(
        start, end, minX: 0, maxX: Double(width) - limit, minY: 0, maxY: Double(height) - limit)
    else { return }
    GridLine.forEachCell(
      fromX: Int(a.x.rounded(.down)), y: Int(a.y.rounded(.down)), toX: Int(b.x.rounded(.down)),
      y: Int(b.y.rounded(.down))
    ) { self[$0, $1] = true }
  }
}
