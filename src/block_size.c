/*
 * block_size.c - the occupancy API's launch helpers: the block size
 * cudaOccupancyMaxPotentialBlockSize picks, and the dynamic shared memory
 * cudaOccupancyAvailableDynamicSMemPerBlock reports (plus what truly fits).
 */
#include "occ_internal.h"

occ_status occ_max_potential_block_size(const occ_device *d, const occ_kernel *kernel,
                                        int block_size_limit, occ_smem_for_block_fn smem_for_block,
                                        void *context, occ_block_size_result *out, occ_error *err)
{
    if (d == NULL || kernel == NULL || out == NULL) {
        return occ__fail(err, OCC_ERR_NULL_POINTER, "block_size", "an argument is NULL");
    }
    if (block_size_limit < 0) {
        return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "block_size_limit",
                         "block_size_limit: must be 0 (no limit) or a thread count");
    }
    occ_kernel k = *kernel;
    occ_status status = occ_kernel_validate(d, &k, err);
    if (status != OCC_OK) {
        return status;
    }

    /* The limit is the smallest of the caller's, the device's and the
       kernel's launch bounds (cuda_runtime.h's implementation). */
    int limit = block_size_limit == 0 ? d->max_threads_per_block : block_size_limit;
    if (d->max_threads_per_block < limit) {
        limit = d->max_threads_per_block;
    }
    if (k.max_threads_per_block > 0 && k.max_threads_per_block < limit) {
        limit = k.max_threads_per_block;
    }
    const int granularity = d->warp_size_threads;
    const int limit_aligned = ((limit + granularity - 1) / granularity) * granularity;

    int best_size = 0;
    int best_blocks = 0;
    int best_threads = 0;
    /* From the largest size down in warp steps; the first size to reach the
       most resident threads wins, so ties go to the larger block. */
    for (int aligned = limit_aligned; aligned > 0; aligned -= granularity) {
        int size = aligned < limit ? aligned : limit;
        k.block_x = size;
        k.block_y = 1;
        k.block_z = 1;
        if (smem_for_block != NULL) {
            size_t dyn = smem_for_block(size, context);
            if (dyn > (size_t)OCC_UNLIMITED) {
                return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "dyn_smem",
                                 "dyn_smem: the per-block shared memory function returned "
                                 "more than 2147483647 bytes");
            }
            k.dyn_smem_bytes = (int)dyn;
        }
        occ_result r;
        status = occ_calc(d, &k, &r, err);
        if (status != OCC_OK) {
            return status;
        }
        int threads = size * r.blocks_per_sm;
        if (threads > best_threads) {
            best_size = size;
            best_blocks = r.blocks_per_sm;
            best_threads = threads;
        }
        if (best_threads == d->max_threads_per_sm) {
            break;
        }
    }
    out->block_size = best_size;
    out->blocks_per_sm = best_blocks;
    out->min_grid_size = best_blocks * d->sm_count;
    out->occupancy = (double)(best_blocks * ((best_size + granularity - 1) / granularity)) /
                     (double)occ_device_max_warps_per_sm(d);
    return OCC_OK;
}

/* The driver's answer: shared memory per SM split evenly, capped [OCH]. */
static long long driver_available(const occ_device *d, const occ_kernel *k, int num_blocks)
{
    long long max_dyn = occ__max_dyn_smem(d, k);
    /* Asked with the whole SM as the candidate usage, so an opted-in kernel
       always gets the opt-in limit [OCH]. */
    long long per_block = occ__smem_block_limit(d, k, d->smem_per_sm_bytes);

    long long smem_sm;
    if (num_blocks == 1) {
        /* One block may use everything a block may have. */
        smem_sm = per_block;
    } else {
        smem_sm = occ__smem_preferred(d, k->carveout_percent);
        if (smem_sm == 0) {
            /* A zero preference counts as the smallest non-zero step. */
            smem_sm = occ__carveout_align_up(d, 1);
        }
    }
    long long avail = smem_sm / num_blocks;
    avail = (avail / d->smem_alloc_unit_bytes) * d->smem_alloc_unit_bytes;
    if (avail > per_block) {
        avail = per_block;
    }
    /* The header subtracts in size_t: a negative difference wraps to a huge
       value, which the opt-in cap below then clips. */
    avail -= k->static_smem_bytes;
    if (avail < 0 || avail > max_dyn) {
        avail = max_dyn;
    }
    return avail;
}

occ_status occ_dyn_smem_available(const occ_device *d, const occ_kernel *kernel, int num_blocks,
                                  int block_size, occ_dyn_smem_result *out, occ_error *err)
{
    if (d == NULL || kernel == NULL || out == NULL) {
        return occ__fail(err, OCC_ERR_NULL_POINTER, "dyn_smem", "an argument is NULL");
    }
    if (num_blocks < 1) {
        return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "num_blocks",
                         "num_blocks: must be at least 1");
    }
    occ_kernel k = *kernel;
    k.block_x = block_size;
    k.block_y = 1;
    k.block_z = 1;
    k.dyn_smem_bytes = 0;
    occ_result r;
    occ_status status = occ_calc(d, &k, &r, err);
    if (status != OCC_OK) {
        return status;
    }
    if (r.blocks_per_sm < num_blocks) {
        if (err != NULL) {
            occ_msg m;
            err->field = "num_blocks";
            err->status = OCC_ERR_NOT_FOUND;
            occ__msg_begin(&m, err->message, sizeof err->message);
            occ__msg_str(&m, "num_blocks ");
            occ__msg_int(&m, num_blocks);
            occ__msg_str(&m, ": only ");
            occ__msg_int(&m, r.blocks_per_sm);
            occ__msg_str(&m, r.blocks_per_sm == 1 ? " block of " : " blocks of ");
            occ__msg_int(&m, block_size);
            occ__msg_str(&m, block_size == 1 ? " thread" : " threads");
            occ__msg_str(&m, r.blocks_per_sm == 1 ? " fits" : " fit");
            occ__msg_str(&m, " per SM even without dynamic shared memory");
        }
        return OCC_ERR_NOT_FOUND;
    }
    long long driver = driver_available(d, &k, num_blocks);
    out->driver_bytes = (int)driver;

    /* The true answer: the largest size at which num_blocks still fit.
       Resident blocks never rise as dynamic memory grows, so bisect. */
    int lo = 0;
    int hi = (int)driver;
    k.dyn_smem_bytes = hi;
    status = occ_calc(d, &k, &r, err);
    if (status != OCC_OK) {
        return status;
    }
    if (r.blocks_per_sm >= num_blocks) {
        lo = hi;
    }
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        k.dyn_smem_bytes = mid;
        status = occ_calc(d, &k, &r, err);
        if (status != OCC_OK) {
            return status;
        }
        if (r.blocks_per_sm >= num_blocks) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    out->fitting_bytes = lo;
    return OCC_OK;
}
