/*
 * test_ncu.c - `occ ncu` on the Nsight Compute exports measured on an H200
 * (tests/data/ncu-h200, tests/data/ncu-sweep): libocc must agree with every
 * profiled launch's theoretical occupancy, Block Limits and active
 * clusters, read here from the CSV (csv.h) apart from occ's Nsight Compute
 * reader; the gap model must match the measured achieved occupancy where
 * the grid explains it; bad files are refused with one line naming the file
 * and the line; and the CSV reader's fast path finds the records its
 * byte-at-a-time path finds.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>
#include <zlib.h>

#include "cli.h"
#include "cli_harness.h"
#include "csv.h"
#include "ncu.h"
#include "test_data.h"

/* The launches of each export, as tests/data/ncu-h200/README.md counts them. */
#define TORCH_LAUNCHES 39
#define TRITON_LAUNCHES 10
#define SMEMCFG_LAUNCHES 944
#define SWEEP_LAUNCHES 7

static char dir[64];

/* cmocka's assert_float_equal works in float; these are doubles. */
#define assert_near(a, b, tolerance) assert_near_at((a), (b), (tolerance), __FILE__, __LINE__)

static void assert_near_at(double a, double b, double tolerance, const char *file, int line)
{
    if (!(fabs(a - b) <= tolerance)) {
        fail_msg("%s:%d: %.17g and %.17g differ by more than %g", file, line, a, b, tolerance);
    }
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/occ-test-ncu-XXXXXX");
    return mkdtemp(dir) == NULL ? -1 : 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *temp_path(const char *name, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s/%s", dir, name);
    return buf;
}

static void write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
}

/* A gzipped file of tests/data, whole, NUL-terminated. */
static char *gunzip(const char *relative)
{
    const char *path = test_data_path(relative);
    gzFile in = gzopen(path, "rb");
    if (in == NULL) {
        fail_msg("test data %s: cannot open", path);
    }
    size_t cap = 1 << 20;
    size_t len = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    int n;
    while ((n = gzread(in, text + len, (unsigned)(cap - len - 1))) > 0) {
        len += (size_t)n;
        if (cap - len < 2) {
            cap *= 2;
            text = realloc(text, cap);
            assert_non_null(text);
        }
    }
    assert_true(n == 0);
    gzclose(in);
    text[len] = '\0';
    return text;
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fail_msg("test data %s: cannot open", path);
    }
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    long size = ftell(f);
    rewind(f);
    char *text = malloc((size_t)size + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)size, f), (size_t)size);
    text[size] = '\0';
    fclose(f);
    return text;
}

static json_t *json_of_last(void)
{
    json_error_t jerr;
    json_t *doc = json_loads(last.out, 0, &jerr);
    if (doc == NULL) {
        fail_msg("occ ncu --json: not JSON: %s (line %d)", jerr.text, jerr.line);
    }
    assert_string_equal(json_string_value(json_object_get(doc, "schema")), "occ.ncu");
    assert_int_equal(json_integer_value(json_object_get(doc, "version")), 1);
    return doc;
}

/* `occ ncu --json --top 0 -` on text. */
static json_t *ncu_json(const char *text)
{
    assert_int_equal(OCC(text, "ncu", "--json", "--top", "0", "-"), EXIT_OK);
    assert_string_equal(last.err, "");
    return json_of_last();
}

/* ---- the CSV read independently of occ's reader ---- */

/* Nsight's number: thousands separators dropped. */
static double number(const char *text)
{
    char buf[64];
    size_t n = 0;
    for (const char *p = text; *p != '\0' && *p != ' ' && n + 1 < sizeof buf; p++) {
        if (*p != ',') {
            buf[n++] = *p;
        }
    }
    buf[n] = '\0';
    char *end;
    double v = strtod(buf, &end);
    if (end == buf) {
        fail_msg("'%s' is not a number", text);
    }
    return v;
}

typedef struct table {
    FILE *f;
    csv_reader r;
    int columns;
    char **names;
} table;

static void table_open(table *t, const char *text)
{
    t->f = fmemopen((void *)(uintptr_t)text, strlen(text), "r");
    assert_non_null(t->f);
    assert_true(csv_init(&t->r, t->f, 1 << 20, 4096));
    assert_int_equal(csv_next(&t->r), CSV_RECORD);
    t->columns = t->r.field_count;
    t->names = calloc((size_t)t->columns, sizeof *t->names);
    assert_non_null(t->names);
    for (int i = 0; i < t->columns; i++) {
        t->names[i] = strdup(csv_field(&t->r, i));
    }
}

static int column(const table *t, const char *name)
{
    for (int i = 0; i < t->columns; i++) {
        if (strcmp(t->names[i], name) == 0) {
            return i;
        }
    }
    fail_msg("no column %s", name);
    return -1;
}

static const char *cell(table *t, const char *name)
{
    return csv_field(&t->r, column(t, name));
}

static void table_close(table *t)
{
    for (int i = 0; i < t->columns; i++) {
        free(t->names[i]);
    }
    free(t->names);
    csv_free(&t->r);
    fclose(t->f);
}

static const char *const limit_keys[5] = {"warps", "blocks", "registers", "shared_mem", "barriers"};
static const char *const raw_limit_columns[5] = {
    "launch__occupancy_limit_warps", "launch__occupancy_limit_registers",
    "launch__occupancy_limit_shared_mem", "launch__occupancy_limit_blocks",
    "launch__occupancy_limit_barriers"};
static const char *const raw_limit_keys[5] = {"warps", "registers", "shared_mem", "blocks",
                                              "barriers"};

static json_t *kernel_at(json_t *doc, size_t i)
{
    json_t *k = json_array_get(json_object_get(doc, "kernels"), i);
    assert_non_null(k);
    return k;
}

static int limit_of(json_t *k, const char *which)
{
    json_t *v = json_object_get(json_object_get(k, "limits"), which);
    assert_true(json_is_integer(v));
    return (int)json_integer_value(v);
}

static double real_of(json_t *k, const char *name)
{
    json_t *v = json_object_get(k, name);
    if (!json_is_number(v)) {
        fail_msg("%s is not a number", name);
    }
    return json_number_value(v);
}

/* Every launch of a raw page: libocc's limits, theoretical occupancy and
   active clusters equal Nsight's columns; no mismatch. Returns the rows. */
static int check_raw(const char *text, json_t *doc)
{
    table t;
    table_open(&t, text);
    assert_int_equal(csv_next(&t.r), CSV_RECORD); /* units */
    assert_string_equal(cell(&t, "ID"), "");
    int rows = 0;
    while (csv_next(&t.r) == CSV_RECORD) {
        json_t *k = kernel_at(doc, (size_t)rows);
        assert_int_equal(json_integer_value(json_object_get(k, "id")),
                         (long long)number(cell(&t, "ID")));
        for (int i = 0; i < 5; i++) {
            int nsight = (int)number(cell(&t, raw_limit_columns[i]));
            if (limit_of(k, raw_limit_keys[i]) != nsight) {
                fail_msg("launch %d: limits.%s %d, Nsight %d", rows, raw_limit_keys[i],
                         limit_of(k, raw_limit_keys[i]), nsight);
            }
        }
        /* six decimals in the H200 exports, two in ncu-sweep's */
        double pct = number(cell(&t, "sm__maximum_warps_per_active_cycle_pct"));
        assert_near(real_of(k, "theoretical_occupancy") * 100.0, pct, 0.005 + 1e-9);
        assert_near(real_of(k, "ncu_theoretical_occupancy") * 100.0, pct, 1e-9);
        double achieved = number(cell(&t, "sm__warps_active.avg.pct_of_peak_sustained_active"));
        assert_near(real_of(k, "achieved_occupancy") * 100.0, achieved, 1e-9);
        assert_int_equal(json_integer_value(json_object_get(k, "block_size")),
                         (long long)number(cell(&t, "launch__block_size")));
        assert_int_equal(json_integer_value(json_object_get(k, "grid_size")),
                         (long long)number(cell(&t, "launch__grid_size")));
        /* Kbyte: 1000 bytes, printed to the byte or to 10 bytes */
        assert_near((double)json_integer_value(json_object_get(k, "shared_mem_config_bytes")),
                    number(cell(&t, "launch__shared_mem_config_size")) * 1000.0, 5.0 + 1e-6);
        int cluster = (int)number(cell(&t, "launch__cluster_size"));
        json_t *clusters = json_object_get(k, "max_active_clusters");
        if (cluster > 0) {
            assert_int_equal(json_integer_value(clusters),
                             (long long)number(cell(&t, "launch__cluster_max_active")));
            assert_true(json_is_true(json_object_get(k, "max_active_clusters_exact")));
        } else {
            assert_true(json_is_null(clusters));
        }
        assert_int_equal(json_array_size(json_object_get(k, "mismatches")), 0);
        rows++;
    }
    assert_int_equal(json_array_size(json_object_get(doc, "kernels")), (size_t)rows);
    table_close(&t);
    return rows;
}

static void check_raw_export(const char *relative, int launches)
{
    char *text = gunzip(relative);
    json_t *doc = ncu_json(text);
    assert_int_equal(check_raw(text, doc), launches);
    json_t *summary = json_object_get(doc, "summary");
    assert_int_equal(json_integer_value(json_object_get(summary, "launches")), launches);
    assert_int_equal(json_integer_value(json_object_get(summary, "agreed")), launches);
    json_decref(doc);
    free(text);
}

static void test_torch_raw_agrees(void **state)
{
    (void)state;
    check_raw_export("ncu-h200/torch-raw.csv.gz", TORCH_LAUNCHES);
}

static void test_triton_raw_agrees(void **state)
{
    (void)state;
    check_raw_export("ncu-h200/triton-raw.csv.gz", TRITON_LAUNCHES);
}

static void test_smemcfg_raw_agrees(void **state)
{
    (void)state;
    check_raw_export("ncu-h200/smemcfg-raw.csv.gz", SMEMCFG_LAUNCHES);
}

/* The raw page with metric instances ("256 (0: 256)") and two decimals. */
static void test_sweep_raw_with_instances_agrees(void **state)
{
    (void)state;
    char *text = read_text(test_data_path("ncu-sweep/ncu_raw.csv"));
    json_t *doc = ncu_json(text);
    assert_int_equal(check_raw(text, doc), SWEEP_LAUNCHES);
    json_decref(doc);
    free(text);
}

/* The details page: Nsight's Block Limit and Theoretical Occupancy rows,
   per launch, read here; and libocc gives the same as from the raw page,
   whose sizes are exact where the details page rounds them. */
