import TunnelGeo

/// What `tunnel antipode` says about a tunnel from a point to its antipode, in text, JSON and as a row, and
/// what `tunnel serve` answers at `/v1/antipode`.
public struct AntipodeReport: Sendable, JSONWritable {
  /// Where the tunnel starts.
  public var start: Coordinate
  /// Where it ends: the antipode.
  public var end: Coordinate { start.antipode }
  /// The place the start was named by, if it was.
  public var place: GazetteerMatch?
  /// What the data says about each end.
  public var from: Placemark
  public var to: Placemark
  /// Kilometres along the surface between the ends (half a meridian of WGS84).
  public var surfaceDistanceKm: Double
  /// Kilometres straight through the Earth.
  public var throughEarthKm: Double
  /// The deepest point and the fall.
  public var tunnel: TunnelFacts

  /// The report on the tunnel from `start` to its antipode, whose placemarks are given.
  ///
  /// - Throws: `ProjectionError` when PROJ's library, which measures the surface distance, cannot be loaded.
  public init(
    from start: Coordinate, named place: GazetteerMatch?, placemarks: (Placemark, Placemark)
  ) throws(ProjectionError) {
    self.start = start
    self.place = place
    from = placemarks.0
    to = placemarks.1
    let straight = StraightTunnel(from: start, to: start.antipode)
    surfaceDistanceKm = try straight.surfaceDistance / 1000
    throughEarthKm = straight.length / 1000
    tunnel = TunnelFacts(straight)
  }

  /// `{"from":…,"surfaceDistanceKm":…,"throughEarthKm":…,"to":…,"tunnel":…}`.
  public func writeJSON(to json: inout JSONWriter) {
    json.object { json in
      json.member("from") { from.writeJSON(to: &$0) }
      json.member("surfaceDistanceKm") { $0.kilometres(surfaceDistanceKm) }
      json.member("throughEarthKm") { $0.kilometres(throughEarthKm) }
      json.member("to") { to.writeJSON(to: &$0) }
      json.member("tunnel") { tunnel.writeJSON(to: &$0) }
    }
  }

  /// The report for people: coordinates and the distances' rounding to `precision`, headlines bold and
  /// labels dim when `style` has colours.
  public func text(precision: Precision = .text, style: TextStyle = TextStyle()) -> String {
    var lines: [String] = []
    for (label, coordinate, placemark) in [("From", start, from), ("To", end, to)] {
      // The start by the name it was given, when it was given one.
      let named = label == "From" ? place.map(PlaceText.line) : nil
      let headline = named ?? PlacemarkText.headline(placemark)
      lines.append(style.dim(label.paddedWithSpaces(toLength: 6)) + style.bold(headline))
      lines.append("      " + PlaceText.coordinates(coordinate, precision: precision))
      for detail in PlacemarkText.details(placemark) {
        lines.append("      " + style.dim(detail.label.paddedWithSpaces(toLength: 15)) + detail.value)
      }
      lines.append("")
    }
    lines.append(
      style.dim("Along the surface   ") + PlaceText.kilometres(surfaceDistanceKm, precision: precision))
    lines.append(
      style.dim("Through the Earth   ") + PlaceText.kilometres(throughEarthKm, precision: precision))
    lines += tunnel.lines(precision: precision)
    return lines.joined(separator: "\n") + "\n"
  }

  /// The report as a row: the start, the two distances, and both placemarks' fields.
  public func row(precision: Precision = .data) -> OutputRow {
    OutputRow(
      members: OutputRow.point(start, precision: precision) + [
        ("surfaceDistanceKm", OutputRow.number(surfaceDistanceKm, places: precision.kilometres)),
        ("throughEarthKm", OutputRow.number(throughEarthKm, places: precision.kilometres)),
      ], coordinate: start, placemark: from, antipode: to)
  }
}
