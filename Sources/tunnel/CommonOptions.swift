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

/// A place given as one or more words: a coordinate (`56.0 8.5`, `33°54′S 18°24′E`, `+5633+00819/`) or a
/// name (`Skjern`, `Springfield, IL`).
struct LocationArguments: ParsableArguments {
  @Argument(
    help: ArgumentHelp("The place to dig from: a coordinate or a place name.", valueName: "place"))
  var words: [String] = []

  var text: String { words.joined(separator: " ") }

  mutating func validate() throws {
    guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
      throw ValidationError(
        "give a place or a coordinate to dig from, e.g. 'tunnel Skjern' or 'tunnel 56.55 8.32'")
    }
  }

  /// The location the words name; the place layer is opened only for names.
  func resolve(data: PlaceData) throws -> LocationQuery {
    try Self.resolve(text, data: data)
  }

  /// The location `text` names (a coordinate or a place); errors become the commands' plain errors.
  static func resolve(_ text: String, data: PlaceData) throws -> LocationQuery {
    do {
      return try LocationQuery(text) { () throws(PlaceDataError) in try Gazetteer(data: data) }
    } catch .coordinate(.unparsable(let text, let reason))
      where !reason.contains("as in") && !reason.contains("e.g.")
    {
      throw ValidationError(
        "cannot read \(EchoedText.quoted(text)) as a coordinate: \(reason); write it as e.g. '56.55 8.32' or '56°33′N 8°19′E'"
      )
    } catch .data(let error) {
      throw CommandFailure(error)
    } catch {
      throw ValidationError(error.description)
    }
  }
}
