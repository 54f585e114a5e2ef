/*
 * msg.c - builds the one-line error messages of libocc without libc, so
 * the core compiles freestanding (WebAssembly has no snprintf).
 */
#include "occ_internal.h"

size_t occ__strlen(const char *s)
{
    size_t n = 0;
    while (s[n] != '\0') {
        n++;
    }
    return n;
}

void occ__strlcpy(char *dst, const char *src, size_t cap)
{
    size_t i = 0;
    if (cap == 0) {
        return;
    }
    for (; i + 1 < cap && src[i] != '\0'; i++) {
        dst[i] = src[i];
    }
    dst[i] = '\0';
}

void occ__msg_begin(occ_msg *m, char *buf, size_t cap)
{
    m->buf = buf;
    m->cap = cap;
    m->len = 0;
    m->truncated = false;
    m->overflow = NULL;
    if (cap > 0) {
        buf[0] = '\0';
    }
}

void occ__msg_str(occ_msg *m, const char *s)
{
    /* Cuts, and says so in m->truncated: callers whose text must be whole
       (explanations) check it and report the overflow. */
    while (*s != '\0' && m->len + 1 < m->cap) {
        m->buf[m->len++] = *s++;
    }
    if (*s != '\0') {
        m->truncated = true;
        if (m->overflow != NULL) {
            *m->overflow = true;
        }
    }
    if (m->cap > 0) {
        m->buf[m->len] = '\0';
    }
}

void occ__msg_int(occ_msg *m, long long v)
{
    char digits[24];
    int n = 0;
    /* Work in the negative range so LLONG_MIN does not overflow. */
    long long x = v < 0 ? v : -v;
    do {
        digits[n++] = (char)('0' - (int)(x % 10));
        x /= 10;
    } while (x != 0);
    char text[26];
    int t = 0;
    if (v < 0) {
        text[t++] = '-';
    }
    while (n > 0) {
        text[t++] = digits[--n];
    }
    text[t] = '\0';
    occ__msg_str(m, text);
}

occ_status occ__fail(occ_error *err, occ_status status, const char *field, const char *message)
{
    if (err != NULL) {
        err->field = field;
        err->status = status;
        occ__strlcpy(err->message, message, sizeof err->message);
    }
    return status;
}

void occ__msg_count(occ_msg *m, long long v)
{
    /* 65,536: groups of three digits, as the seeds and Nsight print counts. */
    if (v < 0) {
        occ__msg_str(m, "-");
        v = -v;
    }
    if (v >= 1000) {
        occ__msg_count(m, v / 1000);
        long long rest = v % 1000;
        occ__msg_str(m, rest < 10 ? ",00" : rest < 100 ? ",0" : ",");
        occ__msg_int(m, rest);
        return;
    }
    occ__msg_int(m, v);
}

void occ__msg_percent(occ_msg *m, double fraction)
{
    /* One decimal, dropped when it is 0: 50%, 62.5%, 65.6%. */
    long long tenths = (long long)(fraction * 1000.0 + 0.5);
    occ__msg_int(m, tenths / 10);
    if (tenths % 10 != 0) {
        occ__msg_str(m, ".");
        occ__msg_int(m, tenths % 10);
    }
    occ__msg_str(m, "%");
}
