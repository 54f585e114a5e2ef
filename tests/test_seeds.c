/*
 * test_seeds.c - the worked examples of the four documents occ grew from
 * (docs/sources.md), each on the GPU it names. Where a seed simplifies (it
 * ignores the reserved shared memory per block or the per-sub-partition
 * register granularity), the case asserts the driver's rule and its
 * comment says how and why the seed's figure differs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>

#include "occ.h"

#define W OCC_LIMITER_WARPS
#define R OCC_LIMITER_REGISTERS
#define S OCC_LIMITER_SHARED_MEM
#define B OCC_LIMITER_BLOCKS

typedef struct seed_case {
    const char *id; /* seed-example, stable */
    const char *gpu;
    int threads;
    int regs;
    int static_smem;
    int dyn_smem;
    int blocks;        /* expected resident blocks per SM */
    int warps;         /* expected resident warps per SM */
    unsigned limiters; /* expected binding limits */
} seed_case;

static const seed_case cases[] = {
    /* Seed 004 (A100, "Worked examples") */
    {"004-ex1", "A100 40GB", 256, 64, 0, 0, 4, 32, R}, /* 50%: register file exactly full */
    /* Ex 2: 48 KB per block. The seed divides 164 KB by 48 KB = 3; the
       driver adds 1 KB reserved per block (49 KB): still 3 blocks. */
    {"004-ex2", "A100 40GB", 256, 32, 48 * 1024, 0, 3, 24, S}, /* 37.5% */
    {"004-ex3", "A100 40GB", 32, 16, 0, 0, 32, 32, B},         /* 50%: block slots */
    {"004-ex4", "A100 40GB", 128, 16, 0, 0, 16, 64, W},        /* 100%: warp slots */
    {"004-ex5", "A100 40GB", 1, 16, 0, 0, 32, 32, B},          /* 50%, 1/32 lanes useful */
    {"004-ex6", "A100 40GB", 128, 128, 0, 0, 4, 16, R},        /* 25% */
    {"004-ex8-before", "A100 40GB", 256, 128, 0, 0, 2, 16, R}, /* 25% */
    {"004-ex8-after", "A100 40GB", 256, 64, 0, 0, 4, 32, R},   /* 50% */

    /* Seed 001 ("Occupancy and resource allocation", A100) */
    {"001-regs-32", "A100 40GB", 256, 32, 0, 0, 8, 64, W | R}, /* 100%, a tie */
    /* 48 registers: the seed fits 65536 / 1536 = 42 warps. The driver splits
       the register file over 4 sub-partitions: 16384 / 1536 = 10 warps each,
       40 in all, so 5 blocks of 8 warps (62.5%, not the seed's 65%). */
    {"001-regs-48", "A100 40GB", 256, 48, 0, 0, 5, 40, R},
    {"001-regs-64", "A100 40GB", 256, 64, 0, 0, 4, 32, R},   /* 50% */
    {"001-regs-128", "A100 40GB", 256, 128, 0, 0, 2, 16, R}, /* 25% */
    {"001-regs-255", "A100 40GB", 256, 255, 0, 0, 1, 8, R},  /* 8192 per warp: 12.5% */
    /* Shared memory table, 256-thread blocks. 8 KB: 9 KB with the reserved
       KB, 18 blocks by memory, but 8 by warp slots: 100%. */
    {"001-smem-8k", "A100 40GB", 256, 0, 8 * 1024, 0, 8, 64, W},
    /* 32 KB: the seed's 164 / 32 = 5 blocks ignores the reserved KB:
       164 / 33 = 4 blocks, 50% (not 62.5%). */
    {"001-smem-32k", "A100 40GB", 256, 0, 0, 32 * 1024, 4, 32, S},
    {"001-smem-64k", "A100 40GB", 256, 0, 0, 64 * 1024, 2, 16, S}, /* 25% */
    /* 164 KB: the seed's one block cannot launch: a block may have at most
       163 KB (+1 KB reserved), so zero blocks fit. */
    {"001-smem-164k", "A100 40GB", 256, 0, 0, 164 * 1024, 0, 0, S},
    /* Block size table (light kernel): 32 threads hit the block slots. */
    {"001-block-32", "A100 40GB", 32, 16, 0, 0, 32, 32, B},
    {"001-block-64", "A100 40GB", 64, 16, 0, 0, 32, 64, W | B},
    {"001-block-128", "A100 40GB", 128, 16, 0, 0, 16, 64, W},
    {"001-block-256", "A100 40GB", 256, 16, 0, 0, 8, 64, W},
    {"001-block-512", "A100 40GB", 512, 16, 0, 0, 4, 64, W},
    {"001-block-1024", "A100 40GB", 1024, 16, 0, 0, 2, 64, W},
    /* 4.1: 40 registers, 256 threads, 16 KB. The seed's 51 warps by
       registers become 48 by sub-partition (12 each); 6 blocks, 75%. */
    {"001-combined", "A100 40GB", 256, 40, 16 * 1024, 0, 6, 48, R},

    /* Seed 000 (the residency experiment, Tesla T4): 256-thread blocks, 8 of 32 warp slots.
       The residency knob reserves SM / N bytes (rounded down to 256, capped
       at 48 KB) of dynamic shared memory the kernel never touches. */
    {"000-tlp1", "T4", 256, 16, 0, 0, 4, 32, W},        /* 100% */
    {"000-tlp1-b3", "T4", 256, 16, 0, 21760, 3, 24, S}, /* 75% */
    {"000-tlp1-b2", "T4", 256, 16, 0, 32768, 2, 16, S}, /* 50% */
    {"000-tlp1-b1", "T4", 256, 16, 0, 49152, 1, 8, S},  /* 25% */
    /* ilp8-lb: at 54 registers the kernel already fits 4 blocks, so
       __launch_bounds__(256, 4) changed nothing. */
    {"000-ilp8-lb", "T4", 256, 54, 0, 0, 4, 32, W | R}, /* registers tie: 36 warps */
};

