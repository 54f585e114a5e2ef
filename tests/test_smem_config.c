/*
 * test_smem_config.c - occ_launch_smem_config, the shared-memory configuration
 * the driver chooses at launch, against what Nsight Compute measured on an
 * NVIDIA H200 (driver 580.159.04, CUDA 13.0, Nsight Compute 2025.3.1):
 *  - the 944 launches of tests/gpu/smem_config_probe.cu
 *    (tests/data/ncu-h200/smemcfg-*), on both halves of the split the rule
 *    was derived with (smemcfg-split.txt): every launch, the configuration,
 *    Nsight's Block Limit Shared Mem and its theoretical blocks per SM;
 *  - the 88 targeted launches of smemcfg2-* (grids, 800..1,024-thread blocks,
 *    a few bytes of shared memory with and without the opt-in, one block by
 *    registers, carveouts without shared memory, cache preferences), group by
 *    group (smemcfg2-groups.txt): the rule missed 15 of them before it was
 *    refined on them, and gets all now;
 *  - the 7 launches of tests/data/ncu-sweep (another program and day);
 *  - the 49 PyTorch and Triton launches of tests/data/ncu-h200/{torch,triton}-raw;
 * and what occ calc prints from it.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>
#include <zlib.h>

#include "cli_harness.h"
#include "occ.h"
#include "test_data.h"

#define PROBE_LAUNCHES 944 /* tests/data/ncu-h200/README.md */
#define TARGETED_LAUNCHES 88
#define MAX_FIELDS 400 /* the raw exports have 279 columns */
#define LINE_BYTES (1 << 16)

static occ_device gpu(const char *name)
{
    occ_device d;
    occ_error err;
    assert_int_equal(occ_gpu_find(name, &d, &err), OCC_OK);
    return d;
}

/* ------------------------------------------------------------------------ */
/* Reading Nsight's CSV exports                                             */
/* ------------------------------------------------------------------------ */

/* Splits one CSV record in place (quoted fields, no quotes inside them, as
   ncu writes); returns the field count. */
static int split_csv(char *line, char **fields, int max)
{
    int n = 0;
    char *p = line;
    line[strcspn(line, "\r\n")] = '\0';
    while (n < max) {
        if (*p == '"') {
            fields[n++] = ++p;
            p = strchr(p, '"');
            assert_non_null(p);
            *p++ = '\0';
        } else {
            fields[n++] = p;
            p += strcspn(p, ",");
        }
        if (*p != ',') {
            break;
        }
        *p++ = '\0';
    }
    return n;
}

typedef struct table {
    char *header[MAX_FIELDS];
    int columns;
    char header_line[LINE_BYTES];
} table;

static int column(const table *t, const char *name)
{
    for (int i = 0; i < t->columns; i++) {
        if (strcmp(t->header[i], name) == 0) {
            return i;
        }
    }
    fail_msg("column '%s' is missing", name);
    return -1;
}

/* A number as ncu prints it: "1,024", "233.472000" or "167.94 (0: 167.94)". */
static double number(const char *text)
{
    char digits[64];
    size_t n = 0;
    for (const char *p = text; *p != '\0' && *p != ' ' && n + 1 < sizeof digits; p++) {
        if (*p != ',') {
            digits[n++] = *p;
        }
    }
    digits[n] = '\0';
    char *end;
    double v = strtod(digits, &end);
    if (n == 0 || *end != '\0') {
        fail_msg("'%s' is not a number", text);
    }
    return v;
}

/* Nsight's Kbyte (1000 bytes) in bytes. */
static int kbyte(const char *text)
{
    return (int)lround(number(text) * 1000.0);
}

/* The carveout step nearest a size Nsight rounded to 10 bytes (ncu-sweep). */
static int nearest_step(const occ_device *d, int bytes)
{
    int best = d->carveout_steps_bytes[0];
    for (int i = 1; i < d->carveout_step_count; i++) {
        if (abs(d->carveout_steps_bytes[i] - bytes) < abs(best - bytes)) {
            best = d->carveout_steps_bytes[i];
        }
    }
    assert_true(abs(best - bytes) <= 10);
    return best;
}

/* "CachePreferNone", or "CachePreferNone (0: CachePreferNone)" (ncu-sweep):
   the cudaFuncCache values, in their order. */
static occ_cache_preference cache_preference(const char *text)
{
    static const char *const names[] = {"CachePreferNone", "CachePreferShared", "CachePreferL1",
                                        "CachePreferEqual"};
    size_t n = strcspn(text, " ");
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (n == strlen(names[i]) && strncmp(text, names[i], n) == 0) {
            return (occ_cache_preference)i;
        }
    }
    fail_msg("cache configuration '%s' is not in the data this test expects", text);
    return OCC_CACHE_PREFER_NONE;
}

/* What Nsight measured for one launch. */
typedef struct measured {
    int config_bytes;
    int limit_shared_mem;
    int blocks_per_sm; /* the smallest of Nsight's five limits */
} measured;

static measured read_measured(const table *t, char **f, bool rounded, const occ_device *d)
{
    measured m;
    m.config_bytes = kbyte(f[column(t, "launch__shared_mem_config_size")]);
    if (rounded) {
        m.config_bytes = nearest_step(d, m.config_bytes);
    }
    m.limit_shared_mem = (int)number(f[column(t, "launch__occupancy_limit_shared_mem")]);
    static const char *const limits[] = {
        "launch__occupancy_limit_warps", "launch__occupancy_limit_registers",
        "launch__occupancy_limit_blocks", "launch__occupancy_limit_barriers",
        "launch__occupancy_limit_shared_mem"};
    m.blocks_per_sm = 1 << 30;
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        int v = (int)number(f[column(t, limits[i])]);
        m.blocks_per_sm = v < m.blocks_per_sm ? v : m.blocks_per_sm;
    }
    return m;
}

