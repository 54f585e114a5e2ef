/*
 * nsys_sqlite.c - Nsight Systems' SQLite export (`nsys export --type
 * sqlite`), read and written with SQLite itself.
 *
 * The schema is Nsight Systems' "SQLite Export Schema Reference": every
 * kernel launch is a row of CUPTI_ACTIVITY_KIND_KERNEL (CUPTI's
 * CUpti_ActivityKernel fields: start and end in ns, gridX..blockZ,
 * registersPerThread, staticSharedMemory, dynamicSharedMemory,
 * localMemoryPerThread, sharedMemoryExecuted, clusterX..Z, cacheConfig;
 * names as ids into StringIds: demangledName, shortName, mangledName), and
 * each GPU a row of TARGET_INFO_GPU (id, name, smCount, computeMajor,
 * computeMinor). Columns come and go between nsys versions (the cluster
 * columns arrived with Hopper), so the reader asks the table which it has,
 * needs only the launch configuration, and reads the rest where present.
 *
 * sharedMemoryCarveoutRequested is not in nsys's schema: it is CUPTI's
 * field of that name (the carveout a kernel requested, 0..100, NULL for
 * none), which occ's writer adds because the launch-time configuration
 * depends on it (cuDNN requests 100%); read where present.
 *
 * The writer creates the same tables for `occ lab trace`, whose databases
 * are written from CUPTI records by occ, not by nsys (META_DATA_EXPORT says
 * so in each).
 */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prof_formats.h"

/* The version of the tables the writer creates; the reader accepts any nsys
   version's that has the needed columns. */
#define NSYS_SQLITE_WRITER_VERSION "occ-nsys-sqlite 1"

enum {
    COL_START,
    COL_END,
    COL_DEVICE,
    COL_GRID_X,
    COL_GRID_Y,
    COL_GRID_Z,
    COL_BLOCK_X,
    COL_BLOCK_Y,
    COL_BLOCK_Z,
    COL_REGS,
    COL_STATIC,
    COL_DYN,
    COL_LOCAL,
    COL_EXECUTED,
    COL_CLUSTER_X,
    COL_CLUSTER_Y,
    COL_CLUSTER_Z,
    COL_CACHE,
    COL_CARVEOUT,
    COL_NAME,
    COL_MANGLED,
    COL_COUNT
};

/* The kernel table's columns occ reads, whether each is needed, and what it
   is called in messages. */
static const struct {
    const char *column;
    bool needed;
} kernel_columns[COL_COUNT - 2] = {
    [COL_START] = {"start", true},
    [COL_END] = {"end", true},
    [COL_DEVICE] = {"deviceId", false},
    [COL_GRID_X] = {"gridX", true},
    [COL_GRID_Y] = {"gridY", true},
    [COL_GRID_Z] = {"gridZ", true},
    [COL_BLOCK_X] = {"blockX", true},
    [COL_BLOCK_Y] = {"blockY", true},
    [COL_BLOCK_Z] = {"blockZ", true},
    [COL_REGS] = {"registersPerThread", true},
    [COL_STATIC] = {"staticSharedMemory", true},
    [COL_DYN] = {"dynamicSharedMemory", true},
    [COL_LOCAL] = {"localMemoryPerThread", false},
    [COL_EXECUTED] = {"sharedMemoryExecuted", false},
    [COL_CLUSTER_X] = {"clusterX", false},
    [COL_CLUSTER_Y] = {"clusterY", false},
    [COL_CLUSTER_Z] = {"clusterZ", false},
    [COL_CACHE] = {"cacheConfig", false},
    [COL_CARVEOUT] = {"sharedMemoryCarveoutRequested", false},
};

typedef struct reader {
    const char *path;
    int input;
    occ_profile_error *err;
    sqlite3 *db;
} reader;

static occ_status sql_error(reader *r, occ_status status, const char *what)
{
    return prof_error(r->err, status, r->path, r->input, -1, "%s: %s", what,
                      r->db ? sqlite3_errmsg(r->db) : "cannot open");
}

/* A column's value as text, for a message. */
static const char *text_of(sqlite3_stmt *st, int col)
{
    const char *text = (const char *)sqlite3_column_text(st, col);
    return text ? text : "";
}

/* The longest string or blob a query may return (SQLITE_LIMIT_LENGTH): a
   name is cut at OCC_PROFILE_MAX_NAME_LENGTH anyway. */
#define NSYS_SQLITE_MAX_VALUE_BYTES (OCC_PROFILE_MAX_NAME_LENGTH * 64)

