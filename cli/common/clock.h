/*
 * clock.h - seconds on a monotonic clock, for the timings commands print
 * (OCC_INSPECT_TIMING, occ diff's steps).
 */
#ifndef OCC_CLI_CLOCK_H
#define OCC_CLI_CLOCK_H

/* Seconds since an arbitrary start; only differences mean anything. */
double cli_now_seconds(void);

#endif /* OCC_CLI_CLOCK_H */
