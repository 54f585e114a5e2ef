/*
 * engine_base.h - the engine's leaf helpers (engine_base.c): filling an
 * occ_inspect_error, the monotonic clock, the default thread count. Every
 * file of the engine may call them and they call nothing of the engine, so
 * that limits.c and result.c, which collect.c calls, never call back into
 * it. Includes nothing of the engine: only the public header.
 */
#ifndef OCC_INSPECT_ENGINE_BASE_H
#define OCC_INSPECT_ENGINE_BASE_H

#include "occ_inspect.h"

/* Seconds on a monotonic clock. */
double inspect_now(void);

/* Threads when options.jobs is 0: every core, at most INSPECT_DEFAULT_JOBS_MAX.
   Each thread keeps a decompression buffer of up to 2 MB beside the shared
   128 MB pool, so the cap keeps peak memory near 256 MB on machines with
   many cores (measured: 203-259 MiB at 16 threads on the largest libraries,
   docs/results/inspect-h200-all). */
#define INSPECT_DEFAULT_JOBS_MAX 32
int inspect_default_jobs(void);

/* Fills *err and returns its status. */
occ_status inspect_fail(occ_inspect_error *err, occ_status status, int input, long long offset,
                        const char *format, ...) __attribute__((format(printf, 5, 6)));

#endif /* OCC_INSPECT_ENGINE_BASE_H */
