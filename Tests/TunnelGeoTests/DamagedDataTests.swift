import Foundation
import RandomPoints
import SeededRandom
import Testing

@testable import TunnelGeo

/// One changed byte in the body of a data file — the kind of damage that used to give a plausible wrong
/// answer — is found by the query that reads it, which then answers with an error naming the file.
@Suite final class DamagedDataTests {
  private var folders: [String] = []

  deinit {
    for folder in folders { try? FileManager.default.removeItem(atPath: folder) }
  }

  /// A fresh data folder: every layer linked to the real one, except `fileName`, copied and damaged.
  func data(damaging fileName: String, _ damage: (inout [UInt8]) throws -> Void) throws -> PlaceData {
    let source = try PlaceDataLocation.find()
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("tunnel-damaged-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    folders.append(folder)
    for name in PlaceData.fileNames where name != fileName {
      try FileManager.default.createSymbolicLink(
        atPath: folder + "/" + name, withDestinationPath: source + "/" + name)
    }
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source + "/" + fileName)))
    try damage(&bytes)
    try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + fileName))
    return PlaceData(uncheckedDirectory: folder)
  }

  /// Changes one letter of the first occurrence of `text` in the file.
  static func misspell(_ text: String, in bytes: inout [UInt8]) throws {
    let target = Array(text.utf8)
    let start = try #require(
      (0...(bytes.count - target.count)).first { bytes[$0..<($0 + target.count)].elementsEqual(target) })
    bytes[start + 1] ^= 0x01  // "North Sea" → "Nnrth Sea"
  }

  /// Makes `bytes` a file whose checksums all hold again (Data/FORMAT.md), as a writer would: what is
  /// wrong in it then reaches the readers behind the checks.
  /// Writes a little-endian u32 into `bytes` at `offset`.
  static func store(_ value: UInt32, at offset: Int, in bytes: inout [UInt8]) {
    for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
  }

  static func seal(_ bytes: inout [UInt8]) {
    func u32(_ offset: Int) -> Int { bytes[offset..<(offset + 4)].reversed().reduce(0) { $0 << 8 | Int($1) } }
    func store(_ value: UInt32, at offset: Int) { Self.store(value, at: offset, in: &bytes) }
    let tableEnd = 64 + 24 * u32(16)
    let (blockSize, blockCount) = (u32(56), u32(60))
    let payloadStart = tableEnd + (4 * blockCount + 7) / 8 * 8
    let sums = bytes.withUnsafeBytes { raw in
      (0..<blockCount).map { block in
        let start = payloadStart + block * blockSize
        return DataFile.blockChecksum(
          UnsafeRawBufferPointer(rebasing: raw[start..<min(start + blockSize, raw.count)]))
      }
    }
    for (block, sum) in sums.enumerated() { store(sum, at: tableEnd + 4 * block) }
    store(bytes.withUnsafeBytes { CRC32.of(UnsafeRawBufferPointer(rebasing: $0[payloadStart...])) }, at: 48)
    store(0, at: 20)
    store(bytes.withUnsafeBytes { CRC32.of(UnsafeRawBufferPointer(rebasing: $0[..<payloadStart])) }, at: 20)
  }

  @Test(
    "Ring records that claim billions of vertices, in a file whose checksums hold, cost no more than their chunks (found by the place-data fuzzer)"
  )
  func overlongRings() throws {
    let source = try PlaceDataLocation.find() + "/marine.tunnel"
    let original = try DataFile(path: source, expectedKind: "POLY")
    let rings = try original.section("RING", itemSize: 32)
    let chunks = try original.section("CHNK", itemSize: 24)
    // A chunked ring whose first chunk claims 2³² − 1 vertices, and a single-chunk ring that claims as many.
    let chunked = try #require(
      (0..<rings.count).first { original.u32(rings.offset + 32 * $0 + 24) != UInt32.max })
    let single = try #require(
      (0..<rings.count).first { original.u32(rings.offset + 32 * $0 + 24) == UInt32.max })
    let firstChunk = Int(original.u32(rings.offset + 32 * chunked + 24))
    let data = try data(damaging: "marine.tunnel") { bytes in
      for offset in [chunks.offset + 24 * firstChunk + 20, rings.offset + 32 * single + 20] {
        for index in 0..<4 { bytes[offset + index] = 0xFF }
      }
      Self.seal(&bytes)
    }
    let polygons = try data.marine().polygons
    #expect(polygons.ring(single).vertexCount == Int(UInt32.max))
    #expect(polygons.vertices(ofRing: single).count <= PolygonLayer.chunkEdges + 1)
    var count = 0
    polygons.forEachVertex(ofRing: chunked) { _ in count += 1 }
    #expect(count <= polygons.ring(chunked).vertexCount + PolygonLayer.chunkEdges)
    // Queries and verification run to the end; the checksums hold, so nothing is reported damaged.
    _ = try data.marine().names(containing: Coordinate(latitude: 56, longitude: 7.5))
    try data.verify()
  }

  @Test(
    "A ring whose vertices span the whole 32-bit range, in a file whose checksums hold, is tested for a point without overflow (found by the place-data fuzzer)"
  )
  func ringsAcrossTheWholeRange() throws {
    let source = try PlaceDataLocation.find() + "/marine.tunnel"
    let original = try DataFile(path: source, expectedKind: "POLY")
    let rings = try original.section("RING", itemSize: 32)
    let stream = try original.section("VSTR", itemSize: 1)
    let single = try #require(
      (0..<rings.count).first { original.u32(rings.offset + 32 * $0 + 24) == UInt32.max })
    let streamOffset = Int(original.u32(rings.offset + 32 * single + 16))
    // The first vertex at (−2³¹ + 1, −2³¹ + 1), the second 2³² − 2 further on each axis: an edge across
    // every latitude, whose crossing test multiplies differences of about 2³² by each other.
    func varint(_ value: Int64) -> [UInt8] {
      var zigzag = UInt64(bitPattern: (value << 1) ^ (value >> 63))
      var bytes: [UInt8] = []
      repeat {
        bytes.append(UInt8(zigzag & 0x7F) | (zigzag > 0x7F ? 0x80 : 0))
        zigzag >>= 7
      } while zigzag > 0
      return bytes
    }
    let low = -Int64(Int32.max)
    let span = 2 * Int64(Int32.max)
    let vertices = varint(low) + varint(low) + varint(span) + varint(span) + varint(-span) + varint(-span)
    let data = try data(damaging: "marine.tunnel") { bytes in
      bytes.replaceSubrange(
        (stream.offset + streamOffset)..<(stream.offset + streamOffset + vertices.count), with: vertices)
      Self.seal(&bytes)
    }
    let polygons = try data.marine().polygons
    let box = polygons.ringBox(single)
    let inside = FixedPoint(
      latitude: Int32((Int64(box.minLatitude) + Int64(box.maxLatitude)) / 2), longitude: box.minLongitude)
    // Before, the crossing test trapped on arithmetic overflow; now it answers, right or wrong for damage.
    _ = polygons.ringCrossings(inside, ring: single)
    _ = polygons.features(containing: inside)
  }

  @Test(
    "A ring grid whose counts do not fit its section, in a file whose checksums hold, is refused when the layer opens"
  )
  func ringGridCountsThatLie() throws {
    let source = try PlaceDataLocation.find() + "/marine.tunnel"
    let grid = try DataFile(path: source, expectedKind: "POLY").section("RGRD", itemSize: 4)
    // Words: 0 the cell size, 1 the rows, 2 the columns, 3 the wide rings. Rows and columns both near 2³²
    // once overflowed their product before any bound was checked.
    let lies: [[(word: Int, value: UInt32)]] = [
      [(1, 0xFFFF)], [(2, 0xFFFF)], [(3, .max)], [(0, 0)], [(1, .max), (2, .max)],
      [(1, 1 << 16), (2, 1 << 16)],
    ]
    for lie in lies {
      let data = try data(damaging: "marine.tunnel") { bytes in
        for (word, value) in lie { Self.store(value, at: grid.offset + 4 * word, in: &bytes) }
        Self.seal(&bytes)
      }
      #expect(throws: PlaceDataError.self) { _ = try data.marine() }
    }
  }

  @Test(
    "Ring grid cells whose offsets point anywhere, in a file whose checksums hold, are read within the section"
  )
  func ringGridOffsetsThatLie() throws {
    let source = try PlaceDataLocation.find() + "/marine.tunnel"
    let original = try DataFile(path: source, expectedKind: "POLY")
    let grid = try original.section("RGRD", itemSize: 4)
    let cells = Int(original.u32(grid.offset + 4)) * Int(original.u32(grid.offset + 8))
    let data = try data(damaging: "marine.tunnel") { bytes in
      // Every cell's start past the end, and every other one before the previous cell's.
      for cell in 0...cells {
        let value: UInt32 = cell % 2 == 0 ? .max : UInt32(cells - cell)
        Self.store(value, at: grid.offset + 16 + 4 * cell, in: &bytes)
      }
      Self.seal(&bytes)
    }
    let marine = try data.marine()
    var generator = SplitMix64(seed: 3)
    for _ in 0..<200 { _ = marine.polygons.features(containing: Coordinate.random(using: &generator)) }
    try data.verify()
  }

  @Test(
    "A misspelt name is found by the query that reads it",
    arguments: [
      ("marine.tunnel", "North Sea", 56.0, 7.5),  // a sea's name
      ("regions.tunnel", "Midtjylland", 56.0, 8.5),  // a region's name
      ("places.tunnel", "Skjern", 56.0, 8.5),  // a place's name
      ("countries.tunnel", "Denmark", 56.0, 8.5),  // a country's name
      ("timezones.tunnel", "Europe/Copenhagen", 56.0, 8.5),  // a time zone
      ("lakes.tunnel", "Lake Superior", 47.7, -87.5),  // a lake's name
      ("subregions.tunnel", "Denver County", 39.74, -104.99),  // a county's name
    ])
  func misspeltName(fileName: String, name: String, latitude: Double, longitude: Double) throws {
    let data = try data(damaging: fileName) { try Self.misspell(name, in: &$0) }
    let point = try Coordinate(latitude: latitude, longitude: longitude)
    #expect(throws: PlaceDataError.self) { _ = try ReverseGeocoder(data: data).placemark(for: point) }
    do {
      _ = try ReverseGeocoder(data: data).placemark(for: point)
    } catch {
      guard case .damaged(let path, let offset, let count) = error else {
        Issue.record("expected .damaged, got \(error)")
        return
      }
      #expect(path == data.directory + "/" + fileName)
      #expect(count > 0 && offset > 0)
      #expect(error.description.hasPrefix(path + ": bytes "))
    }
  }

  @Test("A place moved by 10⁻⁷ degree is found by the nearest-place search and by a batch")
  func movedPlace() throws {
    let intact = try PlaceData().places()
    let skjern = try #require(intact.matches(forName: "Skjern").first?.place)
    let coordinates = try intact.file.section("PLLD", itemSize: 8)
    let data = try data(damaging: "places.tunnel") { $0[coordinates.offset + 8 * skjern + 4] ^= 0x01 }
    let point = try Coordinate(latitude: 56, longitude: 8.5)
    #expect(throws: PlaceDataError.self) { _ = try ReverseGeocoder(data: data).nearestPlace(to: point) }
    #expect(throws: PlaceDataError.self) { _ = try ReverseGeocoder(data: data).placemark(for: point) }
    #expect(throws: PlaceDataError.self) {
      _ = try ReverseGeocoder(data: data).nearestPlaces(to: Array(repeating: point, count: 3_000))
    }
  }

  @Test("Damage that a query does not read does not stop it; verification finds it")
  func damageElsewhere() throws {
    // The last bytes of the place file belong to the name index, which reverse geocoding never reads.
    let data = try data(damaging: "places.tunnel") { $0[$0.count - 3] ^= 0x20 }
    let here = try ReverseGeocoder(data: data).placemark(for: try Coordinate(latitude: 56, longitude: 8.5))
    #expect(here.nearestPlace.name == "Skjern")
    let path = data.directory + "/places.tunnel"
    #expect(throws: PlaceDataError.self) { try data.verify() }
    do {
      try data.verify()
    } catch {
      guard case .damaged(path, _, _) = error else {
        Issue.record("expected the place file's last block to be reported, got \(error)")
        return
      }
    }
  }

  @Test("Every block of every intact file matches its checksum")
  func intactDataVerifies() throws {
    try PlaceData().verify()
  }
}