/* A step of `table`'s query failed at `row` (counted from 1). */
static occ_status step_error(reader *r, const char *table, long long row)
{
    if (sqlite3_errcode(r->db) == SQLITE_TOOBIG) {
        return prof_error(r->err, OCC_ERR_LIMIT, r->path, r->input, row,
                          "%s row %lld: a value longer than %d bytes", table, row,
                          NSYS_SQLITE_MAX_VALUE_BYTES);
    }
    return prof_error(r->err, OCC_ERR_BAD_FORMAT, r->path, r->input, row, "%s row %lld: %s", table,
                      row, sqlite3_errmsg(r->db));
}

/* Whether the database has `table` (*found): OCC_OK, or the error when its
   schema cannot be read (not a database, damaged) or `table` is not a table
   (a view would run whatever SQL it holds). */
static occ_status table_exists(reader *r, const char *table, bool *found)
{
    *found = false;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(r->db, "SELECT type FROM sqlite_master WHERE name = ?", -1, &st, NULL) !=
        SQLITE_OK) {
        return prof_error(r->err, OCC_ERR_BAD_FORMAT, r->path, r->input, -1,
                          "cannot read the schema: %s", sqlite3_errmsg(r->db));
    }
    sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    occ_status status = OCC_OK;
    if (rc == SQLITE_ROW) {
        const char *type = (const char *)sqlite3_column_text(st, 0);
        if (type && strcmp(type, "table") == 0) {
            *found = true;
        } else {
            status = prof_error(r->err, OCC_ERR_BAD_FORMAT, r->path, r->input, -1,
                                "%s is a %.20s, not a table", table, type ? type : "NULL");
        }
    } else if (rc != SQLITE_DONE) {
        status = prof_error(r->err, OCC_ERR_BAD_FORMAT, r->path, r->input, -1,
                            "cannot read the schema: %s", sqlite3_errmsg(r->db));
    }
    sqlite3_finalize(st);
    return status;
}

/* Which of `names` the table has (present[i]). */
static occ_status table_columns(reader *r, const char *table, const char *const *names, int count,
                                bool *present)
{
    char sql[128];
    snprintf(sql, sizeof sql, "PRAGMA table_info(%s)", table);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(r->db, sql, -1, &st, NULL) != SQLITE_OK) {
        return sql_error(r, OCC_ERR_BAD_FORMAT, table);
    }
    memset(present, 0, (size_t)count * sizeof *present);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 1);
        for (int i = 0; name && i < count; i++) {
            if (names[i] && strcmp(name, names[i]) == 0) {
                present[i] = true;
            }
        }
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? OCC_OK : sql_error(r, OCC_ERR_BAD_FORMAT, table);
}

/* An integer of TARGET_INFO_GPU, or NULL where `nullable`; false, with the
   error set, otherwise. */
static bool device_int(reader *r, sqlite3_stmt *st, int col, long long row, bool nullable,
                       long long lo, long long hi, long long *out)
{
    static const char *const names[] = {"id", "name", "smCount", "computeMajor", "computeMinor"};
    int type = sqlite3_column_type(st, col);
    if (type == SQLITE_NULL && nullable) {
        *out = -1;
        return true;
    }
    if (type == SQLITE_NULL) {
        prof_error(r->err, OCC_ERR_BAD_FORMAT, r->path, r->input, row,
                   "TARGET_INFO_GPU row %lld: %s is NULL", row, names[col]);
        return false;
    }
    if (type != SQLITE_INTEGER) {
        prof_error(r->err, OCC_ERR_BAD_FORMAT, r->path, r->input, row,
                   "TARGET_INFO_GPU row %lld: %s '%.40s' is not an integer", row, names[col],
                   text_of(st, col));
        return false;
    }
    *out = sqlite3_column_int64(st, col);
    if (*out < lo || *out > hi) {
        prof_error(r->err, OCC_ERR_BAD_FORMAT, r->path, r->input, row,
                   "TARGET_INFO_GPU row %lld: %s %lld is outside %lld..%lld", row, names[col], *out,
                   lo, hi);
        return false;
    }
    return true;
}

