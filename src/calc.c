/*
 * calc.c - resident blocks per SM, computed the way the CUDA driver does
 * (cudaOccupancyMaxActiveBlocksPerMultiprocessor), with every limit kept.
 *
 * The rules follow the CUDA 13.0 toolkit's cuda_occupancy.h, which matched
 * the H200 driver on every row of tests/data/h200-driver/h200-driver-occupancy.csv.gz;
 * tests/test_header_oracle.c holds this file to that header on over a
 * million configurations across every compute capability.
 */
#include "occ_internal.h"

/* Threads per warp. occ_device_validate accepts no other value, so the
   warp arithmetic below is shifts, not divisions. */
#define WARP 32

/* x rounded up to a multiple of unit; x and unit are non-negative ints
   whose sum fits. Allocation units are powers of two on every GPU, so the
   common case is a mask, not a division (this runs millions of times in a
   batch or a sweep). */
static int round_up(int x, int unit)
{
    if ((unit & (unit - 1)) == 0) {
        return (x + unit - 1) & ~(unit - 1);
    }
    return ((x + unit - 1) / unit) * unit;
}

static occ_status fail_value(occ_error *err, const occ_device *d, const char *field,
                             long long value, const char *what, long long limit, const char *unit)
{
    if (err != NULL) {
        char label[96];
        occ_msg m;
        occ__device_label(d, label, sizeof label);
        err->field = field;
        err->status = OCC_ERR_INVALID_ARGUMENT;
        occ__msg_begin(&m, err->message, sizeof err->message);
        occ__msg_str(&m, field);
        occ__msg_str(&m, " ");
        occ__msg_int(&m, value);
        occ__msg_str(&m, what);
        if (limit >= 0) {
            occ__msg_int(&m, limit);
        }
        occ__msg_str(&m, unit);
        occ__msg_str(&m, label);
    }
    return OCC_ERR_INVALID_ARGUMENT;
}

void occ_kernel_init(occ_kernel *k)
{
    k->block_x = 1;
    k->block_y = 1;
    k->block_z = 1;
    k->regs_per_thread = 0;
    k->static_smem_bytes = 0;
    k->dyn_smem_bytes = 0;
    k->max_threads_per_block = 0;
    k->barriers = 1; /* cudaOccFuncAttributes' converting constructor [OCH] */
    k->carveout_percent = OCC_CARVEOUT_DEFAULT;
    k->max_dyn_smem_bytes = OCC_DYN_SMEM_OPTIN_MAX;
    k->partitioned_gc = OCC_PGC_OFF;
    k->smem_config_bytes = 0;
    k->cluster_x = 0; /* no clusters: an ordinary launch */
    k->cluster_y = 1;
    k->cluster_z = 1;
    k->cluster_non_portable = false;
    k->cluster_policy = OCC_CLUSTER_POLICY_DEFAULT;
    k->max_blocks_per_cluster = 0;
}

/* One pass over the usual case, so occ_calc pays for the full checks and
   their messages only when something is out of range. Unsigned compares
   fold each "lo <= x <= hi" into one test. */
static bool kernel_plainly_valid(const occ_device *d, const occ_kernel *k)
{
    return k->block_y == 1 && k->block_z == 1 &&
           (unsigned)(k->block_x - 1) < (unsigned)d->max_threads_per_block &&
           (unsigned)k->regs_per_thread <= (unsigned)d->max_regs_per_thread &&
           (unsigned)k->static_smem_bytes <= (unsigned)d->smem_per_block_bytes &&
           k->dyn_smem_bytes >= 0 && k->max_threads_per_block >= 0 &&
           (unsigned)k->barriers <= 16u && (unsigned)(k->carveout_percent + 1) <= 101u &&
           (k->max_dyn_smem_bytes == OCC_DYN_SMEM_OPTIN_MAX ||
            k->max_dyn_smem_bytes == OCC_DYN_SMEM_NO_OPTIN) &&
           (unsigned)k->partitioned_gc <= (unsigned)OCC_PGC_ON_STRICT && k->smem_config_bytes == 0;
}

