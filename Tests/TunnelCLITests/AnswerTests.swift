import Foundation
import Testing

/// Answers that looked right and were wrong: a dangling 'to', CJK names, country names, longitudes.
@Suite struct AnswerTests {
  @Test(
    "A 'to' without a place on one side is a one-line usage error, not a place called Tô",
    arguments: [["Paris", "to"], ["to", "Paris"], ["to", "to"], ["to"], ["Paris", "to", "to", "Tokyo"]])
  func danglingTo(words: [String]) throws {
    let result = try TunnelProcess.run(["dig"] + words)
    #expect(result.status == 64, "\(words): \(result.standardOutput)")
    #expect(result.standardOutput.isEmpty)
    #expect(result.standardError.hasSuffix("e.g. 'tunnel dig Paris to Tokyo'\n"), "\(result.standardError)")
    #expect(result.standardError.split(separator: "\n").count == 1)
  }

  @Test("Four bare numbers are two coordinates")
  func fourNumbers() throws {
    let four = try TunnelProcess.run(["dig", "51.5", "-0.13", "-33.9", "151.2"])
    let two = try TunnelProcess.run(["dig", "51.5 -0.13", "-33.9 151.2"])
    #expect(four.status == 0, "\(four.standardError)")
    #expect(four.standardOutput == two.standardOutput)
    #expect(four.standardOutput.hasPrefix("From  51.500000, -0.130000"))
  }

  @Test(
    "A name in CJK ideographs is looked up, not read as a number",
    arguments: [("北京", "Beijing"), ("東京", "Tokyo"), ("三亚", "Sanya"), ("万州", "Wanxian")])
  func ideographs(name: String, english: String) throws {
    let result = try TunnelProcess.run([name])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.hasPrefix("From  \(english), "), "\(result.standardOutput)")
  }

  @Test("A '-' before an ideograph is not a minus sign")
  func minusIdeograph() throws {
    let result = try TunnelProcess.run(["-万州"])
    #expect(result.status == 64)
    #expect(result.standardError.hasPrefix("tunnel: there is no option '-万州'"), "\(result.standardError)")
  }

  @Test("A country's name is the country, and says which place stands for it")
  func country() throws {
    let denmark = try TunnelProcess.run(["Denmark"])
    #expect(denmark.status == 0, "\(denmark.standardError)")
    #expect(
      denmark.standardOutput.hasPrefix("From  Denmark: its largest city, Copenhagen, "),
      "\(denmark.standardOutput)")
    let town = try TunnelProcess.run(["Denmark, US"])
    #expect(town.standardOutput.hasPrefix("From  Denmark, South Carolina, United States"))
    let fiji = try TunnelProcess.run(["dig", "Fiji", "to", "North Pole", "--format", "json"])
    #expect(fiji.status == 0, "\(fiji.standardError)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(fiji.standardOutput.utf8)) as? [String: Any])
    #expect((json["from"] as? [String: Any])?["name"] as? String ?? "" >= "Fiji: its largest city, ")
    #expect((json["to"] as? [String: Any])?["latitude"] as? Double == 90)
  }

  @Test("'where' and 'batch' take the same longitudes, and a number too large to hold is too large")
  func oneLongitudeRule() throws {
    let accepted = try TunnelProcess.run(["where", "10", "200", "--format", "jsonl"])
    #expect(accepted.status == 0, "\(accepted.standardError)")
    #expect(accepted.standardOutput.hasPrefix("{\"latitude\":10,\"longitude\":-160,"))
    let batch = try TunnelProcess.run(
      ["batch", "--fields", "timeZone"], input: Data("lat,lon\n10,200\n10,400\n1e400,0\n".utf8))
    #expect(
      batch.standardOutput == """
        lat,lon,time_zone,time_zone_others,error
        10,200,Etc/GMT+11,,
        10,400,,,longitude 400 is outside -180…360
        1e400,0,,,the latitude is too large: it must lie in -90…90

        """)
    let refused = try TunnelProcess.run(["where", "10", "400"])
    #expect(refused.standardError == "tunnel: longitude 400 is outside -180…360\n")
    let lettered = try TunnelProcess.run(["where", "10N 200E"])
    #expect(
      lettered.standardError
        == "tunnel: longitude 200°E is past 180°: with E or W a longitude lies in 0…180\n")
  }

  @Test(
    "A longitude that rounds to 180° is written -180° in text and JSON, as an exact 180 is",
    arguments: [["10", "-1e-10"], ["10", "0"], ["-10", "180"], ["-10", "179.9999999999"]])
  func antimeridian(point: [String]) throws {
    let text = try TunnelProcess.run(["antipode"] + point)
    #expect(text.status == 0, "\(text.standardError)")
    let written = text.standardOutput.components(separatedBy: "180.000000")
    #expect(written.count == 2 && written[0].hasSuffix("-"), "\(text.standardOutput)")
    let json = try TunnelProcess.run(["antipode"] + point + ["--format", "json"])
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    let longitudes = [object["from"], object["to"]].map { ($0 as? [String: Any])?["longitude"] as? Double }
    #expect(longitudes.contains(-180) && !longitudes.contains(180), "\(point): \(longitudes)")
  }
}
