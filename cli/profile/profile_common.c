/*
 * profile_common.c - what the printers of `occ profile` share: limiter
 * words and short kernel names.
 */
#include <string.h>

#include "profile_output.h"

const char *profile_limiters(unsigned limiters, char *buf, size_t cap)
{
    static const occ_limiter order[] = {OCC_LIMITER_WARPS, OCC_LIMITER_BLOCKS,
                                        OCC_LIMITER_REGISTERS, OCC_LIMITER_SHARED_MEM,
                                        OCC_LIMITER_BARRIERS};
    size_t n = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        if (!(limiters & order[i])) {
            continue;
        }
        const char *word = occ_limiter_name(order[i]);
        size_t len = strlen(word);
        if (n + len + 2 > cap) {
            break;
        }
        if (n) {
            buf[n++] = '+';
        }
        memcpy(buf + n, word, len + 1);
        n += len;
    }
    if (n == 0 && cap > 1) {
        buf[0] = '-';
        buf[1] = '\0';
    }
    return buf;
}

/* "void at::native::foo<float, 4>(int, float*)" -> "at::native::foo": the
   text before the first '(' or '<' at depth 0, after the return type. */
const char *profile_short_name(const char *name, char *buf, size_t cap)
{
    /* "(anonymous namespace)::" says nothing: read past it */
    char clean[512];
    size_t m = 0;
    for (const char *p = name; *p && m + 1 < sizeof clean;) {
        if (strncmp(p, "(anonymous namespace)::", 23) == 0) {
            p += 23;
            continue;
        }
        clean[m++] = *p++;
    }
    clean[m] = '\0';
    name = clean;
    size_t start = 0, end = strlen(name), depth = 0;
    for (size_t i = 0; name[i]; i++) {
        char c = name[i];
        if (c == '<') {
            if (depth == 0 && i > 0 && name[i - 1] != ' ') {
                end = i;
                break;
            }
            depth++;
        } else if (c == '>' && depth > 0) {
            depth--;
        } else if (c == '(' && depth == 0) {
            end = i;
            break;
        } else if (c == ' ' && depth == 0 && strncmp(name + i + 1, "const", 5) != 0) {
            start = i + 1; /* a return type before the name */
        }
    }
    if (start >= end) {
        start = 0;
        end = strlen(name);
    }
    size_t n = end - start < cap - 1 ? end - start : cap - 1;
    memcpy(buf, name + start, n);
    buf[n] = '\0';
    return buf;
}
