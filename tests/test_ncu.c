/*
 * test_ncu.c - `occ ncu` on the Nsight Compute exports measured on an H200
 * (tests/data/ncu-h200, tests/data/ncu-sweep): libocc must agree with every
 * profiled launch's theoretical occupancy, Block Limits and active
 * clusters, read here from the CSV independently of occ's reader; the gap
 * model must match the measured achieved occupancy where the grid explains
 * it; and bad files are refused with one line naming the file and the line.
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
    assert_true(csv_init_sized(&t->r, t->f, 1 << 20, 4096));
    assert_int_equal(csv_next(&t->r), CSV_RECORD);
    t->columns = t->r.field_count;
    t->names = calloc((size_t)t->columns, sizeof *t->names);
    assert_non_null(t->names);
    for (int i = 0; i < t->columns; i++) {
        t->names[i] = strdup(t->r.fields[i]);
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

static const char *cell(const table *t, const char *name)
{
    return t->r.fields[column(t, name)];
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
static double model_bound(const table *t)
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
                const char *v = i == col ? value : t.r.fields[i];
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
    json_t *doc = ncu_json(both);
    assert_int_equal(json_array_size(json_object_get(doc, "kernels")), TRITON_LAUNCHES);
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
    refuse_text("prose.csv", "hello, world\n", "line 1: not an Nsight Compute export");
    refuse_text("empty.csv", "", "the file is empty");
    temp_path("a-directory", path, sizeof path);
    assert_int_equal(mkdir(path, 0700), 0);
    assert_refused(path, "is a directory");

    /* the wrong columns: a calc --batch CSV, a raw page without registers */
    refuse_text("batch.csv", "gpu,threads,regs,smem,dyn_smem,carveout\nH200,256,32,0,0,default\n",
                "line 1: not an Nsight Compute export");
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

/* The sized reader holds what the fixed one refuses, and the fixed one
   (calc --batch's) keeps its 4096-byte records. */
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
    csv_reader *fixed = malloc(sizeof *fixed);
    assert_non_null(fixed);
    csv_init(fixed, f);
    assert_int_equal(csv_next(fixed), CSV_TOO_LONG);
    csv_free(fixed);
    rewind(f);
    csv_reader sized;
    assert_true(csv_init_sized(&sized, f, 8192, 512));
    assert_int_equal(csv_next(&sized), CSV_RECORD);
    assert_int_equal(sized.field_count, 401);
    assert_int_equal(strlen(sized.fields[0]), n);
    assert_string_equal(sized.fields[400], "b");
    assert_int_equal(csv_next(&sized), CSV_END);
    csv_free(&sized);
    rewind(f);
    assert_true(csv_init_sized(&sized, f, 4096, 512));
    assert_int_equal(csv_next(&sized), CSV_TOO_LONG);
    csv_free(&sized);
    fclose(f);
    free(fixed);
    free(text);
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
        cmocka_unit_test(test_stdin_pipe),
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_usage_errors),
        cmocka_unit_test(test_csv_sized_reader),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
