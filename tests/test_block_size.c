/*
 * test_block_size.c - the launch helpers beyond what the oracle tests
 * cover: the caller's block-size limit, launch bounds, a per-block shared
 * memory function with its context, and bad arguments.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "occ.h"

/* The documented algorithm, written the slow way: every size from 1. */
static int brute_force_block_size(const occ_device *d, const occ_kernel *kernel, int limit)
{
    int best = 0;
    int best_threads = 0;
    for (int size = 1; size <= limit; size++) {
        bool candidate = size % d->warp_size_threads == 0 || size == limit;
        if (!candidate) {
            continue;
        }
        occ_kernel k = *kernel;
        k.block_x = size;
        occ_result r;
        assert_int_equal(occ_calc(d, &k, &r, NULL), OCC_OK);
        /* Larger sizes win ties: scanning upward, take >= */
        if (size * r.blocks_per_sm >= best_threads && r.blocks_per_sm > 0) {
            best = size;
            best_threads = size * r.blocks_per_sm;
        }
    }
    return best;
}

static void test_block_size_limit(void **state)
{
    (void)state;
    occ_device d;
    assert_int_equal(occ_gpu_find("H200", &d, NULL), OCC_OK);
    occ_kernel k;
    occ_kernel_init(&k);
    k.regs_per_thread = 72;
    static const int limits[] = {0, 1, 31, 33, 100, 200, 257, 640, 1000, 1024, 5000};
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        occ_block_size_result got;
        assert_int_equal(occ_max_potential_block_size(&d, &k, limits[i], NULL, NULL, &got, NULL),
                         OCC_OK);
        int limit = limits[i] == 0 || limits[i] > 1024 ? 1024 : limits[i];
        assert_true(got.block_size <= limit);
        assert_int_equal(got.block_size, brute_force_block_size(&d, &k, limit));
        assert_int_equal(got.min_grid_size, got.blocks_per_sm * 132);
    }
}

static void test_launch_bounds_cap_block_size(void **state)
{
    (void)state;
    occ_device d;
    assert_int_equal(occ_gpu_find("sm_80", &d, NULL), OCC_OK);
    occ_kernel k;
    occ_kernel_init(&k);
    k.max_threads_per_block = 96;
    occ_block_size_result got;
    assert_int_equal(occ_max_potential_block_size(&d, &k, 0, NULL, NULL, &got, NULL), OCC_OK);
    /* 96 threads: 21 blocks of 3 warps, 2,016 threads; 64 threads: 32
       blocks, 2,048 threads, the whole SM, so the smaller size wins. */
    assert_int_equal(got.block_size, 64);
    assert_int_equal(got.blocks_per_sm, 32);
    assert_int_equal(got.min_grid_size, 0); /* a generic entry has no SM count */
}

typedef struct smem_plan {
    size_t bytes_per_thread;
    int calls;
} smem_plan;

static size_t smem_for_block(int block_size, void *context)
{
    smem_plan *plan = context;
    plan->calls++;
    return (size_t)block_size * plan->bytes_per_thread;
}

static void test_smem_function_and_context(void **state)
{
    (void)state;
    occ_device d;
    assert_int_equal(occ_gpu_find("H200", &d, NULL), OCC_OK);
    occ_kernel k;
    occ_kernel_init(&k);
    smem_plan plan = {200, 0};
    occ_block_size_result got;
    assert_int_equal(occ_max_potential_block_size(&d, &k, 0, smem_for_block, &plan, &got, NULL),
                     OCC_OK);
    assert_true(plan.calls > 1);
    /* At 200 B per thread the SM's 228 KB hold about 1,100 threads: check
       the pick against the same computation done by hand. */
    occ_kernel chosen = k;
    chosen.block_x = got.block_size;
    chosen.dyn_smem_bytes = got.block_size * 200;
    occ_result r;
    assert_int_equal(occ_calc(&d, &chosen, &r, NULL), OCC_OK);
    assert_int_equal(r.blocks_per_sm, got.blocks_per_sm);
    for (int size = 32; size <= 1024; size += 32) {
        occ_kernel other = k;
        other.block_x = size;
        other.dyn_smem_bytes = size * 200;
        assert_int_equal(occ_calc(&d, &other, &r, NULL), OCC_OK);
        assert_true(size * r.blocks_per_sm <= got.block_size * got.blocks_per_sm);
    }
}

static void test_bad_arguments(void **state)
{
    (void)state;
    occ_device d;
    assert_int_equal(occ_gpu_find("H200", &d, NULL), OCC_OK);
    occ_kernel k;
    occ_kernel_init(&k);
    occ_block_size_result got;
    occ_error err;
    assert_int_equal(occ_max_potential_block_size(&d, &k, -1, NULL, NULL, &got, &err),
                     OCC_ERR_INVALID_ARGUMENT);
    assert_string_equal(err.field, "block_size_limit");
    assert_int_equal(occ_max_potential_block_size(NULL, &k, 0, NULL, NULL, &got, &err),
                     OCC_ERR_NULL_POINTER);
    occ_dyn_smem_result dyn;
    assert_int_equal(occ_dyn_smem_available(&d, &k, 0, 256, &dyn, &err), OCC_ERR_INVALID_ARGUMENT);
    assert_string_equal(err.field, "num_blocks");
    k.regs_per_thread = 255;
    assert_int_equal(occ_dyn_smem_available(&d, &k, 2, 256, &dyn, &err), OCC_ERR_NOT_FOUND);
    assert_non_null(strstr(err.message, "only 1 block of 256 threads fits per SM"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_block_size_limit),
        cmocka_unit_test(test_launch_bounds_cap_block_size),
        cmocka_unit_test(test_smem_function_and_context),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
