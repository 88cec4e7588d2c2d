import TunnelContainment

/// A row of segments, one selected, drawn as `[ Summary ]  Sessions`.
public final class SegmentedControl: View {
  /// The segment titles.
  public var titles: [String] = []
  /// The selected segment.
  public var selectedSegmentIndex = 0

  override public func draw(in canvas: inout Canvas) {
    var x = max(0, (bounds.width - titles.reduce(0) { $0 + $1.count + 4 }) / 2)
    for (index, title) in titles.enumerated() {
      let selected = index == selectedSegmentIndex
      let text = selected ? "[ \(title) ]" : "  \(title)  "
      canvas.write(
        text, at: Point(x: x, y: 0), style: Style(foreground: .white, bold: selected, inverse: selected))
      x += text.count
    }
  }
}