static void check_details_export(const char *details, const char *raw, int launches)
{
    char *text = gunzip(details);
    json_t *doc = ncu_json(text);
    char *raw_text = gunzip(raw);
    json_t *raw_doc = ncu_json(raw_text);
    table t;
    table_open(&t, text);
    static const char *const metrics[5] = {"Block Limit Warps", "Block Limit SM",
                                           "Block Limit Registers", "Block Limit Shared Mem",
                                           "Block Limit Barriers"};
    int index = -1;
    char id[32] = "";
    json_t *k = NULL;
    int rows_checked = 0;
    while (csv_next(&t.r) == CSV_RECORD) {
        if (strcmp(cell(&t, "ID"), id) != 0) {
            snprintf(id, sizeof id, "%s", cell(&t, "ID"));
            k = kernel_at(doc, (size_t)++index);
            assert_int_equal(json_integer_value(json_object_get(k, "id")), (long long)number(id));
            assert_int_equal(json_array_size(json_object_get(k, "mismatches")), 0);
            json_t *rk = kernel_at(raw_doc, (size_t)index);
            for (int i = 0; i < 5; i++) {
                assert_int_equal(limit_of(k, limit_keys[i]), limit_of(rk, limit_keys[i]));
            }
            assert_near(real_of(k, "theoretical_occupancy"), real_of(rk, "theoretical_occupancy"),
                        1e-12);
        }
        const char *metric = cell(&t, "Metric Name");
        for (int i = 0; i < 5; i++) {
            if (strcmp(metric, metrics[i]) == 0) {
                assert_int_equal(limit_of(k, limit_keys[i]), (int)number(cell(&t, "Metric Value")));
                rows_checked++;
            }
        }
        if (strcmp(metric, "Theoretical Occupancy") == 0) {
            /* printed with 2 decimals */
            assert_near(real_of(k, "theoretical_occupancy") * 100.0,
                        number(cell(&t, "Metric Value")), 0.005 + 1e-9);
            rows_checked++;
        }
    }
    assert_int_equal(index + 1, launches);
    assert_int_equal(rows_checked, 6 * launches);
    assert_int_equal(json_array_size(json_object_get(doc, "kernels")), (size_t)launches);
    json_t *summary = json_object_get(doc, "summary");
    assert_int_equal(json_integer_value(json_object_get(summary, "agreed")), launches);
    /* no duration on the details page: ranked by the gap, and said so */
    assert_string_equal(json_string_value(json_object_get(summary, "ranked_by")), "gap");
    assert_string_equal(json_string_value(json_object_get(summary, "untimed_file")), "<stdin>");
    table_close(&t);
    json_decref(doc);
    json_decref(raw_doc);
    free(text);
    free(raw_text);
}

static void test_torch_details_agrees(void **state)
{
    (void)state;
    check_details_export("ncu-h200/torch-details.csv.gz", "ncu-h200/torch-raw.csv.gz",
                         TORCH_LAUNCHES);
}

static void test_triton_details_agrees(void **state)
{
    (void)state;
    check_details_export("ncu-h200/triton-details.csv.gz", "ncu-h200/triton-raw.csv.gz",
                         TRITON_LAUNCHES);
}

static void test_smemcfg_details_agrees(void **state)
{
    (void)state;
    check_details_export("ncu-h200/smemcfg-details.csv.gz", "ncu-h200/smemcfg-raw.csv.gz",
                         SMEMCFG_LAUNCHES);
}

/* The details page names no GPU, only its compute capability: libocc's
   cluster count is then an upper bound (no GPC layout); with --gpu H200 it
   is exact and equals Nsight's (cuDNN's cluster of 4: 30, not 132 / 4). */
static void test_details_clusters_with_gpu(void **state)
{
    (void)state;
    char *text = gunzip("ncu-h200/torch-details.csv.gz");
    json_t *doc = ncu_json(text);
    int clustered = 0;
    for (size_t i = 0; i < json_array_size(json_object_get(doc, "kernels")); i++) {
        json_t *k = kernel_at(doc, i);
        if (json_is_null(json_object_get(k, "cluster"))) {
            continue;
        }
        clustered++;
        assert_true(json_is_false(json_object_get(k, "max_active_clusters_exact")));
        assert_true(json_integer_value(json_object_get(k, "max_active_clusters")) >=
                    json_integer_value(json_object_get(k, "ncu_max_active_clusters")));
    }
    assert_true(clustered > 0);
    json_decref(doc);
    assert_int_equal(OCC(text, "ncu", "--json", "--top", "0", "--gpu", "H200", "-"), EXIT_OK);
    doc = json_of_last();
    int exact = 0;
    for (size_t i = 0; i < json_array_size(json_object_get(doc, "kernels")); i++) {
        json_t *k = kernel_at(doc, i);
        if (json_is_null(json_object_get(k, "cluster"))) {
            continue;
        }
        assert_true(json_is_true(json_object_get(k, "max_active_clusters_exact")));
        assert_int_equal(json_integer_value(json_object_get(k, "max_active_clusters")),
                         json_integer_value(json_object_get(k, "ncu_max_active_clusters")));
        assert_int_equal(json_array_size(json_object_get(k, "mismatches")), 0);
        exact++;
    }
    assert_int_equal(exact, clustered);
    json_decref(doc);
    free(text);
}

/* The model of docs/ncu.md, computed here from Nsight's own columns: blocks
   per SM the least Block Limit, waves of blocks x SMs, each wave spread
   over the SMs. */
static double model_bound(table *t)
{
    double blocks = 1e9;
    for (int i = 0; i < 5; i++) {
        double v = number(cell(t, raw_limit_columns[i]));
        blocks = v < blocks ? v : blocks;
    }
    double grid = number(cell(t, "launch__grid_size"));
    double sms = number(cell(t, "launch__sm_count"));
    double warps = (double)(((long long)number(cell(t, "launch__block_size")) + 31) / 32);
    double wave = blocks * sms;
    double waves = 0;
    double active = 0;
    for (double left = grid; left > 0; left -= wave) {
        double in_wave = left < wave ? left : wave;
        active += in_wave < sms ? in_wave : sms;
        waves++;
    }
    return grid * warps / active / 64.0; /* 64 warps per SM on the H200 */
}

/* Where the grid explains the gap (a grid below one wave, a partial last
   wave), the model's bound matches the measured achieved occupancy within
   2 points on the PyTorch and Triton launches (the largest difference is
   1.7 points: a 256-block launch of cuDNN's layout transform). */
static void check_gap_model(const char *relative)
{
    char *text = gunzip(relative);
    json_t *doc = ncu_json(text);
    table t;
    table_open(&t, text);
    assert_int_equal(csv_next(&t.r), CSV_RECORD);
    int index = 0;
    int explained = 0;
    while (csv_next(&t.r) == CSV_RECORD) {
        json_t *k = kernel_at(doc, (size_t)index++);
        json_t *gap = json_object_get(k, "gap");
        double bound = real_of(gap, "grid_bound");
        double theoretical = real_of(k, "theoretical_occupancy");
        double achieved = real_of(k, "achieved_occupancy");
        /* the parts add up to the gap */
        assert_near(real_of(gap, "cluster_loss") + real_of(gap, "small_grid_loss") +
                        real_of(gap, "tail_loss") + real_of(gap, "in_kernel"),
                    theoretical - achieved, 1e-9);
        if (number(cell(&t, "launch__cluster_size")) > 0) {
            continue;
        }
        assert_near(bound, model_bound(&t), 1e-9);
        if (theoretical - bound > 0.05) {
            explained++;
            if (bound - achieved > 0.02 || achieved - bound > 0.02) {
                fail_msg("launch %d: bound %.4f, achieved %.4f", index - 1, bound, achieved);
            }
            const char *cause = json_string_value(json_object_get(gap, "cause"));
            assert_true(strcmp(cause, "tail") == 0 || strcmp(cause, "small_grid") == 0);
        }
    }
    assert_true(explained > 0);
    table_close(&t);
    json_decref(doc);
    free(text);
}

static void test_gap_model_torch(void **state)
{
    (void)state;
    check_gap_model("ncu-h200/torch-raw.csv.gz");
}

static void test_gap_model_triton(void **state)
{
    (void)state;
    check_gap_model("ncu-h200/triton-raw.csv.gz");
}

/* Ranked by duration x (theoretical - achieved), computed here from the
   CSV's columns; the first launches are explained in the text. */
static void test_ranking_by_time(void **state)
{
    (void)state;
    char *text = gunzip("ncu-h200/torch-raw.csv.gz");
    table t;
    table_open(&t, text);
    assert_int_equal(csv_next(&t.r), CSV_RECORD);
    double scores[TORCH_LAUNCHES];
    int n = 0;
    while (csv_next(&t.r) == CSV_RECORD) {
        assert_true(n < TORCH_LAUNCHES);
        double gap = (number(cell(&t, "sm__maximum_warps_per_active_cycle_pct")) -
                      number(cell(&t, "sm__warps_active.avg.pct_of_peak_sustained_active"))) /
                     100.0;
        scores[n++] = number(cell(&t, "gpu__time_duration.sum")) * (gap > 0 ? gap : 0);
    }
    table_close(&t);
    assert_int_equal(OCC(text, "ncu", "--json", "--top", "5", "-"), EXIT_OK);
    json_t *doc = json_of_last();
    json_t *ranking = json_object_get(doc, "ranking");
    assert_int_equal(json_array_size(ranking), 5);
    assert_string_equal(
        json_string_value(json_object_get(json_object_get(doc, "summary"), "ranked_by")),
        "duration_x_gap");
    double previous = 1e300;
    for (size_t i = 0; i < 5; i++) {
        json_t *r = json_array_get(ranking, i);
        int id = (int)json_integer_value(json_object_get(r, "id"));
        assert_near(real_of(r, "score"), scores[id], 1e-9);
        assert_true(scores[id] <= previous);
        previous = scores[id];
        int above = 0; /* launches scoring more than this one */
        for (int j = 0; j < n; j++) {
            above += scores[j] > scores[id];
        }
        assert_true(above <= (int)i);
    }
    json_decref(doc);

    assert_int_equal(OCC(text, "ncu", "--top", "3", "-"), EXIT_OK);
    char line[256];
    assert_string_equal(line_at(last.out, 0, line, sizeof line), "occ ncu: 1 file, 39 launches");
    assert_non_null(strstr(last.out, "agrees with Nsight Compute on 39 of 39 launches"));
    assert_non_null(strstr(last.out, "\n  1. <stdin> ID "));
    assert_non_null(strstr(last.out, "\n  3. <stdin> ID "));
    assert_null(strstr(last.out, "\n  4. <stdin> ID "));
    assert_non_null(strstr(last.out, "What to change:"));
    assert_null(strstr(last.out, " NO "));
    free(text);
}

