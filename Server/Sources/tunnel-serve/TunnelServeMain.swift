import ArgumentParser
import Foundation
import TunnelCommandLine

/// `tunnel-serve`: the HTTP server, run by `tunnel serve` with the words after `serve`, or on its own.
///
/// Its mistakes and failures read as `tunnel`'s do: one line on standard error, `tunnel: …`, and the
/// same exit statuses.
@main
enum TunnelServeMain {
  static func main() async {
    let arguments = Array(CommandLine.arguments.dropFirst())
    do {
      var command: ParsableCommand
      do {
        command = try Serve.parseAsRoot(arguments)
      } catch {
        // Everything the parser throws is its own: a mistake it found, or help asked for.
        failOrAnswer(error, fromParser: true)
      }
      try command.checked()
      if var asynchronous = command as? AsyncParsableCommand {
        try await asynchronous.run()
      } else {
        try command.run()
      }
    } catch let failure as CommandFailure {
      fail("tunnel: \(failure.message)", status: failure.exitCode)
    } catch {
      // The command's own mistake (a `ValidationError` from its check), or another error.
      failOrAnswer(error, fromParser: false)
    }
  }

  /// Help and the version on standard output with success; a mistake as one line on standard error.
  static func failOrAnswer(_ error: any Error, fromParser: Bool) -> Never {
    let code = Serve.exitCode(for: error)
    if code == .success {
      do {
        try OutputFile.print(Serve.fullMessage(for: error) + "\n")
      } catch {
        let failure = CommandFailure(error)
        fail("tunnel: \(failure.message)", status: failure.exitCode)
      }
      Foundation.exit(code.rawValue)
    }
    fail(
      UsageMessage.line(Serve.message(for: error), command: "serve", fromParser: fromParser),
      status: code.rawValue)
  }

  /// Writes `line` to standard error and exits with `status`.
  static func fail(_ line: String, status: Int32) -> Never {
    StandardError.fail(line, status: status)
  }
}
