/*
 * message_fit.c - vsnprintf that keeps a long message's end, and text from
 * a file made visible in a message (message_fit.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "message_fit.h"

static int is_continuation(char c)
{
    return ((unsigned char)c & 0xC0) == 0x80;
}

void message_vfit(char *out, size_t size, const char *format, va_list args)
{
    if (out == NULL || size == 0) {
        return;
    }
    char full[MESSAGE_FIT_MAX_BYTES];
    int n = vsnprintf(full, sizeof full, format, args);
    if (n < 0) {
        out[0] = '\0';
        return;
    }
    size_t length = strlen(full); /* n, or the bytes kept of a longer one */
    if (length < size) {
        memcpy(out, full, length + 1);
        return;
    }
    size_t marker = sizeof MESSAGE_FIT_ELISION - 1;
    if (size < marker + 3) {
        memcpy(out, full, size - 1);
        out[size - 1] = '\0';
        return;
    }
    size_t room = size - 1 - marker;
    size_t head = room * 2 / 5;
    size_t tail = room - head;
    while (head > 0 && is_continuation(full[head])) {
        head--; /* end the head before a sequence's continuation bytes */
    }
    size_t tail_start = length - tail;
    while (tail_start < length && is_continuation(full[tail_start])) {
        tail_start++; /* start the tail at a sequence's first byte */
    }
    memcpy(out, full, head);
    memcpy(out + head, MESSAGE_FIT_ELISION, marker);
    memcpy(out + head + marker, full + tail_start, length - tail_start + 1);
}

void message_fit(char *out, size_t size, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    message_vfit(out, size, format, args);
    va_end(args);
}

static bool is_control(unsigned char b)
{
    return b < 0x20 || b == 0x7f;
}

/* \xNN at `at` (4 bytes, no NUL). */
static size_t put_escape(char *at, unsigned char b)
{
    static const char hex[] = "0123456789abcdef";
    at[0] = '\\';
    at[1] = 'x';
    at[2] = hex[b >> 4];
    at[3] = hex[b & 0xf];
    return 4;
}

size_t message_visible_copy(const char *text, char *buf, size_t cap)
{
    const unsigned char *p = (const unsigned char *)text;
    size_t o = 0;
    for (; *p != '\0' && o + 1 < cap; p++) {
        if (is_control(*p)) {
            if (o + 5 > cap - 1) {
                break;
            }
            o += put_escape(buf + o, *p);
        } else {
            buf[o++] = (char)*p;
        }
    }
    if (cap > 0) {
        buf[o] = '\0';
    }
    return (size_t)(p - (const unsigned char *)text);
}

const char *message_visible(const char *text, char *buf, size_t cap)
{
    message_visible_copy(text, buf, cap);
    return buf;
}

const char *message_visible_ascii(const char *text, size_t len, size_t max_shown, char *buf,
                                  size_t cap)
{
    if (cap == 0) {
        return buf;
    }
    size_t n = 0;
    for (size_t i = 0; i < len && n + 8 < cap; i++) {
        unsigned char b = (unsigned char)text[i];
        if (n > max_shown) {
            memcpy(buf + n, "...", 3);
            n += 3;
            break;
        }
        if (!is_control(b) && b < 0x80 && b != '"' && b != '\\') {
            buf[n++] = (char)b;
        } else {
            n += put_escape(buf + n, b);
        }
    }
    buf[n < cap ? n : cap - 1] = '\0';
    return buf;
}
