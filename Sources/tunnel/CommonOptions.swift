import ArgumentParser
import TunnelGeo

/// How results are printed.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
  case text, json
}

/// `--format`, shared by every command that prints a result.
struct OutputOptions: ParsableArguments {
  @Option(name: .long, help: "How to print the result: 'text' for people, 'json' for programs.")
  var format: OutputFormat = .text
}

/// One coordinate given as one or more words (`56.0 8.5`, `33°54′S 18°24′E`, `+5633+00819/`).
struct CoordinateArguments: ParsableArguments {
  static let examplesForHelp = CoordinateError.examples

  @Argument(help: ArgumentHelp("The place to dig from, as a coordinate.", valueName: "coordinate"))
  var words: [String] = []

  /// The coordinate the words spell, read once by `validate()`.
  private(set) var coordinate: Coordinate?

  mutating func validate() throws {
    let text = words.joined(separator: " ")
    guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
      throw ValidationError("give a coordinate to dig from, e.g. 'tunnel 56.55 8.32'")
    }
    do {
      coordinate = try Coordinate(parsing: text)
    } catch .unparsable(let text, let reason) where !reason.contains("as in") && !reason.contains("e.g.") {
      throw ValidationError(
        "cannot read '\(text)' as a coordinate: \(reason); write it as e.g. '56.55 8.32' or '56°33′N 8°19′E'")
    } catch {
      throw ValidationError("\(error)")
    }
  }
}
