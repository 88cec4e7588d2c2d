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

extension Tunnel {
  /// `tunnel find <name>`: the places with that name, best first.
  struct Find: CheckedCommand {
    static let configuration = CommandConfiguration(
      commandName: "find",
      abstract: "List the places with a name, best first.",
      discussion: """
        Case, accents and punctuation do not matter, and every alternate name counts, in any script: \
        'København', 'Kopenhagen' and 'Копенгаген' all find Copenhagen. Text after a comma names the \
        country or first-level region: 'Springfield, IL', 'Paris, FR', 'Córdoba, Spain'. Places are ranked by \
        population, a place's own name counting as a hundred times its population: 'Bombay' is Mumbai \
        before Bombay, New Zealand, and 'Victoria' is Victoria before Hong Kong, which is also called so.

        Examples:
          tunnel find Copenhagen
          tunnel find "Springfield, IL" --limit 3 --format json
        """
    )

    @Argument(
      help: ArgumentHelp("The name to look for, with optional qualifiers after commas.", valueName: "name"))
    var words: [String] = []

    @Option(name: .long, help: "The most places to list.")
    var limit: Int = 10

    @OptionGroup var output: OutputOptions
    @OptionGroup var data: DataOptions

    mutating func validate() {
      words = CommandLineWords.expanded(words)
    }

    func check() throws {
      try output.check()
      guard !words.joined().trimmingWhitespace(lineBreaks: false).isEmpty else {
        throw ValidationError("give a name to look for, e.g. 'tunnel find Copenhagen'")
      }
      guard limit > 0 else { throw ValidationError("--limit must be at least 1, not \(limit)") }
    }

    func run() throws {
      let search: GazetteerSearch
      do {
        let placeData = try data.placeData()
        search = try Gazetteer(data: placeData).search(words.joined(separator: " "), limit: limit)
        try placeData.checkIntact()
      } catch let error as PlaceDataError {
        throw CommandFailure(error)
      }
      guard !search.matches.isEmpty else {
        throw ValidationError(search.explanation ?? "nothing found")
      }
      let report = FindReport(search.matches)
      switch output.format {
      case .json: try OutputFile.print(report.json(precision: try output.precision) + "\n")
      case .jsonl, .csv, .geojson:
        let precision = try output.precision
        try OutputOptions.printRows(
          report.rows(precision: precision), format: output.format, precision: precision)
      case .text:
        // Positions to 4 decimals (10 m) unless a precision is given.
        let precision = try output.decimals.precision.map {
          try PrecisionOptions.precision($0, otherwise: .text)
        }
        try OutputFile.print(report.text(precision: precision))
      }
    }
  }
}
