/*
 * calc_batch.c - `occ calc --batch FILE`: one occupancy per CSV row,
 * streamed, so a million rows take about a second. A bad row keeps its place
 * with an error, and the run goes on; memory stays bounded whatever the input
 * (csv.h's reader, which also inflates a gzipped file).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "value_parse.h"
#include "calc_output.h"
#include "csv.h"
#include "file_read.h"
#include "options.h"
#include "output.h"
#include "values.h"

enum {
    COL_GPU,
    COL_THREADS,
    COL_REGS,
    COL_SMEM,
    COL_DYN_SMEM,
    COL_CARVEOUT,
    COL_MAX_THREADS,
    COL_BARRIERS,
    COL_KNOWN
};
static const char *const column_names[COL_KNOWN] = {
    "gpu", "threads", "regs", "smem", "dyn_smem", "carveout", "max_threads", "barriers"};
#define REQUIRED_COLUMNS 6 /* the first six; the rest are optional */
#define RESULT_COLUMNS 11  /* blocks_per_sm .. error */
/* Rows between checks that the output still takes what is written. */
#define WRITE_CHECK_ROWS 4096
/* A row's output: the longest record's fields, every byte a doubled quote,
   with their quotes and commas, then the results. */
#define LINE_BUF_BYTES (2 * CSV_BUFFER_BYTES(CSV_MAX_RECORD_BYTES, CSV_MAX_FIELDS) + 512)
/* Occupancies printed before, by their bits: "%.6g" took a sixth of the
   run, and a batch has few distinct values (a warp count over the SM's). */
#define OCCUPANCY_CACHE_SLOTS 256 /* a power of two */
#define LIMITER_NAMES_BYTES 96
#define LIMITER_SETS (OCC_LIMITER_BARRIERS << 1) /* every set of occ_limiter bits */
/* The result columns at their longest: ten ints, the occupancy, the limiter
   names and the launch-bounds warning. */
#define RESULT_BYTES 384

/* Every distinct GPU name a batch names, found once: a batch usually names
   one or two, and an unknown name costs a search for the closest ones. */
#define GPU_CACHE_SLOTS 1024 /* a power of two */
#define GPU_CACHE_NAME_BYTES 64
typedef struct gpu_entry {
    char name[GPU_CACHE_NAME_BYTES];
    bool used;
    bool found;
    occ_device device;
    char error[OCC_ERROR_MESSAGE_BYTES];
} gpu_entry;

typedef struct gpu_cache {
    gpu_entry slots[GPU_CACHE_SLOTS];
    int count;
} gpu_cache;

static uint64_t name_hash(const char *name)
{
    uint64_t h = 14695981039346656037ull; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)name; *p != '\0'; p++) {
        h = (h ^ *p) * 1099511628211ull;
    }
    return h;
}

/* Finds the GPU, once per distinct name; names too long for the cache (no
   GPU name is) and names past a full cache are looked up each time. */
static bool cached_gpu(gpu_cache *c, const char *name, occ_device *out, char *msg, size_t cap)
{
    gpu_entry *slot = NULL;
    if (strlen(name) < GPU_CACHE_NAME_BYTES) {
        size_t at = (size_t)name_hash(name) & (GPU_CACHE_SLOTS - 1);
        for (int probes = 0; probes < GPU_CACHE_SLOTS; probes++) {
            gpu_entry *e = &c->slots[at];
            if (!e->used) {
                slot = c->count < GPU_CACHE_SLOTS / 2 ? e : NULL;
                break;
            }
            if (strcmp(e->name, name) == 0) {
                if (!e->found) {
                    snprintf(msg, cap, "gpu: %s", e->error);
                    return false;
                }
                *out = e->device;
                return true;
            }
            at = (at + 1) & (GPU_CACHE_SLOTS - 1);
        }
    }
    occ_error err;
    bool found = occ_gpu_find(name, out, &err) == OCC_OK;
    if (!found) {
        snprintf(msg, cap, "gpu: %s", err.message);
    }
    if (slot != NULL) {
        snprintf(slot->name, sizeof slot->name, "%s", name);
        slot->used = true;
        slot->found = found;
        if (found) {
            slot->device = *out;
        } else {
            snprintf(slot->error, sizeof slot->error, "%s", err.message);
        }
        c->count++;
    }
    return found;
}