static occ_status read_devices(reader *r, const prof_sink *sink)
{
    bool found;
    occ_status s = table_exists(r, "TARGET_INFO_GPU", &found);
    if (s != OCC_OK || !found) {
        return s;
    }
    static const char *const names[] = {"id", "name", "smCount", "computeMajor", "computeMinor"};
    bool present[5];
    s = table_columns(r, "TARGET_INFO_GPU", names, 5, present);
    if (s != OCC_OK) {
        return s;
    }
    if (!present[0]) {
        return OCC_OK;
    }
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT id, %s, %s, %s, %s FROM TARGET_INFO_GPU",
             present[1] ? "name" : "NULL", present[2] ? "smCount" : "NULL",
             present[3] ? "computeMajor" : "NULL", present[4] ? "computeMinor" : "NULL");
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(r->db, sql, -1, &st, NULL) != SQLITE_OK) {
        return sql_error(r, OCC_ERR_BAD_FORMAT, "TARGET_INFO_GPU");
    }
    int rc;
    long long row = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        row++;
        prof_device d = {.cc_major = -1, .cc_minor = -1, .name = ""};
        long long id, sms, major, minor;
        if (!device_int(r, st, 0, row, false, 0, 1 << 20, &id) ||
            !device_int(r, st, 2, row, true, 0, 1 << 20, &sms) ||
            !device_int(r, st, 3, row, true, 0, 99, &major) ||
            !device_int(r, st, 4, row, true, 0, 99, &minor)) {
            sqlite3_finalize(st);
            return OCC_ERR_BAD_FORMAT;
        }
        d.id = (int)id;
        d.sm_count = sms < 0 ? 0 : (int)sms;
        if (sqlite3_column_type(st, 1) == SQLITE_TEXT) {
            d.name = (const char *)sqlite3_column_text(st, 1);
        }
        if (major >= 0 && minor >= 0) {
            d.cc_major = (int)major;
            d.cc_minor = (int)minor;
        }
        s = prof_error_place(r->err, sink->device(sink->context, &d, r->err), r->path, row,
                             "TARGET_INFO_GPU row");
        if (s != OCC_OK) {
            sqlite3_finalize(st);
            return s;
        }
    }
    s = rc == SQLITE_DONE ? OCC_OK : step_error(r, "TARGET_INFO_GPU", row + 1);
    sqlite3_finalize(st);
    return s;
}

/* An integer column of the row, in [lo, hi]; a missing column (NULL) gives
   `absent`. */
static bool int_column(reader *r, sqlite3_stmt *st, int col, long long row, long long lo,
                       long long hi, long long absent, long long *out)
{
    int type = sqlite3_column_type(st, col);
    if (type == SQLITE_NULL) {
        *out = absent;
        return true;
    }
    if (type != SQLITE_INTEGER) {
        prof_error(r->err, OCC_ERR_BAD_FORMAT, r->path, r->input, row,
                   "CUPTI_ACTIVITY_KIND_KERNEL row %lld: %s '%.40s' is not an integer", row,
                   kernel_columns[col].column, text_of(st, col));
        return false;
    }
    long long v = sqlite3_column_int64(st, col);
    if (v < lo || v > hi) {
        prof_error(r->err, OCC_ERR_BAD_FORMAT, r->path, r->input, row,
                   "CUPTI_ACTIVITY_KIND_KERNEL row %lld: %s %lld is outside %lld..%lld", row,
                   kernel_columns[col].column, v, lo, hi);
        return false;
    }
    *out = v;
    return true;
}

/* The names of StringIds ids already seen: a kernel table of a million
   rows names a few thousand kernels, and one look-up each is far cheaper
   than a join per row. Bounded by OCC_PROFILE_MAX_NAME_BYTES. */
typedef struct name_cache {
    long long *ids;
    char **texts;
    size_t *lengths;
    size_t cap, count, bytes;
    sqlite3_stmt *lookup;
} name_cache;

static void name_cache_free(name_cache *c)
{
    for (size_t i = 0; i < c->cap; i++) {
        if (c->texts && c->texts[i]) {
            free(c->texts[i]);
        }
    }
    free(c->ids);
    free(c->texts);
    free(c->lengths);
    sqlite3_finalize(c->lookup);
}

static occ_status cache_grow(reader *r, name_cache *c)
{
    size_t cap = c->cap ? c->cap * 2 : 1024;
    long long *ids = calloc(cap, sizeof *ids);
    char **texts = calloc(cap, sizeof *texts);
    size_t *lengths = calloc(cap, sizeof *lengths);
    if (!ids || !texts || !lengths) {
        free(ids);
        free(texts);
        free(lengths);
        return prof_error(r->err, OCC_ERR_OUT_OF_MEMORY, r->path, r->input, -1, "out of memory");
    }
    for (size_t i = 0; i < c->cap; i++) {
        if (c->texts[i]) {
            size_t at = (size_t)c->ids[i] * 0x9e3779b97f4a7c15ULL & (cap - 1);
            while (texts[at]) {
                at = (at + 1) & (cap - 1);
            }
            ids[at] = c->ids[i];
            texts[at] = c->texts[i];
            lengths[at] = c->lengths[i];
        }
    }
    free(c->ids);
    free(c->texts);
    free(c->lengths);
    c->ids = ids;
    c->texts = texts;
    c->lengths = lengths;
    c->cap = cap;
    return OCC_OK;
}

/* The text of a name column of the row: its StringIds value, or the
   column's own text; NULL for NULL. */
