/*
 * ncu_gap.c - why a launch's achieved occupancy is below its theoretical.
 *
 * Nsight's achieved occupancy (sm__warps_active.avg.pct_of_peak_sustained_
 * active) counts resident warps over the cycles each SM is active, so an SM
 * with no block does not lower it, while an SM with fewer blocks than it
 * could hold does. The model: blocks of equal duration run in waves of
 * `wave_blocks` (blocks per SM x SMs, or fewer where clusters cannot fill
 * every slot), each wave's blocks spread over the SMs. Then
 *
 *   grid_bound = grid x warps per block
 *                / ((waves - 1) x min(SMs, wave) + min(SMs, last wave))
 *                / max warps per SM
 *
 * and theoretical - achieved splits into what clusters leave empty, what
 * the grid leaves empty (a grid below one wave, or a partial last wave), and
 * the rest, which happens inside the kernel (warps and blocks ending at
 * different times). On the H200 exports the model's grid_bound is within a
 * point of the measured achieved occupancy wherever the grid explains the
 * gap (docs/ncu.md shows the table).
 */
#include <math.h>
#include <string.h>

#include "prof_ncu.h"

/* A gap below 2 points of occupancy is not given a cause: it is within the
   model's own error where the grid explains a gap (at most 1.74 points on
   the PyTorch and Triton exports, docs/ncu.md). */
#define NEGLIGIBLE_GAP 0.02

const char *ncu_cause_name(ncu_cause cause)
{
    switch (cause) {
    case NCU_CAUSE_NONE: return "none";
    case NCU_CAUSE_SMALL_GRID: return "small_grid";
    case NCU_CAUSE_TAIL: return "tail";
    case NCU_CAUSE_CLUSTERS: return "clusters";
    case NCU_CAUSE_IN_KERNEL: return "in_kernel";
    case NCU_CAUSE_NOT_MEASURED: return "not_measured";
    case NCU_CAUSE_NO_GRID: return "no_grid";
    default: return "unknown";
    }
}

static long long min_ll(long long a, long long b)
{
    return a < b ? a : b;
}

/* The active clusters the waves use: Nsight's count where exported (it is
   what the launch got), else libocc's. */
static int active_clusters(const ncu_check *c)
{
    return c->ncu_max_active_clusters >= 0 ? c->ncu_max_active_clusters : c->max_active_clusters;
}

void ncu_gap_compute(const ncu_launch *l, const ncu_check *c, ncu_gap *g)
{
    memset(g, 0, sizeof *g);
    const occ_result *r = &c->result;
    double grid = l->v[NCU_GRID_SIZE].value;
    g->grid_blocks = grid >= 1 && grid < 9e15 ? (long long)floor(grid + 0.5) : 0;
    g->gap = c->has_achieved ? c->theoretical - c->achieved : 0.0;
    long long sms = c->sm_count;
    long long blocks = r->blocks_per_sm;
    if (sms <= 0 || blocks <= 0 || g->grid_blocks <= 0) {
        g->cause = c->has_achieved ? NCU_CAUSE_NO_GRID : NCU_CAUSE_NOT_MEASURED;
        return;
    }
    double per_warp = (double)r->warps_per_block / (double)r->max_warps_per_sm;
    long long wave = blocks * sms;
    int clusters = active_clusters(c);
    if (c->has_clusters && clusters > 0 && (long long)clusters * c->cluster_size < wave) {
        wave = (long long)clusters * c->cluster_size;
    }
    long long waves = (g->grid_blocks + wave - 1) / wave;
    long long last = g->grid_blocks - (waves - 1) * wave;
    g->wave_blocks = wave;
    g->full_waves = last == wave ? waves : waves - 1;
    g->last_wave_blocks = last;
    g->active_sms = (int)min_ll(sms, min_ll(wave, g->grid_blocks));
    /* a full wave's blocks per active SM, then the whole launch's */
    double full = (double)wave / (double)min_ll(sms, wave) * per_warp;
    double active_time =
        (double)(waves - 1) * (double)min_ll(sms, wave) + (double)min_ll(sms, last);
    g->grid_bound = (double)g->grid_blocks / active_time * per_warp;
    g->cluster_loss = c->theoretical - full > 1e-12 ? c->theoretical - full : 0.0;
    double grid_loss = full - g->grid_bound > 1e-12 ? full - g->grid_bound : 0.0;
    if (waves == 1) {
        g->small_grid_loss = grid_loss;
    } else {
        g->tail_loss = grid_loss;
    }
    if (!c->has_achieved) {
        g->cause = NCU_CAUSE_NOT_MEASURED;
        return;
    }
    g->in_kernel = g->grid_bound - c->achieved;
    if (g->gap < NEGLIGIBLE_GAP) {
        g->cause = NCU_CAUSE_NONE;
        return;
    }
    struct {
        double loss;
        ncu_cause cause;
    } parts[] = {{g->cluster_loss, NCU_CAUSE_CLUSTERS},
                 {g->small_grid_loss, NCU_CAUSE_SMALL_GRID},
                 {g->tail_loss, NCU_CAUSE_TAIL},
                 {g->in_kernel, NCU_CAUSE_IN_KERNEL}};
    g->cause = NCU_CAUSE_IN_KERNEL;
    double largest = -1.0;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        if (parts[i].loss > largest) {
            largest = parts[i].loss;
            g->cause = parts[i].cause;
        }
    }
}
