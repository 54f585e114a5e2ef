/*
 * csv.h - occ's one CSV reader and writer: the reader under `occ ncu`
 * (ncu_read.c), `occ profile`'s nsys stats CSV (nsys_csv.c) and `occ calc
 * --batch` (calc_batch.c), with bounded memory; the writer for every CSV
 * occ prints.
 *
 * Records as RFC 4180 has them: fields may be quoted ("" is a quote inside
 * one) and a quoted field may hold commas and line breaks; spaces around
 * unquoted fields are trimmed; a UTF-8 byte-order mark before the first
 * record is dropped; CRLF and LF both end a record; blank lines are
 * skipped. A record longer than the reader's limit is read to its end and
 * reported (CSV_TOO_LONG), not stored, so one bad record never stops the
 * rest; a "record" that runs CSV_RUNAWAY_BYTES (or twice the record limit,
 * when larger) without ending is not CSV at all (/dev/zero) and stops the
 * reading. A NUL byte is kept visible as the two characters \0. What is not
 * CSV as a program writes it is flagged, not refused: the caller decides
 * (unclosed_quote, text_after_quote, has_nul, more fields than stored). A
 * stream that begins with gzip's magic bytes is inflated, whatever its name.
 *
 * Programs quote every field (Nsight Compute: about 280 a raw page row) or
 * none, so the reader finds a record's quotes, commas and line ends 64 bytes
 * at a time (SSE2 where the compiler has it) from a large buffer, and makes
 * a field a C string only when it is asked for (csv_field). A record that
 * is not plain (a CR, a NUL byte, a quote inside an unquoted field, text
 * after a closing quote, no line end before the end of the file, longer
 * than the record limit) is read again a byte at a time, which is where the
 * rules above are written out; tests/test_ncu.c holds the two paths to the
 * same records. A regular file is read ahead by a thread, so that the
 * copying out of the page cache (and any inflating) runs on another core.
 */
#ifndef OCC_PROF_CSV_H
#define OCC_PROF_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* `occ calc --batch`'s limits: a record's bytes and the fields stored. */
#define CSV_MAX_RECORD_BYTES 4096
#define CSV_MAX_FIELDS 64
/* Bytes without a record end that stop the reading (twice the record limit
   where that is more). */
#define CSV_RUNAWAY_BYTES (1 << 20)
/* Text room for a record of `record_bytes` split into `fields` fields: each
   field also takes its NUL. */
#define CSV_BUFFER_BYTES(record_bytes, fields) ((record_bytes) + 2 * (size_t)(fields) + 8)
#define CSV_ERROR_BYTES 160

typedef enum csv_status {
    CSV_RECORD = 0,    /* csv_field(r, 0 .. field_count-1) hold a record */
    CSV_END = 1,       /* no more records */
    CSV_TOO_LONG = 2,  /* a record over the limit, skipped to its end */
    CSV_RUNAWAY = 3,   /* runaway_bytes without a record end: stop */
    CSV_READ_ERROR = 4 /* the stream failed (r->error says why): stop */
} csv_status;

typedef struct csv_reader {
    long long line;        /* line where the last record started (1-based) */
    long long next_line;   /* line the next record starts on */
    int field_count;       /* fields found (only max_fields are stored) */
    bool unclosed_quote;   /* the record ended inside a quoted field */
    bool text_after_quote; /* a quoted field went on after its closing quote */
    bool has_nul;          /* a NUL byte was read (kept as \0) */
    size_t runaway_bytes;  /* this many without a record end is CSV_RUNAWAY */
    int max_fields;
    bool gzip;                   /* the stream is gzip, inflated */
    char error[CSV_ERROR_BYTES]; /* why CSV_READ_ERROR: the stream or gzip */
    /* the cause alone, as the system or zlib words it ("unexpected end of
       file", zlib's message for damaged data, strerror's text), for a
       caller that words its own message; "" until an error */
    const char *error_cause;

    /* the reader's own (csv.c) */
    FILE *in;
    size_t max_record_bytes;
    unsigned char *buf; /* the stream's bytes (inflated), [pos, end) unread */
    size_t pos, end;
    unsigned char *spare;      /* the other buffer: the next bytes are read into it */
    size_t head_bytes;         /* room before a buffer's new bytes for the unread ones */
    size_t chunk_bytes;        /* room after it: what a read asks for (it grows to 1 MB) */
    struct csv_thread *thread; /* a regular file: the thread that reads ahead */
    bool started;              /* the stream's first bytes have been looked at */
    bool read_once;            /* the first read is done (a thread reads the rest) */
    bool in_eof;               /* the stream (after inflating) has ended */
    char **fields;             /* fields[i], valid where field_gen[i] == gen */
    uint32_t *field_gen;
    int field_cap;          /* room in fields and field_gen */
    uint32_t gen;           /* the record's number, for field_gen */
    bool avx2;              /* the processor has AVX2 (classify_avx2) */
    bool fast;              /* the record was found 64 bytes at a time */
    uint64_t *block_commas; /* fast records: each 64-byte block's field-ending commas */
    uint32_t *block_base;   /* fast records: the commas before each block */
    size_t blocks;          /* fast records: blocks of the record */
    size_t cursor;          /* fast records: the block of the last field asked for */
    int last_field;         /* fast records: the last field asked for (-1: none) */
    size_t last_end;        /* fast records: where it ends */
    size_t record_start;    /* fast records: where the record starts in buf */
    size_t record_end;      /* fast records: its line end */
    bool record_escapes;    /* fast records: a quote doubled inside a field */
    char *slow;             /* byte-at-a-time records: the fields' text */
    size_t slow_cap;
    void *z;             /* gzip: the z_stream */
    unsigned char *z_in; /* gzip: compressed bytes read, not yet inflated */
    size_t z_in_cap;
    bool z_member_ended; /* gzip: a member ended; another may follow */
    bool raw_eof;        /* the FILE has ended */
} csv_reader;

