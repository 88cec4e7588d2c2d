import TunnelSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An index kept in an ``IndexCache`` folder as arrays of plain values, so that a batch reads it instead
/// of building it again. Every kind of index is kept this way: the nearest-place grid, the polygon grids,
/// the trees of shores and borders, the sea-shore grid, the border clearances and the cells near country
/// borders (``BorderCells``).
///
/// The header holds an 8-byte magic naming the kind of index, the number of keys and the keys (what the
/// index was built from: checksums, sizes, parameters; little-endian `UInt32`s), the number of arrays and
/// each one's byte count (`UInt64`s), and the file's signature: SipHash-2-4 under the folder's secret key
/// (``IndexCache/key``) of every byte before and after it, little-endian. Reading checks the magic, that
/// the keys are those asked for, that the counts add up to the file's size and the signature; the caller
/// then checks that every index inside the arrays stays in range. So a damaged file, and a file made or
/// changed by anyone who does not have the key, is ignored (and replaced by the next build), never
/// trusted. Saving writes a new temporary file and renames it (``IndexCache/write(_:_:)``), so concurrent
/// batches never read half a file. The arrays are written in the machine's byte order, which every build
/// target shares with the file's (little-endian); a big-endian machine neither reads nor writes these
/// files.
enum IndexCacheFile {
  /// Arrays larger than this are refused when read.
  static let largestArray = 1 << 31

  /// The header's size for `keys` keys and `arrays` arrays.
  static func headerSize(keys: Int, arrays: Int) -> Int { 8 + 4 + 4 * keys + 4 + 8 * arrays + 8 }

  /// Saves `arrays` as the file `name` in `cache`; failures are ignored (the file is only a cache).
  static func save(_ name: String, in cache: IndexCache, magic: String, keys: [UInt32], arrays: [CacheArray])
  {
    guard UInt32(1).littleEndian == 1, magic.utf8.count == 8 else { return }
    var header = Array(magic.utf8)
    func put(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { header.append(contentsOf: $0) } }
    put(UInt32(keys.count))
    keys.forEach(put)
    put(UInt32(arrays.count))
    for array in arrays {
      withUnsafeBytes(of: UInt64(array.byteCount).littleEndian) { header.append(contentsOf: $0) }
    }
    var signature = cache.signature()
    header.withUnsafeBytes { signature.update($0) }
    for array in arrays {
      _ = array.withBytes {
        signature.update($0)
        return true
      }
    }
    withUnsafeBytes(of: signature.finish().littleEndian) { header.append(contentsOf: $0) }
    cache.write(name) { descriptor in
      var written = header.withUnsafeBytes { writeAll($0, to: descriptor) == 0 }
      for array in arrays where written { written = array.withBytes { writeAll($0, to: descriptor) == 0 } }
      return written
    }
  }

  /// Reads the arrays of a file written by ``save(_:in:magic:keys:arrays:)``, one at a time, in order.
  struct Reader: ~Copyable {
    private let descriptor: Int32
    private let byteCounts: [Int]
    private var next = 0
    private var signature: SipHash24
    private let expectedSignature: UInt64
    private var failed = false

