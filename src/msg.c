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
    if (cap > 0) {
        buf[0] = '\0';
    }
}

void occ__msg_str(occ_msg *m, const char *s)
{
    /* Truncates silently: a cut message is better than a crash. */
    while (*s != '\0' && m->len + 1 < m->cap) {
        m->buf[m->len++] = *s++;
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

occ_status occ__fail(occ_error *err, occ_status status, const char *field,
                     const char *message)
{
    if (err != NULL) {
        err->field = field;
        occ__strlcpy(err->message, message, sizeof err->message);
    }
    return status;
}
