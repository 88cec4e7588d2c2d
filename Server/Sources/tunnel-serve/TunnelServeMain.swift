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
    await CommandRunner.run(
      Serve.self, parsing: Array(CommandLine.arguments.dropFirst()), mistakesAbout: "serve")
  }
}
