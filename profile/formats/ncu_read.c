/*
 * ncu_read.c - Nsight Compute's CSV exports, either page, as launches:
 * streamed through the bounded CSV reader (csv.h), one launch in memory at a
 * time.
 *
 * The raw page (--page raw) has a header of metric names, a units row, and a
 * row per launch. The details page (--page details) has a row per metric per
 * launch, the launch's rows together, with "Metric Name", "Metric Unit" and
 * "Metric Value" columns (and rows of rule results, whose metric name is
 * empty). Both begin with the same columns: ID, Kernel Name, ..., Block Size,
 * Grid Size, Device, CC. Every bad record stops the reading with one line.
 *
 * What comes before the header (the application's own output, when ncu's
 * was redirected with it) is skipped line by line; values no launch can have
 * (an occupancy above 100%, 0 SMs, a cluster of 17 blocks, a metric given
 * twice) are refused where they are read.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "message_fit.h"
#include "prof_ncu.h"

/* The numbers occ reads, where each page has them (docs/ncu.md lists them).
   The details page of LaunchStats and Occupancy has no barrier count, no
   cluster shape (only its size) and no duration (that is in the GPU Speed
   Of Light section, whose "Duration" occ reads when it is there). */
static const ncu_field_info fields[OCC_PROFILE_NCU_FIELD_COUNT] = {
    [OCC_PROFILE_NCU_BLOCK_SIZE] = {"launch__block_size", "Block Size", NCU_KIND_COUNT, true,
                                    "thread", "block size"},
    [OCC_PROFILE_NCU_GRID_SIZE] = {"launch__grid_size", "Grid Size", NCU_KIND_COUNT, true, "block",
                                   "grid size"},
    [OCC_PROFILE_NCU_REGS] = {"launch__registers_per_thread", "Registers Per Thread",
                              NCU_KIND_COUNT, true, "register/thread|register",
                              "registers per thread"},
    [OCC_PROFILE_NCU_STATIC_SMEM] = {"launch__shared_mem_per_block_static",
                                     "Static Shared Memory Per Block", NCU_KIND_BYTES, true, NULL,
                                     "static shared memory"},
    [OCC_PROFILE_NCU_DYN_SMEM] = {"launch__shared_mem_per_block_dynamic",
                                  "Dynamic Shared Memory Per Block", NCU_KIND_BYTES, true, NULL,
                                  "dynamic shared memory"},
    [OCC_PROFILE_NCU_DRIVER_SMEM] = {"launch__shared_mem_per_block_driver",
                                     "Driver Shared Memory Per Block", NCU_KIND_BYTES, false, NULL,
                                     "driver's shared memory"},
    [OCC_PROFILE_NCU_SMEM_CONFIG] = {"launch__shared_mem_config_size",
                                     "Shared Memory Configuration Size", NCU_KIND_BYTES, true, NULL,
                                     "shared memory configuration"},
    [OCC_PROFILE_NCU_BARRIERS] = {"launch__barrier_count", NULL, NCU_KIND_COUNT, false, "barrier",
                                  "barrier count"},
    [OCC_PROFILE_NCU_CLUSTER_X] = {"launch__cluster_dim_x", NULL, NCU_KIND_COUNT, false, "block",
                                   "cluster dimension x"},
    [OCC_PROFILE_NCU_CLUSTER_Y] = {"launch__cluster_dim_y", NULL, NCU_KIND_COUNT, false, "block",
                                   "cluster dimension y"},
    [OCC_PROFILE_NCU_CLUSTER_Z] = {"launch__cluster_dim_z", NULL, NCU_KIND_COUNT, false, "block",
                                   "cluster dimension z"},
    [OCC_PROFILE_NCU_CLUSTER_SIZE] = {"launch__cluster_size", "Cluster Size", NCU_KIND_COUNT, false,
                                      "block", "cluster size"},
    [OCC_PROFILE_NCU_MAX_ACTIVE_CLUSTERS] = {"launch__cluster_max_active", "Max Active Clusters",
                                             NCU_KIND_COUNT, false, "cluster", "active clusters"},
    [OCC_PROFILE_NCU_SM_COUNT] = {"launch__sm_count", "# SMs", NCU_KIND_COUNT, false, "SM",
                                  "SM count"},
    [OCC_PROFILE_NCU_WAVES] = {"launch__waves_per_multiprocessor", "Waves Per SM", NCU_KIND_COUNT,
                               false, "wave", "waves per SM"},
    [OCC_PROFILE_NCU_DURATION] = {"gpu__time_duration.sum", "Duration", NCU_KIND_TIME, false, NULL,
                                  "duration"},
    [OCC_PROFILE_NCU_LIMIT_WARPS] = {"launch__occupancy_limit_warps", "Block Limit Warps",
                                     NCU_KIND_COUNT, true, "block", "Block Limit Warps"},
    [OCC_PROFILE_NCU_LIMIT_BLOCKS] = {"launch__occupancy_limit_blocks", "Block Limit SM",
                                      NCU_KIND_COUNT, true, "block", "Block Limit SM"},
    [OCC_PROFILE_NCU_LIMIT_REGISTERS] = {"launch__occupancy_limit_registers",
                                         "Block Limit Registers", NCU_KIND_COUNT, true, "block",
                                         "Block Limit Registers"},
    [OCC_PROFILE_NCU_LIMIT_SHARED_MEM] = {"launch__occupancy_limit_shared_mem",
                                          "Block Limit Shared Mem", NCU_KIND_COUNT, true, "block",
                                          "Block Limit Shared Mem"},
    [OCC_PROFILE_NCU_LIMIT_BARRIERS] = {"launch__occupancy_limit_barriers", "Block Limit Barriers",
                                        NCU_KIND_COUNT, true, "block", "Block Limit Barriers"},
    [OCC_PROFILE_NCU_THEORETICAL_PCT] = {"sm__maximum_warps_per_active_cycle_pct",
                                         "Theoretical Occupancy", NCU_KIND_PERCENT, true, NULL,
                                         "theoretical occupancy"},
    [OCC_PROFILE_NCU_THEORETICAL_WARPS] = {"sm__maximum_warps_avg_per_active_cycle",
                                           "Theoretical Active Warps per SM", NCU_KIND_COUNT, false,
                                           "warp", "theoretical warps per SM"},
    [OCC_PROFILE_NCU_ACHIEVED_PCT] = {"sm__warps_active.avg.pct_of_peak_sustained_active",
                                      "Achieved Occupancy", NCU_KIND_PERCENT, false, NULL,
                                      "achieved occupancy"},
};

