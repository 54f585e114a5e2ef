/*
 * message_fit.c - vsnprintf that keeps a long message's end (message_fit.h).
 */
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
