import Foundation
import TunnelGeo
import TunnelMaps

/// What `tunnel dig` prints, in both forms.
public struct DigReport: Encodable, Sendable {
  /// One end: where it is and, when it was named, the place's name.
  public struct End: Encodable, Sendable {
    public var latitude: Double
    public var longitude: Double
    public var name: String?
  }

  public var from: End
  public var to: End
  public var surfaceDistanceKm: Double
  public var throughEarthKm: Double
  public var tunnel: TunnelFacts

  private let ends: [(label: String, query: LocationQuery)]

  /// The report on the tunnel between two locations.
  ///
  /// - Throws: `ProjectionError` when PROJ's library, which measures the surface distance, cannot be loaded.
  public init(from: LocationQuery, to: LocationQuery) throws(ProjectionError) {
    let straight = StraightTunnel(from: from.coordinate, to: to.coordinate)
    func end(_ query: LocationQuery) -> End {
      End(
        latitude: OutputRounding.degrees(query.coordinate.latitude),
        longitude: OutputRounding.longitude(query.coordinate.longitude), name: query.place.map(PlaceText.line)
      )
    }
    self.from = end(from)
    self.to = end(to)
    surfaceDistanceKm = OutputRounding.kilometres(try straight.surfaceDistance / 1000)
    throughEarthKm = OutputRounding.kilometres(straight.length / 1000)
    tunnel = TunnelFacts(straight)
    ends = [("From", from), ("To", to)]
  }

  private enum CodingKeys: String, CodingKey {
    case from, to, surfaceDistanceKm, throughEarthKm, tunnel
  }

  /// The report for people, coordinates to `places` decimals.
  public func text(places: Int) -> String {
    var lines: [String] = []
    for (label, query) in ends {
      let padded = label.padding(toLength: 6, withPad: " ", startingAt: 0)
      let coordinates =
        query.coordinate.formatted(.decimal(places: places)) + "   "
        + query.coordinate.formatted(.dms(secondsPlaces: 1))
      if let place = query.place {
        lines.append(padded + PlaceText.line(place))
        lines.append("      " + coordinates)
      } else {
        lines.append(padded + coordinates)
      }
    }
    lines.append("")
    lines.append("Along the surface   \(AntipodeReport.kilometres(surfaceDistanceKm))")
    lines.append("Through the Earth   \(AntipodeReport.kilometres(throughEarthKm))")
    lines += tunnel.lines
    return lines.joined(separator: "\n") + "\n"
  }
}