/* The launch's kernel as the export records it: block, registers, static and
   dynamic shared memory, barriers. Its carveout preference is not in the
   export: the default. */
static occ_kernel kernel_from_export(const table *t, char **f)
{
    occ_kernel k;
    occ_kernel_init(&k);
    k.block_x = (int)number(f[column(t, "launch__block_size")]);
    k.regs_per_thread = (int)number(f[column(t, "launch__registers_per_thread")]);
    k.static_smem_bytes = kbyte(f[column(t, "launch__shared_mem_per_block_static")]);
    k.dyn_smem_bytes = kbyte(f[column(t, "launch__shared_mem_per_block_dynamic")]);
    k.barriers = (int)number(f[column(t, "launch__barrier_count")]);
    return k;
}

/* ------------------------------------------------------------------------ */
/* The probe's 944 launches                                                 */
/* ------------------------------------------------------------------------ */

/* smemcfg-split.txt: which launches the rule was fitted on (1) and which
   were held out (2). */
static void read_split(int half[PROBE_LAUNCHES])
{
    FILE *in = test_data_open("ncu-h200/smemcfg-split.txt", "r");
    static char line[LINE_BYTES];
    memset(half, 0, sizeof(int) * PROBE_LAUNCHES);
    while (fgets(line, sizeof line, in) != NULL) {
        int which = strncmp(line, "fit ", 4) == 0 ? 1 : strncmp(line, "held-out ", 9) == 0 ? 2 : 0;
        if (which == 0) {
            continue;
        }
        char *save = NULL;
        strtok_r(line, " \n", &save);
        for (char *id = strtok_r(NULL, " \n", &save); id != NULL;
             id = strtok_r(NULL, " \n", &save)) {
            int n = atoi(id);
            assert_true(n >= 0 && n < PROBE_LAUNCHES);
            assert_int_equal(half[n], 0);
            half[n] = which;
        }
    }
    fclose(in);
    for (int i = 0; i < PROBE_LAUNCHES; i++) {
        assert_int_not_equal(half[i], 0);
    }
}

static void test_probe_launches(void **state)
{
    (void)state;
    occ_device d = gpu("H200");
    int half[PROBE_LAUNCHES];
    read_split(half);

    FILE *inputs = test_data_open("ncu-h200/smemcfg-launches.csv", "r");
    const char *raw_path = test_data_path("ncu-h200/smemcfg-raw.csv.gz");
    gzFile raw = gzopen(raw_path, "rb");
    if (raw == NULL) {
        fail_msg("test data %s: cannot open", raw_path);
    }
    static table t;
    static char line[LINE_BYTES];
    static char input[4096];
    char *f[MAX_FIELDS];
    char *in[16];
    assert_non_null(gzgets(raw, t.header_line, sizeof t.header_line));
    t.columns = split_csv(t.header_line, t.header, MAX_FIELDS);
    assert_non_null(gzgets(raw, line, sizeof line)); /* the units row */
    assert_non_null(fgets(input, sizeof input, inputs));
    assert_non_null(strstr(input, "launch,kernel,regs,static_smem,local,max_threads,threads,"
                                  "dyn_smem,carveout,driver_blocks"));

    int launches = 0;
    int wrong[3] = {0, 0, 0};
    int count[3] = {0, 0, 0};
    while (gzgets(raw, line, sizeof line) != NULL) {
        assert_int_equal(split_csv(line, f, MAX_FIELDS), t.columns);
        assert_non_null(fgets(input, sizeof input, inputs));
        assert_int_equal(split_csv(input, in, 16), 10);
        int id = atoi(in[0]);
        assert_int_equal(id, (int)number(f[column(&t, "ID")]));
        assert_true(id >= 0 && id < PROBE_LAUNCHES);

        occ_kernel k;
        occ_kernel_init(&k);
        k.regs_per_thread = atoi(in[2]);
        k.static_smem_bytes = atoi(in[3]);
        k.max_threads_per_block = atoi(in[5]);
        k.block_x = atoi(in[6]);
        k.dyn_smem_bytes = atoi(in[7]);
        k.carveout_percent = atoi(in[8]);
        k.barriers = (int)number(f[column(&t, "launch__barrier_count")]);
        assert_int_equal(k.block_x, (int)number(f[column(&t, "launch__block_size")]));
        assert_int_equal(k.dyn_smem_bytes,
                         kbyte(f[column(&t, "launch__shared_mem_per_block_dynamic")]));
        measured m = read_measured(&t, f, false, &d);

        occ_smem_config_result c;
        occ_error err;
        assert_int_equal(occ_launch_smem_config(&d, &k, OCC_CACHE_PREFER_NONE, &c, &err), OCC_OK);
        assert_true(c.measured);
        /* the occupancy API's answer, as the probe recorded it */
        assert_int_equal(c.api_blocks_per_sm, atoi(in[9]));
        count[half[id]]++;
        if (c.config_bytes != m.config_bytes || c.limit_shared_mem != m.limit_shared_mem ||
            c.blocks_per_sm != m.blocks_per_sm) {
            wrong[half[id]]++;
            print_error("launch %d (%s, %d threads, dyn %d, carveout %d): config %d, occ %d; "
                        "shared-memory limit %d, occ %d; blocks %d, occ %d\n",
                        id, in[1], k.block_x, k.dyn_smem_bytes, k.carveout_percent, m.config_bytes,
                        c.config_bytes, m.limit_shared_mem, c.limit_shared_mem, m.blocks_per_sm,
                        c.blocks_per_sm);
        }
        launches++;
    }
    gzclose(raw);
    fclose(inputs);
    print_message("fitting half: %d of %d right; held-out half: %d of %d right\n",
                  count[1] - wrong[1], count[1], count[2] - wrong[2], count[2]);
    assert_int_equal(launches, PROBE_LAUNCHES);
    assert_int_equal(count[1], PROBE_LAUNCHES / 2);
    assert_int_equal(wrong[1], 0);
    assert_int_equal(wrong[2], 0);
}

