import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Every command's output goes through one checked path: standard output whose every write is checked
/// (exit 74 and one line when it fails), and files written as a shell's `>` writes them — through
/// links, into FIFOs and devices, never renamed over. Links, FIFOs and hard links are made in a
/// temporary folder; of the real devices only /dev/full is written to.
@Suite struct CheckedOutputTests {
  /// A fresh temporary folder; the caller removes it.
  static func folder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tunnel-output-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  /// Runs `tunnel` with standard output going to /dev/full.
  static func runIntoFullDevice(_ arguments: [String]) throws -> TunnelProcess.Result {
    let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
    defer { try? full.close() }
    return try TunnelProcess.run(arguments, output: full)
  }

  @Test(
    "A standard output that cannot be written is exit 74 and one line, for every command",
    arguments: [
      ["where", "56", "8.5"], ["where", "56", "8.5", "--format", "json"], ["antipode", "56", "8.5"],
      ["-33.9", "18.4", "--format", "csv"], ["find", "Paris"], ["find", "Paris", "--format", "geojson"],
      ["dig", "Skjern", "Wellington"], ["dig", "Skjern", "Wellington", "--format", "json"],
      ["pairs", "--min-population", "1000000", "--within", "200", "--format", "csv"],
      ["map", "Skjern", "--width", "40", "--height", "12"], ["--help"], ["--version"], ["help", "where"],
      ["find", "--help"], ["--generate-completion-script", "bash"],
    ])
  func fullStandardOutput(arguments: [String]) throws {
    let result = try Self.runIntoFullDevice(arguments)
    #expect(result.status == 74, "\(arguments): \(result.standardError)")
    #expect(
      result.standardError == "tunnel: cannot write to standard output: No space left on device\n",
      "\(arguments)")
  }

  @Test("A standard output that is not open for writing is exit 74, named")
  func standardOutputNotWritable() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("read-only").path
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    let readOnly = try #require(FileHandle(forReadingAtPath: path))
    defer { try? readOnly.close() }
    let result = try TunnelProcess.run(["where", "56", "8.5"], output: readOnly)
    #expect(result.status == 74)
    #expect(result.standardError == "tunnel: cannot write to standard output: Bad file descriptor\n")
  }

  /// `tunnel map Wellington --svg <path>`, small.
  static func drawSVG(to path: String) throws -> TunnelProcess.Result {
    try TunnelProcess.run(["map", "Wellington", "--svg", path, "--width", "40", "--height", "12"])
  }

  static func isSVG(_ data: Data) -> Bool {
    XMLParser(data: data).parse() && String(decoding: data, as: UTF8.self).contains("class=\"marker digger\"")
  }

  @Test("--svg through a symbolic link writes the link's target and leaves the link a link")
  func svgThroughSymbolicLink() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let target = folder.appendingPathComponent("target.svg").path
    let link = folder.appendingPathComponent("link.svg").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    let result = try Self.drawSVG(to: link)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
    #expect(Self.isSVG(try Data(contentsOf: URL(fileURLWithPath: target))))
  }

  @Test("--svg to a file with two hard links writes the one file both name")
  func svgIntoHardLink() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let first = folder.appendingPathComponent("first.svg").path
    let second = folder.appendingPathComponent("second.svg").path
    #expect(FileManager.default.createFile(atPath: first, contents: Data("old".utf8)))
    try FileManager.default.linkItem(atPath: first, toPath: second)
    let result = try Self.drawSVG(to: second)
    #expect(result.status == 0, "\(result.standardError)")
    let attributes = try FileManager.default.attributesOfItem(atPath: first)
    #expect((attributes[.referenceCount] as? NSNumber)?.intValue == 2)
    #expect(Self.isSVG(try Data(contentsOf: URL(fileURLWithPath: first))))
  }

  @Test("--svg into a FIFO writes into it and leaves it a FIFO")
  func svgIntoFIFO() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let fifo = folder.appendingPathComponent("picture.fifo").path
    #expect(mkfifo(fifo, 0o600) == 0)
    // A writer of the test's own keeps both ends from waiting for the other, and the reader's end of
    // file comes when it is closed: after tunnel has written, or failed to.
    let keeper = open(fifo, O_RDWR)
    #expect(keeper >= 0)
    let received = SharedValue<Data?>(nil)
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      received.set(FileHandle(forReadingAtPath: fifo)?.readDataToEndOfFile())
      done.signal()
    }
    let result = try Self.drawSVG(to: fifo)
    close(keeper)
    done.wait()
    #expect(result.status == 0, "\(result.standardError)")
    #expect(Self.isSVG(try #require(received.get())))
    var information = stat()
    #expect(lstat(fifo, &information) == 0 && information.st_mode & S_IFMT == S_IFIFO)
  }

  @Test("--svg - writes the picture alone to standard output")
  func svgToStandardOutput() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try TunnelProcess.run(
      ["map", "Wellington", "--svg", "-", "--width", "40", "--height", "12"], directory: folder)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(Self.isSVG(Data(result.standardOutput.utf8)))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "no file named '-'")
  }

  @Test("--svg into a folder that does not exist is said before anything is drawn")
  func svgIntoMissingFolder() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try TunnelProcess.run(
      ["map", "Wellington", "--svg", "no/such/dir/x.svg", "--width", "40", "--height", "12"],
      directory: folder)
    #expect(result.status == 74)
    #expect(result.standardOutput.isEmpty, "nothing drawn")
    #expect(
      result.standardError
        == "tunnel: cannot write the SVG to 'no/such/dir/x.svg': there is no folder 'no/such/dir'; create it, or give a path in a folder that exists\n"
    )
  }

  @Test("--svg through a link to /dev/full writes into the device: exit 74, and the link is still a link")
  func svgIntoFullDevice() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // Through a link of the test's own, so that nothing could ever be renamed over the real device.
    let link = folder.appendingPathComponent("full.svg").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/full")
    let result = try TunnelProcess.run(
      ["map", "Wellington", "--svg", "full.svg", "--width", "40", "--height", "12"], directory: folder)
    #expect(result.status == 74)
    #expect(
      result.standardError == "tunnel: cannot write the SVG to 'full.svg': No space left on device\n")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "/dev/full")
  }
}
