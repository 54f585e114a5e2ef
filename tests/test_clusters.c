/*
 * test_clusters.c - libocc's cluster functions against what an H200 and its
 * driver did (tests/data/h200-clusters, measured by tests/gpu/cluster_probe.cu):
 *  - every answer of cudaOccupancyMaxActiveClusters and
 *    cudaOccupancyMaxPotentialClusterSize in the dense sweep (occupancy.csv.gz,
 *    the data the rule was derived from), in clusters of 15 to 64 blocks
 *    (big.csv.gz) and in two held-out samples of random launches
 *    (heldout.csv.gz, heldout2.csv.gz);
 *  - the GPC layout of the database's H200, derived here again from where the
 *    hardware ran the blocks of 32,121 clusters (clusters.csv.gz);
 *  - launches of exactly the driver's maximum of clusters (full.csv.gz): the
 *    SMs the hardware used equal occ's active SMs;
 *  - the rule's edges: errors, bounds without a layout, sweep, waves, words.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <math.h>

#include <cmocka.h>

#include "csv.h"
#include "occ.h"
#include "occ_internal.h"
#include "test_data.h"

static occ_device h200(void)
{
    occ_device d;
    occ_error err;
    assert_int_equal(occ_gpu_find("H200", &d, &err), OCC_OK);
    return d;
}

/* ---- reading the probe's CSV files (gzipped), through occ's CSV reader ---- */

#define MAX_COLUMNS 24

typedef struct probe_file {
    FILE *in;
    csv_reader r;
    char *names[MAX_COLUMNS];
    int name_count;
} probe_file;

static void probe_open(probe_file *f, const char *relative)
{
    const char *path = test_data_path(relative);
    f->in = fopen(path, "rb");
    if (f->in == NULL) {
        fail_msg("test data %s: cannot open", path);
    }
    assert_true(csv_init(&f->r, f->in, 4096, MAX_COLUMNS));
    if (csv_next(&f->r) != CSV_RECORD) {
        fail_msg("test data %s: no header", path);
    }
    assert_true(f->r.field_count <= MAX_COLUMNS);
    f->name_count = f->r.field_count;
    for (int i = 0; i < f->name_count; i++) {
        f->names[i] = strdup(csv_field(&f->r, i));
        assert_non_null(f->names[i]);
    }
}

/* The next row: false at the end of the file. */
static bool probe_next(probe_file *f)
{
    csv_status st = csv_next(&f->r);
    if (st == CSV_END) {
        return false;
    }
    if (st != CSV_RECORD) {
        fail_msg("line %lld: CSV status %d: %s", f->r.line, (int)st, f->r.error);
    }
    assert_int_equal(f->r.field_count, f->name_count);
    assert_false(f->r.has_nul || f->r.unclosed_quote || f->r.text_after_quote);
    return true;
}

static void probe_close(probe_file *f)
{
    for (int i = 0; i < f->name_count; i++) {
        free(f->names[i]);
    }
    csv_free(&f->r);
    fclose(f->in);
}

static const char *probe_str(probe_file *f, const char *name)
{
    for (int i = 0; i < f->name_count; i++) {
        if (strcmp(f->names[i], name) == 0) {
            return csv_field(&f->r, i);
        }
    }
    fail_msg("no column '%s'", name);
    return "";
}

static int probe_int(probe_file *f, const char *name)
{
    return atoi(probe_str(f, name));
}

/* ---- the driver's answers ---- */

/* The probe's kernels' __launch_bounds__ cluster maximum (the third bound),
   which cudaFuncGetAttributes does not report: tests/gpu/cluster_probe.cu. */
static int max_blocks_per_cluster_of(const char *kernel)
{
    return strcmp(kernel, "bounded256_c4") == 0 ? 4 : 0;
}

typedef struct tally {
    long long active;    /* max active clusters compared */
    long long refusals;  /* driver refusals occ also refused */
    long long potential; /* potential sizes compared */
    long long blocks;    /* blocks per SM compared */
    long long skipped;   /* potential-size errors of a compiled cluster shape
                            the grid does not divide (not modelled) */
    long long mismatches;
} tally;

