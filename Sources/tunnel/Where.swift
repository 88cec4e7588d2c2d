import ArgumentParser
import Foundation
import TunnelApp
import TunnelBatch
import TunnelCommandLine
import TunnelGeo
import TunnelMaps

extension Tunnel {
  /// `tunnel where <place>`: everything the data says about one point.
  struct Where: CheckedCommand {
    static let configuration = CommandConfiguration(
      commandName: "where",
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

    func check() throws {
      try place.check()
      try output.check()
    }

    func run() throws {
      try request.run()
    }

    /// What was asked, as plain values.
    var request: WhereRequest {
      WhereRequest(
        text: place.text, dataFolder: data.data, format: output.format,
        decimals: Decimals(precision: output.decimals.precision))
    }
  }
}

/// Everything `tunnel where` is asked, as plain values: what the parsed command holds, and what
/// ``Tunnel/singleCommand(_:)`` makes of plain words without the parser.
struct WhereRequest: Equatable {
  var text: String
  var dataFolder: String?
  var format: OutputFormat = .text
  var decimals = Decimals()

  func run() throws {
    let placeData = try DataOptions.placeData(folder: dataFolder)
    var rows: [OutputRow] = []
    try LocationArguments.forEachQuery(text) { text in
      let location = try LocationArguments.resolve(text, data: placeData)
      if let row = try answer(location, placeData: placeData) { rows.append(row) }
    } whenRead: {
      if let format = format.rows, !rows.isEmpty {
        try OutputFile.print(
          OutputDocument.render(rows, format: format, precision: .init(places: decimals.dataPlaces)))
      }
    }
  }

  /// Prints the answer for `location` as text or JSON, or gives its row for the row formats (printed
  /// together, under one header).
  private func answer(_ location: LocationQuery, placeData: PlaceData) throws -> OutputRow? {
    let placemark = try Geocoding.placemark(for: location.coordinate, data: placeData)
    switch format {
    case .json:
      try OutputFile.print(try decimals.rounding { try ReportJSON.string(placemark) } + "\n")
      return nil
    case .text:
      let style = TextStyle(output: TerminalOutput(asciiRequested: false))
      var lines = [
        style.bold(PlacemarkText.headline(placemark)),
        "      " + location.coordinate.formatted(.decimal(places: decimals.textPlaces)) + "   "
          + location.coordinate.formatted(.dms(secondsPlaces: 1)),
      ]
      for (label, value) in PlacemarkText.details(placemark) {
        lines.append("      " + style.dim(label.padding(toLength: 15, withPad: " ", startingAt: 0)) + value)
      }
      try OutputFile.print(lines.map { $0 + "\n" }.joined())
      return nil
    case .jsonl, .csv, .geojson:
      return OutputRow(
        members: [
          ("latitude", OutputRow.number(location.coordinate.latitude, places: decimals.dataPlaces)),
          (
            "longitude",
            OutputRow.number(
              OutputRounding.longitude(location.coordinate.longitude, places: decimals.dataPlaces),
              places: decimals.dataPlaces)
          ),
        ], coordinate: location.coordinate, placemark: placemark)
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
