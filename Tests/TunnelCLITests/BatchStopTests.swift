import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `tunnel batch` stops on SIGINT, SIGTERM and SIGHUP whatever it is reading, keeps its memory bounded on
/// endless input, and writes only rows that were whole.
@Suite struct BatchStopTests {
  /// A field of `/proc/<pid>/<file>` ("SigCgt", "VmHWM", "rchar"), as its text after the colon.
  static func procField(_ pid: Int32, _ file: String, _ name: String) -> String? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/\(file)", encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
      return line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)
    }
    return nil
  }

  /// Whether `pid` catches `signal` (its handler is installed).
  static func catches(_ pid: Int32, _ signal: Int32) -> Bool {
    guard let mask = procField(pid, "status", "SigCgt").flatMap({ UInt64($0, radix: 16) }) else {
      return false
    }
    return mask & (1 << UInt64(signal - 1)) != 0
  }

  /// Waits for `process` to end, killing it if it has not after a minute; whether it ended on its own.
  static func ends(_ process: Process) -> Bool {
    for _ in 0..<60_000 {
      if !process.isRunning { break }
      usleep(1_000)
    }
    guard process.isRunning else { return true }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    return false
  }

  @Test(
    "Endless input with no newline (/dev/zero, an endless JSON string) stops on a signal, in little memory",
    arguments: [
      (["--input-format", "csv", "/dev/zero"], nil),
      (["--input-format", "tsv", "/dev/zero"], nil),
      (["--input-format", "jsonl", "-"], "{\"lat\":1,\"lon\":2,\"a\":\""),
      (["--input-format", "geojson", "-"], "{\"type\":\"Feature\",\"properties\":{\"a\":\""),
      (
        ["--input-format", "geojson", "-"],
        "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"properties\":{\"a\":\""
      ),
    ] as [([String], String?)])
  func endlessInput(arguments: [String], prefix: String?) throws {
    let process = Process()
    process.executableURL = TunnelProcess.executable
    process.arguments = ["batch", "--fields", "land"] + arguments
    var feeder: Process? = nil
    if let prefix {
      // The prefix, then 'a' for ever, down a pipe.
      let feed = Process()
      feed.executableURL = URL(fileURLWithPath: "/bin/sh")
      feed.arguments = ["-c", "printf '%s' \"$0\"; exec tr '\\0' a < /dev/zero", prefix]
      let pipe = Pipe()
      feed.standardOutput = pipe
      // tr says "Broken pipe" when tunnel has gone.
      feed.standardError = try Self.scratchFile()
      process.standardInput = pipe
      try feed.run()
      feeder = feed
    } else {
      process.standardInput = try Self.scratchFile()
    }
    defer {
      if let feeder, feeder.isRunning { kill(feeder.processIdentifier, SIGKILL) }
    }
    process.standardOutput = try Self.scratchFile()
    let error = Pipe()
    process.standardError = error
    try process.run()
    let pid = process.processIdentifier
    Self.killAfterDeadline(process)
    // Until the signal is caught and 300 MiB have been read.
    var read = 0
    while process.isRunning, !Self.catches(pid, SIGTERM) || read < 300 << 20 {
      read = Self.procField(pid, "io", "rchar").flatMap { Int($0) } ?? 0
      usleep(2_000)
    }
    let peak = Self.procField(pid, "status", "VmHWM").flatMap { Int($0.split(separator: " ")[0]) } ?? 0
    kill(pid, SIGTERM)
    let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(Self.ends(process), "SIGTERM was ignored")
    #expect(process.terminationStatus == 143)
    #expect(message == "tunnel: terminated after 0 rows; the output holds those rows, each whole\n")
    // In kilobytes: some tens of megabytes, not the hundreds read.
    #expect(peak > 0 && peak < 200 << 10, "peak resident memory \(peak) kB")
  }

  /// A new empty file in the temporary folder, open for reading and writing, in place of /dev/null.
  static func scratchFile() throws -> FileHandle {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tunnel-scratch-\(UUID().uuidString)"
    ).path
    FileManager.default.createFile(atPath: path, contents: nil)
    defer { unlink(path) }
    return try FileHandle(forUpdating: URL(fileURLWithPath: path))
  }

  /// Kills `process` if it still runs after two minutes, so that a loop waiting on it ends (and the
  /// test's expectations fail) instead of hanging the suite.
  static func killAfterDeadline(_ process: Process) {
    let pid = process.processIdentifier
    DispatchQueue.global().asyncAfter(deadline: .now() + 120) {
      if process.isRunning { kill(pid, SIGKILL) }
    }
  }

  static let feature =
    "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[8.5,56]},\"properties\":{}}"

  @Test(
    "A signal mid-row or between features of a pipe: the whole rows before are written, a fragment is no row",
    arguments: [
      ("lat,lon\n56,8.5\n3,4", "csv"),
      ("{\"type\":\"FeatureCollection\",\"features\":[\n" + feature + ",\n", "geojson"),
      ("{\"type\":\"FeatureCollection\",\"features\":[\n" + feature + ",\n{\"type\":\"Fea", "geojson"),
      (feature + "\n{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[4", "geojson"),
    ])
  func signalMidRow(text: String, format: String) throws {
    let process = Process()
    process.executableURL = TunnelProcess.executable
    process.arguments = ["batch", "--fields", "land", "--input-format", format]
    let input = Pipe()
    let output = Pipe()
    let error = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = error
    try process.run()
    Self.killAfterDeadline(process)
    input.fileHandleForWriting.write(Data(text.utf8))
    // Until the whole row has come out (after the header, or as the collection's first feature).
    var received = Data()
    func whole() -> Bool {
      format == "csv"
        ? received.count(where: { $0 == UInt8(ascii: "\n") }) == 2
        : String(decoding: received, as: UTF8.self).contains("\"land\":")
    }
    while !whole() {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      received += chunk
    }
    kill(process.processIdentifier, SIGTERM)
    received += output.fileHandleForReading.readDataToEndOfFile()
    let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(Self.ends(process))
    try? input.fileHandleForWriting.close()
    #expect(process.terminationStatus == 143)
    #expect(message == "tunnel: terminated after 1 row; the output holds those rows, each whole\n")
    if format == "csv" {
      #expect(String(decoding: received, as: UTF8.self) == "lat,lon,land,error\n56,8.5,true,\n")
    } else {
      let collection = try #require(try JSONSerialization.jsonObject(with: received) as? [String: Any])
      #expect((collection["features"] as? [Any])?.count == 1)
    }
  }
}
