/*
 * clock.c - seconds on a monotonic clock (clock.h).
 */
#define _POSIX_C_SOURCE 200809L

#include <time.h>

#include "clock.h"

double cli_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
