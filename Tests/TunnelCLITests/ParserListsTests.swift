import Foundation
import Testing
import TunnelCommandLine

@testable import tunnel

/// The lists of commands and options that `tunnel` keeps by hand, so that a single query starts without
/// the parser's reflection, held against what the parser itself says of the commands
/// (`tunnel --experimental-dump-help`).
@Suite struct ParserListsTests {
  /// One command as the parser describes it: its name and its arguments' names and kinds.
  struct Command {
    var name: String
    /// Each argument's kind ("option", "flag", "positional"), names as typed, and whether it repeats.
    var arguments: [(kind: String, names: [String], repeats: Bool)]
  }

  /// The subcommands of `tunnel`, from its own dump of its help.
  static func commands() throws -> [Command] {
    let result = try TunnelProcess.run(["--experimental-dump-help"])
    #expect(result.status == 0, "\(result.standardError)")
    let dump = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    let root = try #require(dump["command"] as? [String: Any])
    let subcommands = try #require(root["subcommands"] as? [[String: Any]])
    return subcommands.map { command in
      let arguments = (command["arguments"] as? [[String: Any]] ?? []).map { argument in
        let names = (argument["names"] as? [[String: Any]] ?? []).compactMap { name -> String? in
          guard let text = name["name"] as? String else { return nil }
          switch name["kind"] as? String {
          case "long": return "--" + text
          case "short": return "-" + text
          default: return nil  // `-help` of the help command, which Tunnel does not take
          }
        }
        return (
          kind: argument["kind"] as? String ?? "", names: names,
          repeats: argument["isRepeating"] as? Bool ?? false
        )
      }
      return Command(name: command["commandName"] as? String ?? "", arguments: arguments)
    }
  }

  @Test("The commands are the parser's")
  func commandNames() throws {
    let named = try Self.commands().map(\.name).filter { $0 != "help" }
    #expect(Tunnel.commandNames == named)
  }

  @Test("The options that take a value, and those that stand alone, are the parser's")
  func options() throws {
    let arguments = try Self.commands().flatMap(\.arguments)
    let options = Set(arguments.filter { $0.kind == "option" }.flatMap(\.names))
    let flags = Set(arguments.filter { $0.kind == "flag" }.flatMap(\.names))
    // The parser's own options, which its dump does not list.
    #expect(CommandLineRewriting.valueOptions == options.union(["--generate-completion-script"]))
    #expect(CommandLineRewriting.flags == flags.union(["--experimental-dump-help"]))
  }

  @Test("The commands whose words are collapsed are those whose one positional argument is a list")
  func wordCommands() throws {
    let listing = try Self.commands().filter { command in
      let positional = command.arguments.filter { $0.kind == "positional" }
      // serve's words go to tunnel-serve as they came, before any are collapsed.
      return command.name != "help" && command.name != "serve" && positional.count == 1
        && positional[0].repeats
    }
    #expect(CommandLineWords.commands == Set(listing.map(\.name)))
  }

  @Test("The options the batch's messages name are the batch's")
  func batchOptionNames() throws {
    let batch = try #require(try Self.commands().first { $0.name == "batch" })
    let options = Set(batch.arguments.flatMap(\.names))
    let named = Tunnel.Batch.columnOptions
    #expect(options.isSuperset(of: [named.latitude, named.longitude, named.coordinate]))
    let jsonLines = named.jsonLines.split(separator: " ")
    #expect(jsonLines == ["--format", "jsonl"] && options.contains("--format"))
  }

  @Test("--help lists the exit statuses ExitStatus names")
  func exitStatuses() throws {
    let result = try TunnelProcess.run(["--help"])
    #expect(result.status == ExitStatus.success.code)
    let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
    let start = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "EXIT STATUS:" })
    let listed = lines[(start + 1)...].prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
      .compactMap { Int32($0.split(separator: " ").first ?? "") }
    #expect(listed == ExitStatus.named.map(\.code))
  }
}