/* One row: the kernel as the driver saw it, and occ's three answers. */
static void compare_row(probe_file *f, const occ_device *d, tally *t)
{
    occ_kernel k;
    occ_kernel_init(&k);
    k.block_x = probe_int(f, "block");
    k.regs_per_thread = probe_int(f, "regs");
    k.static_smem_bytes = probe_int(f, "static_smem");
    k.dyn_smem_bytes = probe_int(f, "dyn_smem");
    k.max_threads_per_block = probe_int(f, "max_threads");
    k.barriers = 0; /* the probe's kernels use no block barrier except static16k */
    if (strcmp(probe_str(f, "kernel"), "static16k") == 0) {
        k.barriers = 1;
    }
    k.carveout_percent = probe_int(f, "carveout");
    k.cluster_non_portable = probe_int(f, "non_portable") != 0;
    int policy = probe_int(f, "policy");
    k.cluster_policy = policy < 0 ? OCC_CLUSTER_POLICY_DEFAULT : (occ_cluster_policy)policy;
    k.max_blocks_per_cluster = max_blocks_per_cluster_of(probe_str(f, "kernel"));
    k.cluster_x = probe_int(f, "cluster_x");
    k.cluster_y = probe_int(f, "cluster_y");
    k.cluster_z = probe_int(f, "cluster_z");

    occ_result r;
    occ_error err;
    if (occ_calc(d, &k, &r, &err) != OCC_OK) {
        fail_msg("occ_calc refused a kernel the driver answered: %s", err.message);
    }
    if (probe_int(f, "blocks_status") == 0) {
        t->blocks++;
        if (r.blocks_per_sm != probe_int(f, "blocks_per_sm")) {
            t->mismatches++;
            print_message("blocks per SM: %s block %d dyn %d: occ %d, driver %d\n",
                          probe_str(f, "kernel"), k.block_x, k.dyn_smem_bytes, r.blocks_per_sm,
                          probe_int(f, "blocks_per_sm"));
        }
    }
    int active = -1;
    occ_status st = occ_max_active_clusters(d, &k, &active, &err);
    if (probe_int(f, "active_status") == 0) {
        t->active++;
        if (st != OCC_OK || active != probe_int(f, "active_clusters")) {
            t->mismatches++;
            print_message("active clusters: %s block %d dyn %d cluster %dx%dx%d np %d policy %d: "
                          "occ %d (%s), driver %d\n",
                          probe_str(f, "kernel"), k.block_x, k.dyn_smem_bytes, k.cluster_x,
                          k.cluster_y, k.cluster_z, (int)k.cluster_non_portable, policy, active,
                          st == OCC_OK ? "ok" : err.message, probe_int(f, "active_clusters"));
        }
    } else {
        t->refusals++;
        if (st != OCC_ERR_INVALID_ARGUMENT) {
            t->mismatches++;
            print_message("the driver refused %s cluster %dx%dx%d np %d (error %s); occ said %d\n",
                          probe_str(f, "kernel"), k.cluster_x, k.cluster_y, k.cluster_z,
                          (int)k.cluster_non_portable, probe_str(f, "active_status"), active);
        }
    }
    if (probe_int(f, "potential_status") != 0) {
        t->skipped++;
        return;
    }
    int size = -1;
    st = occ_max_potential_cluster_size(d, &k, &size, &err);
    t->potential++;
    if (st != OCC_OK || size != probe_int(f, "potential_cluster_size")) {
        t->mismatches++;
        print_message("potential cluster size: %s block %d dyn %d np %d: occ %d, driver %d\n",
                      probe_str(f, "kernel"), k.block_x, k.dyn_smem_bytes,
                      (int)k.cluster_non_portable, size, probe_int(f, "potential_cluster_size"));
    }
}

static tally compare_file(const char *relative)
{
    occ_device d = h200();
    probe_file f;
    probe_open(&f, relative);
    tally t = {0};
    long long rows = 0;
    while (probe_next(&f)) {
        compare_row(&f, &d, &t);
        rows++;
    }
    probe_close(&f);
    print_message("%s: %lld rows: %lld max-active-cluster answers, %lld refusals, %lld "
                  "potential sizes, %lld blocks per SM compared (%lld potential-size errors of "
                  "a grid the compiled cluster does not divide not modelled): %lld mismatches\n",
                  relative, rows, t.active, t.refusals, t.potential, t.blocks, t.skipped,
                  t.mismatches);
    return t;
}