    /// Opens the file `name` in `cache` if its header has `magic`, exactly `keys` and `arrays` arrays
    /// whose sizes add up to the file's; nil otherwise.
    init?(_ name: String, in cache: IndexCache, magic: String, keys: [UInt32], arrays: Int) {
      guard UInt32(1).littleEndian == 1, let descriptor = cache.openForReading(name) else { return nil }
      let size = IndexCacheFile.headerSize(keys: keys.count, arrays: arrays)
      var header = [UInt8](repeating: 0, count: size)
      func u32(_ offset: Int) -> UInt32 {
        header.withUnsafeBytes {
          UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        }
      }
      func u64(_ offset: Int) -> UInt64 {
        header.withUnsafeBytes {
          UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
      }
      guard readAll(descriptor, &header), Array(header[0..<8]) == Array(magic.utf8),
        u32(8) == UInt32(keys.count), keys.indices.allSatisfy({ u32(12 + 4 * $0) == keys[$0] }),
        u32(12 + 4 * keys.count) == UInt32(arrays)
      else {
        close(descriptor)
        return nil
      }
      let countsStart = 16 + 4 * keys.count
      let counts = (0..<arrays).map { u64(countsStart + 8 * $0) }
      // The counts must add up to the file's size, so that a damaged count never sizes an allocation.
      var info = stat()
      guard counts.allSatisfy({ $0 <= UInt64(IndexCacheFile.largestArray) }), fstat(descriptor, &info) == 0,
        UInt64(size) + counts.reduce(0, +) == UInt64(info.st_size)
      else {
        close(descriptor)
        return nil
      }
      self.descriptor = descriptor
      byteCounts = counts.map { Int($0) }
      expectedSignature = u64(size - 8)
      signature = cache.signature()
      header.withUnsafeBytes { signature.update(UnsafeRawBufferPointer(rebasing: $0[..<(size - 8)])) }
    }

    deinit { close(descriptor) }

    /// The next array, or nil when its byte count is not a whole number of `Element`s or the file ends
    /// early.
    mutating func read<Element: BitwiseCopyable>(_: Element.Type) -> [Element]? {
      guard !failed, next < byteCounts.count else { return nil }
      let bytes = byteCounts[next]
      next += 1
      let stride = MemoryLayout<Element>.stride
      guard bytes % stride == 0 else {
        failed = true
        return nil
      }
      let count = bytes / stride
      let descriptor = descriptor
      var complete = false
      let array = [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
        complete = readAll(descriptor, into: UnsafeMutableRawBufferPointer(buffer))
        initialized = complete ? count : 0
      }
      guard complete else {
        failed = true
        return nil
      }
      array.withUnsafeBytes { signature.update($0) }
      return array
    }

    /// Whether every array was read, nothing follows them, and the file's signature holds.
    consuming func finish() -> Bool {
      var extra: UInt8 = 0
      return !failed && next == byteCounts.count && readBytes(descriptor, &extra, 1) == 0
        && signature.finish() == expectedSignature
    }
  }

  /// The file's name for an index of `kind` over `layer`: named after the layer file, its checksum and
  /// the file format's version, so that new data or a new format never reads an old file.
  static func name(layer: PolygonLayer, kind: String, version: UInt32) -> String {
    let file = String(layer.path.split(separator: "/").last ?? "layer")
    let stem = file.hasSuffix(".tunnel") ? String(file.dropLast(7)) : file
    return "\(stem)-\(kind)-v\(version)-\(String(layer.file.payloadChecksum, radix: 16)).bin"
  }

  /// The low and high halves of a 64-bit value, as two keys.
  static func keys(_ value: Int) -> [UInt32] {
    [UInt32(truncatingIfNeeded: value), UInt32(truncatingIfNeeded: UInt64(value) >> 32)]
  }

  /// The CRC-32 of which features `accept` admits, one byte each: a key for an index built over them.
  static func acceptedKey(features: Int, _ accept: (Int) -> Bool) -> UInt32 {
    let admitted = (0..<features).map { accept($0) ? UInt8(1) : 0 }
    return admitted.withUnsafeBytes(CRC32.of)
  }
}

/// `read(2)`, named apart from ``IndexCacheFile/Reader/read(_:)``.
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
  read(descriptor, buffer, count)
}

/// An array written to an ``IndexCacheFile`` as its bytes.
struct CacheArray {
  let byteCount: Int
  /// Hands the array's bytes to `body`, and returns what it returns.
  let withBytes: ((UnsafeRawBufferPointer) -> Bool) -> Bool

  init<Element: BitwiseCopyable>(_ array: [Element]) {
    byteCount = array.count * MemoryLayout<Element>.stride
    withBytes = { body in array.withUnsafeBytes(body) }
  }
}
