import CMath

/// The 1° cells of the countries' grid where every point has the same country of its own
/// (``PlacemarkAssembly/ownCountry(at:_:)``), with that country: a batch answers a point there with one
/// read of a small table, and most of the open sea and of the land far from borders lies in such cells.
///
/// A cell is settled when:
/// - no country's edge crosses it and one country at most holds it (``PolygonGrid/uniformCells``): every
///   point of it lies in the same feature, or in none;
/// - no country border lies within the coastal tolerance or the border accuracy of any point of it, as
///   ``BatchIndexes/countryBorders(fartherThan:from:_:)`` finds (by the clearance of its node, or by the
///   ``BorderCells`` it meets): so no nearest border is looked for, and the time zone's country is not
///   asked;
/// - where no country holds it, no island may lie within the tolerance of any point of it
///   (``IslandCells``).
///
/// The cells of the bitmaps it checks are those of the cell's box widened by two of the layer's units, as
/// a coordinate's fixed point rounds it into the cell from up to half a unit outside.
struct CountryCells: Sendable {
  /// Per 1° cell (``PolygonGrid/topCell(_:)``): the country feature plus one, 0 for none, or ``unsettled``.
  private let cells: [UInt16]
  private static let unsettled = UInt16.max

  /// The settled cells of `countries`: `clearance` is its nodes' (``BatchIndexes``), and `limit` the
  /// widest of the distances the country asks borders to be farther than (in radians).
  init(
    countries: PolygonGrid, clearance: [SIMD2<Float>], limit: Double, borderCells: BorderCells,
    islandCells: IslandCells
  ) {
    let margin = 2 / Double(countries.layer.unitsPerDegree)
    cells = (0..<(PolygonGrid.rows * PolygonGrid.columns)).map { cell in
      let feature = countries.uniformCells[cell]
      // A feature too large for the table is looked up (there are a few hundred countries).
      guard feature != PolygonGrid.crossed, feature < Int32(Self.unsettled) - 1 else { return Self.unsettled }
      let box = countries.degreeBox(ofCell: cell)
      let (south, north, west, east) = (
        box.south - margin, box.north + margin, box.west - margin, box.east + margin
      )
      let bordersFar =
        Double(clearance[cell].x) > limit
        || (limit <= borderCells.reach
          && !borderCells.mayHaveBoundary(south: south, north: north, west: west, east: east))
      guard bordersFar else { return Self.unsettled }
      // The one feature holding it is its country (FeatureChoice.country of one feature).
      if feature != PolygonGrid.outside { return UInt16(feature + 1) }
      return islandCells.mayHaveIsland(south: south, north: north, west: west, east: east)
        ? Self.unsettled : 0
    }
  }

  /// The country of every point of the 1° cell `cell`, when the cell settles it: `.some(nil)` for none;
  /// nil where the point must be looked up.
  @inline(__always) func country(ofCell cell: Int) -> Int?? {
    let value = cells[cell]
    if value == Self.unsettled { return nil }
    return .some(value == 0 ? nil : Int(value) - 1)
  }

  /// Asks the processor for the entry of a 1° cell, ahead of ``country(ofCell:)``.
  @inline(__always) func prefetch(cell: Int) {
    cells.withUnsafeBufferPointer { tunnel_prefetch($0.baseAddress! + cell) }
  }

  /// How many of the cells are settled.
  var settledCount: Int { cells.count { $0 != Self.unsettled } }
}
