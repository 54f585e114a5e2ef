/*
 * cupti_tsv.c - the records of occ's CUPTI recorder (lab/trace/
 * occ_trace_inject.c, format "occ-trace 1"): a line per device ("D") and per
 * kernel launch ("K"), tab-separated, written at the traced program's exit.
 * This file owns that format's reading; occ_profile_convert_cupti writes
 * what it reads as Nsight Systems' SQLite schema (nsys_sqlite.c). The file
 * may be gzipped.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>
#include <zlib.h>

#include "prof_formats.h"

#define CUPTI_TSV_HEADER "# occ-trace 1"
#define CUPTI_TSV_MAX_LINE (OCC_PROFILE_MAX_NAME_LENGTH * 2 + 1024)
#define CUPTI_TSV_KERNEL_FIELDS 28

/* Splits line at tabs in place; returns the field count (at most max). */
static int split(char *line, char **fields, int max)
{
    int n = 0;
    fields[n++] = line;
    for (char *p = line; *p && n < max; p++) {
        if (*p == '\t') {
            *p = '\0';
            fields[n++] = p + 1;
        }
    }
    return n;
}

/* Reads a line, without its '\n', into line (cap bytes): its length; -1 at
   the end of the file; -2 when it is longer than the buffer; -3 when it
   holds a NUL byte (gzgets would hide the rest of the line). */
static long read_line(gzFile f, char *line, size_t cap)
{
    size_t n = 0;
    bool nul = false;
    int c;
    while ((c = gzgetc(f)) != -1 && c != '\n') {
        if (n + 1 >= cap) {
            return -2;
        }
        nul = nul || c == 0;
        line[n++] = (char)c;
    }
    if (c == -1 && n == 0) {
        return -1;
    }
    line[n] = '\0';
    return nul ? -3 : (long)n;
}

static bool number(const char *text, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (end == text || *end || errno == ERANGE || v < lo || v > hi) {
        return false;
    }
    *out = v;
    return true;
}

/* The columns of a "K" line after the kind, in order (occ_trace_inject.c). */
enum {
    K_DEVICE = 1,
    K_CONTEXT,
    K_STREAM,
    K_CORRELATION,
    K_START,
    K_END,
    K_GRID_X,
    K_GRID_Y,
    K_GRID_Z,
    K_BLOCK_X,
    K_BLOCK_Y,
    K_BLOCK_Z,
    K_REGS,
    K_STATIC,
    K_DYN,
    K_LOCAL,
    K_EXECUTED,
    K_LIMIT_CONFIG,
    K_CARVEOUT,
    K_CLUSTER_X,
    K_CLUSTER_Y,
    K_CLUSTER_Z,
    K_POLICY,
    K_GRAPH,
    K_LAUNCH_TYPE,
    K_CACHE,
    K_NAME
};

typedef occ_status (*cupti_launch_fn)(void *context, const prof_launch *l, long long start_ns,
                                      long long stream, long long correlation,
                                      occ_profile_error *err);

typedef struct cupti_sink {
    cupti_launch_fn launch;
    occ_status (*device)(void *context, const prof_device *d, occ_profile_error *err);
    void *context;
} cupti_sink;

