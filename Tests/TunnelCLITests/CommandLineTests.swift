import Foundation
import Testing

/// Options before the command, negative option values, unknown options and commands.
@Suite struct CommandLineTests {
  @Test("Options may come before the command, which then runs")
  func optionsBeforeTheCommand() throws {
    let json = try TunnelProcess.run(["--format", "json", "find", "Paris", "--limit", "1"])
    #expect(json.status == 0, "\(json.standardError)")
    let places = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]]
    #expect(places?.first?["countryCode"] as? String == "FR")
    let placemark = try TunnelProcess.run(["--format", "json", "where", "56", "8.5"])
    #expect(placemark.status == 0, "\(placemark.standardError)")
    #expect(placemark.standardOutput.contains("\"timeZone\""))
  }

  @Test(
    "Negative option values reach the option as typed; unknown options and commands are named",
    arguments: [
      (["--data", "-5", "56", "8"], Int32(66), "tunnel: place data not found; looked in -5"),
      (["find", "--limit", "-1", "Paris"], 64, "tunnel: --limit must be at least 1, not -1"),
      (["--bogus"], 64, "tunnel: there is no option '--bogus'; see 'tunnel --help' for the options"),
      (["where", "-x", "56", "8"], 64, "tunnel: there is no option '-x'"),
      (
        ["help", "bogus"], 64,
        "tunnel: there is no command 'bogus'; the commands are antipode, batch, dig, find, map, pairs, play, serve, where"
      ),
      (["help", "bogus\u{1B}[31m"], 64, "tunnel: there is no command 'bogus\\u{1B}[31m'"),
    ])
  func mistakes(arguments: [String], status: Int32, prefix: String) throws {
    let result = try TunnelProcess.run(arguments)
    #expect(result.status == status, "\(arguments): \(result.standardError)")
    #expect(result.standardError.hasPrefix(prefix), "\(arguments): \(result.standardError)")
    #expect(!result.standardError.contains("\u{2212}"))
  }

  @Test(
    "Echoed input is quoted, escaped and shortened",
    arguments: ["Paris\u{1B}[31mRED", "Par\u{202E}is", "56\n8x", String(repeating: "x", count: 100_000)])
  func echoedInput(text: String) throws {
    let result = try TunnelProcess.run(["where", text])
    #expect(result.status == 64)
    let message = result.standardError
    #expect(message.hasPrefix("tunnel: ") && message.hasSuffix("\n"))
    #expect(message.dropLast().allSatisfy { !$0.isNewline }, "one line: \(message)")
    #expect(!message.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E })
    #expect(message.count < 300, "\(message.count) characters")
  }

  @Test("help with a command prints that command's help")
  func helpForACommand() throws {
    let result = try TunnelProcess.run(["help", "where"])
    #expect(result.status == 0)
    #expect(result.standardOutput.hasPrefix("OVERVIEW: Say where a point is"))
  }

  @Test("Silent wrong answers, now right: a letter against the next number, -180 not 180, France")
  func rightAnswers() throws {
    let letter = try TunnelProcess.run(["where", "33.9 E18.4"])
    #expect(
      letter.standardOutput.split(separator: "\n").dropFirst().first
        == "      33.900000, 18.400000   33°54′00.0″N 18°24′00.0″E")
    let antimeridian = try TunnelProcess.run(["0", "179.9999999"])
    #expect(antimeridian.standardOutput.contains("0.000000, -180.000000"))
    #expect(
      antimeridian.standardOutput.components(separatedBy: "180.000000").dropLast().allSatisfy {
        $0.hasSuffix("-")
      })
    let paris = try TunnelProcess.run(["Paris, FR"])
    #expect(paris.standardOutput.hasPrefix("From  Paris, Île-de-France, France"))
    let pole = try TunnelProcess.run(["where", "90", "0"])
    #expect(
      pole.standardOutput.contains("Nearest land   707.9 km away, Greenland\n"), "\(pole.standardOutput)")
    let exponent = try TunnelProcess.run(["where", "1e-7", "1e-7"])
    #expect(exponent.status == 0, "\(exponent.standardError)")
  }
}
