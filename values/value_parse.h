/*
 * value_parse.h - the one owner of the values people type: whole numbers
 * and decimals within limits, sizes in bytes ("48K"), shapes ("16x16"), and
 * the edit distance behind "did you mean" suggestions. The command line
 * (cli/common/values.c wraps these in cli_error), the launch table's cells
 * (profile/formats/launch_table.c) and occ diff's gate thresholds
 * (inspect/diff/diff_gate.c) read their values here, so a value is taken,
 * or refused in the same words, wherever it is written.
 *
 * Compiled into libocc-inspect and libocc-profile, and reaching the CLI
 * through them; not part of any public API. No I/O, no allocation, no
 * globals that change. (libocc, the pure core, does not use it: it keeps no
 * dependency, and src/gpu_find.c has its own edit distance.)
 *
 * Every parser returns true with *out set, or false with `why` filled (one
 * line, at most VALUE_WHY_BYTES bytes with its NUL, no newline) and *out
 * untouched. `why` says what the value is not and, for one out of range,
 * the limit: "'0' is below the minimum, 1". It quotes at most 40 bytes of
 * the value; the caller puts the option, column or item name in front.
 */
#ifndef OCC_VALUE_PARSE_H
#define OCC_VALUE_PARSE_H

#include <stdbool.h>

/* Room for any `why` below: a 40-byte quote and its words. */
#define VALUE_WHY_BYTES 160

/* The largest size every libocc call takes: sizes are ints there. */
#define VALUE_SIZE_INT_MAX 2147483647LL
/* The largest max_bytes value_parse_size accepts: with it a size times its
   unit (at most 2^20) stays within a long long. */
#define VALUE_SIZE_LIMIT_MAX (1LL << 42)

/* A whole decimal number in [lo, hi] (any range within long long): digits
   with an optional sign, nothing else. Refusals: "'x' is not a whole
   number", "'300' is above the maximum, 255", "'0' is below the minimum, 1". */
bool value_parse_int(const char *text, long long lo, long long hi, long long *out, char *why);

/* A number in [lo, hi] as strtod reads it ("600", "0.5", "-1e3"), but no
   inf, nan, hex or leading space. Refusals: "'x' is not a number", "'2' is
   above the maximum, 1", "'-1' is below the minimum, 0" (limits as %g). */
bool value_parse_double(const char *text, double lo, double hi, double *out, char *why);

/* A plain decimal in [lo, hi] (lo >= 0): digits with at most one '.', no
   sign, no exponent ("12", "12.5", ".5"), as a threshold in percentage
   points is written. Refusals: "'x' is not a decimal number such as 12.5",
   and the range as value_parse_double says it. */
bool value_parse_decimal(const char *text, double lo, double hi, double *out, char *why);

/* Bytes, 0 to max_bytes (at most VALUE_SIZE_LIMIT_MAX): "1024", "48K",
   "48KB", "48KiB", "1.5KiB", "2M", "2MB", any case (K = 1024, as CUDA
   counts), at most 6 decimals and coming to whole bytes. Refusals: "'x' is
   not a size in bytes such as 4096, 48K or 1.5KiB", "'1.5' is not a whole
   number of bytes", "'1.0000001K' has more than 6 decimals; sizes are whole
   bytes" and, with max_bytes VALUE_SIZE_INT_MAX, "'4096M' is above the
   maximum, 2147483647 bytes". */
bool value_parse_size(const char *text, long long max_bytes, long long *out, char *why);

/* What a shape of up to three dimensions is: its words in a refusal and
   each dimension's maximum (the minimum is 1). */
typedef struct value_shape {
    const char *example; /* "a block size such as 256, 16x16 or 8x8x4" */
    long long max[3];    /* x, y, z */
} value_shape;

/* Blocks (and the launch table's clusters): each dimension 1..1024. No CUDA
   GPU takes more threads in any dimension: a block's x and y are at most
   1024, z at most 64 (CUDA C++ Programming Guide, "Technical Specifications
   per Compute Capability"); the product, and a cluster's size, are checked
   against the GPU's limits later. */
extern const value_shape value_block_shape;
/* Grids: x up to 2^31-1, y and z up to 65535 (the same table: maximum x-,
   y- and z-dimension of a grid of thread blocks, every compute capability
   since 3.0). Their product fits a long long. */
extern const value_shape value_grid_shape;

/* "X", "XxY" or "XxYxZ" ('x' or 'X'), each dimension a whole number from 1
   to shape's maximum for it, the missing ones 1. Refusals: "'8x' is not a
   block size such as 256, 16x16 or 8x8x4" (shape's example), a single
   number's own value_parse_int refusal ("'2048' is above the maximum,
   1024"), and a dimension's after the whole value ("'16x0': dimension '0'
   is below the minimum, 1"). */
bool value_parse_shape(const char *text, const value_shape *shape, long long dims[3], char *why);

/* value_parse_shape with value_block_shape, into ints (each 1..1024): a
   block ("256", "16x16", "8x8x4") or a cluster's blocks. */
bool value_parse_block(const char *text, int dims[3], char *why);

/* Levenshtein distance between two short words: the number of single-byte
   insertions, deletions and substitutions that turn a into b, over at most
   the first 63 bytes of each. For "did you mean" suggestions: callers take
   the nearest word at most two edits away. */
int value_edit_distance(const char *a, const char *b);

/* The nearest of a set of known words to a typed one, for "did you mean":
   start with the typed word, offer each known word in turn, then `word` is
   the nearest within two edits, or a longer word the typed one (3 bytes or
   more) begins ("dyn-smem" for "dyn"), or NULL if none is near enough to be
   a typo. Ties go to the word offered first. */
typedef struct value_nearest {
    const char *typed;
    const char *word;
    int distance;
} value_nearest;

value_nearest value_nearest_start(const char *typed);
void value_nearest_offer(value_nearest *nearest, const char *known);

/* value_nearest over an array of words. */
const char *value_nearest_word(const char *typed, const char *const *words, int count);

#endif /* OCC_VALUE_PARSE_H */
