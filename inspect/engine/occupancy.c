/*
 * occupancy.c - each kernel's occupancy, from libocc: occ_calc at the block
 * size asked for, or at the one occ_max_potential_block_size picks within the
 * kernel's launch bounds. Nothing is recomputed on the side.
 */
#include <stdio.h>

#include "engine.h"

/* Can a cubin for (sm, suffix) run on the device? Same major, minor not
   above the device's; an "a" cubin only on its exact arch (CUDA C
   Programming Guide, "Binary Compatibility" and "Feature Availability"). */
static bool runs_on(int sm, char suffix, const occ_device *d)
{
    int major = sm / 10;
    int minor = sm % 10;
    if (suffix == 'a') {
        return major == d->cc_major && minor == d->cc_minor;
    }
    return major == d->cc_major && minor <= d->cc_minor;
}

/* Threads in x*y*z (0 when x is 0), capped at 2^20; each dimension is capped
   first, so that three large ones cannot overflow the product. */
static int product(const int dims[3])
{
    if (dims[0] <= 0) {
        return 0;
    }
    long long p = 1;
    for (int d = 0; d < 3; d++) {
        long long v = dims[d] > 0 ? dims[d] : 1;
        p *= v < (1 << 20) ? v : (1 << 20);
    }
    return p > 1 << 20 ? 1 << 20 : (int)p;
}

const char inspect_note_wrong_arch[] = "arch does not run on this GPU";

void inspect_compute_occupancy(occ_inspect_kernel *row, const occ_inspect_options *opts)
{
    inspect_compute_occupancy_at(row, opts, opts->threads, opts->dyn_smem_bytes, NULL,
                                 OCC_CARVEOUT_DEFAULT);
    row->launch_source = opts->threads > 0 ? OCC_INSPECT_LAUNCH_THREADS : OCC_INSPECT_LAUNCH_API;
    row->launch_block[0] = row->has_occupancy ? row->threads : opts->threads;
    row->launch_block[1] = row->launch_block[2] = 1;
}

void inspect_compute_occupancy_at(occ_inspect_kernel *row, const occ_inspect_options *opts,
                                  int threads_asked, int dyn_smem_bytes, const int cluster[3],
                                  int carveout_percent)
{
    row->launch_carveout_percent = carveout_percent;
    row->launch_flags = 0;
    row->launch_index = -1;
    row->launch_dyn_smem_bytes = dyn_smem_bytes;
    for (int d = 0; d < 3; d++) {
        row->launch_cluster[d] = cluster != NULL ? cluster[d] : 0;
    }
    if (!row->is_kernel) {
        row->note = "device function";
        return;
    }
    occ_device dev;
    if (opts->device != NULL) {
        dev = *opts->device;
        if (!runs_on(row->sm, row->arch_suffix, &dev)) {
            row->note = inspect_note_wrong_arch;
            return;
        }
    } else if (occ_arch_find(row->sm / 10, row->sm % 10, &dev, NULL) != OCC_OK) {
        row->note = "arch not in the GPU database";
        return;
    }
    occ_kernel k;
    occ_kernel_init(&k);
    k.regs_per_thread = row->regs;
    k.static_smem_bytes = row->smem_bytes;
    k.dyn_smem_bytes = dyn_smem_bytes;
    k.carveout_percent = carveout_percent;
    if (row->barriers != OCC_INSPECT_UNKNOWN) {
        k.barriers = row->barriers;
    }
    int bound = product(row->max_threads);
    int required = product(row->req_threads);
    if (required > 0) {
        bound = required;
    }
    if (bound > 0 && bound <= dev.max_threads_per_block) {
        k.max_threads_per_block = bound;
    }
    int threads = threads_asked;
    if (threads == 0 && required > 0) {
        threads = required;
    }
    /* the launch at a given block size fails above the bound, or off
       .reqntid (cudaErrorInvalidValue); the API's pick keeps to both */
    int max_threads = product(row->max_threads);
    if (threads > 0 && max_threads > 0 && threads > max_threads) {
        row->launch_flags |= OCC_INSPECT_LAUNCH_OVER_BOUNDS;
    }
    if (threads > 0 && required > 0 && threads != required) {
        row->launch_flags |= OCC_INSPECT_LAUNCH_NOT_REQNTID;
    }
    if (threads == 0) {
        occ_block_size_result pick;
        if (occ_max_potential_block_size(&dev, &k, 0, NULL, NULL, &pick, NULL) != OCC_OK ||
            pick.block_size <= 0) {
            row->note = "no block size fits";
            return;
        }
        threads = pick.block_size;
    }
    k.block_x = threads;
    occ_result r;
    if (occ_calc(&dev, &k, &r, NULL) != OCC_OK) {
        row->note = "launch invalid on this GPU";
        return;
    }
    row->has_occupancy = true;
    snprintf(row->gpu, sizeof row->gpu, "%s", dev.name);
    row->threads = threads;
    row->max_active_clusters = -1;
    /* the launch's cluster (a profile records it), else the compiled one */
    const int *dims = cluster != NULL && cluster[0] > 0 ? cluster : row->cluster_dims;
    if (dims[0] > 0) {
        /* A kernel with __cluster_dims__ always launches as clusters, and a
           cluster launch holds at most 8 blocks per SM (occ_cluster_calc). */
        k.cluster_x = dims[0];
        k.cluster_y = dims[1] > 0 ? dims[1] : 1;
        k.cluster_z = dims[2] > 0 ? dims[2] : 1;
        /* (as long long: a baseline may hold any three ints) */
        k.cluster_non_portable =
            (long long)k.cluster_x * k.cluster_y * k.cluster_z > OCC_CLUSTER_PORTABLE_MAX;
        k.max_blocks_per_cluster = row->max_cluster_rank;
        occ_device counted = dev;
        if (counted.sm_count <= 0) {
            /* the per-SM cap needs no SM count; the cluster count does */
            counted.sm_count = 1;
            counted.gpc_count = 0;
        }
        occ_cluster_result c;
        if (occ_cluster_calc(&counted, &k, &c, NULL) != OCC_OK) {
            /* never the non-cluster figure in its place */
            row->launch_flags |= OCC_INSPECT_LAUNCH_CLUSTER;
            row->has_occupancy = false;
            row->note = "cluster dims cannot launch on this GPU";
            return;
        }
        if (c.launch_refused) {
            row->launch_flags |= OCC_INSPECT_LAUNCH_CLUSTER;
        }
        row->cluster_size = c.cluster_size;
        row->max_active_clusters = dev.sm_count > 0 ? c.max_active_clusters : -1;
        r.blocks_per_sm = c.blocks_per_sm;
        r.warps_per_sm = c.blocks_per_sm * r.warps_per_block;
        r.occupancy = (double)r.warps_per_sm / r.max_warps_per_sm;
    }
    row->blocks_per_sm = r.blocks_per_sm;
    row->warps_per_sm = r.warps_per_sm;
    row->max_warps_per_sm = r.max_warps_per_sm;
    row->occupancy = r.occupancy;
    row->limiters = r.blocks_per_sm > 0 ? r.limiters : 0;
    row->zero_reason = r.zero_reason;
}
