#ifndef TUNNEL_CMATH_SHIM_H
#define TUNNEL_CMATH_SHIM_H

#include <math.h>

/// The sine and cosine of one angle at once: the C library's sincos, whose values are those of sin and
/// cos, for about the price of one of them.
static inline void tunnel_sincos(double angle, double *sine, double *cosine) {
  __builtin_sincos(angle, sine, cosine);
}

/// Asks the processor to start loading the cache line holding `address` (for reading), and returns at
/// once: a lookup that knows where several points will read next has their loads under way together.
static inline void tunnel_prefetch(const void *address) {
  __builtin_prefetch(address, 0, 3);
}

/// ``tunnel_prefetch`` of the byte `offset` bytes past `base`: for an array passed as `base` itself, so
/// that asking for one element of it takes no pointer the array's own storage has to be held for.
static inline void tunnel_prefetch_at(const void *base, long offset) {
  __builtin_prefetch((const char *)base + offset, 0, 3);
}

#endif