/* The sweep the rule was derived from: 199,280 rows (README). */
static void test_dense_sweep(void **state)
{
    (void)state;
    tally t = compare_file("h200-clusters/occupancy.csv.gz");
    assert_int_equal(t.active + t.refusals, 199280);
    assert_true(t.active > 140000);
    assert_int_equal(t.mismatches, 0);
}

/* Clusters of 15 to 64 blocks (run 3), from which the rule's size limit
   was corrected: the occupancy API answers past 16. */
static void test_large_clusters(void **state)
{
    (void)state;
    tally t = compare_file("h200-clusters/big.csv.gz");
    assert_int_equal(t.active, 16875);
    assert_int_equal(t.mismatches, 0);
}

/* The first held-out sample (run 2, clusters up to 20 blocks): it found the
   rule's first cap of 16 wrong (README); with the cap corrected, it agrees. */
static void test_heldout_sample(void **state)
{
    (void)state;
    tally t = compare_file("h200-clusters/heldout.csv.gz");
    assert_true(t.active > 20000);
    assert_int_equal(t.mismatches, 0);
}

/* The second held-out sample (run 3, clusters up to 40 blocks, another
   seed), compared only after the corrected rule was written. */
static void test_heldout_sample_2(void **state)
{
    (void)state;
    tally t = compare_file("h200-clusters/heldout2.csv.gz");
    assert_true(t.active > 15000);
    assert_int_equal(t.mismatches, 0);
}

/* Real launches of 16 to 33-block clusters (run 3): the driver's occupancy
   API answered every size, the launch ran only up to 16, as occ's
   launch_refused says, and the counts are occ's. */
static void test_large_cluster_launches(void **state)
{
    (void)state;
    occ_device d = h200();
    probe_file f;
    probe_open(&f, "h200-clusters/big_launch.csv.gz");
    int rows = 0, refused = 0;
    while (probe_next(&f)) {
        occ_kernel k;
        occ_kernel_init(&k);
        k.block_x = 128;
        k.regs_per_thread = 16; /* place_kernel */
        k.barriers = 0;
        k.dyn_smem_bytes = probe_int(&f, "dyn_smem");
        k.cluster_x = probe_int(&f, "cluster_size");
        k.cluster_non_portable = true;
        k.cluster_policy = probe_int(&f, "policy") == 2 ? OCC_CLUSTER_POLICY_LOAD_BALANCING
                                                        : OCC_CLUSTER_POLICY_DEFAULT;
        occ_cluster_result r;
        assert_int_equal(occ_cluster_calc(&d, &k, &r, NULL), OCC_OK);
        assert_int_equal(r.max_active_clusters, probe_int(&f, "driver_active_clusters"));
        assert_int_equal(r.launch_refused, probe_int(&f, "launch_status") != 0);
        refused += r.launch_refused;
        rows++;
    }
    probe_close(&f);
    assert_true(rows > 24);
    assert_int_equal(refused, 24); /* 6 sizes above 16 x 2 memory sizes x 2 policies */
}

/* ---- the layout, from where the hardware ran the clusters ---- */

#define MAX_SM 256

