import Foundation
import Testing

@Suite struct DigCommandTests {
  @Test("Two places: both ends, both distances, the deepest point and the falls")
  func twoPlaces() throws {
    let result = try TunnelProcess.run(["dig", "Skjern", "Wellington"])
    #expect(result.status == 0, "\(result.standardError)")
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.first == "From  Skjern, Midtjylland, Denmark (population 7,145)")
    #expect(lines.contains { $0.hasPrefix("To    Wellington, ") && $0.contains("New Zealand") })
    #expect(lines.contains("Deepest point       5,419 km down, below 34.721698, 142.529647"))
    #expect(
      lines.last == "Fall through it     42 min 10 s on a uniform Earth, 38 min 17 s with PREM's densities")
  }

  @Test(
    "The ends may be quoted coordinates, or separated by 'to'",
    arguments: [
      ["56 8.5", "-41.3 174.8"], ["56", "8.5", "to", "-41.3", "174.8"], ["56,8.5", "-41.3,174.8"],
    ])
  func notations(arguments: [String]) throws {
    let result = try TunnelProcess.run(["dig"] + arguments + ["--format", "json"])
    #expect(result.status == 0, "\(arguments): \(result.standardError)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    #expect((json["from"] as? [String: Any])?["latitude"] as? Double == 56)
    #expect((json["to"] as? [String: Any])?["longitude"] as? Double == 174.8)
    #expect(abs((json["throughEarthKm"] as? Double ?? 0) - 12_588.842604) < 1e-6)
    let tunnel = try #require(json["tunnel"] as? [String: Any])
    let fall = try #require(tunnel["fallSeconds"] as? [String: Double])
    #expect(fall["uniform"] == 2530.4 && fall["prem"] == 2296.8)
  }

  @Test("One end only, or 'to' twice, is a plain usage error")
  func oneEnd() throws {
    for arguments in [["dig", "Skjern"], ["dig", "a", "to", "b", "to", "c"], ["dig"]] {
      let result = try TunnelProcess.run(arguments)
      #expect(result.status == 64)
      #expect(result.standardError.hasPrefix("tunnel: give the two ends of the tunnel"), "\(arguments)")
    }
  }
}
