/// A rectangle of character cells: an origin and a size.
///
/// Frames and bounds of views are rectangles. A rectangle contains the cells
/// from `minX` up to but not including `maxX`, and likewise for rows.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
  /// The top-left cell.
  public var origin: Point
  /// The number of columns and rows covered.
  public var size: Size

  /// Creates a rectangle from an origin and a size.
  public init(origin: Point, size: Size) {
    self.origin = origin
    self.size = size
  }

  /// Creates a rectangle from its left column, top row, width and height.
  public init(x: Int, y: Int, width: Int, height: Int) {
    self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
  }

  /// The empty rectangle at the origin.
  public static let zero = Rect(origin: .zero, size: .zero)

  /// The left column.
  public var minX: Int { origin.x }
  /// The top row.
  public var minY: Int { origin.y }
  /// The first column to the right of the rectangle.
  public var maxX: Int { origin.x + size.width }
  /// The first row below the rectangle.
  public var maxY: Int { origin.y + size.height }
  /// The number of columns.
  public var width: Int { size.width }
  /// The number of rows.
  public var height: Int { size.height }
  /// Whether the rectangle covers no cell.
  public var isEmpty: Bool { size.isEmpty }

  /// Whether the cell at `point` lies inside the rectangle.
  public func contains(_ point: Point) -> Bool {
    point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
  }

  /// The cells both rectangles cover; empty (at the origin) when they do not overlap.
  public func intersection(_ other: Rect) -> Rect {
    let x0 = max(minX, other.minX)
    let y0 = max(minY, other.minY)
    let x1 = min(maxX, other.maxX)
    let y1 = min(maxY, other.maxY)
    guard x1 > x0, y1 > y0 else { return .zero }
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  /// The rectangle shrunk by `dx` columns on the left and right and `dy` rows at the top and bottom.
  public func insetBy(dx: Int, dy: Int) -> Rect {
    Rect(
      x: minX + dx, y: minY + dy, width: max(0, width - 2 * dx),
      height: max(0, height - 2 * dy))
  }

  /// The rectangle moved by `dx` columns and `dy` rows.
  public func offsetBy(dx: Int, dy: Int) -> Rect {
    Rect(x: minX + dx, y: minY + dy, width: width, height: height)
  }

  public var description: String { "(\(minX), \(minY), \(width), \(height))" }
}