static int find_root(int *parent, int x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

static int by_size_desc(const void *a, const void *b)
{
    return *(const int *)b - *(const int *)a;
}

/* SMs that ran blocks of one cluster share a GPC; the GPCs are the
   connected components (an independent derivation of gpu_gpc.c's table). */
static void test_h200_layout_from_placements(void **state)
{
    (void)state;
    int parent[MAX_SM];
    bool seen[MAX_SM] = {false};
    for (int i = 0; i < MAX_SM; i++) {
        parent[i] = i;
    }
    probe_file f;
    probe_open(&f, "h200-clusters/clusters.csv.gz");
    long long clusters = 0;
    while (probe_next(&f)) {
        char list[512];
        snprintf(list, sizeof list, "%s", probe_str(&f, "smid_by_rank"));
        int first = -1;
        int blocks = 0;
        for (char *tok = strtok(list, " "); tok != NULL; tok = strtok(NULL, " ")) {
            int sm = atoi(tok);
            assert_true(sm >= 0 && sm < MAX_SM);
            seen[sm] = true;
            if (first < 0) {
                first = sm;
            } else {
                parent[find_root(parent, sm)] = find_root(parent, first);
            }
            blocks++;
        }
        assert_int_equal(blocks, probe_int(&f, "cluster_size"));
        clusters++;
    }
    probe_close(&f);
    int sizes[MAX_SM] = {0};
    int sms = 0;
    for (int i = 0; i < MAX_SM; i++) {
        if (seen[i]) {
            sizes[find_root(parent, i)]++;
            sms++;
        }
    }
    int gpcs[MAX_SM];
    int n = 0;
    for (int i = 0; i < MAX_SM; i++) {
        if (sizes[i] > 0) {
            gpcs[n++] = sizes[i];
        }
    }
    qsort(gpcs, (size_t)n, sizeof gpcs[0], by_size_desc);
    occ_device d = h200();
    print_message("%lld clusters on %d SMs: %d GPCs\n", clusters, sms, n);
    assert_int_equal(sms, d.sm_count);
    assert_int_equal(n, d.gpc_count);
    assert_int_equal(d.gpc_source, OCC_GPC_MEASURED);
    assert_non_null(d.gpc_citation);
    int listed[OCC_MAX_GPCS];
    memcpy(listed, d.gpc_sms, sizeof listed);
    qsort(listed, (size_t)d.gpc_count, sizeof listed[0], by_size_desc);
    for (int g = 0; g < n; g++) {
        assert_int_equal(gpcs[g], listed[g]);
    }
}

/* Launches of exactly the driver's maximum (one block per SM, and two): the
   hardware ran every cluster at once, on as many SMs as occ says are busy;
   one cluster more had to wait. */
static void test_full_launches_on_hardware(void **state)
{
    (void)state;
    occ_device d = h200();
    probe_file f;
    probe_open(&f, "h200-clusters/full.csv.gz");
    int launches = 0;
    int size = -1, dyn = -1, launched = -1, bps = 0, driver = 0;
    bool used[MAX_SM];
    unsigned long long first = 0, last = 0;
    bool more = true;
    while (more) {
        more = probe_next(&f);
        bool same = more && probe_int(&f, "cluster_size") == size &&
                    probe_int(&f, "dyn_smem") == dyn &&
                    probe_int(&f, "launched_clusters") == launched;
        if (!same && size > 0) {
            /* one launch ends: compare it */
            int sms = 0;
            for (int i = 0; i < MAX_SM; i++) {
                sms += used[i];
            }
            occ_kernel k;
            occ_kernel_init(&k);
            k.block_x = 128;
            k.regs_per_thread = 16; /* place_kernel: ptxas.txt */
            k.barriers = 0;
            k.dyn_smem_bytes = dyn;
            k.cluster_x = size;
            k.cluster_non_portable = true;
            occ_cluster_result r;
            assert_int_equal(occ_cluster_calc(&d, &k, &r, NULL), OCC_OK);
            assert_int_equal(r.blocks_per_sm, bps);
            assert_int_equal(r.max_active_clusters, driver);
            double spread_us = (double)(last - first) / 1000.0;
            if (launched == driver) {
                assert_int_equal(sms, r.active_sms);
                assert_true(spread_us < 100.0); /* all started together */
            } else {
                assert_int_equal(launched, driver + 1);
                assert_true(spread_us > 500.0); /* one cluster waited for the others */
            }
            launches++;
        }
        if (!more) {
            break;
        }
        if (!same) {
            size = probe_int(&f, "cluster_size");
            dyn = probe_int(&f, "dyn_smem");
            launched = probe_int(&f, "launched_clusters");
            bps = probe_int(&f, "blocks_per_sm");
            driver = probe_int(&f, "driver_active_clusters");
            memset(used, 0, sizeof used);
            first = ~0ULL;
            last = 0;
        }
        int sm = probe_int(&f, "smid");
        assert_true(sm >= 0 && sm < MAX_SM);
        used[sm] = true;
        unsigned long long start = strtoull(probe_str(&f, "start_ns"), NULL, 10);
        first = start < first ? start : first;
        last = start > last ? start : last;
    }
    probe_close(&f);
    assert_int_equal(launches, 64); /* 16 sizes x 2 shared-memory sizes x (max, max + 1) */
}

/* ---- the rule's edges ---- */

static bool near(double a, double b)
{
    return fabs(a - b) < 1e-9;
}

static occ_kernel big_block_kernel(int cluster)
{
    occ_kernel k;
    occ_kernel_init(&k);
    k.block_x = 128;
    k.regs_per_thread = 32;
    k.dyn_smem_bytes = 200000; /* one block per SM */
    k.cluster_x = cluster;
    k.cluster_non_portable = true;
    return k;
}

/* The case: cuDNN's 7-block clusters on the H200 get 15 active
   clusters, 105 of 132 SMs (the driver's answer in occupancy.csv.gz and the
   hardware's in full.csv.gz), and the words say so. */
static void test_seven_block_clusters_explained(void **state)
{
    (void)state;
    occ_device d = h200();
    occ_kernel k = big_block_kernel(7);
    occ_cluster_result r;
    assert_int_equal(occ_cluster_calc(&d, &k, &r, NULL), OCC_OK);
    assert_int_equal(r.max_active_clusters, 15);
    assert_int_equal(r.active_sms, 105);
    assert_true(r.exact);
    char text[OCC_CLUSTER_TEXT_BYTES];
    occ_error err;
    size_t n = occ_cluster_explain(&d, &k, text, sizeof text, &err);
    assert_true(n > 0);
    assert_int_equal(n, strlen(text));
    assert_non_null(strstr(text, "15 active clusters"));
    assert_non_null(strstr(text, "105 of 132 SMs"));
    assert_non_null(strstr(text, "27 SMs idle in all"));
    assert_non_null(strstr(text, "4 GPCs of 2 SMs: too small for a cluster of 7"));
    /* 8 blocks keep 120 SMs busy (15 clusters), the nearest better size */
    assert_non_null(strstr(text, "8 (15 clusters, 120 SMs)"));
    /* a buffer too small is reported, not cut silently */
    char small[64];
    assert_int_equal(occ_cluster_explain(&d, &k, small, sizeof small, &err), 0);
    assert_int_equal(err.status, OCC_ERR_TEXT_TRUNCATED);
}

static void test_refusals(void **state)
{
    (void)state;
    occ_device d = h200();
    occ_error err;
    int n = 0;
    occ_kernel k = big_block_kernel(9);
    k.cluster_non_portable = false;
    assert_int_equal(occ_max_active_clusters(&d, &k, &n, &err), OCC_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(err.message, "9"));
    assert_non_null(strstr(err.message, "8"));
    k = big_block_kernel(65); /* past the 64 the driver was asked about */
    assert_int_equal(occ_max_active_clusters(&d, &k, &n, &err), OCC_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(err.message, "64"));
    k = big_block_kernel(4);
    k.cluster_y = 4;
    k.cluster_z = 5; /* 80 blocks */
    assert_int_equal(occ_max_active_clusters(&d, &k, &n, &err), OCC_ERR_INVALID_ARGUMENT);
    k = big_block_kernel(0); /* no cluster */
    occ_cluster_result r;
    assert_int_equal(occ_cluster_calc(&d, &k, &r, &err), OCC_ERR_INVALID_ARGUMENT);
    k = big_block_kernel(4);
    k.cluster_y = 0; /* a partial shape */
    assert_int_equal(occ_cluster_calc(&d, &k, &r, &err), OCC_ERR_INVALID_ARGUMENT);
    assert_string_equal(err.field, "cluster_y");
    k = big_block_kernel(8);
    k.max_blocks_per_cluster = 4;
    assert_int_equal(occ_cluster_calc(&d, &k, &r, &err), OCC_ERR_INVALID_ARGUMENT);
    occ_device a100;
    assert_int_equal(occ_gpu_find("A100", &a100, NULL), OCC_OK);
    k = big_block_kernel(2);
    k.dyn_smem_bytes = 0;
    assert_int_equal(occ_cluster_calc(&a100, &k, &r, &err), OCC_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(err.message, "9.0"));
    occ_device generic;
    assert_int_equal(occ_gpu_find("sm_90", &generic, NULL), OCC_OK);
    assert_int_equal(occ_cluster_calc(&generic, &k, &r, &err), OCC_ERR_INVALID_DEVICE);
    assert_string_equal(err.field, "sm_count");
    assert_int_equal(occ_max_potential_cluster_size(&generic, &k, &n, &err),
                     OCC_ERR_INVALID_DEVICE);
    assert_int_equal(occ_cluster_calc(&d, &k, NULL, &err), OCC_ERR_NULL_POINTER);
}

/* Every layout of gpu_gpc.c belongs to a named GPU and covers its SMs, and
   every named GPU from 9.0 on either has one with its source or says it has
   none. */
static void test_layout_table(void **state)
{
    (void)state;
    for (int i = 0; i < occ__gpc_layout_count(); i++) {
        occ_device d;
        assert_int_equal(occ_gpu_find(occ__gpc_layout_name(i), &d, NULL), OCC_OK);
        assert_string_equal(d.name, occ__gpc_layout_name(i));
        assert_true(d.gpc_count > 0);
        assert_int_not_equal(d.gpc_source, OCC_GPC_UNKNOWN);
        assert_non_null(d.gpc_citation);
        assert_int_equal(occ_device_validate(&d, NULL), OCC_OK);
    }
    int cluster_capable = 0;
    for (int i = 0; i < occ_gpu_count(); i++) {
        occ_device d;
        bool named = false;
        assert_int_equal(occ_gpu_at(i, &d, &named, NULL, NULL), OCC_OK);
        if (!named) {
            assert_int_equal(d.gpc_count, 0);
            continue;
        }
        assert_int_equal(occ_device_validate(&d, NULL), OCC_OK);
        if (d.gpc_count == 0) {
            assert_int_equal(d.gpc_source, OCC_GPC_UNKNOWN);
            assert_null(d.gpc_citation);
        }
        if (d.cc_major >= 9) {
            cluster_capable++;
            occ_kernel k = big_block_kernel(2);
            occ_cluster_result r;
            assert_int_equal(occ_cluster_calc(&d, &k, &r, NULL), OCC_OK);
            assert_int_equal(r.exact, d.gpc_count > 0);
        }
    }
    assert_true(cluster_capable > 0);
}

/* A layout must cover every SM. */
static void test_layout_validation(void **state)
{
    (void)state;
    occ_device d = h200();
    occ_error err;
    d.gpc_sms[0] = 17;
    assert_int_equal(occ_device_validate(&d, &err), OCC_ERR_INVALID_DEVICE);
    assert_string_equal(err.field, "gpc_sms");
    d = h200();
    d.gpc_count = OCC_MAX_GPCS + 1;
    assert_int_equal(occ_device_validate(&d, &err), OCC_ERR_INVALID_DEVICE);
    d = h200();
    d.gpc_sms[3] = 0;
    assert_int_equal(occ_device_validate(&d, &err), OCC_ERR_INVALID_DEVICE);
}

/* Without a layout the counts are upper bounds: never below the H200's
   driver-exact answer, for any size, block size and shared memory. */
static void test_unknown_layout_bounds(void **state)
{
    (void)state;
    occ_device d = h200();
    occ_device bare = d;
    bare.gpc_count = 0;
    bare.gpc_source = OCC_GPC_UNKNOWN;
    int checked = 0;
    for (int size = 1; size <= 16; size++) {
        for (int block = 32; block <= 1024; block += 96) {
            for (int dyn = 0; dyn <= 200000; dyn += 25000) {
                occ_kernel k = big_block_kernel(size);
                k.block_x = block;
                k.dyn_smem_bytes = dyn;
                occ_cluster_result exact, bound;
                assert_int_equal(occ_cluster_calc(&d, &k, &exact, NULL), OCC_OK);
                assert_int_equal(occ_cluster_calc(&bare, &k, &bound, NULL), OCC_OK);
                assert_true(exact.exact);
                assert_false(bound.exact);
                assert_int_equal(bound.gpc_source, OCC_GPC_UNKNOWN);
                assert_true(bound.max_active_clusters >= exact.max_active_clusters);
                assert_true(bound.active_sms >= exact.active_sms);
                assert_true(bound.max_potential_cluster_size >= exact.max_potential_cluster_size);
                checked++;
            }
        }
    }
    occ_kernel k = big_block_kernel(7);
    char text[OCC_CLUSTER_TEXT_BYTES];
    assert_true(occ_cluster_explain(&bare, &k, text, sizeof text, NULL) > 0);
    assert_non_null(strstr(text, "at most"));
    assert_non_null(strstr(text, "upper bounds"));
    assert_true(checked > 1000);
}

/* The curve is occ_max_active_clusters at each size, and its warps are the
   active blocks' warps spread over the SMs. */
static void test_cluster_sweep(void **state)
{
    (void)state;
    occ_device d = h200();
    occ_kernel k = big_block_kernel(1);
    k.dyn_smem_bytes = 100000; /* two blocks per SM */
    occ_cluster_sweep_point pts[OCC_CLUSTER_NON_PORTABLE_MAX];
    int count = 0;
    assert_int_equal(occ_cluster_sweep(&d, &k, pts, 16, &count, NULL), OCC_OK);
    assert_int_equal(count, 16);
    for (int i = 0; i < count; i++) {
        occ_kernel one = k;
        one.cluster_x = i + 1;
        int n = 0;
        assert_int_equal(occ_max_active_clusters(&d, &one, &n, NULL), OCC_OK);
        assert_int_equal(pts[i].cluster_size, i + 1);
        assert_int_equal(pts[i].max_active_clusters, n);
        assert_int_equal(pts[i].blocks_per_sm, 2);
        assert_true(near(pts[i].warps_per_sm, n * (i + 1) * 4.0 / 132.0));
        assert_true(near(pts[i].occupancy, pts[i].warps_per_sm / 64.0));
    }
    k.cluster_non_portable = false;
    assert_int_equal(occ_cluster_sweep(&d, &k, pts, 16, &count, NULL), OCC_OK);
    assert_int_equal(count, 8);
    k.max_blocks_per_cluster = 4;
    assert_int_equal(occ_cluster_sweep(&d, &k, pts, 4, &count, NULL), OCC_OK);
    assert_int_equal(count, 4);
    k.max_blocks_per_cluster = 0;
    assert_int_equal(occ_cluster_sweep(&d, &k, pts, 4, &count, NULL), OCC_ERR_INVALID_ARGUMENT);
}

/* Waves count clusters: 18 clusters of 7 on the H200's 15 make two waves,
   the second 3 clusters full (the persistent-grid experiment's SM-count grid). */
static void test_cluster_waves(void **state)
{
    (void)state;
    occ_device d = h200();
    occ_kernel k = big_block_kernel(7);
    occ_cluster_result r;
    assert_int_equal(occ_cluster_calc(&d, &k, &r, NULL), OCC_OK);
    occ_waves_result w;
    assert_int_equal(occ_cluster_waves(&r, 132 / 7, &w, NULL), OCC_OK);
    assert_int_equal(w.full_waves, 1);
    assert_int_equal(w.last_wave_blocks, 3);
    assert_int_equal(w.persistent_grid_blocks, 15);
    assert_true(near(w.waves_per_sm, 18.0 / 15.0));
    r.max_active_clusters = 0;
    assert_int_equal(occ_cluster_waves(&r, 18, &w, NULL), OCC_ERR_INVALID_ARGUMENT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dense_sweep),
        cmocka_unit_test(test_large_clusters),
        cmocka_unit_test(test_heldout_sample),
        cmocka_unit_test(test_heldout_sample_2),
        cmocka_unit_test(test_large_cluster_launches),
        cmocka_unit_test(test_h200_layout_from_placements),
        cmocka_unit_test(test_full_launches_on_hardware),
        cmocka_unit_test(test_seven_block_clusters_explained),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_layout_validation),
        cmocka_unit_test(test_layout_table),
        cmocka_unit_test(test_unknown_layout_bounds),
        cmocka_unit_test(test_cluster_sweep),
        cmocka_unit_test(test_cluster_waves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
