import Foundation
import RandomPoints
import SeededRandom
import Testing

@testable import TunnelGeo

#if canImport(Glibc)
import Glibc
#endif

/// The cache folder as someone else who can write to it, or to the folder around it, would try to turn it
/// against its user: links, FIFOs and other owners' files planted under the names it uses, folders others
/// can write in, and index files forged with their checks recomputed.
@Suite struct IndexCacheTests {
  static let data = try! PlaceData()
  /// A user that is not the one running the tests (nobody's), for files and folders of another owner.
  static let otherUser: uid_t = 65_534
  static let isRoot = geteuid() == 0

  /// A new folder's path under the temporary folder (not made); the caller removes it.
  static func temporaryFolder() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)").path
  }

  static func mode(_ path: String) -> UInt32 {
    var info = stat()
    return lstat(path, &info) == 0 ? UInt32(info.st_mode) & 0o7777 : 0
  }

  static func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

  /// The reference values of SipHash-2-4 for the key 00 01 … 0f and the messages 00, 00 01, … of 0 to 63
  /// bytes, from the algorithm's paper and reference code.
  static let sipHashVectors: [UInt64] = [
    0x726f_db47_dd0e_0e31, 0x74f8_39c5_93dc_67fd, 0x0d6c_8009_d9a9_4f5a, 0x8567_6696_d7fb_7e2d,
    0xcf27_94e0_2771_87b7, 0x1876_5564_cd99_a68d, 0xcbc9_466e_58fe_e3ce, 0xab02_00f5_8b01_d137,
    0x93f5_f579_9a93_2462, 0x9e00_82df_0ba9_e4b0, 0x7a5d_bbc5_94dd_b9f3, 0xf4b3_2f46_226b_ada7,
    0x751e_8fbc_860e_e5fb, 0x14ea_5627_c084_3d90, 0xf723_ca90_8e7a_f2ee, 0xa129_ca61_49be_45e5,
    0x3f2a_cc7f_57c2_9bdb, 0x699a_e9f5_2cbe_4794, 0x4bc1_b3f0_968d_d39c, 0xbb6d_c91d_a779_61bd,
    0xbed6_5cf2_1aa2_ee98, 0xd0f2_cbb0_2e3b_67c7, 0x9353_6795_e3a3_3e88, 0xa80c_038c_cd5c_cec8,
    0xb8ad_50c6_f649_af94, 0xbce1_92de_8a85_b8ea, 0x17d8_35b8_5bbb_15f3, 0x2f2e_6163_076b_cfad,
    0xde4d_aaac_a71d_c9a5, 0xa6a2_5066_8795_6571, 0xad87_a353_5c49_ef28, 0x32d8_92fa_d841_c342,
    0x7127_512f_72f2_7cce, 0xa7f3_2346_f959_78e3, 0x12e0_b01a_bb05_1238, 0x15e0_34d4_0fa1_97ae,
    0x314d_ffbe_0815_a3b4, 0x0279_90f0_2962_3981, 0xcadc_d4e5_9ef4_0c4d, 0x9abf_d876_6a33_735c,
    0x0e3e_a96b_5304_a7d0, 0xad0c_42d6_fc58_5992, 0x1873_06c8_9bc2_15a9, 0xd4a6_0abc_f379_2b95,
    0xf935_451d_e4f2_1df2, 0xa953_8f04_1975_5787, 0xdb9a_cddf_f56c_a510, 0xd06c_98cd_5c09_75eb,
    0xe612_a3cb_9ecb_a951, 0xc766_e62c_fcad_af96, 0xee64_435a_9752_fe72, 0xa192_d576_b245_165a,
    0x0a87_87bf_8ecb_74b2, 0x81b3_e73d_20b4_9b6f, 0x7fa8_220b_a3b2_ecea, 0x2457_31c1_3ca4_2499,
    0xb78d_bfaf_3a8d_83bd, 0xea1a_d565_322a_1a0b, 0x60e6_1c23_a379_5013, 0x6606_d7e4_4628_2b93,
    0x6ca4_ecb1_5c5f_91e1, 0x9f62_6da1_5c96_25f3, 0xe51b_3860_8ef2_5f57, 0x958a_324c_eb06_4572,
  ]

  @Test("SipHash-2-4 gives the reference values, whatever pieces the message comes in")
  func sipHash() {
    let key: (UInt64, UInt64) = (0x0706_0504_0302_0100, 0x0f0e_0d0c_0b0a_0908)
    let message = (0..<64).map { UInt8($0) }
    for (length, expected) in Self.sipHashVectors.enumerated() {
      var whole = SipHash24(key: key)
      message.prefix(length).withUnsafeBytes { whole.update($0) }
      #expect(whole.finish() == expected, "\(length) bytes")
      // The same bytes in pieces of every size from one to seven.
      for piece in 1...7 {
        var pieces = SipHash24(key: key)
        for start in stride(from: 0, to: length, by: piece) {
          message[start..<min(length, start + piece)].withUnsafeBytes { pieces.update($0) }
        }
        #expect(pieces.finish() == expected, "\(length) bytes in pieces of \(piece)")
      }
    }
  }

  @Test(
    "A new cache folder, and each folder made on the way to it, is 0700; the key and every index are 0600")
  func permissions() throws {
    let root = Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let cache = try IndexCache(path: root + "/a/b")
    for folder in [root, root + "/a", root + "/a/b"] { #expect(Self.mode(folder) == 0o700, "\(folder)") }
    #expect(Self.mode(root + "/a/b/key") == 0o600)
    #expect(Self.contents(root + "/a/b/key")?.count == 16)
    let layer = try Self.data.countries().polygons
    _ = PolygonGridFile.grid(layer: layer, cache: cache)
    let files = try FileManager.default.contentsOfDirectory(atPath: root + "/a/b").sorted()
    #expect(files == ["key", PolygonGridFile.name(for: layer)].sorted())
    for file in files { #expect(Self.mode(root + "/a/b/" + file) == 0o600, "\(file)") }
    // A second cache on the folder reads the same key, and the file the first wrote.
    let again = try IndexCache(path: root + "/a/b")
    #expect(again.key == cache.key)
    #expect(PolygonGridFile.load(from: again, layer: layer) != nil)
  }

  @Test(
    "A folder others can write in is refused unless it is sticky; a file, or a path through one, is no folder",
    arguments: [(0o777, false), (0o770, false), (0o722, false), (0o1777, true), (0o755, true), (0o700, true)]
  )
  func folderModes(mode: Int, usable: Bool) throws {
    let folder = Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(mkdir(folder, 0o700) == 0 && chmod(folder, mode_t(mode)) == 0)
    do {
      _ = try IndexCache(path: folder)
      #expect(usable)
    } catch {
      #expect(!usable)
      #expect(error == .writableByOthers(path: folder, mode: 0o40000 | UInt32(mode)))
      #expect(error.description.contains("others can write in it (mode \(String(mode, radix: 8)))"))
      #expect(Self.contents(folder + "/key") == nil)
    }
  }

  @Test("A path that is a file, or runs through one, is refused and says so")
  func notAFolder() throws {
    let file = Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: file) }
    try Data("not a folder".utf8).write(to: URL(fileURLWithPath: file))
    #expect(throws: IndexCacheError.cannotOpen(path: file, errno: ENOTDIR)) { try IndexCache(path: file) }
    #expect(throws: IndexCacheError.cannotCreate(path: file + "/cache", errno: ENOTDIR)) {
      try IndexCache(path: file + "/cache")
    }
  }

  @Test(
    "Another user's folder is refused, and so is another user's key in a sticky folder",
    .enabled(if: isRoot, "only root can give a folder to another user"))
  func otherOwners() throws {
    let folder = Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(mkdir(folder, 0o700) == 0 && chown(folder, Self.otherUser, Self.otherUser) == 0)
    #expect(throws: IndexCacheError.ownedBySomeoneElse(path: folder, owner: UInt32(Self.otherUser))) {
      try IndexCache(path: folder)
    }
    // A sticky folder of one's own, where someone else made the key first: it can be neither used nor
    // replaced.
    let shared = Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: shared) }
    #expect(mkdir(shared, 0o700) == 0 && chmod(shared, 0o1777) == 0)
    try Data(repeating: 7, count: 16).write(to: URL(fileURLWithPath: shared + "/key"))
    #expect(chmod(shared + "/key", 0o600) == 0 && chown(shared + "/key", Self.otherUser, Self.otherUser) == 0)
    // Root may replace any file even in a sticky folder; the planted key is at least never read.
    let cache = try? IndexCache(path: shared)
    #expect(
      cache.map { $0.key != IndexCache.Key(low: 0x0707_0707_0707_0707, high: 0x0707_0707_0707_0707) } ?? true)
  }

  @Test(
    "A key that is a link, readable by others or of the wrong size is replaced, and the link's target is untouched"
  )
  func plantedKeys() throws {
    let folder = Self.temporaryFolder()
    let victim = Self.temporaryFolder()
    defer {
      try? FileManager.default.removeItem(atPath: folder)
      try? FileManager.default.removeItem(atPath: victim)
    }
    let planted = Data(repeating: 7, count: 16)
    let plantedKey = IndexCache.Key(low: 0x0707_0707_0707_0707, high: 0x0707_0707_0707_0707)
    try planted.write(to: URL(fileURLWithPath: victim))
    #expect(chmod(victim, 0o600) == 0)
    #expect(mkdir(folder, 0o700) == 0 && symlink(victim, folder + "/key") == 0)
    let linked = try IndexCache(path: folder)
    #expect(linked.key != plantedKey)
    #expect(Self.contents(victim) == planted && Self.mode(folder + "/key") == 0o600)
    for (bytes, mode) in [(planted, 0o644), (planted, 0o640), (Data(repeating: 7, count: 15), 0o600)] {
      try? FileManager.default.removeItem(atPath: folder + "/key")
      try bytes.write(to: URL(fileURLWithPath: folder + "/key"))
      #expect(chmod(folder + "/key", mode_t(mode)) == 0)
      let cache = try IndexCache(path: folder)
      #expect(cache.key != plantedKey, "mode \(String(mode, radix: 8)), \(bytes.count) bytes")
      #expect(Self.mode(folder + "/key") == 0o600 && Self.contents(folder + "/key")?.count == 16)
    }
  }

  @Test("Links planted under every name the cache writes are replaced, never written through")
  func plantedLinks() throws {
    let layer = try Self.data.countries().polygons
    let name = PolygonGridFile.name(for: layer)
    let folder = Self.temporaryFolder()
    let victim = Self.temporaryFolder()
    defer {
      try? FileManager.default.removeItem(atPath: folder)
      try? FileManager.default.removeItem(atPath: victim)
    }
    let precious = Data("a file the cache must never write\n".utf8)
    try precious.write(to: URL(fileURLWithPath: victim))
    #expect(mkdir(folder, 0o700) == 0)
    // The index's name, and the temporary names that writers once used (the name and a process id) for
    // this process and the next few.
    var names = [name] + (0..<64).map { "\(name).\(Int(getpid()) + $0).part" }
    names += ["." + name + ".part", ".key.part"]
    for planted in names { #expect(symlink(victim, folder + "/" + planted) == 0) }
    let cache = try IndexCache(path: folder)
    let built = PolygonGridFile.grid(layer: layer, cache: cache)
    #expect(Self.contents(victim) == precious)
    var info = stat()
    #expect(lstat(folder + "/" + name, &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
    #expect(PolygonGridFile.load(from: cache, layer: layer)?.cells.nodes == built.cells.nodes)
    // No temporary file is left behind.
    let left = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !names.contains($0) }
    #expect(left == ["key"])
  }

  @Test(
    "A FIFO, a folder or a link under an index's name is not read (nor waited on), and the index is built")
  func plantedSpecialFiles() throws {
    let layer = try Self.data.countries().polygons
    let name = PolygonGridFile.name(for: layer)
    let folder = Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let cache = try IndexCache(path: folder)
    let good = PolygonGridFile.grid(layer: layer, cache: cache)
    let path = folder + "/" + name
    let original = try #require(Self.contents(path))
    let copy = folder + "/copy.bin"
    try original.write(to: URL(fileURLWithPath: copy))
    let plant: [(String, () -> Bool)] = [
      ("a FIFO", { mkfifo(path, 0o600) == 0 }),
      ("a folder", { mkdir(path, 0o700) == 0 }),
      ("a link to a good copy", { symlink(copy, path) == 0 }),
    ]
    for (what, make) in plant {
      try? FileManager.default.removeItem(atPath: path)
      #expect(make(), "\(what)")
      #expect(PolygonGridFile.load(from: cache, layer: layer) == nil, "\(what)")
      let built = PolygonGridFile.grid(layer: layer, cache: cache)
      #expect(built.cells.nodes == good.cells.nodes, "\(what)")
    }
    if Self.isRoot {
      // Another user's copy of a good file.
      try? FileManager.default.removeItem(atPath: path)
      try original.write(to: URL(fileURLWithPath: path))
      #expect(chown(path, Self.otherUser, Self.otherUser) == 0)
      #expect(PolygonGridFile.load(from: cache, layer: layer) == nil)
    }
  }

  /// Signs the index file `bytes` again with `key`, as a writer of the folder would.
  static func resign(_ bytes: inout [UInt8], key: IndexCache.Key) {
    let header = headerSize(bytes)
    var hash = SipHash24(key: (key.low, key.high))
    bytes.withUnsafeBytes {
      hash.update(UnsafeRawBufferPointer(rebasing: $0[..<(header - 8)]))
      hash.update(UnsafeRawBufferPointer(rebasing: $0[header...]))
    }
    withUnsafeBytes(of: hash.finish().littleEndian) { bytes.replaceSubrange((header - 8)..<header, with: $0) }
  }

  /// The size of the header of the index file `bytes`, from its counts of keys and arrays.
  static func headerSize(_ bytes: [UInt8]) -> Int {
    func u32(_ offset: Int) -> Int {
      Int(
        bytes.withUnsafeBytes {
          UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        })
    }
    let keys = u32(8)
    return IndexCacheFile.headerSize(keys: keys, arrays: u32(12 + 4 * keys))
  }

  static func readKey(_ folder: String) throws -> IndexCache.Key {
    let bytes = try #require(contents(folder + "/key"))
    return bytes.withUnsafeBytes {
      IndexCache.Key(
        low: UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
        high: UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
    }
  }

  @Test(
    "A nearest-place grid with every candidate shifted by one is refused unless signed with the folder's key")
  func forgedPlaceGrid() throws {
    let places = try Self.data.places()
    let vectors = PlaceVectorArray(places: places)
    let folder = Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let cache = try IndexCache(path: folder)
    let built = NearestPlaceGridFile.grid(places: places, cache: cache)
    let path = folder + "/" + NearestPlaceGridFile.name(for: places, topSize: 64)
    var forged = Array(try #require(Self.contents(path)))
    let candidatesStart = forged.count - 4 * built.candidates.count
    for index in built.candidates.indices {
      let shifted = (built.candidates[index] + 1) % UInt32(places.count)
      withUnsafeBytes(of: shifted.littleEndian) {
        forged.replaceSubrange((candidatesStart + 4 * index)..<(candidatesStart + 4 * index + 4), with: $0)
      }
    }
    func load() -> NearestPlaceGrid? {
      NearestPlaceGridFile.load(from: cache, places: places, vectors: vectors, topSize: 64)
    }
    // Signed with a key of the forger's own: refused, and the next build writes the true grid again.
    Self.resign(&forged, key: .random())
    try Data(forged).write(to: URL(fileURLWithPath: path))
    #expect(load() == nil)
    #expect(
      NearestPlaceGridFile.grid(places: places, cache: cache).candidates == built.candidates
    )
    // Signed with the folder's key, the same forgery would be read: the signature is what refuses it.
    Self.resign(&forged, key: try Self.readKey(folder))
    try Data(forged).write(to: URL(fileURLWithPath: path))
    let accepted = try #require(load())
    #expect(accepted.candidates != built.candidates)
  }

  @Test(
    "A forged file of every kind of index is not used: the answers are those of the true indexes, and it is written again"
  )
  func forgedEveryKind() throws {
    var generator = SplitMix64(seed: 38)
    let points = (0..<2_500).map { _ in Coordinate.random(using: &generator) }
    let folder = Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let cache = try IndexCache(path: folder)
    // (That answers from cached indexes are those from indexes built in memory, IndexCacheFileTests shows.)
    let expected = try ReverseGeocoder(data: Self.data, cache: cache).placemarks(for: points, fields: .all)
    // The countries alone have a tree of the small islands, which every field reads in the shores'.
    let expectedCountries = try ReverseGeocoder(data: Self.data, cache: cache).placemarks(
      for: points, fields: .country)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".bin") }
    for kind in [
      "places-grid", "coastline-", "countries-grid", "timezones-grid", "regions-grid", "marine-grid",
      "islands-grid", "-shores-", "sea-shores", "-borders-", "clearances", "island-shores", "region-borders",
      "named-sea-borders", "country-places", "small-island-rings", "island-cells", "border-cells",
      "small-island-cells",
    ] {
      #expect(names.contains { $0.contains(kind) }, "\(kind): \(names.sorted())")
    }
    var originals: [String: Data] = [:]
    for name in names {
      let path = folder + "/" + name
      let original = try #require(Self.contents(path))
      originals[name] = original
      // A byte of every word after the header changed, and the file signed again by someone without the key.
      var forged = Array(original)
      let header = Self.headerSize(forged)
      for offset in stride(from: header, to: forged.count - 3, by: 4) { forged[offset] &+= 1 }
      Self.resign(&forged, key: .random())
      try Data(forged).write(to: URL(fileURLWithPath: path))
    }
    #expect(
      try ReverseGeocoder(data: Self.data, cache: cache).placemarks(for: points, fields: .all) == expected)
    #expect(
      try ReverseGeocoder(data: Self.data, cache: cache).placemarks(for: points, fields: .country)
        == expectedCountries)
    for name in names { #expect(Self.contents(folder + "/" + name) == originals[name], "\(name)") }
  }
}

