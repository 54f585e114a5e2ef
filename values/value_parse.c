/*
 * value_parse.c - the checked parsers and the edit distance of
 * value_parse.h.
 */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "value_parse.h"

/* A value as it appears in a message: at most 40 bytes of it. */
#define SHOWN(text) (int)(strlen(text) < 40 ? strlen(text) : 40), (text)

const value_shape value_block_shape = {"a block size such as 256, 16x16 or 8x8x4",
                                       {1024, 1024, 1024}};
const value_shape value_grid_shape = {"a grid such as 1056, 132x8 or 66x4x4",
                                      {2147483647LL, 65535, 65535}};
_Static_assert(2147483647LL <= LLONG_MAX / 65535 / 65535, "a grid's blocks overflow");

/* Fills why (where given) and returns false, so parsers `return refuse(...)`. */
__attribute__((format(printf, 2, 3))) static bool refuse(char *why, const char *format, ...)
{
    if (why != NULL) {
        va_list ap;
        va_start(ap, format);
        vsnprintf(why, VALUE_WHY_BYTES, format, ap);
        va_end(ap);
    }
    return false;
}

bool value_parse_int(const char *text, long long lo, long long hi, long long *out, char *why)
{
    const char *p = text;
    bool negative = false;
    if (*p == '-' || *p == '+') {
        negative = *p == '-';
        p++;
    }
    if (!isdigit((unsigned char)*p)) {
        return refuse(why, "'%.*s' is not a whole number", SHOWN(text));
    }
    /* Accumulate as a negative number: its range holds LLONG_MIN too. */
    long long value = 0;
    bool too_large = false;
    for (; isdigit((unsigned char)*p); p++) {
        int digit = *p - '0';
        if (value < (LLONG_MIN + digit) / 10) {
            too_large = true;
        } else {
            value = value * 10 - digit;
        }
    }
    if (*p != '\0') {
        return refuse(why, "'%.*s' is not a whole number", SHOWN(text));
    }
    if (!negative && value == LLONG_MIN) {
        too_large = true;
    }
    if (!too_large && !negative) {
        value = -value;
    }
    if (too_large ? !negative : value > hi) {
        return refuse(why, "'%.*s' is above the maximum, %lld", SHOWN(text), hi);
    }
    if (too_large || value < lo) {
        return refuse(why, "'%.*s' is below the minimum, %lld", SHOWN(text), lo);
    }
    *out = value;
    return true;
}

/* v against [lo, hi], in value_parse_double's words. */
static bool in_range(const char *text, double v, double lo, double hi, double *out, char *why)
{
    if (v > hi) {
        return refuse(why, "'%.*s' is above the maximum, %g", SHOWN(text), hi);
    }
    if (!(v >= lo)) {
        return refuse(why, "'%.*s' is below the minimum, %g", SHOWN(text), lo);
    }
    *out = v;
    return true;
}

bool value_parse_double(const char *text, double lo, double hi, double *out, char *why)
{
    /* strtod alone would take "inf", "nan", hex and leading spaces. */
    const char *p = text;
    if (*p == '-' || *p == '+') {
        p++;
    }
    bool shaped = (*p >= '0' && *p <= '9') || (*p == '.' && p[1] >= '0' && p[1] <= '9');
    for (const char *q = p; shaped && *q != '\0'; q++) {
        shaped = (*q >= '0' && *q <= '9') || *q == '.' || *q == 'e' || *q == 'E' || *q == '-' ||
                 *q == '+';
    }
    char *end = NULL;
    double v = shaped ? strtod(text, &end) : 0.0;
    if (!shaped || end == text || *end != '\0' || !isfinite(v)) {
        return refuse(why, "'%.*s' is not a number", SHOWN(text));
    }
    return in_range(text, v, lo, hi, out, why);
}

bool value_parse_decimal(const char *text, double lo, double hi, double *out, char *why)
{
    int dots = 0;
    int digits = 0;
    for (const char *p = text; *p != '\0'; p++) {
        if (*p == '.') {
            dots++;
        } else if (*p >= '0' && *p <= '9') {
            digits++;
        } else {
            digits = 0;
            break;
        }
    }
    if (digits == 0 || dots > 1) {
        return refuse(why, "'%.*s' is not a decimal number such as 12.5", SHOWN(text));
    }
    /* digits and one '.': strtod reads all of it, finite but for a
       thousand-digit value */
    double v = strtod(text, NULL);
    if (!isfinite(v)) {
        return refuse(why, "'%.*s' is above the maximum, %g", SHOWN(text), hi);
    }
    return in_range(text, v, lo, hi, out, why);
}

