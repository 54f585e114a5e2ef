/*
 * plan.c - the caps worth compiling. Resident blocks never rise as the
 * registers per thread grow (occ_calc), so the blocks a launch gets are a
 * staircase over the register count: the caps worth a compile are its
 * steps, the largest register count at which each block count fits. Below
 * the unconstrained compile's registers, a cap between two steps costs what
 * the lower step costs in spills, at best, and buys no more blocks than the
 * higher one. Above them, ptxas given more registers than it takes
 * unconstrained uses them, and can be faster at the same or fewer blocks
 * (dot32 22.6% at cap 64 against its 48 registers uncapped, on the H200:
 * docs/results/regs-h200); the most registers each block count allows is
 * the cap that gives it the most room.
 */
#include <string.h>

#include "regs_internal.h"

bool regs_occupancy(const regs_launch *l, int regs, occ_result *out)
{
    occ_kernel k;
    occ_kernel_init(&k);
    k.block_x = l->threads;
    k.regs_per_thread = regs;
    k.static_smem_bytes = l->smem_bytes;
    k.dyn_smem_bytes = l->dyn_smem_bytes;
    if (l->barriers != OCC_INSPECT_UNKNOWN) {
        k.barriers = l->barriers;
    }
    if (l->max_threads > 0 && l->max_threads <= l->device->max_threads_per_block) {
        k.max_threads_per_block = l->max_threads;
    }
    return occ_calc(l->device, &k, out, NULL) == OCC_OK;
}

static int blocks_at(const regs_launch *l, int regs)
{
    occ_result r;
    return regs_occupancy(l, regs, &r) ? r.blocks_per_sm : 0;
}

/* The largest register count in [1, hi] at which at least `blocks` fit; 0
   when even one register per thread does not give them. */
static int largest_regs_for(const regs_launch *l, int blocks, int hi)
{
    if (blocks_at(l, 1) < blocks) {
        return 0;
    }
    int lo = 1; /* fits */
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (blocks_at(l, mid) >= blocks) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    return lo;
}

int regs_staircase_caps(const regs_launch *l, int regs, int *caps, int cap_max)
{
    int max_regs = l->device->max_regs_per_thread;
    if (regs > max_regs) {
        regs = max_regs;
    }
    int n = 0;
    int have = blocks_at(l, regs);
    int top = regs_max_blocks(l);
    for (int k = have + 1; k <= top && n < cap_max; k++) {
        int cap = largest_regs_for(l, k, regs);
        if (cap == 0) {
            break;
        }
        /* a step that gives more than k blocks covers k too */
        if (n > 0 && caps[n - 1] == cap) {
            continue;
        }
        caps[n++] = cap;
    }
    return n;
}

int regs_step_tops_above(const regs_launch *l, int regs, int *caps, int cap_max)
{
    int max_regs = l->device->max_regs_per_thread;
    int n = 0;
    for (int k = blocks_at(l, regs); k >= 1 && n < cap_max; k--) {
        int top = largest_regs_for(l, k, max_regs);
        if (top <= regs || (n > 0 && caps[n - 1] == top)) {
            continue; /* at or below the uncompiled count, or a step of more blocks */
        }
        caps[n++] = top;
    }
    /* lowest first as found: highest first as the other lists */
    for (int i = 0; i < n / 2; i++) {
        int t = caps[i];
        caps[i] = caps[n - 1 - i];
        caps[n - 1 - i] = t;
    }
    return n;
}

int regs_max_blocks(const regs_launch *l)
{
    return blocks_at(l, 1);
}
