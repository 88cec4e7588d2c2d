/// The cells of a straight line on a grid of whole-numbered cells.
///
/// The terminal's canvas draws lines of Braille dots and the maps draw lines of pixels, and neither of
/// those modules may import the other, so the one line algorithm both use lives in this lowest layer.
package enum GridLine {
  /// Calls `body` with the column and row of every cell of the straight line from (`startX`, `startY`)
  /// to (`endX`, `endY`), both ends included, in order (Bresenham's line: each step moves to one of the
  /// eight neighbours).
  ///
  /// - Complexity: O(n) for a line of n cells, without allocating.
  package static func forEachCell(
    fromX startX: Int, y startY: Int, toX endX: Int, y endY: Int, _ body: (_ x: Int, _ y: Int) -> Void
  ) {
    var x = startX
    var y = startY
    let dx = abs(endX - startX)
    let dy = -abs(endY - startY)
    let stepX = startX < endX ? 1 : -1
    let stepY = startY < endY ? 1 : -1
    var error = dx + dy
    while true {
      body(x, y)
      if x == endX && y == endY { break }
      let doubled = 2 * error
      if doubled >= dy {
        error += dy
        x += stepX
      }
      if doubled <= dx {
        error += dx
        y += stepY
      }
    }
  }
}
