/*
 * calc_nsight.c - a launch as Nsight Compute's occupancy table shows it
 * (calc_output.h): its Block Limit rows at the shared-memory configuration
 * the driver picks at launch, in Nsight's convention, beside the occupancy
 * API's own figures.
 */
#include "calc_output.h"

/* cudaFuncSetCacheConfig's preference as a carveout, for a kernel that gives
   none: the occupancy API reads L1 as 0%, Equal as 50% and Shared as 100%
   [cuda_occupancy.h, cudaOccFuncShmemConfig]. */
int calc_cache_carveout(int carveout_percent, occ_cache_preference cache)
{
    if (carveout_percent != OCC_CARVEOUT_DEFAULT) {
        return carveout_percent;
    }
    switch (cache) {
    case OCC_CACHE_PREFER_L1: return 0;
    case OCC_CACHE_PREFER_EQUAL: return 50;
    case OCC_CACHE_PREFER_SHARED: return 100;
    case OCC_CACHE_PREFER_NONE: break;
    }
    return OCC_CARVEOUT_DEFAULT;
}

/* Nsight's convention, measured on the H200 exports (docs/ncu.md, "Nsight's
   conventions"): Block Limit Barriers is capped at the SM's block slots (one
   barrier per block shows 32, not 64; none shows 32 too). Elsewhere libocc's
   "unlimited" (a resource the kernel does not use) stays unlimited: no
   export shows one. */
int calc_nsight_limit(const occ_device *d, int limit, occ_limiter which)
{
    if (which == OCC_LIMITER_BARRIERS && d->barriers_per_block_slot > 0 &&
        limit > d->max_blocks_per_sm) {
        return d->max_blocks_per_sm;
    }
    return limit;
}

int calc_limit_of(const occ_result *r, occ_limiter which)
{
    switch (which) {
    case OCC_LIMITER_WARPS: return r->limit_warps;
    case OCC_LIMITER_REGISTERS: return r->limit_registers;
    case OCC_LIMITER_SHARED_MEM: return r->limit_shared_mem;
    case OCC_LIMITER_BLOCKS: return r->limit_blocks;
    case OCC_LIMITER_BARRIERS: return r->limit_barriers;
    }
    return 0;
}

void calc_nsight_view(const occ_device *d, const occ_kernel *k, occ_cache_preference cache,
                      const occ_result *api, calc_nsight *out)
{
    out->config = CALC_CONFIG_API;
    out->smem_config_bytes = api->smem_per_sm_bytes;
    out->result = *api;
    if (k->smem_config_bytes > 0) {
        out->config = CALC_CONFIG_GIVEN; /* --smem-config: the API's answer is there already */
        return;
    }
    occ_smem_config_result c;
    if (d->carveout_step_count == 0 || occ_launch_smem_config(d, k, cache, &c, NULL) != OCC_OK) {
        return; /* one configuration only, or no block fits (the launch fails) */
    }
    occ_kernel at = *k;
    at.carveout_percent = calc_cache_carveout(k->carveout_percent, cache);
    at.smem_config_bytes = c.config_bytes;
    occ_result r;
    if (occ_calc(d, &at, &r, NULL) != OCC_OK) {
        return;
    }
    out->config = CALC_CONFIG_PREDICTED;
    out->smem_config_bytes = c.config_bytes;
    out->result = r;
}
