import Foundation
import Testing
import TunnelSystem

/// `PathName` against `NSString`'s path methods, which it replaces.
@Suite struct PathNameTests {
  // (NSString traps on a single character that is not a slash, "a" or "a/": those are left out.)
  static let paths = [
    "", "/", "//", "///", "ab", "ab/", "ab//", "/a", "//a", "/a/", "a/b", "a//b", "a/b/", "a/b//", "/a/b",
    "//a//b//", "./x", "../x", "..", "/.", "a/./b", "/usr/bin/tunnel", "tunnel.svg", "out/map.svg", "~/x",
    "a/b/c/d.svg", "é/ü", "/x/", "/usr/bin", "/usr",
    "/tmp/fe/Sources/TunnelGeo/PlaceData/PlaceDataLocation.swift", "a/\u{301}b/c", "a/b\u{301}/\u{301}",
    "ø//\u{301}/",
  ]

  @Test("The folder of a path", arguments: paths)
  func deletingLastComponent(_ path: String) {
    #expect(PathName.deletingLastComponent(path) == (path as NSString).deletingLastPathComponent)
  }

  @Test("A component after a path", arguments: paths)
  func appending(_ path: String) {
    for component in ["", "Data", "share/tunnel/Data", "/x/"] {
      #expect(PathName.appending(component, to: path) == (path as NSString).appendingPathComponent(component))
    }
  }

  @Test("Folders, links to them, files and nothing")
  func isFolder() {
    #expect(PathName.isFolder("/tmp"))
    #expect(PathName.isFolder("/"))
    #expect(!PathName.isFolder("/etc/hostname"))
    #expect(!PathName.isFolder("/nonexistent/folder"))
    #expect(!PathName.isFolder(""))
  }

  @Test(
    "What exists and where links point, as FileManager says, for files, folders, links, loops and nothing")
  func existsAndLinks() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "pathname-\(UUID().uuidString)"
    ).path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    FileManager.default.createFile(atPath: folder + "/file", contents: Data("x".utf8))
    let long = String(repeating: "l", count: 200) + "/" + String(repeating: "é", count: 300)
    let links = [
      ("to-file", "file"), ("to-folder", folder), ("dangling", "nowhere"), ("loop-a", "loop-b"),
      ("loop-b", "loop-a"),
      ("long", long), ("exactly-256", String(repeating: "x", count: 256)),
    ]
    for (name, target) in links {
      try FileManager.default.createSymbolicLink(atPath: folder + "/" + name, withDestinationPath: target)
    }
    let paths =
      [folder, folder + "/file", folder + "/nothing", "", "/", "/proc/self/exe"]
      + links.map { folder + "/" + $0.0 }
    for path in paths {
      #expect(PathName.exists(path) == FileManager.default.fileExists(atPath: path), "\(path)")
      #expect(
        PathName.symbolicLinkDestination(path)
          == (try? FileManager.default.destinationOfSymbolicLink(atPath: path)),
        "\(path)")
    }
    #expect(PathName.symbolicLinkDestination(folder + "/long") == long)
  }
}
