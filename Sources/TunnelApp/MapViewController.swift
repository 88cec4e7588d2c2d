import TunnelContainment
import TunnelGeo
import TunnelMaps

/// A map centred on a location with an annotation on it, which the user can move.
///
/// The controller knows nothing of the container it sits in, nor of any other map: it reports the
/// user's moves to its ``delegate`` and takes moves from outside through
/// ``updateAnnotationLocation(_:)``, which re-centres the map without reporting back. Its view
/// follows its superview's size, whatever container that is.
///
///     let map = MapViewController(annotation: .digger, location: skjern, renderer: renderer)
///     map.delegate = self
///     try map.moveAnnotation(azimuth: 90, fraction: 0.05)  // the user pressed →
@MainActor
public final class MapViewController: ViewController {
  /// The marker shown at the location.
  public let annotation: MapAnnotation
  /// Where the annotation is; the map is centred on it.
  public private(set) var location: Coordinate {
    didSet { mapView?.centre = location }
  }
  /// Metres across the shorter side of the map (1,000 km to start with, as in the original).
  public var regionSpan = MapViewController.defaultRegionSpan {
    didSet {
      regionSpan = min(Self.regionSpanLimits.upperBound, max(Self.regionSpanLimits.lowerBound, regionSpan))
      mapView?.regionSpan = regionSpan
    }
  }
  /// Told when the user has moved the annotation.
  public weak var delegate: MapViewControllerDelegate?

  /// The region a map shows at first: 1,000 km across (`MapViewport.defaultRegionSpan` in TunnelMaps).
  nonisolated public static let defaultRegionSpan = MapViewport.defaultRegionSpan
  /// How far in and out a map zooms, in metres across.
  nonisolated public static let regionSpanLimits = 10_000.0...20_000_000.0

  private let renderer: MapRenderer?
  private var mapView: MapView? { viewIfLoaded as? MapView }

  /// Creates a map controller; without a renderer the map shows an empty sea.
  public init(annotation: MapAnnotation, location: Coordinate, renderer: MapRenderer?) {
    self.annotation = annotation
    self.location = location
    self.renderer = renderer
    super.init()
  }

  override public func loadView() {
    let map = MapView()
    map.autoresizingMask = .flexibleSize
    map.renderer = renderer
    map.annotation = annotation
    map.centre = location
    map.regionSpan = regionSpan
    view = map
  }

  // MARK: - Moves from outside

  /// Moves the annotation and re-centres the map on it, without telling the delegate.
  public func updateAnnotationLocation(_ location: Coordinate) {
    self.location = location
  }

  // MARK: - Moves by the user

  /// The user put the annotation at `location`; the delegate is told.
  public func moveAnnotation(to location: Coordinate) {
    self.location = location
    delegate?.mapViewController(self, didMoveTo: location)
  }

  /// The user moved the annotation a fraction of the map's span towards `azimuth` (degrees clockwise
  /// from north); the delegate is told.
  ///
  /// - Throws: `ProjectionError` when PROJ's library, which finds the point, cannot be loaded; the
  ///   annotation then stays where it is.
  public func moveAnnotation(azimuth: Double, fraction: Double) throws(ProjectionError) {
    let step = try Geodesic.destination(from: location, distance: regionSpan * fraction, azimuth: azimuth)
    moveAnnotation(to: step.coordinate)
  }

  /// The user clicked the cell at `point` (in the map view's coordinates); the annotation moves to
  /// the place under it and the delegate is told. Returns false when there is no place there.
  @discardableResult
  public func moveAnnotation(toCell point: Point) -> Bool {
    guard let coordinate = coordinate(atCell: point) else { return false }
    moveAnnotation(to: coordinate)
    return true
  }

  /// The coordinate under the middle of a cell of the map view, if the map shows one there.
  public func coordinate(atCell point: Point) -> Coordinate? {
    guard let viewport = mapView?.viewport, let renderer,
      view.bounds.contains(point)
    else { return nil }
    return renderer.coordinate(
      at: MapPoint(x: Double(point.x * 2 + 1), y: Double(point.y * 4 + 2)), in: viewport)
  }

  /// Zooms in (`factor` below 1) or out, within ``regionSpanLimits``.
  public func zoom(by factor: Double) {
    regionSpan *= factor
  }

  /// The picture the map shows now, drawing it if it is out of date (nil before the view has a size).
  public var picture: MapPicture? { mapView?.picture() }
}
