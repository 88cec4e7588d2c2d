/// Two populated places at opposite ends of the Earth: the antipode of each lies near the other.
public struct AntipodalPair: Sendable, Hashable {
  /// One place.
  public var first: Place
  /// The place nearest to the antipode of ``first``.
  public var second: Place
  /// How far ``second`` is from the antipode of ``first`` (and so ``first`` from the antipode of
  /// ``second``), in kilometres on the sphere of mean radius.
  public var distanceKm: Double
}

extension ReverseGeocoder {
  /// Pairs of places at opposite ends of the Earth: each place (with at least `minimumPopulation`
  /// inhabitants) paired with the place nearest to its antipode (with as many), where that place is
  /// at most `withinKm` away; each pair once, the closest first.
  ///
  /// A spatial join over the place index: one nearest-place query per place, answered in parallel.
  /// The distance from A's antipode to B is the distance from B's antipode to A, so a pair found from
  /// either side is the same pair.
  ///
  ///     try ReverseGeocoder(data: data).antipodalPairs(withinKm: 10, minimumPopulation: 100_000)
  ///     // Hamilton (NZ) and Córdoba (ES), …
  ///
  /// - Complexity: O(n log n) for n places; all 234,908 take a few seconds.
  public func antipodalPairs(
    withinKm: Double, minimumPopulation: Int = 0, threads: Int? = nil
  ) throws(PlaceDataError) -> [AntipodalPair] {
    let places = try data.places()
    let candidates = (0..<places.count).filter { places.population(at: $0) >= minimumPopulation }
    guard !candidates.isEmpty else { return [] }
    let antipodes = candidates.map { places.coordinate(at: $0).antipode }
    let nearest = try nearestPlaces(to: antipodes, minimumPopulation: minimumPopulation, threads: threads)
    var seen = Set<Int>()
    var pairs: [AntipodalPair] = []
    for (index, found) in zip(candidates, nearest) where found.distanceKm <= withinKm && found.index != index
    {
      let (low, high) = (min(index, found.index), max(index, found.index))
      guard seen.insert(low * places.count + high).inserted else { continue }
      pairs.append(
        AntipodalPair(
          first: places.place(at: low), second: places.place(at: high), distanceKm: found.distanceKm))
    }
    pairs.sort {
      ($0.distanceKm, $0.first.index, $0.second.index) < ($1.distanceKm, $1.first.index, $1.second.index)
    }
    try data.checkIntact()
    return pairs
  }
}
