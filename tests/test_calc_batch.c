/*
 * test_calc_batch.c - occ_calc_batch equals occ_calc kernel by kernel (the
 * oracle: one call per kernel), on random kernels over every GPU of the
 * database, one GPU a batch and all of them in one batch, bad ones among
 * them; a bad kernel keeps its place, is zeroed, and the first is named by
 * its index.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "occ.h"

#define KERNELS_PER_GPU 500

/* xorshift64: the same kernels on every run. */
static uint64_t next_random(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

static int random_in(uint64_t *state, int lo, int hi)
{
    return lo + (int)(next_random(state) % (uint64_t)(hi - lo + 1));
}

/* A kernel that is valid most of the time; about one in sixteen has a field
   past its limit (threads, registers, static shared memory). */
static occ_kernel random_kernel(uint64_t *state, const occ_device *d)
{
    occ_kernel k;
    occ_kernel_init(&k);
    k.block_x = random_in(state, 1, d->max_threads_per_block);
    k.regs_per_thread = random_in(state, 0, d->max_regs_per_thread);
    k.static_smem_bytes = random_in(state, 0, d->smem_per_block_bytes);
    k.dyn_smem_bytes = random_in(state, 0, d->smem_per_block_optin_bytes / 2);
    k.barriers = random_in(state, 0, 16);
    k.carveout_percent = random_in(state, -1, 100);
    switch (random_in(state, 0, 47)) {
    case 0: k.block_x = d->max_threads_per_block + 1; break;
    case 1: k.regs_per_thread = 256; break;
    case 2: k.static_smem_bytes = d->smem_per_block_bytes + 1; break;
    default: break;
    }
    return k;
}

/* Field by field: the structs' padding bytes are not part of the answer. */
static void assert_results_equal(const occ_result *a, const occ_result *b)
{
    assert_int_equal(a->threads_per_block, b->threads_per_block);
    assert_int_equal(a->warps_per_block, b->warps_per_block);
    assert_int_equal(a->blocks_per_sm, b->blocks_per_sm);
    assert_int_equal(a->warps_per_sm, b->warps_per_sm);
    assert_int_equal(a->threads_per_sm, b->threads_per_sm);
    assert_int_equal(a->max_warps_per_sm, b->max_warps_per_sm);
    assert_true(a->occupancy == b->occupancy);
    assert_int_equal(a->limit_warps, b->limit_warps);
    assert_int_equal(a->limit_blocks, b->limit_blocks);
    assert_int_equal(a->limit_registers, b->limit_registers);
    assert_int_equal(a->limit_shared_mem, b->limit_shared_mem);
    assert_int_equal(a->limit_barriers, b->limit_barriers);
    assert_int_equal(a->limiters, b->limiters);
    assert_int_equal(a->zero_reason, b->zero_reason);
    assert_int_equal(a->regs_per_warp_allocated, b->regs_per_warp_allocated);
    assert_int_equal(a->regs_per_block_allocated, b->regs_per_block_allocated);
    assert_int_equal(a->warps_per_sm_by_regs, b->warps_per_sm_by_regs);
    assert_int_equal(a->smem_per_block_allocated_bytes, b->smem_per_block_allocated_bytes);
    assert_int_equal(a->smem_per_block_limit_bytes, b->smem_per_block_limit_bytes);
    assert_int_equal(a->smem_per_sm_bytes, b->smem_per_sm_bytes);
    assert_int_equal(a->smem_preferred_bytes, b->smem_preferred_bytes);
    assert_int_equal(a->partitioned_gc_on, b->partitioned_gc_on);
    assert_int_equal(a->needs_optin, b->needs_optin);
    assert_int_equal(a->exceeds_launch_bounds, b->exceeds_launch_bounds);
}

static void equals_one_call_per_kernel(void **state)
{
    (void)state;
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    static occ_kernel kernels[KERNELS_PER_GPU];
    static occ_result results[KERNELS_PER_GPU];
    static occ_status statuses[KERNELS_PER_GPU];
    int bad_total = 0;
    for (int g = 0; g < occ_gpu_count(); g++) {
        occ_device d;
        assert_int_equal(occ_gpu_at(g, &d, NULL, NULL, NULL), OCC_OK);
        for (int i = 0; i < KERNELS_PER_GPU; i++) {
            kernels[i] = random_kernel(&seed, &d);
        }
        occ_error err = {0};
        occ_status batch =
            occ_calc_batch(&d, 1, NULL, kernels, KERNELS_PER_GPU, results, statuses, &err);
        int first_bad = -1;
        for (int i = 0; i < KERNELS_PER_GPU; i++) {
            occ_result one;
            occ_error one_err;
            occ_status s = occ_calc(&d, &kernels[i], &one, &one_err);
            assert_int_equal(statuses[i], s);
            if (s == OCC_OK) {
                assert_results_equal(&results[i], &one);
                continue;
            }
            occ_result zero = {0};
            assert_results_equal(&results[i], &zero);
            bad_total++;
            if (first_bad < 0) {
                first_bad = i;
                char expected[OCC_ERROR_MESSAGE_BYTES + 32];
                snprintf(expected, sizeof expected, "kernel %d: %s", i, one_err.message);
                assert_string_equal(err.message, expected);
                assert_string_equal(err.field, one_err.field);
                assert_int_equal(err.status, s);
                assert_int_equal(batch, s);
            }
        }
        if (first_bad < 0) {
            assert_int_equal(batch, OCC_OK);
        }
    }
    /* The mix above must hold bad kernels, or the error path went untested. */
    assert_true(bad_total > 100);
}

/* One batch over every GPU of the database at once: kernel i on
   devices[index[i]], some indexes past the array. */
#define MIXED_KERNELS 20000
static void each_kernel_on_its_own_device(void **state)
{
    (void)state;
    static occ_device devices[512];
    static occ_kernel kernels[MIXED_KERNELS];
    static occ_result results[MIXED_KERNELS];
    static occ_status statuses[MIXED_KERNELS];
    static int index[MIXED_KERNELS];
    int device_count = occ_gpu_count();
    assert_true(device_count <= 512);
    for (int g = 0; g < device_count; g++) {
        assert_int_equal(occ_gpu_at(g, &devices[g], NULL, NULL, NULL), OCC_OK);
    }
    uint64_t seed = 12345;
    for (int i = 0; i < MIXED_KERNELS; i++) {
        index[i] = random_in(&seed, 0, device_count - 1);
        kernels[i] = random_kernel(&seed, &devices[index[i]]);
        if (i % 1000 == 999) {
            index[i] = i % 2000 == 999 ? device_count : -1; /* outside the array */
        }
    }
    occ_error err = {0};
    occ_status batch = occ_calc_batch(devices, device_count, index, kernels, MIXED_KERNELS, results,
                                      statuses, &err);
    int first_bad = -1;
    for (int i = 0; i < MIXED_KERNELS; i++) {
        occ_result one = {0};
        occ_error one_err = {0};
        occ_status s = OCC_ERR_INVALID_ARGUMENT;
        bool in_range = index[i] >= 0 && index[i] < device_count;
        if (in_range) {
            s = occ_calc(&devices[index[i]], &kernels[i], &one, &one_err);
        }
        assert_int_equal(statuses[i], s);
        occ_result zero = {0};
        assert_results_equal(&results[i], s == OCC_OK ? &one : &zero);
        if (s != OCC_OK && first_bad < 0) {
            first_bad = i;
            char expected[OCC_ERROR_MESSAGE_BYTES + 64];
            if (in_range) {
                snprintf(expected, sizeof expected, "kernel %d: %s", i, one_err.message);
            } else {
                snprintf(expected, sizeof expected, "kernel %d: device_index %d is outside 0 to %d",
                         i, index[i], device_count - 1);
            }
            assert_string_equal(err.message, expected);
            assert_int_equal(batch, s);
        }
    }
    assert_true(first_bad >= 0);
    /* The rows past the array are errors of their own, named by their index. */
    occ_kernel k;
    occ_kernel_init(&k);
    k.block_x = 128;
    int past = device_count;
    occ_result r;
    assert_int_equal(occ_calc_batch(devices, device_count, &past, &k, 1, &r, NULL, &err),
                     OCC_ERR_INVALID_ARGUMENT);
    char expected[64];
    snprintf(expected, sizeof expected, "kernel 0: device_index %d is outside 0 to %d", past,
             device_count - 1);
    assert_string_equal(err.message, expected);
    assert_string_equal(err.field, "device_index");
}

static void null_and_empty(void **state)
{
    (void)state;
    occ_device d;
    assert_int_equal(occ_gpu_find("H200", &d, NULL), OCC_OK);
    occ_kernel k;
    occ_kernel_init(&k);
    occ_result r;
    occ_error err;
    assert_int_equal(occ_calc_batch(NULL, 1, NULL, &k, 1, &r, NULL, &err), OCC_ERR_NULL_POINTER);
    assert_string_equal(err.message, "devices, kernels or results is NULL");
    assert_int_equal(occ_calc_batch(&d, 1, NULL, NULL, 1, &r, NULL, &err), OCC_ERR_NULL_POINTER);
    assert_int_equal(occ_calc_batch(&d, 1, NULL, &k, 1, NULL, NULL, NULL), OCC_ERR_NULL_POINTER);
    assert_int_equal(occ_calc_batch(&d, 0, NULL, &k, 1, &r, NULL, &err), OCC_ERR_INVALID_ARGUMENT);
    assert_string_equal(err.field, "device_count");
    /* Nothing to do is not an error, whatever the pointers. */
    assert_int_equal(occ_calc_batch(&d, 1, NULL, NULL, 0, NULL, NULL, &err), OCC_OK);
    /* statuses and err are optional. */
    k.block_x = 256;
    k.regs_per_thread = 64;
    k.static_smem_bytes = 16384;
    assert_int_equal(occ_calc_batch(&d, 1, NULL, &k, 1, &r, NULL, NULL), OCC_OK);
    /* 256 threads x 64 registers on sm_90: 4 blocks (README's worked example,
       the driver's answer in tests/data/h200-driver). */
    assert_int_equal(r.blocks_per_sm, 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(equals_one_call_per_kernel),
        cmocka_unit_test(each_kernel_on_its_own_device),
        cmocka_unit_test(null_and_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
