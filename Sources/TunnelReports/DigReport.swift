import TunnelGeo

/// What `tunnel dig` says about a straight tunnel between two places, in text, JSON and as a row, and what
/// `tunnel serve` answers at `/v1/dig`.
public struct DigReport: Sendable, JSONWritable {
  /// Where the tunnel starts and ends, as they were given.
  public var from: LocationQuery
  public var to: LocationQuery
  /// Kilometres along the surface between the ends.
  public var surfaceDistanceKm: Double
  /// Kilometres straight through the Earth.
  public var throughEarthKm: Double
  /// The deepest point and the fall.
  public var tunnel: TunnelFacts

  /// The report on the tunnel between two locations.
  ///
  /// - Throws: `ProjectionError` when PROJ's library, which measures the surface distance, cannot be loaded.
  public init(from: LocationQuery, to: LocationQuery) throws(ProjectionError) {
    let straight = StraightTunnel(from: from.coordinate, to: to.coordinate)
    self.from = from
    self.to = to
    surfaceDistanceKm = try straight.surfaceDistance / 1000
    throughEarthKm = straight.length / 1000
    tunnel = TunnelFacts(straight)
  }

  /// `{"from":{"latitude":…,"longitude":…,"name":…},…,"to":{…},"tunnel":…}`; an end given as a coordinate
  /// has no `name`.
  public func writeJSON(to json: inout JSONWriter) {
    func end(_ json: inout JSONWriter, _ query: LocationQuery) {
      json.object { json in
        json.member("latitude") { $0.degrees(query.coordinate.latitude) }
        json.member("longitude") { $0.longitude(query.coordinate.longitude) }
        if let place = query.place { json.member("name") { $0.string(PlaceText.line(place)) } }
      }
    }
    json.object { json in
      json.member("from") { end(&$0, from) }
      json.member("surfaceDistanceKm") { $0.kilometres(surfaceDistanceKm) }
      json.member("throughEarthKm") { $0.kilometres(throughEarthKm) }
      json.member("to") { end(&$0, to) }
      json.member("tunnel") { tunnel.writeJSON(to: &$0) }
    }
  }

  /// The report for people, coordinates and the distances' rounding to `precision`.
  public func text(precision: Precision = .text) -> String {
    var lines: [String] = []
    for (label, query) in [("From", from), ("To", to)] {
      let padded = label.paddedWithSpaces(toLength: 6)
      let coordinates = PlaceText.coordinates(query.coordinate, precision: precision)
      if let place = query.place {
        lines.append(padded + PlaceText.line(place))
        lines.append("      " + coordinates)
      } else {
        lines.append(padded + coordinates)
      }
    }
    lines.append("")
    lines.append("Along the surface   " + PlaceText.kilometres(surfaceDistanceKm, precision: precision))
    lines.append("Through the Earth   " + PlaceText.kilometres(throughEarthKm, precision: precision))
    lines += tunnel.lines(precision: precision)
    return lines.joined(separator: "\n") + "\n"
  }

  /// The tunnel as one row, its members named as the JSON names them, flattened (`from.latitude` is
  /// `fromLatitude`, in CSV `from_latitude`); its point is where it starts.
  public func row(precision: Precision = .data) -> OutputRow {
    func end(_ prefix: String, _ query: LocationQuery) -> [(name: String, json: String)] {
      OutputRow.point(query.coordinate, precision: precision, prefix: prefix) + [
        (prefix + "Name", OutputRow.string(query.place.map(PlaceText.line)))
      ]
    }
    return OutputRow(
      members: end("from", from) + end("to", to) + [
        ("surfaceDistanceKm", OutputRow.number(surfaceDistanceKm, places: precision.kilometres)),
        ("throughEarthKm", OutputRow.number(throughEarthKm, places: precision.kilometres)),
      ] + tunnel.rowMembers(precision), coordinate: from.coordinate)
  }
}
