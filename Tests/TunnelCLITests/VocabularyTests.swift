import Foundation
import Testing

/// One vocabulary across the commands: the same formats, the same column for the same thing, and
/// `--precision` that never rounds kilometres away.
@Suite struct VocabularyTests {
  @Test(
    "Every command that prints results takes the same --format set",
    arguments: [
      ["antipode", "Skjern"], ["where", "Skjern"], ["find", "Skjern"], ["dig", "Skjern", "Wellington"],
      ["map", "Skjern", "--width", "40", "--height", "12"],
    ])
  func formats(arguments: [String]) throws {
    for format in ["text", "json", "jsonl", "csv", "geojson"] {
      let result = try TunnelProcess.run(arguments + ["--format", format])
      #expect(result.status == 0, "\(arguments) \(format): \(result.standardError)")
      #expect(!result.standardOutput.isEmpty)
      if format == "json" || format == "geojson" {
        #expect(
          (try? JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))) != nil,
          "\(arguments) \(format)")
      }
    }
    let pairs = try TunnelProcess.run(["pairs", "--min-population", "500000", "--format", "csv"])
    #expect(pairs.status == 0)
  }

  @Test("The same thing has the same column: country_code in where, find and pairs; snake case in CSV")
  func columns() throws {
    let whereHeader = try TunnelProcess.run(["where", "Skjern", "--format", "csv"]).standardOutput
      .prefix { $0 != "\n" }
    let findHeader = try TunnelProcess.run(["find", "Skjern", "--format", "csv"]).standardOutput
      .prefix { $0 != "\n" }
    let pairsHeader = try TunnelProcess.run(["pairs", "--min-population", "500000", "--format", "csv"])
      .standardOutput.prefix { $0 != "\n" }
    let antipodeHeader = try TunnelProcess.run(["antipode", "Skjern", "--format", "csv"]).standardOutput
      .prefix { $0 != "\n" }
    let digHeader = try TunnelProcess.run(["dig", "Skjern", "Wellington", "--format", "csv"]).standardOutput
      .prefix { $0 != "\n" }
    #expect(whereHeader.contains("country_code,country_name,country_disputed,region_code,region_name"))
    #expect(findHeader == "name,country_code,region_name,latitude,longitude,population")
    #expect(pairsHeader.contains("country_code_1") && pairsHeader.contains("country_code_2"))
    #expect(antipodeHeader.hasPrefix("latitude,longitude,surface_distance_km,through_earth_km,"))
    #expect(digHeader.hasPrefix("from_latitude,from_longitude,from_name,to_latitude"))
    for header in [whereHeader, findHeader, pairsHeader, antipodeHeader, digHeader] {
      let upper = header.contains { $0.isUppercase }
      #expect(!upper, "\(header)")
    }
    // JSON rows keep JSON's camel case.
    let jsonl = try TunnelProcess.run(["antipode", "Skjern", "--format", "jsonl"]).standardOutput
    #expect(jsonl.contains("\"surfaceDistanceKm\":") && !jsonl.contains("surface_distance_km"))
  }

  @Test("--precision rounds kilometres to three decimals fewer than degrees, and never to whole kilometres")
  func kilometres() throws {
    for precision in ["0", "1", "3"] {
      let csv = try TunnelProcess.run(["where", "56", "8.5", "--precision", precision, "--format", "csv"])
      let lines = csv.standardOutput.split(separator: "\n")
      let header = lines[0].split(separator: ",", omittingEmptySubsequences: false)
      let row = lines[1].split(separator: ",", omittingEmptySubsequences: false)
      let column = try #require(header.firstIndex(of: "nearest_place_km"))
      #expect(row[column] == "5.6", "--precision \(precision): \(row)")
      let json = try TunnelProcess.run([
        "antipode", "56", "8.5", "--precision", precision, "--format", "json",
      ])
      #expect(json.standardOutput.contains("\"surfaceDistanceKm\" : 20003.9"), "\(json.standardOutput)")
    }
    let six = try TunnelProcess.run(["where", "56", "8.5", "--precision", "6", "--format", "csv"])
    #expect(six.standardOutput.contains(",5.56,"))  // 5.559754 to three decimals, its last zero not written
  }
}
