import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Every option of `tunnel serve` is checked against its range before anything starts: a sentence naming
/// the option and its range, and the status of a usage mistake, never a trap at start-up or at the first
/// request.
final class ServeOptionTests: XCTestCase {
  func testOptionsOutOfRangeAreUsageMistakes() throws {
    let cases: [([String], String)] = [
      (["--upload-deadline", "9999999999"], "--upload-deadline"),
      (["--upload-deadline", "0"], "--upload-deadline"),
      (["--upload-deadline", "nan"], "--upload-deadline"),
      (["--upload-deadline", "inf"], "--upload-deadline"),
      (["--idle-timeout", "1e10"], "--idle-timeout"),
      (["--idle-timeout", "-1"], "--idle-timeout"),
      (["--max-connections", "0"], "--max-connections"),
      (["--max-connections", "9223372036854775807"], "--max-connections"),
      (["--port", "65536"], "--port"),
      (["--threads", "0"], "--threads"),
      (["--max-batches", "0"], "--max-batches"),
      (["--max-batches", "10001"], "--max-batches"),
      (["--max-upload", "99999999999G"], "--max-upload"),
      (["--host", "nosuch.invalid"], "--host"),
      (["--host", "999.1.1.1"], "--host"),
      (["--host", ""], "--host"),
    ]
    for (arguments, option) in cases {
      let result = try TunnelProcess.run(["serve"] + arguments)
      XCTAssertEqual(result.status, 64, "\(arguments): \(result.standardError)")
      XCTAssertTrue(result.standardError.contains(option), "\(arguments): \(result.standardError)")
      XCTAssertFalse(result.standardError.contains("Fatal error"), "\(arguments): \(result.standardError)")
    }
  }

  func testTheLongestWaitsServe() throws {
    let server = try ServerProcess(["--quiet", "--upload-deadline", "604800", "--idle-timeout", "604800"])
    defer { XCTAssertEqual(server.stop(), 0, server.errorText) }
    XCTAssertEqual(try server.get("/status").status, 200)
    let batch = try server.post("/v1/batch?fields=country", body: Data("lat,lon\n56,8.5\n".utf8))
    XCTAssertEqual(batch.status, 200, batch.text)
    XCTAssertTrue(batch.text.contains("Denmark"), batch.text)
  }

  func testHangUpIsIgnored() throws {
    let server = try ServerProcess()
    kill(server.process.processIdentifier, SIGHUP)
    usleep(200_000)
    XCTAssertEqual(try server.get("/status").status, 200)
    XCTAssertEqual(server.stop(), 0, server.errorText)
  }

  func testAStandardErrorWithoutAReaderStopsNothing() throws {
    let port = try Self.freePort()
    let process = Process()
    process.executableURL = TunnelProcess.executable
    process.arguments = ["serve", "--port", String(port)]
    let error = Pipe()
    process.standardError = error
    process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
    try process.run()
    // Nobody reads what it says: its first line meets a closed pipe.
    try error.fileHandleForReading.close()
    var answered = false
    let started = Date()
    while !answered, process.isRunning, Date().timeIntervalSince(started) < 60 {
      usleep(100_000)
      guard let connection = try? Connection(port: port) else { continue }
      try connection.write(Data("GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
      answered = String(decoding: connection.readAll(seconds: 10), as: UTF8.self).hasPrefix("HTTP/1.1 200")
    }
    let status = process.isRunning ? "none yet" : String(process.terminationStatus)
    XCTAssertTrue(answered, "no answer; the server's status: \(status)")
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    XCTAssertEqual(process.terminationReason, .exit)
    XCTAssertEqual(process.terminationStatus, 0)
  }

  /// A port nothing listens on now.
  static func freePort() throws -> UInt16 {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
      }
    }
    guard bound else { throw ServerProcess.ServerFailure(description: "no free port") }
    return UInt16(bigEndian: address.sin_port)
  }
}
