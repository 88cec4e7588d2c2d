import TunnelContainment

/// The drop-down list of a menu: one row per item, the highlighted one inverted.
public final class MenuListView: View {
  /// The rows.
  public var items: [String] = []
  /// The highlighted row.
  public var highlightedIndex = 0

  override public func draw(in canvas: inout Canvas) {
    for (row, item) in items.enumerated() where row < bounds.height {
      let style = Style(foreground: .black, background: .white, inverse: row == highlightedIndex)
      canvas.fill(Rect(x: 0, y: row, width: bounds.width, height: 1), style: style)
      canvas.write(" \(row + 1)  \(item)", at: Point(x: 0, y: row), style: style)
    }
  }
}
