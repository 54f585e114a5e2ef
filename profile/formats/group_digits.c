/*
 * group_digits.c - "1,234,567" without printf: the occ ncu table prints one
 * for each launch (docs/ncu.md, Speed).
 */
#include "group_digits.h"

#include <string.h>

const char *group_digits(long long value, char *buf, size_t cap)
{
    char text[32]; /* 26 for LLONG_MIN: 19 digits, 6 commas and '-' */
    char *p = text + sizeof text;
    /* negated as unsigned: -LLONG_MIN does not fit a long long */
    unsigned long long magnitude =
        value < 0 ? 0ULL - (unsigned long long)value : (unsigned long long)value;
    int digits = 0;
    do {
        if (digits > 0 && digits % 3 == 0) {
            *--p = ',';
        }
        *--p = (char)('0' + magnitude % 10);
        magnitude /= 10;
        digits++;
    } while (magnitude > 0);
    if (value < 0) {
        *--p = '-';
    }
    size_t length = (size_t)(text + sizeof text - p);
    if (length >= cap) { /* a clean prefix: no ',' at its end */
        length = cap - 1;
        if (length > 0 && p[length - 1] == ',') {
            length--;
        }
    }
    memcpy(buf, p, length);
    buf[length] = '\0';
    return buf;
}
