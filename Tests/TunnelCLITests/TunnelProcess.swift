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

  /// Runs `tunnel` with `arguments`, standard input `input` (empty by default), and waits at most 60
  /// seconds. Standard output is read through a pipe unless `output` names a file to write it to
  /// (then ``Result/standardOutput`` is empty).
  static func run(
    _ arguments: [String], environment: [String: String] = [:], input: Data? = nil,
    output outputFile: FileHandle? = nil, directory: URL? = nil
  ) throws -> Result {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    var merged = ProcessInfo.processInfo.environment
    merged.merge(environment) { _, new in new }
    process.environment = merged
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = outputFile ?? output
    if let directory { process.currentDirectoryURL = directory }
    process.standardError = error
    if let input {
      let path = FileManager.default.temporaryDirectory.appendingPathComponent(
        "tunnel-in-\(UUID().uuidString)"
      ).path
      FileManager.default.createFile(atPath: path, contents: input)
      defer { try? FileManager.default.removeItem(atPath: path) }
      process.standardInput = FileHandle(forReadingAtPath: path)
    } else {
      process.standardInput = FileHandle.nullDevice
    }
    try process.run()
    if outputFile != nil { try output.fileHandleForWriting.close() }
    let deadline = DispatchTime.now() + .seconds(60)
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    while process.isRunning {
      if DispatchTime.now() > deadline {
        process.terminate()
        break
      }
      usleep(1_000)
    }
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus,
      standardOutput: String(decoding: outputData, as: UTF8.self),
      standardError: String(decoding: errorData, as: UTF8.self))
  }
}