/* A row's output line, built in memory and written with one fwrite: a row
   written a field at a time through stdio took a third to a half of the run
   (docs/results/calc-batch-speed.md; every fputs and fputc takes the
   stream's lock once the reader's thread exists). */
typedef struct out_line {
    char *p;                   /* the next byte */
    char text[LINE_BUF_BYTES]; /* one row's echo and results, or part of a long one */
} out_line;

static void line_flush(out_line *l, FILE *out)
{
    fwrite(l->text, 1, (size_t)(l->p - l->text), out);
    l->p = l->text;
}

/* Room for `bytes` more: what the line holds is written out first where
   they would not fit (a record near its 4,096-byte limit, quoted). */
static void line_room(out_line *l, FILE *out, size_t bytes)
{
    if ((size_t)(l->text + sizeof l->text - l->p) < bytes) {
        line_flush(l, out);
    }
}

/* A field as csv_put_field writes it: quoted where it holds a comma, quote,
   line break or edge space, each quote doubled. */
static void line_field(out_line *l, FILE *out, const char *text)
{
    size_t n = 0;
    bool quote = false;
    for (; text[n] != '\0'; n++) {
        char c = text[n];
        quote |= c == ',' || c == '"' || c == '\r' || c == '\n';
    }
    quote |=
        n > 0 && (text[0] == ' ' || text[0] == '\t' || text[n - 1] == ' ' || text[n - 1] == '\t');
    if (!quote) {
        if (n > sizeof l->text) {
            line_flush(l, out);
            fwrite(text, 1, n, out);
            return;
        }
        line_room(l, out, n);
        memcpy(l->p, text, n);
        l->p += n;
        return;
    }
    line_room(l, out, 1);
    *l->p++ = '"';
    for (size_t i = 0; i < n; i++) {
        line_room(l, out, 2);
        if (text[i] == '"') {
            *l->p++ = '"';
        }
        *l->p++ = text[i];
    }
    line_room(l, out, 1);
    *l->p++ = '"';
}

/* The row's fields as CSV, padded with empty ones or cut to the header's
   count, so that the output stays rectangular. */
static void echo_fields(out_line *l, FILE *out, csv_reader *r, int columns)
{
    for (int i = 0; i < columns; i++) {
        if (i > 0) {
            line_room(l, out, 1);
            *l->p++ = ',';
        }
        line_field(l, out, csv_field(r, i)); /* "" past the fields stored */
    }
}

typedef struct batch_state {
    int column_of[COL_KNOWN]; /* input column index of each known column, or -1 */
    int columns;              /* fields in the header */
    gpu_cache cache;
    long long rows;
    long long bad_rows;
    char first_error[512];
    csv_reader csv;
    struct {
        uint64_t bits; /* the double's bits; text[0] == 0: empty */
        char text[24]; /* ",%.6g" of it */
    } occupancy[OCCUPANCY_CACHE_SLOTS];
    /* occ_limiter_list of each set of occ_limiter bits, made once */
    char limiter_names[LIMITER_SETS][LIMITER_NAMES_BYTES];
    bool limiter_named[LIMITER_SETS];
    out_line line;
} batch_state;

