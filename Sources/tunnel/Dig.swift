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
  /// `tunnel dig <from> <to>`: a straight tunnel between any two places.
  struct Dig: CheckedCommand {
    static let configuration = CommandConfiguration(
      commandName: "dig",
      abstract:
        "Measure a straight tunnel between two places: its length, its depth and the fall through it.",
      discussion: """
        Give the two ends as two arguments (quote a coordinate that has a space), or separate them \
        with 'to'. It prints the distance along the surface and straight through the Earth, the \
        deepest point of the tunnel (its depth below the nearest point of the WGS84 surface, and that \
        point), and how long a fall from one \
        end to the other takes with no air and no friction: on a uniform Earth every straight tunnel \
        takes 42 min 10 s; with the densities of the Preliminary Reference Earth Model (PREM) a \
        tunnel through the centre takes about 38 minutes and a short one a little over 42.

        Examples:
          tunnel dig Skjern Wellington
          tunnel dig "56 8.5" "-41.3 174.8"
          tunnel dig London to New York --format json
        """
    )

    @Argument(
      help: ArgumentHelp("The two ends: two places, or a place, 'to', and a place.", valueName: "from> <to"))
    var words: [String] = []
    @OptionGroup var output: OutputOptions
    @OptionGroup var data: DataOptions

    /// The two ends as typed, or what to write instead.
    ///
    /// - One `to` (in any case) with words on both sides separates the ends: `Paris to New York`.
    /// - Without a `to`, two words are the two ends, and four words that read as two coordinates two by
    ///   two (`51.5 -0.13 -33.9 151.2`) are those coordinates.
    ///
    /// A `to` with nothing on one side, or more than one, is refused rather than looked up as a place
    /// called "To": `tunnel dig Paris to` would otherwise dig to Tô, Burkina Faso.
    static func ends(of words: [String]) -> Result<(from: String, to: String), ValidationError> {
      let separators = words.indices.filter { words[$0].lowercased() == "to" }
      if let separator = separators.first {
        guard separators.count == 1 else {
          return .failure(
            ValidationError(
              "give the two ends of the tunnel with one 'to' between them, e.g. 'tunnel dig Paris to Tokyo'"))
        }
        guard separator > 0, separator < words.count - 1 else {
          return .failure(
            ValidationError(
              "'to' needs a place on each side: give the two ends of the tunnel, e.g. 'tunnel dig Paris to Tokyo'"
            ))
        }
        return .success(
          (words[..<separator].joined(separator: " "), words[(separator + 1)...].joined(separator: " ")))
      }
      if words.count == 2 { return .success((words[0], words[1])) }
      if words.count == 4 {
        let (from, to) = (words[0] + " " + words[1], words[2] + " " + words[3])
        if (try? Coordinate(parsing: from)) != nil, (try? Coordinate(parsing: to)) != nil {
          return .success((from, to))
        }
      }
      return .failure(
        ValidationError(
          "give the two ends of the tunnel, e.g. 'tunnel dig Skjern Wellington' or 'tunnel dig 56 8.5 to -41.3 174.8'"
        ))
    }

    mutating func validate() {
      words = CommandLineWords.expanded(words)
    }

    func check() throws {
      try output.check()
      _ = try Self.ends(of: words).get()
    }

    func run() throws {
      let placeData = try data.placeData()
      let (fromText, toText) = try Self.ends(of: words).get()
      let from = try LocationArguments.resolve(fromText, data: placeData)
      let to = try LocationArguments.resolve(toText, data: placeData)
      let report = try DigReport(from: from, to: to)
      let precision = try output.precision
      switch output.format {
      case .text: try OutputFile.print(report.text(precision: precision))
      case .json: try OutputFile.print(report.json(precision: precision) + "\n")
      case .jsonl, .csv, .geojson:
        try OutputOptions.printRows(
          [report.row(precision: precision)], format: output.format, precision: precision)
      }
    }
  }
}