static void test_seed_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const seed_case *c = &cases[i];
        occ_device d;
        occ_error err;
        assert_int_equal(occ_gpu_find(c->gpu, &d, &err), OCC_OK);
        occ_kernel k;
        occ_kernel_init(&k);
        k.block_x = c->threads;
        k.regs_per_thread = c->regs;
        k.static_smem_bytes = c->static_smem;
        k.dyn_smem_bytes = c->dyn_smem;
        occ_result r;
        assert_int_equal(occ_calc(&d, &k, &r, &err), OCC_OK);
        if (r.blocks_per_sm != c->blocks || r.warps_per_sm != c->warps ||
            (c->blocks > 0 && r.limiters != c->limiters)) {
            print_error("%s: blocks %d (want %d) warps %d (want %d) limiters %#x (want %#x)\n",
                        c->id, r.blocks_per_sm, c->blocks, r.warps_per_sm, c->warps, r.limiters,
                        c->limiters);
            fail();
        }
        if (c->blocks == 0) {
            /* The request exceeds the largest opt-in (163 KB less static). */
            assert_int_equal(r.zero_reason, OCC_ZERO_DYN_SMEM_OPTIN);
        }
    }
}

/* Seed 001's 48-register row as the seed states it: 42 warps by plain
   division; the driver's per-sub-partition rule gives 40. */
static void test_seed_001_register_granularity(void **state)
{
    (void)state;
    occ_device d;
    assert_int_equal(occ_gpu_find("A100 40GB", &d, NULL), OCC_OK);
    occ_kernel k;
    occ_kernel_init(&k);
    k.block_x = 32;
    k.regs_per_thread = 48;
    occ_result r;
    assert_int_equal(occ_calc(&d, &k, &r, NULL), OCC_OK);
    assert_int_equal(r.regs_per_warp_allocated, 1536);
    assert_int_equal(d.regs_per_sm / r.regs_per_warp_allocated, 42); /* the seed */
    assert_int_equal(r.warps_per_sm_by_regs, 40);                    /* the driver */
}

