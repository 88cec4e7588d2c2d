/// First-level regions found by name, each with the place that stands for it: its most populous.
///
/// Names are compared as place names are (``PlaceNameKey/fold(_:)``): "Svalbard" and "svalbard" are one
/// region. Built in one pass over the places (a few milliseconds).
///
/// ```swift
/// let names = RegionNames(places: try PlaceData().places())
/// names.regions(named: "Texas")  // the index of Texas, US, in the place layer's regions
/// ```
public struct RegionNames: Sendable {
  /// Region indexes (``PlaceLayer/region(_:)``) by folded name.
  public let regionsByName: [String: [Int]]
  /// Each region's most populous place (the first of equals), by region index.
  public let seats: [Int: Int]

  /// The regions of `places` that have places, by name.
  public init(places: PlaceLayer) {
    let seats = Self.seats(in: places) { _ in true }
    var byName: [String: [Int]] = [:]
    for region in seats.keys.sorted() {
      let name = places.region(region).name
      guard !name.isEmpty else { continue }
      byName[PlaceNameKey.fold(name), default: []].append(region)
    }
    regionsByName = byName
    self.seats = seats
  }

  /// The most populous place (the first of equals) of each region that `accept` takes, by region index: one
  /// pass over the places.
  public static func seats(in places: PlaceLayer, where accept: (Int) -> Bool) -> [Int: Int] {
    var seats: [Int: Int] = [:]
    for index in 0..<places.count {
      guard let region = places.regionIndex(at: index), accept(region) else { continue }
      if let seat = seats[region], places.population(at: seat) >= places.population(at: index) { continue }
      seats[region] = index
    }
    return seats
  }

  /// The regions `text` names, by index, in index order; none for text with a qualifier after a comma.
  public func regions(named text: String) -> [Int] {
    text.contains(",") ? [] : regionsByName[PlaceNameKey.fold(text)] ?? []
  }
}
