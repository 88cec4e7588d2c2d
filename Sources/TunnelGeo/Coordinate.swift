import TunnelSystem

/// A point on the Earth's surface: latitude and longitude in degrees on WGS84.
///
/// A coordinate is always valid: latitude lies in -90…90 and longitude has been normalised into
/// -180..<180. Longitudes are also held on a grid of 2⁻⁴⁴° (about 6 nanometres at the equator), which
/// makes adding or subtracting 180° exact, so that ``antipode`` of ``antipode`` is the point itself, bit
/// for bit.
///
/// ```swift
/// let skjern = try Coordinate(latitude: 55.95, longitude: 8.5)
/// skjern.antipode  // -55.95, -171.5
/// ```
///
/// Equality is exact; compare computed coordinates with a tolerance.
public struct Coordinate: Sendable, Hashable {
  /// Degrees north of the equator, -90…90.
  public let latitude: Double
  /// Degrees east of Greenwich, -180..<180.
  public let longitude: Double

  /// Creates a coordinate, rejecting a latitude outside -90…90 (an infinite one too: it is too large)
  /// and a longitude that is not finite.
  ///
  /// The longitude may be any finite number; it is normalised into -180..<180 (`190` becomes `-170`,
  /// `180` becomes `-180`). Text and tables are held to a narrower rule,
  /// ``init(validatingLatitude:longitude:)``.
  public init(latitude: Double, longitude: Double) throws(CoordinateError) {
    guard !latitude.isNaN else { throw .notFinite(axis: .latitude, value: latitude) }
    guard longitude.isFinite else { throw .notFinite(axis: .longitude, value: longitude) }
    guard (-90...90).contains(latitude) else { throw .latitudeOutOfRange(latitude) }
    self.init(uncheckedLatitude: latitude, longitude: longitude)
  }

  /// Creates a coordinate from numbers already known to be finite, with the latitude in -90…90.
  ///
  /// The longitude is still normalised.
  package init(uncheckedLatitude latitude: Double, longitude: Double) {
    self.latitude = latitude + 0  // turns -0.0 into 0.0
    self.longitude = Coordinate.normalizedLongitude(longitude)
  }

  /// The exact opposite point through the Earth's centre: latitude negated, longitude moved by 180°.
  ///
  /// On the WGS84 ellipsoid as on a sphere, the antipode of the antipode is the point itself. The poles
  /// map to each other, and longitude 0° maps to -180°.
  public var antipode: Coordinate {
    Coordinate(
      exactLatitude: 0 - latitude,
      exactLongitude: longitude < 0 ? longitude + 180 : longitude - 180)
  }

  /// Stores already-normalised values as they are.
  private init(exactLatitude: Double, exactLongitude: Double) {
    latitude = exactLatitude
    longitude = exactLongitude
  }

  /// The grid that longitudes are held on: 2⁻⁴⁴°.
  ///
  /// A multiple of 2⁻⁴⁴ smaller than 256 in magnitude needs at most 52 significant bits, so it and
  /// the same value ±180 are all exactly representable as `Double`.
  static let longitudeQuantum = 0x1p-44

  /// Brings any finite longitude into -180..<180 and onto the 2⁻⁴⁴° grid.
  static func normalizedLongitude(_ longitude: Double) -> Double {
    // Exact, in -180...180; values already there are their own remainder.
    var value = abs(longitude) <= 180 ? longitude : longitude.remainder(dividingBy: 360)
    value = TunnelSystem.roundedHalfAway(value / longitudeQuantum) * longitudeQuantum
    if value >= 180 { value -= 360 }
    return value + 0
  }
}

extension Coordinate: CustomStringConvertible {
  /// The coordinate as signed decimal degrees, latitude first: `56.55, 8.316667`.
  public var description: String {
    formatted(.decimal(places: 6))
  }
}

extension Coordinate: Codable {
  private enum CodingKeys: String, CodingKey {
    case latitude, longitude
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let latitude = try container.decode(Double.self, forKey: .latitude)
    let longitude = try container.decode(Double.self, forKey: .longitude)
    do {
      try self.init(latitude: latitude, longitude: longitude)
    } catch {
      throw DecodingError.dataCorruptedError(
        forKey: .latitude, in: container, debugDescription: error.description)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(latitude, forKey: .latitude)
    try container.encode(longitude, forKey: .longitude)
  }
}
