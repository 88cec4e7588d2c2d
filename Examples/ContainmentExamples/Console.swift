import TunnelContainment

/// Where the examples print their messages: kept as lines, and passed on to a sink.
@MainActor
public final class Console {
  /// Every line printed, oldest first.
  public private(set) var lines: [String] = []
  /// Receives each line as it is printed.
  public var sink: (@MainActor (String) -> Void)?

  /// Creates an empty console.
  public init() {}

  /// Prints a line.
  public func print(_ line: String) {
    lines.append(line)
    sink?(line)
  }
}

/// A view showing the last lines of a ``Console``, with a heading.
public final class ConsoleView: View {
  /// The console shown.
  public let console: Console
  /// The heading on the first row.
  public var heading: String

  /// Creates a view of a console.
  public init(console: Console, heading: String) {
    self.console = console
    self.heading = heading
    super.init()
  }

  override public func draw(in canvas: inout Canvas) {
    canvas.fill(bounds, style: Style(background: .black))
    canvas.write(heading, at: .zero, style: Style(foreground: .brightBlack, background: .black, bold: true))
    let shown = console.lines.suffix(max(0, bounds.height - 1))
    for (row, line) in shown.enumerated() {
      canvas.write(line, at: Point(x: 1, y: row + 1), style: Style(foreground: .white, background: .black))
    }
  }
}