/* ------------------------------------------------------------------------ */
/* The 88 targeted launches                                                 */
/* ------------------------------------------------------------------------ */

/* smemcfg2-groups.txt's groups and their sizes, as
   tests/gpu/smem_config_probe.cu's targeted_points() builds them. */
static const struct {
    const char *name;
    int launches;
} targeted_groups[] = {
    {"grids", 6 * 4},                  /* 6 grids x 4 kernels */
    {"large-blocks", 8 * 2},           /* 800..1,024 threads by 32, 2 kernels */
    {"few-bytes", 3 * 5},              /* 3 block sizes x 5 sizes */
    {"few-bytes-no-optin", 4 * 2},     /* 4 sizes x 2 grids */
    {"one-block-by-registers", 5 * 2}, /* 5 block sizes, with and without 4 KB */
    {"carveout-no-smem", 3 * 2},       /* 3 block sizes x carveouts 0 and 10 */
    {"cache-preference", 3 * 3},       /* shared, L1, equal x 3 kernels */
};
#define TARGETED_GROUPS ((int)(sizeof targeted_groups / sizeof targeted_groups[0]))

/* Each launch's group index, from smemcfg2-groups.txt. */
static void read_groups(int group[TARGETED_LAUNCHES])
{
    FILE *in = test_data_open("ncu-h200/smemcfg2-groups.txt", "r");
    static char line[LINE_BYTES];
    for (int i = 0; i < TARGETED_LAUNCHES; i++) {
        group[i] = -1;
    }
    while (fgets(line, sizeof line, in) != NULL) {
        if (line[0] == '#') {
            continue;
        }
        char *save = NULL;
        const char *name = strtok_r(line, " \n", &save);
        int g = 0;
        while (g < TARGETED_GROUPS && strcmp(targeted_groups[g].name, name) != 0) {
            g++;
        }
        assert_true(g < TARGETED_GROUPS);
        for (char *id = strtok_r(NULL, " \n", &save); id != NULL;
             id = strtok_r(NULL, " \n", &save)) {
            int n = atoi(id);
            assert_true(n >= 0 && n < TARGETED_LAUNCHES);
            assert_int_equal(group[n], -1);
            group[n] = g;
        }
    }
    fclose(in);
    for (int i = 0; i < TARGETED_LAUNCHES; i++) {
        assert_int_not_equal(group[i], -1);
    }
}

/* Every targeted launch: the configuration, Block Limit Shared Mem and
   Nsight's blocks per SM, and the occupancy API's answer with the cache
   preference, as the probe recorded it (cudaFuncCachePreferL1 gave 1 block
   where no preference gives 8). */
static void test_targeted_launches(void **state)
{
    (void)state;
    occ_device d = gpu("H200");
    int group[TARGETED_LAUNCHES];
    read_groups(group);

    FILE *inputs = test_data_open("ncu-h200/smemcfg2-launches.csv", "r");
    const char *raw_path = test_data_path("ncu-h200/smemcfg2-raw.csv.gz");
    gzFile raw = gzopen(raw_path, "rb");
    if (raw == NULL) {
        fail_msg("test data %s: cannot open", raw_path);
    }
    static table t;
    static char line[LINE_BYTES];
    static char input[4096];
    char *f[MAX_FIELDS];
    char *in[16];
    assert_non_null(gzgets(raw, t.header_line, sizeof t.header_line));
    t.columns = split_csv(t.header_line, t.header, MAX_FIELDS);
    assert_non_null(gzgets(raw, line, sizeof line)); /* the units row */
    assert_non_null(fgets(input, sizeof input, inputs));
    assert_non_null(strstr(input, "launch,kernel,regs,static_smem,local,max_threads,threads,"
                                  "dyn_smem,carveout,driver_blocks,grid,cache_config,optin"));

    int launches = 0;
    int count[TARGETED_GROUPS] = {0};
    int wrong[TARGETED_GROUPS] = {0};
    while (gzgets(raw, line, sizeof line) != NULL) {
        assert_int_equal(split_csv(line, f, MAX_FIELDS), t.columns);
        assert_non_null(fgets(input, sizeof input, inputs));
        assert_int_equal(split_csv(input, in, 16), 13);
        int id = atoi(in[0]);
        assert_int_equal(id, (int)number(f[column(&t, "ID")]));
        assert_true(id >= 0 && id < TARGETED_LAUNCHES);

        occ_kernel k;
        occ_kernel_init(&k);
        k.regs_per_thread = atoi(in[2]);
        k.static_smem_bytes = atoi(in[3]);
        k.max_threads_per_block = atoi(in[5]);
        k.block_x = atoi(in[6]);
        k.dyn_smem_bytes = atoi(in[7]);
        k.carveout_percent = atoi(in[8]);
        if (atoi(in[12]) == 0) {
            k.max_dyn_smem_bytes = OCC_DYN_SMEM_NO_OPTIN;
        }
        k.barriers = (int)number(f[column(&t, "launch__barrier_count")]);
        occ_cache_preference cache = (occ_cache_preference)atoi(in[11]);
        assert_int_equal(cache, cache_preference(f[column(&t, "launch__func_cache_config")]));
        assert_int_equal(atoi(in[10]), (int)number(f[column(&t, "launch__grid_size")]));
        assert_int_equal(k.block_x, (int)number(f[column(&t, "launch__block_size")]));
        assert_int_equal(k.dyn_smem_bytes,
                         kbyte(f[column(&t, "launch__shared_mem_per_block_dynamic")]));
        measured m = read_measured(&t, f, false, &d);

        occ_smem_config_result c;
        occ_error err;
        assert_int_equal(occ_launch_smem_config(&d, &k, cache, &c, &err), OCC_OK);
        assert_true(c.measured);
        assert_int_equal(c.api_blocks_per_sm, atoi(in[9]));
        int g = group[id];
        count[g]++;
        if (c.config_bytes != m.config_bytes || c.limit_shared_mem != m.limit_shared_mem ||
            c.blocks_per_sm != m.blocks_per_sm) {
            wrong[g]++;
            print_error("launch %d (%s, %s, %d threads, dyn %d, carveout %d, cache %d): config "
                        "%d, occ %d; shared-memory limit %d, occ %d; blocks %d, occ %d\n",
                        id, targeted_groups[g].name, in[1], k.block_x, k.dyn_smem_bytes,
                        k.carveout_percent, (int)cache, m.config_bytes, c.config_bytes,
                        m.limit_shared_mem, c.limit_shared_mem, m.blocks_per_sm, c.blocks_per_sm);
        }
        launches++;
    }
    gzclose(raw);
    fclose(inputs);
    assert_int_equal(launches, TARGETED_LAUNCHES);
    for (int g = 0; g < TARGETED_GROUPS; g++) {
        print_message("%s: %d of %d right\n", targeted_groups[g].name, count[g] - wrong[g],
                      count[g]);
        assert_int_equal(count[g], targeted_groups[g].launches);
        assert_int_equal(wrong[g], 0);
    }
}

