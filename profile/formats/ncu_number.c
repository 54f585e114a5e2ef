/*
 * occ_profile_ncu_number.c - Nsight Compute's numbers and units: "1,024" with thousands
 * separators, "32.768000" in Kbyte (1000 bytes), "167.94 (0: 167.94)" with
 * metric instances. Each number keeps half a unit of its last printed digit,
 * so that a value the details page rounded ("32.77 Kbyte") is compared as the
 * interval it stands for.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof_ncu.h"

/* Long enough for any number Nsight prints (20 digits, separators, sign,
   decimals, exponent); a longer field is not a number. */
#define NUMBER_TEXT_BYTES 64

/* Powers of ten a double holds exactly: a mantissa below 2^53 times or over
   one of them is the correctly rounded value, as strtod gives it. */
static const double exact_powers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                      1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                      1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
#define EXACT_POWERS ((int)(sizeof exact_powers / sizeof exact_powers[0]))

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

bool occ_profile_ncu_parse_number(const char *text, occ_profile_ncu_number *out)
{
    out->present = false;
    const char *p = text;
    while (*p == ' ' || *p == '\t') {
        p++;
    }
    const char *number = p;
    bool negative = *p == '-';
    if (*p == '-' || *p == '+') {
        p++;
    }
    unsigned long long mantissa = 0; /* every digit; exact up to 19 of them */
    int integer_digits = 0;
    int decimals = 0;
    while (is_digit(*p)) {
        mantissa = mantissa * 10 + (unsigned long long)(*p++ - '0');
        integer_digits++;
    }
    /* thousands separators only between groups of three after a first group
       of one to three ("1,024", "1,234,567"; not "3,2", "1,0245" or ",123") */
    if (*p == ',' && integer_digits >= 1 && integer_digits <= 3) {
        while (*p == ',') {
            if (!is_digit(p[1]) || !is_digit(p[2]) || !is_digit(p[3]) || is_digit(p[4])) {
                return false;
            }
            mantissa = mantissa * 1000 +
                       (unsigned long long)((p[1] - '0') * 100 + (p[2] - '0') * 10 + (p[3] - '0'));
            integer_digits += 3;
            p += 4;
        }
    }
    if (*p == '.') {
        p++;
        while (is_digit(*p)) {
            mantissa = mantissa * 10 + (unsigned long long)(*p++ - '0');
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
    const char *number_end = p;
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
    long shift = exponent - decimals; /* value = mantissa x 10^shift */
    if (integer_digits + decimals <= 19 && mantissa < (1ULL << 53) && shift > -EXACT_POWERS &&
        shift < EXACT_POWERS) {
        /* below 2^53: exact, and one rounding like strtod's */
        double m = (double)mantissa;
        out->value = shift >= 0 ? m * exact_powers[shift] : m / exact_powers[-shift];
        if (negative) {
            out->value = -out->value;
        }
    } else {
        /* the digits without separators or exponent, for strtod */
        char digits[NUMBER_TEXT_BYTES];
        size_t n = 0;
        for (const char *q = number; q < number_end && *q != 'e' && *q != 'E'; q++) {
            if (*q != ',') {
                if (n + 1 >= sizeof digits) {
                    return false;
                }
                digits[n++] = *q;
            }
        }
        digits[n] = '\0';
        out->value = strtod(digits, NULL) * pow(10.0, (double)exponent);
    }
    /* half a unit of the last digit printed */
    out->tolerance = shift > -EXACT_POWERS && shift < EXACT_POWERS
                         ? 0.5 * (shift >= 0 ? exact_powers[shift] : 1.0 / exact_powers[-shift])
                         : 0.5 * pow(10.0, (double)shift);
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

/* `unit` is one of the '|'-separated words of `list`. */
static bool in_list(const char *list, const char *unit)
{
    size_t len = strlen(unit);
    for (const char *p = list; p != NULL && *p != '\0';) {
        const char *bar = strchr(p, '|');
        size_t word = bar != NULL ? (size_t)(bar - p) : strlen(p);
        if (word == len && strncmp(p, unit, len) == 0) {
            return true;
        }
        p = bar != NULL ? bar + 1 : NULL;
    }
    return false;
}

/* "'register/thread', 'register'" from "register/thread|register". */
static const char *quoted_list(const char *list, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    for (const char *p = list; p != NULL && *p != '\0';) {
        const char *bar = strchr(p, '|');
        int word = (int)(bar != NULL ? (size_t)(bar - p) : strlen(p));
        int n = snprintf(buf + len, cap - len, "%s'%.*s'", len > 0 ? ", " : "", word, p);
        if (n < 0 || (size_t)n >= cap - len) {
            break;
        }
        len += (size_t)n;
        p = bar != NULL ? bar + 1 : NULL;
    }
    return buf;
}

bool ncu_unit_scale(const ncu_field_info *field, const char *unit, double *scale,
                    occ_profile_error *err)
{
    *scale = 1.0;
    size_t len = strlen(unit);
    switch (field->kind) {
    case NCU_KIND_COUNT:
        if (unit[0] != '\0' && !in_list(field->count_units, unit)) {
            char units[96];
            return ncu_fail(err, "unit '%.40s' is not a unit of the %s (%s or none)", unit,
                            field->noun, quoted_list(field->count_units, units, sizeof units));
        }
        return true;
    case NCU_KIND_BYTES: {
        /* "Kbyte", or "Kbyte/block" for a size per block */
        const char *slash = strchr(unit, '/');
        size_t base = slash != NULL ? (size_t)(slash - unit) : len;
        if (!find_scale(byte_units, sizeof byte_units / sizeof byte_units[0], unit, base, scale) ||
            (slash != NULL && strcmp(slash, "/block") != 0)) {
            return ncu_fail(err, "unit '%.40s' is not a size (byte, Kbyte, Mbyte, Gbyte)", unit);
        }
        return true;
    }
    case NCU_KIND_PERCENT:
        if (strcmp(unit, "%") != 0) {
            return ncu_fail(err, "unit '%.40s' is not a percentage ('%%')", unit);
        }
        return true;
    case NCU_KIND_TIME:
        if (!find_scale(time_units, sizeof time_units / sizeof time_units[0], unit, len, scale)) {
            return ncu_fail(err, "unit '%.40s' is not a duration (ns, us, ms, s)", unit);
        }
        return true;
    }
    return ncu_fail(err, "unit '%.40s' of an unknown kind", unit);
}
