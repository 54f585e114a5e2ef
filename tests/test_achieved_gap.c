/*
 * test_achieved_gap.c - libocc's achieved-occupancy gap model
 * (occ_achieved_gap) on worked H200 launches: a grid below one wave, a
 * partial last wave, clusters that leave slots empty, a gap within the
 * model's error, launches without a measurement or a grid, and every
 * refusal naming its field. tests/test_ncu.c checks the same model against
 * the achieved occupancy Nsight Compute measured on the H200.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "occ.h"

#define assert_near(a, b, eps) assert_true(fabs((a) - (b)) <= (eps))

/* An H200 launch of 256-thread blocks, 8 resident per SM: 100% theoretical,
   a wave of 8 x 132 = 1,056 blocks. */
static occ_gap_input h200_launch(long long grid_blocks, double achieved)
{
    return (occ_gap_input){.blocks_per_sm = 8,
                           .warps_per_block = 8,
                           .max_warps_per_sm = 64,
                           .sm_count = 132,
                           .grid_blocks = grid_blocks,
                           .theoretical = 1.0,
                           .achieved = achieved,
                           .achieved_measured = achieved >= 0};
}

/* The parts add up to the gap. */
static void assert_parts(const occ_gap_result *r)
{
    assert_near(r->cluster_loss + r->small_grid_loss + r->tail_loss + r->in_kernel, r->gap, 1e-12);
}

/* 100 blocks on 132 SMs: one block on each of 100 SMs, 8 of 64 warps:
   12.5% is all the grid allows. */
static void small_grid(void **state)
{
    (void)state;
    occ_gap_input in = h200_launch(100, 0.12);
    occ_gap_result r;
    assert_int_equal(occ_achieved_gap(&in, &r, NULL), OCC_OK);
    assert_int_equal(r.cause, OCC_GAP_SMALL_GRID);
    assert_int_equal(r.wave_blocks, 1056);
    assert_int_equal(r.full_waves, 0);
    assert_int_equal(r.last_wave_blocks, 100);
    assert_int_equal(r.active_sms, 100);
    assert_near(r.grid_bound, 0.125, 1e-12);
    assert_near(r.small_grid_loss, 0.875, 1e-12);
    assert_near(r.tail_loss, 0.0, 1e-12);
    assert_near(r.in_kernel, 0.005, 1e-12);
    assert_near(r.gap, 0.88, 1e-12);
    assert_parts(&r);
}

/* One full wave and 132 blocks more: the second wave holds one block per
   SM, so the launch averages (8 + 1) / 2 blocks per SM over its time. */
static void tail(void **state)
{
    (void)state;
    occ_gap_input in = h200_launch(1056 + 132, 0.55);
    occ_gap_result r;
    assert_int_equal(occ_achieved_gap(&in, &r, NULL), OCC_OK);
    assert_int_equal(r.cause, OCC_GAP_TAIL);
    assert_int_equal(r.full_waves, 1);
    assert_int_equal(r.last_wave_blocks, 132);
    assert_int_equal(r.active_sms, 132);
    assert_near(r.grid_bound, 1188.0 / 264.0 * 0.125, 1e-12);
    assert_near(r.tail_loss, 1.0 - 0.5625, 1e-12);
    assert_near(r.small_grid_loss, 0.0, 1e-12);
    assert_parts(&r);
    /* whole waves leave nothing to the grid: what is left is the kernel's */
    in = h200_launch(4 * 1056, 0.80);
    assert_int_equal(occ_achieved_gap(&in, &r, NULL), OCC_OK);
    assert_int_equal(r.cause, OCC_GAP_IN_KERNEL);
    assert_int_equal(r.full_waves, 4);
    assert_near(r.grid_bound, 1.0, 1e-12);
    assert_near(r.in_kernel, 0.20, 1e-12);
    assert_parts(&r);
}

/* Clusters of 2 with 400 active at once use 800 of the 1,056 slots. */
static void clusters(void **state)
{
    (void)state;
    occ_gap_input in = h200_launch(800, 0.70);
    in.cluster_size = 2;
    in.active_clusters = 400;
    occ_gap_result r;
    assert_int_equal(occ_achieved_gap(&in, &r, NULL), OCC_OK);
    assert_int_equal(r.cause, OCC_GAP_CLUSTERS);
    assert_int_equal(r.wave_blocks, 800);
    assert_near(r.cluster_loss, 1.0 - 800.0 / 132.0 * 0.125, 1e-12);
    assert_parts(&r);
    /* enough active clusters for every slot: no loss */
    in.active_clusters = 528;
    assert_int_equal(occ_achieved_gap(&in, &r, NULL), OCC_OK);
    assert_int_equal(r.wave_blocks, 1056);
    assert_near(r.cluster_loss, 0.0, 1e-12);
}