/* The JSON fields docs/json.md promises, with their types. */
static void test_json_schema(void **state)
{
    (void)state;
    char *text = gunzip("ncu-h200/torch-raw.csv.gz");
    json_t *doc = ncu_json(text);
    json_t *files = json_object_get(doc, "files");
    assert_int_equal(json_array_size(files), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(files, 0), "page")),
                        "raw");
    assert_string_equal(json_string_value(json_object_get(json_array_get(files, 0), "gpu")),
                        "H200");
    bool saw_cluster = false;
    for (size_t i = 0; i < json_array_size(json_object_get(doc, "kernels")); i++) {
        json_t *k = kernel_at(doc, i);
        assert_true(json_is_string(json_object_get(k, "name")));
        assert_true(json_is_integer(json_object_get(k, "block_size")));
        assert_true(json_is_integer(json_object_get(k, "grid_size")));
        assert_true(json_is_integer(json_object_get(k, "shared_mem_config_bytes")));
        const char *fractions[] = {"ncu_theoretical_occupancy", "theoretical_occupancy",
                                   "achieved_occupancy"};
        for (size_t f = 0; f < 3; f++) {
            double v = real_of(k, fractions[f]);
            assert_true(v >= 0.0 && v <= 1.0);
        }
        json_t *limits = json_object_get(k, "limits");
        assert_int_equal(json_object_size(limits), 5);
        for (int l = 0; l < 5; l++) {
            assert_true(json_is_integer(json_object_get(limits, limit_keys[l])));
        }
        assert_true(json_is_array(json_object_get(k, "mismatches")));
        assert_true(json_is_string(json_object_get(k, "explanation")));
        json_t *cluster = json_object_get(k, "cluster");
        json_t *clusters = json_object_get(k, "max_active_clusters");
        if (json_is_null(cluster)) {
            assert_true(json_is_null(clusters));
        } else {
            saw_cluster = true;
            assert_true(json_is_integer(clusters));
        }
        assert_true(json_is_string(json_object_get(json_object_get(k, "gap"), "cause")));
    }
    assert_true(saw_cluster);
    json_decref(doc);
    free(text);
}

/* Field `name` of the row of launch `id` (a raw page, one line a record)
   set to `value`: every field of the row rewritten quoted. */
static char *with_field(const char *text, int id, const char *name, const char *value)
{
    table t;
    table_open(&t, text);
    int col = column(&t, name);
    assert_int_equal(csv_next(&t.r), CSV_RECORD);
    size_t cap = strlen(text) + 4096;
    char *out = malloc(cap);
    assert_non_null(out);
    /* the header and units lines as they are */
    const char *body = strchr(strchr(text, '\n') + 1, '\n') + 1;
    size_t head = (size_t)(body - text);
    memcpy(out, text, head);
    size_t len = head;
    const char *line = body;
    while (csv_next(&t.r) == CSV_RECORD) {
        const char *next = strchr(line, '\n');
        assert_non_null(next);
        next++;
        if ((int)number(cell(&t, "ID")) != id) {
            memcpy(out + len, line, (size_t)(next - line));
            len += (size_t)(next - line);
        } else {
            for (int i = 0; i < t.r.field_count; i++) {
                const char *v = i == col ? value : csv_field(&t.r, i);
                len += (size_t)snprintf(out + len, cap - len, "%s\"%s\"", i > 0 ? "," : "", v);
            }
            out[len++] = '\n';
        }
        line = next;
    }
    out[len] = '\0';
    table_close(&t);
    return out;
}

static json_t *mismatches_of(json_t *doc, size_t i)
{
    return json_object_get(kernel_at(doc, i), "mismatches");
}

static bool has_string(json_t *array, const char *text)
{
    for (size_t i = 0; i < json_array_size(array); i++) {
        if (strcmp(json_string_value(json_array_get(array, i)), text) == 0) {
            return true;
        }
    }
    return false;
}

/* A launch where Nsight's figure is changed is flagged, by field name, and
   only that one. */
static void test_mismatch_flagged(void **state)
{
    (void)state;
    char *text = gunzip("ncu-h200/torch-raw.csv.gz");
    char *changed = with_field(text, 0, "launch__occupancy_limit_registers", "6.000000");
    json_t *doc = ncu_json(changed);
    json_t *m = mismatches_of(doc, 0);
    assert_int_equal(json_array_size(m), 1);
    assert_string_equal(json_string_value(json_array_get(m, 0)), "limits.registers");
    assert_int_equal(json_array_size(mismatches_of(doc, 1)), 0);
    json_t *summary = json_object_get(doc, "summary");
    assert_int_equal(json_integer_value(json_object_get(summary, "agreed")), TORCH_LAUNCHES - 1);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(summary, "mismatches"),
                                                        "limits.registers")),
                     1);
    json_decref(doc);
    assert_int_equal(OCC(changed, "ncu", "--top", "0", "-"), EXIT_OK);
    assert_non_null(strstr(last.out, "on 38 of 39 launches"));
    assert_non_null(strstr(last.out, "mismatches: limits.registers"));
    free(changed);

    changed = with_field(text, 3, "sm__maximum_warps_per_active_cycle_pct", "75.000000");
    doc = ncu_json(changed);
    m = mismatches_of(doc, 3);
    assert_int_equal(json_array_size(m), 1);
    assert_string_equal(json_string_value(json_array_get(m, 0)), "theoretical_occupancy");
    json_decref(doc);
    free(changed);

    /* a configuration that is no carveout step of the H200 */
    changed = with_field(text, 0, "launch__shared_mem_config_size", "40.000000");
    doc = ncu_json(changed);
    assert_true(has_string(mismatches_of(doc, 0), "shared_mem_config_bytes"));
    json_decref(doc);
    free(changed);

    /* Nsight's active clusters above what the GPU holds */
    changed = with_field(text, 2, "launch__cluster_max_active", "67");
    doc = ncu_json(changed);
    m = mismatches_of(doc, 2);
    assert_int_equal(json_array_size(m), 1);
    assert_string_equal(json_string_value(json_array_get(m, 0)), "max_active_clusters");
    json_decref(doc);
    free(changed);
    free(text);
}

/* One launch of one block reads in the singular: "1 launch", "the grid of 1
   block", "1 SM holds" (torch-raw launch 0 cut to itself, its grid to one
   block: 131 of the 132 SMs idle). */
static void test_one_launch_singular(void **state)
{
    (void)state;
    char *text = gunzip("ncu-h200/torch-raw.csv.gz");
    char *one_block = with_field(text, 0, "launch__grid_size", "1");
    char *one = with_field(one_block, 0, "launch__waves_per_multiprocessor", "0.00");
    free(one_block);
    char *end = one;
    for (int lines = 0; lines < 3; lines++) {
        end = strchr(end, '\n');
        assert_non_null(end);
        end++;
    }
    *end = '\0'; /* the header, the units and launch 0 */
    assert_int_equal(OCC(one, "ncu", "--top", "1", "-"), EXIT_OK);
    assert_non_null(strstr(last.out, "occ ncu: 1 file, 1 launch\n"));
    assert_non_null(strstr(last.out, "on 1 of 1 launch (theoretical"));
    assert_non_null(strstr(last.out, ", 1 launch on "));
    /* the paragraph as one line: wrapped lines joined, their indent dropped */
    char *flat = strdup(last.out);
    assert_non_null(flat);
    size_t n = 0;
    for (const char *p = last.out; *p != '\0'; p++) {
        if (*p == '\n') {
            while (p[1] == ' ') {
                p++;
            }
            flat[n++] = ' ';
        } else {
            flat[n++] = *p;
        }
    }
    flat[n] = '\0';
    assert_non_null(strstr(flat, "The grid of 1 block is smaller than one wave of 660: 1 SM holds "
                                 "1.00 block each on average and 131 SMs stay idle."));
    free(flat);
    assert_null(strstr(last.out, " 1 launches"));
    assert_null(strstr(last.out, " 1 blocks"));
    assert_null(strstr(last.out, " 1 SMs"));
    free(one);
    free(text);
}

/* ncu's own messages before the CSV (its output redirected to a file). */
static void test_ncu_messages_skipped(void **state)
{
    (void)state;
    char *text = gunzip("ncu-h200/triton-raw.csv.gz");
    const char *prefix = "==PROF== Connected to process 1528 (/usr/bin/python3.12)\n"
                         "==WARNING== Found outstanding GPU clock reset, trying to revert...\n";
    char *both = malloc(strlen(prefix) + strlen(text) + 1);
    assert_non_null(both);
    strcpy(both, prefix);
    strcat(both, text);
    assert_int_equal(OCC(both, "ncu", "--json", "--top", "0", "-"), EXIT_OK);
    assert_string_equal(last.err, "occ ncu: <stdin>: 2 lines before the header skipped (not part "
                                  "of the export: the application's own output?)\n");
    json_t *doc = json_of_last();
    assert_int_equal(json_array_size(json_object_get(doc, "kernels")), TRITON_LAUNCHES);
    json_t *file = json_array_get(json_object_get(doc, "files"), 0);
    assert_int_equal(json_integer_value(json_object_get(file, "skipped_lines")), 2);
    json_decref(doc);
    free(both);
    free(text);
}

/* stdin from a pipe is read twice: copied aside first. */
static void test_stdin_pipe(void **state)
{
    (void)state;
    char *text = gunzip("ncu-h200/triton-raw.csv.gz");
    size_t len = strlen(text);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    assert_true(len < 65536); /* fits the pipe's buffer: no writer thread needed */
    assert_int_equal(write(fds[1], text, len), (ssize_t)len);
    close(fds[1]);
    FILE *in = fdopen(fds[0], "r");
    FILE *out = tmpfile();
    FILE *err = tmpfile();
    assert_true(in != NULL && out != NULL && err != NULL);
    const cli_io io = {in, out, err};
    char a0[] = "occ", a1[] = "ncu", a2[] = "--json", a3[] = "-";
    char *argv[] = {a0, a1, a2, a3, NULL};
    assert_int_equal(cli_main(4, argv, &io), EXIT_OK);
    long size = ftell(out);
    assert_true(size > 0);
    rewind(out);
    char *printed = calloc(1, (size_t)size + 1);
    assert_non_null(printed);
    assert_int_equal(fread(printed, 1, (size_t)size, out), (size_t)size);
    assert_non_null(strstr(printed, "\"agreed\":10"));
    free(printed);
    fclose(in);
    fclose(out);
    fclose(err);
    free(text);
}

/* One line on stderr naming the file and the line; nothing on stdout. */
static void assert_refused(const char *path, const char *fragment)
{
    assert_int_equal(OCC(NULL, "ncu", path), EXIT_DATA);
    assert_string_equal(last.out, "");
    assert_int_equal(line_count(last.err), 1);
    assert_true(starts_with(last.err, "occ ncu: "));
    if (strstr(last.err, path) == NULL || strstr(last.err, fragment) == NULL) {
        fail_msg("'%s' lacks the path or '%s'", last.err, fragment);
    }
}

static void refuse_text(const char *name, const char *text, const char *fragment)
{
    char path[128];
    temp_path(name, path, sizeof path);
    write_file(path, text, strlen(text));
    assert_refused(path, fragment);
}