occ_status occ_kernel_validate(const occ_device *d, const occ_kernel *k, occ_error *err)
{
    if (d == NULL || k == NULL) {
        return occ__fail(err, OCC_ERR_NULL_POINTER, "kernel", "device or kernel is NULL");
    }
    if (k->block_x < 1 || k->block_y < 1 || k->block_z < 1) {
        return fail_value(err, d, "threads",
                          k->block_x < 1   ? k->block_x
                          : k->block_y < 1 ? k->block_y
                                           : k->block_z,
                          ": every block dimension must be at least 1", -1, " on ");
    }
    /* Each dimension is at most INT_MAX, so x*y fits; cap before z. */
    long long threads = (long long)k->block_x * k->block_y;
    threads = threads > d->max_threads_per_block ? threads : threads * k->block_z;
    if (threads > d->max_threads_per_block) {
        return fail_value(err, d, "threads", threads, " exceed the ", d->max_threads_per_block,
                          " per block of ");
    }
    /* [PG] maximum z dimension of a block: 64 (x and y: 1024, covered above). */
    if (k->block_z > 64) {
        return fail_value(err, d, "block_z", k->block_z, ": must be 1 to ", 64, " on ");
    }
    if (k->regs_per_thread < 0 || k->regs_per_thread > d->max_regs_per_thread) {
        return fail_value(err, d, "regs", k->regs_per_thread, ": must be 0 to ",
                          d->max_regs_per_thread, " registers per thread on ");
    }
    if (k->static_smem_bytes < 0 || k->static_smem_bytes > d->smem_per_block_bytes) {
        /* ptxas caps static __shared__ data at the default per-block limit. */
        return fail_value(err, d, "smem", k->static_smem_bytes,
                          ": static shared memory must be 0 to ", d->smem_per_block_bytes,
                          " bytes (no opt-in for static data) on ");
    }
    if (k->dyn_smem_bytes < 0) {
        return fail_value(err, d, "dyn_smem", k->dyn_smem_bytes, ": must be 0 or more bytes", -1,
                          " on ");
    }
    if (k->max_threads_per_block < 0) {
        return fail_value(err, d, "max_threads", k->max_threads_per_block,
                          ": must be 0 (no launch bounds) or a thread count", -1, " on ");
    }
    /* A hardware barrier count: bar.sync takes ids 0..15 [PTX ISA]. */
    if (k->barriers < 0 || k->barriers > 16) {
        return fail_value(err, d, "barriers", k->barriers, ": must be 0 to ", 16,
                          " block barriers on ");
    }
    if (k->carveout_percent < OCC_CARVEOUT_DEFAULT || k->carveout_percent > 100) {
        return fail_value(err, d, "carveout", k->carveout_percent,
                          ": must be -1 (default) or a percentage 0 to ", 100, " on ");
    }
    if (k->smem_config_bytes < 0 || k->smem_config_bytes > d->smem_per_sm_bytes) {
        return fail_value(err, d, "smem_config", k->smem_config_bytes,
                          ": the shared memory configuration must be 0 (from the carveout) to ",
                          d->smem_per_sm_bytes, " bytes on ");
    }
    /* The largest opt-in a kernel may set: cudaFuncSetAttribute refuses more. */
    int optin_ceiling = d->smem_per_block_optin_bytes - k->static_smem_bytes;
    if (k->max_dyn_smem_bytes < OCC_DYN_SMEM_NO_OPTIN || k->max_dyn_smem_bytes > optin_ceiling) {
        return fail_value(err, d, "max_dyn_smem", k->max_dyn_smem_bytes,
                          ": the opt-in must be at most ", optin_ceiling,
                          " bytes (the opt-in maximum less static shared memory) on ");
    }
    if (k->partitioned_gc < OCC_PGC_OFF || k->partitioned_gc > OCC_PGC_ON_STRICT) {
        return fail_value(err, d, "partitioned_gc", (long long)k->partitioned_gc,
                          ": must be 0 (off), 1 (on) or 2 (strict)", -1, " on ");
    }
    return OCC_OK;
}

/*
 * Blocks the register file holds, split over `sub_partitions` schedulers.
 * May turn partitioned caching off, as the driver does when a block cannot
 * fit in half an SM. Returns 0 with *too_big set when one block needs more
 * registers than a block may hold (the launch fails).
 */