/* The figures no launch can have, refused where they are read; libocc
   refuses the rest (registers above 255, a block above 1,024 threads). */
typedef struct value_rule {
    bool ruled;
    bool whole; /* a count */
    double min, max;
    const char *max_why; /* after "is above MAX" */
} value_rule;

static const value_rule rules[OCC_PROFILE_NCU_FIELD_COUNT] = {
    [OCC_PROFILE_NCU_THEORETICAL_PCT] = {true, false, 0.0, 100.0, ""},
    [OCC_PROFILE_NCU_ACHIEVED_PCT] = {true, false, 0.0, 100.0, ""},
    [OCC_PROFILE_NCU_DURATION] = {true, false, 0.0, INFINITY, ""},
    [OCC_PROFILE_NCU_SM_COUNT] = {true, true, 1.0, OCC_PROFILE_NCU_MAX_SM_COUNT,
                                  ", the most occ ncu takes (4 x the largest GPU occ knows)"},
    [OCC_PROFILE_NCU_CLUSTER_X] = {true, true, 0.0, OCC_CLUSTER_NON_PORTABLE_MAX,
                                   ", the most blocks a cluster launch can have"},
    [OCC_PROFILE_NCU_CLUSTER_Y] = {true, true, 0.0, OCC_CLUSTER_NON_PORTABLE_MAX,
                                   ", the most blocks a cluster launch can have"},
    [OCC_PROFILE_NCU_CLUSTER_Z] = {true, true, 0.0, OCC_CLUSTER_NON_PORTABLE_MAX,
                                   ", the most blocks a cluster launch can have"},
    [OCC_PROFILE_NCU_CLUSTER_SIZE] = {true, true, 0.0, OCC_CLUSTER_NON_PORTABLE_MAX,
                                      ", the most blocks a cluster launch can have"},
};

const ncu_field_info *ncu_field_at(occ_profile_ncu_field field)
{
    return (unsigned)field < OCC_PROFILE_NCU_FIELD_COUNT ? &fields[field] : NULL;
}

/* The columns both pages begin with, and the text ones occ reads. */
enum {
    COL_ID,
    COL_KERNEL,
    COL_CC,
    COL_BLOCK,
    COL_GRID,
    COL_DEVICE, /* raw: device__attribute_display_name */
    COL_POLICY, /* raw: launch__cluster_scheduling_policy */
    COL_METRIC, /* details */
    COL_UNIT,   /* details */
    COL_VALUE,  /* details */
    COL_TEXT_END
};
static const char *const text_columns[COL_TEXT_END] = {"ID",
                                                       "Kernel Name",
                                                       "CC",
                                                       "Block Size",
                                                       "Grid Size",
                                                       "device__attribute_display_name",
                                                       "launch__cluster_scheduling_policy",
                                                       "Metric Name",
                                                       "Metric Unit",
                                                       "Metric Value"};
#define DETAILS_POLICY_METRIC "Cluster Scheduling Policy"
/* Half the last of the details page's two decimals. */
#define DETAILS_TOLERANCE 0.005

