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
/// The read loop beside `writeAll(_:to:)`, through which the index cache reads its files.
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
