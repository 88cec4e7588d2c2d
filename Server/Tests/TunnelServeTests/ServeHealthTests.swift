import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// `tunnel serve health`: 0 when the server at the URL answers `/status` with OK, 1 with a line saying why
/// otherwise.
extension ServeTests {
  func testHealthOfARunningServer() throws {
    let server = try server
    let healthy = try TunnelProcess.run(["serve", "health", server.address, "--timeout", "10"])
    XCTAssertEqual(healthy.status, 0, healthy.standardError)
    XCTAssertEqual(healthy.standardOutput, "\(server.address)/status: OK\n")
    XCTAssertEqual(healthy.standardError, "")
    // A path after the address is a prefix the server is reached under: here nothing answers there.
    let prefixed = try TunnelProcess.run(["serve", "health", server.address + "/nothing/"])
    XCTAssertEqual(prefixed.status, 1, prefixed.standardError)
    XCTAssertTrue(prefixed.standardError.contains("/nothing/status: status 404"), prefixed.standardError)
  }

  func testHealthOfAClosedPortIs1() throws {
    // A port that was free a moment ago: bound, then closed without listening.
    let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(probe, $0, length) == 0 && getsockname(probe, $0, &length) == 0
      }
    }
    let port = UInt16(bigEndian: address.sin_port)
    close(probe)
    XCTAssertNotEqual(port, 0)
    let result = try TunnelProcess.run(["serve", "health", "http://127.0.0.1:\(port)", "--timeout", "5"])
    XCTAssertEqual(result.status, 1, result.standardError)
    XCTAssertEqual(result.standardOutput, "")
    XCTAssertEqual(
      result.standardError, "tunnel: http://127.0.0.1:\(port)/status: cannot connect (connection refused)\n")
  }

  func testHealthRefusesWhatIsNotAnHTTPURL() throws {
    for url in ["https://127.0.0.1:8080", "127.0.0.1:8080", "http://:8080", "http://127.0.0.1:99999"] {
      let result = try TunnelProcess.run(["serve", "health", url])
      XCTAssertEqual(result.status, 64, "\(url): \(result.standardError)")
      XCTAssertTrue(result.standardError.contains("http://127.0.0.1:8080"), result.standardError)
    }
    XCTAssertEqual(try TunnelProcess.run(["serve", "health", "--timeout", "0"]).status, 64)
  }
}
