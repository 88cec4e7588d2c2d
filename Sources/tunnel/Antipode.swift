import ArgumentParser
import Foundation
import TunnelApp
import TunnelBatch
import TunnelCommandLine
import TunnelGeo

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
      var rows: [OutputRow] = []
      try LocationArguments.forEachQuery(place.text) { text in
        let location = try LocationArguments.resolve(text, data: placeData)
        if let row = try Self.answer(location, placeData: placeData, output: output) { rows.append(row) }
      } whenRead: {
        try Self.printRows(rows, output: output)
      }
    }

    /// Prints `rows` in the row format `output` asks for, under one header; nothing for text and JSON.
    static func printRows(_ rows: [OutputRow], output: OutputOptions) throws {
      if let format = output.format.rows, !rows.isEmpty {
        try OutputFile.print(
          OutputDocument.render(rows, format: format, precision: .init(places: output.decimals.dataPlaces)))
      }
    }

    /// Prints the answer for `location` as text or JSON, or gives its row for the row formats (printed
    /// together, under one header: ``printRows(_:output:)``).
    static func answer(
      _ location: LocationQuery, placeData: PlaceData, output: OutputOptions
    ) throws -> OutputRow? {
      let placemarks = (
        try Geocoding.placemark(for: location.coordinate, data: placeData),
        try Geocoding.placemark(for: location.coordinate.antipode, data: placeData)
      )
      let report = try output.decimals.rounding {
        try AntipodeReport(from: location.coordinate, named: location.place, placemarks: placemarks)
      }
      switch output.format {
      case .text:
        let style = TextStyle(output: TerminalOutput(asciiRequested: false))
        try OutputFile.print(report.text(places: output.decimals.textPlaces, style: style))
        return nil
      case .json:
        try OutputFile.print(try output.decimals.rounding { try ReportJSON.string(report) } + "\n")
        return nil
      case .jsonl, .csv, .geojson:
        let places = output.decimals.dataPlaces
        return OutputRow(
          members: [
            ("latitude", OutputRow.number(location.coordinate.latitude, places: places)),
            (
              "longitude",
              OutputRow.number(
                OutputRounding.longitude(location.coordinate.longitude, places: places), places: places)
            ),
            (
              "surfaceDistanceKm",
              OutputRow.number(report.surfaceDistanceKm, places: OutputRounding.kilometrePlaces(places))
            ),
            (
              "throughEarthKm",
              OutputRow.number(report.throughEarthKm, places: OutputRounding.kilometrePlaces(places))
            ),
          ], coordinate: location.coordinate, placemark: placemarks.0, antipode: placemarks.1)
      }
    }
  }
}
