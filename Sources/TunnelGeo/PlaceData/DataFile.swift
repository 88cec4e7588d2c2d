import CMath
internal import CZlib
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One of Tunnel's data files, memory-mapped read-only, with its header and section table checked, and
/// each block of its content checked the first time it is read.
///
/// Opening reads nothing but the 64-byte header, the section table and the table of block checksums (a
/// few kilobytes): it checks the magic, the format version, the file size, the CRC-32 of those tables,
/// and that every section lies inside the file. The content is split into blocks of ``blockSize`` bytes,
/// each with its own checksum (``blockChecksum(_:)``); every read through ``u8(_:)``, ``u16(_:)``, ``u32(_:)`` and ``i32(_:)``
/// first makes sure the block it reads from has been checked, so opening stays in the microseconds
/// however large the file is, a query pays only for the blocks it touches, and a damaged byte is found
/// by the first read that could have used it. Reads never trap on damage: they return what is there and
/// the file remembers the damaged block, which ``checkIntact()`` then reports; whoever answered from the
/// file calls it before giving the answer out. Data/FORMAT.md is the specification.
final class DataFile: @unchecked Sendable {
  // @unchecked: the mapping is read-only and never changes after init; it is unmapped in deinit.

  static let magic: [UInt8] = Array("TUNLDATA".utf8)
  static let formatVersion: UInt32 = 3
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
  /// The section table by tag (a handful: searched in order, which costs less than a dictionary to build).
  private let sections: [TaggedSection]
  let payloadChecksum: UInt32
  private let payloadStart: Int
  /// Where the table of block checksums starts (just after the section table).
  private let blockTable: Int
  private let blockShift: Int
  private let blockCount: Int
  /// Per block: 0 not checked yet, 1 intact, 2 damaged. Checking twice is harmless, so threads that
  /// reach an unchecked block at the same time may both check it.
  private let blockStates: UnsafeMutablePointer<Atomic<UInt8>>
  /// The first block found damaged, or -1.
  private let damagedBlock = Atomic<Int>(-1)
  /// Told when a block is found damaged: the data folder's, so that checking every file is one load
  /// while none is.
  private let signal: DamageSignal?

  /// Bytes per checked block.
  var blockSize: Int { 1 << blockShift }

  init(path: String, expectedKind: String, signal: DamageSignal? = nil) throws(PlaceDataError) {
    self.path = path
    self.signal = signal
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else {
      if errno == ENOENT { throw .fileMissing(path: path) }
      if errno == ELOOP { throw .linkLoop(path: path) }
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
      self.blockTable = header.blockTable
      self.blockShift = header.blockShift
      self.blockCount = header.blockCount
      self.blockStates = .allocate(capacity: max(header.blockCount, 1))
      for block in 0..<max(header.blockCount, 1) { (blockStates + block).initialize(to: Atomic(0)) }
    } catch {
      munmap(mapped, size)
      throw error
    }
  }

  deinit {
    blockStates.deinitialize(count: max(blockCount, 1))
    blockStates.deallocate()
    munmap(UnsafeMutableRawPointer(mutating: base), size)
  }

  /// A section with its four-letter tag. (A struct, not a tuple: an array of tuples makes its element type
  /// at run time, on every process's first open.)
  private struct TaggedSection {
    var tag: UInt32
    var section: Section
  }

