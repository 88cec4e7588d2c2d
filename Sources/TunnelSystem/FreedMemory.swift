import CMalloc

/// What the C library's allocator does with the memory a program frees.
package enum FreedMemory {
  /// Keeps freed blocks for the next allocations instead of handing them back to the system at once
  /// (glibc only): for a program that allocates and frees arrays of megabytes in a loop, such as a batch
  /// that reads, answers and writes its rows a chunk at a time. With glibc's defaults each such array was
  /// a new mapping, its pages faulted in and zeroed by the kernel for every chunk: about 7 % of a
  /// `--fields timeZone` batch's processor time. Call it once, before the loop.
  package static func keepForReuse() { tunnel_keep_freed_memory() }
}
