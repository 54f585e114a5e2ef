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

#include "csv.h"
#include "prof_formats.h"

/* A record's bytes and fields: a row is about 200 bytes of 21 fields. */
#define NSYS_CSV_MAX_RECORD_BYTES (1 << 20)
#define NSYS_CSV_MAX_FIELDS 64

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
static occ_status csv_refusal(const csv_reader *r, csv_status st, const char *path, int input,
                              occ_profile_error *err)
{
    if (st == CSV_TOO_LONG || st == CSV_RUNAWAY) {
        return prof_error(err, OCC_ERR_LIMIT, path, input, r->line,
                          "line %lld: a record longer than %d bytes", r->line,
                          NSYS_CSV_MAX_RECORD_BYTES);
    }
    return prof_error(err, OCC_ERR_BAD_FORMAT, path, input, r->line,
                      "line %lld: cannot be read: %s (damaged or cut gzip data)", r->line,
                      r->error_cause);
}

/* A record that is not CSV as nsys writes it, as the error; OCC_OK for one
   that is. In the header a carriage return is looked for before text after
   a closing quote: a file whose lines end with a bare '\r' is one record,
   the first quoted name followed by the next row, and is named as such. */
static occ_status record_refusal(csv_reader *r, bool header, const char *path, int input,
                                 occ_profile_error *err)
{
    if (r->unclosed_quote) {
        return prof_error(err, OCC_ERR_BAD_FORMAT, path, input, r->line,
                          "line %lld: a quoted field is not closed before the end of the file",
                          r->line);
    }
    if (r->has_nul) {
        return prof_error(err, OCC_ERR_BAD_FORMAT, path, input, r->line,
                          "line %lld: a NUL byte: not a CSV text", r->line);
    }
    if (r->field_count > r->max_fields) {
        return prof_error(err, OCC_ERR_BAD_FORMAT, path, input, r->line,
                          "line %lld: more than %d fields", r->line, r->max_fields);
    }
    for (int i = 0; header && i < r->field_count; i++) {
        /* lines ended by a bare '\r' read as one: the header would swallow the rows */
        if (strchr(csv_field(r, i), '\r')) {
            return prof_error(err, OCC_ERR_BAD_FORMAT, path, input, r->line,
                              "line %lld: a carriage return inside the header (lines must end "
                              "with '\\n' or '\\r\\n')",
                              r->line);
        }
    }
    if (r->text_after_quote) {
        /* nsys quotes whole fields: a quote that never closes is taken as
           closed by the next quoted field's opening one, and text follows */
        return prof_error(err, OCC_ERR_BAD_FORMAT, path, input, r->line,
                          "line %lld: a quoted field is not closed before the end of the file, "
                          "or text follows its closing quote: not CSV as nsys writes it",
                          r->line);
    }
    return OCC_OK;
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
        prof_error(err, OCC_ERR_BAD_FORMAT, path, input, r->line,
                   "line %lld: %s '%.40s'%s is outside -2147483648..2147483647", r->line, field,
                   text, scaled);
        return false;
    }
    *out = (int)v;
    return true;
}