static occ_status read_cupti(const char *path, const cupti_sink *sink, long long *launches,
                             occ_profile_error *err)
{
    gzFile f = gzopen(path, "rb"); /* plain or gzipped */
    if (!f) {
        return prof_error(err, OCC_ERR_IO, path, 0, -1, "cannot open: %s", strerror(errno));
    }
    char *line = malloc(CUPTI_TSV_MAX_LINE);
    if (!line) {
        gzclose(f);
        return prof_error(err, OCC_ERR_OUT_OF_MEMORY, path, 0, -1, "out of memory");
    }
    occ_status st = OCC_OK;
    long long number_of_line = 0;
    bool ended = false;
    *launches = 0;
    long length;
    while (st == OCC_OK && (length = read_line(f, line, CUPTI_TSV_MAX_LINE)) != -1) {
        number_of_line++;
        if (length == -2) {
            st = prof_error(err, OCC_ERR_LIMIT, path, 0, number_of_line,
                            "line %lld: longer than %d bytes", number_of_line, CUPTI_TSV_MAX_LINE);
            break;
        }
        if (length == -3) {
            st = prof_error(err, OCC_ERR_BAD_FORMAT, path, 0, number_of_line,
                            "line %lld: a NUL byte: not the recorder's text", number_of_line);
            break;
        }
        if (number_of_line == 1) {
            if (strcmp(line, CUPTI_TSV_HEADER) != 0) {
                st = prof_error(err, OCC_ERR_BAD_FORMAT, path, 0, 1,
                                "line 1: not occ's CUPTI records (no '%s')", CUPTI_TSV_HEADER);
            }
            continue;
        }
        char *fields[CUPTI_TSV_KERNEL_FIELDS + 1];
        int n = split(line, fields, CUPTI_TSV_KERNEL_FIELDS + 1);
        if (strcmp(fields[0], "D") == 0 && n == 6) {
            long long d_values[6];
            static const long long d_max[6] = {0, 1 << 20, 0, 1 << 20, 99, 99};
            for (int i = 1; i < 6 && st == OCC_OK; i++) {
                if (i != 2 && !number(fields[i], 0, d_max[i], &d_values[i])) {
                    st = prof_error(err, OCC_ERR_BAD_FORMAT, path, 0, number_of_line,
                                    "line %lld: field %d '%.30s' of a device is not a whole "
                                    "number in 0..%lld",
                                    number_of_line, i + 1, fields[i], d_max[i]);
                }
            }
            if (st != OCC_OK) {
                break;
            }
            long long id = d_values[1], sms = d_values[3], major = d_values[4], minor = d_values[5];
            prof_device d = {(int)id, fields[2], (int)sms, (int)major, (int)minor};
            st = sink->device(sink->context, &d, err);
        } else if (strcmp(fields[0], "K") == 0 && n == CUPTI_TSV_KERNEL_FIELDS) {
            long long v[K_NAME];
            for (int i = 1; i < K_NAME; i++) {
                long long lo = i == K_CARVEOUT ? -1 : 0;
                /* a carveout is a percentage (cudaFuncAttributePreferredSharedMemoryCarveout) */
                long long hi = i == K_START || i == K_END ? INT64_MAX
                               : i == K_CARVEOUT          ? 100
                                                          : INT32_MAX;
                if (!number(fields[i], lo, hi, &v[i])) {
                    st = prof_error(err, OCC_ERR_BAD_FORMAT, path, 0, number_of_line,
                                    "line %lld: field %d '%.30s' is not a whole number in "
                                    "%lld..%lld",
                                    number_of_line, i + 1, fields[i], lo, hi);
                    break;
                }
            }
            if (st != OCC_OK) {
                break;
            }
            if (v[K_END] < v[K_START]) {
                st = prof_error(err, OCC_ERR_BAD_FORMAT, path, 0, number_of_line,
                                "line %lld: the launch ends before it starts", number_of_line);
                break;
            }
            prof_launch l = {0};
            l.name = l.mangled = fields[K_NAME];
            l.name_length = l.mangled_length = strlen(fields[K_NAME]);
            l.device = (int)v[K_DEVICE];
            for (int i = 0; i < 3; i++) {
                l.grid[i] = (int)v[K_GRID_X + i];
                l.block[i] = (int)v[K_BLOCK_X + i];
                l.cluster[i] = (int)v[K_CLUSTER_X + i];
            }
            /* a product of at most 1: none (dims up to 2^31 - 1 would overflow it) */
            const long long *c = &v[K_CLUSTER_X];
            if (c[0] == 0 || c[1] == 0 || c[2] == 0 || (c[0] <= 1 && c[1] <= 1 && c[2] <= 1)) {
                l.cluster[0] = l.cluster[1] = l.cluster[2] = 0;
            }
            l.cluster_known = true;
            l.regs_per_thread = (int)v[K_REGS];
            l.static_smem_bytes = (int)v[K_STATIC];
            l.dyn_smem_bytes = (int)v[K_DYN];
            l.smem_bytes =
                (int)(v[K_STATIC] + v[K_DYN] > INT32_MAX ? INT32_MAX : v[K_STATIC] + v[K_DYN]);
            l.local_bytes_per_thread = (int)v[K_LOCAL];
            l.smem_executed_bytes = (int)v[K_EXECUTED];
            l.cache_preference = (int)(v[K_CACHE] & 0xF);
            l.carveout_percent = (int)v[K_CARVEOUT];
            l.duration_us = (double)(v[K_END] - v[K_START]) / 1000.0;
            st = prof_launch_check(&l, path, 0, number_of_line, "line", err);
            if (st == OCC_OK) {
                st =
                    sink->launch(sink->context, &l, v[K_START], v[K_STREAM], v[K_CORRELATION], err);
            }
            (*launches)++;
        } else if (strcmp(fields[0], "E") == 0) {
            ended = true;
        } else {
            st = prof_error(err, OCC_ERR_BAD_FORMAT, path, 0, number_of_line,
                            "line %lld: not a D, K or E record of the expected width",
                            number_of_line);
        }
    }
    int code = Z_OK;
    const char *why = prof_gz_error(f, path, &code);
    if (st == OCC_OK && code != Z_OK && code != Z_STREAM_END) {
        st = prof_error(err, OCC_ERR_BAD_FORMAT, path, 0, number_of_line + 1,
                        "line %lld: cannot be read: %s (damaged or cut gzip data)",
                        number_of_line + 1, why);
    }
    if (st == OCC_OK && number_of_line == 0) {
        st = prof_error(err, OCC_ERR_BAD_FORMAT, path, 0, 1, "empty: no records");
    }
    if (st == OCC_OK && !ended) {
        st = prof_error(err, OCC_ERR_BAD_FORMAT, path, 0, number_of_line,
                        "no end record: the traced program did not exit normally, so CUPTI's "
                        "last buffers were never written");
    }
    free(line);
    gzclose(f);
    return st;
}

