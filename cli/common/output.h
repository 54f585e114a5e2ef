/*
 * output.h - how occ writes for people and scripts: paragraphs wrapped for a
 * terminal, never cut; names with their control characters made visible;
 * JSON documents; grouped digits and byte counts.
 */
#ifndef OCC_CLI_OUTPUT_H
#define OCC_CLI_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

struct json_t;

/* Prints `text` wrapped at 96 columns, continuation lines indented. */
void cli_print_wrapped(FILE *out, const char *text, int indent);

/* Formats a paragraph (of any length: nothing is cut) and prints it wrapped. */
void cli_print_wrappedf(FILE *out, int indent, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* Writes text with every control character (below 0x20, and 0x7f) shown as
   \xNN, so that a name from a file cannot move the cursor, ring the bell or
   rewrite the terminal. Everything else passes as it is. */
void cli_put_visible(FILE *out, const char *text);

/* The same into buf (cut, NUL-terminated, if cap is short); returns buf. */
const char *cli_visible(const char *text, char *buf, size_t cap);

/* Prints a JSON document indented, with a final newline, and frees it. */
void cli_print_json(FILE *out, struct json_t *doc);

/* "1,234,567" into buf: group_digits.h (profile/formats/), the one grouping. */
#include "group_digits.h"

/* The noun for a count: `one` for exactly 1 ("1 block"), else `many`
   ("0 blocks", "2.5 blocks"). */
const char *cli_plural(double count, const char *one, const char *many);

/* Human bytes: "48 KB" (exact KiB), else "49,153 B". */
const char *cli_format_bytes(long long bytes, char *buf, size_t cap);

#endif /* OCC_CLI_OUTPUT_H */