static void test_bad_files(void **state)
{
    (void)state;
    char *raw = gunzip("ncu-h200/torch-raw.csv.gz");
    char *details = gunzip("ncu-h200/triton-details.csv.gz");
    size_t len = strlen(raw);
    char path[128];

    /* cut inside a quoted kernel name: the quote never closes */
    char *cut = strdup(raw);
    char *name = strstr(cut + strlen(cut) / 2, "\"void ");
    assert_non_null(name);
    name[20] = '\0';
    int line = 1;
    for (const char *p = cut; p < name; p++) {
        line += *p == '\n';
    }
    char fragment[128];
    snprintf(fragment, sizeof fragment, "line %d: a quoted field is not closed", line);
    refuse_text("cut-quote.csv", cut, fragment);
    /* cut at the end of a line's first fields */
    strcpy(cut, raw);
    char *row = strstr(cut, "\n\"5\",");
    assert_non_null(row);
    row[12] = '\0'; /* after "5","1528", */
    refuse_text("cut-fields.csv", cut, "line 8: 3 fields; the header has 279");
    free(cut);

    /* not CSV at all */
    temp_path("binary.csv", path, sizeof path);
    const unsigned char elf[] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, '\n', 0, 0};
    write_file(path, elf, sizeof elf);
    assert_refused(path, "line 1: a NUL byte: not a CSV text file");
    refuse_text("prose.csv", "hello, world\n",
                "line 1: no header (a line with 'ID' and 'Kernel Name' columns) in the file's 1 "
                "line: not an Nsight Compute export");
    refuse_text("empty.csv", "", "the file is empty");
    temp_path("a-directory", path, sizeof path);
    assert_int_equal(mkdir(path, 0700), 0);
    assert_refused(path, "is a directory");

    /* the wrong columns: a calc --batch CSV, a raw page without registers */
    refuse_text("batch.csv", "gpu,threads,regs,smem,dyn_smem,carveout\nH200,256,32,0,0,default\n",
                "line 2: no header (a line with 'ID' and 'Kernel Name' columns) in the file's 2 "
                "lines: not an Nsight Compute export");
    char *renamed = strdup(raw);
    char *regs = strstr(renamed, "\"launch__registers_per_thread\"");
    assert_non_null(regs);
    memcpy(regs + 1, "launch__registers_per_threat", 28);
    refuse_text("no-regs.csv", renamed, "line 1: column 'launch__registers_per_thread' is missing");
    free(renamed);

    /* a line beyond the record limit */
    size_t huge = (1u << 20) + 4096;
    char *big = malloc(len + huge + 2);
    assert_non_null(big);
    const char *units_end = strchr(strchr(raw, '\n') + 1, '\n') + 1;
    size_t head = (size_t)(units_end - raw);
    memcpy(big, raw, head);
    memset(big + head, 'x', huge);
    big[head + huge] = '\n';
    big[head + huge + 1] = '\0';
    refuse_text("huge.csv", big, "line 3: a record longer than 1048576 bytes");
    free(big);

    /* two exports joined */
    char *joined = malloc(2 * len + 1);
    assert_non_null(joined);
    strcpy(joined, raw);
    strcat(joined, raw);
    refuse_text("joined.csv", joined, "line 42: a second header");
    free(joined);

    /* a value that is not a number, a unit that is not a size */
    char *bad = with_field(raw, 4, "launch__registers_per_thread", "many");
    refuse_text("nan.csv", bad,
                "line 7: column 'launch__registers_per_thread': 'many' is not a number");
    free(bad);
    char *units = strdup(raw);
    char *kbyte = strstr(units, "\"Kbyte\"");
    assert_non_null(kbyte);
    memcpy(kbyte + 1, "Kbits", 5);
    refuse_text("unit.csv", units,
                "line 2: column 'launch__shared_mem_config_size': unit 'Kbits' is not a size");
    free(units);
    /* registers no GPU allows: libocc's reason */
    bad = with_field(raw, 6, "launch__registers_per_thread", "300");
    refuse_text("regs300.csv", bad, "line 9: launch ID 6: ");
    free(bad);

    /* the details page without a row occ needs */
    char *missing = strdup(details);
    char *reg_row = strstr(missing, "\"Registers Per Thread\"");
    assert_non_null(reg_row);
    memcpy(reg_row + 1, "Registers Per Threat", 20);
    refuse_text("details-no-regs.csv", missing, "launch ID 0 has no 'Registers Per Thread' row");
    free(missing);
    /* launches out of order: launch 0's rows renumbered 7 */
    char *swapped = strdup(details);
    for (char *p = strchr(swapped, '\n'); p != NULL; p = strchr(p + 1, '\n')) {
        if (strncmp(p + 1, "\"0\",", 4) == 0) {
            p[2] = '7';
        }
    }
    refuse_text("details-order.csv", swapped, "launch ID 1 after ID 7");
    free(swapped);

    free(raw);
    free(details);
}

static void test_usage_errors(void **state)
{
    (void)state;
    assert_int_equal(OCC(NULL, "ncu", "--top", "2000", "x.csv"), EXIT_USAGE);
    assert_non_null(strstr(last.err, "option --top"));
    assert_int_equal(OCC(NULL, "ncu", "--gpu", "H999", "x.csv"), EXIT_USAGE);
    assert_int_equal(OCC(NULL, "ncu", "--help"), EXIT_OK);
    assert_non_null(strstr(last.out, "occ ncu [options] FILE..."));
}

/* The writers' quoting, case by case (ids csv-put-N): csv_put_field quotes
   edge spaces too, csv_put_field_rfc4180 only a comma, quote or line
   break; control bytes and UTF-8 pass as they are. */
static const struct {
    const char *id;
    const char *text;
    const char *put;     /* csv_put_field */
    const char *rfc4180; /* csv_put_field_rfc4180 */
} csv_put_cases[] = {
    {"csv-put-1", "plain", "plain", "plain"},
    {"csv-put-2", "", "", ""},
    {"csv-put-3", "a,b", "\"a,b\"", "\"a,b\""},
    {"csv-put-4", "say \"hi\"", "\"say \"\"hi\"\"\"", "\"say \"\"hi\"\"\""},
    {"csv-put-5", "\"", "\"\"\"\"", "\"\"\"\""},
    {"csv-put-6", "two\nlines", "\"two\nlines\"", "\"two\nlines\""},
    {"csv-put-7", "cr\rhere", "\"cr\rhere\"", "\"cr\rhere\""},
    {"csv-put-8", " lead", "\" lead\"", " lead"},
    {"csv-put-9", "trail\t", "\"trail\t\"", "trail\t"},
    {"csv-put-10", "in side", "in side", "in side"},
    {"csv-put-11", "bell\a\x1b[2J", "bell\a\x1b[2J", "bell\a\x1b[2J"},
    {"csv-put-12", "caf\xc3\xa9 \xe2\x86\x92", "caf\xc3\xa9 \xe2\x86\x92",
     "caf\xc3\xa9 \xe2\x86\x92"},
    {"csv-put-13", "f<int, 2>(\"x\")", "\"f<int, 2>(\"\"x\"\")\"", "\"f<int, 2>(\"\"x\"\")\""},
};

static char *csv_written(void (*put)(FILE *, const char *), const char *text)
{
    char *written = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&written, &size);
    assert_non_null(f);
    put(f, text);
    assert_int_equal(fclose(f), 0);
    return written;
}

static void put_field_always(FILE *out, const char *text)
{
    csv_put_field_quoted(out, text, true);
}

static void test_csv_put_field(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof csv_put_cases / sizeof csv_put_cases[0]; i++) {
        char *put = csv_written(csv_put_field, csv_put_cases[i].text);
        char *rfc = csv_written(csv_put_field_rfc4180, csv_put_cases[i].text);
        char *always = csv_written(put_field_always, csv_put_cases[i].text);
        if (strcmp(put, csv_put_cases[i].put) != 0 || strcmp(rfc, csv_put_cases[i].rfc4180) != 0) {
            fail_msg("%s: csv_put_field wrote [%s], csv_put_field_rfc4180 [%s]",
                     csv_put_cases[i].id, put, rfc);
        }
        /* the oracle: the reader gives back the text csv_put_field wrote, and
           an always-quoted field, whatever it holds */
        for (int w = 0; w < 2; w++) {
            char *line = w == 0 ? put : always;
            if (strlen(line) == 0) {
                continue; /* no bytes: no record to read */
            }
            FILE *f = fmemopen(line, strlen(line), "r");
            assert_non_null(f);
            csv_reader r;
            assert_true(csv_init(&r, f, CSV_MAX_RECORD_BYTES, CSV_MAX_FIELDS));
            if (csv_next(&r) != CSV_RECORD || r.field_count != 1 ||
                strcmp(csv_field(&r, 0), csv_put_cases[i].text) != 0) {
                fail_msg("%s: [%s] did not read back as one field", csv_put_cases[i].id, line);
            }
            csv_free(&r);
            fclose(f);
        }
        free(put);
        free(rfc);
        free(always);
    }
}

/* A reader holds a record up to its limit: calc --batch's keeps its 4096-byte records,
   a larger limit holds what that one refuses. */
static void test_csv_sized_reader(void **state)
{
    (void)state;
    size_t n = 5000;
    char *text = malloc(n + 400 * 2 + 2);
    assert_non_null(text);
    memset(text, 'a', n);
    size_t len = n;
    for (int i = 0; i < 400; i++) {
        text[len++] = ',';
        text[len++] = 'b';
    }
    text[len++] = '\n';
    FILE *f = fmemopen(text, len, "r");
    assert_non_null(f);
    csv_reader *batch = malloc(sizeof *batch);
    assert_non_null(batch);
    assert_true(csv_init(batch, f, CSV_MAX_RECORD_BYTES, CSV_MAX_FIELDS));
    assert_int_equal(csv_next(batch), CSV_TOO_LONG);
    assert_int_equal(csv_next(batch), CSV_END);
    csv_free(batch);
    rewind(f);
    csv_reader sized;
    assert_true(csv_init(&sized, f, 8192, 512));
    assert_int_equal(csv_next(&sized), CSV_RECORD);
    assert_int_equal(sized.field_count, 401);
    assert_int_equal(strlen(csv_field(&sized, 0)), n);
    assert_string_equal(csv_field(&sized, 400), "b");
    assert_string_equal(csv_field(&sized, 401), "");
    assert_int_equal(csv_next(&sized), CSV_END);
    csv_free(&sized);
    rewind(f);
    assert_true(csv_init(&sized, f, 4096, 512));
    assert_int_equal(csv_next(&sized), CSV_TOO_LONG);
    csv_free(&sized);
    fclose(f);
    free(batch);
    free(text);
}

/* ---- hardening: what precedes the header, impossible figures, --gpu, gzip ---- */

/* `occ ARGS...` with `in` as stdin (binary, or a pipe), through cli_main. */
static int run_with_stdin(FILE *in, const char *const *args)
{
    FILE *out = tmpfile();
    FILE *err = tmpfile();
    assert_true(out != NULL && err != NULL);
    char *argv[16];
    int argc = 0;
    argv[argc++] = (char *)(uintptr_t) "occ";
    for (int i = 0; args[i] != NULL && argc < 15; i++) {
        argv[argc++] = (char *)(uintptr_t)args[i];
    }
    argv[argc] = NULL;
    const cli_io io = {in, out, err};
    int code = cli_main(argc, argv, &io);
    FILE *both[2] = {out, err};
    char **texts[2] = {&last.out, &last.err};
    for (int i = 0; i < 2; i++) {
        long size = ftell(both[i]);
        rewind(both[i]);
        free(*texts[i]);
        *texts[i] = calloc(1, (size_t)size + 1);
        assert_non_null(*texts[i]);
        assert_int_equal(fread(*texts[i], 1, (size_t)size, both[i]), (size_t)size);
        fclose(both[i]);
    }
    last.code = code;
    return code;
}

/* The hostile exports of tests/data/hostile (README.md there; make_hostile_ncu.py made
   them): each refused with one line naming the file, the line and the value, or read. */
typedef struct hostile_case {
    const char *id;
    const char *file;
    int code;
    const char *fragment; /* in the one line on stderr (EXIT_DATA), or "" */
} hostile_case;

