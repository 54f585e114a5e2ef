/*
 * nsys_csv.c - `nsys stats --report cuda_gpu_trace --format csv`: one row
 * per GPU activity, kernels among memory copies and sets. The columns are
 * found by their headers (nsys versions differ in order and spelling):
 *
 *   Start (ns), Duration (ns), CorrId, GrdX, GrdY, GrdZ, BlkX, BlkY, BlkZ,
 *   Reg/Trd, StcSMem (MB), DymSMem (MB) (or DynSMem), Bytes (MB), ...,
 *   Device ("NVIDIA H200 (0)"), Ctx, Strm, Name
 *
 * Rows without a grid (copies and sets) are passed over. Sizes printed in
 * MB are MB of 10^6 bytes (nsys's report scripts divide by 1e6), rounded to
 * the nearest byte; time units follow the header ("(ns)", "(us)", "(ms)",
 * "(s)"). nsys prints shared memory in MB with a few decimals, so a size
 * can be off by up to half the last digit: the group's note says so.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "prof_formats.h"

#define CSV_MAX_LINE_BYTES (1 << 20)
#define CSV_MAX_FIELDS 64

enum {
    F_DURATION,
    F_GRID_X,
    F_GRID_Y,
    F_GRID_Z,
    F_BLOCK_X,
    F_BLOCK_Y,
    F_BLOCK_Z,
    F_REGS,
    F_STATIC,
    F_DYN,
    F_DEVICE,
    F_NAME,
    F_COUNT
};

static const char *const field_prefixes[F_COUNT][2] = {
    [F_DURATION] = {"Duration", NULL}, [F_GRID_X] = {"GrdX", NULL},
    [F_GRID_Y] = {"GrdY", NULL},       [F_GRID_Z] = {"GrdZ", NULL},
    [F_BLOCK_X] = {"BlkX", NULL},      [F_BLOCK_Y] = {"BlkY", NULL},
    [F_BLOCK_Z] = {"BlkZ", NULL},      [F_REGS] = {"Reg/Trd", NULL},
    [F_STATIC] = {"StcSMem", NULL},    [F_DYN] = {"DymSMem", "DynSMem"},
    [F_DEVICE] = {"Device", NULL},     [F_NAME] = {"Name", NULL},
};

typedef struct csv_reader {
    gzFile f;
    const char *path;
    char *buf;  /* what was read and not yet split */
    size_t cap; /* CSV_MAX_LINE_BYTES + one read */
    size_t start, end;
    bool eof;
    bool failed;           /* a read error (damaged gzip) */
    const char *why;       /* zlib's reason when failed */
    long long number;      /* the line the record just read starts on */
    long long next_number; /* the line the next record starts on */
    char *fields[CSV_MAX_FIELDS];
    int count;
    bool too_many; /* the record has more than CSV_MAX_FIELDS fields */
} csv_reader;

/* Reads more after [start, end), moving it to the front. */
static void csv_fill(csv_reader *r)
{
    if (r->start > 0) {
        memmove(r->buf, r->buf + r->start, r->end - r->start);
        r->end -= r->start;
        r->start = 0;
    }
    int n = gzread(r->f, r->buf + r->end, (unsigned)(r->cap - 1 - r->end));
    int code = Z_OK;
    if (n <= 0) {
        r->why = prof_gz_error(r->f, r->path, &code);
    }
    /* gzread ends gzip data cut short (Z_BUF_ERROR) as if it were the end */
    if (n < 0 || (n == 0 && code == Z_BUF_ERROR)) {
        r->failed = true;
        r->eof = true;
        return;
    }
    if (n == 0) {
        r->eof = true;
    }
    r->end += (size_t)n;
}

/* Splits the record [line, line + length) in place into r->fields: quoted
   fields unquoted ("" inside quotes is one quote). */