  private struct Header {
    var kind: String
    var counts: (Int, Int, Int)
    var unitsPerDegree: Int
    var attributesPerFeature: Int
    var sections: [TaggedSection]
    var payloadChecksum: UInt32
    var payloadStart: Int
    var blockTable: Int
    var blockShift: Int
    var blockCount: Int
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
    let blockSize = Int(u32(56))
    let blockCount = Int(u32(60))
    let payloadStart = tableEnd + (4 * blockCount + 7) / 8 * 8
    guard payloadStart <= size else { throw .sizeMismatch(path: path, expected: payloadStart, actual: size) }
    var crc = CRC32()
    crc.update(UnsafeRawBufferPointer(start: base, count: 20))
    crc.update(zeros: 4)
    crc.update(UnsafeRawBufferPointer(start: base + 24, count: payloadStart - 24))
    guard crc.value == u32(20) else { throw .headerChecksumMismatch(path: path) }
    let declaredSize = u64(24)
    guard declaredSize == UInt64(size) else {
      throw .sizeMismatch(path: path, expected: Int(clamping: declaredSize), actual: size)
    }
    guard blockSize >= 4096, blockSize <= 1 << 24, blockSize & (blockSize - 1) == 0,
      blockCount == (size - payloadStart + blockSize - 1) / blockSize
    else {
      throw .malformed(path: path, detail: "\(blockCount) blocks of \(blockSize) bytes do not cover the file")
    }
    let kind = String(decoding: UnsafeRawBufferPointer(start: base + 12, count: 4), as: UTF8.self)
    guard kind == expectedKind else { throw .wrongKind(path: path, expected: expectedKind, found: kind) }
    var sections: [TaggedSection] = []
    for index in 0..<sectionCount {
      let entry = headerSize + index * sectionEntrySize
      let tag = base.loadUnaligned(fromByteOffset: entry, as: UInt32.self)
      let itemSize = Int(u32(entry + 4))
      let offset = u64(entry + 8)
      let length = u64(entry + 16)
      guard offset % 8 == 0, offset >= UInt64(payloadStart), offset <= UInt64(size),
        length <= UInt64(size) - offset, itemSize > 0, length % UInt64(itemSize) == 0
      else {
        throw .malformed(path: path, detail: "section \(index) does not fit the file")
      }
      // A tag given twice means its last entry, as it always has.
      sections.removeAll { $0.tag == tag }
      sections.append(
        TaggedSection(
          tag: tag, section: Section(offset: Int(offset), byteCount: Int(length), itemSize: itemSize)))
    }
    return Header(
      kind: kind, counts: (Int(u32(32)), Int(u32(36)), Int(u32(40))), unitsPerDegree: Int(u32(44)),
      attributesPerFeature: Int(u32(52)), sections: sections, payloadChecksum: u32(48),
      payloadStart: payloadStart, blockTable: tableEnd, blockShift: blockSize.trailingZeroBitCount,
      blockCount: blockCount)
  }

