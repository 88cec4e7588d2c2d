import Foundation
import TunnelGeo
import TunnelMaps

/// What `tunnel antipode` prints, in both forms.
public struct AntipodeReport: Encodable, Sendable {
  public var from: Placemark
  public var to: Placemark
  public var surfaceDistanceKm: Double
  public var throughEarthKm: Double
  public var tunnel: TunnelFacts

  private let start: Coordinate
  private let end: Coordinate
  private let place: GazetteerMatch?

  /// The report on the tunnel from `start` to its antipode, whose placemarks are given.
  ///
  /// - Throws: `ProjectionError` when PROJ's library, which measures the surface distance, cannot be loaded.
  public init(
    from start: Coordinate, named place: GazetteerMatch?, placemarks: (Placemark, Placemark)
  ) throws(ProjectionError) {
    self.start = start
    self.place = place
    end = start.antipode
    from = placemarks.0
    to = placemarks.1
    let straight = StraightTunnel(from: start, to: end)
    surfaceDistanceKm = OutputRounding.kilometres(try straight.surfaceDistance / 1000)
    throughEarthKm = OutputRounding.kilometres(straight.length / 1000)
    tunnel = TunnelFacts(straight)
  }

  private enum CodingKeys: String, CodingKey {
    case from, to, surfaceDistanceKm, throughEarthKm, tunnel
  }

  /// The report for people: coordinates to `places` decimals, headlines bold and labels dim when
  /// `style` has colours.
  public func text(places: Int = 6, style: TextStyle = TextStyle()) -> String {
    var lines: [String] = []
    for (label, coordinate, placemark) in [("From", start, from), ("To", end, to)] {
      let headline =
        label == "From" && place != nil ? PlaceText.line(place!) : PlacemarkText.headline(placemark)
      lines.append(style.dim(label.padding(toLength: 6, withPad: " ", startingAt: 0)) + style.bold(headline))
      lines.append(
        "      " + coordinate.formatted(.decimal(places: places)) + "   "
          + coordinate.formatted(.dms(secondsPlaces: 1)))
      for (name, value) in PlacemarkText.details(placemark) {
        lines.append("      " + style.dim(name.padding(toLength: 15, withPad: " ", startingAt: 0)) + value)
      }
      lines.append("")
    }
    lines.append(style.dim("Along the surface   ") + Self.kilometres(surfaceDistanceKm))
    lines.append(style.dim("Through the Earth   ") + Self.kilometres(throughEarthKm))
    lines += tunnel.lines
    return lines.joined(separator: "\n") + "\n"
  }

  /// `20,003.93 km`.
  public static func kilometres(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let fraction = hundredths % 100
    return "\(PlaceText.grouped(hundredths / 100)).\(fraction < 10 ? "0" : "")\(fraction) km"
  }
}
