import ArgumentParser
import Foundation
import TunnelApp
import TunnelBatch
import TunnelGeo

extension Tunnel {
  /// `tunnel where <place>`: everything the data says about one point.
  struct Where: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Say where a point is: land or sea, country, region, nearest place and time zone.",
      discussion: """
        This is the geocode view of one end of the tunnel. On land it names the country, the first-level \
        region and the nearest populated place; at sea, the ocean or sea and the nearest land.

        Examples:
          tunnel where 56 8.5
          tunnel where -56 -171.5 --format json
        """
    )

    @OptionGroup var place: LocationArguments
    @OptionGroup var output: OutputOptions
    @OptionGroup var data: DataOptions

    func run() throws {
      let placeData = try data.placeData()
      let location = try place.resolve(data: placeData)
      let placemark = try Geocoding.placemark(for: location.coordinate, data: placeData)
      switch output.format {
      case .json:
        print(try output.decimals.rounding { try JSONOutput.string(placemark) })
      case .text:
        let style = TextStyle(output: TerminalOutput(asciiRequested: false))
        print(style.bold(PlacemarkText.headline(placemark)))
        print(
          "      " + location.coordinate.formatted(.decimal(places: output.decimals.textPlaces)) + "   "
            + location.coordinate.formatted(.dms(secondsPlaces: 1)))
        for (label, value) in PlacemarkText.details(placemark) {
          print("      " + style.dim(label.padding(toLength: 15, withPad: " ", startingAt: 0)) + value)
        }
      case .jsonl, .csv, .geojson:
        let row = OutputRow(
          members: [
            ("latitude", OutputRow.number(location.coordinate.latitude, places: output.decimals.dataPlaces)),
            (
              "longitude", OutputRow.number(location.coordinate.longitude, places: output.decimals.dataPlaces)
            ),
          ], coordinate: location.coordinate, placemark: placemark)
        print(
          OutputDocument.render(
            [row], format: output.format.rows!, precision: .init(places: output.decimals.dataPlaces)),
          terminator: "")
      }
    }
  }
}

/// The reverse geocoder as the commands use it: data problems become one line and exit status 66.
enum Geocoding {
  static func placemark(for coordinate: Coordinate, data: PlaceData) throws -> Placemark {
    do {
      return try ReverseGeocoder(data: data).placemark(for: coordinate)
    } catch {
      throw CommandFailure(error)
    }
  }
}

/// JSON as every command prints it: pretty, keys sorted, slashes unescaped.
enum JSONOutput {
  static func string<Value: Encodable>(_ value: Value) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }
}
