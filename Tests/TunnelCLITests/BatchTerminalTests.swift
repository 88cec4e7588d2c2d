import Foundation
import Testing

/// `tunnel batch` writing to a real terminal (tmux): text from the input that a terminal would act on
/// arrives escaped, while a file gets the bytes as they came.
@Suite struct BatchTerminalTests {
  @Test("On a terminal, an input's escape sequences and bidirectional controls are shown, not obeyed")
  func escapedOnTerminal() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tunnel-terminal-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("points.csv")
    // ESC [ 2 J would clear the screen; U+202E would reverse the rest of the line.
    try Data("lat,lon,note\n56,8.5,a\u{1B}[2Jb\u{202E}cd\n".utf8).write(to: input)
    let session = TerminalSession()
    defer { session.stop() }
    try session.start(
      "'\(TunnelProcess.executable.path)' batch --fields land '\(input.path)'; echo \"status $?\"; sleep 60")
    let screen = try session.wait("the batch's rows") { $0.contains { $0.hasPrefix("status ") } }
    #expect(screen.contains("lat,lon,note,land,error"), "\(screen)")
    #expect(screen.contains("56,8.5,a\\u{1B}[2Jb\\u{202E}cd,true,"), "\(screen)")
    #expect(screen.contains("status 0"))
    // Into a file the same row keeps its bytes.
    let result = try TunnelProcess.run(["batch", "--fields", "land", input.path])
    #expect(result.standardOutput.contains("a\u{1B}[2Jb\u{202E}cd,true,"))
  }

  @Test("Parquet is refused on a terminal, with what to do, and written whole to a file")
  func parquetNotOnTerminal() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tunnel-terminal-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("points.csv")
    try Data("lat,lon\n56,8.5\n-33.9,18.4\n".utf8).write(to: input)
    let session = TerminalSession()
    defer { session.stop() }
    try session.start(
      "'\(TunnelProcess.executable.path)' batch --fields land --format parquet '\(input.path)'; echo \"status $?\"; sleep 60"
    )
    let screen = try session.wait("the refusal") { $0.contains { $0.hasPrefix("status ") } }
    #expect(screen.contains { $0.hasPrefix("tunnel: Parquet is binary: send it to a file") }, "\(screen)")
    #expect(screen.contains("status 64"), "\(screen)")
    // Into a file: Parquet's magic at both ends, and nothing on standard error.
    let path = folder.appendingPathComponent("out.parquet").path
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    let file = try #require(FileHandle(forWritingAtPath: path))
    let result = try TunnelProcess.run(
      ["batch", "--fields", "land", "--format", "parquet", input.path], output: file)
    try file.close()
    #expect(result.status == 0 && result.standardError.isEmpty, "\(result.standardError)")
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    #expect(
      bytes.count > 12 && bytes.prefix(4).elementsEqual("PAR1".utf8)
        && bytes.suffix(4).elementsEqual("PAR1".utf8))
  }
}
