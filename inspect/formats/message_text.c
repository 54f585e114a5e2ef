/*
 * message_text.c - names and keys from a file, made safe for a one-line
 * message (formats.h): a damaged or hostile file may put a newline, a
 * terminal escape or any byte in a symbol name or a JSON key.
 */
#include <stdio.h>

#include "formats.h"

const char *insp_message_text(const char *text, size_t len, size_t max_shown, char *buf, size_t cap)
{
    if (cap == 0) {
        return buf;
    }
    size_t n = 0;
    for (size_t i = 0; i < len && n + 8 < cap; i++) {
        unsigned char b = (unsigned char)text[i];
        if (n > max_shown) {
            n += (size_t)snprintf(buf + n, cap - n, "...");
            break;
        }
        if (b >= 0x20 && b < 0x7f && b != '"' && b != '\\') {
            buf[n++] = (char)b;
        } else {
            n += (size_t)snprintf(buf + n, cap - n, "\\x%02x", b);
        }
    }
    buf[n < cap ? n : cap - 1] = '\0';
    return buf;
}
