import Foundation
import Testing

@testable import tunnel

/// `tunnel where` with plain words skips the argument parser: it must mean exactly what the parser
/// would make of the same words.
@Suite struct SingleCommandTests {
  @Test(
    "Plain words give the request the parser gives",
    arguments: [
      ["where", "56", "8.5"], ["where", "Skjern"], ["where", "33°54′S", "18°24′E"],
      ["where", "\u{2212}33.9", "18.4"],
      ["where", "Springfield,", "IL"], ["where", "geo:56,8.5"], ["where", "+5633+00819/"],
    ])
  func plainWords(arguments: [String]) throws {
    let fast = try #require(try Tunnel.singleCommand(arguments))
    let parsed = try #require(try Tunnel.parseAsRoot(arguments) as? Tunnel.Where)
    #expect(fast == parsed.request)
  }

  @Test(
    "Options, help, other commands and nothing at all go through the parser",
    arguments: [
      ["where", "56", "8.5", "--format", "json"], ["where", "--help"], ["where", "help"], ["where"],
      ["antipode", "56", "8.5"], ["56", "8.5"], ["where", "56", "--", "8.5"], ["where", "-h"],
    ])
  func notPlain(arguments: [String]) throws {
    #expect(try Tunnel.singleCommand(arguments) == nil)
  }

  @Test("Blank words are refused as the parser refuses them")
  func blankWords() {
    #expect(throws: (any Error).self) { try Tunnel.singleCommand(["where", " ", "  "]) }
  }

  @Test("The whole process prints the same either way")
  func sameOutput() throws {
    let fast = try TunnelProcess.run(["where", "56", "8.5"])
    let parsed = try TunnelProcess.run(["where", "56", "8.5", "--format", "text"])
    #expect(fast.status == 0 && parsed.status == 0)
    #expect(fast.standardOutput == parsed.standardOutput && !fast.standardOutput.isEmpty)
    let blank = try TunnelProcess.run(["where", " "])
    #expect(blank.status == 64)
    #expect(blank.standardError.hasPrefix("tunnel: give a place or a coordinate"))
  }
}
