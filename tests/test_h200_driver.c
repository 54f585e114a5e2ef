/*
 * test_h200_driver.c - libocc against what the CUDA driver answered on a
 * real H200 (driver 580, CUDA 13.0): every one of the 161,600 rows of
 * tests/data/h200-driver/h200-driver-occupancy.csv.gz, the device properties
 * and the per-kernel answers of cudaOccupancyMaxPotentialBlockSize and
 * cudaOccupancyAvailableDynamicSMemPerBlock in tests/data/h200-driver/h200-probe.txt.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <zlib.h>

#include "occ.h"
#include "test_data.h"

#define H200_ROWS 161600 /* tests/data/h200-driver/README.md */

static occ_device h200(void)
{
    occ_device d;
    occ_error err;
    assert_int_equal(occ_gpu_find("H200", &d, &err), OCC_OK);
    return d;
}

/* The value after `key` in the probe's device lines ("smemPerSM 233472"). */
static long long probe_value(const char *text, const char *key)
{
    const char *p = strstr(text, key);
    if (p == NULL) {
        fail_msg("h200-probe.txt has no '%s'", key);
    }
    long long v = 0;
    assert_int_equal(sscanf(p + strlen(key), " %lld", &v), 1);
    return v;
}

/* The database's H200 is what cudaGetDeviceProperties reported (the device
   lines at the top of h200-probe.txt). */
static void test_h200_entry_matches_probe(void **state)
{
    (void)state;
    FILE *in = test_data_open("h200-driver/h200-probe.txt", "r");
    char text[2048];
    size_t got = fread(text, 1, sizeof text - 1, in);
    text[got] = '\0';
    fclose(in);
    occ_device d = h200();
    int major = 0, minor = 0;
    const char *cc = strstr(text, " cc ");
    assert_non_null(cc);
    assert_int_equal(sscanf(cc, " cc %d.%d", &major, &minor), 2);
    assert_int_equal(d.cc_major, major);
    assert_int_equal(d.cc_minor, minor);
    assert_int_equal(d.sm_count, probe_value(text, "SMs"));
    assert_int_equal(d.max_threads_per_sm, probe_value(text, "maxThreadsPerSM"));
    assert_int_equal(d.max_blocks_per_sm, probe_value(text, "maxBlocksPerSM"));
    assert_int_equal(d.regs_per_sm, probe_value(text, "regsPerSM"));
    assert_int_equal(d.regs_per_block, probe_value(text, "regsPerBlock"));
    assert_int_equal(d.smem_per_sm_bytes, probe_value(text, "smemPerSM"));
    assert_int_equal(d.smem_per_block_bytes, probe_value(text, "smemPerBlock"));
    assert_int_equal(d.smem_per_block_optin_bytes, probe_value(text, "smemPerBlockOptin"));
    assert_int_equal(d.smem_reserved_per_block_bytes, probe_value(text, "reservedSmemPerBlock"));
    assert_int_equal(d.warp_size_threads, probe_value(text, "warpSize"));
    assert_int_equal(d.l2_bytes, probe_value(text, "L2"));
    assert_int_equal(d.sm_clock_mhz * 1000LL, probe_value(text, "clockRate kHz"));
}

static void test_every_driver_row(void **state)
{
    (void)state;
    const char *path = test_data_path("h200-driver/h200-driver-occupancy.csv.gz");
    gzFile in = gzopen(path, "rb");
    if (in == NULL) {
        fail_msg("test data %s: cannot open", path);
    }
    occ_device d = h200();
    char line[512];
    assert_non_null(gzgets(in, line, sizeof line));
    assert_non_null(strstr(line, "occh_limiter_blocks"));
    long rows = 0;
    long mismatches = 0;
    while (gzgets(in, line, sizeof line) != NULL) {
        char kernel[64];
        int regs, static_smem, local, max_threads, block, dyn, carveout, driver_blocks;
        int occh_blocks, lim_regs, lim_smem, lim_warps, lim_blocks;
        int n = sscanf(line, "%63[^,],%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d", kernel, &regs,
                       &static_smem, &local, &max_threads, &block, &dyn, &carveout, &driver_blocks,
                       &occh_blocks, &lim_regs, &lim_smem, &lim_warps, &lim_blocks);
        assert_int_equal(n, 14);
        /* The probe's kernel: opted in to the largest dynamic size, one
           barrier (the header's converting constructor), its bounds. */
        occ_kernel k;
        occ_kernel_init(&k);
        k.block_x = block;
        k.regs_per_thread = regs;
        k.static_smem_bytes = static_smem;
        k.dyn_smem_bytes = dyn;
        k.carveout_percent = carveout;
        k.max_threads_per_block = max_threads;
        occ_result r;
        occ_error err;
        assert_int_equal(occ_calc(&d, &k, &r, &err), OCC_OK);
        rows++;
        if (r.blocks_per_sm != driver_blocks || r.limit_registers != lim_regs ||
            r.limit_shared_mem != lim_smem || r.limit_warps != lim_warps ||
            r.limit_blocks != lim_blocks) {
            if (mismatches++ < 10) {
                print_error("row %ld (%s block %d dyn %d carveout %d): driver %d occ %d; "
                            "limits regs %d/%d smem %d/%d warps %d/%d blocks %d/%d\n",
                            rows, kernel, block, dyn, carveout, driver_blocks, r.blocks_per_sm,
                            lim_regs, r.limit_registers, lim_smem, r.limit_shared_mem, lim_warps,
                            r.limit_warps, lim_blocks, r.limit_blocks);
            }
        }
    }
    gzclose(in);
    print_message("%ld H200 driver rows, %ld mismatches\n", rows, mismatches);
    assert_int_equal(rows, H200_ROWS);
    assert_int_equal(mismatches, 0);
}

