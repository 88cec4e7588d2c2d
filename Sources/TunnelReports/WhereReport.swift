import TunnelGeo
import TunnelSystem

/// What `tunnel where` says about one point, in text, JSON and as a row, and what `tunnel serve` answers at
/// `/v1/where`.
public struct WhereReport: Sendable, JSONWritable {
  /// The point as it was asked for.
  public var location: LocationQuery
  /// What the data says about it.
  public var placemark: Placemark

  public init(_ location: LocationQuery, placemark: Placemark) {
    self.location = location
    self.placemark = placemark
  }

  /// The placemark (`Placemark`'s JSON).
  public func writeJSON(to json: inout JSONWriter) {
    placemark.writeJSON(to: &json)
  }

  /// The headline (bold when `style` has colours), the coordinates to `precision`, then the labelled lines
  /// (labels dim).
  public func text(precision: Precision = .text, style: TextStyle = TextStyle()) -> String {
    var lines = [
      style.bold(PlacemarkText.headline(placemark)),
      "      " + PlaceText.coordinates(location.coordinate, precision: precision),
    ]
    for detail in PlacemarkText.details(placemark) {
      lines.append("      " + style.dim(detail.label.paddedWithSpaces(toLength: 15)) + detail.value)
    }
    return lines.joined(by: "\n") + "\n"
  }

  /// The point and the placemark's fields.
  public func row(precision: Precision = .data) -> OutputRow {
    OutputRow(
      members: OutputRow.point(location.coordinate, precision: precision), coordinate: location.coordinate,
      placemark: placemark)
  }
}