/* ------------------------------------------------------------------------ */
/* Launches of other programs                                               */
/* ------------------------------------------------------------------------ */

typedef struct other_tally {
    int launches;
    int wrong;
} other_tally;

/* Every launch of one export, its kernel as the export has it. */
static void check_export(const char *relative, bool gz, bool rounded, other_tally *tally)
{
    occ_device d = gpu("H200");
    static table t;
    static char line[LINE_BYTES];
    char *f[MAX_FIELDS];
    const char *path = test_data_path(relative);
    gzFile in = gz ? gzopen(path, "rb") : NULL;
    FILE *plain = gz ? NULL : fopen(path, "r");
    if (in == NULL && plain == NULL) {
        fail_msg("test data %s: cannot open", path);
    }
#define NEXT(buf)                                                                                  \
    (gz ? gzgets(in, (buf), sizeof(buf)) != NULL : fgets((buf), sizeof(buf), plain) != NULL)
    assert_true(NEXT(t.header_line));
    t.columns = split_csv(t.header_line, t.header, MAX_FIELDS);
    assert_true(NEXT(line)); /* the units row */
    while (NEXT(line)) {
        assert_int_equal(split_csv(line, f, MAX_FIELDS), t.columns);
        occ_kernel k = kernel_from_export(&t, f);
        measured m = read_measured(&t, f, rounded, &d);
        occ_cache_preference cache = cache_preference(f[column(&t, "launch__func_cache_config")]);
        occ_smem_config_result c;
        occ_error err;
        assert_int_equal(occ_launch_smem_config(&d, &k, cache, &c, &err), OCC_OK);
        tally->launches++;
        if (c.config_bytes != m.config_bytes) {
            const char *name = f[column(&t, "Kernel Name")];
            print_message("%s: %.60s: config %d, occ %d\n", relative, name, m.config_bytes,
                          c.config_bytes);
            tally->wrong++;
        } else {
            /* Nsight divides its configuration by the block's allocation */
            assert_int_equal(c.limit_shared_mem, m.limit_shared_mem);
        }
    }
#undef NEXT
    if (gz) {
        gzclose(in);
    } else {
        fclose(plain);
    }
}

/* tests/data/ncu-sweep: seven kernels of another program, grids of 264 to
   4,096 blocks, one with four barriers; sizes printed to 10 bytes. */
static void test_sweep_launches(void **state)
{
    (void)state;
    other_tally tally = {0};
    check_export("ncu-sweep/ncu_raw.csv", false, true, &tally);
    assert_int_equal(tally.launches, 7);
    assert_int_equal(tally.wrong, 0);
}

/* PyTorch and Triton: every launch right. Triton's matmuls above 48 KB ask
   for cudaFuncCachePreferShared and get the largest configuration; the
   layer norm of 24 bytes at 128 threads gets 32 KB, 28 blocks (the
   block-size bound that smemcfg2 found, docs/occupancy-rules.md), where
   twice its 16 blocks would take 64 KB. */
static void test_pytorch_triton_launches(void **state)
{
    (void)state;
    other_tally tally = {0};
    check_export("ncu-h200/torch-raw.csv.gz", true, false, &tally);
    assert_int_equal(tally.launches, 39);
    check_export("ncu-h200/triton-raw.csv.gz", true, false, &tally);
    assert_int_equal(tally.launches, 49);
    assert_int_equal(tally.wrong, 0);
}

/* ------------------------------------------------------------------------ */
/* The function's contract                                                  */
/* ------------------------------------------------------------------------ */

/* A 256-thread kernel of 30 registers without shared memory: Nsight
   measured 32 KB on the H200 (smemcfg launch 240), and the unified cache of compute capability
   9.0 is 256 KB [CUDA Programming Guide], so 224 KB of L1 remain. */
