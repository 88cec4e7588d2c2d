import Foundation
import SeededRandom
import Testing

@testable import TunnelGeo

@Suite struct NearestPlaceGridFileTests {
  @Test("A saved grid loads back exactly; a damaged, cut or foreign file is ignored and replaced")
  func roundTrip() throws {
    let places = try PlaceData().places()
    let vectors = PlaceVectorArray(places: places)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("grid-\(UUID().uuidString)")
      .path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let built = NearestPlaceGridFile.grid(places: places, vectors: vectors, directory: directory + "/a/b")
    let path = directory + "/a/b/" + NearestPlaceGridFile.name(for: places, topSize: 64)
    let loaded = try #require(NearestPlaceGridFile.load(path, places: places, vectors: vectors, topSize: 64))
    #expect(
      loaded.first == built.first && loaded.count == built.count && loaded.candidates == built.candidates)
    #expect(NearestPlaceGridFile.load(path, places: places, vectors: vectors, topSize: 32) == nil)

    let original = try Data(contentsOf: URL(fileURLWithPath: path))
    var generator = SplitMix64(seed: 3)
    for _ in 0..<20 {
      var damaged = original
      let position = Int(generator.next() % UInt64(damaged.count))
      damaged[position] ^= UInt8(1 << (generator.next() % 8))
      try damaged.write(to: URL(fileURLWithPath: path))
      #expect(
        NearestPlaceGridFile.load(path, places: places, vectors: vectors, topSize: 64) == nil, "\(position)")
    }
    for cut in [0, 47, 48, original.count / 2, original.count - 1] {
      try original.prefix(cut).write(to: URL(fileURLWithPath: path))
      #expect(NearestPlaceGridFile.load(path, places: places, vectors: vectors, topSize: 64) == nil)
    }
    try (original + Data([0])).write(to: URL(fileURLWithPath: path))
    #expect(NearestPlaceGridFile.load(path, places: places, vectors: vectors, topSize: 64) == nil)
    // The next build replaces the bad file.
    _ = NearestPlaceGridFile.grid(places: places, vectors: vectors, directory: directory + "/a/b")
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
  }
}
