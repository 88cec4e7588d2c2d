import TunnelSystem

/// A position on a grid of character cells.
///
/// `x` counts columns from the left, `y` counts rows from the top.
public struct Point: Hashable, Sendable, CustomStringConvertible {
  /// The column, counted from zero at the left edge.
  public var x: Int
  /// The row, counted from zero at the top edge.
  public var y: Int

  /// Creates a point from a column and a row.
  public init(x: Int, y: Int) {
    self.x = x
    self.y = y
  }

  /// The origin, column 0 and row 0.
  public static let zero = Point(x: 0, y: 0)

  public var description: String { "(\(x), \(y))" }

  /// Offsets a point by another one.
  public static func + (lhs: Point, rhs: Point) -> Point {
    Point(x: lhs.x + rhs.x, y: lhs.y + rhs.y)
  }

  /// The difference between two points.
  public static func - (lhs: Point, rhs: Point) -> Point {
    Point(x: lhs.x - rhs.x, y: lhs.y - rhs.y)
  }
}

extension Point {
  /// Calls `body` with every grid point of the straight line from `start` to `end`, both included,
  /// in order (Bresenham's line: each step moves to one of the eight neighbours).
  public static func forEachPoint(onLineFrom start: Point, to end: Point, _ body: (Point) -> Void) {
    GridLine.forEachCell(fromX: start.x, y: start.y, toX: end.x, y: end.y) { body(Point(x: $0, y: $1)) }
  }
}