/* h200-probe.txt: per kernel, its attributes, then
   "maxPotential driver (GRID,BLOCK) ...; availDynSmem(2 blocks,256) driver N ..." */
static void test_probe_launch_helpers(void **state)
{
    (void)state;
    FILE *in = test_data_open("h200-driver/h200-probe.txt", "r");
    occ_device d = h200();
    char line[512];
    occ_kernel k;
    int kernels = 0;
    bool have_kernel = false;
    while (fgets(line, sizeof line, in) != NULL) {
        char name[64];
        int regs, static_smem, local, max_threads, max_dyn;
        if (sscanf(line, "%63s regs %d static %d local %d maxThreads %d maxDyn %d", name, &regs,
                   &static_smem, &local, &max_threads, &max_dyn) == 6) {
            occ_kernel_init(&k);
            k.regs_per_thread = regs;
            k.static_smem_bytes = static_smem;
            k.max_threads_per_block = max_threads;
            k.max_dyn_smem_bytes = max_dyn;
            have_kernel = true;
            continue;
        }
        int grid, block;
        unsigned long long avail;
        char *p = strstr(line, "maxPotential driver (");
        if (p == NULL || !have_kernel) {
            continue;
        }
        assert_int_equal(sscanf(p, "maxPotential driver (%d,%d)", &grid, &block), 2);
        p = strstr(line, "availDynSmem(2 blocks,256) driver ");
        assert_non_null(p);
        assert_int_equal(sscanf(p, "availDynSmem(2 blocks,256) driver %llu", &avail), 1);

        occ_block_size_result bs;
        assert_int_equal(occ_max_potential_block_size(&d, &k, 0, NULL, NULL, &bs, NULL), OCC_OK);
        assert_int_equal(bs.block_size, block);
        assert_int_equal(bs.min_grid_size, grid);

        occ_dyn_smem_result dyn;
        occ_status status = occ_dyn_smem_available(&d, &k, 2, 256, &dyn, NULL);
        if (avail == 18446744073709551615ull) {
            /* The driver failed: two 256-thread blocks never fit this kernel. */
            assert_int_equal(status, OCC_ERR_NOT_FOUND);
        } else {
            assert_int_equal(status, OCC_OK);
            assert_int_equal(dyn.driver_bytes, (int)avail);
        }
        kernels++;
        have_kernel = false;
    }
    fclose(in);
    print_message("%d probe kernels checked\n", kernels);
    assert_int_equal(kernels, 30);
}

/* docs/hardware.md: with the driver's 116736 bytes, only one 256-thread block
   fits (the reserved KB is not subtracted); occ says what truly fits. */
static void test_available_dyn_smem_true_fit(void **state)
{
    (void)state;
    occ_device d = h200();
    occ_kernel k;
    occ_kernel_init(&k);
    k.regs_per_thread = 32;
    occ_dyn_smem_result dyn;
    assert_int_equal(occ_dyn_smem_available(&d, &k, 2, 256, &dyn, NULL), OCC_OK);
    assert_int_equal(dyn.driver_bytes, 116736);
    occ_result r;
    k.block_x = 256;
    k.dyn_smem_bytes = dyn.driver_bytes;
    assert_int_equal(occ_calc(&d, &k, &r, NULL), OCC_OK);
    assert_int_equal(r.blocks_per_sm, 1);
    /* 233472 / 2 = 116736 per block, of which 1024 are reserved. */
    assert_int_equal(dyn.fitting_bytes, 116736 - 1024);
    k.dyn_smem_bytes = dyn.fitting_bytes;
    assert_int_equal(occ_calc(&d, &k, &r, NULL), OCC_OK);
    assert_int_equal(r.blocks_per_sm, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_h200_entry_matches_probe),
        cmocka_unit_test(test_every_driver_row),
        cmocka_unit_test(test_probe_launch_helpers),
        cmocka_unit_test(test_available_dyn_smem_true_fit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
