import TunnelSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder where batches keep the indexes they build, so that later processes read them instead of
/// building them again: an optimisation, never an authority.
///
/// ```swift
/// let cache = try IndexCache(path: "/var/cache/tunnel")
/// let geocoder = ReverseGeocoder(data: try PlaceData(), cache: cache)
/// ```
///
/// The rules, each against a way the folder could be turned against its user:
/// - **The folder.** Missing folders on the way are made with mode 0700. The folder must belong to the
///   user the process runs as, and others must not be able to write in it unless it is sticky (as `/tmp`
///   is): otherwise ``init(path:)`` throws and nothing is read from or written to it. The folder is
///   opened once, and every file is reached through that descriptor, so a folder renamed or replaced by a
///   link afterwards is never followed.
/// - **Writing.** Each file is written to a new temporary file of a random name, created exclusively,
///   without following links and with mode 0600, and only that file is renamed over the index's name. A
///   link or a file planted under any name is never written through. Temporary files of one's own over an
///   hour old, which a writer killed before its rename left, are removed when the folder is opened; one's
///   own files of an index's earlier versions, when its new version is written.
/// - **Reading.** A file is read only when it is a regular file of the process's own user, opened without
///   following links and without blocking (a FIFO is never waited on).
/// - **Trust.** Every file is signed with SipHash-2-4 under a 128-bit random key kept in the folder's
///   `key` file (mode 0600, made once by the first process and never given out), over all of its bytes.
///   A file whose signature does not hold, which is what a file forged or changed by anyone without the
///   key gives, is not used; the index is built and the file replaced. The readers check every index
///   inside the arrays as well, so that even a file signed with a stolen key cannot make a query read out
///   of bounds or never end.
///
/// An `IndexCache` is `Sendable`: it holds only the folder's descriptor (closed in `deinit`) and the key,
/// both fixed, and reaches files only through system calls relative to that descriptor, which any thread
/// may make at once.
public final class IndexCache: Sendable {
  /// The folder, as given.
  public let path: String
  /// The folder, opened once.
  private let folder: Int32
  /// The key every file in the folder is signed with.
  let key: Key

  /// The two little-endian halves of a 128-bit key.
  struct Key: Sendable, Equatable {
    var low: UInt64
    var high: UInt64

    /// A key from the system's random source.
    static func random() -> Key {
      var generator = SystemRandomNumberGenerator()
      return Key(low: generator.next(), high: generator.next())
    }
  }

  /// The name of the key's file in the folder.
  static let keyName = "key"