struct occ_profile_ncu_reader {
    FILE *owned; /* the file occ_profile_ncu_open opened */
    csv_reader csv;
    const char *name;
    occ_profile_ncu_page page;
    int columns;                                /* fields of the header */
    int text_col[COL_TEXT_END];                 /* -1: absent */
    int field_col[OCC_PROFILE_NCU_FIELD_COUNT]; /* raw page: -1 absent */
    double scale[OCC_PROFILE_NCU_FIELD_COUNT];  /* raw page: the units row's, to occ's unit */
    int raw_order[OCC_PROFILE_NCU_FIELD_COUNT]; /* raw page: the fields present, by column */
    int raw_count;
    int needed_fields;       /* details page: the fields a metric row has at least */
    long long skipped_lines; /* before the header */
    bool have_id;
    long long last_id;
    /* details page: the record that began the next launch is still in csv */
    bool pending;
    bool ended;
    long long
        row_line[OCC_PROFILE_NCU_FIELD_COUNT]; /* details page: the launch's row of each; 0 none */
    long long policy_line;
    char *kernel_name; /* details page: the launch's name, copied */
    size_t kernel_name_cap;
};

occ_profile_ncu_page occ_profile_ncu_page_of(const occ_profile_ncu_reader *r)
{
    return r->page;
}

long long occ_profile_ncu_skipped_lines(const occ_profile_ncu_reader *r)
{
    return r->skipped_lines;
}

void occ_profile_ncu_free(occ_profile_ncu_reader *r)
{
    if (r != NULL) {
        csv_free(&r->csv);
        free(r->kernel_name);
        if (r->owned != NULL) {
            fclose(r->owned);
        }
        free(r);
    }
}

static const char *field_text(occ_profile_ncu_reader *r, int col)
{
    return csv_field(&r->csv, col);
}

/* True, with one line in err, when the CSV reader stopped or the record is
   not CSV as Nsight writes it. */
static bool csv_failed(occ_profile_ncu_reader *r, csv_status st, occ_profile_error *err)
{
    const csv_reader *c = &r->csv;
    switch (st) {
    case CSV_READ_ERROR:
        return !ncu_fail(err, "%s: line %lld: %s", r->name, c->next_line, c->error);
    case CSV_RUNAWAY:
        return !ncu_fail(err, "%s: line %lld: %zu bytes without a line end: not a CSV text file",
                         r->name, c->line, c->runaway_bytes);
    case CSV_TOO_LONG:
        return !ncu_fail(err,
                         "%s: line %lld: a record longer than %d bytes, the most occ ncu "
                         "reads: not an Nsight Compute export",
                         r->name, c->line, OCC_PROFILE_NCU_MAX_RECORD_BYTES);
    default: break;
    }
    if (c->has_nul) {
        return !ncu_fail(err, "%s: line %lld: a NUL byte: not a CSV text file", r->name, c->line);
    }
    if (c->unclosed_quote) {
        return !ncu_fail(err,
                         "%s: line %lld: a quoted field is not closed before the end of the "
                         "file: the file is cut short",
                         r->name, c->line);
    }
    if (c->text_after_quote) {
        return !ncu_fail(err,
                         "%s: line %lld: text follows a closing quote: not CSV as Nsight "
                         "Compute writes it",
                         r->name, c->line);
    }
    if (c->field_count > c->max_fields) {
        return !ncu_fail(err, "%s: line %lld: %d columns, more than the %d read", r->name, c->line,
                         c->field_count, c->max_fields);
    }
    return false;
}

/* The next record that is not one of ncu's own messages ("==PROF== ...",
   "==WARNING== ..."), which it prints among the CSV when its output was
   redirected to the file: no ID and no header starts with "==". */
static csv_status next_record(occ_profile_ncu_reader *r)
{
    for (;;) {
        csv_status st = csv_next(&r->csv);
        const char *first = st == CSV_RECORD ? field_text(r, 0) : "";
        if (first[0] != '=' || first[1] != '=') {
            return st;
        }
    }
}

static int find_column(occ_profile_ncu_reader *r, const char *name)
{
    for (int i = 0; i < r->csv.field_count && i < r->csv.max_fields; i++) {
        if (strcmp(field_text(r, i), name) == 0) {
            return i;
        }
    }
    return -1;
}

/* Whether the field [p, e) of a line, quoted or not, is `name`. */
static bool field_is(const char *p, const char *e, const char *name)
{
    while (p < e && (*p == ' ' || *p == '\t')) {
        p++;
    }
    while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) {
        e--;
    }
    if (e - p >= 2 && *p == '"' && e[-1] == '"') {
        p++;
        e--;
    }
    size_t len = strlen(name);
    return (size_t)(e - p) == len && memcmp(p, name, len) == 0;
}

/* A line that is an Nsight Compute header, of either page: among its
   fields "ID" and "Kernel Name" (a header's names hold no comma or quote,
   so a quote in the line only has to be stepped over). */
