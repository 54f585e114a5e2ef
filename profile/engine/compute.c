/*
 * compute.c - each device's GPU resolved, then each group computed once
 * with libocc: the shared-memory configuration the driver picks at launch,
 * the theoretical occupancy at that configuration, waves, clusters, and
 * Kineto's estimate redone under Kineto's own assumptions so a difference
 * can be named (docs/profile.md, "Kineto's estimate").
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "prof_engine.h"

static occ_status resolve_device(occ_profile_device *d, const occ_profile_options *options,
                                 const char *path, occ_profile_error *err)
{
    char trace[160];
    int n = snprintf(trace, sizeof trace, "device %d (%s", d->trace_id,
                     d->trace_name[0] ? d->trace_name : "no name recorded");
    if (d->trace_cc_major >= 0 && n > 0 && (size_t)n < sizeof trace) {
        n += snprintf(trace + n, sizeof trace - (size_t)n, ", compute capability %d.%d",
                      d->trace_cc_major, d->trace_cc_minor);
    }
    if (d->trace_sm_count > 0 && n > 0 && (size_t)n < sizeof trace) {
        n += snprintf(trace + n, sizeof trace - (size_t)n, ", %d SMs", d->trace_sm_count);
    }
    if (n > 0 && (size_t)n < sizeof trace) {
        snprintf(trace + n, sizeof trace - (size_t)n, ")");
    }
    if (options && options->device) {
        const occ_device *g = options->device;
        if (d->trace_cc_major >= 0 &&
            (g->cc_major != d->trace_cc_major || g->cc_minor != d->trace_cc_minor)) {
            return prof_error(err, OCC_ERR_INVALID_DEVICE, path, d->input, -1,
                              "the trace's %s is not --gpu %s (compute capability %d.%d)", trace,
                              g->name, g->cc_major, g->cc_minor);
        }
        if (d->trace_sm_count > 0 && g->sm_count > 0 && g->sm_count != d->trace_sm_count) {
            return prof_error(err, OCC_ERR_INVALID_DEVICE, path, d->input, -1,
                              "the trace's %s is not --gpu %s (%d SMs)", trace, g->name,
                              g->sm_count);
        }
        d->gpu = *g;
        if (d->gpu.sm_count == 0 && d->trace_sm_count > 0) {
            d->gpu.sm_count = d->trace_sm_count;
        }
        d->gpu_known = true;
        return OCC_OK;
    }
    occ_device named;
    if (d->trace_name[0] && occ_gpu_find(d->trace_name, &named, NULL) == OCC_OK &&
        (d->trace_cc_major < 0 ||
         (named.cc_major == d->trace_cc_major && named.cc_minor == d->trace_cc_minor)) &&
        (d->trace_sm_count == 0 || named.sm_count == d->trace_sm_count)) {
        d->gpu = named;
        d->gpu_known = true;
        return OCC_OK;
    }
    if (d->trace_cc_major >= 0 &&
        occ_arch_find(d->trace_cc_major, d->trace_cc_minor, &d->gpu, NULL) == OCC_OK) {
        /* a GPU occ has no entry for: its architecture, with the trace's SMs
           (no GPC layout: cluster counts are upper bounds) */
        d->gpu.sm_count = d->trace_sm_count;
        d->gpu_known = true;
        return OCC_OK;
    }
    d->gpu_known = false;
    return OCC_OK;
}

static bool within_rounding(double a, double b)
{
    /* Kineto prints (int)(0.5 + occupancy x 100): one percent point apart at most */
    return fabs(a - b) <= 0.01 + 1e-9;
}

/* Kineto's estimate as Kineto computes it (libkineto's kernelOccupancy):
   cudaOccMaxActiveBlocksPerMultiprocessor with the device's properties and a
   default device state (no carveout preference: the largest shared memory),
   no opt-in (maxDynamicSharedSizeBytes 0), then min(that, grid / SMs) x
   threads per block / threads per SM, rounded to a whole percent. -1 where
   its occupancy call fails; *blocks gets the call's blocks per SM. */
