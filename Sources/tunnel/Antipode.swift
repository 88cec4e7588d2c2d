import ArgumentParser
import TunnelApp
import TunnelBatch
import TunnelCommandLine
import TunnelGeo
import TunnelReports

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Tunnel {
  /// `tunnel antipode <place>`: both ends of the tunnel, where each is, and the distances between them.
  struct Antipode: CheckedCommand {
    static let configuration = CommandConfiguration(
      commandName: "antipode",
      abstract: "Print both ends of the tunnel from a place, where each end is, and how far apart they are.",
      discussion: """
        The other end is the antipode: latitude negated, longitude moved by 180°. Along the surface \
        the two ends are always half a meridian apart on WGS84 (20,003.93 km); straight through the \
        Earth the distance depends on latitude. The tunnel runs through the Earth's centre, and a fall \
        through it (no air, no friction) takes 42 min 10 s if the Earth were of one density, and about \
        38 minutes with the densities of the Preliminary Reference Earth Model (PREM), whose dense \
        core pulls harder at depth. 'tunnel dig' does the same for any two places.

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

    func check() throws {
      try place.check()
      try output.check()
    }

    func run() throws {
      let placeData = try data.placeData()
      let precision = try output.precision
      var rows: [OutputRow] = []
      try LocationArguments.forEachQuery(place.text) { text in
        let location = try LocationArguments.resolve(text, data: placeData)
        try Self.write(
          try Self.report(location, placeData: placeData), format: output.format, precision: precision,
          rows: &rows)
      } whenRead: {
        try OutputOptions.printRows(rows, format: output.format, precision: precision)
      }
    }

    /// The report on the tunnel from `location` to its antipode.
    static func report(_ location: LocationQuery, placeData: PlaceData) throws -> AntipodeReport {
      try AntipodeReport(
        from: location.coordinate, named: location.place,
        placemarks: (
          try Geocoding.placemark(for: location.coordinate, data: placeData),
          try Geocoding.placemark(for: location.coordinate.antipode, data: placeData)
        ))
    }

    /// Prints `report` as text or JSON, or adds its row to `rows` for the row formats (printed together,
    /// under one header, by ``OutputOptions/printRows(_:format:precision:)``).
    static func write(
      _ report: AntipodeReport, format: OutputFormat, precision: Precision, rows: inout [OutputRow]
    ) throws {
      switch format {
      case .text:
        let style = TextStyle(output: TerminalOutput(asciiRequested: false))
        try OutputFile.print(report.text(precision: precision, style: style))
      case .json: try OutputFile.print(report.json(precision: precision) + "\n")
      case .jsonl, .csv, .geojson: rows.append(report.row(precision: precision))
      }
    }
  }
}
