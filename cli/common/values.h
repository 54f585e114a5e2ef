/*
 * values.h - the checked parsers for numbers on the command line and in CSV
 * rows. Each failure says what the value is not and, for a number out of
 * range, the range: "'0' is below the minimum, 1". Callers put the option or
 * column name in front. The parsing itself, and its words, are
 * values/value_parse.h's, which the launch table and occ diff's gate share.
 */
#ifndef OCC_CLI_VALUES_H
#define OCC_CLI_VALUES_H

#include "cli.h"

/* A whole decimal number in [lo, hi] (any range within long long). */
bool cli_parse_int(const char *text, long long lo, long long hi, long long *out, cli_error *err);

/* A decimal number in [lo, hi] ("600", "0.5", "1e3"); no inf, nan or hex. */
bool cli_parse_double(const char *text, double lo, double hi, double *out, cli_error *err);

/* Bytes, at most 2147483647 (every size libocc takes is an int): "1024",
   "48K", "48KB", "48KiB", "1.5KiB", "2M" (K = 1024, as CUDA counts). */
bool cli_parse_size(const char *text, long long *out, cli_error *err);

/* Carveout: "default" or -1, or a percentage 0..100 with an optional '%'. */
bool cli_parse_carveout(const char *text, int *out, cli_error *err);

/* A block: "256", "16x16" or "8x8x4", each dimension 1..1024. */
bool cli_parse_block(const char *text, int dims[3], cli_error *err);

#endif /* OCC_CLI_VALUES_H */