occ_status prof_read_nsys_csv(const char *path, int input, const prof_sink *sink,
                              occ_profile_error *err)
{
    FILE *in = fopen(path, "rb");
    if (!in) {
        return prof_error(err, OCC_ERR_IO, path, input, -1, "cannot open");
    }
    /* the reader inflates a gzipped file, whatever its name */
    csv_reader *r = malloc(sizeof *r);
    if (!r || !csv_init(r, in, NSYS_CSV_MAX_RECORD_BYTES, NSYS_CSV_MAX_FIELDS)) {
        if (r) {
            csv_free(r);
        }
        free(r);
        fclose(in);
        return prof_error(err, OCC_ERR_OUT_OF_MEMORY, path, input, -1, "out of memory");
    }
    occ_status st = OCC_OK;
    int column[F_COUNT];
    double scale_duration = 0, scale_static = 0, scale_dyn = 0;
    csv_status rc = csv_next(r);
    if (rc == CSV_END) {
        st = prof_error(err, OCC_ERR_BAD_FORMAT, path, input, 1, "line 1: empty: no header");
        goto done;
    }
    if (rc != CSV_RECORD) {
        st = csv_refusal(r, rc, path, input, err);
        goto done;
    }
    st = record_refusal(r, true, path, input, err);
    if (st != OCC_OK) {
        goto done;
    }
    const long long header_line = r->line;
    for (int f = 0; f < F_COUNT; f++) {
        column[f] = -1;
        for (int i = 0; i < r->field_count && column[f] < 0; i++) {
            const char *name = csv_field(r, i);
            for (int k = 0; k < 2; k++) {
                if (field_prefixes[f][k] && starts_with(name, field_prefixes[f][k])) {
                    column[f] = i;
                    if (f == F_DURATION) {
                        scale_duration = unit_scale(name, true);
                    } else if (f == F_STATIC) {
                        scale_static = unit_scale(name, false);
                    } else if (f == F_DYN) {
                        scale_dyn = unit_scale(name, false);
                    }
                }
            }
        }
        if (column[f] < 0) {
            st = prof_error(err, OCC_ERR_BAD_FORMAT, path, input, header_line,
                            "line %lld: no column %s: not `nsys stats --report cuda_gpu_trace "
                            "--format csv`",
                            header_line, field_prefixes[f][0]);
            goto done;
        }
    }
    if (scale_duration == 0 || scale_static == 0 || scale_dyn == 0) {
        st = prof_error(err, OCC_ERR_BAD_FORMAT, path, input, header_line,
                        "line %lld: a unit occ does not know in '%s', '%s' or '%s'", header_line,
                        csv_field(r, column[F_DURATION]), csv_field(r, column[F_STATIC]),
                        csv_field(r, column[F_DYN]));
        goto done;
    }
    int max_column = 0;
    for (int f = 0; f < F_COUNT; f++) {
        max_column = column[f] > max_column ? column[f] : max_column;
    }
    while ((rc = csv_next(r)) == CSV_RECORD) {
        st = record_refusal(r, false, path, input, err);
        if (st != OCC_OK) {
            goto done;
        }
        if (r->field_count == 1 && csv_field(r, 0)[0] == '\0') {
            continue; /* "": a blank line */
        }
        if (r->field_count <= max_column) {
            st = prof_error(err, OCC_ERR_BAD_FORMAT, path, input, r->line,
                            "line %lld: %d fields, the header has at least %d", r->line,
                            r->field_count, max_column + 1);
            goto done;
        }
        const char *grid_text = csv_field(r, column[F_GRID_X]);
        while (*grid_text == ' ') {
            grid_text++;
        }
        if (!*grid_text) {
            continue; /* a memory copy or set */
        }
        const char *field[F_COUNT];
        for (int f = 0; f < F_COUNT; f++) {
            field[f] = csv_field(r, column[f]);
        }
        prof_launch l = {0};
        double v[F_COUNT];
        for (int f = 0; f < F_DEVICE; f++) {
            if (!parse_double(field[f], &v[f]) ||
                (f != F_DURATION && f != F_STATIC && f != F_DYN && v[f] != floor(v[f]))) {
                st = prof_error(
                    err, OCC_ERR_BAD_FORMAT, path, input, r->line,
                    "line %lld: %s '%.40s' is not a %s", r->line, field_prefixes[f][0], field[f],
                    f == F_DURATION || f == F_STATIC || f == F_DYN ? "number" : "whole number");
                goto done;
            }
        }
        /* whole numbers into ints only when they fit (a cast of a double out of
           range is undefined); the sizes in bytes likewise */
        int *const ints[] = {&l.grid[0],  &l.grid[1],  &l.grid[2],        &l.block[0],
                             &l.block[1], &l.block[2], &l.regs_per_thread};
        for (int f = F_GRID_X; f <= F_REGS; f++) {
            if (!csv_int(r, v[f], field_prefixes[f][0], field[f], false, path, input, err,
                         ints[f - F_GRID_X])) {
                st = OCC_ERR_BAD_FORMAT;
                goto done;
            }
        }
        double stat = floor(v[F_STATIC] * scale_static + 0.5);
        double dyn = floor(v[F_DYN] * scale_dyn + 0.5);
        if (!csv_int(r, stat, "StcSMem", field[F_STATIC], true, path, input, err,
                     &l.static_smem_bytes) ||
            !csv_int(r, dyn, "DymSMem", field[F_DYN], true, path, input, err, &l.dyn_smem_bytes)) {
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
        const char *device = field[F_DEVICE];
        const char *open = strrchr(device, '(');
        if (open) {
            char *end;
            errno = 0;
            long id = strtol(open + 1, &end, 10);
            if (end != open + 1 && *end == ')') {
                if (errno == ERANGE || id < 0 || id > 1 << 20) {
                    st = prof_error(err, OCC_ERR_BAD_FORMAT, path, input, r->line,
                                    "line %lld: Device '%.60s': the id is outside 0..%d", r->line,
                                    device, 1 << 20);
                    goto done;
                }
                l.device = (int)id;
            }
        }
        l.name = field[F_NAME];
        l.name_length = strlen(l.name);
        st = prof_launch_check(&l, path, input, r->line, "line", err);
        if (st == OCC_OK) {
            st = prof_error_place(err, sink->launch(sink->context, &l, err), path, r->line, "line");
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
            st = prof_error_place(err, sink->device(sink->context, &d, err), path, r->line, "line");
            if (st != OCC_OK) {
                goto done;
            }
        }
    }
    if (rc != CSV_END) {
        st = csv_refusal(r, rc, path, input, err);
    }
done:
    csv_free(r);
    free(r);
    fclose(in);
    return st;
}