static inline int regs_limit(const occ_device *d, int regs_per_warp, int warps_per_block,
                             int sub_partitions, occ_partitioned_gc *gc, int *warps_by_regs,
                             bool *too_big)
{
    /* At most 255 x 32 rounded up, times at most 2048 warps: fits an int. */
    int regs_per_block = regs_per_warp * warps_per_block;
    /* The hardware checks a block as if its warps were spread over every
       sub-partition at once, so the warp count rounds up to them [OCH]. */
    int regs_assumed = regs_per_warp * round_up(warps_per_block, sub_partitions);
    *warps_by_regs = 0;
    *too_big = regs_assumed > d->regs_per_block || regs_per_block > d->regs_per_block;
    if (*too_big) {
        return 0;
    }
    if (regs_per_warp == 0) {
        *warps_by_regs = d->max_threads_per_sm / WARP;
        return OCC_UNLIMITED;
    }
    int warps_per_sub = (d->regs_per_sm / sub_partitions) / regs_per_warp;
    *warps_by_regs = warps_per_sub * sub_partitions;
    int blocks = 0;
    if (*gc != OCC_PGC_OFF) {
        /* With partitioned caching a block lives in one half of the SM. */
        int warps_per_half = warps_per_sub * (sub_partitions / 2);
        blocks = (warps_per_half / warps_per_block) * 2;
    }
    if (blocks == 0 && *gc != OCC_PGC_ON_STRICT) {
        *gc = OCC_PGC_OFF;
        blocks = *warps_by_regs / warps_per_block;
    }
    return blocks;
}

static void smem_limit(const occ_device *d, const occ_kernel *k, occ_result *r,
                       occ_zero_reason *zero)
{
    /* Device sizes are below 2^28 (occ_device_validate); only a dynamic size
       near INT_MAX could overflow, and such a block never fits. */
    int static_total = k->static_smem_bytes + d->smem_reserved_per_block_bytes;
    int alloc = OCC_UNLIMITED;
    if (k->dyn_smem_bytes <= OCC_UNLIMITED - static_total - d->smem_alloc_unit_bytes) {
        alloc = round_up(static_total + k->dyn_smem_bytes, d->smem_alloc_unit_bytes);
    }
    bool optin = k->max_dyn_smem_bytes != OCC_DYN_SMEM_NO_OPTIN;
    int max_dyn = occ__max_dyn_smem(d, k);
    int per_block = occ__smem_block_limit(d, k, (long long)static_total + max_dyn);

    int preferred = occ__smem_preferred(d, k->carveout_percent);
    if (k->smem_config_bytes > 0) {
        preferred = d->carveout_step_count > 0 ? occ__carveout_align_up(d, k->smem_config_bytes)
                                               : d->smem_per_sm_bytes;
    }
    r->smem_preferred_bytes = preferred;
    r->smem_per_sm_bytes = preferred;
    r->smem_per_block_limit_bytes = per_block;
    r->smem_per_block_allocated_bytes = alloc;
    r->needs_optin = (long long)k->static_smem_bytes + k->dyn_smem_bytes > d->smem_per_block_bytes;

    if (optin && k->dyn_smem_bytes > max_dyn) {
        r->limit_shared_mem = 0;
        *zero = OCC_ZERO_DYN_SMEM_OPTIN;
        return;
    }
    if (alloc > per_block) {
        r->limit_shared_mem = 0;
        *zero = OCC_ZERO_SMEM_PER_BLOCK;
        return;
    }
    /* The preference holds while one block fits in it; otherwise the driver
       configures the smallest step that holds the block [OCH]. */
    int smem_sm = preferred;
    if (preferred < alloc) {
        smem_sm =
            d->carveout_step_count > 0 ? occ__carveout_align_up(d, alloc) : d->smem_per_sm_bytes;
    }
    r->smem_per_sm_bytes = smem_sm;
    r->limit_shared_mem = alloc > 0 ? smem_sm / alloc : OCC_UNLIMITED;
}

occ_status occ_calc(const occ_device *d, const occ_kernel *k, occ_result *result, occ_error *err)
{
    if (result == NULL) {
        return occ__fail(err, OCC_ERR_NULL_POINTER, "result", "result is NULL");
    }
    if (d == NULL || k == NULL || !kernel_plainly_valid(d, k)) {
        occ_status status = occ_kernel_validate(d, k, err);
        if (status != OCC_OK) {
            return status;
        }
    }
    occ__calc_unchecked(d, k, result);
    return OCC_OK;
}