  /// The section with a four-letter tag, checked for its item size and, if given, its item count.
  func section(_ tag: String, itemSize: Int, count: Int? = nil) throws(PlaceDataError) -> Section {
    var key: UInt32 = 0
    for (index, byte) in tag.utf8.enumerated() { key |= UInt32(byte) << (8 * UInt32(index)) }
    guard let section = sections.first(where: { $0.tag == UInt32(littleEndian: key) })?.section else {
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

  // MARK: Checked reads

  /// Makes sure the block holding `offset` has been checked; the first read of a block checks it.
  ///
  /// One check covers a read of up to 8 bytes: sections start 8-byte aligned (checked at open), every
  /// field lies at a multiple of its own size within its item, and blocks are a power of two of at least
  /// 4096 bytes, so no read the layers make straddles two blocks.
  @inline(__always) private func checked(_ offset: Int) -> Int {
    let block = (offset &- payloadStart) &>> blockShift
    if block < 0 || block >= blockCount || blockStates[block].load(ordering: .relaxed) == 0 {
      checkBlock(block)
    }
    return offset
  }

  /// Checks one block against its checksum and remembers the result.
  @inline(never) private func checkBlock(_ block: Int) {
    guard block >= 0, block < blockCount, blockStates[block].load(ordering: .relaxed) == 0 else { return }
    let start = payloadStart + block << blockShift
    let intact =
      Self.blockChecksum(UnsafeRawBufferPointer(start: base + start, count: min(blockSize, size - start)))
      == rawU32(blockTable + 4 * block)
    if !intact {
      _ = damagedBlock.compareExchange(expected: -1, desired: block, ordering: .relaxed)
      signal?.raise()
    }
    blockStates[block].store(intact ? 1 : 2, ordering: .relaxed)
  }

  /// `byteCount` bytes from `offset`, every block they lie in checked first.
  func bytes(at offset: Int, count byteCount: Int) -> UnsafeRawBufferPointer {
    if byteCount > 0 {
      var block = (offset &- payloadStart) &>> blockShift
      let last = (offset &+ byteCount &- 1 &- payloadStart) &>> blockShift
      while block <= last {
        if block < 0 || block >= blockCount || blockStates[block].load(ordering: .relaxed) == 0 {
          checkBlock(block)
        }
        block += 1
      }
    }
    return UnsafeRawBufferPointer(start: base + offset, count: byteCount)
  }

  @inline(__always) private func rawU32(_ offset: Int) -> UInt32 {
    UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
  }

  /// Throws if any block read so far did not match its checksum: the answer that read it may be wrong.
  func checkIntact() throws(PlaceDataError) {
    let block = damagedBlock.load(ordering: .relaxed)
    guard block >= 0 else { return }
    let start = payloadStart + block << blockShift
    throw .damaged(path: path, offset: start, byteCount: min(blockSize, size - start))
  }

  /// Checks every block, then the CRC-32 of the whole content (reads the whole file).
  func verifyPayload() throws(PlaceDataError) {
    for block in 0..<blockCount where blockStates[block].load(ordering: .relaxed) == 0 { checkBlock(block) }
    try checkIntact()
    let payload = UnsafeRawBufferPointer(start: base + payloadStart, count: size - payloadStart)
    guard CRC32.of(payload) == payloadChecksum else { throw .payloadChecksumMismatch(path: path) }
  }

  /// The check of one block (Data/FORMAT.md): a multiply-add over its 8-byte words, then mixed.
  ///
  /// About three instructions per 8 bytes, several times cheaper than a CRC-32, so that a single query
  /// can afford to check every block it reads. A changed word always changes the 64-bit sum (adding a
  /// word and multiplying by an odd number are both one-to-one), and the final mix spreads the
  /// difference over the 32 bits kept.
  static func blockChecksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
    var h: UInt64 = 0x243F_6A88_85A3_08D3
    let words = bytes.count / 8
    for index in 0..<words {
      h =
        (h &+ UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8 * index, as: UInt64.self)))
        &* 0x9E37_79B9_7F4A_7C15
    }
    if bytes.count % 8 != 0 {
      var last: UInt64 = 0
      for (shift, byte) in bytes[(8 * words)...].enumerated() { last |= UInt64(byte) << (8 * UInt64(shift)) }
      h = (h &+ last) &* 0x9E37_79B9_7F4A_7C15
    }
    h ^= h >> 33
    h &*= 0xFF51_AFD7_ED55_8CCD
    h ^= h >> 33
    h &*= 0xC4CE_B9FE_1A85_EC53
    h ^= h >> 33
    return UInt32(truncatingIfNeeded: h)
  }

  /// A 32-bit integer read without the block check: only for bytes that ``bytes(at:count:)`` has checked.
  @inline(__always) func uncheckedI32(_ offset: Int) -> Int32 {
    Int32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: Int32.self))
  }

  @inline(__always) func u8(_ offset: Int) -> UInt8 {
    base.load(fromByteOffset: checked(offset), as: UInt8.self)
  }
  /// Asks the processor for the cache line at `offset` of the file, if it is in the file; reads and checks
  /// nothing.
  @inline(__always) func prefetch(at offset: Int) {
    if offset >= 0 && offset < size { tunnel_prefetch(base + offset) }
  }

  @inline(__always) func u16(_ offset: Int) -> UInt16 {
    UInt16(littleEndian: base.loadUnaligned(fromByteOffset: checked(offset), as: UInt16.self))
  }
  @inline(__always) func u32(_ offset: Int) -> UInt32 {
    UInt32(littleEndian: base.loadUnaligned(fromByteOffset: checked(offset), as: UInt32.self))
  }
  @inline(__always) func i32(_ offset: Int) -> Int32 {
    Int32(littleEndian: base.loadUnaligned(fromByteOffset: checked(offset), as: Int32.self))
  }

  /// The value of `key` in the file's META section of `key=value` lines (read on demand only); nil when the
  /// file has no such line.
  func metadata(_ key: String) -> String? {
    guard let section = try? section("META", itemSize: 1) else { return nil }
    // Compared as bytes: comparing substrings would instantiate generic string code at run time, which costs
    // a single query more than the whole lookup.
    let text = bytes(at: section.offset, count: section.byteCount)
    let wanted = Array(key.utf8) + [UInt8(ascii: "=")]
    var start = 0
    while start < text.count {
      let end = text[start...].firstIndex(of: UInt8(ascii: "\n")) ?? text.count
      if end - start >= wanted.count, text[start..<(start + wanted.count)].elementsEqual(wanted) {
        return String(
          decoding: UnsafeRawBufferPointer(rebasing: text[(start + wanted.count)..<end]), as: UTF8.self)
      }
      start = end + 1
    }
    return nil
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

  /// Asks the processor for what ``withUTF8(_:_:)`` reads of string `index`: its offsets, or with
  /// `bytes`, its first bytes (the offsets read).
  func prefetch(_ index: Int, bytes: Bool) {
    guard index >= 0, index < count else { return }
    guard bytes else { return file.prefetch(at: offsets.offset + 4 * index) }
    file.prefetch(at: self.bytes.offset + Int(file.u32(offsets.offset + 4 * index)))
  }

  /// The string at `index`; out-of-range or damaged indices give an empty string, never a trap.
  func string(_ index: Int) -> String {
    // Typed, so that String takes its contiguous path rather than reading byte by byte.
    withUTF8(index) { String(decoding: $0, as: UTF8.self) }
  }

  /// Calls `body` with the bytes of the string at `index` (none for an out-of-range or damaged index).
  func withUTF8<Result>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    guard index >= 0, index < count else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
    let start = Int(file.u32(offsets.offset + 4 * index))
    let end = Int(file.u32(offsets.offset + 4 * index + 4))
    guard start <= end, end <= bytes.byteCount else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
    return body(file.bytes(at: bytes.offset + start, count: end - start).assumingMemoryBound(to: UInt8.self))
  }
}

/// CRC-32 (the zlib / ISO-HDLC polynomial, reflected), as Python's `zlib.crc32`: zlib's own.
struct CRC32 {
  private(set) var value: UInt32 = 0

  mutating func update(_ bytes: UnsafeRawBufferPointer) {
    var rest = bytes
    while !rest.isEmpty {
      let count = min(rest.count, 1 << 30)
      value = UInt32(
        truncatingIfNeeded: crc32(
          UInt(value), rest.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(count)))
      rest = UnsafeRawBufferPointer(rebasing: rest[count...])
    }
  }

  mutating func update(zeros count: Int) {
    let zeros = [UInt8](repeating: 0, count: count)
    zeros.withUnsafeBytes { update($0) }
  }

  /// The CRC-32 of `bytes`.
  static func of(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
    var crc = CRC32()
    crc.update(bytes)
    return crc.value
  }
}

/// Whether any file of a data folder has shown damage: raised by the file that found it, read by every
/// answer before it is given out (``PlaceData/checkIntact()``).
final class DamageSignal: Sendable {
  private let raised = Atomic<Bool>(false)

  func raise() { raised.store(true, ordering: .relaxed) }

  var isRaised: Bool { raised.load(ordering: .relaxed) }
}