/* A reader of records up to max_record_bytes, storing up to max_fields
   fields, from `in` (plain or gzip; the caller opens and closes it). Its
   memory is bounded by the limits: about three times max_record_bytes, 12
   bytes a field stored, and up to 2 MB to read into (1 MB more for gzip).
   False when memory runs out or a limit is out of range. Release with
   csv_free, whatever it returned. */
bool csv_init(csv_reader *r, FILE *in, size_t max_record_bytes, int max_fields);
void csv_free(csv_reader *r);

/* The next record: blank lines skipped, CSV_TOO_LONG for a record over the
   limit (read to its end), CSV_RUNAWAY, CSV_READ_ERROR (r->error says why:
   the stream, or damaged or cut gzip, or gzip followed by other bytes). */
csv_status csv_next(csv_reader *r);

/* Field i of the record: "" when the record has no field i (or it is
   beyond max_fields). Valid until the next record. */
const char *csv_field(csv_reader *r, int i);

/* What csv_skip_lines found. */
typedef enum csv_skip {
    CSV_SKIP_FOUND,      /* the next record starts on a line `wanted` took */
    CSV_SKIP_END,        /* the stream ended first */
    CSV_SKIP_LIMIT,      /* max_lines lines or max_bytes bytes skipped */
    CSV_SKIP_NUL,        /* a NUL byte: not text (r->line is its line) */
    CSV_SKIP_READ_ERROR, /* r->error says why */
} csv_skip;

/* Line by line, before the first record: skips every line `wanted` does
   not take (it sees the line without its line end, cut to max_record_bytes),
   counting them in *lines and *bytes. Lines are read as text, so a quote in
   a skipped line does not run on into the next. */
csv_skip csv_skip_lines(csv_reader *r, bool (*wanted)(const char *line, size_t len),
                        long long max_lines, long long max_bytes, long long *lines,
                        long long *bytes);

/* Test hook: true (the default) finds plain records 64 bytes at a time;
   false reads every record a byte at a time, so that the two can be held
   to the same records. Not thread-safe. */
extern bool csv_fast_path;
/* Test hook: true (the default) finds plain records with AVX2 where the
   processor has it; false with SSE2 alone (read by csv_init). Not
   thread-safe. */
extern bool csv_avx2;

/* The CSV writers: every field occ writes as CSV goes through one of these,
   so that a quote is doubled one way everywhere. */

/* Writes a field as CSV, quoted where it holds a comma, quote, line break or
   edge space (occ calc --batch, occ lab: a spreadsheet would trim the
   space). */
void csv_put_field(FILE *out, const char *text);

/* Quoted only where it holds a comma, quote or line break, as RFC 4180
   asks: edge spaces stay bare (occ inspect --csv, occ profile --csv, whose
   columns have always been written so). */
void csv_put_field_rfc4180(FILE *out, const char *text);

/* The same, quoted whenever `quote` is set (a message column is always
   quoted, so a script can tell it from an empty field). */
void csv_put_field_quoted(FILE *out, const char *text, bool quote);

#endif /* OCC_PROF_CSV_H */
