/// Which cells of a 0.1° grid may lie within ``reach`` of a boundary in a ``ShoreIndex``: a batch asks
/// for the nearest country border within the coastal tolerance at sea near every coast, and most of
/// those points have none so near.
///
/// Each edge is marked by a cap that holds it and its surroundings: around the middle of its arc, as
/// wide as half the arc plus ``reach`` plus a rounding margin. A point within ``reach`` of the edge is
/// within half the arc plus ``reach`` of that middle, so inside the cap, so in a marked cell. A point in a
/// cell left clear has no boundary within ``reach``, and the search would find none.
struct BorderCells: Sendable {
  /// How far from a boundary cells are marked, in radians.
  let reach: Double
  let cells: CellBitmap

  /// Added to each cap's angle, for the rounding of the vectors and angles (about 6 mm).
  static let margin = 1e-9

  /// The cells within `reach` radians of the boundaries in `borders`.
  init(borders: ShoreIndex, reach: Double) {
    self.reach = reach
    var cells = CellBitmap()
    borders.vertices.withUnsafeBufferPointer { vertices in
      for piece in 0..<borders.pieceFirstEdge.count {
        let first = Int(borders.pieceFirstEdge[piece])
        var start = borders.vectors.unitVector(vertices[first])
        for vertex in (first + 1)...(first + Int(borders.pieceEdgeCount[piece])) {
          let end = borders.vectors.unitVector(vertices[vertex])
          cells.mark(edgeFrom: start, to: end, reach: reach + Self.margin)
          start = end
        }
      }
    }
    self.cells = cells
  }

  private init(reach: Double, cells: CellBitmap) {
    self.reach = reach
    self.cells = cells
  }

  /// Whether a boundary may lie within ``reach`` of a coordinate; false means there is none.
  @inline(__always) func mayHaveBoundary(near coordinate: Coordinate) -> Bool { cells.isMarked(coordinate) }

  /// Whether a boundary may lie within ``reach`` of some point of a box in degrees.
  func mayHaveBoundary(south: Double, north: Double, west: Double, east: Double) -> Bool {
    cells.anyMarked(south: south, north: north, west: west, east: east)
  }

  /// ``init(borders:reach:)``, read from `cache` when saved there before (keyed by the borders' checksum
  /// and the reach), else computed and saved there (``IndexCacheFile``).
  static func cached(borders: ShoreIndex, reach: Double, kind: String, cache: IndexCache?) -> BorderCells {
    let version: UInt32 = 2
    let name = IndexCacheFile.name(layer: borders.layer, kind: kind, version: version)
    let keys = [version, borders.checksum, Float(reach).bitPattern]
    return BorderCells(
      reach: reach,
      cells: CellBitmap.cached(name, keys: keys, cache: cache) {
        BorderCells(borders: borders, reach: reach).cells
      })
  }
}
