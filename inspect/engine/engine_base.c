/*
 * engine_base.c - the engine's leaf helpers (engine_base.h): errors, the
 * clock, arch names and the default thread count, over libc alone.
 */
/* sysconf(_SC_NPROCESSORS_ONLN) is a glibc/BSD name, not POSIX. */
#define _DEFAULT_SOURCE 1

#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "engine_base.h"

double inspect_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

const char *occ_inspect_arch_name(int sm, char suffix, char *buf, size_t cap)
{
    if (suffix != 0) {
        snprintf(buf, cap, "sm_%d%c", sm, suffix);
    } else {
        snprintf(buf, cap, "sm_%d", sm);
    }
    return buf;
}

occ_status inspect_fail(occ_inspect_error *err, occ_status status, int input, long long offset,
                        const char *format, ...)
{
    if (err != NULL) {
        va_list args;
        va_start(args, format);
        err->status = status;
        err->input = input;
        err->offset = offset;
        vsnprintf(err->message, sizeof err->message, format, args);
        va_end(args);
    }
    return status;
}

int inspect_default_jobs(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1) {
        return 1;
    }
    return cores > INSPECT_DEFAULT_JOBS_MAX ? INSPECT_DEFAULT_JOBS_MAX : (int)cores;
}

int occ_inspect_default_jobs(void)
{
    return inspect_default_jobs();
}
