import Foundation
import XCTest

/// `TUNNEL_WEB`: the page's files from a folder instead of the binary, and never a file outside that folder,
/// whatever links it holds.
final class ServeWebFolderTests: XCTestCase {
  func testLinksOutOfTheFolderAreNotFollowed() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("web-\(UUID().uuidString)")
    let page = root.appendingPathComponent("page")
    let outside = root.appendingPathComponent("outside")
    try FileManager.default.createDirectory(at: page, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    try "<p>from the folder</p>".write(
      to: page.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
    try "secret".write(to: outside.appendingPathComponent("secret.js"), atomically: true, encoding: .utf8)
    let links: [(name: String, target: String)] = [
      ("inside.html", "index.html"),
      ("absolute.js", outside.appendingPathComponent("secret.js").path),
      ("relative.js", "../outside/secret.js"),
      ("chain.js", "relative.js"),
      ("dangling.js", "nothing.js"),
    ]
    for (name, target) in links {
      try FileManager.default.createSymbolicLink(
        atPath: page.appendingPathComponent(name).path, withDestinationPath: target)
    }
    // The page folder reached through a link of its own is still the folder.
    let linkedFolder = root.appendingPathComponent("linked")
    try FileManager.default.createSymbolicLink(atPath: linkedFolder.path, withDestinationPath: "page")

    let server = try ServerProcess(environment: ["TUNNEL_WEB": linkedFolder.path])
    defer { XCTAssertEqual(server.stop(), 0, server.errorText) }
    let index = try server.get("/app/index.html")
    XCTAssertEqual(index.status, 200, index.text)
    XCTAssertEqual(index.text, "<p>from the folder</p>")
    let inside = try server.get("/app/inside.html")
    XCTAssertEqual(inside.status, 200, "a link within the folder is followed: \(inside.text)")
    XCTAssertEqual(inside.text, "<p>from the folder</p>")
    for name in ["absolute.js", "relative.js", "chain.js", "dangling.js"] {
      let response = try server.get("/app/" + name)
      XCTAssertEqual(response.status, 404, "\(name): \(response.text)")
      XCTAssertFalse(response.text.contains("secret"), name)
    }
  }
}
