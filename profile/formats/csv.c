/*
 * csv.c - the bounded RFC 4180 reader of csv.h.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"

void csv_init(csv_reader *r, FILE *in)
{
    memset(r, 0, sizeof *r);
    r->in = in;
    r->next_line = 1;
    r->max_record_bytes = CSV_MAX_RECORD_BYTES;
    r->runaway_bytes = CSV_RUNAWAY_BYTES;
    r->max_fields = CSV_MAX_FIELDS;
    r->fields = r->fixed_fields;
    r->quoted = r->fixed_quoted;
    r->buf = r->fixed_buf;
    r->buf_bytes = sizeof r->fixed_buf;
}

bool csv_init_sized(csv_reader *r, FILE *in, size_t max_record_bytes, int max_fields)
{
    csv_init(r, in);
    if (max_fields < 1 || max_record_bytes < 1 || max_record_bytes > (SIZE_MAX >> 2)) {
        return false;
    }
    size_t buf_bytes = CSV_BUFFER_BYTES(max_record_bytes, max_fields);
    char **fields = calloc((size_t)max_fields, sizeof *fields);
    bool *quoted = calloc((size_t)max_fields, sizeof *quoted);
    char *buf = malloc(buf_bytes);
    if (fields == NULL || quoted == NULL || buf == NULL) {
        free(fields);
        free(quoted);
        free(buf);
        return false;
    }
    r->max_record_bytes = max_record_bytes;
    /* a runaway is what no record of the allowed size can be: twice the
       limit, so that a record just past it is still reported as too long */
    r->runaway_bytes =
        2 * max_record_bytes > CSV_RUNAWAY_BYTES ? 2 * max_record_bytes : CSV_RUNAWAY_BYTES;
    r->max_fields = max_fields;
    r->fields = fields;
    r->quoted = quoted;
    r->buf = buf;
    r->buf_bytes = buf_bytes;
    r->owns_storage = true;
    return true;
}

void csv_free(csv_reader *r)
{
    if (r->owns_storage) {
        free(r->fields);
        free(r->quoted);
        free(r->buf);
    }
    r->fields = r->fixed_fields;
    r->quoted = r->fixed_quoted;
    r->buf = r->fixed_buf;
    r->buf_bytes = sizeof r->fixed_buf;
    r->owns_storage = false;
}

/* The next byte: one given back first, else the stream's. */
static int next_byte(csv_reader *r)
{
    return r->pending_count > 0 ? r->pending[--r->pending_count] : getc(r->in);
}

static void give_back(csv_reader *r, int c)
{
    if (c != EOF && r->pending_count < (int)sizeof r->pending) {
        r->pending[r->pending_count++] = (unsigned char)c;
    }
}

