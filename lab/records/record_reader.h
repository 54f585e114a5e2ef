/*
 * record_reader.h - what the lab's two records readers share (lab_data_read,
 * lab_regs_data_read; private to the library): the loop over a file's
 * lines, one JSON object each with a "record" kind, and the checks every
 * field goes through, with the first failure as the one line of lab_error.
 */
#ifndef OCC_LAB_RECORD_READER_H
#define OCC_LAB_RECORD_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "lab_error.h"

typedef struct lab_reader {
    json_t *obj;      /* the record read now */
    const char *kind; /* its "record" kind; "" before one */
    const char *name; /* the input, for messages */
    long line;        /* 1-based */
    int file;         /* 0-based, when a caller reads several files */
    lab_error *err;
    bool ok; /* no failure yet */
} lab_reader;

/* Fills err with "FORMAT" and returns false. */
bool lab_error_set(lab_error *err, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* The record fails: "NAME: line N: FORMAT". The first failure wins; later
   ones would only echo it. */
void lab_reader_fail(lab_reader *r, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* The field, or NULL when it is absent or null. */
json_t *lab_reader_optional(const lab_reader *r, const char *key);

/* The field; absent or null fails ("KIND record has no field 'KEY'"). */
json_t *lab_reader_required(lab_reader *r, const char *key);

/* False (and a failure) when s, n bytes, holds a control character: names
   reach the terminal as they are, and the writers write none. */
bool lab_reader_no_control(lab_reader *r, const char *key, const char *s, size_t n);

/* False (and a failure) unless a measured time is above 0 (NaN included). */
bool lab_reader_time_ok(lab_reader *r, const char *key, double ms);

/* Called for each record: r->obj holds it, r->kind its kind. */
typedef void lab_reader_record_fn(lab_reader *r, void *context);

/* Reads `in` line by line into a buffer of LAB_MAX_LINE_BYTES, so memory
   stays bounded whatever the input: blank lines are skipped; a read error,
   a line over the limit, a NUL byte, a line that is not a JSON object or
   one without a "record" kind fails. Stops at the first failure; returns
   r->ok. r holds the name, the error, the file and ok = true. */
bool lab_reader_lines(FILE *in, lab_reader *r, lab_reader_record_fn *each, void *context);

#endif /* OCC_LAB_RECORD_READER_H */