static occ_status name_of(reader *r, name_cache *c, bool strings, sqlite3_stmt *row, int col,
                          long long row_number, const char **text, size_t *length)
{
    *text = NULL;
    *length = 0;
    int type = sqlite3_column_type(row, col);
    if (type == SQLITE_NULL) {
        return OCC_OK;
    }
    if (type != SQLITE_INTEGER) {
        *text = (const char *)sqlite3_column_text(row, col);
        *length = *text ? (size_t)sqlite3_column_bytes(row, col) : 0;
        return OCC_OK;
    }
    long long id = sqlite3_column_int64(row, col);
    if (!strings) {
        return prof_error(r->err, OCC_ERR_BAD_FORMAT, r->path, r->input, row_number,
                          "CUPTI_ACTIVITY_KIND_KERNEL row %lld: %s is the id %lld, but the "
                          "database has no StringIds table",
                          row_number, sqlite3_column_name(row, col), id);
    }
    if (c->count * 2 >= c->cap) {
        occ_status st = cache_grow(r, c);
        if (st != OCC_OK) {
            return st;
        }
    }
    size_t at = (size_t)id * 0x9e3779b97f4a7c15ULL & (c->cap - 1);
    while (c->texts[at]) {
        if (c->ids[at] == id) {
            *text = c->texts[at];
            *length = c->lengths[at];
            return OCC_OK;
        }
        at = (at + 1) & (c->cap - 1);
    }
    if (!c->lookup && sqlite3_prepare_v2(r->db, "SELECT value FROM StringIds WHERE id = ?", -1,
                                         &c->lookup, NULL) != SQLITE_OK) {
        return sql_error(r, OCC_ERR_BAD_FORMAT, "StringIds (id, value)");
    }
    sqlite3_reset(c->lookup);
    sqlite3_bind_int64(c->lookup, 1, id);
    int rc = sqlite3_step(c->lookup);
    if (rc == SQLITE_DONE) {
        return prof_error(r->err, OCC_ERR_BAD_FORMAT, r->path, r->input, row_number,
                          "CUPTI_ACTIVITY_KIND_KERNEL row %lld: %s %lld is no id of StringIds",
                          row_number, sqlite3_column_name(row, col), id);
    }
    if (rc != SQLITE_ROW) {
        return step_error(r, "CUPTI_ACTIVITY_KIND_KERNEL", row_number);
    }
    const unsigned char *value = sqlite3_column_text(c->lookup, 0);
    size_t n = value ? (size_t)sqlite3_column_bytes(c->lookup, 0) : 0;
    if (c->bytes + n + 1 > OCC_PROFILE_MAX_NAME_BYTES) {
        return prof_error(r->err, OCC_ERR_LIMIT, r->path, r->input, row_number,
                          "CUPTI_ACTIVITY_KIND_KERNEL row %lld: more than %zu MB of distinct "
                          "kernel names",
                          row_number, OCC_PROFILE_MAX_NAME_BYTES >> 20);
    }
    char *copy = malloc(n + 1);
    if (!copy) {
        return prof_error(r->err, OCC_ERR_OUT_OF_MEMORY, r->path, r->input, -1, "out of memory");
    }
    if (n) {
        memcpy(copy, value, n);
    }
    copy[n] = '\0';
    c->ids[at] = id;
    c->texts[at] = copy;
    c->lengths[at] = n;
    c->count++;
    c->bytes += n + 1;
    *text = copy;
    *length = n;
    return OCC_OK;
}

