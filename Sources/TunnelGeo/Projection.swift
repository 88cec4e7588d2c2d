internal import CPROJ

/// Where a coordinate lands on a projected map.
public enum ProjectedPoint: Sendable, Hashable {
  /// Map coordinates in metres from the projection's centre, x east and y north.
  case visible(x: Double, y: Double)
  /// The point cannot be shown by this projection (the far side of an orthographic globe).
  case notVisible
}

/// An owned PROJ transformation from WGS84 longitude/latitude degrees to a map plane in metres.
///
/// Re-centring a map means making a new projection; ``orthographic(centredOn:in:)`` builds one from a
/// pipeline string with `proj_create`, which costs about 0.1 ms (a CRS-to-CRS lookup costs 100 times
/// more). A projection belongs to the thread or task of its context.
public final class Projection {
  /// The PROJ pipeline this projection runs.
  public let definition: String
  let handle: OpaquePointer
  /// Kept so the context outlives every projection made in it.
  private let context: ProjectionContext

  /// Creates a projection from a PROJ string whose input is longitude and latitude in degrees.
  ///
  /// - Throws: ``ProjectionError`` with PROJ's message when PROJ refuses the definition.
  public init(definition: String, in context: ProjectionContext) throws(ProjectionError) {
    context.clearMessages()
    guard let handle = context.library.create(context.handle, definition) else {
      throw context.error("creating \"\(definition)\"")
    }
    self.definition = definition
    self.handle = handle
    self.context = context
  }

  deinit {
    _ = context.library.destroy(handle)
  }

  /// A globe seen from space above `centre`: only the near hemisphere is visible.
  public static func orthographic(
    centredOn centre: Coordinate, in context: ProjectionContext
  ) throws(ProjectionError)
    -> Projection
  {
    try Projection(definition: pipeline("ortho", centre), in: context)
  }

  /// Distances and directions from `centre` kept true; the whole Earth is visible.
  ///
  /// On the WGS84 ellipsoid PROJ solves a geodesic for every point (about 1 µs each); on a sphere of
  /// the Earth's mean radius (`onSphere`) the formulas are closed and about ten times faster, and
  /// distances stay within 0.5 % of the ellipsoid's, which is what a drawn map needs.
  public static func azimuthalEquidistant(
    centredOn centre: Coordinate, in context: ProjectionContext, onSphere: Bool = false
  ) throws(ProjectionError) -> Projection {
    try Projection(definition: pipeline("aeqd", centre, onSphere: onSphere), in: context)
  }

  /// A zone of the Universal Transverse Mercator grid on WGS84: map positions are easting and northing in
  /// metres, a southern zone's northings counting from 10,000 km at the equator.
  public static func utm(
    zone: Int, south: Bool, in context: ProjectionContext
  ) throws(ProjectionError) -> Projection {
    try Projection(
      definition: "+proj=pipeline +step +proj=unitconvert +xy_in=deg +xy_out=rad"
        + " +step +proj=utm +zone=\(zone)\(south ? " +south" : "") +ellps=WGS84",
      in: context)
  }

  private static func pipeline(_ name: String, _ centre: Coordinate, onSphere: Bool = false) -> String {
    let figure = onSphere ? "+R=\(WGS84.meanRadius)" : "+ellps=WGS84"
    return "+proj=pipeline +step +proj=unitconvert +xy_in=deg +xy_out=rad"
      + " +step +proj=\(name) +lat_0=\(centre.latitude) +lon_0=\(centre.longitude) \(figure)"
  }

  /// Where `coordinate` lands, or ``ProjectedPoint/notVisible`` where this projection cannot show it.
  public func project(_ coordinate: Coordinate) -> ProjectedPoint {
    // PROJ's order at this boundary is longitude first.
    let output = context.library.trans(handle, PJ_FWD, Self.coord(coordinate.longitude, coordinate.latitude))
    let x = output.xy.x
    let y = output.xy.y
    guard x.isFinite, y.isFinite, abs(x) < 1e30, abs(y) < 1e30 else {
      _ = context.library.errnoReset(handle)
      return .notVisible
    }
    return .visible(x: x, y: y)
  }

  /// The coordinate at map position (`x`, `y`) in metres, or nil where no point of the Earth is.
  public func unproject(x: Double, y: Double) -> Coordinate? {
    let output = context.library.trans(handle, PJ_INV, Self.coord(x, y))
    let longitude = output.lp.lam
    let latitude = output.lp.phi
    guard longitude.isFinite, latitude.isFinite, abs(longitude) < 1e30, (-90...90).contains(latitude) else {
      _ = context.library.errnoReset(handle)
      return nil
    }
    return Coordinate(uncheckedLatitude: latitude, longitude: longitude)
  }

  /// A PROJ coordinate of two values (what `proj_coord(a, b, 0, 0)` makes).
  private static func coord(_ a: Double, _ b: Double) -> PJ_COORD {
    var coordinate = PJ_COORD()
    coordinate.v = (a, b, 0, 0)
    return coordinate
  }
}
