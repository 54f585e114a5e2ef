/*
 * json_stream.h - JSON written straight to a FILE through one buffer, for
 * outputs of hundreds of thousands of objects (`occ inspect --json` on a
 * whole library), where building a jansson tree per object costs more than
 * reading the library. Only what such a writer needs: punctuation, escaped
 * strings, integers and doubles formatted as jansson formats them, and the
 * members every document repeats (a key, null, a value or null, an array of
 * ints or of a text's lines), so that no writer keeps its own copy.
 *
 * Compiled into libocc-inspect, whose documents (occ.diff) it writes, and
 * used by the CLI's; not part of any public API.
 */
#ifndef OCC_JSON_STREAM_H
#define OCC_JSON_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define JSON_STREAM_BUFFER_BYTES (1u << 14)

typedef struct json_stream {
    FILE *out;    /* NULL: collect in memory instead */
    size_t used;  /* bytes waiting in buffer */
    char *memory; /* with out NULL: everything flushed */
    size_t memory_bytes, memory_cap;
    bool failed; /* memory could not grow: output lost */
    char buffer[JSON_STREAM_BUFFER_BYTES];
} json_stream;

void json_stream_init(json_stream *s, FILE *out);
/* A stream that collects its text in s->memory (s->memory_bytes after
   json_stream_flush), so that parts of one document can be formatted on
   several threads and written in order. Release with json_stream_free. */
void json_stream_init_memory(json_stream *s);
void json_stream_free(json_stream *s);
/* Writes what is buffered; call before touching s->out directly and at the end. */
void json_stream_flush(json_stream *s);
/* A memory stream's text, NUL-terminated and now the caller's (free it),
   its length without the NUL in *size; NULL where memory ran out. s stays
   to be released with json_stream_free. */
char *json_stream_take_text(json_stream *s, size_t *size);

/* Raw bytes: punctuation and keys the caller knows need no escaping. */
void json_stream_raw(json_stream *s, const char *text, size_t len);
void json_stream_lit(json_stream *s, const char *text); /* NUL-terminated raw text */

/* A quoted string: '"' and '\' escaped, control characters as \uXXXX, valid
   UTF-8 kept as it is and any byte that is not valid UTF-8 written as
   \ufffd, so the output is always valid JSON. */
void json_stream_string(json_stream *s, const char *text, size_t len);
void json_stream_cstring(json_stream *s, const char *text); /* NUL-terminated */

void json_stream_int(json_stream *s, long long value);
/* As jansson writes a real: %.17g, with ".0" added to integral values. */
void json_stream_double(json_stream *s, double value);

/* The pieces every document repeats, written once here. */

/* ,"name": - a member after an object's first (whose key the caller writes
   with its '{'). name is written raw: a key the caller knows needs no
   escaping. */
void json_stream_key(json_stream *s, const char *name);
void json_stream_null(json_stream *s);
void json_stream_bool(json_stream *s, bool value); /* true or false */
/* json_stream_cstring, or null where text is NULL. */
void json_stream_cstring_or_null(json_stream *s, const char *text);
/* The value where known, else null. */
void json_stream_int_or_null(json_stream *s, long long value, bool known);
void json_stream_double_or_null(json_stream *s, double value, bool known);
/* [v0,v1,...]: count ints. */
void json_stream_ints(json_stream *s, const int *values, int count);
/* A text's lines ("a\nb") as an array of strings (["a","b"]): a last
   newline ends the last line and starts none; NULL or "" is []. */
void json_stream_lines(json_stream *s, const char *text);

/* Length of the valid UTF-8 sequence at p (RFC 3629: no overlongs, no
   surrogates, nothing above U+10FFFF), or 0 if there is none: the strings
   json_stream_string keeps as they are, and the ones a reader may accept. */
size_t json_utf8_sequence(const unsigned char *p, size_t avail);

#endif /* OCC_JSON_STREAM_H */
