#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SipHash-2-4 (Aumasson and Bernstein, 2012): a hash keyed with a 128-bit secret, whose 64-bit value
/// cannot be computed, nor a message found for a given value, without the key.
///
/// ``IndexCache`` signs every file it writes with it, so that a file someone else put in the cache
/// folder, or changed there, is never read as an index: a CRC catches accidents, this catches forgery.
/// The bytes can come in pieces of any size; the value is the same as for the whole message at once.
///
/// ```swift
/// var hash = SipHash24(key: (0x0706050403020100, 0x0f0e0d0c0b0a0908))
/// hash.update(bytes)
/// let tag = hash.finish()
/// ```
///
/// - Complexity: O(n) in the bytes hashed; about a nanosecond a byte.
struct SipHash24 {
  private var v0: UInt64
  private var v1: UInt64
  private var v2: UInt64
  private var v3: UInt64
  /// Bytes that do not yet fill a word, the first in the lowest byte.
  private var pending: UInt64 = 0
  private var pendingCount = 0
  private var length = 0

  /// A hash under the key whose little-endian halves are `key`.
  init(key: (UInt64, UInt64)) {
    v0 = 0x736f_6d65_7073_6575 ^ key.0
    v1 = 0x646f_7261_6e64_6f6d ^ key.1
    v2 = 0x6c79_6765_6e65_7261 ^ key.0
    v3 = 0x7465_6462_7974_6573 ^ key.1
  }

  @inline(__always)
  private static func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
    (value << count) | (value >> (64 - count))
  }

  @inline(__always)
  private mutating func round() {
    v0 &+= v1
    v1 = Self.rotate(v1, 13) ^ v0
    v0 = Self.rotate(v0, 32)
    v2 &+= v3
    v3 = Self.rotate(v3, 16) ^ v2
    v0 &+= v3
    v3 = Self.rotate(v3, 21) ^ v0
    v2 &+= v1
    v1 = Self.rotate(v1, 17) ^ v2
    v2 = Self.rotate(v2, 32)
  }

  @inline(__always)
  private mutating func compress(_ word: UInt64) {
    v3 ^= word
    round()
    round()
    v0 ^= word
  }

  /// Adds `bytes` to the message.
  mutating func update(_ bytes: UnsafeRawBufferPointer) {
    guard !bytes.isEmpty else { return }
    length &+= bytes.count
    var offset = 0
    while pendingCount > 0, pendingCount < 8, offset < bytes.count {
      pending |= UInt64(bytes[offset]) << UInt64(8 * pendingCount)
      pendingCount += 1
      offset += 1
    }
    if pendingCount == 8 {
      compress(pending)
      (pending, pendingCount) = (0, 0)
    }
    // The whole words: compress(_:) for each, written out with the state in locals, so that a build
    // without optimisation (where nothing is inlined) does not make seven calls a word; a cache file is
    // millions of words.
    let wordsEnd = offset + (bytes.count - offset) / 8 * 8
    if offset < wordsEnd, let base = bytes.baseAddress {
      var (a, b, c, d) = (v0, v1, v2, v3)
      var word: UInt64 = 0
      while offset < wordsEnd {
        memcpy(&word, base + offset, 8)
        let m = UInt64(littleEndian: word)
        d ^= m
        for _ in 0..<2 {  // SipHash-2-4: two rounds a word
          a &+= b
          b = (b &<< 13 | b &>> 51) ^ a
          a = a &<< 32 | a &>> 32
          c &+= d
          d = (d &<< 16 | d &>> 48) ^ c
          a &+= d
          d = (d &<< 21 | d &>> 43) ^ a
          c &+= b
          b = (b &<< 17 | b &>> 47) ^ c
          c = c &<< 32 | c &>> 32
        }
        a ^= m
        offset += 8
      }
      (v0, v1, v2, v3) = (a, b, c, d)
    }
    while offset < bytes.count {
      pending |= UInt64(bytes[offset]) << UInt64(8 * pendingCount)
      pendingCount += 1
      offset += 1
    }
  }

  /// The hash of everything added.
  consuming func finish() -> UInt64 {
    compress(UInt64(truncatingIfNeeded: length) << 56 | pending)
    v2 ^= 0xff
    round()
    round()
    round()
    round()
    return v0 ^ v1 ^ v2 ^ v3
  }
}
