#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The nearest-place grid kept in a cache folder, so that a batch loads it in milliseconds instead of
/// building it (a few hundred milliseconds of every core).
///
/// The file is named after what the grid depends on (the place file's checksum and size, and the grid's
/// parameters), so a new place file or a changed grid never meets an old file. Its 48-byte header holds
/// the magic `TUNLGRID`, a version, the parameters, the counts and a CRC-32 of the arrays that follow
/// (node firsts, node counts, candidates; little-endian `UInt32`s). Loading checks all of it and that
/// every index stays in range; a file that fails is ignored (and replaced when the grid is next built).
/// Saving writes a temporary file and renames it, so concurrent batches never read half a file.
enum NearestPlaceGridFile {
  static let magic = Array("TUNLGRID".utf8)
  static let version: UInt32 = 1
  static let headerSize = 48

  /// The file's name for the grid of `places`.
  static func name(for places: PlaceLayer, topSize: Int) -> String {
    let checksum = String(places.file.payloadChecksum, radix: 16)
    return
      "places-grid-v\(version)-\(checksum)-\(places.file.size)-\(topSize)-\(NearestPlaceGrid.leafCapacity)-\(NearestPlaceGrid.maximumDepth).bin"
  }

  /// The grid in `directory`, or a new one built (and saved there, if the folder can be written).
  static func grid(
    places: PlaceLayer, vectors: PlaceVectorArray, directory: String?, topSize: Int = 64
  )
    -> NearestPlaceGrid
  {
    guard let directory else { return NearestPlaceGrid(places: places, vectors: vectors, topSize: topSize) }
    let path = directory + "/" + name(for: places, topSize: topSize)
    if let loaded = load(path, places: places, vectors: vectors, topSize: topSize) { return loaded }
    let built = NearestPlaceGrid(places: places, vectors: vectors, topSize: topSize)
    save(built, places: places, to: path)
    return built
  }

  /// The grid saved at `path`, or nil when there is none or it does not pass every check.
  static func load(
    _ path: String, places: PlaceLayer, vectors: PlaceVectorArray, topSize: Int
  )
    -> NearestPlaceGrid?
  {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var header = [UInt8](repeating: 0, count: headerSize)
    guard readAll(descriptor, &header, count: headerSize), Array(header[0..<8]) == magic else { return nil }
    func u32(_ offset: Int) -> UInt32 {
      header.withUnsafeBytes {
        UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
      }
    }
    let nodeCount = Int(u32(32))
    let candidateCount = Int(u32(36))
    guard u32(8) == version, u32(12) == UInt32(topSize), u32(16) == UInt32(NearestPlaceGrid.leafCapacity),
      u32(20) == UInt32(NearestPlaceGrid.maximumDepth), u32(24) == UInt32(places.count),
      u32(28) == places.file.payloadChecksum, nodeCount >= 6 * topSize * topSize, nodeCount < 1 << 28,
      candidateCount < 1 << 28
    else { return nil }
    var first = [UInt32](repeating: 0, count: nodeCount)
    var count = [UInt32](repeating: 0, count: nodeCount)
    var candidates = [UInt32](repeating: 0, count: candidateCount)
    guard readAll(descriptor, &first, count: nodeCount * 4),
      readAll(descriptor, &count, count: nodeCount * 4),
      readAll(descriptor, &candidates, count: candidateCount * 4)
    else { return nil }
    var extra: UInt8 = 0
    guard read(descriptor, &extra, 1) == 0 else { return nil }
    var crc = CRC32()
    for array in [first, count, candidates] { array.withUnsafeBytes { crc.update($0) } }
    guard crc.value == u32(40) else { return nil }
    // Every node either points at four children inside the grid or at candidates inside the list, and
    // every candidate is a place.
    for node in 0..<nodeCount {
      if count[node] == UInt32.max {
        guard Int(first[node]) + 4 <= nodeCount else { return nil }
      } else {
        guard Int(first[node]) + Int(count[node]) <= candidateCount else { return nil }
      }
    }
    guard candidates.allSatisfy({ Int($0) < places.count }) else { return nil }
    return NearestPlaceGrid(
      vectors: vectors, topSize: topSize, first: first, count: count, candidates: candidates)
  }

  /// Saves `grid` at `path`, creating its folder; failures are ignored (the grid is only a cache).
  static func save(_ grid: NearestPlaceGrid, places: PlaceLayer, to path: String) {
    let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
    makeDirectories(directory)
    var header = [UInt8](repeating: 0, count: headerSize)
    header.replaceSubrange(0..<8, with: magic)
    func put(_ value: UInt32, at offset: Int) {
      withUnsafeBytes(of: value.littleEndian) { header.replaceSubrange(offset..<(offset + 4), with: $0) }
    }
    var crc = CRC32()
    for array in [grid.first, grid.count, grid.candidates] { array.withUnsafeBytes { crc.update($0) } }
    put(version, at: 8)
    put(UInt32(grid.topSize), at: 12)
    put(UInt32(NearestPlaceGrid.leafCapacity), at: 16)
    put(UInt32(NearestPlaceGrid.maximumDepth), at: 20)
    put(UInt32(places.count), at: 24)
    put(places.file.payloadChecksum, at: 28)
    put(UInt32(grid.first.count), at: 32)
    put(UInt32(grid.candidates.count), at: 36)
    put(crc.value, at: 40)
    let temporary = path + ".\(getpid()).part"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { return }
    let written =
      writeAll(descriptor, header) && writeAll(descriptor, grid.first) && writeAll(descriptor, grid.count)
      && writeAll(descriptor, grid.candidates)
    close(descriptor)
    if !written || rename(temporary, path) != 0 { unlink(temporary) }
  }

  static func makeDirectories(_ path: String) {
    var prefix = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/") {
      prefix += "/" + part
      mkdir(prefix, 0o755)
    }
  }

  static func readAll<Element>(_ descriptor: Int32, _ array: inout [Element], count: Int) -> Bool {
    array.withUnsafeMutableBytes { buffer in
      var offset = 0
      while offset < count {
        let got = read(descriptor, buffer.baseAddress! + offset, count - offset)
        if got < 0, errno == EINTR { continue }
        guard got > 0 else { return false }
        offset += got
      }
      return true
    }
  }

  static func writeAll<Element>(_ descriptor: Int32, _ array: [Element]) -> Bool {
    array.withUnsafeBytes { writeBytes(descriptor, $0) }
  }

}
