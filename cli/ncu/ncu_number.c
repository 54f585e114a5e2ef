/*
 * ncu_number.c - Nsight Compute's numbers and units: "1,024" with thousands
 * separators, "32.768000" in Kbyte (1000 bytes), "167.94 (0: 167.94)" with
 * metric instances. Each number keeps half a unit of its last printed digit,
 * so that a value the details page rounded ("32.77 Kbyte") is compared as the
 * interval it stands for.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ncu.h"

/* Long enough for any number Nsight prints (20 digits, separators, sign,
   decimals, exponent); a longer field is not a number. */
#define NUMBER_TEXT_BYTES 64

bool ncu_parse_number(const char *text, ncu_number *out)
{
    out->present = false;
    const char *p = text;
    while (*p == ' ' || *p == '\t') {
        p++;
    }
    char digits[NUMBER_TEXT_BYTES];
    size_t n = 0;
    if (*p == '-' || *p == '+') {
        digits[n++] = *p++;
    }
    int integer_digits = 0;
    int decimals = 0;
    /* digits, with commas only between digits ("1,024") */
    while (isdigit((unsigned char)*p) ||
           (*p == ',' && integer_digits > 0 && isdigit((unsigned char)p[1]))) {
        if (*p != ',') {
            if (n + 1 >= sizeof digits) {
                return false;
            }
            digits[n++] = *p;
            integer_digits++;
        }
        p++;
    }
    if (*p == '.') {
        if (n + 1 >= sizeof digits) {
            return false;
        }
        digits[n++] = *p++;
        while (isdigit((unsigned char)*p)) {
            if (n + 1 >= sizeof digits) {
                return false;
            }
            digits[n++] = *p++;
            decimals++;
        }
    }
    if (integer_digits + decimals == 0) {
        return false;
    }
    long exponent = 0;
    if (*p == 'e' || *p == 'E') {
        char *end;
        exponent = strtol(p + 1, &end, 10);
        if (end == p + 1 || exponent < -30 || exponent > 30) {
            return false;
        }
        p = end;
    }
    digits[n] = '\0';
    while (*p == ' ' || *p == '\t') {
        p++;
    }
    /* the raw page with --print-metric-instances: "value (instance: value; ...)" */
    if (*p == '(') {
        const char *close = strrchr(p, ')');
        if (close == NULL || close[1] != '\0') {
            return false;
        }
        p = close + 1;
    }
    if (*p != '\0') {
        return false;
    }
    double scale = pow(10.0, (double)exponent);
    out->value = strtod(digits, NULL) * scale;
    out->tolerance = 0.5 * pow(10.0, -(double)decimals) * scale;
    out->present = isfinite(out->value);
    return out->present;
}

typedef struct unit_scale {
    const char *name;
    double scale;
} unit_scale;

/* Nsight Compute's byte units are decimal: "Kbyte" is 1000 bytes (its
   Metrics Reference, "Units"; the H200 exports print 233,472 bytes as
   233.472 Kbyte). */
static const unit_scale byte_units[] = {
    {"byte", 1.0}, {"Kbyte", 1e3}, {"Mbyte", 1e6}, {"Gbyte", 1e9}, {"Tbyte", 1e12}};
/* Durations, to microseconds: Nsight prints "us" (2025.3), older releases
   "usecond". */
static const unit_scale time_units[] = {{"ns", 1e-3},     {"nsecond", 1e-3}, {"us", 1.0},
                                        {"usecond", 1.0}, {"ms", 1e3},       {"msecond", 1e3},
                                        {"s", 1e6},       {"second", 1e6}};

static bool find_scale(const unit_scale *units, size_t count, const char *unit, size_t len,
                       double *scale)
{
    for (size_t i = 0; i < count; i++) {
        if (strlen(units[i].name) == len && strncmp(units[i].name, unit, len) == 0) {
            *scale = units[i].scale;
            return true;
        }
    }
    return false;
}

bool ncu_apply_unit(ncu_kind kind, const char *unit, ncu_number *n, cli_error *err)
{
    double scale = 1.0;
    size_t len = strlen(unit);
    switch (kind) {
    case NCU_KIND_COUNT: return true;
    case NCU_KIND_BYTES: {
        const char *slash = strchr(unit, '/');
        size_t base = slash != NULL ? (size_t)(slash - unit) : len;
        if (!find_scale(byte_units, sizeof byte_units / sizeof byte_units[0], unit, base, &scale)) {
            return cli_error_set(err, EXIT_DATA,
                                 "unit '%.40s' is not a size (byte, Kbyte, Mbyte, Gbyte)", unit);
        }
        break;
    }
    case NCU_KIND_PERCENT:
        if (strcmp(unit, "%") != 0) {
            return cli_error_set(err, EXIT_DATA, "unit '%.40s' is not a percentage ('%%')", unit);
        }
        break;
    case NCU_KIND_TIME:
        if (!find_scale(time_units, sizeof time_units / sizeof time_units[0], unit, len, &scale)) {
            return cli_error_set(err, EXIT_DATA, "unit '%.40s' is not a duration (ns, us, ms, s)",
                                 unit);
        }
        break;
    }
    n->value *= scale;
    n->tolerance *= scale;
    return true;
}