static bool is_header_line(const char *line, size_t len)
{
    bool id = false;
    bool kernel = false;
    const char *end = line + len;
    const char *p = line;
    while (p <= end && !(id && kernel)) {
        const char *q = p;
        bool quoted = false;
        while (q < end && (quoted || *q != ',')) {
            quoted ^= *q == '"';
            q++;
        }
        id = id || field_is(p, q, "ID");
        kernel = kernel || field_is(p, q, "Kernel Name");
        p = q + 1;
    }
    return id && kernel;
}

/* The lines before the header, skipped: they are not part of the export. */
static bool skip_to_header(occ_profile_ncu_reader *r, occ_profile_error *err)
{
    csv_reader *c = &r->csv;
    long long lines;
    long long bytes;
    csv_skip got = csv_skip_lines(c, is_header_line, OCC_PROFILE_NCU_MAX_SKIPPED_LINES,
                                  OCC_PROFILE_NCU_MAX_SKIPPED_BYTES, &lines, &bytes);
    r->skipped_lines = lines;
    char a[32];
    char b[32];
    switch (got) {
    case CSV_SKIP_FOUND: return true;
    case CSV_SKIP_END:
        if (lines == 0) {
            return ncu_fail(err,
                            "%s: line %lld: the file is empty; expected an Nsight Compute "
                            "export (ncu --csv --page raw or --page details)",
                            r->name, c->line);
        }
        return ncu_fail(err,
                        "%s: line %lld: no header (a line with 'ID' and 'Kernel Name' "
                        "columns) in the file's %s line%s: not an Nsight Compute export",
                        r->name, lines, group_digits(lines, a, sizeof a), lines == 1 ? "" : "s");
    case CSV_SKIP_LIMIT:
        return ncu_fail(err,
                        "%s: line %lld: no header (a line with 'ID' and 'Kernel Name' "
                        "columns) in the first %s lines and %s bytes, the most occ ncu skips "
                        "before one: not an Nsight Compute export",
                        r->name, c->line, group_digits(lines, a, sizeof a),
                        group_digits(bytes, b, sizeof b));
    case CSV_SKIP_NUL:
        return ncu_fail(err, "%s: line %lld: a NUL byte: not a CSV text file", r->name, c->line);
    case CSV_SKIP_READ_ERROR:
    default: return ncu_fail(err, "%s: line %lld: %s", r->name, c->next_line, c->error);
    }
}

/* The header: which page, where the columns are. */
static bool read_header(occ_profile_ncu_reader *r, occ_profile_error *err)
{
    csv_reader *c = &r->csv;
    if (!skip_to_header(r, err)) {
        return false;
    }
    csv_status st = next_record(r);
    if (st == CSV_END) {
        return ncu_fail(err,
                        "%s: line %lld: the file is empty; expected an Nsight Compute "
                        "export (ncu --csv --page raw or --page details)",
                        r->name, c->next_line);
    }
    if (csv_failed(r, st, err)) {
        return false;
    }
    r->columns = c->field_count;
    for (int t = 0; t < COL_TEXT_END; t++) {
        r->text_col[t] = find_column(r, text_columns[t]);
    }
    if (r->text_col[COL_ID] < 0 || r->text_col[COL_KERNEL] < 0) {
        char shown[64];
        return ncu_fail(err,
                        "%s: line %lld: not an Nsight Compute export: the header ('%s', "
                        "...) has no 'ID' and 'Kernel Name' columns",
                        r->name, c->line, message_visible(field_text(r, 0), shown, sizeof shown));
    }
    bool details = r->text_col[COL_METRIC] >= 0 && r->text_col[COL_VALUE] >= 0;
    r->page = details ? OCC_PROFILE_NCU_PAGE_DETAILS : OCC_PROFILE_NCU_PAGE_RAW;
    if (details) {
        if (r->text_col[COL_UNIT] < 0) {
            return ncu_fail(err, "%s: line %lld: the details page has no 'Metric Unit' column",
                            r->name, c->line);
        }
        /* a metric's row may end after its value: the rule columns (Rule
           Name ... Estimated Speedup) only rules' rows fill */
        for (int t = 0; t < COL_TEXT_END; t++) {
            if (r->text_col[t] >= r->needed_fields) {
                r->needed_fields = r->text_col[t] + 1;
            }
        }
        return true;
    }
    for (int f = 0; f < OCC_PROFILE_NCU_FIELD_COUNT; f++) {
        r->field_col[f] = find_column(r, fields[f].raw_column);
        if (r->field_col[f] < 0 && fields[f].required) {
            return ncu_fail(err,
                            "%s: line %lld: column '%s' is missing: occ ncu reads ncu --csv "
                            "--page raw (or --page details) of --section LaunchStats "
                            "--section Occupancy",
                            r->name, c->line, fields[f].raw_column);
        }
        if (r->field_col[f] >= 0) {
            /* in column order: the reader finds a row's fields left to right */
            int at = r->raw_count++;
            while (at > 0 && r->field_col[r->raw_order[at - 1]] > r->field_col[f]) {
                r->raw_order[at] = r->raw_order[at - 1];
                at--;
            }
            r->raw_order[at] = f;
        }
    }
    return true;
}

