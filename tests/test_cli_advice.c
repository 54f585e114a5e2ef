/*
 * test_cli_advice.c - occ explain, sweep, suggest and latency, run in-process:
 * every number they print held to libocc's own answer for the same inputs,
 * the driver's block-size picks on an H200 (tests/data/h200-driver/h200-probe.txt), and
 * the one-line error contract.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
    assert_true(json_is_integer(v));
    return (int)json_integer_value(v);
}

/* The output with line breaks and their indentation folded to one space, so
   phrases can be found across the wrapping. */
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

static occ_device gpu(const char *name)
{
    occ_device d;
    assert_int_equal(occ_gpu_find(name, &d, NULL), OCC_OK);
    return d;
}

static void assert_usage_error(const char *command, const char *fragment)
{
    assert_int_equal(last.code, EXIT_USAGE);
    assert_string_equal(last.out, "");
    assert_int_equal(line_count(last.err), 2);
    char line[512], prefix[64];
    line_at(last.err, 0, line, sizeof line);
    snprintf(prefix, sizeof prefix, "occ %s: ", command);
    assert_true(starts_with(line, prefix));
    if (strstr(line, fragment) == NULL) {
        fail_msg("'%s' lacks '%s'", line, fragment);
    }
}

/* ---- explain ------------------------------------------------------------ */

typedef struct kcase {
    const char *gpu;
    int threads, regs, smem, dyn;
} kcase;

static const kcase explain_cases[] = {
    {"H200", 256, 64, 16384, 0},  {"A100 40GB", 768, 32, 0, 0},  {"H200", 100, 255, 0, 0},
    {"T4", 128, 40, 20000, 3000}, {"sm_86", 1024, 64, 0, 0},     {"H200", 64, 16, 0, 100000},
    {"V100", 32, 0, 0, 0},        {"sm_120", 512, 96, 30000, 0},
};

static void set_kernel(occ_kernel *k, const kcase *c)
{
    occ_kernel_init(k);
    k->block_x = c->threads;
    k->regs_per_thread = c->regs;
    k->static_smem_bytes = c->smem;
    k->dyn_smem_bytes = c->dyn;
}

/* Every number of the JSON explanation is occ_calc's, for the kernel or for
   the kernel with the one change applied; each "next" change is the nearest:
   one step closer to the current value no longer gains. */
static void explain_json_is_occ_calc(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof explain_cases / sizeof explain_cases[0]; i++) {
        const kcase *c = &explain_cases[i];
        char threads[16], regs[16], smem[16], dyn[16];
        snprintf(threads, sizeof threads, "%d", c->threads);
        snprintf(regs, sizeof regs, "%d", c->regs);
        snprintf(smem, sizeof smem, "%d", c->smem);
        snprintf(dyn, sizeof dyn, "%d", c->dyn);
        assert_int_equal(OCC(NULL, "explain", "--gpu", c->gpu, "--threads", threads, "--regs", regs,
                             "--smem", smem, "--dyn-smem", dyn, "--json"),
                         EXIT_OK);
        occ_device d = gpu(c->gpu);
        occ_kernel k;
        set_kernel(&k, c);
        occ_result r;
        assert_int_equal(occ_calc(&d, &k, &r, NULL), OCC_OK);
        json_t *doc = parse_json_out();
        assert_string_equal(json_string_value(json_object_get(doc, "schema")), "occ.explain");
        json_t *result = json_object_get(doc, "result");
        assert_int_equal(json_int(result, "blocks_per_sm"), r.blocks_per_sm);
        json_t *steps = json_object_get(doc, "steps");
        assert_int_equal(json_array_size(steps), 5);
        const int limits[5] = {r.limit_warps, r.limit_blocks, r.limit_registers, r.limit_shared_mem,
                               r.limit_barriers};
        for (size_t s = 0; s < 5; s++) {
            json_t *step = json_array_get(steps, s);
            json_t *lb = json_object_get(step, "limit_blocks");
            assert_true(limits[s] == OCC_UNLIMITED ? json_is_null(lb)
                                                   : json_integer_value(lb) == limits[s]);
            assert_int_equal(json_is_true(json_object_get(step, "binds")),
                             limits[s] == r.blocks_per_sm);
            assert_true(strlen(json_string_value(json_object_get(step, "text"))) > 20);
        }
        json_t *changes = json_object_get(doc, "changes");
        for (size_t j = 0; j < json_array_size(changes); j++) {
            json_t *ch = json_array_get(changes, j);
            const char *input = json_string_value(json_object_get(ch, "input"));
            if (!json_is_true(json_object_get(ch, "helps"))) {
                continue;
            }
            json_t *next = json_object_get(ch, "next");
            int value = json_int(next, "value");
            occ_kernel kv = k;
            occ_kernel closer = k;
            if (strcmp(input, "regs") == 0) {
                kv.regs_per_thread = value;
                closer.regs_per_thread = value + 1;
            } else if (strcmp(input, "smem") == 0) {
                kv.static_smem_bytes = 0;
                kv.dyn_smem_bytes = value;
                closer = kv;
                closer.dyn_smem_bytes = value + 1;
            } else if (strcmp(input, "barriers") == 0) {
                kv.barriers = value;
                closer.barriers = value + 1;
            } else {
                kv.block_x = value;
                closer = kv; /* block sizes: nearest is checked by the text test */
            }
            occ_result rv, rc;
            assert_int_equal(occ_calc(&d, &kv, &rv, NULL), OCC_OK);
            assert_int_equal(json_int(next, "blocks_per_sm"), rv.blocks_per_sm);
            assert_int_equal(json_int(next, "warps_per_sm"), rv.warps_per_sm);
            assert_true(rv.warps_per_sm > r.warps_per_sm);
            if (strcmp(input, "threads") != 0) {
                assert_int_equal(occ_calc(&d, &closer, &rc, NULL), OCC_OK);
                assert_true(rc.blocks_per_sm <= r.blocks_per_sm);
            }
        }
        json_decref(doc);
    }
}

