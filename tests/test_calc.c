/*
 * test_calc.c - occ_calc's behaviour at its edges: each invalid input
 * names its field and limit, each way to fit zero blocks says why, and the
 * carveout, opt-in, partitioned caching and 3-D blocks work as the driver.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "occ.h"

static occ_device gpu(const char *name)
{
    occ_device d;
    occ_error err;
    if (occ_gpu_find(name, &d, &err) != OCC_OK) {
        print_error("%s\n", err.message);
        fail();
    }
    return d;
}

typedef struct invalid_case {
    const char *id;
    const char *gpu;
    void (*edit)(occ_kernel *k);
    const char *field;
    const char *message;
} invalid_case;

static void threads_1100(occ_kernel *k)
{
    k->block_x = 1100;
}
static void threads_zero(occ_kernel *k)
{
    k->block_x = 0;
}
static void threads_3d(occ_kernel *k)
{
    k->block_x = 16;
    k->block_y = 16;
    k->block_z = 8;
}
static void threads_huge(occ_kernel *k)
{
    k->block_x = 2147483647;
    k->block_y = 2147483647;
    k->block_z = 2147483647;
}
static void z_65(occ_kernel *k)
{
    k->block_x = 1;
    k->block_z = 65;
}
static void regs_256(occ_kernel *k)
{
    k->regs_per_thread = 256;
}
static void regs_neg(occ_kernel *k)
{
    k->regs_per_thread = -1;
}
static void static_49k(occ_kernel *k)
{
    k->static_smem_bytes = 49 * 1024;
}
static void dyn_neg(occ_kernel *k)
{
    k->dyn_smem_bytes = -5;
}
static void barriers_17(occ_kernel *k)
{
    k->barriers = 17;
}
static void carveout_101(occ_kernel *k)
{
    k->carveout_percent = 101;
}
static void optin_big(occ_kernel *k)
{
    k->max_dyn_smem_bytes = 232449;
}
static void launch_neg(occ_kernel *k)
{
    k->max_threads_per_block = -1;
}
static void pgc_bad(occ_kernel *k)
{
    k->partitioned_gc = (occ_partitioned_gc)7;
}

static const invalid_case invalid[] = {
    {"inv-1", "sm_90", threads_1100, "threads", "threads 1100 exceed the 1024 per block of sm_90"},
    {"inv-2", "H200", threads_1100, "threads",
     "threads 1100 exceed the 1024 per block of H200 (sm_90)"},
    {"inv-3", "sm_90", threads_zero, "threads",
     "threads 0: every block dimension must be at least 1"},
    {"inv-4", "sm_90", threads_3d, "threads", "threads 2048 exceed the 1024 per block of sm_90"},
    {"inv-5", "sm_90", threads_huge, "threads", "exceed the 1024 per block"},
    {"inv-6", "sm_90", z_65, "block_z", "block_z 65: must be 1 to 64"},
    {"inv-7", "sm_90", regs_256, "regs", "regs 256: must be 0 to 255 registers per thread"},
    {"inv-8", "sm_90", regs_neg, "regs", "regs -1"},
    {"inv-9", "sm_90", static_49k, "smem", "smem 50176: static shared memory must be 0 to 49152"},
    {"inv-10", "sm_90", dyn_neg, "dyn_smem", "dyn_smem -5: must be 0 or more bytes"},
    {"inv-11", "sm_90", barriers_17, "barriers", "barriers 17: must be 0 to 16"},
    {"inv-12", "sm_90", carveout_101, "carveout", "carveout 101"},
    {"inv-13", "sm_90", optin_big, "max_dyn_smem", "the opt-in must be at most 232448 bytes"},
    {"inv-14", "sm_90", launch_neg, "max_threads", "max_threads -1"},
    {"inv-15", "sm_90", pgc_bad, "partitioned_gc", "partitioned_gc 7"},
};

static void test_invalid_input_names_field_and_limit(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; i++) {
        const invalid_case *c = &invalid[i];
        occ_device d = gpu(c->gpu);
        occ_kernel k;
        occ_kernel_init(&k);
        c->edit(&k);
        occ_result r;
        occ_error err;
        occ_status status = occ_calc(&d, &k, &r, &err);
        if (status != OCC_ERR_INVALID_ARGUMENT || strcmp(err.field, c->field) != 0 ||
            strstr(err.message, c->message) == NULL) {
            print_error("%s: status %d field '%s' message '%s'\n", c->id, (int)status,
                        status == OCC_OK ? "" : err.field, status == OCC_OK ? "" : err.message);
            fail();
        }
        /* A NULL error pointer is allowed and changes nothing. */
        assert_int_equal(occ_calc(&d, &k, &r, NULL), OCC_ERR_INVALID_ARGUMENT);
    }
}

