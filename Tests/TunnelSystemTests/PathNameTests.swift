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
}