extension IndexCacheTests {
  @Test(
    "Temporary files a killed writer left are removed when an hour old; newer ones, links and other files stay"
  )
  func abandonedTemporaryFiles() throws {
    let folder = Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(mkdir(folder, 0o700) == 0)
    let old = Date(timeIntervalSinceNow: -Double(IndexCache.abandonedAge) - 60)
    func file(_ name: String, modified: Date) throws {
      try Data("part".utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
      try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: folder + "/" + name)
    }
    try file(".places-grid-v2.bin.1x2y3z.part", modified: old)
    try file(".key.9q8w7e.part", modified: old)
    try file(".places-grid-v2.bin.4a5b6c.part", modified: Date())
    try file("places-grid-v2.bin", modified: old)
    try file(".hidden", modified: old)
    #expect(symlink("/nonexistent", folder + "/.dangling.part") == 0)
    _ = try IndexCache(path: folder)
    let left = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    #expect(
      left == [".dangling.part", ".hidden", ".places-grid-v2.bin.4a5b6c.part", "key", "places-grid-v2.bin"])
  }
}

extension IndexCacheTests {
  @Test("A new version of an index removes one's own files of its earlier versions, and nothing else")
  func earlierVersionsRemoved() throws {
    let folder = Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(mkdir(folder, 0o700) == 0)
    let cache = try IndexCache(path: folder)
    let kept = [
      "countries-grid-v4-dc460e01-2716976-24-12.bin",  // a later version, of a newer program
      "countries-grid-v3-0badf00d-2716976-24-12.bin",  // the same version of other data
      "countries-border-cells-v2-dc460e01.bin",  // another index
      "coastline-h-grid-v2-b212c1e6-8780920-24-12.bin",  // another layer's
      "countries-grid-v2.txt", ".countries-grid-v2-x.bin", "countries-grid-v.bin", "countries-gridv2-x.bin",
    ]
    let removed = ["countries-grid-v2-dc460e01-2716976-24-12.bin", "countries-grid-v1.bin"]
    for name in kept + removed { try Data("old".utf8).write(to: URL(fileURLWithPath: folder + "/" + name)) }
    // Not a regular file of one's own: a link to an earlier version's name, and a folder.
    #expect(symlink(folder + "/" + removed[0], folder + "/countries-grid-v1-link.bin") == 0)
    #expect(mkdir(folder + "/countries-grid-v1-folder.bin", 0o700) == 0)
    let written = "countries-grid-v3-dc460e01-2716976-24-12.bin"
    cache.write(written) { write($0, "new", 3) == 3 }
    let left = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    #expect(
      left
        == (kept + [written, "key", "countries-grid-v1-link.bin", "countries-grid-v1-folder.bin"]).sorted())
    #expect(IndexCache.version(of: written)?.index == "countries-grid")
    #expect(IndexCache.version(of: written)?.version == 3)
    #expect(
      IndexCache.version(of: "coastline-h-small-island-cells-v5-b212c1e6.bin")?.index
        == "coastline-h-small-island-cells")
    #expect(IndexCache.version(of: "-v3-x.bin") == nil)
    // A layer whose own name has a version: the index's is the last.
    #expect(IndexCache.version(of: "roads-v2-grid-v3-ab12-99-24-12.bin")?.index == "roads-v2-grid")
    #expect(IndexCache.version(of: "roads-v2-grid-v3-ab12-99-24-12.bin")?.version == 3)
  }
}