static bool parse_header(batch_state *s, const char *name, const cli_io *io, cli_error *err)
{
    csv_reader *r = &s->csv;
    if (r->has_nul) {
        return cli_error_set(err, EXIT_DATA,
                             "%s: line 1: the header holds a NUL byte: not a CSV text file", name);
    }
    if (r->field_count > CSV_MAX_FIELDS) {
        return cli_error_set(err, EXIT_DATA, "%s: line 1: %d columns, more than the %d read", name,
                             r->field_count, CSV_MAX_FIELDS);
    }
    if (r->unclosed_quote) {
        return cli_error_set(err, EXIT_DATA, "%s: line 1: a quoted column name is not closed",
                             name);
    }
    for (int c = 0; c < COL_KNOWN; c++) {
        s->column_of[c] = -1;
    }
    for (int i = 0; i < r->field_count; i++) {
        int c = 0;
        while (c < COL_KNOWN && strcmp(csv_field(r, i), column_names[c]) != 0) {
            c++;
        }
        if (c == COL_KNOWN) {
            /* other columns pass through as documented; only a near miss of
               an input column's name is news (a misspelt input) */
            const char *near = value_nearest_word(csv_field(r, i), column_names, COL_KNOWN);
            char shown[128];
            if (near != NULL) {
                fprintf(io->err,
                        "occ calc: %s: column '%s' is not an input column (did you mean '%s'?); "
                        "passed through\n",
                        name, cli_visible(csv_field(r, i), shown, sizeof shown), near);
            }
        } else if (s->column_of[c] >= 0) {
            return cli_error_set(err, EXIT_DATA, "%s: line 1: column '%s' appears twice", name,
                                 column_names[c]);
        } else {
            s->column_of[c] = i;
        }
    }
    for (int c = 0; c < REQUIRED_COLUMNS; c++) {
        if (s->column_of[c] < 0) {
            return cli_error_set(err, EXIT_DATA,
                                 "%s: line 1: column '%s' is missing; the header needs "
                                 "gpu,threads,regs,smem,dyn_smem,carveout",
                                 name, column_names[c]);
        }
    }
    s->columns = r->field_count;
    return true;
}

/* Fills the kernel from one row; on failure writes the reason into msg. */
static bool row_to_launch(batch_state *s, occ_device *dev, occ_kernel *k, char *msg, size_t cap)
{
    csv_reader *r = &s->csv;
    const char *v[COL_KNOWN];
    for (int c = 0; c < COL_KNOWN; c++) {
        v[c] = s->column_of[c] >= 0 ? csv_field(r, s->column_of[c]) : "";
    }
    if (!cached_gpu(&s->cache, v[COL_GPU], dev, msg, cap)) {
        return false;
    }
    occ_kernel_init(k);
    cli_error err;
    int dims[3];
    if (!cli_parse_block(v[COL_THREADS], dims, &err)) {
        snprintf(msg, cap, "threads: %.400s", err.message);
        return false;
    }
    k->block_x = dims[0];
    k->block_y = dims[1];
    k->block_z = dims[2];
    struct {
        int col;
        long long lo, hi;
        int *slot;
        bool size;
    } ints[] = {
        {COL_REGS, 0, 255, &k->regs_per_thread, false},
        {COL_SMEM, 0, 0, &k->static_smem_bytes, true},
        {COL_DYN_SMEM, 0, 0, &k->dyn_smem_bytes, true},
        {COL_MAX_THREADS, 0, 1024, &k->max_threads_per_block, false},
        {COL_BARRIERS, 0, 16, &k->barriers, false},
    };
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        const char *text = v[ints[i].col];
        if (text[0] == '\0') {
            continue; /* empty: the default */
        }
        long long n;
        bool ok = ints[i].size ? cli_parse_size(text, &n, &err)
                               : cli_parse_int(text, ints[i].lo, ints[i].hi, &n, &err);
        if (!ok) {
            snprintf(msg, cap, "%s: %.400s", column_names[ints[i].col], err.message);
            return false;
        }
        *ints[i].slot = (int)n;
    }
    if (v[COL_CARVEOUT][0] != '\0' &&
        !cli_parse_carveout(v[COL_CARVEOUT], &k->carveout_percent, &err)) {
        snprintf(msg, cap, "carveout: %.400s", err.message);
        return false;
    }
    return true;
}

static void bad_row(batch_state *s, const char *msg, const cli_io *io)
{
    line_flush(&s->line, io->out);
    fputs(",,,,,,,,,,,", io->out); /* the result columns stay empty */
    csv_put_field_quoted(io->out, msg, true);
    fputc('\n', io->out);
    if (s->bad_rows++ == 0) {
        snprintf(s->first_error, sizeof s->first_error, "line %lld: %.400s", s->csv.line, msg);
    }
}

