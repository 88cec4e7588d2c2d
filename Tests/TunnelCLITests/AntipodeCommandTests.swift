import Foundation
import Testing

@Suite struct AntipodeCommandTests {
  @Test func printsBothEndsWhereTheyAreAndTheDistances() throws {
    let result = try TunnelProcess.run(["56.55", "8.316667"])
    #expect(result.status == 0)
    #expect(result.standardError.isEmpty)
    let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(
      String.init)
    #expect(lines.first == "From  Lemvig, Midtjylland, Denmark")
    #expect(lines.contains("      56.550000, 8.316667   56°33′00.0″N 8°19′00.0″E"))
    #expect(lines.contains("      Surface        land, Denmark (DK), Midtjylland (DK-82)"))
    #expect(lines.contains("      Time zone      Europe/Copenhagen"))
    #expect(lines.contains("To    South Pacific Ocean, 987.4 km from Antipodes Island (New Zealand)"))
    #expect(lines.contains("      -56.550000, -171.683333   56°33′00.0″S 171°41′00.0″W"))
    #expect(lines.contains("      Surface        sea"))
    #expect(lines.contains { $0.hasPrefix("      Nearest land   ") && $0.hasSuffix("New Zealand") })
    #expect(lines.contains { $0.hasPrefix("      Nearest place  Waitangi, NZ, ") })
    #expect(lines.contains("      Time zone      Etc/GMT+11"))
    #expect(
      lines.suffix(5) == [
        "Along the surface   20,003.93 km", "Through the Earth   12,726.58 km",
        "Deepest point       the Earth's centre, 6,357 km down",
        "Fall through it     42 min 10 s on a uniform Earth, 38 min 11 s with PREM's densities", "",
      ])
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
    #expect(
      result.standardOutput.hasPrefix("From  Cape Town, Western Cape, South Africa\n"),
      "\(result.standardOutput)")
    #expect(result.standardOutput.contains("      33.900000, -161.600000   "))
  }

  @Test func antipodeWithTwoNegatives() throws {
    let result = try TunnelProcess.run(["antipode", "-33.9", "-70.6"])
    #expect(result.status == 0)
    #expect(result.standardOutput.contains("      33.900000, 109.400000   "))
  }

  @Test func json() throws {
    let result = try TunnelProcess.run(["-33.9", "18.4", "--format", "json"])
    #expect(result.status == 0)
    let objectJSON = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
    let object = try #require(objectJSON as? [String: Any])
    #expect(Set(object.keys) == ["from", "to", "surfaceDistanceKm", "throughEarthKm", "tunnel"])
    let from = try #require(object["from"] as? [String: Any])
    let to = try #require(object["to"] as? [String: Any])
    let placemarkKeys: Set = [
      "latitude", "longitude", "land", "country", "region", "sea", "nearestPlace", "nearestLand", "timeZone",
    ]
    #expect(placemarkKeys.isSubset(of: Set(from.keys)))
    #expect(placemarkKeys.isSubset(of: Set(to.keys)))
    #expect(from["latitude"] as? Double == -33.9 && from["longitude"] as? Double == 18.4)
    #expect(to["latitude"] as? Double == 33.9 && to["longitude"] as? Double == -161.6)
    #expect(from["land"] as? Bool == true && to["land"] as? Bool == false)
    let country = try #require(from["country"] as? [String: Any])
    #expect(country["code"] as? String == "ZA" && country["name"] as? String == "South Africa")
    #expect(country["disputed"] is NSNull)
    #expect(to["country"] is NSNull)
    #expect(to["sea"] as? String == "North Pacific Ocean")
    let zone = try #require(to["timeZone"] as? [String: Any])
    #expect(zone["identifier"] as? String == "Etc/GMT+11" && (zone["others"] as? [String]) == [])
    #expect(object["surfaceDistanceKm"] as? Double == 20_003.931459)
    let through = try #require(object["throughEarthKm"] as? Double)
    #expect(through > 12_713 && through < 12_757)
  }

  @Test(arguments: [
    (["91", "0"], "tunnel: latitude 91 is outside -90…90\n"),
    (["0", "400"], "tunnel: longitude 400 is outside -180…360\n"),
    (
      ["56,abc"],
      "tunnel: cannot read '56,abc' as a coordinate: 'abc' is not a number; write it as e.g. '56.55 8.32' or '56°33′N 8°19′E'\n"
    ),
    (["antipode", " "], "tunnel: give a place or a coordinate, e.g. 'Skjern' or '56.55 8.32'\n"),
    (["Copenhagn"], "tunnel: no place is called 'Copenhagn'; did you mean 'Copenhagen'?\n"),
    (
      ["Skjern,", "France"],
      "tunnel: no place called 'Skjern, France' is in that country or region; did you mean 'Skjern, DK'?\n"
    ),
    (
      ["56.5.5", "8"],
      "tunnel: cannot read '56.5.5 8' as a coordinate: '56.5.5' is not a number; write it as e.g. '56.55 8.32' or '56°33′N 8°19′E'\n"
    ),
    (
      ["56", "8", "--format", "xml"],
      "tunnel: the value 'xml' is invalid for '--format <text|json|jsonl|csv|geojson>'; please provide one of 'text', 'json', 'jsonl', 'csv' or 'geojson'; see 'tunnel antipode --help'\n"
    ),
    (["56", "8", "--bogus"], "tunnel: there is no option '--bogus'; see 'tunnel --help' for the options\n"),
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
    #expect(subcommand.standardOutput.contains("--format <text|json|jsonl|csv|geojson>"))
  }
}