static void test_zero_blocks_say_why(void **state)
{
    (void)state;
    occ_device h200 = gpu("H200");
    occ_kernel k;
    occ_result r;

    /* 512 threads, launch bounds 256: the driver's occupancy API ignores
       the bound (4 blocks, measured on an H200); the launch would fail. */
    occ_kernel_init(&k);
    k.block_x = 512;
    k.max_threads_per_block = 256;
    k.regs_per_thread = 10;
    assert_int_equal(occ_calc(&h200, &k, &r, NULL), OCC_OK);
    assert_int_equal(r.blocks_per_sm, 4);
    assert_true(r.exceeds_launch_bounds);
    k.block_x = 256;
    assert_int_equal(occ_calc(&h200, &k, &r, NULL), OCC_OK);
    assert_false(r.exceeds_launch_bounds);

    occ_kernel_init(&k); /* 1024 threads x 128 registers: 131072 > 65536 */
    k.block_x = 1024;
    k.regs_per_thread = 128;
    assert_int_equal(occ_calc(&h200, &k, &r, NULL), OCC_OK);
    assert_int_equal(r.blocks_per_sm, 0);
    assert_int_equal(r.zero_reason, OCC_ZERO_REGS_PER_BLOCK);
    assert_int_equal(r.limiters, OCC_LIMITER_REGISTERS);

    occ_kernel_init(&k); /* 64 KB without opt-in */
    k.block_x = 128;
    k.dyn_smem_bytes = 64 * 1024;
    k.max_dyn_smem_bytes = OCC_DYN_SMEM_NO_OPTIN;
    assert_int_equal(occ_calc(&h200, &k, &r, NULL), OCC_OK);
    assert_int_equal(r.blocks_per_sm, 0);
    assert_int_equal(r.zero_reason, OCC_ZERO_SMEM_PER_BLOCK);
    assert_int_equal(r.smem_per_block_limit_bytes, 49152 + 1024);
    assert_true(r.needs_optin);
    k.max_dyn_smem_bytes = OCC_DYN_SMEM_OPTIN_MAX; /* opted in: 3 blocks */
    assert_int_equal(occ_calc(&h200, &k, &r, NULL), OCC_OK);
    assert_int_equal(r.blocks_per_sm, 3);
    k.max_dyn_smem_bytes = 32 * 1024; /* opted in, but to less */
    assert_int_equal(occ_calc(&h200, &k, &r, NULL), OCC_OK);
    assert_int_equal(r.zero_reason, OCC_ZERO_DYN_SMEM_OPTIN);

    /* GP100 (6.0) refuses a block that cannot run on GP10x: 22 warps at
       88 registers fit two sub-partitions but not four. */
    occ_device gp100 = gpu("sm_60");
    occ_kernel_init(&k);
    k.block_x = 22 * 32;
    k.regs_per_thread = 88;
    assert_int_equal(occ_calc(&gp100, &k, &r, NULL), OCC_OK);
    assert_int_equal(r.blocks_per_sm, 0);
    assert_int_equal(r.zero_reason, OCC_ZERO_REGS_PER_SM);
    assert_true(strlen(occ_zero_reason_text(r.zero_reason)) > 10);
}

static void test_carveout_steps(void **state)
{
    (void)state;
    occ_device h200 = gpu("H200");
    occ_kernel k;
    occ_result r;
    occ_kernel_init(&k);
    k.block_x = 256;
    k.dyn_smem_bytes = 8 * 1024; /* 9 KB per block with the reserved KB */
    k.carveout_percent = 50;     /* 114 KB asked, rounds up to the 132 KB step */
    assert_int_equal(occ_calc(&h200, &k, &r, NULL), OCC_OK);
    assert_int_equal(r.smem_preferred_bytes, 132 * 1024);
    assert_int_equal(r.smem_per_sm_bytes, 132 * 1024);
    assert_int_equal(r.limit_shared_mem, 14);
    k.carveout_percent = 0; /* 0 KB asked: one block needs 9 KB, so 16 KB */
    assert_int_equal(occ_calc(&h200, &k, &r, NULL), OCC_OK);
    assert_int_equal(r.smem_preferred_bytes, 0);
    assert_int_equal(r.smem_per_sm_bytes, 16 * 1024);
    assert_int_equal(r.limit_shared_mem, 1);
    k.carveout_percent = OCC_CARVEOUT_DEFAULT;
    assert_int_equal(occ_calc(&h200, &k, &r, NULL), OCC_OK);
    assert_int_equal(r.smem_per_sm_bytes, 228 * 1024);
    /* Turing's smallest step is 32 KB. */
    occ_device t4 = gpu("T4");
    k.carveout_percent = 0;
    assert_int_equal(occ_calc(&t4, &k, &r, NULL), OCC_OK);
    assert_int_equal(r.smem_per_sm_bytes, 32 * 1024);
    assert_int_equal(r.limit_shared_mem, 4);
}