static occ_status read_kernels(reader *r, const prof_sink *sink)
{
    static const char *names[COL_COUNT + 1];
    for (int i = 0; i < COL_COUNT - 2; i++) {
        names[i] = kernel_columns[i].column;
    }
    names[COL_NAME] = "demangledName";
    names[COL_MANGLED] = "mangledName";
    names[COL_COUNT] = "shortName";
    bool present[COL_COUNT + 1];
    occ_status s = table_columns(r, "CUPTI_ACTIVITY_KIND_KERNEL", names, COL_COUNT + 1, present);
    if (s != OCC_OK) {
        return s;
    }
    for (int i = 0; i < COL_COUNT - 2; i++) {
        if (kernel_columns[i].needed && !present[i]) {
            return prof_error(r->err, OCC_ERR_BAD_FORMAT, r->path, r->input, -1,
                              "CUPTI_ACTIVITY_KIND_KERNEL has no column %s",
                              kernel_columns[i].column);
        }
    }
    const char *name_column = present[COL_NAME]    ? "demangledName"
                              : present[COL_COUNT] ? "shortName"
                                                   : NULL;
    if (!name_column) {
        return prof_error(r->err, OCC_ERR_BAD_FORMAT, r->path, r->input, -1,
                          "CUPTI_ACTIVITY_KIND_KERNEL has no column demangledName or shortName");
    }
    bool strings;
    s = table_exists(r, "StringIds", &strings);
    if (s != OCC_OK) {
        return s;
    }
    char sql[2048];
    size_t n = (size_t)snprintf(sql, sizeof sql, "SELECT ");
    for (int i = 0; i < COL_COUNT - 2; i++) {
        n += (size_t)snprintf(sql + n, sizeof sql - n, "%s%s%s", present[i] ? "k.\"" : "NULL",
                              present[i] ? names[i] : "", present[i] ? "\", " : ", ");
    }
    /* names are ids into StringIds, looked up once each (name_of); a text
       value (some writers) is taken as it is */
    n += (size_t)snprintf(sql + n, sizeof sql - n, "k.%s, %s FROM CUPTI_ACTIVITY_KIND_KERNEL k",
                          name_column, present[COL_MANGLED] ? "k.mangledName" : "NULL");
    /* no ORDER BY: grouping does not depend on the order, and sorting a
       million rows costs more than reading them */
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(r->db, sql, -1, &st, NULL) != SQLITE_OK) {
        return sql_error(r, OCC_ERR_BAD_FORMAT, "CUPTI_ACTIVITY_KIND_KERNEL");
    }
    int rc;
    long long row = 0;
    s = OCC_OK;
    name_cache names_cache = {0};
    while (s == OCC_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        row++;
        long long v[COL_COUNT - 2];
        static const long long hi[COL_COUNT - 2] = {
            [COL_START] = INT64_MAX,     [COL_END] = INT64_MAX,       [COL_DEVICE] = 1 << 20,
            [COL_GRID_X] = INT32_MAX,    [COL_GRID_Y] = INT32_MAX,    [COL_GRID_Z] = INT32_MAX,
            [COL_BLOCK_X] = INT32_MAX,   [COL_BLOCK_Y] = INT32_MAX,   [COL_BLOCK_Z] = INT32_MAX,
            [COL_REGS] = 65535,          [COL_STATIC] = INT32_MAX,    [COL_DYN] = INT32_MAX,
            [COL_LOCAL] = INT32_MAX,     [COL_EXECUTED] = INT32_MAX,  [COL_CLUSTER_X] = INT32_MAX,
            [COL_CLUSTER_Y] = INT32_MAX, [COL_CLUSTER_Z] = INT32_MAX, [COL_CACHE] = 255,
            [COL_CARVEOUT] = 100,
        };
        for (int i = 0; i < COL_COUNT - 2; i++) {
            long long absent =
                i == COL_DEVICE || i == COL_CLUSTER_X || i == COL_CLUSTER_Y || i == COL_CLUSTER_Z
                    ? 0
                    : -1;
            if (kernel_columns[i].needed && sqlite3_column_type(st, i) == SQLITE_NULL) {
                s = prof_error(r->err, OCC_ERR_BAD_FORMAT, r->path, r->input, row,
                               "CUPTI_ACTIVITY_KIND_KERNEL row %lld: %s is NULL", row,
                               kernel_columns[i].column);
                break;
            }
            if (!int_column(r, st, i, row, 0, hi[i], absent, &v[i])) {
                s = OCC_ERR_BAD_FORMAT;
                break;
            }
        }
        if (s != OCC_OK) {
            break;
        }
        if (v[COL_END] < v[COL_START]) {
            s = prof_error(r->err, OCC_ERR_BAD_FORMAT, r->path, r->input, row,
                           "CUPTI_ACTIVITY_KIND_KERNEL row %lld: end %lld is before start %lld",
                           row, v[COL_END], v[COL_START]);
            break;
        }
        prof_launch l = {0};
        s = name_of(r, &names_cache, strings, st, COL_NAME, row, &l.name, &l.name_length);
        if (s == OCC_OK) {
            s = name_of(r, &names_cache, strings, st, COL_MANGLED, row, &l.mangled,
                        &l.mangled_length);
        }
        if (s != OCC_OK) {
            break;
        }
        if (!l.name) {
            s = prof_error(r->err, OCC_ERR_BAD_FORMAT, r->path, r->input, row,
                           "CUPTI_ACTIVITY_KIND_KERNEL row %lld: %s is NULL", row, name_column);
            break;
        }
        l.device = (int)v[COL_DEVICE];
        for (int i = 0; i < 3; i++) {
            l.grid[i] = (int)v[COL_GRID_X + i];
            l.block[i] = (int)v[COL_BLOCK_X + i];
            l.cluster[i] = (int)v[COL_CLUSTER_X + i];
        }
        l.cluster_known = present[COL_CLUSTER_X];
        /* CUPTI writes 1,1,1 for a launch without clusters on some drivers: a
           product of at most 1 (each dim >= 0; multiplied, dims up to 2^31 - 1
           would overflow) */
        const long long *c = &v[COL_CLUSTER_X];
        if (c[0] == 0 || c[1] == 0 || c[2] == 0 || (c[0] <= 1 && c[1] <= 1 && c[2] <= 1)) {
            l.cluster[0] = l.cluster[1] = l.cluster[2] = 0;
        }
        l.regs_per_thread = (int)v[COL_REGS];
        l.static_smem_bytes = (int)v[COL_STATIC];
        l.dyn_smem_bytes = (int)v[COL_DYN];
        l.smem_bytes =
            (int)(v[COL_STATIC] + v[COL_DYN] > INT32_MAX ? INT32_MAX : v[COL_STATIC] + v[COL_DYN]);
        l.local_bytes_per_thread = (int)v[COL_LOCAL];
        l.smem_executed_bytes = (int)v[COL_EXECUTED];
        l.cache_preference = v[COL_CACHE] < 0 ? -1 : (int)(v[COL_CACHE] & 0xF);
        l.carveout_percent = (int)v[COL_CARVEOUT];
        l.duration_us = (double)(v[COL_END] - v[COL_START]) / 1000.0;
        s = prof_launch_check(&l, r->path, r->input, row, "CUPTI_ACTIVITY_KIND_KERNEL row", r->err);
        if (s == OCC_OK) {
            s = prof_error_place(r->err, sink->launch(sink->context, &l, r->err), r->path, row,
                                 "CUPTI_ACTIVITY_KIND_KERNEL row");
        }
    }
    if (s == OCC_OK && rc != SQLITE_DONE) {
        s = step_error(r, "CUPTI_ACTIVITY_KIND_KERNEL", row + 1);
    }
    sqlite3_finalize(st);
    name_cache_free(&names_cache);
    return s;
}