  /// Opens the folder at `path` for keeping indexes, making it (and any missing folder on the way) with
  /// mode 0700 when it does not exist, and the key when the folder has none.
  ///
  /// - Throws: ``IndexCacheError`` when the folder cannot be made or opened, is another user's, can be
  ///   written by others and is not sticky, or its key cannot be read or made.
  public init(path: String) throws(IndexCacheError) {
    self.path = path
    var prefix = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/") {
      prefix += "/" + part
      if mkdir(prefix, 0o700) != 0, errno != EEXIST {
        let code = errno
        var info = stat()
        // A folder on the way that exists but cannot be looked into gives EACCES: only a folder that is
        // not there and could not be made is a failure to create.
        if stat(prefix, &info) != 0 { throw .cannotCreate(path: path, errno: code) }
      }
    }
    let folder = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard folder >= 0 else { throw .cannotOpen(path: path, errno: errno) }
    var info = stat()
    guard fstat(folder, &info) == 0 else {
      let code = errno
      close(folder)
      throw .cannotOpen(path: path, errno: code)
    }
    guard info.st_uid == geteuid() else {
      close(folder)
      throw .ownedBySomeoneElse(path: path, owner: UInt32(info.st_uid))
    }
    let mode = UInt32(info.st_mode)
    guard mode & 0o022 == 0 || mode & UInt32(S_ISVTX) != 0 else {
      close(folder)
      throw .writableByOthers(path: path, mode: mode)
    }
    self.folder = folder
    do throws(IndexCacheError) {
      key = try Self.key(in: folder, path: path)
    } catch {
      close(folder)
      throw error
    }
    Self.removeAbandoned(in: folder)
  }

  deinit { close(folder) }

  /// How old a temporary file must be to count as abandoned: a writer that was killed before it renamed
  /// its file (a file is written in well under this).
  static let abandonedAge = 3_600

  /// Removes the temporary files (`.NAME.RANDOM.part`) of the process's own user older than
  /// ``abandonedAge`` seconds from `folder`: what writers killed before their rename left behind.
  private static func removeAbandoned(in folder: Int32) {
    let now = time(nil)
    forEachOwnFile(in: folder) { name, info in
      guard name.hasPrefix("."), name.hasSuffix(".part"), now - info.st_mtim.tv_sec > abandonedAge else {
        return
      }
      unlinkat(folder, name, 0)
    }
  }

  /// Removes the files of the process's own user in `folder` that hold an earlier version of the index
  /// file `name`: the same name before its version (``version(of:)``), a lower version. Each version of an
  /// index is written under a new name, and nothing reads the old one again: without this, every upgrade
  /// left its predecessors' files behind. Later versions, which a newer program sharing the folder
  /// writes, are kept.
  private static func removeEarlierVersions(of name: String, in folder: Int32) {
    guard let written = version(of: name) else { return }
    forEachOwnFile(in: folder) { other, _ in
      guard let found = version(of: other), found.index == written.index, found.version < written.version
      else { return }
      unlinkat(folder, other, 0)
    }
  }

  /// What an index file's name says of its version: the name before its last `-vN-` or `-vN.` (the
  /// index: `countries-grid` of `countries-grid-v3-dc460e01-2716976-24-12.bin`; what follows the version,
  /// checksums and sizes, never has one) and N; nil for a name that is not an index file's (a hidden or
  /// temporary file, one not ending in `.bin`, one without a version).
  static func version(of name: String) -> (index: Substring, version: Int)? {
    guard !name.hasPrefix("."), name.hasSuffix(".bin") else { return nil }
    let bytes = name.utf8
    var found: (index: Substring, version: Int)? = nil
    var position = bytes.startIndex
    while let dash = bytes[position...].firstIndex(of: UInt8(ascii: "-")) {
      position = bytes.index(after: dash)
      guard position < bytes.endIndex, bytes[position] == UInt8(ascii: "v") else { continue }
      let digits = bytes[bytes.index(after: position)...].prefix {
        $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")
      }
      guard (1...9).contains(digits.count), dash > bytes.startIndex, digits.endIndex < bytes.endIndex,
        bytes[digits.endIndex] == UInt8(ascii: "-") || bytes[digits.endIndex] == UInt8(ascii: ".")
      else { continue }
      found = (name[..<dash], digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) })
    }
    return found
  }

  /// Calls `body` with the name and status of every regular file of the process's own user in `folder`
  /// (never a link: it is not followed).
  private static func forEachOwnFile(in folder: Int32, _ body: (String, stat) -> Void) {
    let copy = fcntl(folder, F_DUPFD_CLOEXEC, 0)
    guard copy >= 0 else { return }
    guard let entries = fdopendir(copy) else {
      close(copy)
      return
    }
    defer { closedir(entries) }
    // The copy shares the folder's offset, which an earlier listing left at its end.
    rewinddir(entries)
    while let entry = readdir(entries) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) {
        String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
      }
      var info = stat()
      guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_uid == geteuid(),
        info.st_mode & S_IFMT == S_IFREG
      else { continue }
      body(name, info)
    }
  }

  /// The folder's key: read when it has a good one, else made and put in place atomically. A key file
  /// that is not the process's user's own, or that others can read, is replaced; where it cannot be (a
  /// sticky folder where someone else made it), the folder cannot be used.
  private static func key(in folder: Int32, path: String) throws(IndexCacheError) -> Key {
    if let key = readKey(in: folder) { return key }
    let key = Key.random()
    var bytes = [UInt8]()
    withUnsafeBytes(of: key.low.littleEndian) { bytes.append(contentsOf: $0) }
    withUnsafeBytes(of: key.high.littleEndian) { bytes.append(contentsOf: $0) }
    guard
      let temporary = writeTemporary(
        in: folder, name: keyName,
        { descriptor in
          bytes.withUnsafeBytes { writeAll($0, to: descriptor) == 0 }
        })
    else {
      throw .keyUnusable(path: path, errno: errno)
    }
    defer { unlinkat(folder, temporary, 0) }
    // A hard link publishes the key only if there is none yet: of two processes making one at once, the
    // second reads the first's.
    if linkat(folder, temporary, folder, keyName, 0) == 0 { return key }
    if errno == EEXIST, let key = readKey(in: folder) { return key }
    // The file there is not a usable key (or links are not supported): replace it.
    guard renameat(folder, temporary, folder, keyName) == 0 else {
      throw .keyUnusable(path: path, errno: errno)
    }
    return key
  }

  /// The key in `folder`, when its file is a regular file of the process's user that no one else can
  /// read, of 16 bytes.
  private static func readKey(in folder: Int32) -> Key? {
    guard let descriptor = openOwnFile(in: folder, name: keyName) else { return nil }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, UInt32(info.st_mode) & 0o077 == 0, info.st_size == 16 else {
      return nil
    }
    var bytes = [UInt8](repeating: 0, count: 16)
    guard readAll(descriptor, &bytes) else { return nil }
    return bytes.withUnsafeBytes {
      Key(
        low: UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
        high: UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
    }
  }

  /// Opens the file `name` for reading when it is a regular file of the process's own user; nil for
  /// anything else (missing, a link, a FIFO, a device, a folder, someone else's file).
  func openForReading(_ name: String) -> Int32? {
    Self.openOwnFile(in: folder, name: name)
  }

  private static func openOwnFile(in folder: Int32, name: String) -> Int32? {
    let descriptor = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid() else {
      close(descriptor)
      return nil
    }
    return descriptor
  }

  /// Writes the file `name` through `body` (false when writing failed): into a new temporary file, which
  /// then takes the name; the files of the index's earlier versions are then removed
  /// (``removeEarlierVersions(of:in:)``). Failures leave nothing behind and are not reported: the file is
  /// only a cache.
  func write(_ name: String, _ body: (Int32) -> Bool) {
    guard let temporary = Self.writeTemporary(in: folder, name: name, body) else { return }
    guard renameat(folder, temporary, folder, name) == 0 else {
      unlinkat(folder, temporary, 0)
      return
    }
    Self.removeEarlierVersions(of: name, in: folder)
  }

  /// A new file in `folder` of a random name beginning with `name`, written through `body`: its name,
  /// or nil (and nothing left behind) when it could not be made or written.
  private static func writeTemporary(in folder: Int32, name: String, _ body: (Int32) -> Bool) -> String? {
    for _ in 0..<8 {
      let temporary = ".\(name).\(String(UInt64.random(in: .min ... .max), radix: 36)).part"
      let descriptor = openat(
        folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
      if descriptor < 0 {
        if errno == EEXIST { continue }
        return nil
      }
      let written = body(descriptor)
      let closed = close(descriptor) == 0
      guard written, closed else {
        unlinkat(folder, temporary, 0)
        return nil
      }
      return temporary
    }
    return nil
  }

  /// A new signature over a file's bytes, under the folder's key.
  func signature() -> SipHash24 { SipHash24(key: (key.low, key.high)) }
}