/* The seeds' 768-thread example (A100): 2 blocks, 48 warps, 16 warp slots
   stranded by block granularity, said in words. */
static void explain_text_768_threads(void **state)
{
    (void)state;
    assert_int_equal(OCC(NULL, "explain", "--gpu", "A100 40GB", "--threads", "768", "--regs", "32"),
                     EXIT_OK);
    assert_non_null(strstr(flat_out(), "2 blocks of 24 warps = 48 of 64 warps per SM: 75%"));
    assert_non_null(strstr(flat_out(), "16 of 64 warp slots stay empty, stranded by block"));
    assert_non_null(strstr(flat_out(), "Occupancy is not speed."));
    assert_non_null(strstr(flat_out(), "512 threads per block: 4 blocks, 64 warps (100%)"));
    assert_string_equal(last.err, "");
}

/* Registers bind: the smallest register change, and that shrinking shared
   memory changes nothing, as the examples put it. */
static void explain_text_register_bound(void **state)
{
    (void)state;
    assert_int_equal(
        OCC(NULL, "explain", "--gpu", "H200", "--threads", "256", "--regs", "64", "--smem", "16K"),
        EXIT_OK);
    assert_non_null(strstr(flat_out(), "Registers bind."));
    assert_non_null(strstr(flat_out(), "48 per thread or fewer: 5 blocks, 40 warps (62.5%)"));
    assert_non_null(strstr(flat_out(), "32 per thread or fewer: 8 blocks, 64 warps (100%)"));
    assert_non_null(strstr(flat_out(), "less shared memory changes nothing while registers"));
    assert_non_null(strstr(flat_out(), "spill"));
}

/* Whitespace runs folded to one space, in place. */
static void fold_spaces(char *text)
{
    char *w = text;
    bool space = false;
    for (const char *r = text; *r != '\0'; r++) {
        bool is_space = *r == ' ' || *r == '\n';
        if (!is_space) {
            if (space && w != text) {
                *w++ = ' ';
            }
            *w++ = *r;
        }
        space = is_space;
    }
    *w = '\0';
}

/* The command prints libocc's occ_explain_text (the web page's text) after
   its header line, only wrapped: one text, two readers. */
static void explain_text_is_libocc_text(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof explain_cases / sizeof explain_cases[0]; i++) {
        const kcase *c = &explain_cases[i];
        char threads[16], regs[16], smem[16], dyn[16];
        snprintf(threads, sizeof threads, "%d", c->threads);
        snprintf(regs, sizeof regs, "%d", c->regs);
        snprintf(smem, sizeof smem, "%d", c->smem);
        snprintf(dyn, sizeof dyn, "%d", c->dyn);
        assert_int_equal(OCC(NULL, "explain", "--gpu", c->gpu, "--threads", threads, "--regs", regs,
                             "--smem", smem, "--dyn-smem", dyn),
                         EXIT_OK);
        occ_device d = gpu(c->gpu);
        occ_kernel k;
        set_kernel(&k, c);
        static char lib[OCC_EXPLAIN_TEXT_MAX];
        assert_true(occ_explain_text(&d, &k, lib, sizeof lib, NULL) > 0);
        const char *body = strstr(last.out, "\n\n");
        assert_non_null(body);
        static char cli_text[1 << 16];
        snprintf(cli_text, sizeof cli_text, "%s", body);
        fold_spaces(cli_text);
        fold_spaces(lib);
        assert_string_equal(cli_text, lib);
    }
}