static const hostile_case hostile_cases[] = {
    {"hostile-1", "ncu-baseline.csv", EXIT_OK, ""},
    {"hostile-2", "ncu-baseline.csv.gz", EXIT_OK, ""},
    {"hostile-3", "ncu-details-baseline.csv", EXIT_OK, ""},
    {"hostile-4", "ncu-app-output-before-header.csv", EXIT_OK,
     "ncu-app-output-before-header.csv: 5 lines before the header skipped"},
    {"hostile-5", "ncu-no-header.csv", EXIT_DATA,
     "line 2: no header (a line with 'ID' and 'Kernel Name' columns) in the file's 2 lines"},
    {"hostile-6", "ncu-achieved-negative.csv", EXIT_DATA,
     "line 3: column 'sm__warps_active.avg.pct_of_peak_sustained_active': achieved occupancy "
     "-50% is below 0%"},
    {"hostile-7", "ncu-achieved-150.csv", EXIT_DATA,
     "line 3: column 'sm__warps_active.avg.pct_of_peak_sustained_active': achieved occupancy "
     "150% is above 100%"},
    {"hostile-8", "ncu-duration-negative.csv", EXIT_DATA,
     "line 3: column 'gpu__time_duration.sum': duration -42.848 us is below 0 us"},
    {"hostile-9", "ncu-sm-count-0.csv", EXIT_DATA,
     "line 3: column 'launch__sm_count': SM count 0 is below 1"},
    {"hostile-10", "ncu-sm-count-minus-1.csv", EXIT_DATA,
     "line 3: column 'launch__sm_count': SM count -1 is below 1"},
    {"hostile-11", "ncu-sm-count-1e9.csv", EXIT_DATA,
     "line 3: column 'launch__sm_count': SM count 1000000000 is above 1024"},
    {"hostile-12", "ncu-cluster-dim-17.csv", EXIT_DATA,
     "line 4: column 'launch__cluster_dim_x': cluster dimension x 17 is above 16"},
    {"hostile-13", "ncu-cluster-size-0.csv", EXIT_DATA,
     "line 4: launch ID 2: cluster size 0 is not 2, the product of the cluster dimensions (2, "
     "1, 1)"},
    {"hostile-14", "ncu-cluster-size-3.csv", EXIT_DATA,
     "line 4: launch ID 2: cluster size 3 is not 2"},
    {"hostile-15", "ncu-grid-3-comma-2.csv", EXIT_DATA,
     "line 3: column 'launch__grid_size': '3,2' is not a number"},
    {"hostile-16", "ncu-raw-unit-furlong.csv", EXIT_DATA,
     "line 2: column 'launch__registers_per_thread': unit 'furlong' is not a unit of the "
     "registers per thread"},
    {"hostile-17", "ncu-details-duplicate-metric.csv", EXIT_DATA,
     "line 7: launch ID 0: a second 'Registers Per Thread' row (the first is line 6)"},
    {"hostile-18", "ncu-details-unit-furlong.csv", EXIT_DATA,
     "line 6: 'Registers Per Thread': unit 'furlong' is not a unit of the registers per thread"},
    {"hostile-19", "ncu-gzip-cut.csv.gz", EXIT_DATA, ": the gzip data is cut short"},
    {"hostile-20", "ncu-gzip-damaged.csv.gz", EXIT_DATA, ": the gzip data is damaged"},
    {"hostile-21", "ncu-gzip-trailing.csv.gz", EXIT_DATA, ": bytes after the end of the gzip data"},
};

static void test_hostile_exports(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof hostile_cases / sizeof hostile_cases[0]; i++) {
        const hostile_case *c = &hostile_cases[i];
        char relative[128];
        snprintf(relative, sizeof relative, "hostile/%s", c->file);
        char path[4096];
        snprintf(path, sizeof path, "%s", test_data_path(relative));
        struct stat st;
        if (stat(path, &st) != 0) {
            fail_msg("%s: test data %s is missing", c->id, path);
        }
        int code = OCC(NULL, "ncu", "--json", "--top", "1", path);
        if (code != c->code) {
            fail_msg("%s (%s): exit %d, expected %d; stderr: %s", c->id, c->file, code, c->code,
                     last.err);
        }
        if (c->code == EXIT_OK) {
            json_t *doc = json_of_last();
            json_t *summary = json_object_get(doc, "summary");
            /* every hostile file is made from launches libocc agrees with */
            assert_int_equal(json_integer_value(json_object_get(summary, "agreed")),
                             json_integer_value(json_object_get(summary, "launches")));
            assert_true(json_integer_value(json_object_get(summary, "launches")) > 0);
            json_decref(doc);
        } else {
            assert_string_equal(last.out, "");
        }
        if (c->fragment[0] == '\0') {
            assert_string_equal(last.err, "");
            continue;
        }
        if (line_count(last.err) != 1 || strstr(last.err, c->fragment) == NULL ||
            strstr(last.err, path) == NULL) {
            fail_msg("%s (%s): stderr '%s' is not one line with the path and '%s'", c->id, c->file,
                     last.err, c->fragment);
        }
    }
}

/* ---- 1. the application's output before the header ---- */

typedef struct preamble_case {
    const char *id;
    const char *prefix; /* before the export */
    int lines;          /* lines skipped */
} preamble_case;

static const preamble_case preambles[] = {
    {"preamble-1", "", 0},
    {"preamble-2", "done\n", 1},
    {"preamble-3", "==PROF== Connected to process 1528 (/usr/bin/python3.12)\n", 1},
    /* a quote that never closes does not run on into the header */
    {"preamble-4", "He said \"hi\nloss, 0.31\n", 2},
    {"preamble-5", "\n\n   \n", 3},
    {"preamble-6", "step 1\r\nstep 2\r\n", 2},
    /* ID alone, or Kernel Name alone, is not a header */
    {"preamble-7", "ID,step\n\"Kernel Name\",x\n", 2},
};

static void check_preamble(const char *export_text, int launches)
{
    for (size_t i = 0; i < sizeof preambles / sizeof preambles[0]; i++) {
        const preamble_case *c = &preambles[i];
        char *text = malloc(strlen(c->prefix) + strlen(export_text) + 1);
        assert_non_null(text);
        strcpy(text, c->prefix);
        strcat(text, export_text);
        int code = OCC(text, "ncu", "--json", "--top", "0", "-");
        if (code != EXIT_OK) {
            fail_msg("%s: exit %d: %s", c->id, code, last.err);
        }
        json_t *doc = json_of_last();
        json_t *file = json_array_get(json_object_get(doc, "files"), 0);
        assert_int_equal(json_integer_value(json_object_get(file, "skipped_lines")), c->lines);
        assert_int_equal(json_integer_value(json_object_get(file, "launches")), launches);
        assert_int_equal(
            json_integer_value(json_object_get(json_object_get(doc, "summary"), "agreed")),
            launches);
        json_decref(doc);
        if (c->lines == 0) {
            assert_string_equal(last.err, "");
        } else {
            char note[160];
            snprintf(note, sizeof note,
                     "occ ncu: <stdin>: %d line%s before the header skipped (not part of the "
                     "export: the application's own output?)\n",
                     c->lines, c->lines == 1 ? "" : "s");
            if (strcmp(last.err, note) != 0) {
                fail_msg("%s: stderr '%s', expected '%s'", c->id, last.err, note);
            }
        }
        free(text);
    }
}

static void test_preamble_skipped(void **state)
{
    (void)state;
    char *raw = gunzip("ncu-h200/triton-raw.csv.gz");
    check_preamble(raw, TRITON_LAUNCHES);
    free(raw);
    char *details = gunzip("ncu-h200/triton-details.csv.gz");
    check_preamble(details, TRITON_LAUNCHES);
    free(details);
}

/* The skipping is bounded: OCC_PROFILE_NCU_MAX_SKIPPED_LINES lines,
   OCC_PROFILE_NCU_MAX_SKIPPED_BYTES bytes; a line longer than a record is skipped whole; a NUL byte
   is not text. */
static void test_preamble_limits(void **state)
{
    (void)state;
    char *raw = gunzip("ncu-h200/triton-raw.csv.gz");
    size_t raw_len = strlen(raw);
    char path[128];
    temp_path("preamble.csv", path, sizeof path);

    /* the most lines, then the export: read; one more: refused */
    for (long long extra = 0; extra <= 1; extra++) {
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        for (long long i = 0; i < OCC_PROFILE_NCU_MAX_SKIPPED_LINES + extra; i++) {
            fputs("x\n", f);
        }
        fwrite(raw, 1, raw_len, f);
        assert_int_equal(fclose(f), 0);
        int code = OCC(NULL, "ncu", "--top", "0", path);
        if (extra == 0) {
            assert_int_equal(code, EXIT_OK);
            assert_non_null(strstr(last.err, ": 1,000,000 lines before the header skipped"));
        } else {
            assert_int_equal(code, EXIT_DATA);
            assert_int_equal(line_count(last.err), 1);
            assert_non_null(strstr(last.err, "line 1000001: no header (a line with 'ID' and "
                                             "'Kernel Name' columns) in the first 1,000,000 "
                                             "lines and 2,000,000 bytes"));
        }
    }

    /* lines longer than a record (2 MiB each) count their bytes: 32 are read past, 33 not */
    size_t long_line = 2u << 20;
    char *junk = malloc(long_line);
    assert_non_null(junk);
    memset(junk, 'y', long_line - 1);
    junk[long_line - 1] = '\n';
    for (int lines = 31; lines <= 32; lines++) {
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        for (int i = 0; i < lines; i++) {
            assert_int_equal(fwrite(junk, 1, long_line, f), long_line);
        }
        fwrite(raw, 1, raw_len, f);
        assert_int_equal(fclose(f), 0);
        int code = OCC(NULL, "ncu", "--top", "0", path);
        if (lines == 31) {
            assert_int_equal(code, EXIT_OK);
            assert_non_null(strstr(last.err, ": 31 lines before the header skipped"));
        } else {
            /* the 33rd line (the header) would pass 64 MiB with its line end */
            assert_int_equal(code, EXIT_OK);
            assert_non_null(strstr(last.err, ": 32 lines before the header skipped"));
        }
    }
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    for (int i = 0; i < 33; i++) {
        assert_int_equal(fwrite(junk, 1, long_line, f), long_line);
    }
    fwrite(raw, 1, raw_len, f);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(OCC(NULL, "ncu", "--top", "0", path), EXIT_DATA);
    assert_int_equal(line_count(last.err), 1);
    assert_non_null(strstr(last.err, "no header (a line with 'ID' and 'Kernel Name' columns) in "
                                     "the first 32 lines and 67,108,864 bytes"));
    free(junk);

    /* a NUL byte before the header: binary, not an application's text */
    char *nul = malloc(raw_len + 10);
    assert_non_null(nul);
    memcpy(nul, "done\nab\0c\n", 10);
    memcpy(nul + 10, raw, raw_len);
    write_file(path, nul, raw_len + 10);
    assert_refused(path, "line 2: a NUL byte: not a CSV text file");
    free(nul);
    free(raw);
}

/* ---- 2. --gpu against the export's device ---- */