static double kineto_model(const occ_device *gpu, const occ_profile_group *g, int *blocks)
{
    occ_kernel k;
    occ_kernel_init(&k);
    k.block_x = g->block[0];
    k.block_y = g->block[1];
    k.block_z = g->block[2];
    k.regs_per_thread = g->regs_per_thread;
    k.static_smem_bytes = g->static_smem_bytes >= 0 ? g->static_smem_bytes : g->smem_bytes;
    k.dyn_smem_bytes = g->dyn_smem_bytes >= 0 ? g->dyn_smem_bytes : 0;
    k.max_dyn_smem_bytes = 0;
    occ_result r;
    if (gpu->sm_count <= 0) {
        *blocks = -1;
        return -1;
    }
    /* above 48 KB per block without opt-in the header answers 0 blocks (the
       H200 traces: Kineto prints 0 for every such launch) */
    if (occ_calc(gpu, &k, &r, NULL) != OCC_OK) {
        r.blocks_per_sm = 0;
    }
    *blocks = r.blocks_per_sm;
    double grid = (double)g->grid[0] * g->grid[1] * g->grid[2];
    double per_sm = grid / gpu->sm_count;
    if (r.blocks_per_sm < per_sm) {
        per_sm = r.blocks_per_sm;
    }
    double threads = (double)g->block[0] * g->block[1] * g->block[2];
    double occupancy = per_sm * threads / gpu->max_threads_per_sm;
    return floor(0.5 + occupancy * 100.0) / 100.0;
}

static void explain_kineto(const occ_device *gpu, prof_group *pg)
{
    occ_profile_group *g = &pg->pub;
    int model_blocks;
    g->kineto_model_occupancy = kineto_model(gpu, g, &model_blocks);
    double est = g->kineto_est_occupancy;
    double threads = (double)g->block[0] * g->block[1] * g->block[2];
    double grid = (double)g->grid[0] * g->grid[1] * g->grid[2];
    /* libocc's figure counted Kineto's way: threads, not warps */
    double per_sm = gpu->sm_count > 0 ? grid / gpu->sm_count : 0;
    if (g->result.blocks_per_sm < per_sm) {
        per_sm = g->result.blocks_per_sm;
    }
    double occ_threads = per_sm * threads / gpu->max_threads_per_sm;
    if (within_rounding(occ_threads, est) && within_rounding(g->grid_occupancy, est)) {
        g->kineto_cause = OCC_PROFILE_KINETO_AGREES;
        return;
    }
    if (!within_rounding(g->kineto_model_occupancy, est)) {
        g->kineto_cause = OCC_PROFILE_KINETO_UNEXPLAINED;
        return;
    }
    if (model_blocks == 0 && g->result.blocks_per_sm > 0) {
        g->kineto_cause = OCC_PROFILE_KINETO_OPTIN;
    } else if (g->cluster[0] && g->max_active_clusters >= 0) {
        g->kineto_cause = OCC_PROFILE_KINETO_CLUSTERS;
    } else if (model_blocks != g->result.blocks_per_sm) {
        g->kineto_cause = OCC_PROFILE_KINETO_CARVEOUT;
    } else if (within_rounding(occ_threads, est)) {
        g->kineto_cause = OCC_PROFILE_KINETO_THREADS;
    } else {
        g->kineto_cause = OCC_PROFILE_KINETO_ROUNDING;
    }
}

void prof_group_kernel(const occ_profile_group *g, occ_kernel *k)
{
    occ_kernel_init(k);
    k->block_x = g->block[0];
    k->block_y = g->block[1];
    k->block_z = g->block[2];
    k->regs_per_thread = g->regs_per_thread;
    /* only the sum matters to occupancy: Kineto records the sum alone */
    k->static_smem_bytes = g->static_smem_bytes >= 0 ? g->static_smem_bytes : 0;
    k->dyn_smem_bytes = g->dyn_smem_bytes >= 0 ? g->dyn_smem_bytes : g->smem_bytes;
    if (g->cluster[0]) {
        k->cluster_x = g->cluster[0];
        k->cluster_y = g->cluster[1];
        k->cluster_z = g->cluster[2];
        k->cluster_non_portable = g->cluster[0] * g->cluster[1] * g->cluster[2] > 8;
    }
    if (g->carveout_percent >= 0 && g->carveout_percent <= 100) {
        k->carveout_percent = g->carveout_percent;
    }
    if (g->computed) {
        k->smem_config_bytes = g->smem_config_bytes;
    }
}