static void test_l1_left(void **state)
{
    (void)state;
    occ_device d = gpu("H200");
    occ_kernel k;
    occ_kernel_init(&k);
    k.block_x = 256;
    k.regs_per_thread = 30;
    occ_smem_config_result c;
    assert_int_equal(occ_launch_smem_config(&d, &k, OCC_CACHE_PREFER_NONE, &c, NULL), OCC_OK);
    assert_int_equal(c.config_bytes, 32 * 1024);
    assert_int_equal(c.unified_cache_bytes, 256 * 1024);
    assert_int_equal(c.l1_bytes, 224 * 1024);
    assert_int_equal(c.rule, OCC_SMEM_CONFIG_NO_SMEM);
    /* a configuration given in the kernel is what is predicted: ignored */
    k.smem_config_bytes = 200 * 1024;
    occ_smem_config_result again;
    assert_int_equal(occ_launch_smem_config(&d, &k, OCC_CACHE_PREFER_NONE, &again, NULL), OCC_OK);
    assert_int_equal(again.config_bytes, c.config_bytes);
}

static void test_bad_input(void **state)
{
    (void)state;
    occ_device d = gpu("H200");
    occ_kernel k;
    occ_kernel_init(&k);
    k.block_x = 256;
    occ_smem_config_result c;
    occ_error err;
    assert_int_equal(occ_launch_smem_config(&d, &k, OCC_CACHE_PREFER_NONE, NULL, &err),
                     OCC_ERR_NULL_POINTER);
    assert_int_equal(occ_launch_smem_config(&d, NULL, OCC_CACHE_PREFER_NONE, &c, &err),
                     OCC_ERR_NULL_POINTER);
    assert_int_equal(occ_launch_smem_config(&d, &k, (occ_cache_preference)4, &c, &err),
                     OCC_ERR_INVALID_ARGUMENT);
    assert_string_equal(err.field, "cache");
    k.block_x = 2048;
    assert_int_equal(occ_launch_smem_config(&d, &k, OCC_CACHE_PREFER_NONE, &c, &err),
                     OCC_ERR_INVALID_ARGUMENT);
    assert_string_equal(err.field, "threads");
    /* 1024 threads of 255 registers need 261,120 registers: no block fits */
    k.block_x = 1024;
    k.regs_per_thread = 255;
    assert_int_equal(occ_launch_smem_config(&d, &k, OCC_CACHE_PREFER_NONE, &c, &err),
                     OCC_ERR_NOT_FOUND);
    assert_non_null(strstr(err.message, "the launch fails"));
}

/* Only an H200 is measured, with every cache preference since smemcfg2; a
   GPU with fixed shared memory has nothing to choose. */
static void test_measured_flag(void **state)
{
    (void)state;
    occ_kernel k;
    occ_kernel_init(&k);
    k.block_x = 256;
    k.regs_per_thread = 32;
    k.static_smem_bytes = 8192;
    occ_smem_config_result c;
    occ_device h200 = gpu("H200");
    occ_device a100 = gpu("A100");
    for (int cache = OCC_CACHE_PREFER_NONE; cache <= OCC_CACHE_PREFER_EQUAL; cache++) {
        assert_int_equal(occ_launch_smem_config(&h200, &k, (occ_cache_preference)cache, &c, NULL),
                         OCC_OK);
        assert_true(c.measured);
        assert_int_equal(occ_launch_smem_config(&a100, &k, (occ_cache_preference)cache, &c, NULL),
                         OCC_OK);
        assert_false(c.measured);
    }
    /* compute capability 6.0: 64 KB of shared memory per SM [PG], fixed */
    occ_device p100 = gpu("sm_60");
    assert_int_equal(occ_launch_smem_config(&p100, &k, OCC_CACHE_PREFER_NONE, &c, NULL), OCC_OK);
    assert_int_equal(c.rule, OCC_SMEM_CONFIG_FIXED);
    assert_int_equal(c.config_bytes, 64 * 1024);
    assert_true(c.measured);
    assert_int_equal(c.unified_cache_bytes, 0);
}

/* On every GPU of the database, for kernels of every kind (no shared memory
   on a GPU without a reserve included): a configuration the GPU has, which
   keeps the occupancy API's resident blocks when there is no preference. */
static void test_every_gpu_keeps_residency(void **state)
{
    (void)state;
    static const int threads[] = {32, 128, 256, 768, 1024};
    static const int smem[] = {0, 24, 4096, 40000};
    int checked = 0;
    for (int g = 0; g < occ_gpu_count(); g++) {
        occ_device d;
        assert_int_equal(occ_gpu_at(g, &d, NULL, NULL, NULL), OCC_OK);
        for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
            for (size_t m = 0; m < sizeof smem / sizeof smem[0]; m++) {
                occ_kernel k;
                occ_kernel_init(&k);
                k.block_x = threads[t];
                k.regs_per_thread = 32;
                k.dyn_smem_bytes = smem[m];
                occ_result r;
                assert_int_equal(occ_calc(&d, &k, &r, NULL), OCC_OK);
                occ_smem_config_result c;
                occ_status status = occ_launch_smem_config(&d, &k, OCC_CACHE_PREFER_NONE, &c, NULL);
                if (r.blocks_per_sm == 0) {
                    assert_int_equal(status, OCC_ERR_NOT_FOUND);
                    continue;
                }
                assert_int_equal(status, OCC_OK);
                bool is_step = d.carveout_step_count == 0 && c.config_bytes == d.smem_per_sm_bytes;
                for (int i = 0; i < d.carveout_step_count; i++) {
                    is_step |= c.config_bytes == d.carveout_steps_bytes[i];
                }
                assert_true(is_step);
                assert_int_equal(c.blocks_per_sm, r.blocks_per_sm);
                assert_int_equal(c.api_blocks_per_sm, r.blocks_per_sm);
                assert_true(c.l1_bytes >= 0);
                checked++;
            }
        }
    }
    assert_true(checked > 1000);
}

