import Foundation
import Testing

@Suite struct AntipodeCommandTests {
  @Test func printsBothEndsAndDistances() throws {
    let result = try TunnelProcess.run(["56.55", "8.316667"])
    #expect(result.status == 0)
    #expect(result.standardError.isEmpty)
    #expect(
      result.standardOutput == """
        From  56.550000, 8.316667       56°33′00.0″N 8°19′00.0″E
        To    -56.550000, -171.683333   56°33′00.0″S 171°41′00.0″W

        Along the surface   20,003.93 km
        Through the Earth   12,726.58 km

        """)
  }

  @Test(arguments: [
    ["-33.9", "18.4"],
    ["antipode", "-33.9", "18.4"],
    ["-33.9,18.4"],
    ["-33.9", ",", "18.4"],
    ["33.9S", "18.4E"],
    ["33°54′S", "18°24′E"],
    ["-335400+0182400/"],
    ["geo:-33.9,18.4"],
    ["--format", "text", "-33.9", "18.4"],
    ["-33.9", "18.4", "--format", "text"],
  ])
  func readsEveryNotationWithoutQuotingNegatives(arguments: [String]) throws {
    let result = try TunnelProcess.run(arguments)
    #expect(result.status == 0, "\(arguments): \(result.standardError)")
    #expect(result.standardOutput.hasPrefix("From  -33.900000, 18.400000"), "\(result.standardOutput)")
    #expect(result.standardOutput.contains("To    33.900000, -161.600000"))
  }

  @Test func antipodeWithTwoNegatives() throws {
    let result = try TunnelProcess.run(["antipode", "-33.9", "-70.6"])
    #expect(result.status == 0)
    #expect(result.standardOutput.contains("To    33.900000, 109.400000"))
  }

  @Test func json() throws {
    let result = try TunnelProcess.run(["-33.9", "18.4", "--format", "json"])
    #expect(result.status == 0)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    #expect(Set(object.keys) == ["from", "to", "surfaceDistanceKm", "throughEarthKm"])
    let from = try #require(object["from"] as? [String: Double])
    let to = try #require(object["to"] as? [String: Double])
    #expect(from == ["latitude": -33.9, "longitude": 18.4])
    #expect(to == ["latitude": 33.9, "longitude": -161.6])
    #expect(object["surfaceDistanceKm"] as? Double == 20_003.931459)
    let through = try #require(object["throughEarthKm"] as? Double)
    #expect(through > 12_713 && through < 12_757)
  }

  @Test(arguments: [
    (["91", "0"], "tunnel: latitude 91 is outside -90…90\n"),
    (["0", "200"], "tunnel: longitude 200 is outside -180…180\n"),
    (
      ["56,abc"],
      "tunnel: cannot read '56,abc' as a coordinate: 'abc' is not a number; write it as e.g. '56.55 8.32' or '56°33′N 8°19′E'\n"
    ),
    ([], "tunnel: give a coordinate to dig from, e.g. 'tunnel 56.55 8.32'\n"),
    (["antipode"], "tunnel: give a coordinate to dig from, e.g. 'tunnel 56.55 8.32'\n"),
    (
      ["56", "8", "--format", "xml"],
      "tunnel: The value 'xml' is invalid for '--format <format>'. Please provide one of 'text' and 'json'.\n"
    ),
    (["56", "8", "--bogus"], "tunnel: Unknown option '--bogus'\n"),
  ])
  func badInputIsOnePlainLineAndExit64(arguments: [String], expected: String) throws {
    let result = try TunnelProcess.run(arguments)
    #expect(result.status == 64)
    #expect(result.standardOutput.isEmpty)
    #expect(result.standardError == expected)
  }

  @Test func helpGoesToStandardOutput() throws {
    let result = try TunnelProcess.run(["--help"])
    #expect(result.status == 0)
    #expect(result.standardError.isEmpty)
    #expect(
      result.standardOutput.contains(
        "OVERVIEW: Find where you would come out if you dug straight through the Earth."))
    #expect(result.standardOutput.contains("antipode (default)"))
    let subcommand = try TunnelProcess.run(["antipode", "--help"])
    #expect(subcommand.status == 0)
    #expect(subcommand.standardOutput.contains("--format <format>"))
  }
}
