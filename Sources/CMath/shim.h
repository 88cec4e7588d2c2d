#ifndef TUNNEL_CMATH_SHIM_H
#define TUNNEL_CMATH_SHIM_H

#include <math.h>

/// The sine and cosine of one angle at once: the C library's sincos, whose values are those of sin and
/// cos, for about the price of one of them.
static inline void tunnel_sincos(double angle, double *sine, double *cosine) {
  __builtin_sincos(angle, sine, cosine);
}

#endif
