/*
 * calc_batch.c - `occ calc --batch FILE`: one occupancy per CSV row,
 * streamed, so a million rows take about a second. A bad row becomes a row
 * with an error, never an abort.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "calc_args.h"
#include "kernel_args.h"

enum { COL_GPU, COL_THREADS, COL_REGS, COL_SMEM, COL_DYN_SMEM, COL_CARVEOUT, COL_MAX_THREADS,
       COL_BARRIERS, COL_KNOWN };
static const char *const column_names[COL_KNOWN] = {
    "gpu", "threads", "regs", "smem", "dyn_smem", "carveout", "max_threads", "barriers"};
#define REQUIRED_COLUMNS 6 /* the first six; the rest are optional */
#define MAX_COLUMNS 64

/* Recently used GPUs: a batch usually names one or two. */
#define GPU_CACHE 8
typedef struct gpu_cache {
    char names[GPU_CACHE][64];
    occ_device devices[GPU_CACHE];
    int count;
    int next;
} gpu_cache;

static bool cached_gpu(gpu_cache *c, const char *name, occ_device *out, occ_error *err)
{
    for (int i = 0; i < c->count; i++) {
        if (strcmp(c->names[i], name) == 0) {
            *out = c->devices[i];
            return true;
        }
    }
    if (occ_gpu_find(name, out, err) != OCC_OK) {
        return false;
    }
    if (strlen(name) < sizeof c->names[0]) {
        snprintf(c->names[c->next], sizeof c->names[0], "%s", name);
        c->devices[c->next] = *out;
        c->next = (c->next + 1) % GPU_CACHE;
        c->count = c->count < GPU_CACHE ? c->count + 1 : GPU_CACHE;
    }
    return true;
}

/* Splits a CSV line in place (RFC 4180: a field may be quoted, "" is a
   quote inside one) and trims spaces around unquoted fields. Returns the
   field count, which may exceed `max` (then only `max` are stored), or -1
   for an unterminated quote. */
static int split(char *line, char **fields, int max)
{
    int n = 0;
    char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t') {
            p++;
        }
        char *start = p;
        char *end;
        if (*p == '"') {
            /* Unquote in place: the value only shrinks. */
            char *w = p;
            for (p++;; p++) {
                if (*p == '\0') {
                    return -1;
                }
                if (*p == '"') {
                    if (p[1] != '"') {
                        break;
                    }
                    p++;
                }
                *w++ = *p;
            }
            p++; /* past the closing quote */
            end = w;
            while (*p == ' ' || *p == '\t') {
                p++;
            }
            if (*p != ',' && *p != '\0') {
                return -1; /* text after a closing quote */
            }
        } else {
            while (*p != ',' && *p != '\0') {
                p++;
            }
            end = p;
            while (end > start && (end[-1] == ' ' || end[-1] == '\t')) {
                end--;
            }
        }
        if (n < max) {
            fields[n] = start;
        }
        n++;
        bool last = *p == '\0';
        *end = '\0';
        if (last) {
            break;
        }
        p++;
    }
    return n;
}

