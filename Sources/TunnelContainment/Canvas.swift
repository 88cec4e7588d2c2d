/// A grid of styled character cells that views draw into.
///
/// Drawing calls take coordinates relative to ``origin`` and are clipped to ``clip``
/// (in absolute coordinates); a ``Window`` sets both before it asks each view to draw,
/// so a view draws in its own bounds. Sub-cell drawing uses a 2×4 grid of dots per cell
/// (Braille), see ``setDot(x:y:style:)``.
///
///     var canvas = Canvas(size: Size(width: 10, height: 2))
///     canvas.write("hello", at: Point(x: 1, y: 0))
///     print(canvas.plainText())
public struct Canvas: Sendable, Equatable {
  /// The number of columns and rows.
  public let size: Size
  /// The cells, row after row.
  public private(set) var cells: [Cell]
  /// Where drawing coordinates start, in absolute cells.
  public var origin: Point = .zero
  /// The absolute cells drawing may touch.
  public var clip: Rect

  /// Creates a canvas filled with `fill`.
  public init(size: Size, fill: Cell = .blank) {
    self.size = Size(width: max(0, size.width), height: max(0, size.height))
    self.cells = Array(repeating: fill, count: self.size.width * self.size.height)
    self.clip = Rect(origin: .zero, size: self.size)
  }

  /// Two canvases are equal when they hold the same cells; origin and clip do not count.
  public static func == (lhs: Canvas, rhs: Canvas) -> Bool {
    lhs.size == rhs.size && lhs.cells == rhs.cells
  }

  /// The cell at an absolute column and row (a blank cell outside the canvas).
  public subscript(x: Int, y: Int) -> Cell {
    get {
      guard x >= 0, y >= 0, x < size.width, y < size.height else { return .blank }
      return cells[y * size.width + x]
    }
    set {
      guard x >= 0, y >= 0, x < size.width, y < size.height else { return }
      cells[y * size.width + x] = newValue
    }
  }

  /// Sets the cell at a point relative to ``origin``, if it lies inside ``clip``.
  public mutating func put(_ cell: Cell, at point: Point) {
    let absolute = origin + point
    guard clip.contains(absolute) else { return }
    self[absolute.x, absolute.y] = cell
  }

  /// Draws one character at a point relative to ``origin``.
  public mutating func put(_ character: Character, at point: Point, style: Style = .plain) {
    put(Cell(character, style: style), at: point)
  }

  /// Writes text on one row, starting at a point relative to ``origin``; one character per cell.
  public mutating func write(_ text: String, at point: Point, style: Style = .plain) {
    var column = point.x
    for character in text {
      put(character, at: Point(x: column, y: point.y), style: style)
      column += 1
    }
  }

  /// Fills a rectangle (relative to ``origin``) with a character.
  public mutating func fill(_ rect: Rect, with character: Character = " ", style: Style = .plain) {
    for y in rect.minY..<max(rect.minY, rect.maxY) {
      for x in rect.minX..<max(rect.minX, rect.maxX) {
        put(character, at: Point(x: x, y: y), style: style)
      }
    }
  }

  /// Sets one sub-cell dot; dot coordinates are relative to ``origin`` with 2 dots per column and 4 per row.
  ///
  /// The cell keeps its character and takes `style` if given.
  public mutating func setDot(x: Int, y: Int, style: Style? = nil) {
    let cellX = x >= 0 ? x / 2 : (x - 1) / 2
    let cellY = y >= 0 ? y / 4 : (y - 3) / 4
    let absolute = origin + Point(x: cellX, y: cellY)
    guard clip.contains(absolute) else { return }
    let dx = x - cellX * 2
    let dy = y - cellY * 4
    // Braille numbering: dots 1-3 and 7 in the left column, 4-6 and 8 in the right one.
    let bits: [[UInt8]] = [[0x01, 0x08], [0x02, 0x10], [0x04, 0x20], [0x40, 0x80]]
    var cell = self[absolute.x, absolute.y]
    cell.dots |= bits[dy][dx]
    if let style { cell.style = style }
    self[absolute.x, absolute.y] = cell
  }

  /// Draws a straight line of sub-cell dots between two dot positions (inclusive).
  public mutating func drawLine(from start: Point, to end: Point, style: Style? = nil) {
    Point.forEachPoint(onLineFrom: start, to: end) { setDot(x: $0.x, y: $0.y, style: style) }
  }

  /// The canvas as plain text: one line per row, trailing spaces removed.
  public func plainText(charset: Charset = .unicode) -> String {
    rows(charset: charset).map { line in
      var line = line
      while line.last == " " { line.removeLast() }
      return line
    }.joined(separator: "\n")
  }

  /// Each row as a string of rendered characters.
  public func rows(charset: Charset = .unicode) -> [String] {
    (0..<size.height).map { y in
      String((0..<size.width).map { x in self[x, y].rendered(charset) })
    }
  }

  /// The canvas as ANSI text: styles as SGR escape sequences (only when `colors` is on),
  /// rows separated by newlines, the style reset at the end of each row.
  public func ansiText(colors: Bool = true, charset: Charset = .unicode) -> String {
    guard colors else { return rows(charset: charset).joined(separator: "\n") }
    var lines: [String] = []
    for y in 0..<size.height {
      var line = ""
      var current = Style.plain
      for x in 0..<size.width {
        let cell = self[x, y]
        if cell.style != current {
          line += cell.style.sgr
          current = cell.style
        }
        line.append(cell.rendered(charset))
      }
      if current != .plain { line += "\u{1B}[0m" }
      lines.append(line)
    }
    return lines.joined(separator: "\n")
  }
}
