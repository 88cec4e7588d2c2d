import TunnelGeo

/// A report as one row of the row formats (`--format jsonl|csv|geojson`): named values, the point the row is
/// about, and the placemarks whose fields the batch's formats add to it (`TunnelBatch.OutputDocument` writes
/// the rows).
public struct OutputRow: Sendable {
  /// Named values, in order, each as raw JSON text (``number(_:places:)``, ``string(_:)``).
  public var members: [(name: String, json: String)]
  /// The point of the row (its GeoJSON geometry).
  public var coordinate: Coordinate?
  /// The placemark of the point, when the row has one.
  public var placemark: Placemark?
  /// The placemark of the point's antipode, when the row has one.
  public var antipode: Placemark?

  public init(
    members: [(name: String, json: String)], coordinate: Coordinate?, placemark: Placemark? = nil,
    antipode: Placemark? = nil
  ) {
    self.members = members
    self.coordinate = coordinate
    self.placemark = placemark
    self.antipode = antipode
  }

  /// The CSV or TSV column of a member: its camel-case name in snake case, as the placemark's columns
  /// are named (`countryCode` is `country_code`, `surfaceDistanceKm` is `surface_distance_km`).
  public static func columnName(_ member: String) -> String {
    var column = ""
    for character in member {
      if character.isUppercase, !column.isEmpty { column += "_" }
      column += character.lowercased()
    }
    return column
  }

  /// `latitude` and `longitude` (or `fromLatitude` and `fromLongitude` with `prefix` "from") as raw JSON,
  /// to `precision`.
  public static func point(
    _ coordinate: Coordinate, precision: Precision, prefix: String = ""
  ) -> [(name: String, json: String)] {
    [
      (
        prefix.isEmpty ? "latitude" : prefix + "Latitude",
        number(coordinate.latitude, places: precision.degrees)
      ),
      (
        prefix.isEmpty ? "longitude" : prefix + "Longitude",
        number(precision.longitude(coordinate.longitude), places: precision.degrees)
      ),
    ]
  }

  /// A number as raw JSON, rounded to `places` decimals.
  public static func number(_ value: Double, places: Int) -> String {
    OutputBytes.text(value, places: places)
  }

  /// A text as raw JSON, or `null`.
  public static func string(_ value: String?) -> String {
    var out = OutputBytes()
    out.json(value)
    return String(decoding: out.bytes, as: UTF8.self)
  }
}
