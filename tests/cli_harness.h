/*
 * cli_harness.h - runs `occ ARGS...` in-process through cli_main() with
 * temporary files for stdin, stdout and stderr, for the CLI tests.
 */
#ifndef OCC_CLI_HARNESS_H
#define OCC_CLI_HARNESS_H

#include <stdbool.h>
#include <stddef.h>

/* What the last run printed; replaced by the next run. */
typedef struct cli_run {
    int code;
    char *out;
    char *err;
} cli_run;
extern cli_run last;

/* Runs `occ ARGS...` with `input` (may be NULL) on stdin; returns the exit code. */
int run_cli(const char *input, const char *const *args);

#define OCC(input, ...) run_cli(input, (const char *const[]){__VA_ARGS__, NULL})

int line_count(const char *text);

/* Line `index` (0-based) of text, without its newline, into buf. */
const char *line_at(const char *text, int index, char *buf, size_t cap);

bool starts_with(const char *text, const char *prefix);

#endif /* OCC_CLI_HARNESS_H */
