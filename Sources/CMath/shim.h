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

#endif
