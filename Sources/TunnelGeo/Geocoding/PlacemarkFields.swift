extension Placemark {
  /// Parts of a placemark that can be asked for alone: a batch that asks for some is computed for those
  /// (and what they depend on) only.
  ///
  /// ```swift
  /// let zones = try geocoder.placemarks(for: points, fields: .timeZone)
  /// zones[0].timeZone.identifier  // Europe/Copenhagen
  /// ```
  ///
  /// A placemark computed for some fields holds the same values in those as the whole placemark, and
  /// empty values in the others: `false` for ``Placemark/land`` and ``Placemark/inLake``, nil for the
  /// optional ones, an empty ``Placemark/TimeZone/identifier`` and a ``Placemark/nearestPlace`` with
  /// index -1 and an empty name.
  public struct Fields: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// ``Placemark/land``.
    public static let land = Fields(rawValue: 1 << 0)
    /// ``Placemark/country``.
    public static let country = Fields(rawValue: 1 << 1)
    /// ``Placemark/region`` and ``Placemark/subregion``.
    public static let region = Fields(rawValue: 1 << 2)
    /// ``Placemark/sea``, ``Placemark/lake`` and ``Placemark/inLake``.
    public static let sea = Fields(rawValue: 1 << 3)
    /// ``Placemark/nearestPlace``.
    public static let nearestPlace = Fields(rawValue: 1 << 4)
    /// ``Placemark/nearestLand``.
    public static let nearestLand = Fields(rawValue: 1 << 5)
    /// ``Placemark/timeZone``.
    public static let timeZone = Fields(rawValue: 1 << 6)
    /// ``Placemark/boundaryKm``: how far each layer's nearest boundary is.
    public static let boundaries = Fields(rawValue: 1 << 7)
    /// The whole placemark.
    public static let all: Fields = [
      .land, .country, .region, .sea, .nearestPlace, .nearestLand, .timeZone, .boundaries,
    ]
  }
}

extension NearestPlace {
  /// What a placemark computed without ``Placemark/Fields/nearestPlace`` holds there.
  static let unasked = NearestPlace(
    index: -1, name: "", countryCode: "", latitude: 0, longitude: 0, population: 0, distanceKm: 0)
}
