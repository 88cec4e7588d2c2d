import ArgumentParser
import TunnelCommandLine
import TunnelGeo
import TunnelSystem

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

/// `tunnel`: where you would come out if you dug straight through the Earth.
@main
struct Tunnel: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tunnel",
    abstract: "Find where you would come out if you dug straight through the Earth.",
    discussion: """
      Give a place or a coordinate and Tunnel prints both ends of the tunnel, the distance between \
      them along the surface and straight through the Earth. With no command, 'antipode' is run: \
      'tunnel Skjern' is 'tunnel antipode Skjern'.

      Coordinates may be written as \(CoordinateError.examples), and as degrees and decimal \
      minutes, UTM, plus codes, geohashes or a link from Google, OpenStreetMap, Apple or Bing maps. \
      Negative numbers need no quoting: 'tunnel -33.9 18.4' works.

      EXAMPLES:
        tunnel Skjern                      both ends of the tunnel from Skjern
        tunnel where "56° 33.0′ N, 8° 19.0′ E"    the geocode view of a point
        tunnel find Springfield            every place of that name
        tunnel dig London to "New York"    length, depth and fall time
        tunnel batch points.csv > out.csv  every row of a file
        tunnel play                        the Tunnel app in the terminal
        tunnel serve                       the HTTP API and the browser app

      EXIT STATUS:
        0   success
        1   a map could not be drawn (PROJ refused its projection)
        64  a usage mistake, or a place or coordinate that cannot be read
        65  a batch met bad rows (each marked in an error column)
        66  the place data is missing or damaged
        69  tunnel serve could not listen on its address, or tunnel-serve is
            not installed beside tunnel
        74  the output could not be written (full disk, closed pipe, no folder)

      EVERY COMMAND TAKES:
        --color auto|always|never   colours on a terminal (auto), or always, or never

      ENVIRONMENT:
        TUNNEL_DATA       the place data folder when --data is not given
        TUNNEL_CACHE_DIR  where batches keep their indexes (empty: keep none;
                          else $XDG_CACHE_HOME/tunnel, else ~/.cache/tunnel)
        TUNNEL_WEB        a folder to serve the browser app from
        NO_COLOR          any non-empty value turns colours off
      """,
    version: TunnelVersion.line,
    subcommands: [
      Antipode.self, Where.self, Find.self, Dig.self, Pairs.self, Batch.self, MapCommand.self, Play.self,
      Serve.self,
    ],
    defaultSubcommand: Antipode.self
  )

  /// The subcommands' names, as typed, in the order `tunnel --help` lists them. Kept by hand: asking the
  /// parser's configuration for them makes every command's metadata, a tenth of a single query's start-up;
  /// a test holds the list against the parser's own (`tunnel --experimental-dump-help`).
  static let commandNames = ["antipode", "where", "find", "dig", "pairs", "batch", "map", "play", "serve"]

  /// `tunnel where` with nothing but words after it, answered without the argument parser: its reflection
  /// over every command and option is half of a single query's start-up. The words and defaults are
  /// those the parser gives (a test compares the two); anything else — an option, help, another command —
  /// goes through ``parseAsRoot(_:)``.
  static func singleCommand(_ arguments: [String]) throws -> WhereRequest? {
    guard arguments.count > 1, arguments[0] == "where",
      arguments.dropFirst().allSatisfy({ !$0.hasPrefix("-") && $0 != "help" })
    else { return nil }
    let request = WhereRequest(text: Array(arguments.dropFirst()).joined(by: " "))
    try LocationArguments.check(request.text)
    return request
  }

  /// What `tunnel` alone prints: what it does, how to call it, a few examples, and where the rest is.
  static let shortUsage = """
    Tunnel: where you would come out if you dug straight through the Earth.

    Usage: tunnel <place or coordinate>        both ends of the tunnel (the command 'antipode')
           tunnel <command> [<arguments>] [<options>]

    Examples:
      tunnel Skjern
      tunnel -33.9 18.4
      tunnel where "https://www.openstreetmap.org/#map=12/56.55/8.32"
      tunnel find Springfield
      tunnel play

    Commands: \(commandNames.joined(by: ", "))
    See 'tunnel --help' for everything, and 'tunnel <command> --help' for one command.

    """

  /// Parses the command line, runs the command, and turns every error into one line on standard error.
  static func main() async {
    if CommandLine.arguments.count == 1, isatty(STDIN_FILENO) == 1 {
      // Nothing asked, and no lines coming on standard input: how to ask, on standard error, with the
      // status of a usage mistake.
      StandardError.write(shortUsage)
      Glibc.exit(ExitStatus.usage.code)
    }
    let arguments: [String]
    do {
      let (color, rest) = try CommandLineRewriting.colorOption(Array(CommandLine.arguments.dropFirst()))
      ColorChoice.current = color
      if rest.first == "serve" || rest == ["help", "serve"] {
        // The server is a program of its own: it gets the words after `serve` as they came.
        do {
          try ServeHandover.run(rest.first == "serve" ? Array(rest.dropFirst()) : ["--help"])
        } catch {
          fail("tunnel: \(error.message)", code: error.exitCode)
        }
      }
      arguments = try CommandLineRewriting.rewritten(rest)
    } catch {
      fail("tunnel: \(error.message)", status: .usage)
    }
    // The command a mistake is about: the one named, else the default one (whose options they are).
    let named = arguments.first.map(CommandLineRewriting.commands.contains) ?? false
    let command = named ? arguments.first : arguments.first == "help" ? nil : "antipode"
    do {
      if let single = try singleCommand(arguments) {
        try single.run(exiting: true)
        return
      }
    } catch {
      CommandRunner.end(error, root: self, mistakesAbout: command, fromParser: false)
    }
    await CommandRunner.run(self, parsing: CommandLineWords.collapsed(arguments), mistakesAbout: command)
  }

  /// Writes `line` to standard error and exits with `status`. A standard error that cannot be written
  /// leaves the status alone to tell.
  static func fail(_ line: String, status: ExitStatus) -> Never {
    fail(line, code: status.code)
  }

  /// Writes `line` to standard error and exits with `code`, a status already reduced to its number
  /// (a ``CommandFailure``'s, or the parser's).
  static func fail(_ line: String, code: Int32) -> Never {
    StandardError.fail(line, status: code)
  }
}
