/*
 * csv.h - an RFC 4180 reader with bounded memory, for `occ calc --batch`.
 *
 * Fields may be quoted ("" is a quote inside one) and a quoted field may hold
 * commas and line breaks; spaces around unquoted fields are trimmed; a UTF-8
 * byte-order mark before the first record is dropped; CRLF and LF both end a
 * record. A record longer than CSV_MAX_RECORD_BYTES is read to its end and
 * reported, not stored, so one bad record never stops the rest; a "record"
 * that runs CSV_RUNAWAY_BYTES without ending is not CSV at all (/dev/zero)
 * and stops the reading. A NUL byte is kept visible as the two characters \0.
 */
#ifndef OCC_CLI_CSV_H
#define OCC_CLI_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define CSV_MAX_RECORD_BYTES 4096
#define CSV_MAX_FIELDS 64
#define CSV_RUNAWAY_BYTES (1 << 20)

typedef enum csv_status {
    CSV_RECORD = 0,    /* fields[0 .. field_count-1] hold a record */
    CSV_END = 1,       /* no more records */
    CSV_TOO_LONG = 2,  /* a record over CSV_MAX_RECORD_BYTES, skipped to its end */
    CSV_RUNAWAY = 3,   /* CSV_RUNAWAY_BYTES without a record end: stop */
    CSV_READ_ERROR = 4 /* the stream failed: stop */
} csv_status;

typedef struct csv_reader {
    FILE *in;
    long long line;      /* line where the last record started (1-based) */
    long long next_line; /* line the next record starts on */
    int field_count;     /* fields found (may exceed CSV_MAX_FIELDS: only
                            that many are stored) */
    char *fields[CSV_MAX_FIELDS];
    bool quoted[CSV_MAX_FIELDS];
    bool unclosed_quote;      /* the record ended inside a quoted field */
    bool text_after_quote;    /* a quoted field went on after its closing quote */
    bool has_nul;             /* a NUL byte was read (kept as \0) */
    bool started;             /* the byte-order mark check is done */
    unsigned char pending[4]; /* bytes read ahead and given back, last first */
    int pending_count;
    char buf[CSV_MAX_RECORD_BYTES + 2 * CSV_MAX_FIELDS + 8];
} csv_reader;

void csv_init(csv_reader *r, FILE *in);

/* The next record; blank lines are skipped. */
csv_status csv_next(csv_reader *r);

/* Writes a field as CSV, quoted where it holds a comma, quote, line break or
   edge space. */
void csv_put_field(FILE *out, const char *text);

/* The same, quoted whenever `quote` is set (a message column is always
   quoted, so a script can tell it from an empty field). */
void csv_put_field_quoted(FILE *out, const char *text, bool quote);

#endif /* OCC_CLI_CSV_H */
