import ArgumentParser
import TunnelApp
import TunnelCommandLine
import TunnelGeo
import TunnelMaps
import TunnelReports

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Tunnel {
  /// `tunnel pairs`: populated places at opposite ends of the Earth.
  struct Pairs: CheckedCommand {
    static let configuration = CommandConfiguration(
      commandName: "pairs",
      abstract: "List pairs of places at opposite ends of the Earth, the closest pairs first.",
      discussion: """
        Each place with at least --min-population inhabitants is paired with the place (with as many) \
        nearest to its antipode, when that place is at most --within kilometres away; each pair is \
        listed once. The famous pairs fall out of it: Hamilton (New Zealand) and Córdoba (Spain), \
        Nanjing and Gálvez, Ulan-Ude and Puerto Natales.

        Examples:
          tunnel pairs
          tunnel pairs --min-population 1000000 --within 200
          tunnel pairs --min-population 0 --within 10 --format csv > pairs.csv
          tunnel pairs --format geojson > pairs.geojson
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
      case text, json, jsonl, csv, geojson
    }

    @Option(
      help: ArgumentHelp("How far a place may be from the other's antipode, in kilometres.", valueName: "km"))
    var within: Double = 25
    @Option(help: ArgumentHelp("The fewest inhabitants a place of a pair may have.", valueName: "n"))
    var minPopulation: Int = 10_000
    @Option(
      help:
        "How to print the pairs: 'text' for people; 'json', 'jsonl' (a pair a line), 'csv' or 'geojson' for programs."
    )
    var format: Format = .text
    @OptionGroup var data: DataOptions

    func check() throws {
      guard within.isFinite, within >= 0, within <= 20_000 else {
        throw ValidationError("--within must be between 0 and 20,000 km")
      }
      guard minPopulation >= 0 else { throw ValidationError("--min-population must be 0 or more") }
    }

    func run() throws {
      let placeData = try data.placeData()
      let pairs: [AntipodalPair]
      do {
        pairs = try ReverseGeocoder(data: placeData, cache: CacheLocation.cache())
          .antipodalPairs(
            withinKm: within, minimumPopulation: minPopulation)
      } catch {
        throw CommandFailure(error)
      }
      let report = PairsReport(pairs)
      switch format {
      case .text:
        try OutputFile.print(
          report.text(
            none:
              "No pair of places with at least \(PlaceText.grouped(minPopulation)) inhabitants is within \(within) km."
          ))
      case .json: try OutputFile.print(report.json() + "\n")
      case .jsonl: try OutputFile.print(report.jsonLines())
      case .csv: try OutputFile.print(report.csv())
      case .geojson: try OutputFile.print(report.geoJSON())
      }
    }
  }
}
