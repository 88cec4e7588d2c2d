#ifndef TUNNEL_CPROJ_SHIM_H
#define TUNNEL_CPROJ_SHIM_H

#include <proj.h>
#include <geodesic.h>

#endif