/* The raw page's units row, right under the header: its ID is empty. */
static bool read_units(occ_profile_ncu_reader *r, occ_profile_error *err)
{
    csv_reader *c = &r->csv;
    csv_status st = next_record(r);
    if (st == CSV_END) {
        return ncu_fail(err, "%s: line %lld: the file ends after the header: no units row", r->name,
                        c->next_line);
    }
    if (csv_failed(r, st, err)) {
        return false;
    }
    if (c->field_count != r->columns || field_text(r, r->text_col[COL_ID])[0] != '\0') {
        return ncu_fail(err,
                        "%s: line %lld: expected the units row of the raw page (an empty "
                        "ID and %d fields) under the header",
                        r->name, c->line, r->columns);
    }
    for (int f = 0; f < OCC_PROFILE_NCU_FIELD_COUNT; f++) {
        if (r->field_col[f] < 0) {
            continue;
        }
        if (!ncu_unit_scale(&fields[f], field_text(r, r->field_col[f]), &r->scale[f], err)) {
            return ncu_fail_prefix(err, "%s: line %lld: column '%s': ", r->name, c->line,
                                   fields[f].raw_column);
        }
    }
    return true;
}

static occ_status open_reader(FILE *in, FILE *owned, const char *name, occ_profile_ncu_reader **out,
                              occ_profile_error *err)
{
    *out = NULL;
    occ_profile_ncu_reader *r = calloc(1, sizeof *r);
    if (r == NULL ||
        !csv_init(&r->csv, in, OCC_PROFILE_NCU_MAX_RECORD_BYTES, OCC_PROFILE_NCU_MAX_FIELDS)) {
        free(r);
        if (owned != NULL) {
            fclose(owned);
        }
        ncu_fail_status(err, OCC_ERR_OUT_OF_MEMORY, "%s: out of memory", name);
        return OCC_ERR_OUT_OF_MEMORY;
    }
    r->owned = owned;
    r->name = name;
    if (!read_header(r, err) || (r->page == OCC_PROFILE_NCU_PAGE_RAW && !read_units(r, err))) {
        occ_profile_ncu_free(r);
        return err ? err->status : OCC_ERR_BAD_FORMAT;
    }
    *out = r;
    return OCC_OK;
}

occ_status occ_profile_ncu_open_stream(FILE *in, const char *name, occ_profile_ncu_reader **out,
                                       occ_profile_error *err)
{
    return open_reader(in, NULL, name, out, err);
}

occ_status occ_profile_ncu_open(const char *path, occ_profile_ncu_reader **out,
                                occ_profile_error *err)
{
    FILE *in = fopen(path, "rb");
    if (in == NULL) {
        *out = NULL;
        ncu_fail_status(err, OCC_ERR_IO, "%s: %s", path, strerror(errno));
        return OCC_ERR_IO;
    }
    return open_reader(in, in, path, out, err);
}

/* A whole number of at most 10 digits at *p, moving p past it: -1 when
   there is none or it is above 2^31 - 1. */
static long long small_whole(const char **p)
{
    const char *s = *p;
    long long v = 0;
    int digits = 0;
    while (*s >= '0' && *s <= '9' && digits < 11) {
        v = v * 10 + (*s++ - '0');
        digits++;
    }
    if (digits == 0 || digits > 10 || v > 2147483647LL) {
        return -1;
    }
    *p = s;
    return v;
}

/* "(256, 1, 1)" into dims; 0s when the text is not that. */
static void parse_dims(const char *text, int dims[3])
{
    dims[0] = dims[1] = dims[2] = 0;
    long long v[3];
    const char *p = text;
    if (*p++ != '(') {
        return;
    }
    for (int i = 0; i < 3; i++) {
        /* Nsight may group digits: "(1,056, 1, 1)" never happens (its
           separators are ", "), so a plain integer each */
        while (*p == ' ') {
            p++;
        }
        v[i] = small_whole(&p);
        if (v[i] < 0 || *p != (i < 2 ? ',' : ')')) {
            return;
        }
        p++;
    }
    if (*p != '\0') {
        return;
    }
    for (int i = 0; i < 3; i++) {
        dims[i] = (int)v[i];
    }
}

/* "9.0" into major and minor; -1 when the text is not that. */
static void parse_cc(const char *text, int *major, int *minor)
{
    *major = *minor = -1;
    const char *p = text;
    long long a = small_whole(&p);
    if (a < 0 || a > 99 || *p != '.') {
        return;
    }
    p++;
    long long b = small_whole(&p);
    if (b < 0 || b > 9 || *p != '\0') {
        return;
    }
    *major = (int)a;
    *minor = (int)b;
}