/* Appends ",N" (or "," for an unlimited limit) to the line buffer. */
static char *put_int(char *p, int value)
{
    *p++ = ',';
    if (value == OCC_UNLIMITED) {
        return p;
    }
    char digits[12];
    int n = 0;
    unsigned v = value < 0 ? (unsigned)-(long long)value : (unsigned)value;
    if (value < 0) {
        *p++ = '-';
    }
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    while (n > 0) {
        *p++ = digits[--n];
    }
    return p;
}

/* Appends ",%.6g" of the occupancy, printed once per distinct value. */
static char *put_occupancy(batch_state *s, char *p, double occupancy)
{
    uint64_t bits;
    memcpy(&bits, &occupancy, sizeof bits);
    size_t at = (size_t)((bits * 0x9E3779B97F4A7C15ull) >> 56) & (OCCUPANCY_CACHE_SLOTS - 1);
    if (s->occupancy[at].text[0] == '\0' || s->occupancy[at].bits != bits) {
        snprintf(s->occupancy[at].text, sizeof s->occupancy[at].text, ",%.6g", occupancy);
        s->occupancy[at].bits = bits;
    }
    size_t len = strlen(s->occupancy[at].text);
    memcpy(p, s->occupancy[at].text, len);
    return p + len;
}

/* Appends occ_limiter_list's names for the bits, made once per set. */
static char *put_limiters(batch_state *s, char *p, unsigned limiters)
{
    char own[LIMITER_NAMES_BYTES];
    const char *names;
    if (limiters < LIMITER_SETS) {
        if (!s->limiter_named[limiters]) {
            occ_limiter_list(limiters, s->limiter_names[limiters], LIMITER_NAMES_BYTES);
            s->limiter_named[limiters] = true;
        }
        names = s->limiter_names[limiters];
    } else {
        names = occ_limiter_list(limiters, own, sizeof own);
    }
    size_t len = strlen(names);
    memcpy(p, names, len);
    return p + len;
}

static void process_row(batch_state *s, const cli_io *io)
{
    csv_reader *r = &s->csv;
    char msg[512];
    occ_device dev;
    occ_kernel k;
    occ_result r_calc;
    occ_error err;
    bool ok = false;
    s->rows++;
    echo_fields(&s->line, io->out, r, s->columns);
    if (r->has_nul) {
        snprintf(msg, sizeof msg, "a field holds a NUL byte (shown as \\0)");
    } else if (r->unclosed_quote) {
        snprintf(msg, sizeof msg, "a quoted field is not closed before the end of the file");
    } else if (r->text_after_quote) {
        snprintf(msg, sizeof msg, "text follows a closing quote (write \"\" for a quote)");
    } else if (r->field_count != s->columns) {
        snprintf(msg, sizeof msg, "%d fields; the header has %d%s", r->field_count, s->columns,
                 r->field_count > s->columns ? " (the extra fields are not echoed)" : "");
    } else if (row_to_launch(s, &dev, &k, msg, sizeof msg)) {
        if (occ_calc(&dev, &k, &r_calc, &err) == OCC_OK) {
            ok = true;
        } else {
            snprintf(msg, sizeof msg, "%s", err.message);
        }
    }
    if (!ok) {
        bad_row(s, msg, io);
        return;
    }
    line_room(&s->line, io->out, RESULT_BYTES);
    char *p = put_int(s->line.p, r_calc.blocks_per_sm);
    p = put_int(p, r_calc.warps_per_sm);
    p = put_occupancy(s, p, r_calc.occupancy);
    p = put_int(p, r_calc.limit_warps);
    p = put_int(p, r_calc.limit_blocks);
    p = put_int(p, r_calc.limit_registers);
    p = put_int(p, r_calc.limit_shared_mem);
    p = put_int(p, r_calc.limit_barriers);
    *p++ = ',';
    p = put_limiters(s, p, r_calc.limiters);
    *p++ = ',';
    if (r_calc.exceeds_launch_bounds) {
        /* The driver's occupancy API ignores launch bounds, so the numbers
           stand, but the launch itself fails. */
        p += snprintf(p, 96, "\"%d threads exceed __launch_bounds__ (%d): the launch fails\"",
                      r_calc.threads_per_block, k.max_threads_per_block);
    }
    *p++ = ',';
    *p++ = '\n';
    s->line.p = p;
    line_flush(&s->line, io->out);
}

