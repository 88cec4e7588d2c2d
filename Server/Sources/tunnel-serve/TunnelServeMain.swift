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
      var command = try Serve.parseAsRoot(arguments)
      if var asynchronous = command as? AsyncParsableCommand {
        try await asynchronous.run()
      } else {
        try command.run()
      }
    } catch let failure as CommandFailure {
      fail("tunnel: \(failure.message)", status: failure.exitCode)
    } catch {
      let code = Serve.exitCode(for: error)
      if code == .success {
        // --help and --version are what was asked for: standard output, checked.
        do {
          try OutputFile.print(Serve.fullMessage(for: error) + "\n")
        } catch {
          let failure = CommandFailure(error)
          fail("tunnel: \(failure.message)", status: failure.exitCode)
        }
        Foundation.exit(code.rawValue)
      }
      fail(
        UsageMessage.line(
          Serve.message(for: error), command: "serve", fromParser: UsageMessage.isParsers(error)),
        status: code.rawValue)
    }
  }

  /// Writes `line` to standard error and exits with `status`.
  static func fail(_ line: String, status: Int32) -> Never {
    StandardError.fail(line, status: status)
  }
}
