import Foundation
import XCTest

/// The systemd unit docs/serve.md gives (docs/tunnel-serve.service) as systemd reads it: `systemd-analyze verify`,
/// which needs no running systemd, with the unit's `tunnel` replaced by the one built here (verify checks that
/// the program exists). `Scripts/test --serve` installs systemd-analyze; in CI its absence is a failure.
final class ServiceUnitTests: XCTestCase {
  static let unitFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
      "docs/tunnel-serve.service")

  /// The installed path the unit names.
  static let installedTunnel = "/usr/local/bin/tunnel "

  func testTheUnitVerifies() throws {
    guard
      let analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first(where: {
        FileManager.default.isExecutableFile(atPath: $0)
      })
    else {
      let message =
        "systemd-analyze is not installed (Debian's systemd package; Scripts/test --serve installs it)"
      if ProcessInfo.processInfo.environment["CI"] == "true" { return XCTFail(message) }
      throw XCTSkip(message)
    }
    let unit = try String(contentsOf: Self.unitFile, encoding: .utf8)
    XCTAssertTrue(unit.contains("ExecStart=" + Self.installedTunnel + "serve "), unit)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("unit-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let copy = folder.appendingPathComponent("tunnel-serve.service")
    try unit.replacingOccurrences(of: Self.installedTunnel, with: TunnelProcess.executable.path + " ")
      .write(to: copy, atomically: true, encoding: .utf8)
    // The manual page is checked by `man`, which a test machine need not have.
    let verified = try TunnelProcess.run(
      ["verify", "--man=no", copy.path], executable: URL(fileURLWithPath: analyze))
    XCTAssertEqual(verified.status, 0, verified.standardError)
    // An unknown or misspelt option is only a warning to systemd, which then ignores it: none is allowed.
    XCTAssertEqual(verified.standardError, "", "systemd-analyze warns about the unit")
  }
}