int calc_batch(const char *path, const cli_io *io)
{
    FILE *in = strcmp(path, "-") == 0 ? io->in : fopen(path, "r");
    if (in == NULL) {
        return cli_fail(io, "calc", EXIT_DATA, "%s: cannot open: %s", path, strerror(errno));
    }
    const char *name = in == io->in ? "<stdin>" : path;
    batch_state *s = calloc(1, sizeof *s);
    if (s == NULL) {
        if (in != io->in) {
            fclose(in);
        }
        return cli_fail(io, "calc", EXIT_DATA, "out of memory");
    }
    s->line.p = s->line.text;
    if (!csv_init(&s->csv, in, CSV_MAX_RECORD_BYTES, CSV_MAX_FIELDS)) {
        csv_free(&s->csv);
        free(s);
        if (in != io->in) {
            fclose(in);
        }
        return cli_fail(io, "calc", EXIT_DATA, "out of memory");
    }
    cli_error err = {EXIT_OK, ""};
    bool header = false;
    for (;;) {
        csv_status st = csv_next(&s->csv);
        if (st == CSV_END) {
            break;
        }
        if (st == CSV_READ_ERROR) {
            /* the stream's error, or damaged or cut gzip data */
            cli_error_set(&err, EXIT_DATA, "%s: line %lld: %s", name, s->csv.line, s->csv.error);
            break;
        }
        if (st == CSV_RUNAWAY) {
            cli_error_set(&err, EXIT_DATA,
                          "%s: line %lld: %d bytes without a line end: not a CSV text file", name,
                          s->csv.line, CSV_RUNAWAY_BYTES);
            break;
        }
        if (!header) {
            if (st == CSV_TOO_LONG) {
                cli_error_set(&err, EXIT_DATA, "%s: line 1: the header is longer than %d bytes",
                              name, CSV_MAX_RECORD_BYTES);
                break;
            }
            if (!parse_header(s, name, io, &err)) {
                break;
            }
            echo_fields(&s->line, io->out, &s->csv, s->columns);
            line_flush(&s->line, io->out);
            fputs(",blocks_per_sm,warps_per_sm,occupancy,limit_warps,limit_blocks,"
                  "limit_registers,limit_shared_mem,limit_barriers,limiter,warning,error\n",
                  io->out);
            header = true;
            continue;
        }
        if (st == CSV_TOO_LONG) {
            char msg[128];
            s->rows++;
            echo_fields(&s->line, io->out, &s->csv, s->columns); /* no field kept: empty ones */
            snprintf(msg, sizeof msg, "the record is longer than %d bytes; not read",
                     CSV_MAX_RECORD_BYTES);
            bad_row(s, msg, io);
        } else {
            process_row(s, io);
        }
        if (s->rows % WRITE_CHECK_ROWS == 0 && ferror(io->out)) {
            break; /* the output is gone: cli_main reports the write error */
        }
    }
    int code = EXIT_OK;
    if (err.code != EXIT_OK) {
        code = cli_report(io, "calc", &err);
    } else if (!header && !ferror(io->out)) {
        code = cli_fail(io, "calc", EXIT_DATA,
                        "%s: is empty; expected the header gpu,threads,regs,smem,dyn_smem,carveout",
                        name);
    } else if (s->bad_rows > 0) {
        char shown[600];
        fprintf(io->err, "occ calc: %s: %lld of %lld rows have errors (first: %s)\n", name,
                s->bad_rows, s->rows, cli_visible(s->first_error, shown, sizeof shown));
        code = EXIT_DATA;
    }
    csv_free(&s->csv);
    free(s);
    if (in != io->in) {
        fclose(in);
    }
    return code;
}
