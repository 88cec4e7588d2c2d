/// A vertex in tile units, and whether the edge that ends at it is stroked.
struct TilePoint {
  var x: Double
  var y: Double
  var stroked: Bool
}
