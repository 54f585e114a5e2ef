/*
 * ncu_csv.h - the CSV reader under libocc-profile's Nsight Compute reader
 * (ncu_read.c, `occ ncu`): the records of csv.h (RFC 4180, the same fields,
 * flags and line numbers, tests/test_ncu.c holds the two to that), read
 * from a large buffer instead of a byte at a time, and gzip inflated on the
 * way (a stream that begins with gzip's magic bytes is inflated, whatever
 * its name).
 *
 * Nsight Compute quotes every field and a raw page row holds about 280 of
 * them, so the reader finds a record's quotes, commas and line ends 64 bytes
 * at a time (SSE2 where the compiler has it) and makes a field a C string
 * only when it is asked for. A record that is not plain quoted CSV (a CR, a
 * NUL byte, a quote inside an unquoted field, text after a closing quote, no
 * line end before the end of the file, longer than the record limit) is
 * read again by a byte-at-a-time reader with csv.c's rules, so both give
 * the same answer. A regular file is read ahead by a thread, so that the
 * copying out of the page cache (and any inflating) runs on another core.
 */
#ifndef OCC_PROF_NCU_CSV_H
#define OCC_PROF_NCU_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "csv.h"

#define NCU_CSV_ERROR_BYTES 160

typedef struct ncu_csv {
    long long line;        /* line where the last record started (1-based) */
    long long next_line;   /* line the next record starts on */
    int field_count;       /* fields found (only max_fields are stored) */
    bool unclosed_quote;   /* the record ended inside a quoted field */
    bool text_after_quote; /* a quoted field went on after its closing quote */
    bool has_nul;          /* a NUL byte was read (kept as \0) */
    size_t runaway_bytes;  /* this many without a record end is CSV_RUNAWAY */
    int max_fields;
    bool gzip;                       /* the stream is gzip, inflated */
    char error[NCU_CSV_ERROR_BYTES]; /* why CSV_READ_ERROR: the stream or gzip */

    /* the reader's own (ncu_csv.c) */
    FILE *in;
    size_t max_record_bytes;
    unsigned char *buf; /* the stream's bytes (inflated), [pos, end) unread */
    size_t pos, end;
    unsigned char *spare;          /* the other buffer: the next bytes are read into it */
    size_t head_bytes;             /* room before a buffer's new bytes for the unread ones */
    struct ncu_csv_thread *thread; /* a regular file: the thread that reads ahead */
    bool started;                  /* the stream's first bytes have been looked at */
    bool read_once;                /* the first read is done (a thread reads the rest) */
    bool in_eof;                   /* the stream (after inflating) has ended */
    char **fields;                 /* fields[i], valid where field_gen[i] == gen */
    uint32_t *field_gen;
    int field_cap;          /* room in fields and field_gen */
    uint32_t gen;           /* the record's number, for field_gen */
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
} ncu_csv;

/* A reader of records up to max_record_bytes, storing up to max_fields
   fields, from `in` (plain or gzip). False when memory runs out. Release
   with ncu_csv_free. */
bool ncu_csv_init(ncu_csv *r, FILE *in, size_t max_record_bytes, int max_fields);
void ncu_csv_free(ncu_csv *r);

/* The next record, as csv_next: blank lines skipped, CSV_TOO_LONG for a
   record over the limit (read to its end), CSV_RUNAWAY, CSV_READ_ERROR
   (r->error says why: the stream, or damaged or cut gzip). */
csv_status ncu_csv_next(ncu_csv *r);

/* Field i of the record: "" when the record has no field i (or it is
   beyond max_fields). Valid until the next record. */
const char *ncu_csv_field(ncu_csv *r, int i);

/* What ncu_csv_skip_lines found. */
typedef enum ncu_csv_skip {
    NCU_CSV_SKIP_FOUND,      /* the next record starts on a line `wanted` took */
    NCU_CSV_SKIP_END,        /* the stream ended first */
    NCU_CSV_SKIP_LIMIT,      /* max_lines lines or max_bytes bytes skipped */
    NCU_CSV_SKIP_NUL,        /* a NUL byte: not text (r->line is its line) */
    NCU_CSV_SKIP_READ_ERROR, /* r->error says why */
} ncu_csv_skip;

/* Line by line, before the first record: skips every line `wanted` does
   not take (it sees the line without its line end, cut to max_record_bytes),
   counting them in *lines and *bytes. Lines are read as text, so a quote in
   a skipped line does not run on into the next. */
ncu_csv_skip ncu_csv_skip_lines(ncu_csv *r, bool (*wanted)(const char *line, size_t len),
                                long long max_lines, long long max_bytes, long long *lines,
                                long long *bytes);

#endif /* OCC_PROF_NCU_CSV_H */
