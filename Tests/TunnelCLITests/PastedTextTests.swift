import Foundation
import Testing
import TunnelApp
import TunnelGeo

@testable import tunnel

/// What people paste on the command line, and the hints a person at a terminal gets.
@Suite struct PastedTextTests {
  @Test(
    "Pasted notations give the coordinate they hold, through the whole process",
    arguments: [
      (["where", "N 56° 33.000 E 008° 19.000"], "56.550000, 8.316667"),
      (["where", "56 33 00 N 8 19 00 E"], "56.550000, 8.316667"),
      (["where", "56,55; 8,32"], "56.550000, 8.320000"),
      (["where", "https://www.google.com/maps/@56.55,8.32,12z"], "56.550000, 8.320000"),
      (
        ["where", "https://www.openstreetmap.org/?mlat=56.55&mlon=8.32#map=12/56.5/8.3"],
        "56.550000, 8.320000"
      ),
      (["where", "Springfield", "IL"], "39.801720, -89.643710"),
    ])
  func pasted(arguments: [String], expected: String) throws {
    let result = try TunnelProcess.run(arguments)
    #expect(result.status == 0, "\(arguments): \(result.standardError)")
    #expect(result.standardOutput.contains(expected), "\(arguments): \(result.standardOutput)")
  }

  @Test("A misspelt command is suggested when the words name no place")
  func misspeltCommand() throws {
    let result = try TunnelProcess.run(["fnd", "Paris"])
    #expect(result.status == 64)
    #expect(result.standardError.contains("did you mean the command 'find'? (tunnel find Paris)"))
    #expect(LocationArguments.commandHint("Paris") == "")
    #expect(LocationArguments.commandHint("find Paris") == "")
    #expect(LocationArguments.commandHint("wher Skjern").contains("'where'"))
  }

  @Test("An ambiguous name says which place it took and how many share the name; scripts are not told")
  func namesakes() throws {
    let data = try PlaceData()
    let query = try LocationLookup.resolve("Springfield", data: data)
    let note = try #require(LocationArguments.namesakeNote("Springfield", query))
    #expect(note.hasPrefix("tunnel: 'Springfield' is Springfield, Missouri, United States — one of "))
    #expect(note.hasSuffix("places of that name; 'tunnel find Springfield' lists them"))
    #expect(LocationArguments.namesakeNote("Skjern", try LocationLookup.resolve("Skjern", data: data)) == nil)
    // Standard error is not a terminal here: the answer alone.
    let result = try TunnelProcess.run(["where", "Springfield"])
    #expect(result.status == 0 && result.standardError.isEmpty)
  }
}