void occ__calc_unchecked(const occ_device *d, const occ_kernel *k, occ_result *result)
{
    /* Work in a local result: stores to the caller's struct could alias the
       device's ints, which would make the compiler reload them after every
       store. One copy at the end is cheaper. */
    occ_result local;
    occ_result *r = &local;
    const int threads = k->block_x * k->block_y * k->block_z;
    const int warps_per_block = (threads + WARP - 1) / WARP;
    const int max_warps = d->max_threads_per_sm / WARP;
    occ_partitioned_gc gc = d->partitioned_gc ? k->partitioned_gc : OCC_PGC_OFF;
    occ_zero_reason zero = OCC_ZERO_NONE;

    r->threads_per_block = threads;
    r->warps_per_block = warps_per_block;
    r->max_warps_per_sm = max_warps;

    /* Registers: allocated per warp, warps placed per sub-partition. */
    int regs_per_warp = round_up(k->regs_per_thread * WARP, d->reg_alloc_unit);
    r->regs_per_warp_allocated = regs_per_warp;
    r->regs_per_block_allocated = regs_per_warp * warps_per_block;
    bool too_big;
    r->limit_registers = regs_limit(d, regs_per_warp, warps_per_block, d->sub_partitions_per_sm,
                                    &gc, &r->warps_per_sm_by_regs, &too_big);
    if (r->limit_registers > 0 && d->reg_fit_sub_partitions > 0) {
        /* GP100: a block that could not run on GP10x may not run here. */
        occ_partitioned_gc gc_other = gc;
        int unused_warps;
        bool unused_too_big;
        if (regs_limit(d, regs_per_warp, warps_per_block, d->reg_fit_sub_partitions, &gc_other,
                       &unused_warps, &unused_too_big) == 0) {
            r->limit_registers = 0;
        }
    }
    if (r->limit_registers == 0) {
        zero = too_big ? OCC_ZERO_REGS_PER_BLOCK : OCC_ZERO_REGS_PER_SM;
    }

    /* Warp slots: half of them per block when partitioned caching is on. */
    if (gc != OCC_PGC_OFF) {
        r->limit_warps = ((max_warps / 2) / warps_per_block) * 2;
    } else {
        r->limit_warps = max_warps / warps_per_block;
    }
    r->limit_blocks = d->max_blocks_per_sm;

    occ_zero_reason smem_zero = OCC_ZERO_NONE;
    smem_limit(d, k, r, &smem_zero);
    if (zero == OCC_ZERO_NONE) {
        zero = smem_zero;
    }

    /* Block barriers limit residency from 9.0 on, counted per block slot. */
    r->limit_barriers = OCC_UNLIMITED;
    if (d->barriers_per_block_slot > 0 && k->barriers > 0) {
        r->limit_barriers = d->max_blocks_per_sm * d->barriers_per_block_slot / k->barriers;
    }

    int blocks = r->limit_warps;
    blocks = r->limit_registers < blocks ? r->limit_registers : blocks;
    blocks = r->limit_shared_mem < blocks ? r->limit_shared_mem : blocks;
    blocks = r->limit_blocks < blocks ? r->limit_blocks : blocks;
    blocks = r->limit_barriers < blocks ? r->limit_barriers : blocks;
    r->limiters = 0;
    r->limiters |= r->limit_warps == blocks ? OCC_LIMITER_WARPS : 0u;
    r->limiters |= r->limit_registers == blocks ? OCC_LIMITER_REGISTERS : 0u;
    r->limiters |= r->limit_shared_mem == blocks ? OCC_LIMITER_SHARED_MEM : 0u;
    r->limiters |= r->limit_blocks == blocks ? OCC_LIMITER_BLOCKS : 0u;
    r->limiters |= r->limit_barriers == blocks ? OCC_LIMITER_BARRIERS : 0u;

    /* cudaOccupancyMaxActiveBlocksPerMultiprocessor answers for a block
       above the kernel's launch bounds as if there were none (measured on
       an H200, driver 580: docs/results/h200-driver-probe/), so occ does
       too, and says that such a launch fails. */
    r->exceeds_launch_bounds = k->max_threads_per_block > 0 && threads > k->max_threads_per_block;
    r->zero_reason = blocks > 0 ? OCC_ZERO_NONE : zero;
    r->partitioned_gc_on = gc != OCC_PGC_OFF;
    r->blocks_per_sm = blocks;
    r->warps_per_sm = blocks * warps_per_block;
    r->threads_per_sm = blocks * threads;
    r->occupancy = (double)r->warps_per_sm / (double)max_warps;
    *result = local;
}