static void csv_split(csv_reader *r, char *line, size_t length)
{
    line[length] = '\0';
    r->count = 0;
    r->too_many = false;
    char *p = line;
    for (;;) {
        if (r->count == CSV_MAX_FIELDS) {
            r->too_many = true;
            return;
        }
        r->fields[r->count++] = p;
        if (*p != '"') { /* the usual field: up to the next comma */
            char *comma = memchr(p, ',', (size_t)(line + length - p));
            if (!comma) {
                break;
            }
            *comma = '\0';
            p = comma + 1;
            continue;
        }
        char *out = p;
        p++;
        for (;;) {
            char *quote = memchr(p, '"', (size_t)(line + length - p));
            if (!quote) { /* unterminated: the rest, as it is */
                size_t n = strlen(p);
                memmove(out, p, n + 1);
                return;
            }
            memmove(out, p, (size_t)(quote - p));
            out += quote - p;
            if (quote[1] == '"') {
                *out++ = '"';
                p = quote + 2;
                continue;
            }
            p = quote + 1;
            break;
        }
        /* what follows the closing quote, up to the comma, is kept */
        char *comma = memchr(p, ',', (size_t)(line + length - p));
        size_t tail = comma ? (size_t)(comma - p) : strlen(p);
        memmove(out, p, tail);
        out[tail] = '\0';
        if (!comma) {
            break;
        }
        p = comma + 1;
    }
}

enum {
    CSV_RECORD = 1,
    CSV_END = 0,
    CSV_TOO_LONG = -1,
    CSV_DAMAGED = -2,
    CSV_NUL = -3,        /* a NUL byte: not text */
    CSV_OPEN_QUOTE = -4, /* the file ends inside a quoted field */
};

/* The record [line, line + length) split, unless it holds a NUL byte. */
static int csv_record(csv_reader *r, char *line, size_t length, long long lines)
{
    r->number = r->next_number;
    r->next_number += lines;
    if (memchr(line, '\0', length)) {
        return CSV_NUL;
    }
    csv_split(r, line, length);
    return CSV_RECORD;
}

/* Reads one record (quoted fields may hold newlines and commas) and splits
   it: CSV_RECORD, CSV_END, or what is wrong. */
static int csv_next(csv_reader *r)
{
    size_t scan = r->start;
    bool quoted = false;
    long long lines = 1; /* the record's, with the newlines inside quotes */
    for (;;) {
        char *nl = memchr(r->buf + scan, '\n', r->end - scan);
        size_t stop = nl ? (size_t)(nl - r->buf) : r->end;
        /* quotes between scan and stop flip whether the newline ends the record */
        for (char *q = r->buf + scan; (q = memchr(q, '"', (size_t)(r->buf + stop - q))); q++) {
            quoted = !quoted;
        }
        if (nl && !quoted) {
            size_t length = stop - r->start;
            char *line = r->buf + r->start;
            r->start = stop + 1;
            if (length && line[length - 1] == '\r') {
                length--;
            }
            return csv_record(r, line, length, lines);
        }
        if (nl) { /* a newline inside quotes: the record goes on */
            scan = stop + 1;
            lines++;
            continue;
        }
        if (r->eof) {
            if (r->failed) {
                r->number = r->next_number;
                return CSV_DAMAGED;
            }
            if (r->end == r->start) {
                return CSV_END;
            }
            if (quoted) { /* the rest of the file would be one field */
                r->number = r->next_number;
                return CSV_OPEN_QUOTE;
            }
            /* the last record, without a newline */
            char *line = r->buf + r->start;
            size_t length = r->end - r->start;
            r->start = r->end;
            return csv_record(r, line, length, lines);
        }
        if (r->end - r->start >= CSV_MAX_LINE_BYTES) {
            r->number = r->next_number;
            return CSV_TOO_LONG;
        }
        size_t offset = r->end - r->start; /* its quotes are counted */
        csv_fill(r);
        scan = r->start + offset;
    }
}

static bool starts_with(const char *text, const char *prefix)
{
    return strncmp(text, prefix, strlen(prefix)) == 0;
}