bool value_parse_size(const char *text, long long max_bytes, long long *out, char *why)
{
    if (max_bytes < 0 || max_bytes > VALUE_SIZE_LIMIT_MAX) {
        max_bytes = VALUE_SIZE_LIMIT_MAX; /* a caller's slip, never an overflow */
    }
    const char *p = text;
    long long whole = 0;
    long long frac = 0;
    long long frac_scale = 1;
    int digits = 0;
    bool too_large = false;
    for (; isdigit((unsigned char)*p); p++, digits++) {
        if (!too_large) {
            whole = whole * 10 + (*p - '0');
            too_large = whole > max_bytes;
        }
    }
    if (*p == '.') {
        p++;
        for (; isdigit((unsigned char)*p); p++, digits++) {
            if (frac_scale >= 1000000) {
                return refuse(why, "'%.*s' has more than 6 decimals; sizes are whole bytes",
                              SHOWN(text));
            }
            frac = frac * 10 + (*p - '0');
            frac_scale *= 10;
        }
    }
    long long unit = 0;
    if (*p == '\0' || strcasecmp(p, "b") == 0) {
        unit = 1;
    } else if (strcasecmp(p, "k") == 0 || strcasecmp(p, "kb") == 0 || strcasecmp(p, "kib") == 0) {
        unit = 1024; /* CUDA's KB is 1024 bytes */
    } else if (strcasecmp(p, "m") == 0 || strcasecmp(p, "mb") == 0 || strcasecmp(p, "mib") == 0) {
        unit = 1024 * 1024;
    }
    if (digits == 0 || unit == 0) {
        return refuse(why, "'%.*s' is not a size in bytes such as 4096, 48K or 1.5KiB",
                      SHOWN(text));
    }
    /* Exact: the fraction must come to whole bytes. */
    if ((frac * unit) % frac_scale != 0) {
        return refuse(why, "'%.*s' is not a whole number of bytes", SHOWN(text));
    }
    /* whole <= max_bytes <= 2^42 here, unit <= 2^20: no overflow */
    long long bytes = too_large ? max_bytes + 1 : whole * unit + frac * unit / frac_scale;
    if (bytes > max_bytes) {
        return refuse(why, "'%.*s' is above the maximum, %lld bytes", SHOWN(text), max_bytes);
    }
    *out = bytes;
    return true;
}

bool value_parse_shape(const char *text, const value_shape *shape, long long dims[3], char *why)
{
    long long parsed[3] = {1, 1, 1};
    int n = 0;
    const char *p = text;
    for (;;) {
        size_t len = strcspn(p, "xX");
        char part[24];
        long long v;
        if (n == 3 || len == 0 || len >= sizeof part) {
            return refuse(why, "'%.*s' is not %s", SHOWN(text), shape->example);
        }
        memcpy(part, p, len);
        part[len] = '\0';
        char part_why[VALUE_WHY_BYTES];
        if (!value_parse_int(part, 1, shape->max[n], &v, part_why)) {
            if (p == text && p[len] == '\0') {
                /* one number: its own message says it all */
                return refuse(why, "%s", part_why);
            }
            /* (part_why quotes at most 23 bytes of the value: it fits) */
            return refuse(why, "'%.*s': dimension %.100s", SHOWN(text), part_why);
        }
        parsed[n++] = v;
        if (p[len] == '\0') {
            break;
        }
        p += len + 1;
    }
    memcpy(dims, parsed, sizeof parsed);
    return true;
}

bool value_parse_block(const char *text, int dims[3], char *why)
{
    long long parsed[3];
    if (!value_parse_shape(text, &value_block_shape, parsed, why)) {
        return false;
    }
    for (int d = 0; d < 3; d++) {
        dims[d] = (int)parsed[d]; /* 1..1024 */
    }
    return true;
}

value_nearest value_nearest_start(const char *typed)
{
    return (value_nearest){.typed = typed, .word = NULL, .distance = 3 /* two edits at most */};
}

void value_nearest_offer(value_nearest *nearest, const char *known)
{
    size_t len = strlen(nearest->typed);
    int d = value_edit_distance(nearest->typed, known);
    if (len >= 3 && strlen(known) > len && strncmp(known, nearest->typed, len) == 0 && d > 1) {
        d = 1; /* "dyn" for "dyn-smem": a word cut short */
    }
    if (d < nearest->distance) {
        nearest->word = known;
        nearest->distance = d;
    }
}

const char *value_nearest_word(const char *typed, const char *const *words, int count)
{
    value_nearest nearest = value_nearest_start(typed);
    for (int i = 0; i < count; i++) {
        value_nearest_offer(&nearest, words[i]);
    }
    return nearest.word;
}

int value_edit_distance(const char *a, const char *b)
{
    enum { MAX = 64 };
    size_t la = strlen(a) < MAX - 1 ? strlen(a) : MAX - 1;
    size_t lb = strlen(b) < MAX - 1 ? strlen(b) : MAX - 1;
    int row[MAX];
    for (size_t j = 0; j <= lb; j++) {
        row[j] = (int)j;
    }
    for (size_t i = 1; i <= la; i++) {
        int diagonal = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int above = row[j];
            int best = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
            best = above + 1 < best ? above + 1 : best;
            best = row[j - 1] + 1 < best ? row[j - 1] + 1 : best;
            row[j] = best;
            diagonal = above;
        }
    }
    return row[lb];
}