static void test_partitioned_caching(void **state)
{
    (void)state;
    occ_device m = gpu("sm_52");
    occ_kernel k;
    occ_result r;
    occ_kernel_init(&k);
    k.block_x = 640; /* 20 warps: half an SM (32 warp slots) holds one */
    k.regs_per_thread = 32;
    k.partitioned_gc = OCC_PGC_ON;
    assert_int_equal(occ_calc(&m, &k, &r, NULL), OCC_OK);
    assert_true(r.partitioned_gc_on);
    assert_int_equal(r.limit_warps, 2);
    assert_int_equal(r.blocks_per_sm, 2);
    k.regs_per_thread = 64; /* 8 warps per sub-partition, 16 per half: too few */
    assert_int_equal(occ_calc(&m, &k, &r, NULL), OCC_OK);
    assert_false(r.partitioned_gc_on); /* dropped, as the driver does */
    assert_int_equal(r.blocks_per_sm, 1);
    k.partitioned_gc = OCC_PGC_ON_STRICT;
    assert_int_equal(occ_calc(&m, &k, &r, NULL), OCC_OK);
    assert_true(r.partitioned_gc_on);
    assert_int_equal(r.blocks_per_sm, 0);
    /* 6.0 has no partitioned caching: the mode is ignored. */
    occ_device gp100 = gpu("sm_60");
    assert_int_equal(occ_calc(&gp100, &k, &r, NULL), OCC_OK);
    assert_false(r.partitioned_gc_on);
}

static void test_three_d_blocks_and_barriers(void **state)
{
    (void)state;
    occ_device h200 = gpu("H200");
    occ_kernel k;
    occ_result r;
    occ_kernel_init(&k);
    k.block_x = 8;
    k.block_y = 8;
    k.block_z = 4; /* 256 threads */
    assert_int_equal(occ_calc(&h200, &k, &r, NULL), OCC_OK);
    assert_int_equal(r.threads_per_block, 256);
    assert_int_equal(r.warps_per_block, 8);
    assert_int_equal(r.blocks_per_sm, 8);
    /* 64 barriers on the SM (2 per block slot): 5 per block allow 12. */
    k.block_x = 1;
    k.block_y = 1;
    k.block_z = 1;
    k.barriers = 5;
    assert_int_equal(occ_calc(&h200, &k, &r, NULL), OCC_OK);
    assert_int_equal(r.limit_barriers, 12);
    assert_int_equal(r.blocks_per_sm, 12);
    assert_int_equal(r.limiters, OCC_LIMITER_BARRIERS);
    /* Before 9.0 barriers never limit. */
    occ_device a100 = gpu("A100 40GB");
    assert_int_equal(occ_calc(&a100, &k, &r, NULL), OCC_OK);
    assert_int_equal(r.limit_barriers, OCC_UNLIMITED);
    assert_int_equal(r.blocks_per_sm, 32);
}

static void test_words(void **state)
{
    (void)state;
    assert_string_equal(occ_limiter_nsight_name(OCC_LIMITER_REGISTERS), "Block Limit Registers");
    assert_string_equal(occ_limiter_nsight_name(OCC_LIMITER_SHARED_MEM), "Block Limit Shared Mem");
    assert_string_equal(occ_limiter_nsight_name(OCC_LIMITER_BLOCKS), "Block Limit SM");
    assert_string_equal(occ_limiter_name(OCC_LIMITER_WARPS), "warps");
    assert_string_equal(occ_status_name(OCC_ERR_UNKNOWN_GPU), "unknown GPU");
    assert_string_equal(occ_version(), OCC_VERSION_STRING);
    char arch[16];
    occ_arch_name(12, 1, arch, sizeof arch);
    assert_string_equal(arch, "sm_121");
    occ_arch_name(12, 1, arch, 4); /* truncates, stays terminated */
    assert_string_equal(arch, "sm_");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_invalid_input_names_field_and_limit),
        cmocka_unit_test(test_zero_blocks_say_why),
        cmocka_unit_test(test_carveout_steps),
        cmocka_unit_test(test_partitioned_caching),
        cmocka_unit_test(test_three_d_blocks_and_barriers),
        cmocka_unit_test(test_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
