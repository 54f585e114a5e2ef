/*
 * test_sweep.c - occ_sweep against occ_calc point by point, and against
 * Nsight Compute's own curves for seven kernels profiled on an H200
 * (tests/data/ncu-sweep/).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "occ.h"
#include "test_data.h"

#define MAX_POINTS 1024

/* ---- a small reader for ncu's CSV export (quoted fields, commas inside) */

#define MAX_FIELDS 400
#define MAX_LINE (1 << 20)

typedef struct csv_row {
    char *fields[MAX_FIELDS];
    int count;
} csv_row;

/* Splits one line in place. ncu quotes every field and never embeds quotes. */
static void split_csv(char *line, csv_row *row)
{
    row->count = 0;
    char *p = line;
    while (*p != '\0' && *p != '\n' && *p != '\r' && row->count < MAX_FIELDS) {
        assert_true(*p == '"');
        char *start = ++p;
        while (*p != '"' && *p != '\0') {
            p++;
        }
        assert_true(*p == '"');
        *p++ = '\0';
        row->fields[row->count++] = start;
        if (*p == ',') {
            p++;
        }
    }
}

static int column(const csv_row *header, const char *name)
{
    for (int i = 0; i < header->count; i++) {
        if (strcmp(header->fields[i], name) == 0) {
            return i;
        }
    }
    fail_msg("column %s not in ncu_raw.csv", name);
    return -1;
}

/* "1,440 (0: 64; 1: 64; ...)" -> pairs; x may carry thousands separators. */
static int parse_instances(const char *cell, int *xs, int *vs, int max)
{
    const char *p = strchr(cell, '(');
    assert_non_null(p);
    p++;
    int n = 0;
    while (*p != ')' && *p != '\0') {
        long x = 0, v = 0;
        while (*p == ' ' || *p == ';') {
            p++;
        }
        while ((*p >= '0' && *p <= '9') || *p == ',') {
            if (*p != ',') {
                x = x * 10 + (*p - '0');
            }
            p++;
        }
        assert_true(*p == ':');
        p++;
        while (*p == ' ') {
            p++;
        }
        while (*p >= '0' && *p <= '9') {
            v = v * 10 + (*p - '0');
            p++;
        }
        assert_true(n < max);
        xs[n] = (int)x;
        vs[n] = (int)v;
        n++;
    }
    return n;
}

/* "167.94 (0: 167.94)" in decimal kilobytes -> the carveout step it rounds from. */
static int config_bytes(const occ_device *d, const char *cell)
{
    double kb = strtod(cell, NULL);
    double bytes = kb * 1000.0;
    for (int i = 0; i < d->carveout_step_count; i++) {
        double diff = bytes - d->carveout_steps_bytes[i];
        if (diff < 10.0 && diff > -10.0) {
            return d->carveout_steps_bytes[i];
        }
    }
    fail_msg("shared memory configuration %s KB is no carveout step", cell);
    return 0;
}

typedef struct kernel_attrs {
    char name[64];
    int threads, regs, static_smem, dyn_smem, blocks;
} kernel_attrs;

static int read_attributes(kernel_attrs *out, int max)
{
    FILE *f = test_data_open("ncu-sweep/attributes.txt", "r");
    int n = 0;
    while (n < max && fscanf(f,
                             " kernel=%63s threads=%d regs=%d static_smem=%d dyn_smem=%d "
                             "blocks_per_sm=%d",
                             out[n].name, &out[n].threads, &out[n].regs, &out[n].static_smem,
                             &out[n].dyn_smem, &out[n].blocks) == 6) {
        n++;
    }
    fclose(f);
    return n;
}

static const struct {
    const char *metric;
    occ_sweep_axis axis;
} curves[] = {
    {"launch__occupancy_per_register_count", OCC_SWEEP_REGS},
    {"launch__occupancy_per_shared_mem_size", OCC_SWEEP_SMEM},
    {"launch__occupancy_per_block_size", OCC_SWEEP_THREADS},
    {"launch__occupancy_per_barrier_count", OCC_SWEEP_BARRIERS},
};

