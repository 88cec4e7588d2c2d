/// The one rule for latitudes and longitudes as people and tables write them.
///
/// - A latitude lies in -90…90.
/// - A longitude written as a signed number lies in -180…360 (0…360 is common in data: 350 is 10° W)
///   and is normalised into -180..<180.
/// - A longitude written with a hemisphere letter lies in 0…180: `200E` is refused rather than read
///   as 160° W.
/// - A number too large to be held (`1e400`, read as infinity) is out of range, and said to be too
///   large; one that is not a number (`nan`) is refused as such.
///
/// ``Coordinate/init(parsing:)`` holds text to this rule and `tunnel batch` its columns; numbers
/// given to ``Coordinate/init(latitude:longitude:)`` are normalised from any finite longitude instead.
extension Coordinate {
  /// The longitudes a signed number may give: -180…360.
  public static let signedLongitudes: ClosedRange<Double> = -180...360

  /// The degrees a longitude with a hemisphere letter (E or W) may give: 0…180.
  public static let hemisphereLongitudes: ClosedRange<Double> = 0...180

  /// A coordinate from a latitude and a signed longitude as written, held to the rule above.
  ///
  /// ```swift
  /// try Coordinate(validatingLatitude: 10, longitude: 350)  // 10, -10
  /// try Coordinate(validatingLatitude: 10, longitude: 400)  // longitude 400 is outside -180…360
  /// ```
  ///
  /// - Throws: ``CoordinateError/latitudeOutOfRange(_:)`` or ``CoordinateError/longitudeOutOfRange(_:)``
  ///   (for infinities too), ``CoordinateError/notFinite(axis:value:)`` for NaN.
  public init(validatingLatitude latitude: Double, longitude: Double) throws(CoordinateError) {
    guard !latitude.isNaN else { throw .notFinite(axis: .latitude, value: latitude) }
    guard !longitude.isNaN else { throw .notFinite(axis: .longitude, value: longitude) }
    guard (-90...90).contains(latitude) else { throw .latitudeOutOfRange(latitude) }
    guard Self.signedLongitudes.contains(longitude) else { throw .longitudeOutOfRange(longitude) }
    self.init(uncheckedLatitude: latitude, longitude: longitude)
  }

  /// Checks the degrees of a longitude given with a hemisphere letter, signed east.
  ///
  /// - Throws: ``CoordinateError/hemisphereLongitudeOutOfRange(_:)`` past 180° either way.
  static func validateHemisphereLongitude(_ longitude: Double) throws(CoordinateError) {
    guard Self.hemisphereLongitudes.contains(abs(longitude)) else {
      throw .hemisphereLongitudeOutOfRange(longitude)
    }
  }
}
