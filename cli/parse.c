/*
 * parse.c - the checked parsers for numbers on the command line and in
 * CSV rows, and the number formats occ prints.
 */
#include <stdlib.h>
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "cli.h"

/* Sizes stop here: every size libocc takes is an int. */
#define SIZE_MAX_BYTES 2147483647LL

bool cli_parse_int(const char *text, long long lo, long long hi, long long *out)
{
    const char *p = text;
    bool negative = false;
    long long value = 0;
    if (*p == '-' || *p == '+') {
        negative = *p == '-';
        p++;
    }
    if (!isdigit((unsigned char)*p)) {
        return false;
    }
    for (; isdigit((unsigned char)*p); p++) {
        if (value > (SIZE_MAX_BYTES * 16 - (*p - '0')) / 10) {
            return false; /* far beyond any limit: refuse before overflow */
        }
        value = value * 10 + (*p - '0');
    }
    if (*p != '\0') {
        return false;
    }
    value = negative ? -value : value;
    if (value < lo || value > hi) {
        return false;
    }
    *out = value;
    return true;
}

bool cli_parse_size(const char *text, long long *out)
{
    const char *p = text;
    long long whole = 0;
    long long frac = 0;
    long long frac_scale = 1;
    int digits = 0;
    for (; isdigit((unsigned char)*p); p++, digits++) {
        whole = whole * 10 + (*p - '0');
        if (whole > SIZE_MAX_BYTES) {
            return false;
        }
    }
    if (*p == '.') {
        p++;
        for (; isdigit((unsigned char)*p); p++, digits++) {
            if (frac_scale >= 1000000) {
                return false;
            }
            frac = frac * 10 + (*p - '0');
            frac_scale *= 10;
        }
    }
    if (digits == 0) {
        return false;
    }
    long long unit;
    if (*p == '\0' || strcasecmp(p, "b") == 0) {
        unit = 1;
    } else if (strcasecmp(p, "k") == 0 || strcasecmp(p, "kb") == 0 ||
               strcasecmp(p, "kib") == 0) {
        unit = 1024; /* CUDA's KB is 1024 bytes */
    } else if (strcasecmp(p, "m") == 0 || strcasecmp(p, "mb") == 0 ||
               strcasecmp(p, "mib") == 0) {
        unit = 1024 * 1024;
    } else {
        return false;
    }
    /* Exact: the fraction must come to whole bytes. */
    if ((frac * unit) % frac_scale != 0) {
        return false;
    }
    long long bytes = whole * unit + frac * unit / frac_scale;
    if (bytes > SIZE_MAX_BYTES) {
        return false;
    }
    *out = bytes;
    return true;
}

bool cli_parse_carveout(const char *text, int *out)
{
    if (strcasecmp(text, "default") == 0) {
        *out = OCC_CARVEOUT_DEFAULT;
        return true;
    }
    char buf[16];
    size_t len = strlen(text);
    if (len == 0 || len >= sizeof buf) {
        return false;
    }
    memcpy(buf, text, len + 1);
    if (buf[len - 1] == '%') {
        buf[len - 1] = '\0';
    }
    long long value;
    if (!cli_parse_int(buf, -1, 100, &value)) {
        return false;
    }
    *out = (int)value;
    return true;
}

const char *cli_group_digits(long long value, char *buf, size_t cap)
{
    char digits[32];
    /* Negated as unsigned: -LLONG_MIN does not fit a long long. */
    unsigned long long magnitude =
        value < 0 ? 0ULL - (unsigned long long)value : (unsigned long long)value;
    int n = snprintf(digits, sizeof digits, "%llu", magnitude);
    size_t o = 0;
    if (value < 0 && o + 1 < cap) {
        buf[o++] = '-';
    }
    for (int i = 0; i < n && o + 1 < cap; i++) {
        if (i > 0 && (n - i) % 3 == 0) {
            if (o + 2 >= cap) {
                break; /* no room for ',' and a digit: stop at a clean prefix */
            }
            buf[o++] = ',';
        }
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
    return buf;
}

const char *cli_format_bytes(long long bytes, char *buf, size_t cap)
{
    char grouped[32];
    if (bytes >= 1024 && bytes % 1024 == 0) {
        snprintf(buf, cap, "%s KB", cli_group_digits(bytes / 1024, grouped, sizeof grouped));
    } else {
        snprintf(buf, cap, "%s B", cli_group_digits(bytes, grouped, sizeof grouped));
    }
    return buf;
}

bool cli_parse_double(const char *text, double lo, double hi, double *out)
{
    /* strtod alone would take "inf", "nan", hex and leading spaces. */
    const char *p = text;
    if (*p == '-' || *p == '+') {
        p++;
    }
    if (!((*p >= '0' && *p <= '9') || (*p == '.' && p[1] >= '0' && p[1] <= '9'))) {
        return false;
    }
    for (const char *q = p; *q != '\0'; q++) {
        if (!((*q >= '0' && *q <= '9') || *q == '.' || *q == 'e' || *q == 'E' || *q == '-' ||
              *q == '+')) {
            return false;
        }
    }
    char *end = NULL;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || !(v >= lo && v <= hi)) {
        return false;
    }
    *out = v;
    return true;
}
