/*
 * ncu_read.c - Nsight Compute's CSV exports, either page, as launches:
 * streamed through the bounded CSV reader, one launch in memory at a time.
 *
 * The raw page (--page raw) has a header of metric names, a units row, and a
 * row per launch. The details page (--page details) has a row per metric per
 * launch, the launch's rows together, with "Metric Name", "Metric Unit" and
 * "Metric Value" columns (and rows of rule results, whose metric name is
 * empty). Both begin with the same columns: ID, Kernel Name, ..., Block Size,
 * Grid Size, Device, CC. Every bad record stops the reading with one line.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "ncu.h"
#include "output.h"

/* The numbers occ reads, where each page has them (docs/ncu.md lists them).
   The details page of LaunchStats and Occupancy has no barrier count, no
   cluster shape (only its size) and no duration (that is in the GPU Speed
   Of Light section, whose "Duration" occ reads when it is there). */
static const ncu_field_info fields[NCU_FIELD_COUNT] = {
    [NCU_BLOCK_SIZE] = {"launch__block_size", "Block Size", NCU_KIND_COUNT, true},
    [NCU_GRID_SIZE] = {"launch__grid_size", "Grid Size", NCU_KIND_COUNT, true},
    [NCU_REGS] = {"launch__registers_per_thread", "Registers Per Thread", NCU_KIND_COUNT, true},
    [NCU_STATIC_SMEM] = {"launch__shared_mem_per_block_static", "Static Shared Memory Per Block",
                         NCU_KIND_BYTES, true},
    [NCU_DYN_SMEM] = {"launch__shared_mem_per_block_dynamic", "Dynamic Shared Memory Per Block",
                      NCU_KIND_BYTES, true},
    [NCU_DRIVER_SMEM] = {"launch__shared_mem_per_block_driver", "Driver Shared Memory Per Block",
                         NCU_KIND_BYTES, false},
    [NCU_SMEM_CONFIG] = {"launch__shared_mem_config_size", "Shared Memory Configuration Size",
                         NCU_KIND_BYTES, true},
    [NCU_BARRIERS] = {"launch__barrier_count", NULL, NCU_KIND_COUNT, false},
    [NCU_CLUSTER_X] = {"launch__cluster_dim_x", NULL, NCU_KIND_COUNT, false},
    [NCU_CLUSTER_Y] = {"launch__cluster_dim_y", NULL, NCU_KIND_COUNT, false},
    [NCU_CLUSTER_Z] = {"launch__cluster_dim_z", NULL, NCU_KIND_COUNT, false},
    [NCU_CLUSTER_SIZE] = {"launch__cluster_size", "Cluster Size", NCU_KIND_COUNT, false},
    [NCU_MAX_ACTIVE_CLUSTERS] = {"launch__cluster_max_active", "Max Active Clusters",
                                 NCU_KIND_COUNT, false},
    [NCU_SM_COUNT] = {"launch__sm_count", "# SMs", NCU_KIND_COUNT, false},
    [NCU_WAVES] = {"launch__waves_per_multiprocessor", "Waves Per SM", NCU_KIND_COUNT, false},
    [NCU_DURATION] = {"gpu__time_duration.sum", "Duration", NCU_KIND_TIME, false},
    [NCU_LIMIT_WARPS] = {"launch__occupancy_limit_warps", "Block Limit Warps", NCU_KIND_COUNT,
                         true},
    [NCU_LIMIT_BLOCKS] = {"launch__occupancy_limit_blocks", "Block Limit SM", NCU_KIND_COUNT, true},
    [NCU_LIMIT_REGISTERS] = {"launch__occupancy_limit_registers", "Block Limit Registers",
                             NCU_KIND_COUNT, true},
    [NCU_LIMIT_SHARED_MEM] = {"launch__occupancy_limit_shared_mem", "Block Limit Shared Mem",
                              NCU_KIND_COUNT, true},
    [NCU_LIMIT_BARRIERS] = {"launch__occupancy_limit_barriers", "Block Limit Barriers",
                            NCU_KIND_COUNT, true},
    [NCU_THEORETICAL_PCT] = {"sm__maximum_warps_per_active_cycle_pct", "Theoretical Occupancy",
                             NCU_KIND_PERCENT, true},
    [NCU_THEORETICAL_WARPS] = {"sm__maximum_warps_avg_per_active_cycle",
                               "Theoretical Active Warps per SM", NCU_KIND_COUNT, false},
    [NCU_ACHIEVED_PCT] = {"sm__warps_active.avg.pct_of_peak_sustained_active", "Achieved Occupancy",
                          NCU_KIND_PERCENT, false},
};

