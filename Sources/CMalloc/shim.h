#ifndef TUNNEL_CMALLOC_SHIM_H
#define TUNNEL_CMALLOC_SHIM_H

#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

/// Asks glibc's allocator to keep the memory a long run frees for its next allocations: blocks of up to
/// 32 MiB come from the heap rather than from a mapping of their own, and up to 64 MiB freed at the
/// heap's top stay there. By default a block of 128 KiB or more is mapped on its own and unmapped when
/// freed, so that a loop allocating the same large arrays again and again has the kernel find and zero
/// fresh pages every time. Setting the thresholds also stops glibc from moving them itself. Does nothing
/// with another C library.
static inline void tunnel_keep_freed_memory(void) {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
  mallopt(M_TRIM_THRESHOLD, 64 * 1024 * 1024);
#endif
}

#endif