static void put_csv_quoted(FILE *out, const char *text)
{
    fputc('"', out);
    for (; *text != '\0'; text++) {
        if (*text == '"') {
            fputc('"', out);
        }
        fputc(*text, out);
    }
    fputc('"', out);
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

typedef struct batch_state {
    int column_of[COL_KNOWN]; /* input column index of each known column, or -1 */
    int columns;              /* fields in the header */
    gpu_cache cache;
    long long rows;
    long long bad_rows;
    char first_error[400];
} batch_state;

static bool parse_header(char *line, batch_state *s, const char *path, const cli_io *io)
{
    char *fields[MAX_COLUMNS];
    int n = split(line, fields, MAX_COLUMNS);
    if (n < 0) {
        cli_fail(io, "calc", EXIT_DATA, "%s: line 1: a quoted column name is not closed", path);
        return false;
    }
    if (n > MAX_COLUMNS) {
        cli_fail(io, "calc", EXIT_DATA, "%s: line 1: more than %d columns", path, MAX_COLUMNS);
        return false;
    }
    for (int c = 0; c < COL_KNOWN; c++) {
        s->column_of[c] = -1;
    }
    for (int i = 0; i < n; i++) {
        int c = 0;
        while (c < COL_KNOWN && strcmp(fields[i], column_names[c]) != 0) {
            c++;
        }
        if (c == COL_KNOWN) {
            fprintf(io->err, "occ calc: %s: column '%s' is not an input column; passed through\n",
                    path, fields[i]);
        } else if (s->column_of[c] >= 0) {
            cli_fail(io, "calc", EXIT_DATA, "%s: line 1: column '%s' appears twice", path,
                     fields[i]);
            return false;
        } else {
            s->column_of[c] = i;
        }
    }
    for (int c = 0; c < REQUIRED_COLUMNS; c++) {
        if (s->column_of[c] < 0) {
            cli_fail(io, "calc", EXIT_DATA,
                     "%s: line 1: column '%s' is missing; the header needs "
                     "gpu,threads,regs,smem,dyn_smem,carveout",
                     path, column_names[c]);
            return false;
        }
    }
    s->columns = n;
    return true;
}

/* Fills the kernel from one row; on failure writes the reason into msg. */
static bool row_to_launch(char **fields, batch_state *s, occ_device *dev, occ_kernel *k,
                          char *msg, size_t cap)
{
    occ_error err;
    const char *v[COL_KNOWN];
    for (int c = 0; c < COL_KNOWN; c++) {
        v[c] = s->column_of[c] >= 0 ? fields[s->column_of[c]] : "";
    }
    if (!cached_gpu(&s->cache, v[COL_GPU], dev, &err)) {
        snprintf(msg, cap, "gpu: %s", err.message);
        return false;
    }
    occ_kernel_init(k);
    long long n;
    if (!calc_parse_threads(v[COL_THREADS], k)) {
        snprintf(msg, cap, "threads '%.32s': is not a block size such as 256 or 16x16",
                 v[COL_THREADS]);
        return false;
    }
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
        bool ok = ints[i].size ? cli_parse_size(text, &n)
                               : cli_parse_int(text, ints[i].lo, ints[i].hi, &n);
        if (!ok) {
            snprintf(msg, cap, "%s '%.32s': is not %s", column_names[ints[i].col], text,
                     ints[i].size ? "a size in bytes" : "a whole number in range");
            return false;
        }
        *ints[i].slot = (int)n;
    }
    if (v[COL_CARVEOUT][0] != '\0' && !cli_parse_carveout(v[COL_CARVEOUT], &k->carveout_percent)) {
        snprintf(msg, cap, "carveout '%.32s': is not -1 or a percentage 0 to 100",
                 v[COL_CARVEOUT]);
        return false;
    }
    return true;
}

