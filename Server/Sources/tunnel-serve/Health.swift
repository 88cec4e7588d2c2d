import ArgumentParser
import TunnelCommandLine
import TunnelServer

extension Serve {
  /// `tunnel serve health`: whether a running server answers, as an exit status, for a container's
  /// `HEALTHCHECK` or a service manager, with no HTTP client installed.
  struct Health: ParsableCommand, CheckedCommand {
    static let configuration = CommandConfiguration(
      commandName: "health",
      abstract: "Checks that a running tunnel serve answers.",
      discussion: """
        Asks the server at the URL for /status and exits 0 when it answers 200 with OK, printing that \
        line; otherwise exits 1 with one line on standard error that says why (the connection refused, \
        no answer within --timeout, another status). Plain HTTP only. In a Dockerfile: \
        HEALTHCHECK CMD ["tunnel-serve", "health"].
        """
    )

    @Argument(
      help: ArgumentHelp(
        "The server's address, as its 'listening on' line gives it (a path after it is a prefix).",
        valueName: "url"))
    var url = HealthCheck.defaultURL

    @Option(help: ArgumentHelp("Seconds the check may take, connecting included.", valueName: "seconds"))
    var timeout = 2.0

    func check() throws {
      guard timeout > 0, timeout <= 600 else {
        throw ValidationError("--timeout must be above 0 and at most 600 seconds")
      }
      do {
        _ = try HealthCheck(url: url, timeout: timeout)
      } catch {
        throw ValidationError(error.description)
      }
    }

    func run() throws {
      do {
        let check = try HealthCheck(url: url, timeout: timeout)
        try check.run()
        try OutputFile.print("\(check.statusURL): OK\n")
      } catch let error as HealthCheckError {
        throw CommandFailure(message: error.description, status: .failure)
      }
    }
  }
}
