import ArgumentParser
import TunnelApp
import TunnelBatch
import TunnelCommandLine
import TunnelGeo
import TunnelMaps
import TunnelReports

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        precision: output.decimals.precision)
    }
  }
}

/// Everything `tunnel where` is asked, as plain values: what the parsed command holds, and what
/// ``Tunnel/singleCommand(_:)`` makes of plain words without the parser.
struct WhereRequest: Equatable {
  var text: String
  var dataFolder: String?
  var format: OutputFormat = .text
  /// `--precision`, when given.
  var precision: Int?

  /// Answers. With `exiting`, the process ends as soon as the answer is written, the data still open: the
  /// kernel takes back the mapped files at once, where closing them one by one costs a tenth of a single
  /// query's start-up.
  func run(exiting: Bool = false) throws {
    let placeData = try DataOptions.placeData(folder: dataFolder)
    let precision = try PrecisionOptions.precision(self.precision, for: format)
    var rows: [OutputRow] = []
    try LocationArguments.forEachQuery(text) { text in
      let location = try LocationArguments.resolve(text, data: placeData)
      let report = WhereReport(
        location, placemark: try Geocoding.placemark(for: location.coordinate, data: placeData))
      switch format {
      case .json: try OutputFile.print(report.json(precision: precision) + "\n")
      case .text:
        let style = TextStyle(output: TerminalOutput(asciiRequested: false))
        try OutputFile.print(report.text(precision: precision, style: style))
      case .jsonl, .csv, .geojson: rows.append(report.row(precision: precision))
      }
    } whenRead: {
      try OutputOptions.printRows(rows, format: format, precision: precision)
    }
    if exiting { withExtendedLifetime(placeData) { exit(ExitStatus.success.code) } }
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