static void compute_group(const occ_profile_device *d, prof_group *pg)
{
    occ_profile_group *g = &pg->pub;
    g->max_active_clusters = -1;
    g->waves = -1;
    g->trace_smem_config_bytes = OCC_PROFILE_UNKNOWN;
    if (!d->gpu_known) {
        g->note = "no GPU: the trace names none occ knows; give --gpu";
        return;
    }
    const occ_device *gpu = &d->gpu;
    occ_kernel k;
    prof_group_kernel(g, &k);
    occ_cache_preference cache = g->cache_preference >= 0 && g->cache_preference <= 3
                                     ? (occ_cache_preference)g->cache_preference
                                     : OCC_CACHE_PREFER_NONE;
    occ_smem_config_result cfg;
    occ_error e;
    if (occ_launch_smem_config(gpu, &k, cache, &cfg, &e) != OCC_OK) {
        g->note = "no block fits: the launch as recorded cannot run on this GPU";
        return;
    }
    g->smem_config_bytes = cfg.config_bytes;
    g->smem_config_rule = cfg.rule;
    k.smem_config_bytes = cfg.config_bytes;
    if (occ_calc(gpu, &k, &g->result, &e) != OCC_OK || g->result.blocks_per_sm == 0) {
        g->note = "no block fits: the launch as recorded cannot run on this GPU";
        return;
    }
    g->computed = true;
    g->occupancy = g->result.occupancy;
    g->limiters = g->result.limiters;
    long long grid = (long long)g->grid[0] * g->grid[1] * g->grid[2];
    long long capacity = (long long)g->result.blocks_per_sm * gpu->sm_count;
    if (g->cluster[0]) {
        occ_cluster_result cr;
        if (occ_cluster_calc(gpu, &k, &cr, &e) == OCC_OK) {
            g->max_active_clusters = cr.max_active_clusters;
            g->clusters_exact = gpu->gpc_source != OCC_GPC_UNKNOWN;
            capacity = (long long)cr.max_active_clusters * cr.cluster_size;
            if (cr.max_active_clusters == 0) {
                g->note = "no cluster of this size fits a GPC: the launch cannot run";
            }
        }
    }
    if (gpu->sm_count > 0 && capacity > 0) {
        g->waves = (double)grid / (double)capacity;
        double full = floor(g->waves);
        g->tail_idle_fraction = g->waves > full ? 1.0 - g->waves / ceil(g->waves) : 0.0;
        long long resident = grid < capacity ? grid : capacity;
        g->grid_occupancy = (double)resident * g->result.warps_per_block /
                            ((double)gpu->sm_count * g->result.max_warps_per_sm);
    }
    /* sharedMemoryExecuted against libocc's configuration */
    long long best = 0;
    for (int i = 0; i < PROF_EXECUTED_VALUES; i++) {
        if (pg->executed_count[i] > best) {
            best = pg->executed_count[i];
            g->trace_smem_config_bytes = pg->executed_value[i];
        }
        if (pg->executed_count[i] && pg->executed_value[i] != g->smem_config_bytes) {
            g->trace_smem_config_differs += pg->executed_count[i];
        }
    }
    g->trace_smem_config_differs += pg->executed_other;
    if (pg->kineto_launches) {
        explain_kineto(gpu, pg);
    }
}

occ_status prof_engine_compute(occ_profile_result *r, const occ_profile_options *options,
                               occ_profile_error *err)
{
    for (size_t i = 0; i < r->device_count; i++) {
        occ_status st =
            resolve_device(&r->devices[i], options, r->inputs[r->devices[i].input].path, err);
        if (st != OCC_OK) {
            return st;
        }
    }
    occ_profile_summary *s = &r->summary;
    double weighted = 0, timed = 0;
    for (size_t i = 0; i < r->group_count; i++) {
        prof_group *pg = &r->groups[i];
        occ_profile_group *g = &pg->pub;
        compute_group(&r->devices[g->device], pg);
        long long executed = pg->pub.launches - pg->executed_unknown;
        s->smem_config_checked += g->computed ? executed : 0;
        s->smem_config_differs += g->computed ? g->trace_smem_config_differs : 0;
        if (g->computed && pg->kineto_launches) {
            s->kineto_checked += pg->kineto_launches;
            s->kineto_by_cause[g->kineto_cause] += pg->kineto_launches;
        }
        if (!g->computed) {
            continue;
        }
        s->launches_computed += g->launches;
        weighted += g->occupancy * g->gpu_time_us;
        timed += g->gpu_time_us;
        int bin = (int)(g->occupancy * OCC_PROFILE_HISTOGRAM_BINS);
        bin = bin >= OCC_PROFILE_HISTOGRAM_BINS ? OCC_PROFILE_HISTOGRAM_BINS - 1 : bin;
        s->histogram_us[bin < 0 ? 0 : bin] += g->gpu_time_us;
    }
    s->weighted_occupancy = timed > 0 ? weighted / timed : 0;
    return OCC_OK;
}
