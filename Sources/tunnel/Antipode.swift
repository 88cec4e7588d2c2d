import ArgumentParser
import Foundation
import TunnelGeo

extension Tunnel {
  /// `tunnel antipode <coordinate>`: both ends of the tunnel and the distances between them.
  struct Antipode: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Print both ends of the tunnel from a coordinate, and how far apart they are.",
      discussion: """
        The other end is the antipode: latitude negated, longitude moved by 180°. Along the surface \
        the two ends are always half a meridian apart on WGS84 (20,003.93 km); straight through the \
        Earth the distance depends on latitude.

        Examples:
          tunnel Skjern
          tunnel "Springfield, IL"
          tunnel 56.55 8.32
          tunnel antipode -33.9 18.4 --format json
          tunnel "33°54′S 18°24′E"
        """
    )

    @OptionGroup var place: LocationArguments
    @OptionGroup var output: OutputOptions
    @OptionGroup var data: DataOptions

    func run() throws {
      let location = try place.resolve(data: data)
      let report = AntipodeReport(from: location.coordinate, named: location.place)
      switch output.format {
      case .text: print(report.text, terminator: "")
      case .json: print(try report.json())
      }
    }
  }
}

/// What `tunnel antipode` prints, in both forms.
struct AntipodeReport: Encodable {
  struct End: Encodable {
    var latitude: Double
    var longitude: Double

    init(_ coordinate: Coordinate) {
      latitude = AntipodeReport.rounded(coordinate.latitude, places: 9)
      longitude = AntipodeReport.rounded(coordinate.longitude, places: 9)
    }
  }

  var from: End
  var to: End
  var surfaceDistanceKm: Double
  var throughEarthKm: Double

  private let start: Coordinate
  private let end: Coordinate
  private let place: GazetteerMatch?

  init(from start: Coordinate, named place: GazetteerMatch? = nil) {
    self.start = start
    self.place = place
    end = start.antipode
    from = End(start)
    to = End(end)
    surfaceDistanceKm = Self.rounded(Geodesic.distance(from: start, to: end) / 1000, places: 6)
    throughEarthKm = Self.rounded(Geodesic.chordLength(from: start, to: end) / 1000, places: 6)
  }

  /// `value` to `places` decimals, so that JSON shows `18.4` rather than the last bits of a computation
  /// (9 decimals of a degree are 0.1 mm; 6 decimals of a kilometre are 1 mm).
  static func rounded(_ value: Double, places: Int) -> Double {
    let scale = pow(10, Double(places))
    return ((value * scale).rounded() / scale) + 0
  }

  private enum CodingKeys: String, CodingKey {
    case from, to, surfaceDistanceKm, throughEarthKm
  }

  func json() throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(self), as: UTF8.self)
  }

  var text: String {
    let rows = [
      ("From", start.formatted(.decimal(places: 6)), start.formatted(.dms(secondsPlaces: 1))),
      ("To", end.formatted(.decimal(places: 6)), end.formatted(.dms(secondsPlaces: 1))),
    ]
    let width = rows.map(\.1.count).max() ?? 0
    var lines = rows.map { label, decimal, dms in
      label.padding(toLength: 6, withPad: " ", startingAt: 0)
        + decimal.padding(toLength: width + 3, withPad: " ", startingAt: 0) + dms
    }
    if let place {
      lines.insert("      " + PlaceText.line(place), at: 1)
    }
    lines.append("")
    lines.append("Along the surface   \(Self.kilometres(surfaceDistanceKm))")
    lines.append("Through the Earth   \(Self.kilometres(throughEarthKm))")
    return lines.joined(separator: "\n") + "\n"
  }

  /// `20,003.93 km`.
  static func kilometres(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    var whole = String(hundredths / 100)
    var grouped = ""
    while whole.count > 3 {
      grouped = "," + whole.suffix(3) + grouped
      whole.removeLast(3)
    }
    let fraction = hundredths % 100
    return "\(whole)\(grouped).\(fraction < 10 ? "0" : "")\(fraction) km"
  }
}
