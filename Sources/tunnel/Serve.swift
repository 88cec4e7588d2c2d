import ArgumentParser
import TunnelCommandLine
import TunnelGeo

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#endif

extension Tunnel {
  /// `tunnel serve`: runs `tunnel-serve`, installed beside `tunnel`, with the words that follow.
  ///
  /// The server is a program of its own so that `tunnel` carries no HTTP stack, the way `swift build` runs
  /// `swift-build`. ``Tunnel/main()`` hands over before parsing (``ServeHandover``); this command is what
  /// `tunnel --help`, the manual page and the completions list.
  struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "serve",
      abstract: ServeSummary.abstract,
      discussion: """
        The server is its own program, tunnel-serve, installed beside tunnel (Scripts/install puts both \
        in place). 'tunnel serve …' runs it with the words that follow, unchanged, and ends with its exit \
        status; 'tunnel serve --help' shows its options.
        """
    )

    @Argument(
      parsing: .captureForPassthrough,
      help: ArgumentHelp("tunnel-serve's options (see 'tunnel serve --help').", valueName: "option"))
    var options: [String] = []

    func run() throws {
      try ServeHandover.run(options)
    }
  }
}

/// Runs `tunnel-serve` in place of this process: same arguments, same standard streams and environment,
/// and its exit status is `tunnel serve`'s.
enum ServeHandover {
  /// The folders `tunnel-serve` is looked for in, in order: the folder of the path `tunnel` was run by
  /// (so that a link to `tunnel` finds the `tunnel-serve` beside the link), then the folder of the file
  /// the process runs (so that a link finds the one beside the real `tunnel`).
  static func folders(
    invokedAs argument: String = CommandLine.arguments.first ?? "", executable: String? = runningExecutable()
  ) -> [String] {
    var folders: [String] = []
    if argument.contains("/") { folders.append(parent(of: argument)) }
    if let executable { folders.append(parent(of: executable)) }
    var seen = Set<String>()
    return folders.filter { seen.insert($0).inserted }
  }

  /// Execs `tunnel-serve` with `arguments`; returns only by throwing, when there is none to run.
  static func run(_ arguments: [String]) throws(CommandFailure) -> Never {
    let folders = folders()
    guard
      let path = folders.map({ $0 + "/" + ServeSummary.executableName }).first(where: {
        access($0, X_OK) == 0
      })
    else {
      let places = folders.map { EchoedText.quoted($0, limit: 200) }.joined(separator: " or ")
      throw CommandFailure(
        message:
          "serve is run by \(ServeSummary.executableName), which is not installed beside tunnel (looked in "
          + "\(places.isEmpty ? "no folder" : places)); install both with Scripts/install, or build it with "
          + "'swift build --package-path Server --product \(ServeSummary.executableName)' and put it there",
        status: .unavailable)
    }
    let words = [path] + arguments
    var pointers = words.map { strdup($0) }
    pointers.append(nil)
    execv(path, pointers)
    let reason = String(cString: strerror(errno))
    throw CommandFailure(message: "cannot run \(EchoedText.quoted(path)): \(reason)", status: .unavailable)
  }

  /// The file this process runs, with links resolved (nil if the system does not say).
  static func runningExecutable() -> String? {
    guard let resolved = realpath("/proc/self/exe", nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// The folder holding `path`: "/usr/bin" for "/usr/bin/tunnel", "." for "tunnel", "/" for "/tunnel".
  static func parent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }
}
