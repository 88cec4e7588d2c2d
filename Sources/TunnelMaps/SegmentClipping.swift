/// The part of the segment from `a` to `b` inside the box `minX...maxX` × `minY...maxY` (Liang–Barsky),
/// or nil when none of it is.
///
/// A ``Bitmap`` clips the lines it draws to its pixels with it, a tile the strokes it writes to its
/// margins.
func clippedSegment(
  _ a: MapPoint, _ b: MapPoint, minX: Double, maxX: Double, minY: Double, maxY: Double
) -> (MapPoint, MapPoint)? {
  var t0 = 0.0
  var t1 = 1.0
  let dx = b.x - a.x
  let dy = b.y - a.y
  for (p, q) in [(-dx, a.x - minX), (dx, maxX - a.x), (-dy, a.y - minY), (dy, maxY - a.y)] {
    if p == 0 {
      if q < 0 { return nil }
      continue
    }
    let t = q / p
    if p < 0 {
      if t > t1 { return nil }
      t0 = max(t0, t)
    } else {
      if t < t0 { return nil }
      t1 = min(t1, t)
    }
  }
  return (MapPoint(x: a.x + t0 * dx, y: a.y + t0 * dy), MapPoint(x: a.x + t1 * dx, y: a.y + t1 * dy))
}