static void test_rule_names(void **state)
{
    (void)state;
    const char *seen[6];
    for (int i = 0; i < 6; i++) {
        seen[i] = occ_smem_config_rule_name((occ_smem_config_rule)i);
        assert_string_not_equal(seen[i], "unknown");
        for (int j = 0; j < i; j++) {
            assert_string_not_equal(seen[i], seen[j]);
        }
    }
    assert_string_equal(occ_smem_config_rule_name((occ_smem_config_rule)6), "unknown");
}

/* ------------------------------------------------------------------------ */
/* occ calc                                                                 */
/* ------------------------------------------------------------------------ */

/* Text with its line breaks as spaces (occ wraps at 100 columns); free it. */
static char *flatten(const char *text)
{
    char *flat = strdup(text);
    assert_non_null(flat);
    for (char *p = flat; *p != '\0'; p++) {
        *p = *p == '\n' ? ' ' : *p;
    }
    return flat;
}

/* The 2-block 256-thread kernel of 1 KB Nsight saw at 32 KB (smemcfg launch
   260, the first example): occ calc names the configuration and the L1 it leaves. */
static void test_calc_prints_launch_config(void **state)
{
    (void)state;
    assert_int_equal(OCC(NULL, "calc", "--gpu", "H200", "--threads", "256", "--regs", "96"), 0);
    assert_non_null(strstr(last.out, "At launch the driver configures 32 KB"));
    assert_non_null(strstr(last.out, "224 KB of the SM's 256 KB for L1"));
    char *flat = flatten(last.out);
    assert_non_null(strstr(flat, "The table is computed there, as Nsight Compute's is."));
    free(flat);
    assert_non_null(strstr(last.out, "Block Limit Shared Mem               32  (occupancy API"));
    /* Nsight's value given: nothing predicted */
    assert_int_equal(OCC(NULL, "calc", "--gpu", "H200", "--threads", "256", "--regs", "96",
                         "--smem-config", "32K"),
                     0);
    assert_null(strstr(last.out, "At launch"));
}

/* ------------------------------------------------------------------------ */
/* occ calc's table is Nsight's                                             */
/* ------------------------------------------------------------------------ */

/* What a launch table gives that the export does not: the probes' carveout
   preference and opt-in (the cache preference is in the export). */
typedef struct probe_input {
    bool known;
    int carveout;
    bool no_optin;
} probe_input;

static void read_probe_inputs(const char *relative, int fields, probe_input *out, int count)
{
    FILE *in = test_data_open(relative, "r");
    static char line[4096];
    char *f[16];
    memset(out, 0, sizeof *out * (size_t)count);
    assert_non_null(fgets(line, sizeof line, in)); /* the header */
    while (fgets(line, sizeof line, in) != NULL) {
        assert_int_equal(split_csv(line, f, 16), fields);
        int id = atoi(f[0]);
        assert_true(id >= 0 && id < count);
        out[id].known = true;
        out[id].carveout = atoi(f[8]);
        out[id].no_optin = fields >= 13 && atoi(f[12]) == 0;
    }
    fclose(in);
}

/* ncu-sweep's sizes to the byte (its export prints 10-byte steps), from the
   program's own line for the kernel (attributes.txt). */
static void sweep_sizes(const char *kernel_name, int *static_smem, int *dyn_smem)
{
    FILE *in = test_data_open("ncu-sweep/attributes.txt", "r");
    static char line[512];
    size_t name_len = strcspn(kernel_name, "(");
    bool found = false;
    while (!found && fgets(line, sizeof line, in) != NULL) {
        char name[64];
        if (sscanf(line, "kernel=%63s threads=%*d regs=%*d static_smem=%d dyn_smem=%d", name,
                   static_smem, dyn_smem) == 3 &&
            strlen(name) == name_len && strncmp(name, kernel_name, name_len) == 0) {
            found = true;
        }
    }
    fclose(in);
    if (!found) {
        fail_msg("ncu-sweep/attributes.txt: no line for %s", kernel_name);
    }
}

/* The number in occ calc's row `row` ("  Block Limit SM   32 ..."). */
static int calc_row(const char *row)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\n  %s ", row);
    const char *p = strstr(last.out, pattern);
    if (p == NULL) {
        fail_msg("occ calc printed no row '%s':\n%s", row, last.out);
    }
    int value = -1;
    assert_int_equal(sscanf(p + strlen(pattern), " %d", &value), 1);
    return value;
}

/* Every launch of one raw export through `occ calc` as a user would type it,
   without --smem-config: each Block Limit row and the theoretical warps of
   the table must be Nsight's. Returns the launches. */
