#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads exactly `bytes.count` bytes, retrying after signals; false when the file ends first.
package func readAll(_ descriptor: Int32, _ bytes: inout [UInt8]) -> Bool {
  bytes.withUnsafeMutableBytes { readAll(descriptor, into: $0) }
}

/// Fills `buffer` from the file, retrying after signals; false when the file ends first.
///
/// The read loop beside `writeAll(_:to:)`: the index cache reads its files through it, and `TimeZoneRules`
/// its zone files.
package func readAll(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Bool {
  var offset = 0
  while offset < buffer.count {
    let got = read(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
    if got < 0, errno == EINTR { continue }
    guard got > 0 else { return false }
    offset += got
  }
  return true
}

/// The whole of the regular file at `path`, up to `limit` bytes; nil when it cannot be opened, is not a
/// regular file, is larger, or cannot be read.
package func readFile(_ path: String, limit: Int) -> [UInt8]? {
  var descriptor: Int32
  repeat {
    descriptor = open(path, O_RDONLY | O_CLOEXEC)
  } while descriptor < 0 && errno == EINTR
  guard descriptor >= 0 else { return nil }
  defer { close(descriptor) }
  var information = stat()
  guard fstat(descriptor, &information) == 0, information.st_mode & S_IFMT == S_IFREG,
    information.st_size <= limit
  else { return nil }
  var bytes = [UInt8](repeating: 0, count: Int(information.st_size))
  return readAll(descriptor, &bytes) ? bytes : nil
}