static const char *text_at(occ_profile_ncu_reader *r, int column)
{
    int col = r->text_col[column];
    return col >= 0 ? field_text(r, col) : "";
}

/* The record's ID: a whole number above the previous launch's. */
static bool record_id(occ_profile_ncu_reader *r, long long *id, occ_profile_error *err)
{
    const char *text = text_at(r, COL_ID);
    occ_profile_ncu_number n;
    char shown[64];
    if (!occ_profile_ncu_parse_number(text, &n) || n.value < 0 || n.value > 9e15 ||
        n.value != (double)(long long)n.value) {
        if (strcmp(text, "ID") == 0) {
            return ncu_fail(err,
                            "%s: line %lld: a second header: several exports joined in one "
                            "file (give each as its own file)",
                            r->name, r->csv.line);
        }
        return ncu_fail(err, "%s: line %lld: ID '%s' is not a launch number", r->name, r->csv.line,
                        message_visible(text, shown, sizeof shown));
    }
    *id = (long long)n.value;
    return true;
}

static bool check_order(occ_profile_ncu_reader *r, long long id, occ_profile_error *err)
{
    if (r->have_id && id <= r->last_id) {
        return ncu_fail(err,
                        "%s: line %lld: launch ID %lld after ID %lld: Nsight Compute writes "
                        "launches once each, in ID order (was the file edited or joined?)",
                        r->name, r->csv.line, id, r->last_id);
    }
    r->have_id = true;
    r->last_id = id;
    return true;
}

/* A text field into a fixed buffer, cut where it does not fit. */
static void copy_text(char *to, size_t cap, const char *from)
{
    size_t len = strlen(from);
    len = len < cap - 1 ? len : cap - 1;
    memcpy(to, from, len);
    to[len] = '\0';
}

/* The launch's text columns, from the current record. */
static void launch_texts(occ_profile_ncu_reader *r, occ_profile_ncu_launch *l)
{
    copy_text(l->device_name, sizeof l->device_name, text_at(r, COL_DEVICE));
    parse_cc(text_at(r, COL_CC), &l->cc_major, &l->cc_minor);
    parse_dims(text_at(r, COL_BLOCK), l->block_dims);
    parse_dims(text_at(r, COL_GRID), l->grid_dims);
    copy_text(l->cluster_policy, sizeof l->cluster_policy, text_at(r, COL_POLICY));
}

/* "column 'launch__sm_count'" or "'# SMs'": where a value came from. */
static const char *source_of(const occ_profile_ncu_reader *r, occ_profile_ncu_field f, char *buf,
                             size_t cap)
{
    if (r->page == OCC_PROFILE_NCU_PAGE_RAW) {
        snprintf(buf, cap, "column '%s'", fields[f].raw_column);
    } else {
        snprintf(buf, cap, "'%s'", fields[f].details_metric);
    }
    return buf;
}

static const char *unit_word(ncu_kind kind)
{
    return kind == NCU_KIND_PERCENT ? "%" : kind == NCU_KIND_TIME ? " us" : "";
}

/* A figure no launch can have: below or above its rule, or a fraction of a
   count. */
static bool check_rule(occ_profile_ncu_reader *r, occ_profile_ncu_field f,
                       const occ_profile_ncu_number *n, occ_profile_error *err)
{
    const value_rule *rule = &rules[f];
    if (!rule->ruled) {
        return true;
    }
    const char *unit = unit_word(fields[f].kind);
    char where[96];
    double v = n->value;
    if (rule->whole) {
        double rounded = floor(v + 0.5);
        if (fabs(v - rounded) > n->tolerance + 1e-6) {
            return ncu_fail(err, "%s: line %lld: %s: %s %.15g is not a whole number", r->name,
                            r->csv.line, source_of(r, f, where, sizeof where), fields[f].noun, v);
        }
        v = rounded;
    } else if (v + n->tolerance >= rule->min && v - n->tolerance <= rule->max) {
        return true;
    }
    if (v < rule->min) {
        return ncu_fail(err, "%s: line %lld: %s: %s %.15g%s is below %.15g%s", r->name, r->csv.line,
                        source_of(r, f, where, sizeof where), fields[f].noun, n->value, unit,
                        rule->min, unit);
    }
    if (v > rule->max) {
        return ncu_fail(err, "%s: line %lld: %s: %s %.15g%s is above %.15g%s%s", r->name,
                        r->csv.line, source_of(r, f, where, sizeof where), fields[f].noun, n->value,
                        unit, rule->max, unit, rule->max_why);
    }
    return true;
}

/* One value of a field, scaled to occ's unit: empty or "n/a" is absent;
   anything else must be a number, and one a launch can have. */