typedef struct gpu_case {
    const char *id;
    const char *export_file;
    const char *option, *value;
    int code;
    const char *fragment;
} gpu_case;

static const gpu_case gpu_cases[] = {
    {"gpu-1", "ncu-h200/torch-raw.csv.gz", "--gpu", "A100", EXIT_DATA,
     "line 3: launch ID 0: the export's device NVIDIA H200 is compute capability 9.0, and --gpu "
     "A100 (A100 SXM 40GB) is 8.0"},
    {"gpu-2", "ncu-h200/torch-raw.csv.gz", "--gpu", "H100 PCIe", EXIT_DATA,
     "line 3: launch ID 0: the export's device NVIDIA H200 has 132 SMs, and --gpu H100 PCIe (H100 "
     "PCIe) has 114"},
    {"gpu-3", "ncu-h200/torch-raw.csv.gz", "--gpu", "H200", EXIT_OK, ""},
    /* the same compute capability and SMs: the same answers */
    {"gpu-4", "ncu-h200/torch-raw.csv.gz", "--gpu", "H100", EXIT_OK, ""},
    /* a generic entry names no SM count of its own */
    {"gpu-5", "ncu-h200/torch-raw.csv.gz", "--gpu", "sm_90", EXIT_OK, ""},
    {"gpu-6", "ncu-h200/torch-raw.csv.gz", "--gpu", "sm_80", EXIT_DATA,
     "the export's device NVIDIA H200 is compute capability 9.0, and --gpu sm_80 (sm_80) is 8.0"},
    /* the details page names no device: the compute capability alone */
    {"gpu-7", "ncu-h200/triton-details.csv.gz", "--gpu", "A100", EXIT_DATA,
     "line 2: launch ID 0: the export's device is compute capability 9.0, and --gpu A100"},
    {"gpu-8", "ncu-h200/triton-details.csv.gz", "--gpu", "H100 PCIe", EXIT_OK, ""},
};

static void test_gpu_must_be_the_exports(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof gpu_cases / sizeof gpu_cases[0]; i++) {
        const gpu_case *c = &gpu_cases[i];
        char path[4096];
        snprintf(path, sizeof path, "%s", test_data_path(c->export_file));
        int code = OCC(NULL, "ncu", "--top", "0", c->option, c->value, path);
        if (code != c->code) {
            fail_msg("%s: exit %d, expected %d: %s", c->id, code, c->code, last.err);
        }
        if (c->code == EXIT_OK) {
            assert_string_equal(last.err, "");
            continue;
        }
        assert_string_equal(last.out, "");
        if (line_count(last.err) != 1 || strstr(last.err, c->fragment) == NULL ||
            strstr(last.err, path) == NULL) {
            fail_msg("%s: '%s' lacks '%s'", c->id, last.err, c->fragment);
        }
    }
    /* a GPU file: its compute capability is compared, not its SMs (a MIG slice) */
    char gpu[128];
    temp_path("gpu.json", gpu, sizeof gpu);
    static const char *const files[2] = {"{\"name\": \"My A100\", \"base\": \"A100 SXM 80GB\"}",
                                         "{\"name\": \"My H200 slice\", \"base\": \"H200\", "
                                         "\"sm_count\": 60}"};
    for (int n = 0; n < 2; n++) {
        write_file(gpu, files[n], strlen(files[n]));
        char path[4096];
        snprintf(path, sizeof path, "%s", test_data_path("ncu-h200/triton-raw.csv.gz"));
        int code = OCC(NULL, "ncu", "--top", "0", "--gpu-file", gpu, path);
        if (n == 0) {
            assert_int_equal(code, EXIT_DATA);
            assert_int_equal(line_count(last.err), 1);
            char want[300];
            snprintf(want, sizeof want,
                     "the export's device NVIDIA H200 is compute capability 9.0, and --gpu-file "
                     "%s (My A100) is 8.0",
                     gpu);
            if (strstr(last.err, want) == NULL) {
                fail_msg("'%s' lacks '%s'", last.err, want);
            }
        } else {
            assert_int_equal(code, EXIT_OK);
        }
    }
}

/* ---- 3. figures no launch can have ---- */

/* The SM bound is far above every GPU occ knows (docs/ncu.md, "Limits"). */
static void test_sm_bound_above_database(void **state)
{
    (void)state;
    int largest = 0;
    for (int i = 0; i < occ_gpu_count(); i++) {
        occ_device d;
        assert_int_equal(occ_gpu_at(i, &d, NULL, NULL, NULL), OCC_OK);
        largest = d.sm_count > largest ? d.sm_count : largest;
    }
    assert_true(largest > 0);
    assert_true(4 * largest <= OCC_PROFILE_NCU_MAX_SM_COUNT);
}

typedef struct figure_case {
    const char *id;
    int launch;
    const char *column, *value;
    const char *fragment; /* NULL: read */
} figure_case;

static const figure_case figure_cases[] = {
    {"figure-1", 0, "sm__warps_active.avg.pct_of_peak_sustained_active", "-0.5",
     "achieved occupancy -0.5% is below 0%"},
    {"figure-2", 0, "sm__warps_active.avg.pct_of_peak_sustained_active", "100.5",
     "achieved occupancy 100.5% is above 100%"},
    {"figure-3", 0, "sm__warps_active.avg.pct_of_peak_sustained_active", "100.000000", NULL},
    {"figure-4", 0, "sm__warps_active.avg.pct_of_peak_sustained_active", "0", NULL},
    {"figure-5", 0, "sm__maximum_warps_per_active_cycle_pct", "101", "above 100%"},
    {"figure-6", 0, "gpu__time_duration.sum", "-1", "duration -1 us is below 0 us"},
    {"figure-7", 0, "gpu__time_duration.sum", "0", NULL},
    {"figure-8", 0, "launch__sm_count", "0", "SM count 0 is below 1"},
    {"figure-9", 0, "launch__sm_count", "1025", "SM count 1025 is above 1024"},
    {"figure-10", 0, "launch__sm_count", "132.5", "SM count 132.5 is not a whole number"},
    {"figure-11", 0, "launch__sm_count", "1024", NULL},
    {"figure-12", 0, "launch__cluster_dim_y", "17", "cluster dimension y 17 is above 16"},
    /* dims (0, 0, 0) say no clusters: a size is a contradiction */
    {"figure-13", 0, "launch__cluster_size", "4",
     "cluster size 4 is not 0, the product of the cluster dimensions (0, 0, 0)"},
    {"figure-14", 0, "launch__cluster_dim_x", "2",
     "cluster dimensions (2, 0, 0): a cluster launch has at least 1 block in each"},
    /* launch 2: clusters of (2, 1, 1) */
    {"figure-15", 2, "launch__cluster_size", "0", "cluster size 0 is not 2"},
    {"figure-16", 2, "launch__cluster_dim_z", "9",
     "a cluster of 2 x 1 x 9 = 18 blocks is above 16"},
    {"figure-17", 2, "launch__cluster_size", "16", "cluster size 16 is not 2"},
};

static void test_impossible_figures(void **state)
{
    (void)state;
    char *raw = gunzip("ncu-h200/torch-raw.csv.gz");
    for (size_t i = 0; i < sizeof figure_cases / sizeof figure_cases[0]; i++) {
        const figure_case *c = &figure_cases[i];
        char *changed = with_field(raw, c->launch, c->column, c->value);
        char name[64];
        snprintf(name, sizeof name, "%s.csv", c->id);
        char path[128];
        temp_path(name, path, sizeof path);
        write_file(path, changed, strlen(changed));
        int code = OCC(NULL, "ncu", "--top", "0", path);
        if (c->fragment == NULL) {
            if (code != EXIT_OK) {
                fail_msg("%s: refused: %s", c->id, last.err);
            }
        } else {
            char line[32];
            snprintf(line, sizeof line, "line %d: ", c->launch + 3);
            if (code != EXIT_DATA || line_count(last.err) != 1 ||
                strstr(last.err, c->fragment) == NULL || strstr(last.err, line) == NULL ||
                strstr(last.err, path) == NULL) {
                fail_msg("%s: exit %d, '%s' lacks '%s%s'", c->id, code, last.err, line,
                         c->fragment);
            }
        }
        free(changed);
    }
    free(raw);
}

/* The details page: the same figures on a metric's row, a metric given twice, a unit that
   is not the metric's. */
typedef struct details_case {
    const char *id;
    const char *metric; /* the launch 0 row changed */
    const char *unit;   /* NULL: as it is */
    const char *value;  /* NULL: as it is */
    bool twice;         /* the row given a second time, after itself */
    const char *fragment;
} details_case;

static const details_case details_cases[] = {
    {"details-1", "Achieved Occupancy", NULL, "-50", false,
     "'Achieved Occupancy': achieved occupancy -50% is below 0%"},
    {"details-2", "# SMs", NULL, "0", false, "'# SMs': SM count 0 is below 1"},
    {"details-3", "Cluster Size", NULL, "17", false, "'Cluster Size': cluster size 17 is above 16"},
    {"details-4", "Registers Per Thread", "furlong", NULL, false,
     "'Registers Per Thread': unit 'furlong' is not a unit of the registers per thread"},
    {"details-5", "Block Limit Warps", "warp", NULL, false,
     "'Block Limit Warps': unit 'warp' is not a unit of the Block Limit Warps"},
    {"details-6", "Theoretical Occupancy", NULL, NULL, true,
     "a second 'Theoretical Occupancy' row (the first is line "},
    {"details-7", "Cluster Scheduling Policy", NULL, NULL, true,
     "a second 'Cluster Scheduling Policy' row"},
    {"details-8", "Waves Per SM", NULL, NULL, true, "a second 'Waves Per SM' row"},
    {"details-9", "Achieved Occupancy", NULL, "100", false, NULL},
};

static void test_details_refusals(void **state)
{
    (void)state;
    char *details = gunzip("ncu-h200/triton-details.csv.gz");
    for (size_t i = 0; i < sizeof details_cases / sizeof details_cases[0]; i++) {
        const details_case *c = &details_cases[i];
        table t;
        table_open(&t, details);
        size_t cap = strlen(details) * 2 + 4096;
        char *out = malloc(cap);
        assert_non_null(out);
        size_t len = (size_t)(strchr(details, '\n') + 1 - details);
        memcpy(out, details, len);
        int metric = column(&t, "Metric Name");
        int unit = column(&t, "Metric Unit");
        int value = column(&t, "Metric Value");
        int line = 1;
        int changed_line = 0;
        while (csv_next(&t.r) == CSV_RECORD) {
            line++;
            bool hit =
                strcmp(cell(&t, "ID"), "0") == 0 && strcmp(csv_field(&t.r, metric), c->metric) == 0;
            for (int copy = 0; copy < (hit && c->twice ? 2 : 1); copy++) {
                for (int f = 0; f < t.r.field_count; f++) {
                    const char *v = csv_field(&t.r, f);
                    if (hit && f == unit && c->unit != NULL) {
                        v = c->unit;
                    } else if (hit && f == value && c->value != NULL) {
                        v = c->value;
                    }
                    len += (size_t)snprintf(out + len, cap - len, "%s\"%s\"", f > 0 ? "," : "", v);
                }
                out[len++] = '\n';
            }
            if (hit) {
                changed_line = line + (c->twice ? 1 : 0);
                line += c->twice ? 1 : 0;
            }
        }
        out[len] = '\0';
        table_close(&t);
        assert_true(changed_line > 0);
        char name[64];
        snprintf(name, sizeof name, "%s.csv", c->id);
        char path[128];
        temp_path(name, path, sizeof path);
        write_file(path, out, len);
        int code = OCC(NULL, "ncu", "--top", "0", path);
        if (c->fragment == NULL) {
            if (code != EXIT_OK) {
                fail_msg("%s: refused: %s", c->id, last.err);
            }
        } else {
            char where[32];
            snprintf(where, sizeof where, "line %d: ", changed_line);
            if (code != EXIT_DATA || line_count(last.err) != 1 ||
                strstr(last.err, c->fragment) == NULL || strstr(last.err, where) == NULL) {
                fail_msg("%s: exit %d, '%s' lacks '%s%s'", c->id, code, last.err, where,
                         c->fragment);
            }
        }
        free(out);
    }
    free(details);
}