typedef struct convert_state {
    prof_sqlite_writer *writer;
} convert_state;

/* CUPTI names kernels as compiled: mangled C++ names become demangled,
   short (the name alone: no return type, scope, template arguments or
   parameters, as nsys's shortName) and mangled, as nsys writes them;
   extern "C" and Triton names are all three. The demangler is libiberty's,
   as in libocc-inspect. */
static const char *short_of(const char *demangled, char *buf, size_t cap)
{
    size_t end = strlen(demangled), depth = 0, start = 0;
    for (size_t i = 0; demangled[i]; i++) {
        char c = demangled[i];
        if (c == '<' || c == '(') {
            if (depth == 0 && (c == '(' || (i > 0 && demangled[i - 1] != ' '))) {
                end = i;
                break;
            }
            depth++;
        } else if ((c == '>' || c == ')') && depth > 0) {
            depth--;
        }
    }
    for (size_t i = 0; i + 1 < end; i++) {
        if (demangled[i] == ' ' || (demangled[i] == ':' && demangled[i + 1] == ':')) {
            start = demangled[i] == ' ' ? i + 1 : i + 2;
        }
    }
    size_t n = end > start ? end - start : 0;
    n = n < cap - 1 ? n : cap - 1;
    memcpy(buf, demangled + start, n);
    buf[n] = '\0';
    return n ? buf : demangled;
}

static occ_status convert_launch(void *context, const prof_launch *l, long long start_ns,
                                 long long stream, long long correlation, occ_profile_error *err)
{
    convert_state *c = context;
    char *demangled =
        strncmp(l->name, "_Z", 2) == 0 ? cplus_demangle(l->name, DMGL_PARAMS | DMGL_ANSI) : NULL;
    prof_launch named = *l;
    char short_name[512];
    if (demangled) {
        named.name = demangled;
        named.name_length = strlen(demangled);
    } else {
        named.mangled = NULL; /* not a C++ name: nothing was mangled */
    }
    occ_status st =
        prof_sqlite_writer_launch(c->writer, &named, start_ns, stream, correlation,
                                  short_of(named.name, short_name, sizeof short_name), err);
    free(demangled);
    return st;
}

static occ_status convert_device(void *context, const prof_device *d, occ_profile_error *err)
{
    convert_state *c = context;
    return prof_sqlite_writer_device(c->writer, d, err);
}

occ_status occ_profile_convert_cupti(const char *records_path, const char *sqlite_path,
                                     long long *launches, occ_profile_error *err)
{
    long long count = 0;
    if (!records_path || !sqlite_path) {
        return prof_error(err, OCC_ERR_NULL_POINTER, NULL, -1, -1, "both paths are required");
    }
    convert_state c = {NULL};
    occ_status st = prof_sqlite_writer_open(sqlite_path, &c.writer, err);
    if (st != OCC_OK) {
        return st;
    }
    const cupti_sink sink = {convert_launch, convert_device, &c};
    st = read_cupti(records_path, &sink, &count, err);
    occ_status closed = prof_sqlite_writer_close(c.writer, st == OCC_OK ? err : NULL);
    if (st == OCC_OK) {
        st = closed;
    }
    if (st != OCC_OK) {
        remove(sqlite_path);
    }
    if (launches) {
        *launches = count;
    }
    return st;
}
