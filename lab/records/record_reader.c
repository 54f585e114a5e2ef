/*
 * record_reader.c - the line loop and field checks the lab's records
 * readers share (record_reader.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lab_lines.h"
#include "record_reader.h"

bool lab_error_set(lab_error *err, const char *format, ...)
{
    if (err != NULL) {
        va_list args;
        va_start(args, format);
        vsnprintf(err->message, sizeof err->message, format, args);
        va_end(args);
    }
    return false;
}

void lab_reader_fail(lab_reader *r, const char *format, ...)
{
    if (!r->ok) {
        return;
    }
    r->ok = false;
    char text[768];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof text, format, args);
    va_end(args);
    lab_error_set(r->err, "%s: line %ld: %s", r->name, r->line, text);
}

json_t *lab_reader_optional(const lab_reader *r, const char *key)
{
    json_t *v = json_object_get(r->obj, key);
    return v == NULL || json_is_null(v) ? NULL : v;
}

json_t *lab_reader_required(lab_reader *r, const char *key)
{
    json_t *v = lab_reader_optional(r, key);
    if (v == NULL) {
        lab_reader_fail(r, "%s record has no field '%s'", r->kind, key);
    }
    return v;
}

bool lab_reader_no_control(lab_reader *r, const char *key, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f) {
            lab_reader_fail(r, "%s field '%s' holds the control character 0x%02x", r->kind, key, c);
            return false;
        }
    }
    return true;
}

bool lab_reader_time_ok(lab_reader *r, const char *key, double ms)
{
    if (!(ms > 0.0)) {
        lab_reader_fail(r, "%s field '%s' is %.17g; a measured time must be above 0", r->kind, key,
                        ms);
        return false;
    }
    return true;
}

/* One line: a JSON object with a "record" kind, handed to `each`. */
static void read_json_line(lab_reader *r, const char *line, size_t len, lab_reader_record_fn *each,
                           void *context)
{
    json_error_t jerr;
    r->obj = json_loadb(line, len, 0, &jerr);
    if (r->obj == NULL || !json_is_object(r->obj)) {
        r->kind = "";
        lab_reader_fail(r, "not a JSON object (%s)",
                        r->obj == NULL ? jerr.text : "another JSON value");
    } else {
        json_t *kind = json_object_get(r->obj, "record");
        if (!json_is_string(kind)) {
            r->kind = "";
            lab_reader_fail(r, "no \"record\" kind");
        } else {
            r->kind = json_string_value(kind);
            each(r, context);
        }
    }
    json_decref(r->obj);
    r->obj = NULL;
}

bool lab_reader_lines(FILE *in, lab_reader *r, lab_reader_record_fn *each, void *context)
{
    char *line = malloc(LAB_MAX_LINE_BYTES + 1);
    if (line == NULL) {
        r->ok = false;
        return lab_error_set(r->err, "%s: out of memory", r->name);
    }
    if (r->kind == NULL) {
        r->kind = "";
    }
    while (r->ok) {
        size_t len;
        errno = 0;
        lab_line_status status = lab_read_line(in, line, &len);
        if (status == LAB_LINE_END) {
            break;
        }
        r->line++;
        if (status == LAB_LINE_FAILED) {
            int e = errno;
            r->kind = "";
            lab_reader_fail(r, "cannot read: %s", e != 0 ? strerror(e) : "read error");
        } else if (status == LAB_LINE_TOO_LONG) {
            lab_reader_fail(
                r, "longer than the limit of %d bytes (a record is one short JSON object a line)",
                LAB_MAX_LINE_BYTES);
        } else if (strlen(line) != len) {
            lab_reader_fail(r, "holds a NUL byte at byte %zu (records are JSON text)",
                            strlen(line) + 1);
        } else if (!lab_line_blank(line, len)) {
            read_json_line(r, line, len, each, context);
        }
    }
    free(line);
    return r->ok;
}
