#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One of Tunnel's data files, memory-mapped read-only, with its header and section table checked.
///
/// Opening reads nothing but the 64-byte header and the section table (a few hundred bytes): it checks
/// the magic, the format version, the file size, the CRC-32 of header and table, and that every
/// section lies inside the file. The CRC-32 of the payload is checked by ``verifyPayload()`` only, so
/// that opening stays in the microseconds however large the file is. Data/FORMAT.md is the
/// specification.
final class DataFile: @unchecked Sendable {
  // @unchecked: the mapping is read-only and never changes after init; it is unmapped in deinit.

  static let magic: [UInt8] = Array("TUNLDATA".utf8)
  static let formatVersion: UInt32 = 1
  static let headerSize = 64
  static let sectionEntrySize = 24

  /// A typed view of one section.
  struct Section {
    let offset: Int
    let byteCount: Int
    let itemSize: Int
    var count: Int { itemSize == 0 ? 0 : byteCount / itemSize }
  }

  let path: String
  let base: UnsafeRawPointer
  let size: Int
  let kind: String
  let counts: (Int, Int, Int)
  let unitsPerDegree: Int
  let attributesPerFeature: Int
  private let sections: [UInt32: Section]
  let payloadChecksum: UInt32
  private let payloadStart: Int

  init(path: String, expectedKind: String) throws(PlaceDataError) {
    self.path = path
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else {
      if errno == ENOENT { throw .fileMissing(path: path) }
      throw .unreadable(path: path, reason: String(cString: strerror(errno)))
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw .unreadable(path: path, reason: String(cString: strerror(errno)))
    }
    guard status.st_mode & S_IFMT == S_IFREG else {
      throw .unreadable(
        path: path,
        reason: status.st_mode & S_IFMT == S_IFDIR ? "it is a folder, not a file" : "it is not a regular file"
      )
    }
    let size = Int(status.st_size)
    guard size >= DataFile.headerSize else {
      throw .sizeMismatch(path: path, expected: DataFile.headerSize, actual: size)
    }
    guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED
    else {
      throw .unreadable(path: path, reason: String(cString: strerror(errno)))
    }
    let base = UnsafeRawPointer(mapped)
    do {
      let header = try DataFile.readHeader(base: base, size: size, path: path, expectedKind: expectedKind)
      self.base = base
      self.size = size
      self.kind = header.kind
      self.counts = header.counts
      self.unitsPerDegree = header.unitsPerDegree
      self.attributesPerFeature = header.attributesPerFeature
      self.sections = header.sections
      self.payloadChecksum = header.payloadChecksum
      self.payloadStart = header.payloadStart
    } catch {
      munmap(mapped, size)
      throw error
    }
  }

  deinit {
    munmap(UnsafeMutableRawPointer(mutating: base), size)
  }

  private struct Header {
    var kind: String
    var counts: (Int, Int, Int)
    var unitsPerDegree: Int
    var attributesPerFeature: Int
    var sections: [UInt32: Section]
    var payloadChecksum: UInt32
    var payloadStart: Int
  }

