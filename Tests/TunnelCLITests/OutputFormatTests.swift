import Foundation
import Testing

@Suite struct OutputFormatTests {
  @Test("where: JSON Lines holds what JSON holds, on one line; CSV a header and a row; GeoJSON a point")
  func whereFormats() throws {
    let json = try TunnelProcess.run(["where", "56", "8.5", "--format", "json"])
    let jsonl = try TunnelProcess.run(["where", "56", "8.5", "--format", "jsonl"])
    #expect(json.status == 0 && jsonl.status == 0)
    #expect(jsonl.standardOutput.split(separator: "\n").count == 1)
    let pretty = try #require(
      try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? NSDictionary)
    let line = try #require(
      try JSONSerialization.jsonObject(with: Data(jsonl.standardOutput.utf8)) as? NSDictionary)
    for key in ["country", "region", "nearestPlace", "timeZone", "sea", "nearestLand"] {
      let left = try JSONSerialization.data(withJSONObject: [pretty[key] ?? NSNull()], options: .sortedKeys)
      let right = try JSONSerialization.data(withJSONObject: [line[key] ?? NSNull()], options: .sortedKeys)
      #expect(left == right, "\(key)")
    }
    let csv = try TunnelProcess.run(["where", "56", "8.5", "--format", "csv"])
    let rows = CSVTable(csv.standardOutput).rows
    #expect(rows.count == 2 && rows[0].count == rows[1].count)
    #expect(rows[0].prefix(4) == ["latitude", "longitude", "land", "country_code"])
    #expect(rows[1].prefix(4) == ["56", "8.5", "true", "DK"])
    let geojson = try TunnelProcess.run(["antipode", "56", "8.5", "--format", "geojson"])
    let collection = try #require(
      try JSONSerialization.jsonObject(with: Data(geojson.standardOutput.utf8)) as? [String: Any])
    let feature = try #require((collection["features"] as? [[String: Any]])?.first)
    #expect((feature["geometry"] as? [String: Any])?["coordinates"] as? [Double] == [8.5, 56])
    let properties = try #require(feature["properties"] as? [String: Any])
    #expect((properties["antipode"] as? [String: Any])?["longitude"] as? Double == -171.5)
    let report = try TunnelProcess.run(["antipode", "56", "8.5", "--format", "json"])
    let reported = try #require(
      try JSONSerialization.jsonObject(with: Data(report.standardOutput.utf8)) as? [String: Any])
    #expect(properties["surfaceDistanceKm"] as? Double == reported["surfaceDistanceKm"] as? Double)
  }

  @Test("find: one row per place in CSV and JSON Lines")
  func findFormats() throws {
    let csv = try TunnelProcess.run(["find", "Paris", "--limit", "3", "--format", "csv"])
    let rows = CSVTable(csv.standardOutput).rows
    #expect(rows.first == ["name", "country_code", "region_name", "latitude", "longitude", "population"])
    #expect(rows.count == 4 && rows[1][0] == "Paris" && rows[1][1] == "FR")
    let jsonl = try TunnelProcess.run(["find", "Paris", "--limit", "3", "--format", "jsonl"])
    #expect(jsonl.standardOutput.split(separator: "\n").count == 3)
  }

  @Test("--precision sets the decimals of degrees in text and in JSON")
  func precision() throws {
    let text = try TunnelProcess.run(["where", "56.123456789", "8.5", "--precision", "2"])
    #expect(text.standardOutput.contains("56.12, 8.50"))
    let json = try TunnelProcess.run(["where", "56.123456789", "8.5", "--precision", "3", "--format", "json"])
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    #expect(object["latitude"] as? Double == 56.123)
    let bad = try TunnelProcess.run(["where", "56", "8.5", "--precision", "16"])
    #expect(bad.status == 64 && bad.standardError == "tunnel: --precision must be between 0 and 15\n")
  }
}
