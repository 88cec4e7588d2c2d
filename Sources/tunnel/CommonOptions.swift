import ArgumentParser
import TunnelApp
import TunnelBatch
import TunnelCommandLine
import TunnelGeo

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
import TunnelReports
#endif

/// How results are printed.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
  case text, json, jsonl, csv, geojson

  /// The batch format of the same name (nil for text and JSON).
  var rows: BatchOutputFormat? {
    switch self {
    case .text, .json: nil
    case .jsonl: .jsonl
    case .csv: .csv
    case .geojson: .geojson
    }
  }
}

/// `--precision`, shared by every command that prints coordinates.
struct PrecisionOptions: ParsableArguments {
  @Option(
    name: .long,
    help: ArgumentHelp(
      "Decimals for degrees (kilometres get three fewer, one at least); by default 6 in text and 9 (0.1 mm) otherwise.",
      valueName: "n"))
  var precision: Int?

  /// Refuses a precision that ``Precision`` refuses (see ``CheckedCommand``).
  func check() throws {
    _ = try Self.precision(precision, otherwise: .data)
  }

  /// The precision given, or `otherwise`; one out of range is a usage error.
  static func precision(_ given: Int?, otherwise: Precision) throws -> Precision {
    do {
      return try Precision.given(given, otherwise: otherwise)
    } catch {
      throw ValidationError("--precision must be between 0 and \(Precision.maximumDegrees)")
    }
  }

  /// The precision given, or 6 decimals for text and 9 for the formats for programs.
  static func precision(_ given: Int?, for format: OutputFormat) throws -> Precision {
    try precision(given, otherwise: format == .text ? .text : .data)
  }

  /// The precision for `format` (see ``precision(_:for:)``).
  func precision(for format: OutputFormat) throws -> Precision {
    try Self.precision(precision, for: format)
  }
}

/// `--format` and `--precision`, shared by every command that prints results about points.
struct OutputOptions: ParsableArguments {
  @Option(
    name: .long,
    help: ArgumentHelp(
      "How to print: 'text' for people; 'json', 'jsonl' (one line a result), 'csv' or 'geojson' for programs.",
      valueName: "text|json|jsonl|csv|geojson"))
  var format: OutputFormat = .text

  @OptionGroup var decimals: PrecisionOptions

  /// Refuses what ``PrecisionOptions/check()`` refuses.
  func check() throws {
    try decimals.check()
  }

  /// The precision for the format asked for.
  var precision: Precision {
    get throws { try decimals.precision(for: format) }
  }

  /// Prints `rows` in the row format `format` asks for, under one header; nothing for text and JSON, or when
  /// there is no row.
  static func printRows(_ rows: [OutputRow], format: OutputFormat, precision: Precision) throws {
    if let rowFormat = format.rows, !rows.isEmpty {
      try OutputFile.print(OutputDocument.render(rows, format: rowFormat, precision: precision))
    }
  }
}

/// A place given as one or more words: a coordinate (`56.0 8.5`, `33°54′S 18°24′E`, `+5633+00819/`) or a
/// name (`Skjern`, `Springfield, IL`).
struct LocationArguments: ParsableArguments {
  @Argument(
    help: ArgumentHelp("The place to dig from: a coordinate or a place name.", valueName: "place"))
  var words: [String] = []

  var text: String { words.joined(separator: " ") }

  mutating func validate() {
    words = CommandLineWords.expanded(words)
  }

  /// Refuses words that name nothing (see ``CheckedCommand``).
  func check() throws {
    // No words, and standard input is not a terminal: the queries are its lines.
    if words.isEmpty, isatty(STDIN_FILENO) == 0 { return }
    try Self.check(text)
  }

  /// Calls `body` with `text`, or, when `text` is empty (``check()`` let that through only for a
  /// standard input that is not a terminal), with each non-blank line of standard input in turn: one
  /// answer a line. A line that names no place is said on standard error with its number, and the
  /// others are still answered; `whenRead` runs after the last line (to print rows gathered under one
  /// header), and then such lines end the command with exit status 65.
  static func forEachQuery(
    _ text: String, _ body: (String) throws -> Void, whenRead: () throws -> Void
  ) throws {
    guard text.isEmpty else {
      try body(text)
      return try whenRead()
    }
    var number = 0
    var failed = 0
    while let line = Swift.readLine(strippingNewline: true) {
      number += 1
      let query = line.trimmingWhitespace(lineBreaks: false)
      guard !query.isEmpty else { continue }
      do {
        try body(query)
      } catch let error as ValidationError {
        failed += 1
        StandardError.write("tunnel: line \(number): \(error.message)\n")
      }
    }
    try whenRead()
    if failed > 0 {
      throw CommandFailure(
        message: "\(failed) of the lines read named no place or coordinate", status: .dataError)
    }
  }

  /// Refuses words that name nothing.
  static func check(_ text: String) throws {
    guard !text.trimmingWhitespace(lineBreaks: false).isEmpty else {
      throw ValidationError(
        "give a place or a coordinate, e.g. 'Skjern' or '56.55 8.32'")
    }
  }

  /// The location the words name; the place layer is opened only for names.
  func resolve(data: PlaceData) throws -> LocationQuery {
    try Self.resolve(text, data: data)
  }

  /// The location `text` names (a coordinate or a place); errors become the commands' plain errors.
  static func resolve(_ text: String, data: PlaceData) throws -> LocationQuery {
    do {
      let query = try LocationLookup.resolve(text, data: data)
      // A hint for people, as a terminal shows it; scripts get the answer alone.
      if isatty(STDERR_FILENO) == 1, let note = namesakeNote(text, query) { StandardError.write(note + "\n") }
      return query
    } catch .badInput(let message) {
      throw ValidationError(message + commandHint(text))
    } catch .data(let error) {
      throw CommandFailure(error)
    }
  }

  /// For a name several places have, which one was taken and how many there are:
  /// "tunnel: 'Paris' is Paris, Île-de-France, France — one of 20 places of that name; 'tunnel find Paris'
  /// lists them". Nil for a coordinate or a name of one place.
  static func namesakeNote(_ text: String, _ query: LocationQuery) -> String? {
    guard query.namesakes > 1, let match = query.place else { return nil }
    let many =
      query.namesakes >= LocationQuery.namesakeLimit
      ? "one of \(query.namesakes) or more" : "one of \(query.namesakes)"
    let name = String(text.prefix { $0 != "," })
    let described = [
      match.place.name, match.place.region?.name, match.countryName ?? match.place.countryCode,
    ]
    .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ")
    return
      "tunnel: \(EchoedText.quoted(text)) is \(described) — \(many) places of that name; 'tunnel find \(name)' lists them"
  }

  /// For text whose first word is a command misspelt ("fnd Paris"): "; did you mean the command …".
  static func commandHint(_ text: String) -> String {
    let words = text.split(separator: " ", maxSplits: 1)
    guard words.count == 2, words[0].count >= 2 else { return "" }
    let typed = words[0].lowercased()
    let names = Tunnel.commandNames
    guard !names.contains(typed),
      let name = names.first(where: { name in
        var distance = EditDistance(target: Array(name.utf8))
        return distance.distance(to: Array(typed.utf8), atMost: name.count > 4 ? 2 : 1) != nil
      })
    else { return "" }
    return "; did you mean the command '\(name)'? (tunnel \(name) \(words[1]))"
  }
}
