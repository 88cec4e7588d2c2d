/// SVG text built as bytes, with path data in tenths of a unit: each subpath starts with an absolute
/// `M` and goes on with relative `l`, which keeps a tile's paths about half as long.
struct SVGBytes {
  var bytes: [UInt8] = []
  /// The pen, in tenths, and whether the last command written was `l`.
  private var penX = 0
  private var penY = 0
  private var inLine = false

  var isEmpty: Bool { bytes.isEmpty }

  mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

  mutating func append(_ other: SVGBytes) { bytes.append(contentsOf: other.bytes) }

  static func tenths(_ value: Double) -> Int { Int((min(1e9, max(-1e9, value)) * 10).rounded()) }

  /// A number with at most one decimal.
  mutating func append(number value: Double) { append(tenths: Self.tenths(value), separated: false) }

  /// A number given in tenths; after another number, a space first unless it is negative.
  private mutating func append(tenths value: Int, separated: Bool) {
    var magnitude = value
    if value < 0 {
      bytes.append(UInt8(ascii: "-"))
      magnitude = -value
    } else if separated {
      bytes.append(UInt8(ascii: " "))
    }
    if magnitude >= 10 { appendDigits(magnitude / 10) }
    if magnitude % 10 != 0 {
      bytes.append(UInt8(ascii: "."))
      bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
    } else if magnitude < 10 {
      bytes.append(UInt8(ascii: "0"))
    }
  }

  private mutating func appendDigits(_ value: Int) {
    if value >= 10 { appendDigits(value / 10) }
    bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
  }

  /// Starts a subpath at a point.
  mutating func move(to x: Double, _ y: Double) {
    penX = Self.tenths(x)
    penY = Self.tenths(y)
    bytes.append(UInt8(ascii: "M"))
    append(tenths: penX, separated: false)
    append(tenths: penY, separated: true)
    inLine = false
  }

  /// A line from the pen to a point (nothing when it rounds to the pen).
  mutating func line(to x: Double, _ y: Double) {
    let nextX = Self.tenths(x)
    let nextY = Self.tenths(y)
    guard nextX != penX || nextY != penY else { return }
    let separated: Bool
    if inLine {
      separated = true
    } else {
      bytes.append(UInt8(ascii: "l"))
      separated = false
      inLine = true
    }
    append(tenths: nextX - penX, separated: separated)
    append(tenths: nextY - penY, separated: true)
    penX = nextX
    penY = nextY
  }

  /// Whether the pen is at a point (to the tenth).
  func isAt(_ x: Double, _ y: Double) -> Bool { Self.tenths(x) == penX && Self.tenths(y) == penY }

  mutating func appendPolygon(_ points: [TilePoint]) {
    guard let first = points.first else { return }
    move(to: first.x, first.y)
    for point in points.dropFirst() { line(to: point.x, point.y) }
    bytes.append(UInt8(ascii: "z"))
    inLine = false
  }

  mutating func append(escaped text: String) { append(SVGMap.escaped(text)) }
}