  private static func readHeader(
    base: UnsafeRawPointer, size: Int, path: String, expectedKind: String
  ) throws(PlaceDataError) -> Header {
    for (index, byte) in magic.enumerated() where base.load(fromByteOffset: index, as: UInt8.self) != byte {
      throw .badMagic(path: path)
    }
    func u32(_ offset: Int) -> UInt32 {
      UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
    func u64(_ offset: Int) -> UInt64 {
      UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
    let version = u32(8)
    guard version == formatVersion else {
      throw .unsupportedVersion(path: path, found: version, supported: formatVersion)
    }
    let sectionCount = Int(u32(16))
    let tableEnd = headerSize + sectionEntrySize * sectionCount
    guard sectionCount <= 64, tableEnd <= size else {
      throw .sizeMismatch(path: path, expected: tableEnd, actual: size)
    }
    var crc = CRC32()
    crc.update(UnsafeRawBufferPointer(start: base, count: 20))
    crc.update(zeros: 4)
    crc.update(UnsafeRawBufferPointer(start: base + 24, count: tableEnd - 24))
    guard crc.value == u32(20) else { throw .headerChecksumMismatch(path: path) }
    let declaredSize = u64(24)
    guard declaredSize == UInt64(size) else {
      throw .sizeMismatch(path: path, expected: Int(clamping: declaredSize), actual: size)
    }
    let kind = String(decoding: UnsafeRawBufferPointer(start: base + 12, count: 4), as: UTF8.self)
    guard kind == expectedKind else { throw .wrongKind(path: path, expected: expectedKind, found: kind) }
    var sections: [UInt32: Section] = [:]
    for index in 0..<sectionCount {
      let entry = headerSize + index * sectionEntrySize
      let tag = base.loadUnaligned(fromByteOffset: entry, as: UInt32.self)
      let itemSize = Int(u32(entry + 4))
      let offset = u64(entry + 8)
      let length = u64(entry + 16)
      guard offset % 8 == 0, offset >= UInt64(tableEnd), offset <= UInt64(size),
        length <= UInt64(size) - offset, itemSize > 0, length % UInt64(itemSize) == 0
      else {
        throw .malformed(path: path, detail: "section \(index) does not fit the file")
      }
      sections[tag] = Section(offset: Int(offset), byteCount: Int(length), itemSize: itemSize)
    }
    return Header(
      kind: kind, counts: (Int(u32(32)), Int(u32(36)), Int(u32(40))), unitsPerDegree: Int(u32(44)),
      attributesPerFeature: Int(u32(52)), sections: sections, payloadChecksum: u32(48),
      payloadStart: tableEnd)
  }

  /// The section with a four-letter tag, checked for its item size and, if given, its item count.
  func section(_ tag: String, itemSize: Int, count: Int? = nil) throws(PlaceDataError) -> Section {
    var key: UInt32 = 0
    for (index, byte) in tag.utf8.enumerated() { key |= UInt32(byte) << (8 * UInt32(index)) }
    guard let section = sections[UInt32(littleEndian: key)] else {
      throw .malformed(path: path, detail: "section \(tag) is missing")
    }
    guard section.itemSize == itemSize else {
      throw .malformed(
        path: path, detail: "section \(tag) has \(section.itemSize)-byte items, expected \(itemSize)")
    }
    if let count, section.count != count {
      throw .malformed(path: path, detail: "section \(tag) has \(section.count) items, expected \(count)")
    }
    return section
  }

  /// Checks the CRC-32 of everything after the section table (reads the whole file).
  func verifyPayload() throws(PlaceDataError) {
    var crc = CRC32()
    crc.update(UnsafeRawBufferPointer(start: base + payloadStart, count: size - payloadStart))
    guard crc.value == payloadChecksum else { throw .payloadChecksumMismatch(path: path) }
  }

  @inline(__always) func u8(_ offset: Int) -> UInt8 { base.load(fromByteOffset: offset, as: UInt8.self) }
  @inline(__always) func u16(_ offset: Int) -> UInt16 {
    UInt16(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
  }
  @inline(__always) func u32(_ offset: Int) -> UInt32 {
    UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
  }
  @inline(__always) func i32(_ offset: Int) -> Int32 {
    Int32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: Int32.self))
  }

  /// The file's META section: `key=value` lines describing source and licence (read on demand only).
  func metadata() -> [String: String] {
    guard let section = try? section("META", itemSize: 1) else { return [:] }
    let text = String(
      decoding: UnsafeRawBufferPointer(start: base + section.offset, count: section.byteCount), as: UTF8.self)
    var result: [String: String] = [:]
    for line in text.split(separator: "\n") {
      guard let equals = line.firstIndex(of: "=") else { continue }
      result[String(line[..<equals])] = String(line[line.index(after: equals)...])
    }
    return result
  }
}

/// A string table: `count + 1` little-endian u32 offsets into a UTF-8 blob.
struct StringTable: Sendable {
  let file: DataFile
  let offsets: DataFile.Section
  let bytes: DataFile.Section

  init(file: DataFile) throws(PlaceDataError) {
    self.file = file
    offsets = try file.section("STRO", itemSize: 4)
    bytes = try file.section("STRB", itemSize: 1)
    guard offsets.count >= 1, Int(file.u32(offsets.offset + 4 * (offsets.count - 1))) == bytes.byteCount
    else {
      throw .malformed(path: file.path, detail: "string offsets do not end at the end of the strings")
    }
  }

  var count: Int { offsets.count - 1 }

  /// The string at `index`; out-of-range or damaged indices give an empty string, never a trap.
  func string(_ index: Int) -> String {
    guard index >= 0, index < count else { return "" }
    let start = Int(file.u32(offsets.offset + 4 * index))
    let end = Int(file.u32(offsets.offset + 4 * index + 4))
    guard start <= end, end <= bytes.byteCount else { return "" }
    return String(
      decoding: UnsafeRawBufferPointer(start: file.base + bytes.offset + start, count: end - start),
      as: UTF8.self)
  }
}

/// CRC-32 (the zlib / ISO-HDLC polynomial, reflected), as Python's `zlib.crc32`.
struct CRC32 {
  private static let table: [UInt32] = (0..<256).map { index in
    var value = UInt32(index)
    for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
    return value
  }

  private var state: UInt32 = 0xFFFF_FFFF

  var value: UInt32 { state ^ 0xFFFF_FFFF }

  mutating func update(_ bytes: UnsafeRawBufferPointer) {
    var crc = state
    CRC32.table.withUnsafeBufferPointer { table in
      for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    }
    state = crc
  }

  mutating func update(zeros count: Int) {
    let zeros = [UInt8](repeating: 0, count: count)
    zeros.withUnsafeBytes { update($0) }
  }
}
