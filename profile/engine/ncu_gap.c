/*
 * ncu_gap.c - libocc's achieved-occupancy gap model (occ_achieved_gap,
 * src/achieved_gap.c) for a launch read from Nsight Compute: the grid from
 * the export, the active clusters from the export where it has them (what
 * the launch got), else from the check's libocc figure.
 */
#include <math.h>
#include <string.h>

#include "prof_ncu.h"

occ_status occ_profile_ncu_gap_compute(const occ_profile_ncu_launch *l,
                                       const occ_profile_ncu_check *c, occ_gap_result *out,
                                       occ_profile_error *err)
{
    const occ_result *r = &c->result;
    double grid = l->v[OCC_PROFILE_NCU_GRID_SIZE].value;
    occ_gap_input in = {
        .blocks_per_sm = r->blocks_per_sm,
        .warps_per_block = r->warps_per_block,
        .max_warps_per_sm = r->max_warps_per_sm,
        .sm_count = c->sm_count > 0 ? c->sm_count : 0,
        .grid_blocks = grid >= 1 && grid < 9e15 ? (long long)floor(grid + 0.5) : 0,
        .cluster_size = c->has_clusters ? c->cluster_size : 0,
        .active_clusters =
            c->ncu_max_active_clusters >= 0 ? c->ncu_max_active_clusters : c->max_active_clusters,
        .theoretical = c->theoretical,
        .achieved = c->achieved,
        .achieved_measured = c->has_achieved,
    };
    if (in.active_clusters < 0) {
        in.active_clusters = 0;
    }
    occ_error e;
    occ_status st = occ_achieved_gap(&in, out, &e);
    if (st != OCC_OK) {
        ncu_fail_status(err, st, "line %lld: launch ID %lld: the gap model refused the launch: %s",
                        l->line, l->id, e.message);
        return st;
    }
    return OCC_OK;
}
