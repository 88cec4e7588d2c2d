import TunnelGeo

/// What a ``MapViewController`` tells the object that owns it.
@MainActor
public protocol MapViewControllerDelegate: AnyObject {
  /// The user finished moving the map's annotation to `location`.
  ///
  /// Not sent for ``MapViewController/updateAnnotationLocation(_:)``: a delegate that moves the
  /// annotation of another map in answer causes no update loop.
  func mapViewController(_ mapViewController: MapViewController, didMoveTo location: Coordinate)
}
