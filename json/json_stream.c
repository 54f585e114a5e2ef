/*
 * json_stream.c - the buffered JSON writer of json_stream.h.
 */
#include <stdlib.h>
#include <string.h>

#include "json_stream.h"

void json_stream_init(json_stream *s, FILE *out)
{
    s->out = out;
    s->used = 0;
    s->memory = NULL;
    s->memory_bytes = 0;
    s->memory_cap = 0;
    s->failed = false;
}

void json_stream_init_memory(json_stream *s)
{
    json_stream_init(s, NULL);
}

void json_stream_free(json_stream *s)
{
    free(s->memory);
    s->memory = NULL;
    s->memory_bytes = 0;
    s->memory_cap = 0;
}

static void emit(json_stream *s, const char *text, size_t len)
{
    if (s->out != NULL) {
        fwrite(text, 1, len, s->out);
        return;
    }
    if (len > s->memory_cap - s->memory_bytes) {
        size_t cap = s->memory_cap > 0 ? s->memory_cap : 1u << 16;
        while (cap - s->memory_bytes < len) {
            cap *= 2;
        }
        char *bigger = realloc(s->memory, cap);
        if (bigger == NULL) {
            s->failed = true;
            return;
        }
        s->memory = bigger;
        s->memory_cap = cap;
    }
    memcpy(s->memory + s->memory_bytes, text, len);
    s->memory_bytes += len;
}

void json_stream_flush(json_stream *s)
{
    if (s->used > 0) {
        emit(s, s->buffer, s->used);
        s->used = 0;
    }
}

char *json_stream_take_text(json_stream *s, size_t *size)
{
    json_stream_raw(s, "", 1); /* the terminating NUL */
    json_stream_flush(s);
    if (s->failed || s->memory == NULL) {
        return NULL;
    }
    char *text = s->memory;
    *size = s->memory_bytes - 1;
    s->memory = NULL;
    s->memory_bytes = 0;
    s->memory_cap = 0;
    return text;
}

void json_stream_raw(json_stream *s, const char *text, size_t len)
{
    if (len > sizeof s->buffer - s->used) {
        json_stream_flush(s);
        if (len > sizeof s->buffer) {
            emit(s, text, len);
            return;
        }
    }
    memcpy(s->buffer + s->used, text, len);
    s->used += len;
}

void json_stream_lit(json_stream *s, const char *text)
{
    json_stream_raw(s, text, strlen(text));
}

size_t json_utf8_sequence(const unsigned char *p, size_t avail)
{
    unsigned char c = p[0];
    size_t n;
    unsigned min_second = 0x80;
    unsigned max_second = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        min_second = c == 0xE0 ? 0xA0 : 0x80;
        max_second = c == 0xED ? 0x9F : 0xBF;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        min_second = c == 0xF0 ? 0x90 : 0x80;
        max_second = c == 0xF4 ? 0x8F : 0xBF;
    } else {
        return 0;
    }
    if (avail < n || p[1] < min_second || p[1] > max_second) {
        return 0;
    }
    for (size_t i = 2; i < n; i++) {
        if (p[i] < 0x80 || p[i] > 0xBF) {
            return 0;
        }
    }
    return n;
}

void json_stream_string(json_stream *s, const char *text, size_t len)
{
    const unsigned char *p = (const unsigned char *)text;
    json_stream_raw(s, "\"", 1);
    size_t run = 0; /* start of the bytes not yet written */
    size_t i = 0;
    while (i < len) {
        unsigned char c = p[i];
        if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
            i++;
            continue;
        }
        size_t seq = c >= 0x80 ? json_utf8_sequence(p + i, len - i) : 0;
        if (seq > 0) {
            i += seq;
            continue;
        }
        json_stream_raw(s, text + run, i - run);
        char escape[8];
        if (c == '"' || c == '\\') {
            escape[0] = '\\';
            escape[1] = (char)c;
            json_stream_raw(s, escape, 2);
        } else if (c >= 0x80) {
            json_stream_raw(s, "\\ufffd", 6);
        } else {
            snprintf(escape, sizeof escape, "\\u%04x", c);
            json_stream_raw(s, escape, 6);
        }
        i++;
        run = i;
    }
    json_stream_raw(s, text + run, len - run);
    json_stream_raw(s, "\"", 1);
}

void json_stream_cstring(json_stream *s, const char *text)
{
    json_stream_string(s, text, strlen(text));
}

void json_stream_int(json_stream *s, long long value)
{
    char digits[24];
    size_t n = 0;
    unsigned long long magnitude =
        value < 0 ? 0ull - (unsigned long long)value : (unsigned long long)value;
    do {
        digits[sizeof digits - 1 - n++] = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude > 0);
    if (value < 0) {
        digits[sizeof digits - 1 - n++] = '-';
    }
    json_stream_raw(s, digits + sizeof digits - n, n);
}

void json_stream_double(json_stream *s, double value)
{
    char text[40];
    int n = snprintf(text, sizeof text, "%.17g", value);
    if (n <= 0 || (size_t)n >= sizeof text) {
        return;
    }
    char *e = strchr(text, 'e');
    if (e == NULL && strchr(text, '.') == NULL) {
        memcpy(text + n, ".0", 3);
    } else if (e != NULL) {
        /* as jansson: no '+' and no leading zeros in the exponent ("1e+300" -> "1e300") */
        char *digits = e + 1;
        char *from = digits;
        if (*from == '+') {
            from++;
        } else if (*from == '-') {
            digits++;
            from++;
        }
        while (*from == '0' && from[1] != '\0') {
            from++;
        }
        memmove(digits, from, strlen(from) + 1);
    }
    json_stream_raw(s, text, strlen(text));
}

void json_stream_key(json_stream *s, const char *name)
{
    json_stream_raw(s, ",\"", 2);
    json_stream_lit(s, name);
    json_stream_raw(s, "\":", 2);
}

void json_stream_null(json_stream *s)
{
    json_stream_raw(s, "null", 4);
}

void json_stream_bool(json_stream *s, bool value)
{
    json_stream_lit(s, value ? "true" : "false");
}

void json_stream_cstring_or_null(json_stream *s, const char *text)
{
    if (text != NULL) {
        json_stream_cstring(s, text);
    } else {
        json_stream_null(s);
    }
}

void json_stream_int_or_null(json_stream *s, long long value, bool known)
{
    if (known) {
        json_stream_int(s, value);
    } else {
        json_stream_null(s);
    }
}

void json_stream_double_or_null(json_stream *s, double value, bool known)
{
    if (known) {
        json_stream_double(s, value);
    } else {
        json_stream_null(s);
    }
}

void json_stream_ints(json_stream *s, const int *values, int count)
{
    json_stream_raw(s, "[", 1);
    for (int i = 0; i < count; i++) {
        json_stream_raw(s, ",", i > 0 ? 1 : 0);
        json_stream_int(s, values[i]);
    }
    json_stream_raw(s, "]", 1);
}

void json_stream_lines(json_stream *s, const char *text)
{
    json_stream_raw(s, "[", 1);
    for (const char *line = text; line != NULL && *line != '\0';) {
        const char *nl = strchr(line, '\n');
        size_t len = nl != NULL ? (size_t)(nl - line) : strlen(line);
        json_stream_raw(s, ",", line > text ? 1 : 0);
        json_stream_string(s, line, len);
        line += len + (nl != NULL);
    }
    json_stream_raw(s, "]", 1);
}
