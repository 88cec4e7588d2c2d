import Foundation

/// The built `tunnel` binary, run as a user would run it.
struct TunnelProcess {
  struct Result {
    var status: Int32
    var standardOutput: String
    var standardError: String
  }

  /// `tunnel` beside the test bundle in the build's products folder.
  static var executable: URL {
    let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let beside = products.appendingPathComponent("tunnel")
    if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
    return Bundle.main.bundleURL.appendingPathComponent("tunnel")
  }

  /// Runs `tunnel` (or `chosen`) with `arguments`, standard input `input` (empty by default), and waits at most 60
  /// seconds, then ends it (its status is then SIGTERM's). Standard output is read through a pipe unless `output` names a file to write it to
  /// (then ``Result/standardOutput`` is empty).
  static func run(
    _ arguments: [String], environment: [String: String] = [:], input: Data? = nil,
    output outputFile: FileHandle? = nil, directory: URL? = nil, executable chosen: URL? = nil
  ) throws -> Result {
    let process = Process()
    process.executableURL = chosen ?? executable
    process.arguments = arguments
    var merged = ProcessInfo.processInfo.environment
    merged.merge(environment) { _, new in new }
    process.environment = merged
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = outputFile ?? output
    if let directory { process.currentDirectoryURL = directory }
    process.standardError = error
    // Standard input from a file of the test's own (empty when no input is given), never /dev/null.
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tunnel-in-\(UUID().uuidString)"
    ).path
    _ = FileManager.default.createFile(atPath: path, contents: input ?? Data())
    defer { try? FileManager.default.removeItem(atPath: path) }
    process.standardInput = FileHandle(forReadingAtPath: path)
    try process.run()
    if outputFile != nil { try output.fileHandleForWriting.close() }
    // Both pipes are read on threads of their own (not Dispatch's pool, which reads blocked in parallel
    // tests would exhaust), so that a process that does not end by the deadline is ended there rather
    // than waited for.
    let outputData = SharedValue(Data())
    let errorData = SharedValue(Data())
    let reading = DispatchGroup()
    for (pipe, data) in [(output, outputData), (error, errorData)] {
      reading.enter()
      Thread.detachNewThread {
        data.set(pipe.fileHandleForReading.readDataToEndOfFile())
        reading.leave()
      }
    }
    if reading.wait(timeout: .now() + .seconds(60)) == .timedOut {
      process.terminate()
      reading.wait()
    }
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus,
      standardOutput: String(decoding: outputData.get(), as: UTF8.self),
      standardError: String(decoding: errorData.get(), as: UTF8.self))
  }
}

/// A value shared between a test and the threads it starts.
final class SharedValue<Value>: @unchecked Sendable {
  private var value: Value
  private let lock = NSLock()

  init(_ value: Value) { self.value = value }

  func get() -> Value { lock.withLock { value } }
  func set(_ new: Value) { lock.withLock { value = new } }
}