/* Room for a trace's path as an SQLite URI: each byte may become three. */
#define NSYS_SQLITE_MAX_URI_BYTES (3 * 4096 + 32)

/* Whether PATH-wal exists. */
static bool wal_beside(const char *path)
{
    char wal[4096 + 8];
    if (snprintf(wal, sizeof wal, "%s-wal", path) >= (int)sizeof wal) {
        return true; /* too long to tell: the plain open */
    }
    return access(wal, F_OK) == 0;
}

/* "file:PATH?immutable=1", PATH percent-encoded but for letters, digits,
   "-._~" and '/' (a second leading '/' too, which would begin an authority);
   false when it does not fit. */
static bool immutable_uri(const char *path, char *uri, size_t cap)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t o = 0;
    const char *head = "file:";
    for (const char *h = head; *h; h++) {
        uri[o++] = *h;
    }
    for (size_t i = 0; path[i]; i++) {
        unsigned char c = (unsigned char)path[i];
        bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                     c == '-' || c == '.' || c == '_' || c == '~' || (c == '/' && i != 1);
        if (o + 4 + sizeof "?immutable=1" > cap) {
            return false;
        }
        if (plain) {
            uri[o++] = (char)c;
        } else {
            uri[o++] = '%';
            uri[o++] = hex[c >> 4];
            uri[o++] = hex[c & 15];
        }
    }
    memcpy(uri + o, "?immutable=1", sizeof "?immutable=1");
    return true;
}

occ_status prof_read_nsys_sqlite(const char *path, int input, const prof_sink *sink,
                                 occ_profile_error *err)
{
    reader r = {path, input, err, NULL};
    /* Opened immutable (no locks, no -wal or -shm file beside the trace,
       even for a database in WAL mode), unless a -wal file is there: it may
       hold rows not yet in the database, which only a normal read-only open
       sees. */
    char uri[NSYS_SQLITE_MAX_URI_BYTES];
    bool immutable = !wal_beside(path) && immutable_uri(path, uri, sizeof uri);
    if (sqlite3_open_v2(immutable ? uri : path, &r.db,
                        SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX |
                            (immutable ? SQLITE_OPEN_URI : 0),
                        NULL) != SQLITE_OK) {
        occ_status st = sql_error(&r, OCC_ERR_IO, "cannot open");
        sqlite3_close(r.db);
        return st;
    }
    /* a damaged database must fail, not loop: bound what a query may touch */
    sqlite3_limit(r.db, SQLITE_LIMIT_LENGTH, NSYS_SQLITE_MAX_VALUE_BYTES);
    sqlite3_exec(r.db, "PRAGMA cache_size=-8192", NULL, NULL, NULL); /* 8 MB */
    /* pages through a map of up to 64 MB rather than a read() each */
    sqlite3_exec(r.db, "PRAGMA mmap_size=67108864", NULL, NULL, NULL);
    bool kernels = false, strings = false, gpus = false;
    occ_status st = table_exists(&r, "CUPTI_ACTIVITY_KIND_KERNEL", &kernels);
    if (st == OCC_OK && !kernels) {
        st = table_exists(&r, "StringIds", &strings);
    }
    if (st == OCC_OK && !kernels) {
        st = table_exists(&r, "TARGET_INFO_GPU", &gpus);
    }
    if (st != OCC_OK) {
        /* the error is set */
    } else if (!kernels) {
        /* nsys creates tables lazily: an export of a run without kernels
           has none; anything else is not an export */
        if (!strings && !gpus) {
            st = prof_error(err, OCC_ERR_BAD_FORMAT, path, input, -1,
                            "an SQLite database, but not an Nsight Systems export (no "
                            "CUPTI_ACTIVITY_KIND_KERNEL, StringIds or TARGET_INFO_GPU table)");
        } else {
            st = read_devices(&r, sink);
        }
    } else {
        st = read_devices(&r, sink);
        if (st == OCC_OK) {
            st = read_kernels(&r, sink);
        }
    }
    sqlite3_close(r.db);
    return st;
}

