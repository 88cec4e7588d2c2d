import TunnelGeo

/// What a map shows: a centre, a grid of pixels and a scale.
///
/// Pixels are square. In a terminal a pixel is one Braille dot (two across and four down per
/// character cell); in an SVG it is one unit of the picture. The centre coordinate is drawn at
/// ``centreX``, ``centreY`` (in pixels from the top-left corner), north up.
public struct MapViewport: Sendable, Hashable {
  /// The coordinate at the middle of the map.
  public var centre: Coordinate
  /// Pixels across.
  public var width: Int
  /// Pixels down.
  public var height: Int
  /// Metres on the ground per pixel, at the centre.
  public var metresPerPixel: Double
  /// Where the centre is drawn, in pixels from the left edge.
  public var centreX: Double
  /// Where the centre is drawn, in pixels from the top edge.
  public var centreY: Double

  /// The region a map shows unless told otherwise: 1,000 km across, as in the original Tunnel.
  public static let defaultRegionSpan = 1_000_000.0

  /// The widest a map may see: half its diagonal at most this far from the centre (in metres), so
  /// that the other side of the globe, where the map's projection tears, never comes near the view.
  public static let maximumHalfDiagonal = 9_000_000.0

  /// A viewport that fits a square region `regionSpan` metres across into `width` × `height`
  /// pixels, as a map view fits a region: the shorter side shows the whole span.
  ///
  /// The scale is limited so that the view reaches at most ``maximumHalfDiagonal`` from the centre.
  /// The centre is drawn at the middle unless `centreX`/`centreY` say otherwise.
  public init(
    centre: Coordinate, regionSpan: Double, width: Int, height: Int, centreX: Double? = nil,
    centreY: Double? = nil
  ) {
    self.centre = centre
    self.width = max(1, width)
    self.height = max(1, height)
    self.centreX = centreX ?? Double(self.width) / 2
    self.centreY = centreY ?? Double(self.height) / 2
    let fitted = max(1, regionSpan) / Double(min(self.width, self.height))
    let halfDiagonalPixels = (Double(self.width * self.width + self.height * self.height)).squareRoot() / 2
    metresPerPixel = min(fitted, Self.maximumHalfDiagonal / max(1, halfDiagonalPixels))
  }

  /// The span a region would need to give this viewport's scale (the inverse of the initialiser).
  public var regionSpan: Double { metresPerPixel * Double(min(width, height)) }

  /// The distance from the centre to the farthest corner, in metres.
  var halfDiagonal: Double {
    let dx = max(centreX, Double(width) - centreX)
    let dy = max(centreY, Double(height) - centreY)
    return (dx * dx + dy * dy).squareRoot() * metresPerPixel
  }
}