static int calc_table_against(const char *relative, bool gz, const probe_input *inputs,
                              int input_count, bool sized_by_program)
{
    static const struct {
        const char *row;
        const char *metric;
    } rows[] = {
        {"Block Limit Registers", "launch__occupancy_limit_registers"},
        {"Block Limit Shared Mem", "launch__occupancy_limit_shared_mem"},
        {"Block Limit Warps", "launch__occupancy_limit_warps"},
        {"Block Limit SM", "launch__occupancy_limit_blocks"},
        {"Block Limit Barriers", "launch__occupancy_limit_barriers"},
        {"Theoretical Active Warps per SM", "sm__maximum_warps_avg_per_active_cycle"},
    };
    static const char *const caches[] = {"none", "shared", "l1", "equal"};
    static table t;
    static char line[LINE_BYTES];
    char *f[MAX_FIELDS];
    const char *path = test_data_path(relative);
    gzFile in = gz ? gzopen(path, "rb") : NULL;
    FILE *plain = gz ? NULL : fopen(path, "r");
    if (in == NULL && plain == NULL) {
        fail_msg("test data %s: cannot open", path);
    }
#define NEXT(buf)                                                                                  \
    (gz ? gzgets(in, (buf), sizeof(buf)) != NULL : fgets((buf), sizeof(buf), plain) != NULL)
    assert_true(NEXT(t.header_line));
    t.columns = split_csv(t.header_line, t.header, MAX_FIELDS);
    assert_true(NEXT(line)); /* the units row */
    int launches = 0;
    int wrong = 0;
    while (NEXT(line)) {
        assert_int_equal(split_csv(line, f, MAX_FIELDS), t.columns);
        /* "NVIDIA H200", or "NVIDIA H200 (0: NVIDIA H200)" (ncu-sweep) */
        assert_true(starts_with(f[column(&t, "device__attribute_display_name")], "NVIDIA H200"));
        int id = (int)number(f[column(&t, "ID")]);
        occ_kernel k = kernel_from_export(&t, f);
        if (sized_by_program) {
            sweep_sizes(f[column(&t, "Kernel Name")], &k.static_smem_bytes, &k.dyn_smem_bytes);
        }
        char threads[48], regs[16], smem[16], dyn[16], barriers[16], carveout[16];
        snprintf(threads, sizeof threads, "%dx%dx%d",
                 (int)number(f[column(&t, "launch__block_dim_x")]),
                 (int)number(f[column(&t, "launch__block_dim_y")]),
                 (int)number(f[column(&t, "launch__block_dim_z")]));
        snprintf(regs, sizeof regs, "%d", k.regs_per_thread);
        snprintf(smem, sizeof smem, "%d", k.static_smem_bytes);
        snprintf(dyn, sizeof dyn, "%d", k.dyn_smem_bytes);
        snprintf(barriers, sizeof barriers, "%d", k.barriers);
        const probe_input *input = NULL;
        if (inputs != NULL) {
            assert_true(id >= 0 && id < input_count && inputs[id].known);
            input = &inputs[id];
        }
        snprintf(carveout, sizeof carveout, "%d", input != NULL ? input->carveout : -1);
        occ_cache_preference cache = cache_preference(f[column(&t, "launch__func_cache_config")]);
        const char *args[32] = {"calc",   "--gpu",      "H200",   "--threads", threads,
                                "--regs", regs,         "--smem", smem,        "--dyn-smem",
                                dyn,      "--barriers", barriers};
        int n = 13;
        if (input != NULL && input->carveout >= 0) {
            args[n++] = "--carveout";
            args[n++] = carveout;
        }
        if (cache != OCC_CACHE_PREFER_NONE) {
            args[n++] = "--cache-config";
            args[n++] = caches[cache];
        }
        if (input != NULL && input->no_optin) {
            args[n++] = "--optin";
            args[n++] = "none";
        }
        args[n] = NULL;
        assert_int_equal(run_cli(NULL, args), 0);
        for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
            int nsight = (int)lround(number(f[column(&t, rows[r].metric)]));
            int shown = calc_row(rows[r].row);
            if (shown != nsight) {
                wrong++;
                print_error("%s: launch %d (%.40s): %s: Nsight %d, occ calc %d\n", relative, id,
                            f[column(&t, "Kernel Name")], rows[r].row, nsight, shown);
            }
        }
        launches++;
    }
#undef NEXT
    if (gz) {
        gzclose(in);
    } else {
        fclose(plain);
    }
    assert_int_equal(wrong, 0);
    return launches;
}

/* The example first (torch-raw launch 0: 256 threads, 44 registers,
   no shared memory of its own; Nsight: Shared Mem 32 at 32 KB, Barriers 32),
   then every launch of every raw export. */
static void test_calc_table_is_nsights(void **state)
{
    (void)state;
    assert_int_equal(OCC(NULL, "calc", "--gpu", "H200", "--threads", "256", "--regs", "44"), 0);
    assert_int_equal(calc_row("Block Limit Shared Mem"), 32);
    assert_int_equal(calc_row("Block Limit Barriers"), 32);
    assert_non_null(strstr(last.out, "Block Limit Shared Mem               32  (occupancy API: "
                                     "228)\n"));
    assert_non_null(strstr(last.out, "Block Limit Barriers                 32  (occupancy API: "
                                     "64)\n"));
    /* rows where the two agree say nothing more */
    assert_non_null(strstr(last.out, "Block Limit Registers                 5  <- limiter\n"));
    /* with Nsight's configuration given, only the barrier row differs */
    assert_int_equal(OCC(NULL, "calc", "--gpu", "H200", "--threads", "256", "--regs", "44",
                         "--smem-config", "32768"),
                     0);
    assert_non_null(strstr(last.out, "Block Limit Shared Mem               32\n"));
    assert_int_equal(calc_row("Block Limit Barriers"), 32);

    static probe_input probe[PROBE_LAUNCHES];
    static probe_input targeted[TARGETED_LAUNCHES];
    read_probe_inputs("ncu-h200/smemcfg-launches.csv", 10, probe, PROBE_LAUNCHES);
    read_probe_inputs("ncu-h200/smemcfg2-launches.csv", 13, targeted, TARGETED_LAUNCHES);
    int launches = calc_table_against("ncu-h200/torch-raw.csv.gz", true, NULL, 0, false);
    launches += calc_table_against("ncu-h200/triton-raw.csv.gz", true, NULL, 0, false);
    launches +=
        calc_table_against("ncu-h200/smemcfg-raw.csv.gz", true, probe, PROBE_LAUNCHES, false);
    launches += calc_table_against("ncu-h200/smemcfg2-raw.csv.gz", true, targeted,
                                   TARGETED_LAUNCHES, false);
    launches += calc_table_against("ncu-sweep/ncu_raw.csv", false, NULL, 0, true);
    assert_int_equal(launches, 39 + 10 + PROBE_LAUNCHES + TARGETED_LAUNCHES + 7);
}