/* Seed 002's illustrative SM (65,536 registers, 128 KB, 64 warps, 32
   blocks), built as a described GPU, and its 768-thread remark. */
static void test_seed_002_illustrative_sm(void **state)
{
    (void)state;
    occ_device d;
    assert_int_equal(occ_arch_find(8, 0, &d, NULL), OCC_OK);
    d.smem_per_sm_bytes = 128 * 1024;
    d.smem_per_block_optin_bytes = 127 * 1024;
    d.carveout_step_count = 0;           /* fixed, as the seed assumes */
    d.smem_reserved_per_block_bytes = 0; /* the seed counts none */
    occ_error err;
    assert_int_equal(occ_device_validate(&d, &err), OCC_OK);
    occ_kernel k;
    occ_kernel_init(&k);
    k.block_x = 256;
    k.static_smem_bytes = 8 * 1024;
    k.regs_per_thread = 40;
    occ_result r;
    assert_int_equal(occ_calc(&d, &k, &r, NULL), OCC_OK);
    assert_int_equal(r.limit_shared_mem, 16);
    assert_int_equal(r.limit_blocks, 32);
    assert_int_equal(r.limit_warps, 8);
    assert_int_equal(r.blocks_per_sm, 6); /* registers: 48 warps, 75% */
    assert_int_equal(r.limiters, R);
    k.regs_per_thread = 64;
    assert_int_equal(occ_calc(&d, &k, &r, NULL), OCC_OK);
    assert_int_equal(r.warps_per_sm, 32); /* 50% */
    /* 96 registers: "21 warps, rounded to two blocks: 25%". By
       sub-partition the register file holds 20 warps; still 2 blocks. */
    k.regs_per_thread = 96;
    assert_int_equal(occ_calc(&d, &k, &r, NULL), OCC_OK);
    assert_int_equal(r.warps_per_sm_by_regs, 20);
    assert_int_equal(r.blocks_per_sm, 2);
    assert_int_equal(r.warps_per_sm, 16);
    /* A 768-thread block (24 warps) against 64 warp slots: two blocks,
       16 slots stranded. */
    k.block_x = 768;
    k.regs_per_thread = 16;
    k.static_smem_bytes = 0;
    assert_int_equal(occ_calc(&d, &k, &r, NULL), OCC_OK);
    assert_int_equal(r.blocks_per_sm, 2);
    assert_int_equal(r.max_warps_per_sm - r.warps_per_sm, 16);
}

/* Seed 000, day 10: on the T4 the occupancy API suggested 1024 threads a
   block for a memory-bound kernel (1024 was not the fastest measured; occ
   only reproduces the suggestion). A light kernel fills the T4's 32 warp
   slots with one 1024-thread block, the first size the API tries. */
static void test_seed_000_day10_suggestion(void **state)
{
    (void)state;
    occ_device t4;
    assert_int_equal(occ_gpu_find("T4", &t4, NULL), OCC_OK);
    occ_kernel k;
    occ_kernel_init(&k);
    k.regs_per_thread = 16;
    occ_block_size_result pick;
    assert_int_equal(occ_max_potential_block_size(&t4, &k, 0, NULL, NULL, &pick, NULL), OCC_OK);
    assert_int_equal(pick.block_size, 1024);
    assert_int_equal(pick.blocks_per_sm, 1);
    assert_int_equal(pick.min_grid_size, 40); /* one wave on the T4's 40 SMs */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_cases),
        cmocka_unit_test(test_seed_001_register_granularity),
        cmocka_unit_test(test_seed_002_illustrative_sm),
        cmocka_unit_test(test_seed_000_day10_suggestion),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
