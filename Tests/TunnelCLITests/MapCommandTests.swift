import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite struct MapCommandTests {
  @Test("tunnel map prints both maps, the digger above and the X below, then both ends in words; no radar")
  func printsBothMaps() throws {
    let result = try TunnelProcess.run(
      ["map", "Skjern", "--width", "80", "--height", "30"], environment: ["LANG": "C.UTF-8"])
    #expect(result.status == 0, "\(result.standardError)")
    let rows = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
    let digger = rows.firstIndex { $0.contains("☻") }
    let target = rows.firstIndex { $0.contains("✖") }
    let dig = rows.firstIndex { $0.hasPrefix("Where you dig: Skjern, Midtjylland, Denmark") }
    let out = rows.firstIndex { $0.hasPrefix("Where you come out: South Pacific Ocean") }
    #expect(digger != nil && target != nil && dig != nil && out != nil)
    #expect((digger ?? 99) < (target ?? 0) && (target ?? 99) < (dig ?? 0) && (dig ?? 99) < (out ?? 0))
    #expect(!result.standardOutput.contains("radar"), "a printed map has no radar to press")
    #expect(rows.contains { $0.contains("Europe/Copenhagen (UTC+") })
    #expect(result.standardOutput.contains("•"), "place labels")
    #expect(!result.standardOutput.contains("\u{1B}["), "no colours into a pipe")
  }

  @Test("--view geocode prints the flipped side, in words")
  func geocodeView() throws {
    let result = try TunnelProcess.run([
      "map", "56", "8.5", "--view", "geocode", "--width", "90", "--height", "30",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let rows = result.standardOutput.split(separator: "\n").map(String.init)
    let denmark = rows.firstIndex { $0.contains("Midtjylland, Denmark") }
    let pacific = rows.firstIndex { $0.contains("South Pacific Ocean") }
    #expect(denmark != nil && pacific != nil && (denmark ?? 99) < (pacific ?? 0))
    #expect(rows.contains { $0.contains("Europe/Copenhagen") } && rows.contains { $0.contains("Etc/GMT+11") })
  }

  @Test("--ascii and TERM=dumb draw in plain ASCII")
  func ascii() throws {
    for (arguments, environment) in [
      (["map", "Skjern", "--ascii"], ["LANG": "C.UTF-8"]),
      (["map", "Skjern"], ["LANG": "C.UTF-8", "TERM": "dumb"]),
      (["map", "København", "--view", "geocode", "--ascii"], ["LANG": "C.UTF-8"]),
    ] {
      let result = try TunnelProcess.run(
        arguments + ["--width", "60", "--height", "20"], environment: environment)
      #expect(result.status == 0)
      #expect(result.standardOutput.unicodeScalars.allSatisfy { $0.isASCII }, "\(arguments) \(environment)")
      if arguments.contains("geocode") {
        #expect(result.standardOutput.contains("Copenhagen") && result.standardOutput.contains("UTC+0"))
      } else {
        #expect(result.standardOutput.contains("@") && result.standardOutput.contains("X"))
      }
    }
  }

  @Test("--svg writes a picture that parses as XML")
  func svg() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("tunnel-map-\(getpid()).svg")
    defer { try? FileManager.default.removeItem(at: file) }
    let result = try TunnelProcess.run([
      "map", "Wellington", "--svg", file.path, "--width", "40", "--height", "12",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let data = try Data(contentsOf: file)
    #expect(XMLParser(data: data).parse())
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.contains("class=\"marker digger\"") && text.contains("class=\"marker target\""))
    #expect(text.contains("Wellington"))
  }

  @Test("--overlay writes the world with the other side's land turned onto it; '-' writes it alone")
  func overlay() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("tunnel-overlay-\(getpid()).svg")
    defer { try? FileManager.default.removeItem(at: file) }
    let result = try TunnelProcess.run([
      "map", "Madrid", "--overlay", file.path, "--width", "40", "--height", "12",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("Where you come out: Manawatū-Whanganui, New Zealand"))
    let data = try Data(contentsOf: file)
    #expect(XMLParser(data: data).parse())
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.contains("class=\"antipodal-land\"") && text.contains(" ↔ "))
    let alone = try TunnelProcess.run(["map", "Madrid", "--overlay", "-"])
    #expect(alone.status == 0, "\(alone.standardError)")
    #expect(alone.standardOutput.hasPrefix("<?xml") && alone.standardOutput.hasSuffix("</svg>\n"))
    let both = try TunnelProcess.run(["map", "--svg", "-", "--overlay", "-"])
    #expect(both.status == 64)
    #expect(
      both.standardError
        == "tunnel: --svg - and --overlay - would both write to standard output: give one a file\n")
  }

  @Test(
    "Bad options, places and data are one plain line with the documented exit status",
    arguments: [
      (["--width", "5"], 64, "tunnel: --width must be between 20 and 1000"),
      (["--height", "9999"], 64, "tunnel: --height must be between 10 and 500"),
      (["--zoom", "nan"], 64, "tunnel: --zoom must be between"),
      (["--zoom", "inf"], 64, "tunnel: --zoom must be between"),
      (["--view", "sideways"], 64, "tunnel: the value 'sideways' is invalid for '--view <view>'"),
      (["Qwxyzzy"], 64, "tunnel: no place is called 'Qwxyzzy'"),
      (["91", "0"], 64, "tunnel: latitude 91 is outside -90…90"),
      (["--data", "/nonexistent"], 66, "tunnel: "),
    ])
  func badInput(arguments: [String], status: Int32, prefix: String) throws {
    let result = try TunnelProcess.run(["map"] + arguments)
    #expect(result.status == status, "\(arguments): \(result.standardError)")
    #expect(result.standardError.hasPrefix(prefix), "\(arguments): \(result.standardError)")
    #expect(result.standardError.split(separator: "\n").count == 1)
    #expect(result.standardOutput.isEmpty)
  }

  @Test("Bad options and an unwritable SVG are plain errors")
  func errors() throws {
    let zoom = try TunnelProcess.run(["map", "Skjern", "--zoom", "0"])
    #expect(zoom.status == 64)
    #expect(zoom.standardError.hasPrefix("tunnel: --zoom must be between"))
    let unwritable = try TunnelProcess.run(["map", "Skjern", "--svg", "/nonexistent-folder/x.svg"])
    #expect(unwritable.status == 74)
    #expect(unwritable.standardError.hasPrefix("tunnel: cannot write the SVG to '/nonexistent-folder/x.svg'"))
  }
}
