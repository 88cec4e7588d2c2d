#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Array {
  /// The same elements in storage of exactly their count: an array grown by appending keeps up to twice
  /// the room it needs, which an index held for the life of a process should not.
  func compacted() -> [Element] {
    [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
      initialized = buffer.initialize(fromContentsOf: self)
    }
  }
}

/// Gives memory the process no longer uses back to the system, after the batch indexes are built.
enum MemoryRelease {
  /// Returns the allocator's free memory to the system where the C library can (glibc's `malloc_trim`,
  /// looked up at run time so that other C libraries need nothing); the building of the indexes frees
  /// tens of megabytes of scratch space that the allocator would otherwise keep.
  static func trimAllocator() {
    #if canImport(Glibc)
    typealias Trim = @convention(c) (Int) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
    _ = unsafeBitCast(symbol, to: Trim.self)(0)
    #endif
  }
}

extension DataFile {
  /// Lets the system drop the resident pages of a section that will not be read again (the vertex
  /// streams, once decoded into the batch grids). The mapping stays valid: a later read pages the bytes
  /// back in from the file.
  func releasePages(of section: Section) {
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    // Only whole pages inside the section: its neighbours may still be in use.
    let start = (section.offset + page - 1) / page * page
    let end = (section.offset + section.byteCount) / page * page
    guard end > start else { return }
    _ = madvise(UnsafeMutableRawPointer(mutating: base + start), end - start, MADV_DONTNEED)
  }
}