/* Below 2 points the gap has no cause; without a measurement the losses are
   still computed; without a grid, SMs or a resident block there is no model. */
static void no_cause(void **state)
{
    (void)state;
    occ_gap_input in = h200_launch(1056, 0.985);
    occ_gap_result r;
    assert_int_equal(occ_achieved_gap(&in, &r, NULL), OCC_OK);
    assert_int_equal(r.cause, OCC_GAP_NONE);
    in = h200_launch(100, -1);
    assert_int_equal(occ_achieved_gap(&in, &r, NULL), OCC_OK);
    assert_int_equal(r.cause, OCC_GAP_NOT_MEASURED);
    assert_near(r.gap, 0.0, 0.0);
    assert_near(r.small_grid_loss, 0.875, 1e-12);
    in = h200_launch(0, 0.5);
    assert_int_equal(occ_achieved_gap(&in, &r, NULL), OCC_OK);
    assert_int_equal(r.cause, OCC_GAP_NO_GRID);
    assert_near(r.gap, 0.5, 1e-12);
    in = h200_launch(100, 0.5);
    in.sm_count = 0;
    assert_int_equal(occ_achieved_gap(&in, &r, NULL), OCC_OK);
    assert_int_equal(r.cause, OCC_GAP_NO_GRID);
    in = h200_launch(100, 0.0);
    in.blocks_per_sm = 0;
    in.theoretical = 0.0;
    assert_int_equal(occ_achieved_gap(&in, &r, NULL), OCC_OK);
    assert_int_equal(r.cause, OCC_GAP_NO_GRID);
    /* the measurement is not read where there is none */
    in = h200_launch(100, -1);
    in.achieved = NAN;
    assert_int_equal(occ_achieved_gap(&in, &r, NULL), OCC_OK);
}

static void refuses(const occ_gap_input *in, const char *field)
{
    occ_gap_result r;
    occ_error err;
    assert_int_equal(occ_achieved_gap(in, &r, &err), OCC_ERR_INVALID_ARGUMENT);
    assert_string_equal(err.field, field);
    assert_true(strlen(err.message) > 0);
}

static void refusals(void **state)
{
    (void)state;
    occ_gap_input in = h200_launch(100, 0.5);
    in.blocks_per_sm = -1;
    refuses(&in, "blocks_per_sm");
    in = h200_launch(100, 0.5);
    in.warps_per_block = 0;
    refuses(&in, "warps_per_block");
    in.warps_per_block = 65;
    refuses(&in, "warps_per_block");
    in = h200_launch(100, 0.5);
    in.sm_count = -132;
    refuses(&in, "sm_count");
    in = h200_launch(-5, 0.5);
    refuses(&in, "grid_blocks");
    in = h200_launch(100, 0.5);
    in.cluster_size = -2;
    refuses(&in, "cluster_size");
    in = h200_launch(100, 0.5);
    in.theoretical = 1.5;
    refuses(&in, "theoretical");
    in.theoretical = NAN;
    refuses(&in, "theoretical");
    in = h200_launch(100, 0.5);
    in.achieved = -0.5;
    refuses(&in, "achieved");
    in.achieved = INFINITY;
    refuses(&in, "achieved");
    occ_gap_result r;
    occ_error err;
    assert_int_equal(occ_achieved_gap(NULL, &r, &err), OCC_ERR_NULL_POINTER);
    assert_int_equal(occ_achieved_gap(&in, NULL, &err), OCC_ERR_NULL_POINTER);
}

static void cause_names(void **state)
{
    (void)state;
    assert_string_equal(occ_gap_cause_name(OCC_GAP_TAIL), "tail");
    assert_string_equal(occ_gap_cause_name(OCC_GAP_SMALL_GRID), "small_grid");
    assert_string_equal(occ_gap_cause_name(OCC_GAP_NO_GRID), "no_grid");
    assert_string_equal(occ_gap_cause_name((occ_gap_cause)99), "unknown");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(small_grid), cmocka_unit_test(tail),     cmocka_unit_test(clusters),
        cmocka_unit_test(no_cause),   cmocka_unit_test(refusals), cmocka_unit_test(cause_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