/* The scale of a header's unit to bytes or microseconds; 0 if unknown. */
static double unit_scale(const char *header, bool time)
{
    const char *open = strchr(header, '(');
    if (!open) {
        return time ? 1e-3 : 1.0; /* nsys prints ns and bytes without a unit */
    }
    static const struct {
        const char *unit;
        double scale;
    } times[] = {{"(ns)", 1e-3}, {"(us)", 1.0}, {"(ms)", 1e3}, {"(s)", 1e6}},
      sizes[] = {
          {"(B)", 1.0}, {"(KB)", 1e3}, {"(MB)", 1e6}, {"(KiB)", 1024.0}, {"(MiB)", 1048576.0}};
    const size_t n = time ? sizeof times / sizeof times[0] : sizeof sizes / sizeof sizes[0];
    for (size_t i = 0; i < n; i++) {
        const char *unit = time ? times[i].unit : sizes[i].unit;
        if (strcmp(open, unit) == 0) {
            return time ? times[i].scale : sizes[i].scale;
        }
    }
    return 0;
}

static bool parse_double(const char *text, double *out)
{
    while (*text == ' ') {
        text++;
    }
    if (!*text) {
        return false;
    }
    /* plain digits, most fields, without strtod */
    long long whole = 0;
    int digits = 0;
    while (text[digits] >= '0' && text[digits] <= '9' && digits < 18) {
        whole = whole * 10 + (text[digits] - '0');
        digits++;
    }
    if (digits > 0 && text[digits] == '\0') {
        *out = (double)whole;
        return true;
    }
    /* strtod also reads hex, "inf" and "nan", which nsys never prints */
    if (text[strspn(text, "0123456789+-.eE ")] != '\0') {
        return false;
    }
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    while (*end == ' ') {
        end++;
    }
    if (*end || errno == ERANGE || !isfinite(v)) {
        return false;
    }
    *out = v;
    return true;
}

/* What csv_next found wrong, as the error. */
static occ_status csv_refusal(const csv_reader *r, int rc, const char *path, int input,
                              occ_profile_error *err)
{
    switch (rc) {
    case CSV_TOO_LONG:
        return prof_error(err, OCC_ERR_LIMIT, path, input, r->number,
                          "line %lld: a record longer than %d bytes", r->number,
                          CSV_MAX_LINE_BYTES);
    case CSV_DAMAGED:
        return prof_error(err, OCC_ERR_BAD_FORMAT, path, input, r->number,
                          "line %lld: cannot be read: %s (damaged or cut gzip data)", r->number,
                          r->why ? r->why : "read error");
    case CSV_NUL:
        return prof_error(err, OCC_ERR_BAD_FORMAT, path, input, r->number,
                          "line %lld: a NUL byte: not a CSV text", r->number);
    case CSV_OPEN_QUOTE:
        return prof_error(err, OCC_ERR_BAD_FORMAT, path, input, r->number,
                          "line %lld: a quoted field is not closed before the end of the file",
                          r->number);
    default:
        return prof_error(err, OCC_ERR_BAD_FORMAT, path, input, r->number,
                          "line %lld: more than %d fields", r->number, CSV_MAX_FIELDS);
    }
}

/* A whole-number field, in int's range (prof_launch_check holds it to CUDA's
   limits then); false, with err set, otherwise. */
static bool csv_int(const csv_reader *r, double v, const char *field, const char *text, bool bytes,
                    const char *path, int input, occ_profile_error *err, int *out)
{
    if (v < -2147483648.0 || v > 2147483647.0) {
        char scaled[64] = "";
        if (bytes) {
            snprintf(scaled, sizeof scaled, " (%.0f bytes)", v);
        }
        prof_error(err, OCC_ERR_BAD_FORMAT, path, input, r->number,
                   "line %lld: %s '%.40s'%s is outside -2147483648..2147483647", r->number, field,
                   text, scaled);
        return false;
    }
    *out = (int)v;
    return true;
}

