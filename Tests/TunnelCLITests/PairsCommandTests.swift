import Foundation
import Testing

@Suite struct PairsCommandTests {
  let arguments = ["pairs", "--min-population", "100000", "--within", "20"]

  @Test("The famous pairs fall out, closest first")
  func famousPairs() throws {
    let result = try TunnelProcess.run(arguments)
    #expect(result.status == 0, "\(result.standardError)")
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    #expect(
      lines.contains { $0.contains("Hamilton, NZ (192,100)") && $0.contains("↔   Córdoba, ES (325,708)") })
    let distances = lines.compactMap { Double($0.split(separator: " ").first ?? "") }
    #expect(distances.count == lines.count && distances == distances.sorted())
    #expect(distances.allSatisfy { $0 <= 20 })
    let wider = try TunnelProcess.run(["pairs", "--within", "15"])
    #expect(wider.standardOutput.contains("Gálvez, AR") && wider.standardOutput.contains("Nanjing, CN"))
    #expect(
      wider.standardOutput.contains("Puerto Natales, CL") && wider.standardOutput.contains("Ulan-Ude, RU"))
  }

  @Test("Every format holds the same pairs: JSON, JSON Lines, CSV and GeoJSON (longitude first)")
  func formats() throws {
    func run(_ format: String) throws -> String {
      let result = try TunnelProcess.run(arguments + ["--format", format])
      #expect(result.status == 0, "\(format): \(result.standardError)")
      return result.standardOutput
    }
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(run("json").utf8)) as? [[String: Any]])
    #expect(json.count > 5)
    let lines = try run("jsonl").split(separator: "\n")
    #expect(lines.count == json.count)
    for line in lines { #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any]) }
    let csv = try run("csv").split(separator: "\n")
    #expect(csv.first?.hasPrefix("distance_km,name_1,country_code_1") == true && csv.count == json.count + 1)
    let geojson = try #require(
      try JSONSerialization.jsonObject(with: Data(run("geojson").utf8)) as? [String: Any])
    let features = try #require(geojson["features"] as? [[String: Any]])
    #expect(geojson["type"] as? String == "FeatureCollection" && features.count == json.count)
    let first = try #require(json.first?["first"] as? [String: Any])
    let geometry = try #require(features.first?["geometry"] as? [String: Any])
    let points = try #require(geometry["coordinates"] as? [[Double]])
    #expect(points.first == [first["longitude"] as? Double ?? .nan, first["latitude"] as? Double ?? .nan])
  }

  @Test(
    "Bad options are plain usage errors",
    arguments: [["--within", "-1"], ["--within", "nan"], ["--min-population", "-5"], ["--format", "xml"]])
  func badOptions(options: [String]) throws {
    let result = try TunnelProcess.run(["pairs"] + options)
    #expect(result.status == 64, "\(options): \(result.standardError)")
    #expect(
      result.standardError.hasPrefix("tunnel: ") && result.standardError.split(separator: "\n").count == 1)
  }
}