/* ---- 4. numbers ---- */

typedef struct number_case {
    const char *id;
    const char *text;
    bool ok;
    double value;
} number_case;

static const number_case number_cases[] = {
    {"number-1", "1,024", true, 1024},
    {"number-2", "1,234,567", true, 1234567},
    {"number-3", "3,2", false, 0},
    {"number-4", "1,0245", false, 0},
    {"number-5", "12,34", false, 0},
    {"number-6", "1234,567", false, 0},
    {"number-7", ",123", false, 0},
    {"number-8", "1,,024", false, 0},
    {"number-9", "1,024,", false, 0},
    {"number-10", "1,234.5", true, 1234.5},
    {"number-11", "1.234,5", false, 0},
    {"number-12", "-1,024", true, -1024},
    {"number-13", "999,999,999,999", true, 999999999999.0},
    {"number-14", "256 (0: 256)", true, 256},
    {"number-15", "32.768000", true, 32.768},
    {"number-16", "1.5e3", true, 1500},
    {"number-17", "0.000001", true, 1e-6},
    {"number-18", "12345678901234567890", true, 12345678901234567890.0},
    {"number-19", "n/a", false, 0},
    {"number-20", "", false, 0},
    {"number-21", "1,02a", false, 0},
};

static void test_thousands_separators(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof number_cases / sizeof number_cases[0]; i++) {
        const number_case *c = &number_cases[i];
        occ_profile_ncu_number n;
        bool ok = occ_profile_ncu_parse_number(c->text, &n);
        if (ok != c->ok) {
            fail_msg("%s: '%s' %s", c->id, c->text, ok ? "read" : "refused");
        }
        if (ok) {
            /* as strtod reads the digits without separators: the same double */
            char plain[64];
            size_t len = 0;
            for (const char *p = c->text; *p != '\0' && *p != ' '; p++) {
                if (*p != ',' && len + 1 < sizeof plain) {
                    plain[len++] = *p;
                }
            }
            plain[len] = '\0';
            if (n.value != strtod(plain, NULL) || n.value != c->value) {
                fail_msg("%s: '%s' read as %.17g", c->id, c->text, n.value);
            }
        }
    }
}

/* ---- 6. the reader: the fast path finds the same records as the byte-at-a-time one ---- */

/* The next record of a reader, through the fast path or a byte at a time alone. */
static csv_status next_by(csv_reader *r, bool fast_path)
{
    csv_fast_path = fast_path;
    csv_status st = csv_next(r);
    csv_fast_path = true;
    return st;
}

/* The records of two readers of the same bytes, one with the fast path (with AVX2 where
   the processor has it, or SSE2) and one without: the same statuses, lines, flags and
   fields. Returns the records the fast path found itself, so that a test can tell that it
   ran. */
static int compare_readers(const char *what, FILE *a, FILE *b, size_t max_record, int max_fields,
                           bool avx2)
{
    csv_reader *slow = malloc(sizeof *slow);
    csv_reader *fast = malloc(sizeof *fast);
    assert_true(slow != NULL && fast != NULL);
    assert_true(csv_init(slow, a, max_record, max_fields));
    csv_avx2 = avx2;
    bool made = csv_init(fast, b, max_record, max_fields);
    csv_avx2 = true;
    assert_true(made);
    int found_fast = 0;
    for (int record = 0;; record++) {
        csv_status want = next_by(slow, false);
        csv_status got = next_by(fast, true);
        assert_false(slow->fast);
        found_fast += got == CSV_RECORD && fast->fast;
        if (want != got || slow->line != fast->line || slow->next_line != fast->next_line) {
            fail_msg("%s: record %d: status %d line %lld next %lld; a byte at a time: %d, %lld, "
                     "%lld",
                     what, record, got, fast->line, fast->next_line, want, slow->line,
                     slow->next_line);
        }
        if (want == CSV_END || want == CSV_RUNAWAY || want == CSV_READ_ERROR) {
            break;
        }
        if (want == CSV_TOO_LONG) {
            continue;
        }
        if (slow->field_count != fast->field_count ||
            slow->unclosed_quote != fast->unclosed_quote ||
            slow->text_after_quote != fast->text_after_quote || slow->has_nul != fast->has_nul) {
            fail_msg("%s: record %d (line %lld): %d fields, flags %d%d%d; a byte at a time: %d, "
                     "%d%d%d",
                     what, record, slow->line, fast->field_count, fast->unclosed_quote,
                     fast->text_after_quote, fast->has_nul, slow->field_count, slow->unclosed_quote,
                     slow->text_after_quote, slow->has_nul);
        }
        int stored = slow->field_count < max_fields ? slow->field_count : max_fields;
        /* in order on even records, backwards on odd ones: the reader finds fields either way;
           one past the last is "" */
        for (int k = 0; k <= stored; k++) {
            int f = k == stored ? stored : record % 2 == 0 ? k : stored - 1 - k;
            const char *want_text = csv_field(slow, f);
            const char *got_text = csv_field(fast, f);
            if (strcmp(want_text, got_text) != 0) {
                fail_msg("%s: record %d (line %lld), field %d: '%s'; a byte at a time: '%s'", what,
                         record, slow->line, f, got_text, want_text);
            }
        }
    }
    csv_free(slow);
    csv_free(fast);
    free(slow);
    free(fast);
    return found_fast;
}

static int compare_text(const char *what, const char *text, size_t len, size_t max_record,
                        int max_fields)
{
    char *copy = malloc(len + 1);
    assert_non_null(copy);
    memcpy(copy, text, len);
    int found_fast = 0;
    for (int avx2 = 0; avx2 < 2; avx2++) {
        FILE *a = len > 0 ? fmemopen(copy, len, "r") : fopen("/dev/null", "r");
        FILE *b = len > 0 ? fmemopen(copy, len, "r") : fopen("/dev/null", "r");
        assert_true(a != NULL && b != NULL);
        found_fast += compare_readers(what, a, b, max_record, max_fields, avx2);
        fclose(a);
        fclose(b);
    }
    free(copy);
    return found_fast;
}

typedef struct csv_case {
    const char *id;
    const char *text;
    size_t len; /* 0: strlen */
} csv_case;

static const csv_case csv_cases[] = {
    {"csv-1", "\"a\",\"b\"\n\"c\",\"d\"\n", 0},
    {"csv-2", "a,b\nc,d", 0},
    {"csv-3", "\"a \"\"quoted\"\" b\",\"\"\n", 0},
    {"csv-4", "\"multi\nline\",x\ny\n", 0},
    {"csv-5", "\"a\",\"b\"\r\n\"c\"\r\n", 0},
    {"csv-6", "a\rb,c\n", 0},
    {"csv-7", "\"a\" ,b\n", 0},
    {"csv-8", " \"a\",b\n", 0},
    {"csv-9", "\"a\"x,b\n", 0},
    {"csv-10", "ab\"c,d\ne\"f\n", 0},
    {"csv-11", "\"unclosed,\nnext\n", 0},
    {"csv-12", "\n\n  \n\t\na\n\n", 0},
    {"csv-13", "\xEF\xBB\xBF\"ID\",x\n", 0},
    {"csv-14", "a,\0b,c\n", 7},
    {"csv-15", "\"a\0b\"\n", 6},
    {"csv-16", "  a  ,  b  \n", 0},
    {"csv-17", "\"\"\n", 0},
    {"csv-18", "\"\"\"\"\n", 0},
    {"csv-19", "a,b,c,d,e,f,g,h,i,j,k,l\n1,2\n", 0},
    {"csv-20", "\"0123456789012345678901234567890123456789012345678901234567890123456789\"\nx\n",
     0},
    {"csv-21", "0123456789012345678901234567890123456789012345678901234567890,\nx\n", 0},
    {"csv-22", "\"a\",\"b\"\r", 0},
    {"csv-23", "\"a\"\r\rb\n", 0},
    {"csv-24", "", 0},
    {"csv-25", "\"", 0},
};

static void test_reader_matches_csv(void **state)
{
    (void)state;
    /* small limits, so that records over them and fields past them occur */
    int found_fast = 0;
    for (size_t i = 0; i < sizeof csv_cases / sizeof csv_cases[0]; i++) {
        const csv_case *c = &csv_cases[i];
        found_fast += compare_text(c->id, c->text, c->len != 0 ? c->len : strlen(c->text), 64, 8);
        found_fast +=
            compare_text(c->id, c->text, c->len != 0 ? c->len : strlen(c->text), 4096, 64);
    }
    /* random text of the bytes CSV cares about */
    uint64_t seed = 0x9E3779B97F4A7C15ULL;
    static const char alphabet[] = "aaaaaaab,,,,,\"\"\"\"\n\n\n  \r\t";
    char text[512];
    for (int round = 0; round < 4000; round++) {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        size_t len = (size_t)(seed % sizeof text);
        uint64_t s = seed;
        for (size_t k = 0; k < len; k++) {
            s = s * 6364136223846793005ULL + 1442695040888963407ULL;
            text[k] = (s >> 60) == 15 && (s >> 56 & 3) == 0
                          ? '\0'
                          : alphabet[(s >> 33) % (sizeof alphabet - 1)];
        }
        char what[32];
        snprintf(what, sizeof what, "random-%d", round);
        found_fast += compare_text(what, text, len, round % 2 ? 64 : 4096, round % 3 ? 8 : 64);
    }
    print_message("%d records found by the fast path\n", found_fast);
    assert_true(found_fast > 1000);
}

/* A file of 40,000 records, most as Nsight writes them and some not, read from disk (the
   thread reads ahead) and across the reader's 1 MB reads: the same records either way. */