const ncu_field_info *ncu_field_at(ncu_field field)
{
    return (unsigned)field < NCU_FIELD_COUNT ? &fields[field] : NULL;
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

struct ncu_reader {
    csv_reader csv;
    const char *name;
    ncu_page page;
    int columns;                                 /* fields of the header */
    int text_col[COL_TEXT_END];                  /* -1: absent */
    int field_col[NCU_FIELD_COUNT];              /* raw page: -1 absent */
    char units[NCU_FIELD_COUNT][NCU_WORD_BYTES]; /* raw page: the units row */
    bool have_id;
    long long last_id;
    /* details page: the record that began the next launch is still in csv */
    bool pending;
    bool ended;
    char *kernel_name; /* details page: the launch's name, copied */
    size_t kernel_name_cap;
};

ncu_page ncu_reader_page(const ncu_reader *r)
{
    return r->page;
}

void ncu_reader_free(ncu_reader *r)
{
    if (r != NULL) {
        csv_free(&r->csv);
        free(r->kernel_name);
        free(r);
    }
}

/* True, with one line in err, when the CSV reader stopped or the record is
   not CSV as Nsight writes it. */
static bool csv_failed(ncu_reader *r, csv_status st, cli_error *err)
{
    const csv_reader *c = &r->csv;
    switch (st) {
    case CSV_READ_ERROR:
        return !cli_error_set(err, EXIT_DATA, "%s: line %lld: read error: %s", r->name, c->line,
                              strerror(errno));
    case CSV_RUNAWAY:
        return !cli_error_set(err, EXIT_DATA,
                              "%s: line %lld: %zu bytes without a line end: not a CSV text file",
                              r->name, c->line, c->runaway_bytes);
    case CSV_TOO_LONG:
        return !cli_error_set(err, EXIT_DATA,
                              "%s: line %lld: a record longer than %d bytes, the most occ ncu "
                              "reads: not an Nsight Compute export",
                              r->name, c->line, NCU_MAX_RECORD_BYTES);
    default: break;
    }
    if (c->has_nul) {
        return !cli_error_set(err, EXIT_DATA, "%s: line %lld: a NUL byte: not a CSV text file",
                              r->name, c->line);
    }
    if (c->unclosed_quote) {
        return !cli_error_set(err, EXIT_DATA,
                              "%s: line %lld: a quoted field is not closed before the end of the "
                              "file: the file is cut short",
                              r->name, c->line);
    }
    if (c->text_after_quote) {
        return !cli_error_set(err, EXIT_DATA,
                              "%s: line %lld: text follows a closing quote: not CSV as Nsight "
                              "Compute writes it",
                              r->name, c->line);
    }
    if (c->field_count > c->max_fields) {
        return !cli_error_set(err, EXIT_DATA, "%s: line %lld: %d columns, more than the %d read",
                              r->name, c->line, c->field_count, c->max_fields);
    }
    return false;
}

/* The next record that is not one of ncu's own messages ("==PROF== ...",
   "==WARNING== ..."), which it prints among the CSV when its output was
   redirected to the file: no ID and no header starts with "==". */
static csv_status next_record(ncu_reader *r)
{
    for (;;) {
        csv_status st = csv_next(&r->csv);
        if (st != CSV_RECORD || r->csv.field_count < 1 || strncmp(r->csv.fields[0], "==", 2) != 0) {
            return st;
        }
    }
}

static int find_column(const csv_reader *c, const char *name)
{
    for (int i = 0; i < c->field_count; i++) {
        if (strcmp(c->fields[i], name) == 0) {
            return i;
        }
    }
    return -1;
}

/* The header: which page, where the columns are. */
static bool read_header(ncu_reader *r, cli_error *err)
{
    csv_reader *c = &r->csv;
    csv_status st = next_record(r);
    if (st == CSV_END) {
        return cli_error_set(err, EXIT_DATA,
                             "%s: line %lld: the file is empty; expected an Nsight Compute "
                             "export (ncu --csv --page raw or --page details)",
                             r->name, c->next_line);
    }
    if (csv_failed(r, st, err)) {
        return false;
    }
    r->columns = c->field_count;
    for (int t = 0; t < COL_TEXT_END; t++) {
        r->text_col[t] = find_column(c, text_columns[t]);
    }
    if (r->text_col[COL_ID] < 0 || r->text_col[COL_KERNEL] < 0) {
        char shown[64];
        return cli_error_set(err, EXIT_DATA,
                             "%s: line %lld: not an Nsight Compute export: the header ('%s', "
                             "...) has no 'ID' and 'Kernel Name' columns",
                             r->name, c->line, cli_visible(c->fields[0], shown, sizeof shown));
    }
    bool details = r->text_col[COL_METRIC] >= 0 && r->text_col[COL_VALUE] >= 0;
    r->page = details ? NCU_PAGE_DETAILS : NCU_PAGE_RAW;
    if (details) {
        if (r->text_col[COL_UNIT] < 0) {
            return cli_error_set(err, EXIT_DATA,
                                 "%s: line %lld: the details page has no 'Metric Unit' column",
                                 r->name, c->line);
        }
        return true;
    }
    for (int f = 0; f < NCU_FIELD_COUNT; f++) {
        r->field_col[f] = find_column(c, fields[f].raw_column);
        if (r->field_col[f] < 0 && fields[f].required) {
            return cli_error_set(err, EXIT_DATA,
                                 "%s: line %lld: column '%s' is missing: occ ncu reads ncu --csv "
                                 "--page raw (or --page details) of --section LaunchStats "
                                 "--section Occupancy",
                                 r->name, c->line, fields[f].raw_column);
        }
    }
    return true;
}

/* The raw page's units row, right under the header: its ID is empty. */
static bool read_units(ncu_reader *r, cli_error *err)
{
    csv_reader *c = &r->csv;
    csv_status st = next_record(r);
    if (st == CSV_END) {
        return cli_error_set(err, EXIT_DATA,
                             "%s: line %lld: the file ends after the header: no units row", r->name,
                             c->next_line);
    }
    if (csv_failed(r, st, err)) {
        return false;
    }
    if (c->field_count != r->columns || c->fields[r->text_col[COL_ID]][0] != '\0') {
        return cli_error_set(err, EXIT_DATA,
                             "%s: line %lld: expected the units row of the raw page (an empty "
                             "ID and %d fields) under the header",
                             r->name, c->line, r->columns);
    }
    for (int f = 0; f < NCU_FIELD_COUNT; f++) {
        if (r->field_col[f] < 0) {
            continue;
        }
        const char *unit = c->fields[r->field_col[f]];
        ncu_number probe = {true, 1.0, 0.0};
        if (!ncu_apply_unit(fields[f].kind, unit, &probe, err)) {
            return cli_error_prefix(err, "%s: line %lld: column '%s': ", r->name, c->line,
                                    fields[f].raw_column);
        }
        snprintf(r->units[f], sizeof r->units[f], "%s", unit);
    }
    return true;
}

ncu_reader *ncu_reader_open(FILE *in, const char *name, cli_error *err)
{
    ncu_reader *r = calloc(1, sizeof *r);
    if (r == NULL || !csv_init_sized(&r->csv, in, NCU_MAX_RECORD_BYTES, NCU_MAX_FIELDS)) {
        if (r != NULL) {
            csv_free(&r->csv);
        }
        free(r);
        cli_error_set(err, EXIT_DATA, "%s: out of memory", name);
        return NULL;
    }
    r->name = name;
    if (!read_header(r, err) || (r->page == NCU_PAGE_RAW && !read_units(r, err))) {
        ncu_reader_free(r);
        return NULL;
    }
    return r;
}

/* "(256, 1, 1)" into dims; 0s when the text is not that. */
static void parse_dims(const char *text, int dims[3])
{
    dims[0] = dims[1] = dims[2] = 0;
    long v[3];
    char *end;
    const char *p = text;
    if (*p++ != '(') {
        return;
    }
    for (int i = 0; i < 3; i++) {
        /* Nsight may group digits: "(1,056, 1, 1)" never happens (its
           separators are ", "), so a plain integer each */
        v[i] = strtol(p, &end, 10);
        if (end == p || v[i] < 0 || v[i] > 2147483647L) {
            return;
        }
        p = end;
        if (*p != (i < 2 ? ',' : ')')) {
            return;
        }
        p++;
        while (*p == ' ') {
            p++;
        }
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
    char *end;
    *major = *minor = -1;
    long a = strtol(text, &end, 10);
    if (end == text || *end != '.' || a < 0 || a > 99) {
        return;
    }
    const char *p = end + 1;
    long b = strtol(p, &end, 10);
    if (end == p || *end != '\0' || b < 0 || b > 9) {
        return;
    }
    *major = (int)a;
    *minor = (int)b;
}

static const char *text_at(const ncu_reader *r, int column)
{
    int col = r->text_col[column];
    return col >= 0 && col < r->csv.field_count ? r->csv.fields[col] : "";
}

/* The record's ID: a whole number above the previous launch's. */
static bool record_id(ncu_reader *r, long long *id, cli_error *err)
{
    const char *text = text_at(r, COL_ID);
    ncu_number n;
    char shown[64];
    if (!ncu_parse_number(text, &n) || n.value < 0 || n.value > 9e15 ||
        n.value != (double)(long long)n.value) {
        if (strcmp(text, "ID") == 0) {
            return cli_error_set(err, EXIT_DATA,
                                 "%s: line %lld: a second header: several exports joined in one "
                                 "file (give each as its own file)",
                                 r->name, r->csv.line);
        }
        return cli_error_set(err, EXIT_DATA, "%s: line %lld: ID '%s' is not a launch number",
                             r->name, r->csv.line, cli_visible(text, shown, sizeof shown));
    }
    *id = (long long)n.value;
    return true;
}

static bool check_order(ncu_reader *r, long long id, cli_error *err)
{
    if (r->have_id && id <= r->last_id) {
        return cli_error_set(err, EXIT_DATA,
                             "%s: line %lld: launch ID %lld after ID %lld: Nsight Compute writes "
                             "launches once each, in ID order (was the file edited or joined?)",
                             r->name, r->csv.line, id, r->last_id);
    }
    r->have_id = true;
    r->last_id = id;
    return true;
}

/* The launch's text columns, from the current record. */
static void launch_texts(const ncu_reader *r, ncu_launch *l)
{
    snprintf(l->device_name, sizeof l->device_name, "%s", text_at(r, COL_DEVICE));
    parse_cc(text_at(r, COL_CC), &l->cc_major, &l->cc_minor);
    parse_dims(text_at(r, COL_BLOCK), l->block_dims);
    parse_dims(text_at(r, COL_GRID), l->grid_dims);
    snprintf(l->cluster_policy, sizeof l->cluster_policy, "%s", text_at(r, COL_POLICY));
}

/* One value of a field: empty or "n/a" is absent; anything else must be a
   number in a unit of the field's kind. */
static bool set_value(ncu_reader *r, ncu_launch *l, ncu_field f, const char *text, const char *unit,
                      const char *what, cli_error *err)
{
    char shown[64];
    if (text[0] == '\0' || strcmp(text, "n/a") == 0) {
        return true;
    }
    ncu_number n;
    if (!ncu_parse_number(text, &n)) {
        return cli_error_set(err, EXIT_DATA, "%s: line %lld: %s: '%s' is not a number", r->name,
                             r->csv.line, what, cli_visible(text, shown, sizeof shown));
    }
    /* The details page prints two decimals and drops them from whole
       numbers: "30" Kbyte is 30.00, not 30 +- 0.5 (the H200 exports: the
       same launches read 30.000000 on the raw page). */
    if (r->page == NCU_PAGE_DETAILS && n.tolerance > DETAILS_TOLERANCE) {
        n.tolerance = DETAILS_TOLERANCE;
    }
    if (!ncu_apply_unit(fields[f].kind, unit, &n, err)) {
        return cli_error_prefix(err, "%s: line %lld: %s: ", r->name, r->csv.line, what);
    }
    l->v[f] = n;
    return true;
}

static bool check_required(const ncu_reader *r, const ncu_launch *l, cli_error *err)
{
    for (int f = 0; f < NCU_FIELD_COUNT; f++) {
        if (fields[f].required && !l->v[f].present) {
            if (r->page == NCU_PAGE_RAW) {
                return cli_error_set(err, EXIT_DATA,
                                     "%s: line %lld: launch ID %lld: column '%s' is empty", r->name,
                                     l->line, l->id, fields[f].raw_column);
            }
            return cli_error_set(err, EXIT_DATA,
                                 "%s: line %lld: launch ID %lld has no '%s' row: occ ncu reads "
                                 "the LaunchStats and Occupancy sections",
                                 r->name, l->line, l->id, fields[f].details_metric);
        }
    }
    return true;
}

static bool record_shape(ncu_reader *r, csv_status st, cli_error *err)
{
    if (csv_failed(r, st, err)) {
        return false;
    }
    /* The details page ends a metric's row after its value: the rule
       columns (Rule Name ... Estimated Speedup) only rules' rows fill. */
    int needed = r->columns;
    if (r->page == NCU_PAGE_DETAILS) {
        needed = 0;
        for (int t = 0; t < COL_TEXT_END; t++) {
            needed = r->text_col[t] >= needed ? r->text_col[t] + 1 : needed;
        }
    }
    if (r->csv.field_count < needed || r->csv.field_count > r->columns) {
        return cli_error_set(err, EXIT_DATA,
                             "%s: line %lld: %d fields; the header has %d (the file is cut short "
                             "or not one export)",
                             r->name, r->csv.line, r->csv.field_count, r->columns);
    }
    return true;
}

static int next_raw(ncu_reader *r, ncu_launch *l, cli_error *err)
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
    for (int f = 0; f < NCU_FIELD_COUNT; f++) {
        if (r->field_col[f] < 0) {
            continue;
        }
        char what[96];
        snprintf(what, sizeof what, "column '%s'", fields[f].raw_column);
        if (!set_value(r, l, (ncu_field)f, r->csv.fields[r->field_col[f]], r->units[f], what,
                       err)) {
            return -1;
        }
    }
    return check_required(r, l, err) ? 1 : -1;
}

/* Starts a details-page launch from the current record. */
static bool begin_details_launch(ncu_reader *r, ncu_launch *l, long long id, cli_error *err)
{
    if (!check_order(r, id, err)) {
        return false;
    }
    l->id = id;
    l->line = r->csv.line;
    const char *name = text_at(r, COL_KERNEL);
    size_t len = strlen(name) + 1;
    if (len > r->kernel_name_cap) {
        char *grown = realloc(r->kernel_name, len);
        if (grown == NULL) {
            return cli_error_set(err, EXIT_DATA, "%s: out of memory", r->name);
        }
        r->kernel_name = grown;
        r->kernel_name_cap = len;
    }
    memcpy(r->kernel_name, name, len);
    l->name = r->kernel_name;
    launch_texts(r, l);
    return true;
}

/* One details-page row of the current launch. */
static bool details_row(ncu_reader *r, ncu_launch *l, cli_error *err)
{
    const char *metric = text_at(r, COL_METRIC);
    if (metric[0] == '\0') {
        return true; /* a rule's result, not a metric */
    }
    if (strcmp(metric, DETAILS_POLICY_METRIC) == 0) {
        snprintf(l->cluster_policy, sizeof l->cluster_policy, "%s", text_at(r, COL_VALUE));
        return true;
    }
    for (int f = 0; f < NCU_FIELD_COUNT; f++) {
        if (fields[f].details_metric != NULL && strcmp(metric, fields[f].details_metric) == 0) {
            if (l->v[f].present) {
                return true; /* the first of a name wins */
            }
            char what[96];
            snprintf(what, sizeof what, "'%s'", fields[f].details_metric);
            return set_value(r, l, (ncu_field)f, text_at(r, COL_VALUE), text_at(r, COL_UNIT), what,
                             err);
        }
    }
    return true;
}

static int next_details(ncu_reader *r, ncu_launch *l, cli_error *err)
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

int ncu_reader_next(ncu_reader *r, ncu_launch *out, cli_error *err)
{
    memset(out, 0, sizeof *out);
    out->cc_major = out->cc_minor = -1;
    return r->page == NCU_PAGE_RAW ? next_raw(r, out, err) : next_details(r, out, err);
}
