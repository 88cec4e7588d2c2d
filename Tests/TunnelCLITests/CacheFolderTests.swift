import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Cache folders made for the tests, each in a way it must not be used.
enum CacheFolders {
  struct Hostile: Sendable {
    /// A folder anyone can write in, not sticky (0777).
    var writableByOthers: String
    /// A folder its group can write in (0770).
    var groupWritable: String
    /// A plain file.
    var file: String
    /// A folder of another user's (nobody's), when the tests run as root; nil otherwise.
    var otherOwners: String?
  }

  /// A new temporary path (not made).
  static func temporary(_ label: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("tunnel-\(label)-\(UUID().uuidString)").path
  }

  /// Made once for the hostile table.
  static let hostile: Hostile = {
    func folder(_ mode: mode_t) -> String {
      let path = temporary("cache")
      mkdir(path, 0o700)
      chmod(path, mode)
      return path
    }
    let file = temporary("cache-file")
    FileManager.default.createFile(atPath: file, contents: Data("not a folder\n".utf8))
    var other: String?
    if geteuid() == 0 {
      let path = folder(0o755)
      if chown(path, 65_534, 65_534) == 0 { other = path }
    }
    return Hostile(
      writableByOthers: folder(0o777), groupWritable: folder(0o770), file: file, otherOwners: other)
  }()
}

@Suite struct CacheFolderTests {
  /// Rows enough for a batch to build its indexes (and so to use the cache).
  static let input = Data(
    ("lat,lon\n"
      + (0..<1_000).map { "\(Double($0) * 0.179 - 89.5),\(Double($0 * 7 % 1_000) * 0.359 - 179.5)" }
      .joined(separator: "\n") + "\n").utf8)

  static func batch(cache: String) throws -> TunnelProcess.Result {
    try TunnelProcess.run(
      ["batch", "--fields", "country,nearestPlace"], environment: ["TUNNEL_CACHE_DIR": cache], input: input)
  }

  /// The answers with no cache at all.
  static let expected: String = {
    (try? TunnelProcess.run(
      ["batch", "--fields", "country,nearestPlace"], environment: ["TUNNEL_CACHE_DIR": ""], input: input))?
      .standardOutput ?? "no answers"
  }()

  @Test("A folder others can write in is left untouched: nothing is read from it or written to it")
  func untrustedFolderUntouched() throws {
    let folder = CacheFolders.temporary("cache")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(mkdir(folder, 0o700) == 0 && chmod(folder, 0o777) == 0)
    let result = try Self.batch(cache: folder)
    #expect(result.status == 0 && result.standardOutput == Self.expected)
    let lines = result.standardError.split(separator: "\n")
    #expect(lines.count == 1 && lines.first?.hasPrefix("tunnel: not keeping indexes in '\(folder)'") == true)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
  }

  @Test("Links planted under every name a batch writes in its cache are replaced, never written through")
  func plantedLinks() throws {
    // The names a batch uses, learned from a run in a folder of its own.
    let learn = CacheFolders.temporary("cache")
    defer { try? FileManager.default.removeItem(atPath: learn) }
    #expect(try Self.batch(cache: learn).standardOutput == Self.expected)
    let names = try FileManager.default.contentsOfDirectory(atPath: learn)
    #expect(names.contains("key") && names.contains { $0.hasPrefix("places-grid-") })

    let folder = CacheFolders.temporary("cache")
    let victim = CacheFolders.temporary("victim")
    defer {
      try? FileManager.default.removeItem(atPath: folder)
      try? FileManager.default.removeItem(atPath: victim)
    }
    let precious = Data("a file no cache may write\n".utf8)
    FileManager.default.createFile(atPath: victim, contents: precious)
    #expect(mkdir(folder, 0o700) == 0)
    for name in names { #expect(symlink(victim, folder + "/" + name) == 0) }
    for _ in 0..<2 {  // built with the links there, then read back
      let result = try Self.batch(cache: folder)
      #expect(result.status == 0 && result.standardOutput == Self.expected && result.standardError.isEmpty)
    }
    #expect(FileManager.default.contents(atPath: victim) == precious)
    for name in names {
      let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/" + name)
      #expect(attributes[.type] as? FileAttributeType == .typeRegular, "\(name)")
    }
  }

  @Test("A nearest-place grid with every candidate shifted by one changes no answer and is written again")
  func forgedPlaceGrid() throws {
    let folder = CacheFolders.temporary("cache")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(try Self.batch(cache: folder).standardOutput == Self.expected)
    let name = try #require(
      try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasPrefix("places-grid-") })
    let path = folder + "/" + name
    let original = try #require(FileManager.default.contents(atPath: path))
    // Every word after a header of at most a hundred bytes raised by one: the candidates and the nodes.
    var forged = [UInt8](original)
    for offset in stride(from: 100, to: forged.count - 3, by: 4) { forged[offset] &+= 1 }
    try Data(forged).write(to: URL(fileURLWithPath: path))
    let result = try Self.batch(cache: folder)
    #expect(result.status == 0 && result.standardOutput == Self.expected && result.standardError.isEmpty)
    #expect(FileManager.default.contents(atPath: path) == original)
  }

  @Test("A FIFO under every name a batch reads is not waited on")
  func plantedFIFOs() throws {
    let learn = CacheFolders.temporary("cache")
    defer { try? FileManager.default.removeItem(atPath: learn) }
    _ = try Self.batch(cache: learn)
    let names = try FileManager.default.contentsOfDirectory(atPath: learn)
    let folder = CacheFolders.temporary("cache")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(mkdir(folder, 0o700) == 0)
    for name in names { #expect(mkfifo(folder + "/" + name, 0o600) == 0) }
    let result = try Self.batch(cache: folder)
    #expect(result.status == 0 && result.standardOutput == Self.expected && result.standardError.isEmpty)
  }
}
