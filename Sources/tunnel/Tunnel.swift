import ArgumentParser
import Foundation
import TunnelGeo
import TunnelServer

/// `tunnel`: where you would come out if you dug straight through the Earth.
@main
struct Tunnel: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tunnel",
    abstract: "Find where you would come out if you dug straight through the Earth.",
    discussion: """
      Give a place or a coordinate and Tunnel prints both ends of the tunnel, the distance between \
      them along the surface and straight through the Earth.

      Coordinates may be written as \(CoordinateError.examples). Negative numbers need no \
      quoting: 'tunnel -33.9 18.4' works.
      """,
    version: TunnelVersion.text,
    subcommands: [
      Antipode.self, Where.self, Find.self, Dig.self, Pairs.self, Batch.self, MapCommand.self, Play.self,
      Serve.self,
    ],
    defaultSubcommand: Antipode.self
  )

  /// `tunnel where` with nothing but words after it, answered without the argument parser: its reflection
  /// over every command and option is half of a single query's start-up. The words and defaults are
  /// those the parser gives (a test compares the two); anything else — an option, help, another command —
  /// goes through ``parseAsRoot(_:)``.
  static func singleCommand(_ arguments: [String]) throws -> WhereRequest? {
    guard arguments.count > 1, arguments[0] == "where",
      arguments.dropFirst().allSatisfy({ !$0.hasPrefix("-") && $0 != "help" })
    else { return nil }
    let request = WhereRequest(text: arguments.dropFirst().joined(separator: " "))
    try LocationArguments.validate(request.text)
    return request
  }

  /// Parses the command line, runs the command, and turns every error into one line on standard error.
  static func main() async {
    let arguments: [String]
    do {
      arguments = try CommandLineRewriting.rewritten(Array(CommandLine.arguments.dropFirst()))
    } catch {
      fail("tunnel: \(error.message)", status: 64)
    }
    do {
      if let single = try singleCommand(arguments) {
        try single.run()
        return
      }
      var command = try parseAsRoot(CommandLineWords.collapsed(arguments))
      if var asynchronous = command as? AsyncParsableCommand {
        try await asynchronous.run()
      } else {
        try command.run()
      }
    } catch let failure as CommandFailure {
      fail("tunnel: \(failure.message)", status: failure.exitCode)
    } catch let error as OutputError {
      let failure = CommandFailure(error)
      fail("tunnel: \(failure.message)", status: failure.exitCode)
    } catch {
      let code = exitCode(for: error)
      if code == .success {
        // --help, --version and completion scripts are what was asked for: standard output, checked.
        do {
          try OutputFile.print(fullMessage(for: error) + "\n")
        } catch {
          let failure = CommandFailure(error)
          fail("tunnel: \(failure.message)", status: failure.exitCode)
        }
        Foundation.exit(code.rawValue)
      }
      // The command the mistake is about: the one named, else the default one (whose options they are).
      let named = arguments.first.map(CommandLineRewriting.commands.contains) ?? false
      let command = named ? arguments.first : arguments.first == "help" ? nil : "antipode"
      fail(
        UsageMessage.line(
          self.message(for: error), command: command, fromParser: UsageMessage.isParsers(error)),
        status: code.rawValue)
    }
  }

  /// Writes `line` to standard error and exits with `status`. A standard error that cannot be written
  /// leaves the status alone to tell.
  static func fail(_ line: String, status: Int32) -> Never {
    StandardError.write(line + "\n")
    Foundation.exit(status)
  }
}
