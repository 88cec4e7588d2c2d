#ifndef TUNNEL_CZLIB_SHIM_H
#define TUNNEL_CZLIB_SHIM_H

#include <zlib.h>

#endif