static bool set_value(occ_profile_ncu_reader *r, occ_profile_ncu_launch *l, occ_profile_ncu_field f,
                      const char *text, double scale, occ_profile_error *err)
{
    char shown[64];
    char where[96];
    if (text[0] == '\0' || (text[0] == 'n' && strcmp(text, "n/a") == 0)) {
        return true;
    }
    occ_profile_ncu_number n;
    if (!occ_profile_ncu_parse_number(text, &n)) {
        return ncu_fail(err, "%s: line %lld: %s: '%s' is not a number", r->name, r->csv.line,
                        source_of(r, f, where, sizeof where),
                        message_visible(text, shown, sizeof shown));
    }
    /* The details page prints two decimals and drops them from whole
       numbers: "30" Kbyte is 30.00, not 30 +- 0.5 (the H200 exports: the
       same launches read 30.000000 on the raw page). */
    if (r->page == OCC_PROFILE_NCU_PAGE_DETAILS && n.tolerance > DETAILS_TOLERANCE) {
        n.tolerance = DETAILS_TOLERANCE;
    }
    n.value *= scale;
    n.tolerance *= scale;
    if (!check_rule(r, f, &n, err)) {
        return false;
    }
    l->v[f] = n;
    return true;
}

static bool check_required(const occ_profile_ncu_reader *r, const occ_profile_ncu_launch *l,
                           occ_profile_error *err)
{
    for (int f = 0; f < OCC_PROFILE_NCU_FIELD_COUNT; f++) {
        if (fields[f].required && !l->v[f].present) {
            if (r->page == OCC_PROFILE_NCU_PAGE_RAW) {
                return ncu_fail(err, "%s: line %lld: launch ID %lld: column '%s' is empty", r->name,
                                l->line, l->id, fields[f].raw_column);
            }
            return ncu_fail(err,
                            "%s: line %lld: launch ID %lld has no '%s' row: occ ncu reads "
                            "the LaunchStats and Occupancy sections",
                            r->name, l->line, l->id, fields[f].details_metric);
        }
    }
    return true;
}

/* The raw page's cluster shape: each dimension 1 or more in a cluster
   launch, 0 in others, and the size their product. */
static bool check_cluster_shape(const occ_profile_ncu_reader *r, const occ_profile_ncu_launch *l,
                                occ_profile_error *err)
{
    const occ_profile_ncu_number *dim = &l->v[OCC_PROFILE_NCU_CLUSTER_X];
    if (!dim[0].present || !dim[1].present || !dim[2].present) {
        return true; /* not exported: the size alone, as on the details page */
    }
    long long x = (long long)floor(dim[0].value + 0.5);
    long long y = (long long)floor(dim[1].value + 0.5);
    long long z = (long long)floor(dim[2].value + 0.5);
    long long product = x * y * z;
    bool any = x > 0 || y > 0 || z > 0;
    if (any && product == 0) {
        return ncu_fail(err,
                        "%s: line %lld: launch ID %lld: cluster dimensions (%lld, %lld, %lld): "
                        "a cluster launch has at least 1 block in each",
                        r->name, l->line, l->id, x, y, z);
    }
    if (product > OCC_CLUSTER_NON_PORTABLE_MAX) {
        return ncu_fail(err,
                        "%s: line %lld: launch ID %lld: a cluster of %lld x %lld x %lld = "
                        "%lld blocks is above %d, the most blocks a cluster launch can have",
                        r->name, l->line, l->id, x, y, z, product, OCC_CLUSTER_NON_PORTABLE_MAX);
    }
    const occ_profile_ncu_number *size = &l->v[OCC_PROFILE_NCU_CLUSTER_SIZE];
    if (size->present && (long long)floor(size->value + 0.5) != product) {
        return ncu_fail(err,
                        "%s: line %lld: launch ID %lld: cluster size %.15g is not %lld, the "
                        "product of the cluster dimensions (%lld, %lld, %lld)",
                        r->name, l->line, l->id, size->value, product, x, y, z);
    }
    return true;
}

static bool record_shape(occ_profile_ncu_reader *r, csv_status st, occ_profile_error *err)
{
    if (csv_failed(r, st, err)) {
        return false;
    }
    int needed = r->page == OCC_PROFILE_NCU_PAGE_DETAILS ? r->needed_fields : r->columns;
    if (r->csv.field_count < needed || r->csv.field_count > r->columns) {
        return ncu_fail(err,
                        "%s: line %lld: %d fields; the header has %d (the file is cut short "
                        "or not one export)",
                        r->name, r->csv.line, r->csv.field_count, r->columns);
    }
    return true;
}

static int next_raw(occ_profile_ncu_reader *r, occ_profile_ncu_launch *l, occ_profile_error *err)
{
    csv_status st = next_record(r);
    if (st == CSV_END) {
        return 0;
    }
    if (!record_shape(r, st, err) || !record_id(r, &l->id, err) || !check_order(r, l->id, err)) {
        return -1;
    }
    l->line = r->csv.line;
    l->name = text_at(r, COL_KERNEL);
    launch_texts(r, l);
    for (int i = 0; i < r->raw_count; i++) {
        int f = r->raw_order[i];
        if (!set_value(r, l, (occ_profile_ncu_field)f, field_text(r, r->field_col[f]), r->scale[f],
                       err)) {
            return -1;
        }
    }
    return check_required(r, l, err) && check_cluster_shape(r, l, err) ? 1 : -1;
}