static void equals_nsight_on_h200(void **state)
{
    (void)state;
    kernel_attrs attrs[16];
    int kernels = read_attributes(attrs, 16);
    assert_int_equal(kernels, 7);

    occ_device h200;
    assert_int_equal(occ_gpu_find("H200", &h200, NULL), OCC_OK);
    FILE *f = test_data_open("ncu-sweep/ncu_raw.csv", "r");
    char *line = malloc(MAX_LINE), *header_line = malloc(MAX_LINE);
    assert_non_null(line);
    assert_non_null(header_line);
    assert_non_null(fgets(header_line, MAX_LINE, f));
    csv_row header, row;
    split_csv(header_line, &header);
    assert_non_null(fgets(line, MAX_LINE, f)); /* units */
    int name_col = column(&header, "Kernel Name");
    int config_col = column(&header, "launch__shared_mem_config_size");
    int barrier_col = column(&header, "launch__barrier_count");

    static int xs[MAX_POINTS], vs[MAX_POINTS];
    static occ_sweep_point points[MAX_POINTS];
    int compared = 0, profiled = 0, waves_checked = 0;
    while (fgets(line, MAX_LINE, f) != NULL) {
        split_csv(line, &row);
        const kernel_attrs *a = NULL;
        for (int i = 0; i < kernels; i++) {
            size_t len = strlen(attrs[i].name);
            if (strncmp(row.fields[name_col], attrs[i].name, len) == 0 &&
                row.fields[name_col][len] == '(') {
                a = &attrs[i];
            }
        }
        assert_non_null(a);
        profiled++;
        occ_kernel k;
        occ_kernel_init(&k);
        k.block_x = a->threads;
        k.regs_per_thread = a->regs;
        k.static_smem_bytes = a->static_smem;
        k.dyn_smem_bytes = a->dyn_smem;
        k.barriers = atoi(row.fields[barrier_col]);
        /* Only k_optin set cudaFuncAttributeMaxDynamicSharedMemorySize. */
        k.max_dyn_smem_bytes = strcmp(a->name, "k_optin") == 0 ? 100 * 1024 : OCC_DYN_SMEM_NO_OPTIN;
        k.smem_config_bytes = config_bytes(&h200, row.fields[config_col]);

        /* The driver's own answer at the launch is occ's too. */
        occ_result r;
        assert_int_equal(occ_calc(&h200, &k, &r, NULL), OCC_OK);
        assert_int_equal(r.blocks_per_sm, a->blocks);

        /* Nsight's waves per SM (two decimals) for this grid. */
        occ_waves_result w;
        /* "1,024 (0: 1,024)": digits up to the first space */
        const char *g = row.fields[column(&header, "launch__grid_size")];
        long long grid = 0;
        for (; *g != '\0' && *g != ' '; g++) {
            if (*g >= '0' && *g <= '9') {
                grid = grid * 10 + (*g - '0');
            }
        }
        assert_int_equal(occ_launch_waves(r.blocks_per_sm, h200.sm_count, grid, &w, NULL), OCC_OK);
        double ncu_waves =
            strtod(row.fields[column(&header, "launch__waves_per_multiprocessor")], NULL);
        assert_true(fabs(w.waves_per_sm - ncu_waves) <= 0.005 + 1e-9);
        waves_checked++;

        for (size_t c = 0; c < sizeof curves / sizeof curves[0]; c++) {
            int n =
                parse_instances(row.fields[column(&header, curves[c].metric)], xs, vs, MAX_POINTS);
            assert_true(n > 40);
            int count = 0;
            assert_int_equal(occ_sweep(&h200, &k, curves[c].axis, points, MAX_POINTS, &count, NULL),
                             OCC_OK);
            for (int i = 0; i < n; i++) {
                int j = 0;
                while (j < count && points[j].value != xs[i]) {
                    j++;
                }
                if (j == count) {
                    fail_msg("%s %s: x=%d is not on occ's grid", a->name, curves[c].metric, xs[i]);
                }
                if (points[j].warps_per_sm != vs[i]) {
                    fail_msg("%s %s at x=%d: ncu %d warps, occ %d", a->name, curves[c].metric,
                             xs[i], vs[i], points[j].warps_per_sm);
                }
                compared++;
            }
        }
    }
    fclose(f);
    free(line);
    free(header_line);
    assert_int_equal(profiled, 7);
    assert_int_equal(waves_checked, 7);
    printf("# %d points of 28 Nsight curves equal\n", compared);
    assert_true(compared > 4000);
}

