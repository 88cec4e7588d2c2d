#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A layer's ``PolygonGrid`` kept in a cache folder, so that a batch loads its cells instead of building
/// them again (most of a batch's start when it asks for one field: land, a country, a time zone).
///
/// The file is named after what the grid depends on: the layer file's name, checksum and size, and the
/// grid's parameters. So a new data file or a changed grid never meets an old file. Its 40-byte header
/// holds the magic `TUNLPGRD`, a version, the layer's checksum, the counts, the layer's vertex count, a
/// CRC-32 of the arrays that follow and four zero bytes (nodes as
/// three little-endian `UInt32`s each, states as `Int32`s, runs as `UInt32`s). Loading checks all of it and
/// every node, run and state (``PolygonGrid/init(layer:nodes:states:runs:)``); a file that fails is
/// ignored and replaced. Saving writes a temporary file and renames it, as ``NearestPlaceGridFile`` does.
enum PolygonGridFile {
  static let magic = Array("TUNLPGRD".utf8)
  static let version: UInt32 = 1
  static let headerSize = 40

  /// The file's name for the grid of `layer`.
  static func name(for layer: PolygonLayer) -> String {
    let file = String(layer.path.split(separator: "/").last ?? "layer")
    let stem = file.hasSuffix(".tunnel") ? String(file.dropLast(7)) : file
    let checksum = String(layer.file.payloadChecksum, radix: 16)
    return
      "\(stem)-grid-v\(version)-\(checksum)-\(layer.file.size)-\(PolygonGrid.leafCapacity)-\(PolygonGrid.maximumDepth).bin"
  }

  /// The grid of `layer` from `directory`, or built (and saved there, if the folder can be written).
  static func grid(layer: PolygonLayer, directory: String?) -> PolygonGrid {
    guard let directory else { return PolygonGrid(layer: layer) }
    let path = directory + "/" + name(for: layer)
    if let loaded = load(path, layer: layer) { return loaded }
    let built = PolygonGrid(layer: layer)
    save(built, to: path)
    return built
  }

  /// The grid saved at `path`, or nil when there is none or it does not pass every check.
  static func load(_ path: String, layer: PolygonLayer) -> PolygonGrid? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var header = [UInt8](repeating: 0, count: headerSize)
    guard NearestPlaceGridFile.readAll(descriptor, &header, count: headerSize), Array(header[0..<8]) == magic
    else { return nil }
    func u32(_ offset: Int) -> UInt32 {
      header.withUnsafeBytes {
        UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
      }
    }
    let (nodeCount, stateCount, runCount) = (Int(u32(16)), Int(u32(20)), Int(u32(24)))
    guard u32(8) == version, u32(12) == layer.file.payloadChecksum, u32(28) == UInt32(layer.vertexCount),
      u32(36) == 0,
      nodeCount < 1 << 28, stateCount < 1 << 28, runCount < 1 << 28
    else { return nil }
    // The arrays are read straight into the grid's own: a node is three UInt32s, a run one, all
    // little-endian as the file's (the build targets are).
    guard UInt32(1).littleEndian == 1, MemoryLayout<PolygonGrid.Node>.stride == 12,
      MemoryLayout<PolygonGrid.Run>.stride == 4
    else { return nil }
    var nodes = [PolygonGrid.Node](repeating: PolygonGrid.Node(), count: nodeCount)
    var states = [Int32](repeating: 0, count: stateCount)
    var runs = [PolygonGrid.Run](repeating: PolygonGrid.Run(raw: 0), count: runCount)
    guard NearestPlaceGridFile.readAll(descriptor, &nodes, count: 12 * nodeCount),
      NearestPlaceGridFile.readAll(descriptor, &states, count: 4 * stateCount),
      NearestPlaceGridFile.readAll(descriptor, &runs, count: 4 * runCount)
    else { return nil }
    var extra: UInt8 = 0
    guard read(descriptor, &extra, 1) == 0 else { return nil }
    var crc = CRC32()
    nodes.withUnsafeBytes { crc.update($0) }
    states.withUnsafeBytes { crc.update($0) }
    runs.withUnsafeBytes { crc.update($0) }
    guard crc.value == u32(32) else { return nil }
    return PolygonGrid(layer: layer, nodes: nodes, states: states, runs: runs)
  }

  /// Saves `grid` at `path`, creating its folder; failures are ignored (the grid is only a cache).
  static func save(_ grid: PolygonGrid, to path: String) {
    let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
    NearestPlaceGridFile.makeDirectories(directory)
    guard UInt32(1).littleEndian == 1, MemoryLayout<PolygonGrid.Node>.stride == 12,
      MemoryLayout<PolygonGrid.Run>.stride == 4
    else { return }
    let (nodes, states, runs) = grid.cells
    var crc = CRC32()
    nodes.withUnsafeBytes { crc.update($0) }
    states.withUnsafeBytes { crc.update($0) }
    runs.withUnsafeBytes { crc.update($0) }
    var header = [UInt8](repeating: 0, count: headerSize)
    header.replaceSubrange(0..<8, with: magic)
    func put(_ value: UInt32, at offset: Int) {
      withUnsafeBytes(of: value.littleEndian) { header.replaceSubrange(offset..<(offset + 4), with: $0) }
    }
    put(version, at: 8)
    put(grid.layer.file.payloadChecksum, at: 12)
    put(UInt32(nodes.count), at: 16)
    put(UInt32(states.count), at: 20)
    put(UInt32(runs.count), at: 24)
    put(UInt32(grid.layer.vertexCount), at: 28)
    put(crc.value, at: 32)
    let temporary = path + ".\(getpid()).part"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { return }
    let written =
      NearestPlaceGridFile.writeAll(descriptor, header)
      && NearestPlaceGridFile.writeAll(descriptor, nodes)
      && NearestPlaceGridFile.writeAll(descriptor, states) && NearestPlaceGridFile.writeAll(descriptor, runs)
    close(descriptor)
    if !written || rename(temporary, path) != 0 { unlink(temporary) }
  }
}