occ_status prof_read_nsys_csv(const char *path, int input, const prof_sink *sink,
                              occ_profile_error *err)
{
    csv_reader r = {0};
    r.next_number = 1;
    r.path = path;
    r.f = gzopen(path, "rb");
    if (!r.f) {
        return prof_error(err, OCC_ERR_IO, path, input, -1, "cannot open");
    }
    r.cap = CSV_MAX_LINE_BYTES + (1 << 20);
    r.buf = malloc(r.cap);
    if (!r.buf) {
        gzclose(r.f);
        return prof_error(err, OCC_ERR_OUT_OF_MEMORY, path, input, -1, "out of memory");
    }
    occ_status st = OCC_OK;
    int column[F_COUNT];
    double scale_duration = 0, scale_static = 0, scale_dyn = 0;
    int rc = csv_next(&r);
    if (rc == CSV_END) {
        st = prof_error(err, OCC_ERR_BAD_FORMAT, path, input, 1, "line 1: empty: no header");
        goto done;
    }
    if (rc != CSV_RECORD || r.too_many) {
        st = csv_refusal(&r, rc, path, input, err);
        goto done;
    }
    for (int i = 0; i < r.count; i++) {
        /* lines ended by a bare '\r' read as one: the header would swallow the rows */
        if (strchr(r.fields[i], '\r')) {
            st = prof_error(err, OCC_ERR_BAD_FORMAT, path, input, 1,
                            "line 1: a carriage return inside the header (lines must end with "
                            "'\\n' or '\\r\\n')");
            goto done;
        }
    }
    for (int f = 0; f < F_COUNT; f++) {
        column[f] = -1;
        for (int i = 0; i < r.count && column[f] < 0; i++) {
            for (int k = 0; k < 2; k++) {
                if (field_prefixes[f][k] && starts_with(r.fields[i], field_prefixes[f][k])) {
                    column[f] = i;
                    if (f == F_DURATION) {
                        scale_duration = unit_scale(r.fields[i], true);
                    } else if (f == F_STATIC) {
                        scale_static = unit_scale(r.fields[i], false);
                    } else if (f == F_DYN) {
                        scale_dyn = unit_scale(r.fields[i], false);
                    }
                }
            }
        }
        if (column[f] < 0) {
            st = prof_error(err, OCC_ERR_BAD_FORMAT, path, input, 1,
                            "line 1: no column %s: not `nsys stats --report cuda_gpu_trace "
                            "--format csv`",
                            field_prefixes[f][0]);
            goto done;
        }
    }
    if (scale_duration == 0 || scale_static == 0 || scale_dyn == 0) {
        st = prof_error(err, OCC_ERR_BAD_FORMAT, path, input, 1,
                        "line 1: a unit occ does not know in '%s', '%s' or '%s'",
                        r.fields[column[F_DURATION]], r.fields[column[F_STATIC]],
                        r.fields[column[F_DYN]]);
        goto done;
    }
    while ((rc = csv_next(&r)) == CSV_RECORD) {
        if (r.too_many) {
            break;
        }
        if (r.count == 1 && r.fields[0][0] == '\0') {
            continue; /* a blank line */
        }
        int max_column = 0;
        for (int f = 0; f < F_COUNT; f++) {
            max_column = column[f] > max_column ? column[f] : max_column;
        }
        if (r.count <= max_column) {
            st = prof_error(err, OCC_ERR_BAD_FORMAT, path, input, r.number,
                            "line %lld: %d fields, the header has at least %d", r.number, r.count,
                            max_column + 1);
            goto done;
        }
        const char *grid_text = r.fields[column[F_GRID_X]];
        while (*grid_text == ' ') {
            grid_text++;
        }
        if (!*grid_text) {
            continue; /* a memory copy or set */
        }
        prof_launch l = {0};
        double v[F_COUNT];
        for (int f = 0; f < F_DEVICE; f++) {
            if (!parse_double(r.fields[column[f]], &v[f]) ||
                (f != F_DURATION && f != F_STATIC && f != F_DYN && v[f] != floor(v[f]))) {
                st = prof_error(err, OCC_ERR_BAD_FORMAT, path, input, r.number,
                                "line %lld: %s '%.40s' is not a %s", r.number, field_prefixes[f][0],
                                r.fields[column[f]],
                                f == F_DURATION || f == F_STATIC || f == F_DYN ? "number"
                                                                               : "whole number");
                goto done;
            }
        }
        /* whole numbers into ints only when they fit (a cast of a double out of
           range is undefined); the sizes in bytes likewise */
        int *const ints[] = {&l.grid[0],  &l.grid[1],  &l.grid[2],        &l.block[0],
                             &l.block[1], &l.block[2], &l.regs_per_thread};
        for (int f = F_GRID_X; f <= F_REGS; f++) {
            if (!csv_int(&r, v[f], field_prefixes[f][0], r.fields[column[f]], false, path, input,
                         err, ints[f - F_GRID_X])) {
                st = OCC_ERR_BAD_FORMAT;
                goto done;
            }
        }
        double stat = floor(v[F_STATIC] * scale_static + 0.5);
        double dyn = floor(v[F_DYN] * scale_dyn + 0.5);
        if (!csv_int(&r, stat, "StcSMem", r.fields[column[F_STATIC]], true, path, input, err,
                     &l.static_smem_bytes) ||
            !csv_int(&r, dyn, "DymSMem", r.fields[column[F_DYN]], true, path, input, err,
                     &l.dyn_smem_bytes)) {
            st = OCC_ERR_BAD_FORMAT;
            goto done;
        }
        /* prof_launch_check refuses the parts before their sum */
        long long sum = (long long)l.static_smem_bytes + l.dyn_smem_bytes;
        l.smem_bytes = sum < -2147483648LL || sum > 2147483647LL ? -1 : (int)sum;
        l.duration_us = v[F_DURATION] * scale_duration;
        l.local_bytes_per_thread = OCC_PROFILE_UNKNOWN;
        l.cache_preference = -1;
        l.carveout_percent = -1;
        l.smem_executed_bytes = OCC_PROFILE_UNKNOWN;
        /* "NVIDIA H200 (0)": the id in the last parentheses */
        const char *device = r.fields[column[F_DEVICE]];
        const char *open = strrchr(device, '(');
        if (open) {
            char *end;
            errno = 0;
            long id = strtol(open + 1, &end, 10);
            if (end != open + 1 && *end == ')') {
                if (errno == ERANGE || id < 0 || id > 1 << 20) {
                    st = prof_error(err, OCC_ERR_BAD_FORMAT, path, input, r.number,
                                    "line %lld: Device '%.60s': the id is outside 0..%d", r.number,
                                    device, 1 << 20);
                    goto done;
                }
                l.device = (int)id;
            }
        }
        l.name = r.fields[column[F_NAME]];
        l.name_length = strlen(l.name);
        st = prof_launch_check(&l, path, input, r.number, "line", err);
        if (st == OCC_OK) {
            st =
                prof_error_place(err, sink->launch(sink->context, &l, err), path, r.number, "line");
        }
        if (st != OCC_OK) {
            goto done;
        }
        if (open && open > device) {
            /* the device's name, once per row: the sink keeps the first */
            char name[OCC_DEVICE_NAME_BYTES];
            size_t n = (size_t)(open - device);
            while (n && device[n - 1] == ' ') {
                n--;
            }
            n = n < sizeof name - 1 ? n : sizeof name - 1;
            memcpy(name, device, n);
            name[n] = '\0';
            prof_device d = {.id = l.device, .name = name, .cc_major = -1, .cc_minor = -1};
            st =
                prof_error_place(err, sink->device(sink->context, &d, err), path, r.number, "line");
            if (st != OCC_OK) {
                goto done;
            }
        }
    }
    if (rc != CSV_END) {
        st = csv_refusal(&r, rc, path, input, err);
    }
done:
    free(r.buf);
    gzclose(r.f);
    return st;
}
