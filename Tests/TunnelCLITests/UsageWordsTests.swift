import Foundation
import Testing

@testable import tunnel

/// The words of usage: the parser's mistakes said in Tunnel's style, help that reads as written,
/// `help help`, and many words taken in linear time.
@Suite struct UsageWordsTests {
  @Test(
    "swift-argument-parser's own mistakes are one line in Tunnel's style, saying where to read more",
    arguments: [
      (
        ["find", "Paris", "--limit"], "tunnel: missing value for '--limit <limit>'; see 'tunnel find --help'"
      ),
      (["pairs", "x"], "tunnel: unexpected argument 'x'; see 'tunnel pairs --help'"),
      (
        ["pairs", "x\u{1B}[31m", "y"],
        "tunnel: 2 unexpected arguments: 'x\\u{1B}[31m', 'y'; see 'tunnel pairs --help'"
      ),
      (
        ["map", "--view", "sideways"],
        "tunnel: the value 'sideways' is invalid for '--view <view>'; please provide one of 'map' and 'geocode'; see 'tunnel map --help'"
      ),
      (
        ["--format"],
        "tunnel: missing value for '--format <text|json|jsonl|csv|geojson>'; see 'tunnel antipode --help'"
      ),
    ])
  func parserMistakes(arguments: [String], expected: String) throws {
    let result = try TunnelProcess.run(arguments)
    #expect(result.status == 64)
    #expect(result.standardError == expected + "\n", "\(arguments)")
  }

  @Test("A command's own checks are said as written, without a hint added")
  func ownChecks() throws {
    let result = try TunnelProcess.run(["find", "Paris", "--limit", "0"])
    #expect(result.status == 64)
    #expect(result.standardError == "tunnel: --limit must be at least 1, not 0\n")
  }

  @Test("tunnel help help says how to use help")
  func helpHelp() throws {
    let result = try TunnelProcess.run(["help", "help"])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("USAGE: tunnel help"))
  }

  @Test(
    "No help text shows a stray backslash at the end of a line",
    // serve's help is tunnel-serve's, checked in Server/Tests/TunnelServeTests.
    arguments: [["--help"]]
      + CommandLineRewriting.commands.sorted().filter { $0 != "serve" }.map { [$0, "--help"] })
  func noStrayBackslash(arguments: [String]) throws {
    let result = try TunnelProcess.run(arguments)
    #expect(result.status == 0)
    let lines = result.standardOutput.split(separator: "\n")
    #expect(!lines.contains { $0.hasSuffix("\\") }, "\(arguments)")
  }

  @Test("Runs of words reach the parser as single arguments and come back whole")
  func collapsedWords() throws {
    let arguments = ["dig", "56", "8.5", "--format", "json", "to", "-", "--", "x", "y"]
    #expect(
      CommandLineWords.collapsed(arguments) == [
        "dig", "56\u{0}8.5", "--format", "json", "to\u{0}-", "--", "x", "y",
      ])
    #expect(CommandLineWords.collapsed(["56", "8.5", "--data", "d"]) == ["56\u{0}8.5", "--data", "d"])
    #expect(CommandLineWords.collapsed(["batch", "a", "b"]) == ["batch", "a", "b"])
    #expect(CommandLineWords.collapsed(["help", "find", "x"]) == ["help", "find", "x"])
    #expect(CommandLineWords.expanded(["56\u{0}8.5", "to\u{0}-"]) == ["56", "8.5", "to", "-"])
    let dig = try #require(
      try Tunnel.parseAsRoot(CommandLineWords.collapsed(["dig", "56", "8.5", "to", "41.3", "174.8"]))
        as? Tunnel.Dig)
    #expect(dig.words == ["56", "8.5", "to", "41.3", "174.8"])
  }

  /// 100,000 words: the parser, quadratic in one argument's values, would take minutes over them (40,000
  /// took 38 s), past the 60 s after which ``TunnelProcess`` ends a process.
  static let manyWords = (0..<100_000).map { "w\($0 % 10)" }

  @Test("100,000 words are parsed whole, each command getting every word")
  func manyWordsParsed() throws {
    let words = Self.manyWords
    let find = try #require(
      try Tunnel.parseAsRoot(CommandLineWords.collapsed(["find"] + words)) as? Tunnel.Find)
    #expect(find.words == words)
    let map = try #require(
      try Tunnel.parseAsRoot(CommandLineWords.collapsed(["map"] + words + ["--zoom", "2"]))
        as? Tunnel.MapCommand)
    #expect(map.words == words && map.zoom == 2)
    let dig = try #require(
      try Tunnel.parseAsRoot(CommandLineWords.collapsed(["dig"] + words + ["to", "x"])) as? Tunnel.Dig)
    #expect(dig.words.count == words.count + 2 && (try? Tunnel.Dig.ends(of: dig.words).get())?.to == "x")
  }

  @Test(
    "100,000 words on the command line reach each command, which answers at once",
    arguments: [
      (["find", "--limit", "0"], "tunnel: --limit must be at least 1"),
      (["antipode", "--precision", "99"], "tunnel: --precision must be between 0 and 15"),
      (["--precision", "99"], "tunnel: --precision must be between 0 and 15"),
      (["where", "--precision", "99"], "tunnel: --precision must be between 0 and 15"),
      (["dig", "--precision", "99"], "tunnel: --precision must be between 0 and 15"),
      (["map", "--zoom", "0"], "tunnel: --zoom must be between"),
      (["play"], "tunnel: 'tunnel play' needs a terminal"),
    ])
  func manyWordsRun(options: [String], prefix: String) throws {
    let result = try TunnelProcess.run(options + Self.manyWords)
    #expect(result.status == 64)
    #expect(result.standardError.hasPrefix(prefix), "\(options): \(result.standardError.prefix(200))")
  }
}