static void explain_errors(void **state)
{
    (void)state;
    OCC(NULL, "explain", "--gpu", "H200");
    assert_usage_error("explain", "option --threads: is required");
    OCC(NULL, "explain", "--gpu", "H200", "--threads", "256", "--regs", "300");
    assert_usage_error("explain",
                       "option --regs: registers per thread: '300' is above the maximum, 255");
    OCC(NULL, "explain", "--gpu", "H200", "--threads", "256", "--smem-config", "300K");
    assert_usage_error("explain", "smem_config 307200");
}

/* ---- sweep --------------------------------------------------------------- */

static void sweep_csv_is_occ_sweep(void **state)
{
    (void)state;
    static const char *const axes[] = {"regs", "smem", "threads", "barriers"};
    occ_device d = gpu("H200");
    occ_kernel k;
    occ_kernel_init(&k);
    k.block_x = 192;
    k.regs_per_thread = 72;
    k.static_smem_bytes = 12000;
    for (int a = 0; a < 4; a++) {
        assert_int_equal(OCC(NULL, "sweep", axes[a], "--gpu", "H200", "--threads", "192", "--regs",
                             "72", "--smem", "12000", "--csv"),
                         EXIT_OK);
        static occ_sweep_point p[2048];
        int n = 0;
        assert_int_equal(occ_sweep(&d, &k, (occ_sweep_axis)a, p, 2048, &n, NULL), OCC_OK);
        assert_int_equal(line_count(last.out), n + 1);
        char line[128], want[128];
        assert_string_equal(line_at(last.out, 0, line, sizeof line),
                            "value,blocks_per_sm,warps_per_sm,occupancy");
        for (int i = 0; i < n; i++) {
            snprintf(want, sizeof want, "%d,%d,%d,%.6g", p[i].value, p[i].blocks_per_sm,
                     p[i].warps_per_sm, p[i].occupancy);
            assert_string_equal(line_at(last.out, i + 1, line, sizeof line), want);
        }
    }
}

static void sweep_json_and_text(void **state)
{
    (void)state;
    assert_int_equal(
        OCC(NULL, "sweep", "regs", "--gpu", "H200", "--threads", "256", "--regs", "64", "--json"),
        EXIT_OK);
    json_t *doc = parse_json_out();
    assert_string_equal(json_string_value(json_object_get(doc, "schema")), "occ.sweep");
    assert_string_equal(json_string_value(json_object_get(doc, "axis")), "regs");
    assert_int_equal(json_int(doc, "version"), 2);
    assert_int_equal(json_int(doc, "smem_config_bytes"), 233472);
    json_t *cur = json_object_get(doc, "current");
    assert_int_equal(json_int(cur, "value"), 64);
    assert_int_equal(json_int(cur, "warps_per_sm"), 32);
    assert_int_equal(json_array_size(json_object_get(doc, "points")), 257);
    json_decref(doc);
    assert_int_equal(
        OCC(NULL, "sweep", "regs", "--gpu", "H200", "--threads", "256", "--regs", "64"), EXIT_OK);
    assert_non_null(strstr(last.out, "▲ current"));
    assert_non_null(strstr(last.out, "49-64                         4       32      50.0%"));
}

