/*
 * test_cli_clusters.c - --cluster in occ calc, explain, sweep, suggest and
 * latency, --gpu-file's gpc_sms, and occ inspect's compiled clusters, run
 * in-process. The numbers are the H200's driver's and hardware's
 * (tests/data/h200-clusters): cudaOccupancyMaxActiveClusters at one block
 * per SM, the persistent-grid experiment's times, the 8-block cap of a
 * cluster launch.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "cli.h"
#include "cli_harness.h"
#include "test_data.h"

static json_t *parse_json_out(void)
{
    json_error_t error;
    json_t *doc = json_loads(last.out, 0, &error);
    if (doc == NULL) {
        fail_msg("output is not JSON: %s", error.text);
    }
    return doc;
}

static int json_int(json_t *obj, const char *key)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_integer(v)) {
        fail_msg("'%s' is not an integer", key);
    }
    return (int)json_integer_value(v);
}

/* The output with line breaks and their indentation folded to one space. */
static const char *flat_out(void)
{
    static char flat[1 << 16];
    size_t n = 0;
    for (const char *p = last.out; *p != '\0' && n + 1 < sizeof flat; p++) {
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
    return flat;
}

/* cudaOccupancyMaxActiveClusters on the H200 at one block per SM, sizes
   1..16 (the probe's output, docs/results/h200/cluster-probe-run1.txt, and
   rows of tests/data/h200-clusters/occupancy.csv.gz). */
static const int driver_one_block[16] = {132, 66, 39, 30, 22, 17, 15, 15, 9, 7, 7, 7, 7, 7, 7, 7};

/* One block per SM: 200 KB of dynamic shared memory. */
#define ONE_BLOCK "--gpu", "H200", "--threads", "128", "--regs", "32", "--dyn-smem", "200K"

static void test_calc_json_cluster(void **state)
{
    (void)state;
    assert_int_equal(OCC(NULL, "calc", ONE_BLOCK, "--json"), 0);
    json_t *doc = parse_json_out();
    json_t *result = json_object_get(doc, "result");
    assert_true(json_is_null(json_object_get(result, "cluster")));
    json_t *layout = json_object_get(json_object_get(doc, "gpu"), "gpc_layout");
    assert_string_equal(json_string_value(json_object_get(layout, "source")), "measured");
    assert_int_equal(json_array_size(json_object_get(layout, "gpc_sms")), 12);
    json_decref(doc);

    assert_int_equal(OCC(NULL, "calc", ONE_BLOCK, "--cluster", "7", "--json"), 0);
    doc = parse_json_out();
    json_t *c = json_object_get(json_object_get(doc, "result"), "cluster");
    assert_true(json_is_object(c));
    assert_int_equal(json_int(c, "size"), 7);
    assert_int_equal(json_int(c, "max_active_clusters"), 15);
    assert_int_equal(json_int(c, "active_sms"), 105);
    assert_int_equal(json_int(c, "max_potential_cluster_size"), 8);
    json_t *dims = json_object_get(c, "dims");
    assert_int_equal(json_array_size(dims), 3);
    assert_int_equal(json_integer_value(json_array_get(dims, 0)), 7);
    assert_string_equal(json_string_value(json_object_get(c, "gpc_layout_source")), "measured");
    json_decref(doc);

    /* a 2-D shape counts by its size; non-portable raises the potential */
    assert_int_equal(
        OCC(NULL, "calc", ONE_BLOCK, "--cluster", "4x4", "--cluster-non-portable", "--json"), 0);
    doc = parse_json_out();
    c = json_object_get(json_object_get(doc, "result"), "cluster");
    assert_int_equal(json_int(c, "size"), 16);
    assert_int_equal(json_int(c, "max_active_clusters"), driver_one_block[15]);
    assert_int_equal(json_int(c, "max_potential_cluster_size"), 16);
    json_decref(doc);
}

static void test_calc_text_and_explain(void **state)
{
    (void)state;
    assert_int_equal(OCC(NULL, "calc", ONE_BLOCK, "--cluster", "7"), 0);
    assert_non_null(strstr(flat_out(), "15 active clusters, 105 blocks on 105 of 132 SMs"));
    assert_int_equal(OCC(NULL, "explain", ONE_BLOCK, "--cluster", "7"), 0);
    assert_non_null(strstr(flat_out(), "27 SMs idle in all"));
    assert_non_null(strstr(flat_out(), "8 (15 clusters, 120 SMs)"));
    /* without --cluster, no cluster paragraph */
    assert_int_equal(OCC(NULL, "calc", ONE_BLOCK), 0);
    assert_null(strstr(last.out, "Clusters"));
}

static void test_cluster_errors(void **state)
{
    (void)state;
    assert_int_equal(OCC(NULL, "calc", ONE_BLOCK, "--cluster", "9"), 2);
    assert_non_null(strstr(last.err, "--cluster-non-portable"));
    assert_non_null(strstr(last.err, "8"));
    assert_int_equal(OCC(NULL, "calc", "--gpu", "A100", "--threads", "128", "--cluster", "2"), 2);
    assert_non_null(strstr(last.err, "9.0"));
    assert_int_equal(OCC(NULL, "calc", "--gpu", "sm_90", "--threads", "128", "--cluster", "2"), 2);
    assert_non_null(strstr(last.err, "SM count"));
    assert_int_equal(OCC(NULL, "calc", ONE_BLOCK, "--cluster", "2x0"), 2);
    assert_int_equal(OCC(NULL, "calc", ONE_BLOCK, "--cluster", "two"), 2);
    assert_int_equal(OCC(NULL, "calc", ONE_BLOCK, "--cluster", "2x2x2x2"), 2);
    assert_int_equal(OCC(NULL, "calc", ONE_BLOCK, "--cluster", "65", "--cluster-non-portable"), 2);
    assert_non_null(strstr(last.err, "64"));
    assert_int_equal(OCC(NULL, "calc", ONE_BLOCK, "--cluster", "2", "--cluster-policy", "random"),
                     2);
    /* every message is one line */
    assert_int_equal(line_count(last.err), 2); /* the message and the help hint */
}

/* Clusters of 17 to 64 blocks: the driver's occupancy API answers, the
   launch refuses (big_launch.csv.gz). */
static void test_large_cluster_flagged(void **state)
{
    (void)state;
    assert_int_equal(
        OCC(NULL, "calc", ONE_BLOCK, "--cluster", "18", "--cluster-non-portable", "--json"), 0);
    json_t *doc = parse_json_out();
    json_t *c = json_object_get(json_object_get(doc, "result"), "cluster");
    /* big_launch.csv.gz: 18-block clusters at one block per SM: 2 */
    assert_int_equal(json_int(c, "max_active_clusters"), 2);
    assert_true(json_is_true(json_object_get(c, "launch_refused")));
    json_decref(doc);
}

static void test_sweep_cluster_csv(void **state)
{
    (void)state;
    assert_int_equal(OCC(NULL, "sweep", "cluster", ONE_BLOCK, "--cluster-non-portable", "--csv"),
                     0);
    char line[256];
    assert_string_equal(line_at(last.out, 0, line, sizeof line),
                        "value,max_active_clusters,blocks_per_sm,warps_per_sm,occupancy");
    assert_int_equal(line_count(last.out), 17);
    for (int size = 1; size <= 16; size++) {
        int value = 0, clusters = 0, blocks = 0;
        double warps = 0, occupancy = 0;
        line_at(last.out, size, line, sizeof line);
        assert_int_equal(
            sscanf(line, "%d,%d,%d,%lf,%lf", &value, &clusters, &blocks, &warps, &occupancy), 5);
        assert_int_equal(value, size);
        assert_int_equal(clusters, driver_one_block[size - 1]);
        assert_int_equal(blocks, 1);
        /* 4 warps per block of 128 threads, over 132 SMs, of 64 warps */
        assert_true(fabs(warps - clusters * size * 4.0 / 132.0) < 1e-4);
        assert_true(fabs(occupancy - warps / 64.0) < 1e-4);
    }
    /* portable: the curve stops at 8 */
    assert_int_equal(OCC(NULL, "sweep", "cluster", ONE_BLOCK, "--csv"), 0);
    assert_int_equal(line_count(last.out), 9);
    assert_int_equal(OCC(NULL, "sweep", "cluster", ONE_BLOCK, "--json"), 0);
    json_t *doc = parse_json_out();
    assert_string_equal(json_string_value(json_object_get(doc, "axis")), "cluster");
    assert_int_equal(json_array_size(json_object_get(doc, "points")), 8);
    /* occ.sweep version 2: one document for every axis */
    assert_int_equal(json_int(doc, "version"), 2);
    assert_true(json_is_integer(json_object_get(doc, "smem_config_bytes")));
    assert_true(json_is_null(json_object_get(doc, "current")));
    json_decref(doc);
    /* with --cluster, current is that size's point */
    assert_int_equal(OCC(NULL, "sweep", "cluster", ONE_BLOCK, "--cluster", "4", "--json"), 0);
    doc = parse_json_out();
    json_t *cur = json_object_get(doc, "current");
    json_t *fourth = json_array_get(json_object_get(doc, "points"), 3);
    assert_int_equal(json_int(cur, "value"), 4);
    assert_int_equal(json_int(cur, "max_active_clusters"), json_int(fourth, "max_active_clusters"));
    assert_int_equal(json_int(cur, "active_sms"), json_int(fourth, "active_sms"));
    json_decref(doc);
    assert_int_equal(OCC(NULL, "sweep", "cluster", ONE_BLOCK, "--svg", "x.svg"), 2);
}

/* The persistent-grid experiment on the H200 (persistent.csv): a grid of
   SMs / size clusters took ceil(G / A) x A / G the time of the grid of the
   driver's A active clusters. occ suggest's ratio is that formula; the
   measurement holds it to 3%. */
static void test_suggest_persistent_against_measurement(void **state)
{
    (void)state;
    FILE *in = test_data_open("h200-clusters/persistent.csv", "r");
    char line[512];
    assert_non_null(fgets(line, sizeof line, in)); /* header */
    double ms_by_sms[17] = {0}, ms_active[17] = {0};
    int sizes = 0;
    while (fgets(line, sizeof line, in) != NULL) {
        int size = 0, clusters = 0, blocks = 0, active = 0, used = 0, tiles = 0, work = 0;
        char grid[32];
        double median = 0;
        assert_int_equal(sscanf(line, "%d,%31[^,],%d,%d,%d,%d,%d,%d,%lf", &size, grid, &clusters,
                                &blocks, &active, &used, &tiles, &work, &median),
                         9);
        assert_true(size >= 1 && size <= 16);
        if (strcmp(grid, "active") == 0) {
            ms_active[size] = median;
            sizes++;
        } else {
            ms_by_sms[size] = median;
        }
    }
    fclose(in);
    assert_int_equal(sizes, 6);
    for (int size = 1; size <= 16; size++) {
        if (ms_active[size] <= 0) {
            continue;
        }
        char cluster[8];
        snprintf(cluster, sizeof cluster, "%d", size);
        assert_int_equal(OCC(NULL, "suggest", "--gpu", "H200", "--threads", "256", "--regs", "20",
                             "--dyn-smem", "227K", "--cluster", cluster, "--cluster-non-portable",
                             "--json"),
                         0);
        json_t *doc = parse_json_out();
        json_t *c = json_object_get(doc, "cluster");
        assert_true(json_is_object(c));
        assert_int_equal(json_int(c, "max_active_clusters"), driver_one_block[size - 1]);
        assert_int_equal(json_int(c, "persistent_grid_blocks"), driver_one_block[size - 1] * size);
        assert_int_equal(json_int(c, "sm_grid_clusters"), 132 / size);
        double predicted = json_real_value(json_object_get(c, "sm_grid_time_ratio"));
        double measured = ms_by_sms[size] / ms_active[size];
        print_message("cluster %2d: predicted %.3fx, measured %.3fx\n", size, predicted, measured);
        assert_true(fabs(predicted - measured) / measured < 0.03);
        json_decref(doc);
    }
    assert_int_equal(OCC(NULL, "suggest", "--gpu", "H200", "--regs", "32", "--json"), 0);
    json_t *doc = parse_json_out();
    assert_true(json_is_null(json_object_get(doc, "cluster")));
    json_decref(doc);
    assert_int_equal(OCC(NULL, "suggest", "--gpu", "H200", "--threads", "256", "--dyn-smem", "200K",
                         "--cluster", "7"),
                     0);
    assert_non_null(strstr(flat_out(), "Persistent grid: 15 clusters = 105 blocks"));
}

/* A cluster launch keeps only its active SMs busy: latency's active SMs. */
static void test_latency_active_sms(void **state)
{
    (void)state;
    assert_int_equal(OCC(NULL, "latency", ONE_BLOCK, "--cluster", "7", "--json"), 0);
    json_t *doc = parse_json_out();
    assert_int_equal(json_int(json_object_get(doc, "input"), "active_sms"), 105);
    json_decref(doc);
}

static void test_gpu_file_layout(void **state)
{
    (void)state;
    const char *two = "{\"name\": \"Two GPCs\", \"base\": \"H200\", \"gpc_sms\": [66, 66]}";
    assert_int_equal(OCC(two, "calc", "--gpu-file", "-", "--threads", "128", "--dyn-smem", "200K",
                         "--cluster", "7", "--json"),
                     0);
    json_t *doc = parse_json_out();
    json_t *c = json_object_get(json_object_get(doc, "result"), "cluster");
    /* floor(66 / 7) = 9 in each */
    assert_int_equal(json_int(c, "max_active_clusters"), 18);
    assert_string_equal(json_string_value(json_object_get(c, "gpc_layout_source")), "given");
    assert_true(json_is_true(json_object_get(c, "exact")));
    json_decref(doc);
    /* a new SM count drops the base's layout: an upper bound, said so */
    const char *fewer = "{\"name\": \"Fewer\", \"base\": \"H200\", \"sm_count\": 100}";
    assert_int_equal(OCC(fewer, "calc", "--gpu-file", "-", "--threads", "128", "--dyn-smem", "200K",
                         "--cluster", "7", "--json"),
                     0);
    doc = parse_json_out();
    c = json_object_get(json_object_get(doc, "result"), "cluster");
    assert_int_equal(json_int(c, "max_active_clusters"), 100 / 7);
    assert_true(json_is_false(json_object_get(c, "exact")));
    assert_string_equal(json_string_value(json_object_get(c, "gpc_layout_source")), "unknown");
    json_decref(doc);
    assert_int_equal(OCC("{\"name\": \"X\", \"base\": \"H200\", \"gpc_sms\": [66, 60]}", "calc",
                         "--gpu-file", "-", "--threads", "128"),
                     1);
    assert_non_null(strstr(last.err, "sm_count"));
    assert_int_equal(OCC("{\"name\": \"X\", \"base\": \"H200\", \"gpc_sms\": 12}", "calc",
                         "--gpu-file", "-", "--threads", "128"),
                     1);
    assert_non_null(strstr(last.err, "gpc_sms"));
    assert_int_equal(OCC("{\"name\": \"X\", \"base\": \"H200\", \"gpc_sms\": [132, \"a\"]}", "calc",
                         "--gpu-file", "-", "--threads", "128"),
                     1);
    assert_int_equal(OCC("{\"name\": \"X\", \"base\": \"H200\", \"gpc_sms\": [130, 0, 2]}", "calc",
                         "--gpu-file", "-", "--threads", "128"),
                     1);
}

/* occ inspect on a kernel compiled with __cluster_dims__(2, 1, 1): at 64
   threads a block, 32 would fit an SM, but a cluster launch holds 8 (the
   H200's hardware: cap.csv), and the driver counts 528 active 2-block
   clusters at 8 blocks per SM (occupancy.csv.gz). */
static void test_inspect_compiled_cluster(void **state)
{
    (void)state;
    const char *fixtures = getenv("OCC_INSPECT_FIXTURES");
    char app[4096];
    snprintf(app, sizeof app, "%s/app", fixtures != NULL ? fixtures : "");
    FILE *probe = fixtures != NULL ? fopen(app, "rb") : NULL;
    if (probe == NULL) {
        print_message("SKIPPED: no nvcc-built inspect fixtures (OCC_INSPECT_FIXTURES)\n");
        skip();
    }
    fclose(probe);
    FILE *cap = test_data_open("h200-clusters/cap.csv", "r");
    char line[256];
    int hardware_cap = 0;
    assert_non_null(fgets(line, sizeof line, cap));
    while (fgets(line, sizeof line, cap) != NULL) {
        int size = 0, blocks = 0, api = 0, driver = 0, most = 0;
        assert_true(sscanf(line, "%d,%d,%d,%d,%d", &size, &blocks, &api, &driver, &most) == 5);
        if (size == 2) {
            hardware_cap = most;
        }
    }
    fclose(cap);
    assert_int_equal(hardware_cap, 8);
    assert_int_equal(OCC(NULL, "inspect", "--gpu", "H200", "--threads", "64", "--csv", app), 0);
    const char *row = strstr(last.out, "\nsm_90,clustered(float*),");
    assert_non_null(row);
    char header[512];
    line_at(last.out, 0, header, sizeof header);
    assert_non_null(strstr(header, "occupancy,cluster,max_active_clusters,"));
    assert_non_null(strstr(row, ",H200,64,8,16,0.2500,2,528,"));
    assert_int_equal(OCC(NULL, "inspect", "--gpu", "H200", "--threads", "64", app), 0);
    assert_non_null(strstr(last.out, "CLUSTER"));
    assert_int_equal(OCC(NULL, "inspect", "--gpu", "H200", "--threads", "64", "--json", app), 0);
    json_t *doc = parse_json_out();
    json_t *functions = json_object_get(doc, "functions");
    bool found = false;
    for (size_t i = 0; i < json_array_size(functions); i++) {
        json_t *f = json_array_get(functions, i);
        if (strcmp(json_string_value(json_object_get(f, "name")), "clustered(float*)") != 0) {
            continue;
        }
        json_t *occ = json_object_get(f, "occupancy");
        assert_int_equal(json_int(occ, "blocks_per_sm"), hardware_cap);
        json_t *c = json_object_get(occ, "cluster");
        assert_int_equal(json_int(c, "size"), 2);
        assert_int_equal(json_int(c, "max_active_clusters"), 528);
        found = true;
    }
    assert_true(found);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_calc_json_cluster),
        cmocka_unit_test(test_calc_text_and_explain),
        cmocka_unit_test(test_cluster_errors),
        cmocka_unit_test(test_large_cluster_flagged),
        cmocka_unit_test(test_sweep_cluster_csv),
        cmocka_unit_test(test_suggest_persistent_against_measurement),
        cmocka_unit_test(test_latency_active_sms),
        cmocka_unit_test(test_gpu_file_layout),
        cmocka_unit_test(test_inspect_compiled_cluster),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