/* ------------------------------------------------------------------------ */
/* The writer                                                               */
/* ------------------------------------------------------------------------ */

struct prof_sqlite_writer {
    const char *path;
    sqlite3 *db;
    sqlite3_stmt *string_find;
    sqlite3_stmt *string_add;
    sqlite3_stmt *kernel_add;
    sqlite3_stmt *device_add;
    long long next_string;
};

static const char writer_schema[] =
    "CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE META_DATA_EXPORT (name TEXT NOT NULL, value TEXT NOT NULL);"
    "CREATE TABLE TARGET_INFO_GPU (id INTEGER NOT NULL, name TEXT, smCount INTEGER,"
    " computeMajor INTEGER, computeMinor INTEGER);"
    "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL,"
    " deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER,"
    " streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,"
    " demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL, mangledName INTEGER,"
    " launchType INTEGER, cacheConfig INTEGER, registersPerThread INTEGER NOT NULL,"
    " gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL,"
    " blockX INTEGER NOT NULL, blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL,"
    " staticSharedMemory INTEGER NOT NULL, dynamicSharedMemory INTEGER NOT NULL,"
    " localMemoryPerThread INTEGER NOT NULL, localMemoryTotal INTEGER NOT NULL,"
    " gridId INTEGER NOT NULL, sharedMemoryExecuted INTEGER, graphNodeId INTEGER,"
    " sharedMemoryLimitConfig INTEGER, graphId INTEGER, clusterX INTEGER, clusterY INTEGER,"
    " clusterZ INTEGER, clusterSchedulingPolicy INTEGER, sharedMemoryCarveoutRequested INTEGER);";

static occ_status writer_error(prof_sqlite_writer *w, occ_profile_error *err, const char *what)
{
    return prof_error(err, OCC_ERR_IO, w->path, -1, -1, "%s: %s", what,
                      w->db ? sqlite3_errmsg(w->db) : "cannot open");
}

