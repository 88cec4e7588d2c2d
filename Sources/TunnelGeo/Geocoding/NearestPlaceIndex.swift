#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Exact nearest-place answers from the batch grid of a ``ReverseGeocoder`` (see
/// ``ReverseGeocoder/nearestPlaceIndex()``): the same answers as ``ReverseGeocoder/nearestPlace(to:minimumPopulation:)``
/// without a population filter, several times faster.
public struct NearestPlaceIndex: Sendable {
  let places: PlaceLayer
  let grid: NearestPlaceGrid

  /// The place nearest to `coordinate` by great-circle distance.
  ///
  /// - Complexity: O(1): a cell lookup and a scan of a dozen candidates.
  public func nearest(to coordinate: Coordinate) -> NearestPlace {
    let found = grid.nearest(to: SphereGeometry.unitVector(coordinate))
    let point = places.coordinate(at: found.index)
    return NearestPlace(
      index: found.index, name: places.name(at: found.index),
      countryCode: places.countryCode(at: found.index),
      latitude: point.latitude, longitude: point.longitude, population: places.population(at: found.index),
      distanceKm: SphereGeometry.angle(chordSquared: found.chordSquared) * SphereGeometry.radiusKm)
  }

  /// How many cells (at every level) the grid holds, and how many candidate entries its leaves list.
  public var size: (cells: Int, candidates: Int) { (grid.nodeCount, grid.candidateCount) }

  /// The index of the place nearest to `coordinate` and its great-circle distance in kilometres, without
  /// reading the place's attributes.
  public func nearestIndex(to coordinate: Coordinate) -> (index: Int, distanceKm: Double) {
    let found = grid.nearest(to: SphereGeometry.unitVector(coordinate))
    return (found.index, SphereGeometry.angle(chordSquared: found.chordSquared) * SphereGeometry.radiusKm)
  }
}
