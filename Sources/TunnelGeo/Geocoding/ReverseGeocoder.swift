import Foundation

/// Says where a point is, from Tunnel's bundled place data, offline.
///
/// ```swift
/// let geocoder = ReverseGeocoder(data: try PlaceData())
/// let here = try geocoder.placemark(for: Coordinate(latitude: 56, longitude: 8.5))
/// here.country?.name  // "Denmark"
/// here.nearestPlace.name  // "Skjern", 5.6 km away
/// ```
///
/// A geocoder is `Sendable`: share one across threads. It opens each layer on first use and builds
/// nothing up front, so a process answering a single question stays fast; ``prepareForBatch()`` (called
/// by ``placemarks(for:)`` for large batches) builds the in-memory indexes that make many queries fast.
public final class ReverseGeocoder: Sendable {
  /// The data the geocoder reads.
  public let data: PlaceData

  /// Creates a geocoder over `data`; nothing is opened until the first query.
  public init(data: PlaceData) {
    self.data = data
  }

  // MARK: Nearest place

  /// The populated place nearest to `coordinate` by great-circle distance, optionally only among places
  /// with at least `minimumPopulation` inhabitants; nil when no place qualifies.
  ///
  /// The answer is exact: the place with the smallest great-circle distance of all 234,908 (on ties, the
  /// one stored first). Distances are on the sphere of mean radius.
  ///
  /// - Complexity: O(log n) for an unfiltered query; a filter that few places pass makes the walk visit
  ///   more of the tree.
  public func nearestPlace(
    to coordinate: Coordinate, minimumPopulation: Int = 0
  ) throws(PlaceDataError)
    -> NearestPlace?
  {
    let places = try data.places()
    let query = SphereGeometry.unitVector(coordinate)
    let search = NearestPlaceSearch(places: places, vectors: MappedPlaceVectors(places: places))
    let found =
      minimumPopulation <= 0
      ? search.nearest(to: query)
      : search.nearest(to: query) { places.population(at: $0) >= minimumPopulation }
    return found.map { nearestPlace(places, $0.index, chordSquared: $0.chordSquared) }
  }

  func nearestPlace(_ places: PlaceLayer, _ index: Int, chordSquared: Double) -> NearestPlace {
    let coordinate = places.coordinate(at: index)
    return NearestPlace(
      index: index, name: places.name(at: index), countryCode: places.countryCode(at: index),
      latitude: coordinate.latitude, longitude: coordinate.longitude,
      population: places.population(at: index),
      distanceKm: SphereGeometry.angle(chordSquared: chordSquared) * SphereGeometry.radiusKm)
  }
}