/* Starts a details-page launch from the current record. */
static bool begin_details_launch(occ_profile_ncu_reader *r, occ_profile_ncu_launch *l, long long id,
                                 occ_profile_error *err)
{
    if (!check_order(r, id, err)) {
        return false;
    }
    l->id = id;
    l->line = r->csv.line;
    memset(r->row_line, 0, sizeof r->row_line);
    r->policy_line = 0;
    const char *name = text_at(r, COL_KERNEL);
    size_t len = strlen(name) + 1;
    if (len > r->kernel_name_cap) {
        char *grown = realloc(r->kernel_name, len);
        if (grown == NULL) {
            return ncu_fail_status(err, OCC_ERR_OUT_OF_MEMORY, "%s: out of memory", r->name);
        }
        r->kernel_name = grown;
        r->kernel_name_cap = len;
    }
    memcpy(r->kernel_name, name, len);
    l->name = r->kernel_name;
    launch_texts(r, l);
    return true;
}

/* A metric the launch has had a row of already: refused, since occ could
   not tell which of two values Nsight meant. */
static bool second_row(const occ_profile_ncu_reader *r, const occ_profile_ncu_launch *l,
                       const char *metric, long long first, occ_profile_error *err)
{
    return ncu_fail(err,
                    "%s: line %lld: launch ID %lld: a second '%s' row (the first is line "
                    "%lld): Nsight Compute writes each metric once per launch",
                    r->name, r->csv.line, l->id, metric, first);
}

/* One details-page row of the current launch. */
static bool details_row(occ_profile_ncu_reader *r, occ_profile_ncu_launch *l,
                        occ_profile_error *err)
{
    const char *metric = text_at(r, COL_METRIC);
    if (metric[0] == '\0') {
        return true; /* a rule's result, not a metric */
    }
    if (strcmp(metric, DETAILS_POLICY_METRIC) == 0) {
        if (r->policy_line != 0) {
            return second_row(r, l, metric, r->policy_line, err);
        }
        r->policy_line = r->csv.line;
        copy_text(l->cluster_policy, sizeof l->cluster_policy, text_at(r, COL_VALUE));
        return true;
    }
    for (int f = 0; f < OCC_PROFILE_NCU_FIELD_COUNT; f++) {
        if (fields[f].details_metric != NULL && strcmp(metric, fields[f].details_metric) == 0) {
            if (r->row_line[f] != 0) {
                return second_row(r, l, metric, r->row_line[f], err);
            }
            r->row_line[f] = r->csv.line;
            double scale;
            char where[96];
            if (!ncu_unit_scale(&fields[f], text_at(r, COL_UNIT), &scale, err)) {
                return ncu_fail_prefix(err, "%s: line %lld: %s: ", r->name, r->csv.line,
                                       source_of(r, (occ_profile_ncu_field)f, where, sizeof where));
            }
            return set_value(r, l, (occ_profile_ncu_field)f, text_at(r, COL_VALUE), scale, err);
        }
    }
    return true;
}

static int next_details(occ_profile_ncu_reader *r, occ_profile_ncu_launch *l,
                        occ_profile_error *err)
{
    if (r->ended) {
        return 0;
    }
    bool started = false;
    if (r->pending) {
        long long id;
        r->pending = false;
        if (!record_id(r, &id, err) || !begin_details_launch(r, l, id, err) ||
            !details_row(r, l, err)) {
            return -1;
        }
        started = true;
    }
    for (;;) {
        csv_status st = next_record(r);
        if (st == CSV_END) {
            r->ended = true;
            break;
        }
        long long id;
        if (!record_shape(r, st, err) || !record_id(r, &id, err)) {
            return -1;
        }
        if (started && id != l->id) {
            r->pending = true; /* this record begins the next launch */
            break;
        }
        if (!started) {
            if (!begin_details_launch(r, l, id, err)) {
                return -1;
            }
            started = true;
        }
        if (!details_row(r, l, err)) {
            return -1;
        }
    }
    if (!started) {
        return 0;
    }
    return check_required(r, l, err) ? 1 : -1;
}

occ_status occ_profile_ncu_next(occ_profile_ncu_reader *r, occ_profile_ncu_launch *out, bool *done,
                                occ_profile_error *err)
{
    memset(out, 0, sizeof *out);
    out->cc_major = out->cc_minor = -1;
    *done = false;
    int got =
        r->page == OCC_PROFILE_NCU_PAGE_RAW ? next_raw(r, out, err) : next_details(r, out, err);
    if (got < 0) {
        return err ? err->status : OCC_ERR_BAD_FORMAT;
    }
    *done = got == 0;
    return OCC_OK;
}
