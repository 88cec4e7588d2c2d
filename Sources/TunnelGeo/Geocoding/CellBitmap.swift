import CMath

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One bit for each cell of a 0.1° grid of latitude and longitude: the cells a batch need not search
/// (``IslandCells``, ``BorderCells``). Marks are made generously, so that a point in a cell left clear
/// is known to be far from what was marked.
struct CellBitmap: Sendable, Equatable {
  static let cellsPerDegree = 10
  static let columns = 360 * cellsPerDegree
  static let rows = 180 * cellsPerDegree
  static let wordCount = (rows * columns + 63) / 64
  private(set) var words: [UInt64]

  /// Every cell clear.
  init() { words = Array(repeating: 0, count: Self.wordCount) }

  /// The cells of `words`, as ``words`` gives them; nil unless there are as many as the grid's.
  init?(words: [UInt64]) {
    guard words.count == Self.wordCount else { return nil }
    self.words = words
  }

  /// Marks every cell that meets a box in degrees (``forEachCell(south:north:west:east:_:)``).
  mutating func mark(south: Double, north: Double, west: Double, east: Double) {
    Self.forEachCell(south: south, north: north, west: west, east: east) { mark(cell: $0) }
  }

  /// Marks every cell within `reach` radians of the great-circle arc between the unit vectors `start` and
  /// `end` (``forEachCell(edgeFrom:to:reach:_:)``).
  mutating func mark(edgeFrom start: SIMD3<Double>, to end: SIMD3<Double>, reach: Double) {
    Self.forEachCell(edgeFrom: start, to: end, reach: reach) { mark(cell: $0) }
  }

  /// Calls `body` with the index (row × ``columns`` + column) of every cell that meets a box in degrees:
  /// from `south` to `north` (clamped to the poles), and east from `west` to `east` across the
  /// antimeridian if need be (every column when that is 360° or more). Each cell once. With `perDegree`
  /// another than ``cellsPerDegree``, the cells of that grid (row × 360 × `perDegree` + column).
  static func forEachCell(
    south: Double, north: Double, west: Double, east: Double, perDegree: Int = cellsPerDegree,
    _ body: (Int) -> Void
  ) {
    let columns = 360 * perDegree
    let wide = east - west >= 360
    let (first, last) = (Self.column(west, perDegree: perDegree), Self.column(east, perDegree: perDegree))
    for row in Self.row(south, perDegree: perDegree)...Self.row(north, perDegree: perDegree) {
      if wide {
        for column in 0..<columns { body(row * columns + column) }
        continue
      }
      var column = first
      while true {
        body(row * columns + column)
        if column == last { break }
        column = (column + 1) % columns
      }
    }
  }

  /// Calls `body` with every cell that meets the cap of `angle` radians around the unit vector `centre`:
  /// the cells of its box, which holds the cap, and every column where the cap holds a pole.
  static func forEachCell(
    around centre: SIMD3<Double>, angle: Double, perDegree: Int = cellsPerDegree, _ body: (Int) -> Void
  ) {
    let radius = angle * 180 / .pi
    let latitude =
      atan2(centre.z, (centre.x * centre.x + centre.y * centre.y).squareRoot()) * 180 / .pi
    let (south, north) = (latitude - radius, latitude + radius)
    // Within the cap's angle of a pole, or wider than a quarter circle: a box as wide as the world.
    guard south > -90, north < 90, angle < .pi / 2 else {
      forEachCell(south: south, north: north, west: -180, east: 180, perDegree: perDegree, body)
      return
    }
    // The cap's widest longitude from its centre, asin(sin r / cos φ): less than 90°, since the cap
    // holds no pole.
    let sine = sin(angle) / cos(latitude * .pi / 180)
    guard sine < 1 else {
      forEachCell(south: south, north: north, west: -180, east: 180, perDegree: perDegree, body)
      return
    }
    let longitude = atan2(centre.y, centre.x) * 180 / .pi
    let widen = asin(sine) * 180 / .pi
    forEachCell(
      south: south, north: north, west: longitude - widen, east: longitude + widen, perDegree: perDegree,
      body)
  }

  /// Calls `body` with every cell within `reach` radians of the great-circle arc between the unit vectors
  /// `start` and `end` (the shorter one): the cap around the arc's middle, half the arc plus `reach` wide,
  /// holds every point that near. Ends that are nearly opposite give every cell.
  static func forEachCell(
    edgeFrom start: SIMD3<Double>, to end: SIMD3<Double>, reach: Double, perDegree: Int = cellsPerDegree,
    _ body: (Int) -> Void
  ) {
    let sum = start + end
    let length = (sum * sum).sum().squareRoot()
    guard length > 1e-3 else {
      forEachCell(south: -90, north: 90, west: -180, east: 180, perDegree: perDegree, body)
      return
    }
    forEachCell(
      around: sum / length, angle: SphereGeometry.angle(start, end) / 2 + reach, perDegree: perDegree, body)
  }