static void process_row(char *line, long long line_no, batch_state *s, const cli_io *io)
{
    char echo[4096];
    char *fields[MAX_COLUMNS];
    char msg[320];
    snprintf(echo, sizeof echo, "%s", line);
    int n = split(line, fields, MAX_COLUMNS);
    occ_device dev;
    occ_kernel k;
    occ_result r;
    occ_error err;
    bool ok = false;
    if (n < 0) {
        snprintf(msg, sizeof msg, "a quoted field is not closed");
    } else if (n != s->columns) {
        snprintf(msg, sizeof msg, "%d fields; the header has %d%s", n, s->columns,
                 n > s->columns ? " (the extra fields are not echoed)" : "");
    } else if (row_to_launch(fields, s, &dev, &k, msg, sizeof msg)) {
        if (occ_calc(&dev, &k, &r, &err) == OCC_OK) {
            ok = true;
        } else {
            snprintf(msg, sizeof msg, "%s", err.message);
        }
    }
    s->rows++;
    if (n == s->columns) {
        fputs(echo, io->out);
    } else {
        /* Keep the output rectangular: the row's fields padded with empty
           ones or cut to the header's count (quoted again where needed);
           the error says which. An unclosed quote leaves empty fields. */
        for (int i = 0; i < s->columns; i++) {
            if (i > 0) {
                fputc(',', io->out);
            }
            if (i < n && i < MAX_COLUMNS) {
                if (strpbrk(fields[i], ",\"") != NULL) {
                    put_csv_quoted(io->out, fields[i]);
                } else {
                    fputs(fields[i], io->out);
                }
            }
        }
    }
    if (!ok) {
        /* The result columns stay empty; the error column says why. */
        fputs(",,,,,,,,,,,", io->out);
        put_csv_quoted(io->out, msg);
        fputc('\n', io->out);
        if (s->bad_rows++ == 0) {
            snprintf(s->first_error, sizeof s->first_error, "line %lld: %s", line_no, msg);
        }
        return;
    }
    char out[384];
    char *p = put_int(out, r.blocks_per_sm);
    p = put_int(p, r.warps_per_sm);
    p += snprintf(p, 32, ",%.6g", r.occupancy);
    p = put_int(p, r.limit_warps);
    p = put_int(p, r.limit_blocks);
    p = put_int(p, r.limit_registers);
    p = put_int(p, r.limit_shared_mem);
    p = put_int(p, r.limit_barriers);
    *p++ = ',';
    char limiters[96];
    calc_limiter_list(r.limiters, limiters, sizeof limiters);
    size_t len = strlen(limiters);
    memcpy(p, limiters, len);
    p += len;
    *p++ = ',';
    if (r.exceeds_launch_bounds) {
        /* The driver's occupancy API ignores launch bounds, so the numbers
           stand, but the launch itself fails. */
        p += snprintf(p, 96, "\"%d threads exceed __launch_bounds__ (%d): the launch fails\"",
                      r.threads_per_block, k.max_threads_per_block);
    }
    *p++ = ',';
    *p++ = '\n';
    fwrite(out, 1, (size_t)(p - out), io->out);
}

int calc_batch(const char *path, const cli_io *io)
{
    FILE *in = strcmp(path, "-") == 0 ? io->in : fopen(path, "r");
    if (in == NULL) {
        return cli_fail(io, "calc", EXIT_DATA, "%s: cannot open: %s", path, strerror(errno));
    }
    const char *name = in == io->in ? "<stdin>" : path;
    batch_state *s = calloc(1, sizeof *s);
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    long long line_no = 0;
    int code = EXIT_OK;
    bool header = false;
    while (s != NULL && (got = getline(&line, &cap, in)) >= 0) {
        line_no++;
        while (got > 0 && (line[got - 1] == '\n' || line[got - 1] == '\r')) {
            line[--got] = '\0';
        }
        if (got == 0) {
            continue;
        }
        if ((size_t)got >= 4000) {
            code = cli_fail(io, "calc", EXIT_DATA, "%s: line %lld: longer than 4000 bytes", name,
                            line_no);
            break;
        }
        if (!header) {
            char copy[4096];
            snprintf(copy, sizeof copy, "%s", line);
            if (!parse_header(copy, s, name, io)) {
                code = EXIT_DATA;
                break;
            }
            fprintf(io->out,
                    "%s,blocks_per_sm,warps_per_sm,occupancy,limit_warps,limit_blocks,"
                    "limit_registers,limit_shared_mem,limit_barriers,limiter,warning,error\n",
                    line);
            header = true;
            continue;
        }
        process_row(line, line_no, s, io);
    }
    if (s == NULL) {
        code = cli_fail(io, "calc", EXIT_DATA, "out of memory");
    } else if (code == EXIT_OK && ferror(in)) {
        code = cli_fail(io, "calc", EXIT_DATA, "%s: read error: %s", name, strerror(errno));
    } else if (code == EXIT_OK && !header) {
        code = cli_fail(io, "calc", EXIT_DATA,
                        "%s: is empty; expected the header gpu,threads,regs,smem,dyn_smem,carveout",
                        name);
    } else if (code == EXIT_OK && s->bad_rows > 0) {
        fprintf(io->err, "occ calc: %s: %lld of %lld rows have errors (first: %s)\n", name,
                s->bad_rows, s->rows, s->first_error);
        code = EXIT_DATA;
    }
    free(line);
    free(s);
    if (in != io->in) {
        fclose(in);
    }
    return code;
}
