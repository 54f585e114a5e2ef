/*
 * group_digits.h - "1,234,567": the one digit grouping of libocc-profile's
 * messages and of the occ command's output (which links libocc-profile).
 */
#ifndef OCC_GROUP_DIGITS_H
#define OCC_GROUP_DIGITS_H

#include <stddef.h>

/* value with a ',' between groups of three digits, into buf (cap bytes,
   cap >= 1). A short buffer holds the start of the text, never ending in
   ','. Returns buf. */
const char *group_digits(long long value, char *buf, size_t cap);

#endif