/* --json carries the table too (result.nsight), beside the API's result. */
static void test_calc_json_nsight(void **state)
{
    (void)state;
    assert_int_equal(
        OCC(NULL, "calc", "--gpu", "H200", "--threads", "256", "--regs", "44", "--json"), 0);
    json_error_t jerr;
    json_t *doc = json_loads(last.out, 0, &jerr);
    assert_non_null(doc);
    json_t *result = json_object_get(doc, "result");
    json_t *nsight = json_object_get(result, "nsight");
    assert_true(json_is_object(nsight));
    assert_int_equal(json_integer_value(json_object_get(nsight, "smem_config_bytes")), 32768);
    assert_string_equal(json_string_value(json_object_get(nsight, "smem_config_source")),
                        "predicted");
    json_t *limits = json_object_get(nsight, "limits");
    assert_int_equal(json_integer_value(json_object_get(limits, "shared_mem")), 32);
    assert_int_equal(json_integer_value(json_object_get(limits, "barriers")), 32);
    assert_int_equal(json_integer_value(json_object_get(limits, "registers")), 5);
    assert_int_equal(json_integer_value(json_object_get(nsight, "warps_per_sm")), 40);
    /* the API's own figures stay in result */
    json_t *api = json_object_get(result, "limits");
    assert_int_equal(json_integer_value(json_object_get(api, "shared_mem")), 228);
    assert_int_equal(json_integer_value(json_object_get(api, "barriers")), 64);
    json_decref(doc);
}

/* The twice rule's words say all of it: the larger of the resident blocks'
   bytes and twice those capped at half the SM (hand-worked on the H200:
   256 threads, 8 resident blocks by warps). */
static void test_calc_twice_words(void **state)
{
    (void)state;
    /* 4 KB + 1 KB reserve: twice the 40 KB is 80 KB, under the 114 KB cap: 100 KB */
    assert_int_equal(
        OCC(NULL, "calc", "--gpu", "H200", "--threads", "256", "--regs", "32", "--dyn-smem", "4K"),
        0);
    char *flat = flatten(last.out);
    assert_non_null(strstr(flat, "At launch the driver configures 100 KB (the larger of the 40 "
                                 "KB its 8 resident blocks take and the 80 KB of 16 blocks"));
    assert_non_null(strstr(flat, "capped at half of 228 KB; rounded up to a step"));
    free(flat);
    /* 20 KB + 1 KB: the 168 KB the 8 resident blocks take is above the cap
       that holds twice those (336 KB) to 114 KB: 196 KB */
    assert_int_equal(
        OCC(NULL, "calc", "--gpu", "H200", "--threads", "256", "--regs", "32", "--dyn-smem", "20K"),
        0);
    flat = flatten(last.out);
    assert_non_null(strstr(flat, "At launch the driver configures 196 KB (the larger of the "
                                 "168 KB its 8 resident blocks take and the 336 KB of 16 blocks"));
    free(flat);
}

/* --cache-config: a value it does not know is refused; the occupancy API
   reads L1 as a 0% carveout, so one block of 5 KB fits its configuration
   (smemcfg2 launch 60's kernel: the driver then doubles it to 16 KB). */
static void test_calc_cache_config(void **state)
{
    (void)state;
    assert_int_equal(OCC(NULL, "calc", "--gpu", "H200", "--threads", "256", "--regs", "32",
                         "--cache-config", "big"),
                     2);
    assert_non_null(strstr(last.err, "'big' is not one of none, shared, l1, equal"));
    assert_int_equal(OCC(NULL, "calc", "--batch", "-", "--cache-config", "l1"), 2);
}

static void test_calc_json_launch_config(void **state)
{
    (void)state;
    /* 1024 threads, 1 KB each, two resident: Nsight measured 8 KB (launch 801) */
    assert_int_equal(
        OCC(NULL, "calc", "--gpu", "H200", "--threads", "1024", "--regs", "32", "--json"), 0);
    json_error_t jerr;
    json_t *doc = json_loads(last.out, 0, &jerr);
    assert_non_null(doc);
    json_t *cfg = json_object_get(json_object_get(doc, "result"), "launch_smem_config");
    assert_true(json_is_object(cfg));
    assert_int_equal(json_integer_value(json_object_get(cfg, "config_bytes")), 8192);
    assert_int_equal(json_integer_value(json_object_get(cfg, "l1_bytes")), 248 * 1024);
    assert_int_equal(json_integer_value(json_object_get(cfg, "limit_shared_mem")), 8);
    assert_string_equal(json_string_value(json_object_get(cfg, "rule")), "resident");
    assert_true(json_is_true(json_object_get(cfg, "measured")));
    json_decref(doc);
    assert_int_equal(
        OCC(NULL, "calc", "--gpu", "H200", "--threads", "1024", "--smem-config", "8K", "--json"),
        0);
    doc = json_loads(last.out, 0, &jerr);
    assert_non_null(doc);
    cfg = json_object_get(json_object_get(doc, "result"), "launch_smem_config");
    assert_true(json_is_null(cfg));
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_probe_launches),
        cmocka_unit_test(test_targeted_launches),
        cmocka_unit_test(test_sweep_launches),
        cmocka_unit_test(test_pytorch_triton_launches),
        cmocka_unit_test(test_l1_left),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_measured_flag),
        cmocka_unit_test(test_every_gpu_keeps_residency),
        cmocka_unit_test(test_rule_names),
        cmocka_unit_test(test_calc_prints_launch_config),
        cmocka_unit_test(test_calc_json_launch_config),
        cmocka_unit_test(test_calc_table_is_nsights),
        cmocka_unit_test(test_calc_json_nsight),
        cmocka_unit_test(test_calc_twice_words),
        cmocka_unit_test(test_calc_cache_config),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