@Suite struct PlaceNameTests {
  @Test func digsFromAPlaceName() throws {
    let result = try TunnelProcess.run(["Skjern"])
    #expect(result.status == 0, "\(result.standardError)")
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.first == "From  Skjern, Midtjylland, Denmark (population 7,145)")
    #expect(lines.contains("      55.950000, 8.500000   55°57′00.0″N 8°30′00.0″E"))
    #expect(lines.contains("To    South Pacific Ocean, 948.7 km from Antipodes Island (New Zealand)"))
    #expect(lines.contains("      -55.950000, -171.500000   55°57′00.0″S 171°30′00.0″W"))
  }

  @Test func qualifiedNames() throws {
    let result = try TunnelProcess.run(["antipode", "Springfield, IL", "--format", "json"])
    #expect(result.status == 0)
    let json = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
    let object = try #require(json as? [String: Any])
    let from = try #require(object["from"] as? [String: Any])
    #expect(from["latitude"] as? Double == 39.80172)
    #expect(
      (from["region"] as? [String: String]) == ["code": "US-IL", "name": "Illinois", "source": "polygon"])
  }

  @Test func missingDataIsOneLineWithExit66() throws {
    let result = try TunnelProcess.run(["Skjern", "--data", "/nonexistent/tunnel-data"])
    #expect(result.status == 66)
    #expect(result.standardOutput.isEmpty)
    #expect(
      result.standardError.hasPrefix("tunnel: place data not found; looked in /nonexistent/tunnel-data"))
    #expect(result.standardError.filter { $0 == "\n" }.count == 1)
    #expect(try TunnelProcess.run(["where", "56", "8.5", "--data", "/nonexistent/tunnel-data"]).status == 66)
  }
}

@Suite struct FindCommandTests {
  @Test func listsMatchesBestFirst() throws {
    let result = try TunnelProcess.run(["find", "Copenhagen", "--limit", "2"])
    #expect(result.status == 0)
    let lines = result.standardOutput.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines[0] == "Copenhagen, Hovedstaden, Denmark (population 1,153,615)   55.6759, 12.5655")
  }

  @Test func json() throws {
    let result = try TunnelProcess.run(["find", "København", "--format", "json", "--limit", "3"])
    #expect(result.status == 0)
    let rowsJSON = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
    let rows = try #require(rowsJSON as? [[String: Any]])
    #expect(!rows.isEmpty && rows.count <= 3)
    #expect(Set(rows[0].keys) == ["name", "countryCode", "region", "latitude", "longitude", "population"])
    #expect(rows[0]["name"] as? String == "Copenhagen")
    #expect(rows[0]["countryCode"] as? String == "DK")
    #expect(rows[0]["region"] as? String == "Hovedstaden")
    #expect(rows[0]["population"] as? Int == 1_153_615)
  }

  @Test(arguments: [
    (["find"], "tunnel: give a name to look for, e.g. 'tunnel find Copenhagen'\n"),
    (["find", "Skjern", "--limit", "0"], "tunnel: --limit must be at least 1, not 0\n"),
    (["find", "Xqzvbnmwk"], "tunnel: no place is called 'Xqzvbnmwk'\n"),
  ])
  func badInput(arguments: [String], expected: String) throws {
    let result = try TunnelProcess.run(arguments)
    #expect(result.status == 64)
    #expect(result.standardError == expected)
  }
}

@Suite struct WhereCommandTests {
  @Test func land() throws {
    let result = try TunnelProcess.run(["where", "56", "8.5"])
    #expect(result.status == 0)
    #expect(
      result.standardOutput == """
        Skjern, Midtjylland, Denmark
              56.000000, 8.500000   56°00′00.0″N 8°30′00.0″E
              Surface        land, Denmark (DK), Midtjylland (DK-82)
              Nearest place  Skjern, DK, 5.6 km away (population 7,145)
              Time zone      Europe/Copenhagen
              Boundaries     country 10.0 km, region 10.1 km, time zone 45.6 km away

        """)
  }

  @Test func seaAsJSON() throws {
    let result = try TunnelProcess.run(["where", "-56", "-171.5", "--format", "json"])
    #expect(result.status == 0)
    let json = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
    let placemark = try #require(json as? [String: Any])
    #expect(placemark["land"] as? Bool == false)
    #expect(placemark["sea"] as? String == "South Pacific Ocean")
    let land = try #require(placemark["nearestLand"] as? [String: Any])
    let distance = try #require(land["distanceKm"] as? Double)
    #expect(abs(distance - 951.5) < 5)
    #expect((land["country"] as? [String: Any])?["code"] as? String == "NZ")
    let place = try #require(placemark["nearestPlace"] as? [String: Any])
    #expect(place["name"] as? String == "Waitangi")
    #expect(Set(place.keys) == ["name", "countryCode", "latitude", "longitude", "population", "distanceKm"])
  }

  @Test func byName() throws {
    let result = try TunnelProcess.run(["where", "Copenhagen"])
    #expect(result.status == 0)
    #expect(result.standardOutput.hasPrefix("Copenhagen, Hovedstaden, Denmark\n"))
  }
}