static void sweep_svg_file(void **state)
{
    (void)state;
    char path[] = "/tmp/occ-sweep-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(OCC(NULL, "sweep", "threads", "--gpu", "A100 40GB", "--threads", "768",
                         "--regs", "32", "--svg", path, "--csv"),
                     EXIT_OK);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char svg[1 << 20];
    size_t got = fread(svg, 1, sizeof svg - 1, f);
    svg[got] = '\0';
    fclose(f);
    unlink(path);
    assert_true(starts_with(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert_non_null(strstr(svg, "</svg>\n"));
    assert_non_null(strstr(svg, "<title>Resident warps per SM vs block size on A100 SXM 40GB"));
    assert_non_null(strstr(svg, "current: 768 -&gt; 48 warps (75.0%)"));
    assert_non_null(strstr(svg, "<polyline"));
    /* every element opened is closed or self-closed */
    int open_text = 0, close_text = 0;
    for (const char *p = svg; (p = strstr(p, "<text")) != NULL; p++) {
        open_text++;
    }
    for (const char *p = svg; (p = strstr(p, "</text>")) != NULL; p++) {
        close_text++;
    }
    assert_int_equal(open_text, close_text);
    assert_true(open_text > 10);
}

static void sweep_errors(void **state)
{
    (void)state;
    OCC(NULL, "sweep", "warps", "--gpu", "H200", "--threads", "256");
    assert_usage_error("sweep", "axis 'warps': is not one of regs, smem, threads, barriers");
    OCC(NULL, "sweep", "--gpu", "H200", "--threads", "256");
    assert_usage_error("sweep", "the axis is required");
    OCC(NULL, "sweep", "regs", "--gpu", "H200", "--threads", "256", "--csv", "--json");
    assert_usage_error("sweep", "choose one");
    OCC(NULL, "sweep", "regs", "smem", "--gpu", "H200", "--threads", "256");
    assert_usage_error("sweep", "argument 'smem': the axis is already regs");
    /* the axis may come after the options */
    assert_int_equal(OCC(NULL, "sweep", "--gpu", "H200", "--threads", "256", "regs", "--csv"),
                     EXIT_OK);
    assert_true(starts_with(last.out, "value,blocks_per_sm,warps_per_sm,occupancy\n"));
    OCC(NULL, "sweep", "regs", "--gpu", "H200", "--threads", "256", "--svg",
        "/nonexistent-dir/x.svg");
    assert_int_equal(last.code, EXIT_DATA);
    assert_non_null(strstr(last.err, "cannot write /nonexistent-dir/x.svg"));
}

/* ---- suggest ------------------------------------------------------------- */

/* For every kernel of the H200 probe, `occ suggest` prints the driver's
   cudaOccupancyMaxPotentialBlockSize answer (min grid, block size). */
static void suggest_equals_driver_on_h200(void **state)
{
    (void)state;
    FILE *f = test_data_open("h200-driver/h200-probe.txt", "r");
    char line[512];
    int kernels = 0;
    int regs = -1, smem = -1, max_threads = -1;
    while (fgets(line, sizeof line, f) != NULL) {
        char name[64];
        int local, max_dyn;
        if (sscanf(line, "%63s regs %d static %d local %d maxThreads %d maxDyn %d", name, &regs,
                   &smem, &local, &max_threads, &max_dyn) == 6) {
            continue;
        }
        int grid, block;
        const char *mp = strstr(line, "maxPotential driver (");
        if (mp == NULL || sscanf(mp, "maxPotential driver (%d,%d)", &grid, &block) != 2) {
            continue;
        }
        char r[16], s[16], m[16];
        snprintf(r, sizeof r, "%d", regs);
        snprintf(s, sizeof s, "%d", smem);
        snprintf(m, sizeof m, "%d", max_threads);
        assert_int_equal(OCC(NULL, "suggest", "--gpu", "H200", "--regs", r, "--smem", s,
                             "--max-threads", m, "--json"),
                         EXIT_OK);
        json_t *doc = parse_json_out();
        assert_int_equal(json_int(doc, "block_size"), block);
        assert_int_equal(json_int(doc, "min_grid_size"), grid);
        json_decref(doc);
        kernels++;
    }
    fclose(f);
    assert_int_equal(kernels, 30);
}

static void suggest_waves_and_sizes(void **state)
{
    (void)state;
    /* 64 registers on an H200: 1024 threads, 1 block per SM; a grid of one
       wave plus 13 blocks leaves a last wave 10% full. */
    assert_int_equal(
        OCC(NULL, "suggest", "--gpu", "H200", "--regs", "64", "--blocks", "145", "--json"),
        EXIT_OK);
    json_t *doc = parse_json_out();
    assert_int_equal(json_int(doc, "block_size"), 1024);
    json_t *launch = json_object_get(doc, "launch");
    assert_int_equal(json_int(launch, "persistent_grid_blocks"), 132);
    assert_int_equal(json_int(launch, "full_waves"), 1);
    assert_int_equal(json_int(launch, "last_wave_blocks"), 13);
    assert_true(fabs(json_real_value(json_object_get(launch, "waves_per_sm")) - 145.0 / 132) <
                1e-12);
    assert_true(json_is_true(json_object_get(launch, "mostly_empty_last_wave")));
    /* every size listed reaches the maximum, and no unlisted size does */
    occ_device d = gpu("H200");
    json_t *sizes = json_object_get(doc, "max_occupancy_block_sizes");
    int best = json_int(doc, "max_occupancy_warps_per_sm");
    size_t listed = 0;
    for (int t = 32; t <= 1024; t += 32) {
        occ_kernel k;
        occ_kernel_init(&k);
        k.block_x = t;
        k.regs_per_thread = 64;
        occ_result r;
        assert_int_equal(occ_calc(&d, &k, &r, NULL), OCC_OK);
        assert_true(r.warps_per_sm <= best);
        if (r.warps_per_sm == best) {
            assert_int_equal(json_integer_value(json_array_get(sizes, listed)), t);
            listed++;
        }
    }
    assert_int_equal(json_array_size(sizes), listed);
    json_decref(doc);

    assert_int_equal(OCC(NULL, "suggest", "--gpu", "H200", "--regs", "64", "--elements",
                         "100000000", "--per-thread", "4"),
                     EXIT_OK);
    assert_non_null(strstr(last.out, "Launch: 24415 blocks of 1024 threads"));
    assert_non_null(strstr(flat_out(), "starting point"));
    assert_int_equal(OCC(NULL, "suggest", "--gpu", "H200", "--regs", "64", "--blocks", "145"),
                     EXIT_OK);
    assert_non_null(strstr(flat_out(), "warning: the last of 2 waves is 10% full"));
    /* 113 full waves and one block more: 1% of the slots idle, no warning */
    assert_int_equal(OCC(NULL, "suggest", "--gpu", "H200", "--regs", "64", "--blocks", "14917"),
                     EXIT_OK);
    assert_null(strstr(flat_out(), "warning:"));
    /* a grid above gridDim.x is possible (2-D), and said so */
    assert_int_equal(
        OCC(NULL, "suggest", "--gpu", "H200", "--regs", "64", "--blocks", "4294967296"), EXIT_OK);
    assert_non_null(strstr(flat_out(), "more than gridDim.x allows"));
    assert_int_equal(
        OCC(NULL, "suggest", "--gpu", "H200", "--regs", "64", "--elements", "1000000000000000"),
        EXIT_OK);
    assert_non_null(strstr(flat_out(), "Launch: 976562500000 blocks"));
}

static void suggest_errors(void **state)
{
    (void)state;
    OCC(NULL, "suggest", "--gpu", "sm_90", "--regs", "64", "--blocks", "100");
    assert_usage_error("suggest", "has no SM count");
    OCC(NULL, "suggest", "--gpu", "H200", "--elements", "10", "--blocks", "100");
    assert_usage_error("suggest", "give one");
    OCC(NULL, "suggest", "--gpu", "H200", "--per-thread", "4");
    assert_usage_error("suggest", "needs --elements");
    OCC(NULL, "suggest", "--gpu", "H200", "--elements", "0");
    assert_usage_error("suggest", "option --elements: elements: '0' is below the minimum, 1");
    OCC(NULL, "suggest", "--gpu", "H200", "--blocks", "1000000000000001");
    assert_usage_error("suggest", "above the maximum, 1000000000000000");
    /* nothing fits at any block size: said, exit 1, no advice */
    assert_int_equal(OCC(NULL, "suggest", "--gpu", "H200", "--regs", "255", "--smem", "48K",
                         "--dyn-smem", "200K"),
                     EXIT_DATA);
    assert_string_equal(last.out, "");
    assert_non_null(strstr(last.err, "no block size fits on H200"));
    assert_int_equal(OCC(NULL, "suggest", "--gpu", "sm_90", "--regs", "64", "--sms", "132",
                         "--blocks", "264", "--json"),
                     EXIT_OK);
}

/* ---- latency ------------------------------------------------------------- */

static void latency_json_is_the_model(void **state)
{
    (void)state;
    assert_int_equal(OCC(NULL, "latency", "--gpu", "H200", "--threads", "256", "--regs", "128",
                         "--ilp", "2", "--json"),
                     EXIT_OK);
    json_t *doc = parse_json_out();
    occ_device d = gpu("H200");
    occ_kernel k;
    occ_kernel_init(&k);
    k.block_x = 256;
    k.regs_per_thread = 128;
    occ_result r;
    assert_int_equal(occ_calc(&d, &k, &r, NULL), OCC_OK);
    occ_memory_model m;
    assert_int_equal(occ_memory_model_from_device(&d, &m, NULL), OCC_OK);
    occ_latency_input in = {r.warps_per_sm, 2, 4, 0, 1, 0};
    occ_latency_result want;
    assert_int_equal(occ_latency_predict(&m, &in, &want, NULL), OCC_OK);
    json_t *p = json_object_get(doc, "prediction");
    assert_true(fabs(json_real_value(json_object_get(p, "predicted_gb_per_s")) -
                     want.predicted_gb_per_s) < 1e-9);
    assert_true(fabs(json_real_value(json_object_get(p, "loads_per_thread_needed")) -
                     want.loads_per_thread_needed) < 1e-9);
    assert_string_equal(json_string_value(json_object_get(p, "bound")),
                        occ_latency_bound_name(want.bound));
    assert_int_equal(json_int(doc, "kernel_blocks_per_sm"), r.blocks_per_sm);
    json_decref(doc);
    assert_int_equal(OCC(NULL, "latency", "--gpu", "H200", "--warps", "64", "--ilp", "2"), EXIT_OK);
    assert_non_null(strstr(last.out, "Memory is saturated"));
}

static void latency_errors(void **state)
{
    (void)state;
    OCC(NULL, "latency", "--gpu", "sm_75", "--warps", "16");
    assert_usage_error("latency", "give --latency-ns");
    OCC(NULL, "latency", "--gpu", "H200", "--warps", "0");
    assert_usage_error("latency", "option --warps: warps per SM: '0' must be above 0");
    OCC(NULL, "latency", "--gpu", "H200", "--warps", "8", "--ilp", "0");
    assert_usage_error("latency", "option --ilp: loads in flight per thread: '0' must be above 0");
    /* one range for --active-sms, whichever end is crossed */
    OCC(NULL, "latency", "--gpu", "H200", "--warps", "8", "--active-sms", "0");
    assert_usage_error("latency", "'0' is below the minimum, 1 (H200 has 132 SMs)");
    OCC(NULL, "latency", "--gpu", "H200", "--warps", "8", "--active-sms", "1000");
    assert_usage_error("latency", "'1000' is above the maximum, 132 (H200 has 132 SMs)");
    /* a kernel with no block resident: nothing fits, exit 1, no advice */
    assert_int_equal(OCC(NULL, "latency", "--gpu", "H200", "--threads", "1024", "--regs", "255"),
                     EXIT_DATA);
    assert_string_equal(last.out, "");
    assert_non_null(strstr(last.err, "nothing fits"));
    /* every named GPU has a latency, with its source said */
    assert_int_equal(OCC(NULL, "latency", "--gpu", "T4", "--warps", "16"), EXIT_OK);
    assert_non_null(strstr(flat_out(), "Memory latency"));
    assert_non_null(strstr(flat_out(), "architecture"));
    assert_int_equal(OCC(NULL, "latency", "--gpu", "H200", "--warps", "16"), EXIT_OK);
    assert_non_null(strstr(flat_out(), "measured"));
    OCC(NULL, "latency", "--gpu", "H200", "--warps", "65");
    assert_usage_error("latency", "exceeds the 64 warps");
    OCC(NULL, "latency", "--gpu", "H200", "--warps", "8", "--ilp", "nan");
    assert_usage_error("latency", "option --ilp: loads in flight per thread: 'nan' is not");
    OCC(NULL, "latency", "--gpu", "H200");
    assert_usage_error("latency", "one is required");
    assert_int_equal(OCC(NULL, "latency", "--gpu", "T4", "--warps", "16", "--latency-ns", "600"),
                     EXIT_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(explain_json_is_occ_calc),
        cmocka_unit_test(explain_text_768_threads),
        cmocka_unit_test(explain_text_register_bound),
        cmocka_unit_test(explain_text_is_libocc_text),
        cmocka_unit_test(explain_errors),
        cmocka_unit_test(sweep_csv_is_occ_sweep),
        cmocka_unit_test(sweep_json_and_text),
        cmocka_unit_test(sweep_svg_file),
        cmocka_unit_test(sweep_errors),
        cmocka_unit_test(suggest_equals_driver_on_h200),
        cmocka_unit_test(suggest_waves_and_sizes),
        cmocka_unit_test(suggest_errors),
        cmocka_unit_test(latency_json_is_the_model),
        cmocka_unit_test(latency_errors),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    free(last.out);
    free(last.err);
    return failed;
}
