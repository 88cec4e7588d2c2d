#ifndef TUNNEL_CFUZZER_SHIM_H
#define TUNNEL_CFUZZER_SHIM_H

#include <stddef.h>
#include <stdint.h>

// libFuzzer's driver, linked in by -sanitize=fuzzer: runs the fuzzing loop on `callback` with the
// process's command-line options.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
