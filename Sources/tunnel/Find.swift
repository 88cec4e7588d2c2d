import ArgumentParser
import Foundation
import TunnelApp
import TunnelBatch
import TunnelCommandLine
import TunnelGeo
import TunnelMaps

extension Tunnel {
  /// `tunnel find <name>`: the places with that name, best first.
  struct Find: CheckedCommand {
    static let configuration = CommandConfiguration(
      commandName: "find",
      abstract: "List the places with a name, best first.",
      discussion: """
        Case, accents and punctuation do not matter, and every alternate name counts, in any script: \
        'København', 'Kopenhagen' and 'Копенгаген' all find Copenhagen. Text after a comma names the \
        country or first-level region: 'Springfield, IL', 'Paris, FR', 'Córdoba, Spain'. Places whose own \
        name matches come first, then those matched by an alternate name; each group by population.

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
      guard !words.joined().trimmingCharacters(in: .whitespaces).isEmpty else {
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
      switch output.format {
      case .json:
        try OutputFile.print(
          try output.decimals.rounding { try ReportJSON.string(search.matches.map(FoundPlace.init)) } + "\n")
      case .jsonl, .csv, .geojson:
        let places = output.decimals.dataPlaces
        let rows = search.matches.map { match in
          let place = match.place
          return OutputRow(
            members: [
              ("name", OutputRow.string(place.name)), ("countryCode", OutputRow.string(place.countryCode)),
              ("regionName", OutputRow.string(place.region.flatMap { $0.name.isEmpty ? nil : $0.name })),
              ("latitude", OutputRow.number(place.coordinate.latitude, places: places)),
              ("longitude", OutputRow.number(place.coordinate.longitude, places: places)),
              ("population", String(place.population)),
            ], coordinate: place.coordinate)
        }
        try OutputFile.print(OutputDocument.render(rows, format: output.format.rows!))
      case .text:
        let lines = search.matches.map { match in
          let position = match.place.coordinate.formatted(.decimal(places: output.decimals.precision ?? 4))
          return
            "\(PlaceText.line(match))   \(position)\(match.viaAlternateName ? "   (by another name)" : "")\n"
        }
        try OutputFile.print(lines.joined())
      }
    }
  }
}
