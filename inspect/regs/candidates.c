/*
 * candidates.c - the caps worth timing. The rule (recommend.c) keeps no cap
 * unless a cap adds blocks for free, because ptxas's static counts cannot
 * say what a cap above the unconstrained registers buys: on the H200
 * (docs/results/regs-h200) ptxas given more registers than it takes
 * uncapped used them and ran faster on some kernels (dot32 22.6% at cap 64,
 * gemm_8x8 14% at cap 120, gemv 6.5% at cap 88, layernorm 5.5% at cap 112)
 * and slower on others (residency_ilp16 14% at cap 64). Timing a short list
 * instead finds a cap within 4.2% of the best for every one of the 25
 * kernels measured there (median 0%), where the rule alone is 22.6% off at
 * worst: no cap, and for each block count reached without spills the
 * highest cap giving it, one compile per register count ptxas used.
 */
#include "regs_internal.h"

/* Whether caps[i]'s registers are those of a candidate already taken. */
static bool same_registers(const occ_regs_point *caps, const int *out, int n, int i)
{
    for (int c = 0; c < n; c++) {
        if (caps[out[c]].regs == caps[i].regs) {
            return true;
        }
    }
    return false;
}

int occ_regs_candidates(const occ_regs_point *caps, int count, int *out, int max)
{
    int n = 0;
    if (count > 0 && max > 0 && occ_regs_point_runs(&caps[0])) {
        out[n++] = 0;
    }
    for (int i = 1; i < count && n < max; i++) {
        const occ_regs_point *p = &caps[i];
        if (!occ_regs_point_runs(p) || occ_regs_point_spill_bytes(p) > 0) {
            continue;
        }
        /* caps are highest first: a higher cap without spills giving the same
           blocks came before */
        bool higher = false;
        for (int j = 1; j < i && !higher; j++) {
            higher = occ_regs_point_runs(&caps[j]) && occ_regs_point_spill_bytes(&caps[j]) == 0 &&
                     caps[j].blocks_per_sm == p->blocks_per_sm;
        }
        if (!higher && !same_registers(caps, out, n, i)) {
            out[n++] = i;
        }
    }
    return n;
}