occ_status prof_sqlite_writer_open(const char *path, prof_sqlite_writer **out,
                                   occ_profile_error *err)
{
    *out = NULL;
    prof_sqlite_writer *w = calloc(1, sizeof *w);
    if (!w) {
        return prof_error(err, OCC_ERR_OUT_OF_MEMORY, path, -1, -1, "out of memory");
    }
    w->path = path;
    w->next_string = 1;
    remove(path);
    occ_status st = OCC_OK;
    if (sqlite3_open_v2(path, &w->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
            SQLITE_OK ||
        sqlite3_exec(w->db, writer_schema, NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_exec(w->db,
                     "INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_PRODUCT', 'occ lab trace: "
                     "CUPTI activity records written in Nsight Systems'' SQLite schema, not by "
                     "Nsight Systems'), ('OCC_WRITER_VERSION', '" NSYS_SQLITE_WRITER_VERSION "');"
                     "BEGIN",
                     NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(w->db, "SELECT id FROM StringIds WHERE value = ?", -1, &w->string_find,
                           NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(w->db, "INSERT INTO StringIds VALUES (?, ?)", -1, &w->string_add,
                           NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(w->db, "INSERT INTO TARGET_INFO_GPU VALUES (?, ?, ?, ?, ?)", -1,
                           &w->device_add, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(
            w->db,
            "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (?1, ?2, ?3, 0, NULL, "
            "?4, ?5, NULL, ?6, ?7, ?8, NULL, ?9, ?10, ?11, ?12, ?13, ?14, ?15, "
            "?16, ?17, ?18, ?19, 0, 0, ?20, NULL, NULL, NULL, ?21, ?22, ?23, 0, ?24)",
            -1, &w->kernel_add, NULL) != SQLITE_OK) {
        st = writer_error(w, err, "cannot create the database");
    }
    if (st != OCC_OK) {
        prof_sqlite_writer_close(w, NULL);
        return st;
    }
    /* StringIds is searched by value for every name: an index keeps it fast */
    sqlite3_exec(w->db, "CREATE INDEX occ_string_values ON StringIds(value)", NULL, NULL, NULL);
    *out = w;
    return OCC_OK;
}

static occ_status string_id(prof_sqlite_writer *w, const char *text, size_t length, long long *out,
                            occ_profile_error *err)
{
    sqlite3_reset(w->string_find);
    sqlite3_bind_text(w->string_find, 1, text, (int)length, SQLITE_STATIC);
    if (sqlite3_step(w->string_find) == SQLITE_ROW) {
        *out = sqlite3_column_int64(w->string_find, 0);
        return OCC_OK;
    }
    sqlite3_reset(w->string_add);
    sqlite3_bind_int64(w->string_add, 1, w->next_string);
    sqlite3_bind_text(w->string_add, 2, text, (int)length, SQLITE_STATIC);
    if (sqlite3_step(w->string_add) != SQLITE_DONE) {
        return writer_error(w, err, "StringIds");
    }
    *out = w->next_string++;
    return OCC_OK;
}

occ_status prof_sqlite_writer_device(prof_sqlite_writer *w, const prof_device *d,
                                     occ_profile_error *err)
{
    sqlite3_reset(w->device_add);
    sqlite3_bind_int(w->device_add, 1, d->id);
    sqlite3_bind_text(w->device_add, 2, d->name ? d->name : "", -1, SQLITE_STATIC);
    sqlite3_bind_int(w->device_add, 3, d->sm_count);
    sqlite3_bind_int(w->device_add, 4, d->cc_major);
    sqlite3_bind_int(w->device_add, 5, d->cc_minor);
    return sqlite3_step(w->device_add) == SQLITE_DONE ? OCC_OK
                                                      : writer_error(w, err, "TARGET_INFO_GPU");
}

occ_status prof_sqlite_writer_launch(prof_sqlite_writer *w, const prof_launch *l,
                                     long long start_ns, long long stream, long long correlation,
                                     const char *short_name, occ_profile_error *err)
{
    long long name_id, short_id, mangled_id = 0;
    occ_status st = string_id(w, l->name, l->name_length, &name_id, err);
    if (st == OCC_OK) {
        st = string_id(w, short_name, strlen(short_name), &short_id, err);
    }
    if (st == OCC_OK && l->mangled) {
        st = string_id(w, l->mangled, l->mangled_length, &mangled_id, err);
    }
    if (st != OCC_OK) {
        return st;
    }
    sqlite3_stmt *k = w->kernel_add;
    sqlite3_reset(k);
    sqlite3_bind_int64(k, 1, start_ns);
    sqlite3_bind_int64(k, 2, start_ns + (long long)(l->duration_us * 1000.0 + 0.5));
    sqlite3_bind_int(k, 3, l->device);
    sqlite3_bind_int64(k, 4, stream);
    sqlite3_bind_int64(k, 5, correlation);
    sqlite3_bind_int64(k, 6, name_id);
    sqlite3_bind_int64(k, 7, short_id);
    if (l->mangled) {
        sqlite3_bind_int64(k, 8, mangled_id);
    } else {
        sqlite3_bind_null(k, 8);
    }
    if (l->cache_preference >= 0) {
        sqlite3_bind_int(k, 9, l->cache_preference);
    } else {
        sqlite3_bind_null(k, 9);
    }
    sqlite3_bind_int(k, 10, l->regs_per_thread);
    for (int i = 0; i < 3; i++) {
        sqlite3_bind_int(k, 11 + i, l->grid[i]);
        sqlite3_bind_int(k, 14 + i, l->block[i]);
        sqlite3_bind_int(k, 21 + i, l->cluster[i]);
    }
    sqlite3_bind_int(k, 17, l->static_smem_bytes < 0 ? 0 : l->static_smem_bytes);
    sqlite3_bind_int(k, 18, l->dyn_smem_bytes < 0 ? 0 : l->dyn_smem_bytes);
    sqlite3_bind_int(k, 19, l->local_bytes_per_thread < 0 ? 0 : l->local_bytes_per_thread);
    if (l->carveout_percent >= 0) {
        sqlite3_bind_int(k, 24, l->carveout_percent);
    } else {
        sqlite3_bind_null(k, 24);
    }
    if (l->smem_executed_bytes >= 0) {
        sqlite3_bind_int(k, 20, l->smem_executed_bytes);
    } else {
        sqlite3_bind_null(k, 20);
    }
    return sqlite3_step(k) == SQLITE_DONE ? OCC_OK
                                          : writer_error(w, err, "CUPTI_ACTIVITY_KIND_KERNEL");
}

occ_status prof_sqlite_writer_close(prof_sqlite_writer *w, occ_profile_error *err)
{
    occ_status st = OCC_OK;
    sqlite3_finalize(w->string_find);
    sqlite3_finalize(w->string_add);
    sqlite3_finalize(w->kernel_add);
    sqlite3_finalize(w->device_add);
    if (w->db && err && sqlite3_exec(w->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        st = writer_error(w, err, "commit");
    }
    sqlite3_close(w->db);
    free(w);
    return st;
}
