/*
 * public_api_visibility.h - compiled in front of every source of the shared
 * libraries (-include), which are built with -fvisibility=hidden: what the
 * public headers declare keeps default visibility, everything else (the
 * core's occ__ helpers, the readers' insp_ and inspect_ functions) is hidden
 * and bound inside the library. The headers stay free of export macros, so
 * the static libraries, CUDA host code and the WebAssembly build see them
 * unchanged. The version scripts (libocc.map, libocc-inspect.map) then name
 * what is exported, which also keeps the static libiberty linked into
 * libocc-inspect.so out of its dynamic symbol table.
 */
#pragma GCC visibility push(default)
#include "occ.h"
#include "occ_inspect.h"
#include "occ_diff.h"
#include "occ_regs.h"
#include "occ_profile.h"
#pragma GCC visibility pop
