#ifndef TUNNEL_CPRINTF_SHIM_H
#define TUNNEL_CPRINTF_SHIM_H

#include <stdio.h>

/// snprintf's "%0*.*f" (with plus_sign, "%+0*.*f") of one double: the C library's formatting, called with
/// C's own variadic arguments. Swift's (withVaList) cast each argument at run time, and the first cast of
/// a type scans every protocol conformance of the program, which a single query pays at start-up.
static inline int tunnel_fixed_decimal(
    char *buffer, size_t size, double value, int places, int width, int plus_sign) {
  return snprintf(buffer, size, plus_sign ? "%+0*.*f" : "%0*.*f", width, places, value);
}

#endif
