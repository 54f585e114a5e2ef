/*
 * values.c - the checked parsers of values.h.
 */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "values.h"

/* Sizes stop here: every size libocc takes is an int. */
#define SIZE_MAX_BYTES 2147483647LL

/* A value as it appears in a message: at most 40 bytes of it. */
#define SHOWN(text) (int)(strlen(text) < 40 ? strlen(text) : 40), (text)

bool cli_parse_int(const char *text, long long lo, long long hi, long long *out, cli_error *err)
{
    const char *p = text;
    bool negative = false;
    if (*p == '-' || *p == '+') {
        negative = *p == '-';
        p++;
    }
    if (!isdigit((unsigned char)*p)) {
        return cli_error_set(err, EXIT_USAGE, "'%.*s' is not a whole number", SHOWN(text));
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
        return cli_error_set(err, EXIT_USAGE, "'%.*s' is not a whole number", SHOWN(text));
    }
    if (!negative && (too_large || value == LLONG_MIN)) {
        too_large = true;
    }
    if (!too_large && !negative) {
        value = -value;
    }
    if (too_large ? !negative : value > hi) {
        return cli_error_set(err, EXIT_USAGE, "'%.*s' is above the maximum, %lld", SHOWN(text), hi);
    }
    if (too_large || value < lo) {
        return cli_error_set(err, EXIT_USAGE, "'%.*s' is below the minimum, %lld", SHOWN(text), lo);
    }
    *out = value;
    return true;
}

bool cli_parse_size(const char *text, long long *out, cli_error *err)
{
    const char *p = text;
    long long whole = 0;
    long long frac = 0;
    long long frac_scale = 1;
    int digits = 0;
    bool too_large = false;
    for (; isdigit((unsigned char)*p); p++, digits++) {
        if (!too_large) {
            whole = whole * 10 + (*p - '0');
            too_large = whole > SIZE_MAX_BYTES;
        }
    }
    if (*p == '.') {
        p++;
        for (; isdigit((unsigned char)*p); p++, digits++) {
            if (frac_scale >= 1000000) {
                return cli_error_set(err, EXIT_USAGE,
                                     "'%.*s' has more than 6 decimals; sizes are whole bytes",
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
        return cli_error_set(err, EXIT_USAGE,
                             "'%.*s' is not a size in bytes such as 4096, 48K or 1.5KiB",
                             SHOWN(text));
    }
    /* Exact: the fraction must come to whole bytes. */
    if ((frac * unit) % frac_scale != 0) {
        return cli_error_set(err, EXIT_USAGE, "'%.*s' is not a whole number of bytes", SHOWN(text));
    }
    long long bytes = too_large ? SIZE_MAX_BYTES + 1 : whole * unit + frac * unit / frac_scale;
    if (bytes > SIZE_MAX_BYTES) {
        return cli_error_set(err, EXIT_USAGE, "'%.*s' is above the maximum, %lld bytes",
                             SHOWN(text), SIZE_MAX_BYTES);
    }
    *out = bytes;
    return true;
}

bool cli_parse_carveout(const char *text, int *out, cli_error *err)
{
    if (strcasecmp(text, "default") == 0) {
        *out = OCC_CARVEOUT_DEFAULT;
        return true;
    }
    char buf[16];
    size_t len = strlen(text);
    long long value;
    if (len > 0 && len < sizeof buf) {
        memcpy(buf, text, len + 1);
        if (buf[len - 1] == '%') {
            buf[len - 1] = '\0';
        }
        cli_error ignored;
        if (cli_parse_int(buf, -1, 100, &value, &ignored)) {
            *out = (int)value;
            return true;
        }
    }
    return cli_error_set(err, EXIT_USAGE,
                         "'%.*s' is not 'default' (or -1) or a percentage from 0 to 100",
                         SHOWN(text));
}

bool cli_parse_block(const char *text, int dims[3], cli_error *err)
{
    int parsed[3] = {1, 1, 1};
    int n = 0;
    const char *p = text;
    for (;;) {
        size_t len = strcspn(p, "xX");
        char part[24];
        long long v;
        cli_error why;
        if (n == 3 || len == 0 || len >= sizeof part) {
            return cli_error_set(err, EXIT_USAGE,
                                 "'%.*s' is not a block size such as 256, 16x16 or 8x8x4",
                                 SHOWN(text));
        }
        memcpy(part, p, len);
        part[len] = '\0';
        /* 1024: no CUDA GPU takes more threads in any dimension (a block's
           x and y are at most 1024, z at most 64; the product is checked
           against the GPU's per-block limit later) */
        if (!cli_parse_int(part, 1, 1024, &v, &why)) {
            if (p == text && p[len] == '\0') {
                *err = why; /* one number: its own message says it all */
                return false;
            }
            return cli_error_set(err, EXIT_USAGE, "'%.*s': dimension %s", SHOWN(text), why.message);
        }
        parsed[n++] = (int)v;
        if (p[len] == '\0') {
            break;
        }
        p += len + 1;
    }
    memcpy(dims, parsed, sizeof parsed);
    return true;
}

bool cli_parse_double(const char *text, double lo, double hi, double *out, cli_error *err)
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
        return cli_error_set(err, EXIT_USAGE, "'%.*s' is not a number", SHOWN(text));
    }
    if (v > hi) {
        return cli_error_set(err, EXIT_USAGE, "'%.*s' is above the maximum, %g", SHOWN(text), hi);
    }
    if (!(v >= lo)) {
        return cli_error_set(err, EXIT_USAGE, "'%.*s' is below the minimum, %g", SHOWN(text), lo);
    }
    *out = v;
    return true;
}
