/// A point on a map, in pixels from its top-left corner (x right, y down).
public struct MapPoint: Sendable, Hashable {
  public var x: Double
  public var y: Double

  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
}