static void test_reader_matches_csv_file(void **state)
{
    (void)state;
    char path[128];
    temp_path("records.csv", path, sizeof path);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    uint64_t s = 42;
    for (int i = 0; i < 40000; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        int fields = 1 + (int)(s >> 59);
        for (int k = 0; k < fields; k++) {
            s = s * 6364136223846793005ULL + 1442695040888963407ULL;
            switch ((s >> 40) % 23) {
            case 0: fprintf(f, "%s\"a\"\"b\"", k ? "," : ""); break;
            case 1: fprintf(f, "%s\"multi\nline\"", k ? "," : ""); break;
            case 2: fprintf(f, "%s plain ", k ? "," : ""); break;
            case 3: fprintf(f, "%s\"x\" y", k ? "," : ""); break;
            default:
                fprintf(f, "%s\"%llu,%03llu\"", k ? "," : "", (unsigned long long)(s >> 50),
                        (unsigned long long)((s >> 20) % 1000));
            }
        }
        fputs((s >> 30) % 50 == 0 ? "\r\n" : "\n", f);
    }
    assert_int_equal(fclose(f), 0);
    for (int avx2 = 0; avx2 < 2; avx2++) {
        FILE *a = fopen(path, "rb");
        FILE *b = fopen(path, "rb");
        assert_true(a != NULL && b != NULL);
        int found_fast = compare_readers("records.csv", a, b, 1 << 20, 65536, avx2);
        print_message("%d of 40000 records found by the fast path\n", found_fast);
        assert_true(found_fast > 10000);
        fclose(a);
        fclose(b);
    }
}

/* Records of long fields, as nsys writes them (unquoted numbers, a quoted kernel name of
   hundreds of bytes) and not: whole 64-byte blocks inside quotes, with line breaks,
   doubled quotes, commas, a CR or a NUL in them at every offset. */
static void test_reader_long_fields(void **state)
{
    (void)state;
    size_t cap = 1 << 20;
    char *text = malloc(cap);
    assert_non_null(text);
    uint64_t s = 7;
    int found_fast = 0;
    for (int round = 0; round < 40; round++) {
        size_t len = 0;
        for (int record = 0; record < 60 && len + 4096 < cap; record++) {
            s = s * 6364136223846793005ULL + 1442695040888963407ULL;
            int fields = 1 + (int)((s >> 40) % 24);
            for (int k = 0; k < fields; k++) {
                if (k > 0) {
                    text[len++] = ',';
                }
                s = s * 6364136223846793005ULL + 1442695040888963407ULL;
                bool quoted = (s >> 60) < 6;
                size_t n = quoted ? (size_t)((s >> 20) % 400) : (size_t)((s >> 20) % 12);
                if (quoted) {
                    text[len++] = '"';
                }
                for (size_t c = 0; c < n; c++) {
                    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
                    unsigned pick = (unsigned)(s >> 54); /* 0 .. 1023 */
                    char ch = (char)('a' + pick % 26);
                    if (quoted && pick < 6) {
                        ch = "\n,\"\" \t"[pick];
                    } else if (!quoted && pick < 2) {
                        ch = ' ';
                    } else if (pick == 1000 && round % 4 == 1) {
                        ch = '\r';
                    } else if (pick == 1001 && round % 4 == 2) {
                        ch = '\0';
                    }
                    if (ch == '"') {
                        text[len++] = '"'; /* doubled: one quote */
                    }
                    text[len++] = ch;
                }
                if (quoted) {
                    text[len++] = '"';
                }
            }
            text[len++] = '\n';
        }
        char what[32];
        snprintf(what, sizeof what, "long-%d", round);
        found_fast +=
            compare_text(what, text, len, round % 3 == 0 ? 4096 : 1 << 20, round % 2 ? 8 : 64);
    }
    print_message("%d records found by the fast path\n", found_fast);
    assert_true(found_fast > 1000);
    free(text);
}

/* ---- 7. gzip ---- */

static char *read_all(FILE *f, size_t *len)
{
    size_t cap = 1 << 16;
    char *text = malloc(cap);
    assert_non_null(text);
    *len = 0;
    size_t n;
    while ((n = fread(text + *len, 1, cap - *len, f)) > 0) {
        *len += n;
        if (*len == cap) {
            cap *= 2;
            text = realloc(text, cap);
            assert_non_null(text);
        }
    }
    return text;
}

/* Every place of `from` in text replaced by `to`. */
static char *replaced(const char *text, const char *from, const char *to)
{
    size_t count = 0;
    for (const char *p = strstr(text, from); p != NULL; p = strstr(p + 1, from)) {
        count++;
    }
    char *out = malloc(strlen(text) + count * strlen(to) + 1);
    assert_non_null(out);
    char *o = out;
    const char *p = text;
    for (const char *hit = strstr(p, from); hit != NULL; hit = strstr(p, from)) {
        memcpy(o, p, (size_t)(hit - p));
        o += hit - p;
        strcpy(o, to);
        o += strlen(to);
        p = hit + strlen(from);
    }
    strcpy(o, p);
    return out;
}

/* `occ ncu file.csv.gz` prints what `zcat file.csv.gz | occ ncu` does, text and JSON; so
   does a gzipped stdin, from a pipe or a file, and a gzip of two members. */
static void test_gzip_as_plain(void **state)
{
    (void)state;
    static const char *const exports[] = {
        "ncu-h200/torch-raw.csv.gz",    "ncu-h200/torch-details.csv.gz",
        "ncu-h200/triton-raw.csv.gz",   "ncu-h200/triton-details.csv.gz",
        "ncu-h200/smemcfg-raw.csv.gz",  "ncu-h200/smemcfg-details.csv.gz",
        "ncu-h200/smemcfg2-raw.csv.gz", "ncu-h200/smemcfg2-details.csv.gz",
    };
    char path[128];
    temp_path("export", path, sizeof path);
    for (size_t i = 0; i < sizeof exports / sizeof exports[0]; i++) {
        FILE *in = test_data_open(exports[i], "rb");
        size_t gz_len;
        char *gz = read_all(in, &gz_len);
        fclose(in);
        char *plain = gunzip(exports[i]);
        static const char *const modes[2][5] = {{"ncu", "--top", "3", NULL, NULL},
                                                {"ncu", "--json", "--top", "3", NULL}};
        for (int m = 0; m < 2; m++) {
            const char *args[6];
            int n = 0;
            for (; modes[m][n] != NULL; n++) {
                args[n] = modes[m][n];
            }
            args[n] = path;
            args[n + 1] = NULL;
            /* one path, gzipped then plain: the same bytes out */
            write_file(path, gz, gz_len);
            assert_int_equal(run_cli(NULL, args), EXIT_OK);
            char *from_gz = strdup(last.out);
            write_file(path, plain, strlen(plain));
            assert_int_equal(run_cli(NULL, args), EXIT_OK);
            if (strcmp(from_gz, last.out) != 0) {
                fail_msg("%s: occ %s ... FILE.gz differs from the plain file", exports[i],
                         modes[m][1]);
            }
            if (m == 1) {
                /* zcat FILE.gz | occ ncu: the same but for the file's name */
                args[n] = "-";
                assert_int_equal(run_cli(plain, args), EXIT_OK);
                char *piped = replaced(last.out, "\"<stdin>\"", "\"\"");
                char *named = replaced(from_gz, path, "");
                if (strcmp(piped, named) != 0) {
                    fail_msg("%s: occ ncu FILE.gz differs from zcat FILE.gz | occ ncu", exports[i]);
                }
                free(piped);
                free(named);
            }
            free(from_gz);
        }
        /* gzip on stdin, from a file and from a pipe */
        const char *const json_stdin[] = {"ncu", "--json", "--top", "3", "-", NULL};
        assert_int_equal(OCC(plain, "ncu", "--json", "--top", "3", "-"), EXIT_OK);
        char *want = strdup(last.out);
        FILE *f = tmpfile();
        assert_non_null(f);
        assert_int_equal(fwrite(gz, 1, gz_len, f), gz_len);
        rewind(f);
        assert_int_equal(run_with_stdin(f, json_stdin), EXIT_OK);
        assert_string_equal(last.out, want);
        fclose(f);
        if (gz_len < 60000) {
            int fds[2];
            assert_int_equal(pipe(fds), 0);
            assert_int_equal(write(fds[1], gz, gz_len), (ssize_t)gz_len);
            close(fds[1]);
            FILE *p = fdopen(fds[0], "rb");
            assert_non_null(p);
            assert_int_equal(run_with_stdin(p, json_stdin), EXIT_OK);
            assert_string_equal(last.out, want);
            fclose(p);
        }
        free(want);
        free(gz);
        free(plain);
    }

    /* two gzip members, as `cat a.gz b.gz` makes: one text */
    char *plain = gunzip("ncu-h200/triton-raw.csv.gz");
    size_t len = strlen(plain);
    size_t half = (size_t)(strchr(plain + len / 2, '\n') + 1 - plain);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    for (int part = 0; part < 2; part++) {
        const char *from = part == 0 ? plain : plain + half;
        size_t n = part == 0 ? half : len - half;
        uLong bound = compressBound((uLong)n) + 64;
        unsigned char *packed = malloc(bound);
        assert_non_null(packed);
        z_stream z;
        memset(&z, 0, sizeof z);
        assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY),
                         Z_OK);
        z.next_in = (Bytef *)(uintptr_t)from;
        z.avail_in = (uInt)n;
        z.next_out = packed;
        z.avail_out = (uInt)bound;
        assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
        assert_int_equal(fwrite(packed, 1, z.total_out, f), z.total_out);
        deflateEnd(&z);
        free(packed);
    }
    assert_int_equal(fclose(f), 0);
    assert_int_equal(OCC(NULL, "ncu", "--json", "--top", "0", path), EXIT_OK);
    json_t *doc = json_of_last();
    assert_int_equal(json_integer_value(json_object_get(json_object_get(doc, "summary"), "agreed")),
                     TRITON_LAUNCHES);
    json_decref(doc);
    free(plain);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_torch_raw_agrees),
        cmocka_unit_test(test_triton_raw_agrees),
        cmocka_unit_test(test_smemcfg_raw_agrees),
        cmocka_unit_test(test_sweep_raw_with_instances_agrees),
        cmocka_unit_test(test_torch_details_agrees),
        cmocka_unit_test(test_triton_details_agrees),
        cmocka_unit_test(test_smemcfg_details_agrees),
        cmocka_unit_test(test_details_clusters_with_gpu),
        cmocka_unit_test(test_gap_model_torch),
        cmocka_unit_test(test_gap_model_triton),
        cmocka_unit_test(test_ranking_by_time),
        cmocka_unit_test(test_json_schema),
        cmocka_unit_test(test_mismatch_flagged),
        cmocka_unit_test(test_ncu_messages_skipped),
        cmocka_unit_test(test_one_launch_singular),
        cmocka_unit_test(test_stdin_pipe),
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_usage_errors),
        cmocka_unit_test(test_csv_sized_reader),
        cmocka_unit_test(test_csv_put_field),
        cmocka_unit_test(test_hostile_exports),
        cmocka_unit_test(test_preamble_skipped),
        cmocka_unit_test(test_preamble_limits),
        cmocka_unit_test(test_gpu_must_be_the_exports),
        cmocka_unit_test(test_sm_bound_above_database),
        cmocka_unit_test(test_impossible_figures),
        cmocka_unit_test(test_details_refusals),
        cmocka_unit_test(test_thousands_separators),
        cmocka_unit_test(test_reader_matches_csv),
        cmocka_unit_test(test_reader_matches_csv_file),
        cmocka_unit_test(test_reader_long_fields),
        cmocka_unit_test(test_gzip_as_plain),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
