import ArgumentParser
import TunnelGeo

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

/// How `tunnel` and `tunnel-serve` run what they were given, and how they end when it fails: the one place
/// where an error becomes a line on standard error and an ``ExitStatus``.
///
/// Everything the parser throws is its own (a mistake it found, or help asked for); a command's own
/// mistakes come from its ``CheckedCommand/check()`` or its run, already in the command line's words.
///
/// ```swift
/// await CommandRunner.run(Tunnel.self, parsing: ["find", "--limit", "0", "Paris"], mistakesAbout: "find")
/// // tunnel: --limit must be at least 1, not 0        and the status is 64
/// ```
public enum CommandRunner {
  /// Parses `words` with `root`, checks and runs the command, and returns when it is done; any error ends
  /// the process (``end(_:root:mistakesAbout:fromParser:)``). `command` is the command a usage mistake is
  /// about, for "see 'tunnel <command> --help'" (nil for the root command).
  public static func run(
    _ root: any ParsableCommand.Type, parsing words: [String], mistakesAbout command: String?
  )
    async
  {
    let parsed: any ParsableCommand
    do {
      parsed = try root.parseAsRoot(words)
    } catch {
      end(error, root: root, mistakesAbout: command, fromParser: true)
    }
    do {
      try parsed.checked()
      if var asynchronous = parsed as? AsyncParsableCommand {
        try await asynchronous.run()
      } else {
        var synchronous = parsed
        try synchronous.run()
      }
    } catch {
      end(error, root: root, mistakesAbout: command, fromParser: false)
    }
  }

  /// Ends the process for `error`: a ``CommandFailure``, an ``OutputError`` or a `ProjectionError` as one
  /// line with its own status; help, the version and completion scripts on standard output with success;
  /// anything else as a usage mistake (``UsageMessage/line(_:command:fromParser:)``), `fromParser` when
  /// the parser found it.
  public static func end(
    _ error: any Error, root: any ParsableCommand.Type, mistakesAbout command: String?, fromParser: Bool
  ) -> Never {
    switch error {
    case let failure as CommandFailure:
      fail(failure)
    case let failure as OutputError:
      fail(CommandFailure(failure))
    case let failure as ProjectionError:
      fail(CommandFailure(failure))
    default:
      break
    }
    let code = root.exitCode(for: error)
    if code == .success {
      // --help, --version and completion scripts are what was asked for: standard output, checked.
      do {
        try OutputFile.print(root.fullMessage(for: error) + "\n")
      } catch {
        fail(CommandFailure(error))
      }
      exit(code.rawValue)
    }
    StandardError.fail(
      UsageMessage.line(root.message(for: error), command: command, fromParser: fromParser),
      status: code.rawValue)
  }

  /// Says `failure` in one line, `tunnel: …`, and exits with its status.
  public static func fail(_ failure: CommandFailure) -> Never {
    StandardError.fail("tunnel: \(failure.message)", status: failure.exitCode)
  }
}
