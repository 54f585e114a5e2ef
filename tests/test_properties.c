/*
 * test_properties.c - laws that hold for every GPU and every kernel:
 * asking for more registers, shared memory or barriers never raises
 * occupancy, and no result exceeds what the SM has.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "occ_internal.h"

static uint64_t rng = 0x243F6A8885A308D3ull;
static int rnd(int bound)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (int)((rng >> 33) % (uint64_t)bound);
}

static void random_kernel(const occ_device *d, occ_kernel *k)
{
    occ_kernel_init(k);
    k->block_x = 1 + rnd(d->max_threads_per_block);
    k->regs_per_thread = rnd(256);
    k->static_smem_bytes = rnd(d->smem_per_block_bytes + 1);
    k->dyn_smem_bytes = rnd(d->smem_per_block_optin_bytes + 1);
    k->carveout_percent = rnd(102) - 1;
    k->barriers = rnd(17);
    k->partitioned_gc = (occ_partitioned_gc)rnd(3);
    if (rnd(3) == 0) {
        k->max_dyn_smem_bytes = OCC_DYN_SMEM_NO_OPTIN;
    }
}

static int blocks_of(const occ_device *d, const occ_kernel *k)
{
    occ_result r;
    occ_error err;
    if (occ_calc(d, k, &r, &err) != OCC_OK) {
        print_error("occ_calc failed: %s\n", err.message);
        fail();
    }
    return r.blocks_per_sm;
}

static void test_more_resources_never_raise_occupancy(void **state)
{
    (void)state;
    long checks = 0;
    for (int a = 0; a < occ__arch_count; a++) {
        const occ_device *d = &occ__arch_table[a];
        for (int i = 0; i < 20000; i++) {
            occ_kernel k;
            random_kernel(d, &k);
            int base = blocks_of(d, &k);
            occ_kernel more = k;
            more.regs_per_thread = k.regs_per_thread + rnd(256 - k.regs_per_thread);
            assert_true(blocks_of(d, &more) <= base);
            more = k;
            more.static_smem_bytes =
                k.static_smem_bytes + rnd(d->smem_per_block_bytes - k.static_smem_bytes + 1);
            if (more.max_dyn_smem_bytes == OCC_DYN_SMEM_OPTIN_MAX ||
                more.max_dyn_smem_bytes == OCC_DYN_SMEM_NO_OPTIN) {
                assert_true(blocks_of(d, &more) <= base);
            }
            more = k;
            more.dyn_smem_bytes = k.dyn_smem_bytes + rnd(8192);
            assert_true(blocks_of(d, &more) <= base);
            more = k;
            more.barriers = k.barriers + rnd(17 - k.barriers);
            assert_true(blocks_of(d, &more) <= base);
            checks += 4;
        }
    }
    print_message("%ld monotonicity checks\n", checks);
}

static void test_results_within_sm_limits(void **state)
{
    (void)state;
    for (int a = 0; a < occ__arch_count; a++) {
        const occ_device *d = &occ__arch_table[a];
        for (int i = 0; i < 20000; i++) {
            occ_kernel k;
            random_kernel(d, &k);
            occ_result r;
            assert_int_equal(occ_calc(d, &k, &r, NULL), OCC_OK);
            assert_true(r.blocks_per_sm >= 0);
            assert_true(r.blocks_per_sm <= d->max_blocks_per_sm);
            assert_true(r.warps_per_sm <= occ_device_max_warps_per_sm(d));
            assert_true(r.threads_per_sm <= d->max_threads_per_sm);
            assert_true(r.occupancy >= 0.0 && r.occupancy <= 1.0);
            if (r.blocks_per_sm > 0) {
                assert_true((long long)r.regs_per_block_allocated * r.blocks_per_sm <=
                            d->regs_per_sm);
                assert_true((long long)r.smem_per_block_allocated_bytes * r.blocks_per_sm <=
                            r.smem_per_sm_bytes);
                assert_true(r.smem_per_sm_bytes <= d->smem_per_sm_bytes);
                assert_true(r.limiters != 0);
                assert_int_equal(r.zero_reason, OCC_ZERO_NONE);
            } else {
                assert_true(r.zero_reason != OCC_ZERO_NONE);
            }
            /* Every reported limiter equals the answer; every limit allows it. */
            const int limits[] = {r.limit_warps, r.limit_registers, r.limit_shared_mem,
                                  r.limit_blocks, r.limit_barriers};
            const unsigned bits[] = {OCC_LIMITER_WARPS, OCC_LIMITER_REGISTERS,
                                     OCC_LIMITER_SHARED_MEM, OCC_LIMITER_BLOCKS,
                                     OCC_LIMITER_BARRIERS};
            for (int l = 0; l < 5; l++) {
                assert_true(limits[l] >= r.blocks_per_sm);
                assert_true(((r.limiters & bits[l]) != 0) == (limits[l] == r.blocks_per_sm));
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_more_resources_never_raise_occupancy),
        cmocka_unit_test(test_results_within_sm_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