csv_status csv_next(csv_reader *r)
{
    if (!r->started) {
        /* a UTF-8 byte-order mark (spreadsheets write one) is not data */
        r->started = true;
        int b[3];
        int n = 0;
        while (n < 3 && (b[n] = getc(r->in)) != EOF) {
            n++;
        }
        if (!(n == 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF)) {
            for (int i = n - 1; i >= 0; i--) {
                give_back(r, b[i]);
            }
        }
    }
    for (;;) {
        size_t len = 0;
        size_t consumed = 0;
        int field = 0;
        bool in_quotes = false;
        bool after_quote = false; /* the field's closing quote has been read */
        bool field_start = true;
        bool too_long = false;
        size_t field_begin = 0;
        size_t last_kept = 0; /* end of the field's text before trailing spaces */
        r->unclosed_quote = false;
        r->text_after_quote = false;
        r->has_nul = false;
        r->line = r->next_line;
        /* the limits in locals: the stores to buf (chars) may alias any
           field of the reader, which would reload them for every byte */
        const size_t room = r->buf_bytes - 2; /* the record's text and its NULs */
        const size_t max_record = r->max_record_bytes;
        const size_t runaway = r->runaway_bytes;
        const int max_fields = r->max_fields;
        int c;
        bool any = false;
#define PUT(ch)                                                                                    \
    do {                                                                                           \
        if (len < room) {                                                                          \
            r->buf[len++] = (char)(ch);                                                            \
        } else {                                                                                   \
            too_long = true;                                                                       \
        }                                                                                          \
    } while (0)
        for (;;) {
            c = next_byte(r);
            if (c == EOF) {
                break;
            }
            any = true;
            if (++consumed > runaway) {
                return CSV_RUNAWAY;
            }
            if (consumed > max_record) {
                too_long = true;
            }
            if (c == '\n') {
                r->next_line++;
            }
            if (in_quotes) {
                if (c == '"') {
                    int d = next_byte(r);
                    if (d == '"') {
                        consumed++;
                        PUT('"');
                        last_kept = len;
                        continue;
                    }
                    give_back(r, d);
                    in_quotes = false;
                    after_quote = true;
                    continue;
                }
                if (c == 0) {
                    r->has_nul = true;
                    PUT('\\');
                    PUT('0');
                } else {
                    PUT(c);
                }
                last_kept = len;
                continue;
            }
            if (c == ',' || c == '\n') {
                /* the field ends: drop trailing spaces of unquoted text */
                if (!after_quote) {
                    len = last_kept > field_begin ? last_kept : field_begin;
                }
                if (field < max_fields) {
                    r->quoted[field] = after_quote;
                }
                PUT('\0');
                if (field < max_fields) {
                    r->fields[field] = r->buf + field_begin;
                }
                field++;
                field_begin = len;
                last_kept = len;
                field_start = true;
                after_quote = false;
                if (c == '\n') {
                    break;
                }
                continue;
            }
            if (c == '\r') {
                int d = next_byte(r);
                give_back(r, d);
                if (d == '\n') {
                    continue; /* CRLF: the LF ends the record */
                }
            }
            if (field_start && (c == ' ' || c == '\t')) {
                continue; /* leading spaces of an unquoted field */
            }
            if (field_start && c == '"') {
                in_quotes = true;
                field_start = false;
                continue;
            }
            field_start = false;
            if (after_quote) {
                if (c != ' ' && c != '\t') {
                    r->text_after_quote = true;
                }
                continue;
            }
            if (c == 0) {
                r->has_nul = true;
                PUT('\\');
                PUT('0');
            } else {
                PUT(c);
            }
            if (c != ' ' && c != '\t') {
                last_kept = len;
            }
        }
        if (c == EOF && ferror(r->in)) {
            return CSV_READ_ERROR;
        }
        if (c == EOF) {
            if (!any) {
                return CSV_END;
            }
            /* the last record had no line end */
            r->unclosed_quote = in_quotes;
            if (!after_quote && !in_quotes) {
                len = last_kept > field_begin ? last_kept : field_begin;
            }
            if (field < max_fields) {
                r->quoted[field] = after_quote || in_quotes;
            }
            PUT('\0');
            if (field < max_fields) {
                r->fields[field] = r->buf + field_begin;
            }
            field++;
        }
#undef PUT
        if (too_long) {
            r->field_count = 0;
            return CSV_TOO_LONG;
        }
        r->field_count = field;
        /* a blank line is not a record */
        if (field == 1 && r->fields[0][0] == '\0' && !r->quoted[0] && !r->has_nul) {
            if (c == EOF) {
                return CSV_END;
            }
            continue;
        }
        return CSV_RECORD;
    }
}

void csv_put_field(FILE *out, const char *text)
{
    size_t n = strlen(text);
    bool quote =
        strpbrk(text, ",\"\r\n") != NULL ||
        (n > 0 && (text[0] == ' ' || text[0] == '\t' || text[n - 1] == ' ' || text[n - 1] == '\t'));
    csv_put_field_quoted(out, text, quote);
}

void csv_put_field_quoted(FILE *out, const char *text, bool quote)
{
    if (!quote) {
        fputs(text, out);
        return;
    }
    fputc('"', out);
    for (const char *p = text; *p != '\0'; p++) {
        if (*p == '"') {
            fputc('"', out);
        }
        fputc(*p, out);
    }
    fputc('"', out);
}
