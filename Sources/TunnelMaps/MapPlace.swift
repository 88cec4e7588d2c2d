/// A populated place that falls inside a map, a candidate for a label.
public struct MapPlace: Sendable, Hashable {
  /// The place's name ("København" is "Copenhagen" in GeoNames' main name).
  public var name: String
  /// The name in plain ASCII.
  public var asciiName: String
  /// The number of inhabitants.
  public var population: Int
  /// Whether the place is its country's capital; a capital is labelled before places up to four times larger.
  public var isCapital = false
  /// Where the place is on the map.
  public var point: MapPoint
}
