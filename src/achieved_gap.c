/*
 * achieved_gap.c - why a launch's achieved occupancy is below its
 * theoretical: occupancy arithmetic on the grid, beside the latency model.
 *
 * Nsight Compute's achieved occupancy (sm__warps_active.avg.pct_of_peak_
 * sustained_active) counts resident warps over the cycles each SM is
 * active, so an SM with no block does not lower it, while an SM with fewer
 * blocks than it could hold does. The model: blocks of equal duration run in
 * waves of `wave_blocks` (blocks per SM x SMs, or fewer where clusters
 * cannot fill every slot), each wave's blocks spread over the SMs. Then
 *
 *   grid_bound = grid x warps per block
 *                / ((waves - 1) x min(SMs, wave) + min(SMs, last wave))
 *                / max warps per SM
 *
 * and theoretical - achieved splits into what clusters leave empty, what
 * the grid leaves empty (a grid below one wave, or a partial last wave), and
 * the rest, which happens inside the kernel (warps and blocks ending at
 * different times). On the H200's Nsight Compute exports the model's
 * grid_bound is within 1.74 points of the measured achieved occupancy
 * wherever the grid explains the gap (docs/ncu.md has the table;
 * tests/test_achieved_gap.c and tests/test_ncu.c check it).
 */
#include "occ_internal.h"

/* A gap below 2 points of occupancy is not given a cause: it is within the
   model's own error where the grid explains a gap (at most 1.74 points on
   the PyTorch and Triton exports, docs/ncu.md). */
#define NEGLIGIBLE_GAP 0.02

/* Grids beyond this many blocks are not a launch (2^31 - 1 blocks in x
   times 65,535 in y and z is below it). */
#define MAX_GRID_BLOCKS ((long long)1 << 62)

static long long min_ll(long long a, long long b)
{
    return a < b ? a : b;
}

static int is_fraction(double x)
{
    return x >= 0.0 && x <= 1.0; /* false for NaN */
}

static occ_status check_input(const occ_gap_input *in, occ_error *err)
{
    if (in->blocks_per_sm < 0) {
        return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "blocks_per_sm",
                         "blocks_per_sm must not be negative");
    }
    if (in->warps_per_block < 1 || in->max_warps_per_sm < 1 ||
        in->warps_per_block > in->max_warps_per_sm) {
        return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "warps_per_block",
                         "warps_per_block must be 1 to max_warps_per_sm, and max_warps_per_sm "
                         "at least 1");
    }
    if (in->sm_count < 0) {
        return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "sm_count",
                         "sm_count must not be negative (0: unknown)");
    }
    if (in->grid_blocks < 0 || in->grid_blocks > MAX_GRID_BLOCKS) {
        return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "grid_blocks",
                         "grid_blocks must be 0 (unknown) to 2^62");
    }
    if (in->cluster_size < 0 || in->active_clusters < 0) {
        return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "cluster_size",
                         "cluster_size and active_clusters must not be negative");
    }
    if (!is_fraction(in->theoretical)) {
        return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "theoretical",
                         "theoretical occupancy must be 0 to 1");
    }
    if (in->achieved_measured && !is_fraction(in->achieved)) {
        return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "achieved",
                         "achieved occupancy must be 0 to 1");
    }
    return OCC_OK;
}

occ_status occ_achieved_gap(const occ_gap_input *in, occ_gap_result *out, occ_error *err)
{
    if (in == NULL || out == NULL) {
        return occ__fail(err, OCC_ERR_NULL_POINTER, in == NULL ? "in" : "out",
                         in == NULL ? "in is NULL" : "out is NULL");
    }
    *out = (occ_gap_result){0};
    occ_status st = check_input(in, err);
    if (st != OCC_OK) {
        return st;
    }
    out->grid_blocks = in->grid_blocks;
    out->gap = in->achieved_measured ? in->theoretical - in->achieved : 0.0;
    long long sms = in->sm_count;
    long long blocks = in->blocks_per_sm;
    if (sms == 0 || blocks == 0 || in->grid_blocks == 0) {
        out->cause = in->achieved_measured ? OCC_GAP_NO_GRID : OCC_GAP_NOT_MEASURED;
        return OCC_OK;
    }
    double per_warp = (double)in->warps_per_block / (double)in->max_warps_per_sm;
    long long wave = blocks * sms;
    long long cluster_slots = (long long)in->active_clusters * in->cluster_size;
    if (in->cluster_size > 1 && in->active_clusters > 0 && cluster_slots < wave) {
        wave = cluster_slots;
    }
    long long waves = (in->grid_blocks + wave - 1) / wave;
    long long last = in->grid_blocks - (waves - 1) * wave;
    out->wave_blocks = wave;
    out->full_waves = last == wave ? waves : waves - 1;
    out->last_wave_blocks = last;
    out->active_sms = (int)min_ll(sms, min_ll(wave, in->grid_blocks));
    /* a full wave's blocks per active SM, then the whole launch's */
    double full = (double)wave / (double)min_ll(sms, wave) * per_warp;
    double active_time =
        (double)(waves - 1) * (double)min_ll(sms, wave) + (double)min_ll(sms, last);
    out->grid_bound = (double)in->grid_blocks / active_time * per_warp;
    out->cluster_loss = in->theoretical - full > 1e-12 ? in->theoretical - full : 0.0;
    double grid_loss = full - out->grid_bound > 1e-12 ? full - out->grid_bound : 0.0;
    if (waves == 1) {
        out->small_grid_loss = grid_loss;
    } else {
        out->tail_loss = grid_loss;
    }
    if (!in->achieved_measured) {
        out->cause = OCC_GAP_NOT_MEASURED;
        return OCC_OK;
    }
    out->in_kernel = out->grid_bound - in->achieved;
    if (out->gap < NEGLIGIBLE_GAP) {
        out->cause = OCC_GAP_NONE;
        return OCC_OK;
    }
    struct {
        double loss;
        occ_gap_cause cause;
    } parts[] = {{out->cluster_loss, OCC_GAP_CLUSTERS},
                 {out->small_grid_loss, OCC_GAP_SMALL_GRID},
                 {out->tail_loss, OCC_GAP_TAIL},
                 {out->in_kernel, OCC_GAP_IN_KERNEL}};
    out->cause = OCC_GAP_IN_KERNEL;
    double largest = -1.0;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        if (parts[i].loss > largest) {
            largest = parts[i].loss;
            out->cause = parts[i].cause;
        }
    }
    return OCC_OK;
}

const char *occ_gap_cause_name(occ_gap_cause cause)
{
    switch (cause) {
    case OCC_GAP_NONE: return "none";
    case OCC_GAP_SMALL_GRID: return "small_grid";
    case OCC_GAP_TAIL: return "tail";
    case OCC_GAP_CLUSTERS: return "clusters";
    case OCC_GAP_IN_KERNEL: return "in_kernel";
    case OCC_GAP_NOT_MEASURED: return "not_measured";
    case OCC_GAP_NO_GRID: return "no_grid";
    default: return "unknown";
    }
}