/* At the kernel's own x, every sweep gives occ_calc's answer, on every GPU
   of the database, for kernels spread over the ranges. */
static void current_point_is_occ_calc(void **state)
{
    (void)state;
    static occ_sweep_point points[MAX_POINTS];
    unsigned seed = 12345;
    int checked = 0;
    for (int g = 0; g < occ_gpu_count(); g++) {
        occ_device d;
        assert_int_equal(occ_gpu_at(g, &d, NULL, NULL, NULL), OCC_OK);
        for (int trial = 0; trial < 40; trial++) {
            seed = seed * 1103515245u + 12345u;
            occ_kernel k;
            occ_kernel_init(&k);
            k.block_x = 16 * (int)(1 + (seed >> 8) % (unsigned)(d.max_threads_per_block / 16));
            k.regs_per_thread = (int)((seed >> 4) % 256u);
            k.barriers = (int)((seed >> 12) % 17u);
            k.static_smem_bytes = 512 * (int)((seed >> 16) % 40u);
            if (k.static_smem_bytes > d.smem_per_block_bytes) {
                k.static_smem_bytes = d.smem_per_block_bytes;
            }
            if (occ_kernel_validate(&d, &k, NULL) != OCC_OK) {
                continue;
            }
            occ_result r;
            assert_int_equal(occ_calc(&d, &k, &r, NULL), OCC_OK);
            for (int axis = 0; axis < 4; axis++) {
                int count = 0;
                assert_int_equal(
                    occ_sweep(&d, &k, (occ_sweep_axis)axis, points, MAX_POINTS, &count, NULL),
                    OCC_OK);
                assert_int_equal(count, occ_sweep_point_count(&d, (occ_sweep_axis)axis));
                int x = -1;
                assert_int_equal(occ_sweep_current_value(&d, &k, (occ_sweep_axis)axis, &x, NULL),
                                 OCC_OK);
                for (int i = 0; i < count; i++) {
                    if (points[i].value == x) {
                        assert_int_equal(points[i].warps_per_sm, r.warps_per_sm);
                        checked++;
                    }
                    /* More of a resource per block never buys residency. */
                    if (i > 0 && axis != OCC_SWEEP_THREADS) {
                        assert_true(points[i].blocks_per_sm <= points[i - 1].blocks_per_sm);
                    }
                }
            }
        }
    }
    assert_true(checked > 1000);
}

static void small_buffer_and_bad_axis_fail_clearly(void **state)
{
    (void)state;
    occ_device d;
    assert_int_equal(occ_gpu_find("H200", &d, NULL), OCC_OK);
    occ_kernel k;
    occ_kernel_init(&k);
    k.block_x = 256;
    occ_sweep_point points[8];
    int count = -1;
    occ_error e;
    assert_int_equal(occ_sweep(&d, &k, OCC_SWEEP_REGS, points, 8, &count, &e),
                     OCC_ERR_INVALID_ARGUMENT);
    assert_string_equal(e.field, "points");
    assert_non_null(strstr(e.message, "257"));
    assert_int_equal(count, 0);
    assert_int_equal(occ_sweep(&d, &k, (occ_sweep_axis)9, points, 8, &count, &e),
                     OCC_ERR_INVALID_ARGUMENT);
    assert_string_equal(e.field, "axis");
    assert_int_equal(occ_sweep_point_count(&d, OCC_SWEEP_SMEM), 456);
    assert_int_equal(occ_sweep_point_count(&d, OCC_SWEEP_THREADS), 65);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(equals_nsight_on_h200),
        cmocka_unit_test(current_point_is_occ_calc),
        cmocka_unit_test(small_buffer_and_bad_axis_fail_clearly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
