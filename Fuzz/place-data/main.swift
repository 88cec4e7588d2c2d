internal import CZlib
import Glibc
import TunnelGeo
internal import CFuzzer
import FuzzSupport

// The input is a polygon layer file (the seeds are real ones). Half the inputs are taken as they are, so
// that damage must be caught by the checksums; the other half are first sealed (their block and header
// checksums recomputed, as a writer would), so that arbitrary content reaches the readers behind the
// checksums. Either way the layer opens or fails with an error naming the file, and queries, decoding
// and verification run to the end: never a trap, never a hang.
func fuzzPlaceData(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  guard let start, count > 0 else { return 0 }
  var bytes = Array(UnsafeBufferPointer(start: start + 1, count: count - 1))
  if start[0] & 1 == 1 { seal(&bytes) }
  let path = folder + "/marine.tunnel"
  guard let file = fopen(path, "wb") else { fatalError("cannot write \(path)") }
  _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
  fclose(file)
  let data = PlaceData(uncheckedDirectory: folder)
  let marine: MarineLayer
  do {
    marine = try data.marine()
  } catch {
    check(error.path == path && !error.description.isEmpty, "\(error)")
    return 0
  }
  let polygons = marine.polygons
  for (latitude, longitude) in [(56.0, 7.5), (-40.0, 160.0), (0.0, 0.0), (89.9, 179.9), (-89.9, -180.0)] {
    let point = try! Coordinate(latitude: latitude, longitude: longitude)
    _ = marine.names(containing: point)
    _ = polygons.features(containing: point)
  }
  // Features may share rings in a damaged file: each ring is decoded once, and no more vertices come out of
  // it than its record declares (a chunk's share of them rounded up).
  var decoded = Set<Int>()
  for feature in 0..<min(polygons.featureCount, 10_000) {
    _ = marine.name(feature)
    for ring in polygons.rings(of: feature).prefix(10_000) where decoded.insert(ring).inserted {
      var vertices = 0
      polygons.forEachVertex(ofRing: ring) { _ in vertices += 1 }
      check(
        vertices <= polygons.ring(ring).vertexCount + PolygonLayer.chunkEdges + 1,
        "ring \(ring) gave \(vertices) vertices for \(polygons.ring(ring).vertexCount)")
      _ = polygons.vertices(ofRing: ring).count
    }
  }
  do {
    try data.checkIntact()
    try data.verify()
  } catch {
    check(!error.description.isEmpty, "an empty message for \(error)")
  }
  return 0
}

/// A folder of this process's own for the file under test.
private let folder: String = {
  let path = "/tmp/tunnel-fuzz-\(getpid())"
  mkdir(path, 0o700)
  return path
}()

/// Recomputes the block table and the header checksum (Data/FORMAT.md), where the header's sizes allow.
private func seal(_ bytes: inout [UInt8]) {
  func u32(_ offset: Int) -> Int {
    Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
  }
  func store(_ value: UInt, at offset: Int) {
    for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
  }
  guard bytes.count >= 64 else { return }
  let sections = u32(16)
  let blockSize = u32(56)
  let blockCount = u32(60)
  let tableEnd = 64 + 24 * sections
  let payloadStart = tableEnd + (4 * blockCount + 7) / 8 * 8
  guard sections <= 64, blockSize >= 4096, blockSize & (blockSize - 1) == 0, payloadStart <= bytes.count,
    blockCount == (bytes.count - payloadStart + blockSize - 1) / blockSize
  else { return }
  bytes.withUnsafeMutableBufferPointer { buffer in
    let base = buffer.baseAddress!
    for block in 0..<blockCount {
      let start = payloadStart + block * blockSize
      let sum = blockChecksum(UnsafeRawBufferPointer(start: base + start, count: min(blockSize, buffer.count - start)))
      for index in 0..<4 { buffer[tableEnd + 4 * block + index] = UInt8(truncatingIfNeeded: sum >> (8 * index)) }
    }
  }
  for index in 20..<24 { bytes[index] = 0 }
  store(bytes.withUnsafeBufferPointer { crc32(0, $0.baseAddress, UInt32(payloadStart)) }, at: 20)
}

/// A block's checksum as Data/FORMAT.md defines it (written here again from the specification).
private func blockChecksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
  var padded = Array(bytes)
  while padded.count % 8 != 0 { padded.append(0) }
  var h: UInt64 = 0x243F_6A88_85A3_08D3
  for start in stride(from: 0, to: padded.count, by: 8) {
    var word: UInt64 = 0
    for index in 0..<8 { word |= UInt64(padded[start + index]) << (8 * UInt64(index)) }
    h = (h &+ word) &* 0x9E37_79B9_7F4A_7C15
  }
  for (shift, multiplier) in [(33, 0xFF51_AFD7_ED55_8CCD), (33, 0xC4CE_B9FE_1A85_EC53)] as [(UInt64, UInt64)] {
    h ^= h >> shift
    h &*= multiplier
  }
  h ^= h >> 33
  return UInt32(truncatingIfNeeded: h)
}

// libFuzzer's loop, with this process's options (Scripts/fuzz builds and runs it). Last in the file, so
// that the globals above are set before the first input.
var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
var argumentCount = CommandLine.argc
exit(LLVMFuzzerRunDriver(&argumentCount, &arguments) { fuzzPlaceData($0, $1) })
