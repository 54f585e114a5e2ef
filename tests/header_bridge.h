/*
 * header_bridge.h - describes an occ device and kernel in the terms of the
 * CUDA toolkit's cuda_occupancy.h, so the oracle test and the benchmark ask
 * NVIDIA's calculator exactly the question they ask libocc. Include after
 * <cuda_occupancy.h>.
 */
#ifndef OCC_HEADER_BRIDGE_H
#define OCC_HEADER_BRIDGE_H

#include <string.h>

#include "occ.h"

static inline cudaOccDeviceProp bridge_device(const occ_device *d)
{
    cudaOccDeviceProp p;
    memset(&p, 0, sizeof p);
    p.computeMajor = d->cc_major;
    p.computeMinor = d->cc_minor;
    p.maxThreadsPerBlock = d->max_threads_per_block;
    p.maxThreadsPerMultiprocessor = d->max_threads_per_sm;
    p.regsPerBlock = d->regs_per_block;
    p.regsPerMultiprocessor = d->regs_per_sm;
    p.warpSize = d->warp_size_threads;
    p.sharedMemPerBlock = (size_t)d->smem_per_block_bytes;
    p.sharedMemPerMultiprocessor = (size_t)d->smem_per_sm_bytes;
    p.numSms = d->sm_count > 0 ? d->sm_count : 100;
    p.sharedMemPerBlockOptin = (size_t)d->smem_per_block_optin_bytes;
    p.reservedSharedMemPerBlock = (size_t)d->smem_reserved_per_block_bytes;
    return p;
}

/* The attributes cudaFuncGetAttributes would give the same kernel. */
static inline cudaOccFuncAttributes bridge_kernel(const occ_device *d, const occ_kernel *k)
{
    cudaOccFuncAttributes a;
    memset(&a, 0, sizeof a);
    a.maxThreadsPerBlock =
        k->max_threads_per_block > 0 ? k->max_threads_per_block : d->max_threads_per_block;
    a.numRegs = k->regs_per_thread;
    a.sharedSizeBytes = (size_t)k->static_smem_bytes;
    a.partitionedGCConfig = (cudaOccPartitionedGCConfig)k->partitioned_gc;
    if (k->max_dyn_smem_bytes == OCC_DYN_SMEM_NO_OPTIN) {
        /* The attribute's value when nobody opted in: the default less static. */
        a.shmemLimitConfig = FUNC_SHMEM_LIMIT_DEFAULT;
        a.maxDynamicSharedSizeBytes = (size_t)(d->smem_per_block_bytes - k->static_smem_bytes);
    } else {
        a.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
        a.maxDynamicSharedSizeBytes =
            (size_t)(k->max_dyn_smem_bytes == OCC_DYN_SMEM_OPTIN_MAX
                         ? d->smem_per_block_optin_bytes - k->static_smem_bytes
                         : k->max_dyn_smem_bytes);
    }
    a.numBlockBarriers = k->barriers;
    return a;
}

static inline cudaOccDeviceState bridge_state(const occ_kernel *k)
{
    cudaOccDeviceState s;
    memset(&s, 0, sizeof s);
    s.carveoutConfig = k->carveout_percent;
    return s;
}

#endif /* OCC_HEADER_BRIDGE_H */
