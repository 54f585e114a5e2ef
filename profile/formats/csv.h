/*
 * csv.h - an RFC 4180 reader with bounded memory, for `occ calc --batch` and
 * `occ ncu`.
 *
 * Fields may be quoted ("" is a quote inside one) and a quoted field may hold
 * commas and line breaks; spaces around unquoted fields are trimmed; a UTF-8
 * byte-order mark before the first record is dropped; CRLF and LF both end a
 * record. A record longer than the reader's limit (CSV_MAX_RECORD_BYTES for
 * csv_init, the caller's for csv_init_sized) is read to its end and
 * reported, not stored, so one bad record never stops the rest; a "record"
 * that runs CSV_RUNAWAY_BYTES (or twice the record limit, when larger) without
 * ending is not CSV at all (/dev/zero) and stops the reading. A NUL byte is
 * kept visible as the two characters \0.
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

/* Text room for a record of `record_bytes` split into `fields` fields: each
   field also takes its NUL. */
#define CSV_BUFFER_BYTES(record_bytes, fields) ((record_bytes) + 2 * (size_t)(fields) + 8)

typedef struct csv_reader {
    FILE *in;
    long long line;      /* line where the last record started (1-based) */
    long long next_line; /* line the next record starts on */
    int field_count;     /* fields found (may exceed max_fields: only
                            that many are stored) */
    char **fields;       /* fields[0 .. min(field_count, max_fields)-1] */
    bool *quoted;
    bool unclosed_quote;      /* the record ended inside a quoted field */
    bool text_after_quote;    /* a quoted field went on after its closing quote */
    bool has_nul;             /* a NUL byte was read (kept as \0) */
    bool started;             /* the byte-order mark check is done */
    unsigned char pending[4]; /* bytes read ahead and given back, last first */
    int pending_count;
    size_t max_record_bytes; /* a longer record is CSV_TOO_LONG */
    size_t runaway_bytes;    /* this many without a record end is CSV_RUNAWAY */
    int max_fields;          /* fields stored per record */
    char *buf;               /* the record's text */
    size_t buf_bytes;
    bool owns_storage; /* fields, quoted and buf were allocated by csv_init_sized */
    /* csv_init's storage, in the reader itself (which must then stay where
       it was initialised: fields and buf point here) */
    char *fixed_fields[CSV_MAX_FIELDS];
    bool fixed_quoted[CSV_MAX_FIELDS];
    char fixed_buf[CSV_BUFFER_BYTES(CSV_MAX_RECORD_BYTES, CSV_MAX_FIELDS)];
} csv_reader;

/* A reader of records up to CSV_MAX_RECORD_BYTES and CSV_MAX_FIELDS fields,
   in the reader's own storage (nothing to free). */
void csv_init(csv_reader *r, FILE *in);

/* A reader of records up to max_record_bytes bytes, storing up to
   max_fields fields, in storage it allocates: false when that fails.
   Release with csv_free. */
bool csv_init_sized(csv_reader *r, FILE *in, size_t max_record_bytes, int max_fields);

/* Releases csv_init_sized's storage (nothing for csv_init's). */
void csv_free(csv_reader *r);

/* The next record; blank lines are skipped. */
csv_status csv_next(csv_reader *r);

/* Writes a field as CSV, quoted where it holds a comma, quote, line break or
   edge space. */
void csv_put_field(FILE *out, const char *text);

/* The same, quoted whenever `quote` is set (a message column is always
   quoted, so a script can tell it from an empty field). */
void csv_put_field_quoted(FILE *out, const char *text, bool quote);

#endif /* OCC_CLI_CSV_H */
