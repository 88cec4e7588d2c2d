import Foundation
import Testing

@testable import TunnelGeo

/// The loader on damaged copies of a real layer: errors name the file and never trap.
@Suite final class PlaceDataLoaderTests {
  private var folders: [String] = []

  deinit {
    for folder in folders { try? FileManager.default.removeItem(atPath: folder) }
  }

  /// A fresh folder holding a copy of `marine.tunnel`, damaged by `damage`.
  func damagedCopy(_ damage: (inout [UInt8]) -> Void) throws -> PlaceData {
    let source = try PlaceDataLocation.find()
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("tunnel-placedata-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    folders.append(folder)
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source + "/marine.tunnel")))
    damage(&bytes)
    try Data(bytes).write(to: URL(fileURLWithPath: folder + "/marine.tunnel"))
    return PlaceData(uncheckedDirectory: folder)
  }

  func error(_ body: () throws -> Void) -> PlaceDataError? {
    do {
      try body()
      return nil
    } catch {
      return error as? PlaceDataError
    }
  }

  @Test func intactCopyOpensAndVerifies() throws {
    let data = try damagedCopy { _ in }
    #expect(try data.marine().polygons.featureCount == 307)
  }

  @Test func truncated() throws {
    let data = try damagedCopy { $0.removeLast(1000) }
    let found = error { _ = try data.marine() }
    guard case .sizeMismatch(let path, let expected, let actual)? = found else {
      Issue.record("expected sizeMismatch, got \(String(describing: found))")
      return
    }
    #expect(path.hasSuffix("/marine.tunnel"))
    #expect(expected == actual + 1000)
    #expect(found?.description.contains("Scripts/build-data") == true)
  }

  @Test func truncatedToLessThanAHeader() throws {
    let data = try damagedCopy { $0.removeLast($0.count - 10) }
    #expect(
      error { _ = try data.marine() }
        == .sizeMismatch(path: data.directory + "/marine.tunnel", expected: 64, actual: 10))
  }

  @Test func aFolderInTheFilesPlace() throws {
    let data = try damagedCopy { _ in }
    let path = data.directory + "/marine.tunnel"
    try FileManager.default.removeItem(atPath: path)
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    #expect(error { _ = try data.marine() } == .unreadable(path: path, reason: "it is a folder, not a file"))
  }

  @Test func wrongMagic() throws {
    let data = try damagedCopy { $0[0] = UInt8(ascii: "X") }
    #expect(error { _ = try data.marine() } == .badMagic(path: data.directory + "/marine.tunnel"))
  }

  @Test func otherVersions() throws {
    for version: UInt8 in [2, 4] {
      let data = try damagedCopy { $0[8] = version }
      let found = error { _ = try data.marine() }
      #expect(
        found
          == .unsupportedVersion(
            path: data.directory + "/marine.tunnel", found: UInt32(version), supported: 3))
      #expect(found?.description.contains("version \(version), expected 3") == true)
    }
  }

  @Test func byteFlippedInTheHeader() throws {
    let data = try damagedCopy { $0[33] ^= 0x01 }  // a count
    #expect(
      error { _ = try data.marine() } == .headerChecksumMismatch(path: data.directory + "/marine.tunnel"))
  }

  @Test func byteFlippedInTheSectionTable() throws {
    let data = try damagedCopy { $0[64 + 24 + 9] ^= 0x40 }  // an offset
    #expect(
      error { _ = try data.marine() } == .headerChecksumMismatch(path: data.directory + "/marine.tunnel"))
  }

  @Test func byteFlippedInTheBlockTable() throws {
    let data = try damagedCopy { bytes in
      let sections = Int(bytes[16])
      bytes[64 + 24 * sections + 2] ^= 0x04  // the first block's checksum
    }
    #expect(
      error { _ = try data.marine() } == .headerChecksumMismatch(path: data.directory + "/marine.tunnel"))
  }

  @Test func byteFlippedInThePayload() throws {
    let data = try damagedCopy { $0[$0.count / 2] ^= 0x10 }
    // Opening checks the tables only and stays fast; decoding damaged content never traps...
    let marine = try data.marine()
    for feature in 0..<marine.polygons.featureCount {
      for ring in marine.polygons.rings(of: feature) { _ = marine.polygons.vertices(ofRing: ring) }
    }
    // ...and the block that was read is found damaged, by the next check and by verification.
    let path = data.directory + "/marine.tunnel"
    guard case .damaged(path, let offset, let count)? = error({ try data.checkIntact() }) else {
      Issue.record("expected the damaged block to be reported")
      return
    }
    let file = try DataFile(path: path, expectedKind: "POLY")
    #expect(count == file.blockSize && (offset..<(offset + count)).contains(file.size / 2))
    #expect(error { try file.verifyPayload() } == .damaged(path: path, offset: offset, byteCount: count))
  }

  @Test func wrongKind() throws {
    let data = try damagedCopy { _ in }
    #expect(
      error { _ = try DataFile(path: data.directory + "/marine.tunnel", expectedKind: "PLCS") }
        == .wrongKind(path: data.directory + "/marine.tunnel", expected: "PLCS", found: "POLY"))
  }

  @Test func missingLayer() throws {
    let data = try damagedCopy { _ in }
    let found = error { _ = try data.places() }
    #expect(found == .fileMissing(path: data.directory + "/places.tunnel"))
    #expect(found?.description.contains("places.tunnel") == true)
  }

  @Test func missingFolder() {
    let found = error { _ = try PlaceDataLocation.find(explicit: "/nonexistent/tunnel/Data") }
    #expect(found == .dataNotFound(searched: ["/nonexistent/tunnel/Data"]))
    let fromEnvironment = error {
      _ = try PlaceDataLocation.find(environment: ["TUNNEL_DATA": "/nonexistent/env/Data"])
    }
    #expect(fromEnvironment == .dataNotFound(searched: ["/nonexistent/env/Data"]))
  }

  @Test("A library user is told the library's ways of choosing the folder")
  func libraryWords() {
    #expect(
      PlaceDataError.dataNotFound(searched: ["/a/Data", "/b/Data"]).description
        == "place data not found; looked in /a/Data, /b/Data; "
        + "pass its folder to PlaceData(directory:) or set TUNNEL_DATA to the Data folder")
    #expect(
      PlaceDataError.linkLoop(path: "/a/Data").description
        == "/a/Data: its symbolic links go round in a loop; point them at Tunnel's Data folder, "
        + "or pass that folder to PlaceData(directory:) or in TUNNEL_DATA")
  }

  @Test func checkoutIsFound() throws {
    let found = try PlaceDataLocation.find(environment: [:])
    #expect(FileManager.default.fileExists(atPath: found + "/places.tunnel"))
  }
}