  /// Marks cell `index` (row × ``columns`` + column).
  @inline(__always) mutating func mark(cell index: Int) { words[index >> 6] |= 1 << UInt64(index & 63) }

  /// The row of a latitude in the grid of `perDegree` cells a degree. (A conversion to `Int` truncates,
  /// which is rounding down for every value the clamp to 0 keeps: no call to `floor` a coordinate.)
  @inline(__always) private static func row(_ latitude: Double, perDegree: Int = cellsPerDegree) -> Int {
    min(180 * perDegree - 1, max(0, Int((latitude + 90) * Double(perDegree))))
  }

  /// The column of a longitude in the grid of `perDegree` cells a degree.
  @inline(__always) private static func column(_ longitude: Double, perDegree: Int = cellsPerDegree) -> Int {
    // A longitude in range is its own remainder: the division, slow, only for the others.
    var wrapped = longitude
    if !(wrapped >= -180 && wrapped < 180) {
      wrapped = longitude.truncatingRemainder(dividingBy: 360)
      if wrapped < -180 { wrapped += 360 }
      if wrapped >= 180 { wrapped -= 360 }
    }
    return min(360 * perDegree - 1, max(0, Int((wrapped + 180) * Double(perDegree))))
  }

  /// Whether any cell is marked that meets a box in degrees: from `south` to `north` (clamped to the
  /// poles), and east from `west` to `east` (less than a turn) across the antimeridian if need be; the
  /// cells ``mark(south:north:west:east:)`` would mark.
  func anyMarked(south: Double, north: Double, west: Double, east: Double) -> Bool {
    let (first, last) = (Self.column(west), Self.column(east))
    for row in Self.row(south)...Self.row(north) {
      let start = row * Self.columns
      if first <= last {
        if anyMarked(start + first, through: start + last) { return true }
      } else if anyMarked(start + first, through: start + Self.columns - 1)
        || anyMarked(start, through: start + last)
      {
        return true
      }
    }
    return false
  }

  /// Whether any of the cells `first` through `last` (indices, row after row) is marked.
  private func anyMarked(_ first: Int, through last: Int) -> Bool {
    var index = first
    while index <= last {
      let offset = index & 63
      let count = min(64 - offset, last - index + 1)
      let mask = count == 64 ? UInt64.max : (1 << UInt64(count) - 1) << UInt64(offset)
      if words[index >> 6] & mask != 0 { return true }
      index += count
    }
    return false
  }

  /// Whether the cell holding a coordinate is marked.
  @inline(__always) func isMarked(_ coordinate: Coordinate) -> Bool {
    let index = Self.index(coordinate)
    return words[index >> 6] & (1 << UInt64(index & 63)) != 0
  }

  /// Asks the processor for the word of a coordinate's cell, ahead of ``isMarked(_:)``.
  @inline(__always) func prefetch(_ coordinate: Coordinate) {
    words.withUnsafeBufferPointer { tunnel_prefetch($0.baseAddress! + (Self.index(coordinate) >> 6)) }
  }

  /// Sub-cells a cell is divided into along each side (``subcell(_:of:)``).
  static let subcellsPerSide = 4

  /// Where a coordinate lies within its cell `cell` (``index(_:)``) on a grid ``subcellsPerSide`` times
  /// finer: row × ``subcellsPerSide`` + column of the sub-cell, nil where the two grids' roundings do not
  /// agree on the cell (a coordinate on a cell's edge, rounded either way).
  @inline(__always) static func subcell(_ coordinate: Coordinate, of cell: Int) -> Int? {
    let fine = cellsPerDegree * subcellsPerSide
    let row = Self.row(coordinate.latitude, perDegree: fine) - subcellsPerSide * (cell / columns)
    let column = Self.column(coordinate.longitude, perDegree: fine) - subcellsPerSide * (cell % columns)
    guard row >= 0, row < subcellsPerSide, column >= 0, column < subcellsPerSide else { return nil }
    return row * subcellsPerSide + column
  }

  /// The cell holding a coordinate: row × ``columns`` + column.
  @inline(__always) static func index(_ coordinate: Coordinate) -> Int {
    row(coordinate.latitude) * columns + column(coordinate.longitude)
  }
}

extension CellBitmap {
  static let fileMagic = "TUNLCELL"

  /// The cells `build` marks, read from `cache` when saved there before as `name` with `keys` (and the
  /// grid's size), else built and saved there (``IndexCacheFile``).
  static func cached(
    _ name: String, keys: [UInt32], cache: IndexCache?, build: () -> CellBitmap
  ) -> CellBitmap {
    guard let cache else { return build() }
    let keys = keys + IndexCacheFile.keys(wordCount)
    if var file = IndexCacheFile.Reader(name, in: cache, magic: fileMagic, keys: keys, arrays: 1),
      let words = file.read(UInt64.self), file.finish(), let cells = CellBitmap(words: words)
    {
      return cells
    }
    let built = build()
    IndexCacheFile.save(name, in: cache, magic: fileMagic, keys: keys, arrays: [CacheArray(built.words)])
    return built
  }
}
