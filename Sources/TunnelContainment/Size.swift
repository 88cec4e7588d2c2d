/// A width and a height in character cells.
public struct Size: Hashable, Sendable, CustomStringConvertible {
  /// The number of columns.
  public var width: Int
  /// The number of rows.
  public var height: Int

  /// Creates a size from a number of columns and rows.
  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  /// The empty size.
  public static let zero = Size(width: 0, height: 0)

  /// Whether the size covers no cell at all.
  public var isEmpty: Bool { width <= 0 || height <= 0 }

  public var description: String { "\(width)×\(height)" }
}
