import TunnelGeo

/// One map drawn at one viewport: which pixels are land, coast and border, the projected shorelines
/// and borders, and the places in view, largest first.
///
/// A picture knows nothing of terminals or SVG: TunnelApp's `MapView` turns it into Braille cells,
/// ``SVGMap`` into a drawing.
public struct MapPicture: Sendable {
  /// What the picture shows.
  public let viewport: MapViewport
  /// Land (islands in lakes included), with every shoreline pixel counted as land so that islands
  /// smaller than a pixel still show.
  public internal(set) var land: Bitmap
  /// Pixels a shoreline (coast or lake shore) passes through.
  public internal(set) var coast: Bitmap
  /// Pixels of country borders on land, away from the sea.
  public internal(set) var borders: Bitmap
  /// Shorelines as polylines in pixels (they may run outside the picture).
  public internal(set) var shorelines: [[MapPoint]]
  /// Border polylines in pixels (coastal stretches included; ``borders`` has the inland ones).
  public internal(set) var borderLines: [[MapPoint]]
  /// Places inside the picture, the most populous first, a capital's population counted four times.
  public internal(set) var places: [MapPlace]
  /// Places in ``places`` on islands too small for the coastlines drawn: each got a pixel of land (and
  /// shore) in ``land`` and ``coast``, so that no place is named on open sea.
  public internal(set) var islets: [MapPoint] = []
  /// The name of the water at the centre, when the centre is in it: the sea ("South Pacific Ocean") or a
  /// lake a source names ("Lake Superior").
  public internal(set) var seaName: String?
  /// When no place is in view: the nearest one, how far it is and which way (degrees clockwise from up on
  /// the map, which on this projection is its bearing from the centre).
  public internal(set) var nearestOutside: NearestOutside?

  /// A place outside the picture, and the way to it.
  public struct NearestOutside: Sendable, Hashable {
    public var name: String
    public var asciiName: String
    public var distanceKm: Double
    public var bearing: Double
  }
}
