/*
 * occ_cuda.h - an occ_device for the GPU a CUDA program runs on, from the
 * runtime's cudaDeviceProp (cudaGetDeviceProperties). Header-only, for CUDA
 * host code: include it after <cuda_runtime.h> (nvcc includes that in every
 * .cu file), and link libocc.
 *
 *   cudaDeviceProp prop;
 *   cudaGetDeviceProperties(&prop, device);
 *   occ_device gpu;
 *   occ_error err;
 *   if (occ_device_from_cuda_prop(&prop, &gpu, &err) != OCC_OK) { ... err.message ... }
 *
 * The properties do not say everything occupancy needs (the register
 * allocation unit, the carveout steps, barriers per block slot, ...): those
 * come from occ's database, by compute capability.
 */
#ifndef OCC_CUDA_H
#define OCC_CUDA_H

#include "occ.h"

/* cudaDeviceProp is declared in driver_types.h, which cuda_runtime.h includes. */
#ifndef __DRIVER_TYPES_H__
#error "occ_cuda.h needs cudaDeviceProp: include <cuda_runtime.h> first"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Fills *out for the GPU `prop` describes. Where occ's database names the
 * GPU (prop->name, "NVIDIA H200") with the same compute capability and SM
 * count, *out starts from that entry, with its clocks, memory latency and
 * GPC layout; otherwise (a MIG instance, a GPU occ does not list) from the
 * generic entry of the compute capability (occ_arch_find), named prop->name,
 * with prop's SM count and L2 size. Either way the per-SM and per-block
 * limits are the ones the runtime reports.
 *
 * Returns OCC_ERR_NULL_POINTER for a NULL prop or out; occ_arch_find's
 * OCC_ERR_UNKNOWN_GPU for a compute capability occ does not know;
 * occ_device_validate's OCC_ERR_INVALID_DEVICE, with the field named, when
 * the properties contradict themselves.
 */
static inline occ_status occ_device_from_cuda_prop(const struct cudaDeviceProp *prop,
                                                   occ_device *out, occ_error *err)
{
    if (prop == NULL || out == NULL) {
        if (err != NULL) {
            err->field = prop == NULL ? "prop" : "out";
            err->status = OCC_ERR_NULL_POINTER;
            const char *what = prop == NULL ? "prop is NULL" : "out is NULL";
            size_t i = 0;
            for (; what[i] != '\0' && i + 1 < sizeof err->message; i++) {
                err->message[i] = what[i];
            }
            err->message[i] = '\0';
        }
        return OCC_ERR_NULL_POINTER;
    }
    occ_device named;
    if (occ_gpu_find(prop->name, &named, NULL) == OCC_OK && named.cc_major == prop->major &&
        named.cc_minor == prop->minor && named.sm_count == prop->multiProcessorCount) {
        *out = named;
    } else {
        occ_status status = occ_arch_find(prop->major, prop->minor, out, err);
        if (status != OCC_OK) {
            return status;
        }
        size_t i = 0;
        for (; prop->name[i] != '\0' && i + 1 < sizeof out->name; i++) {
            out->name[i] = prop->name[i];
        }
        out->name[i] = '\0';
        out->sm_count = prop->multiProcessorCount;
        out->l2_bytes = prop->l2CacheSize;
        out->gpc_count = 0; /* the layout of this instance is unknown */
    }
    out->warp_size_threads = prop->warpSize;
    out->max_threads_per_block = prop->maxThreadsPerBlock;
    out->max_threads_per_sm = prop->maxThreadsPerMultiProcessor;
    out->max_blocks_per_sm = prop->maxBlocksPerMultiProcessor;
    out->regs_per_sm = prop->regsPerMultiprocessor;
    out->regs_per_block = prop->regsPerBlock;
    out->smem_per_block_bytes = (int)prop->sharedMemPerBlock;
    out->smem_per_block_optin_bytes = (int)prop->sharedMemPerBlockOptin;
    out->smem_reserved_per_block_bytes = (int)prop->reservedSharedMemPerBlock;
    /* The carveout steps end at the SM's shared memory: the database's steps
       below what the runtime reports, then that. */
    int smem_per_sm = (int)prop->sharedMemPerMultiprocessor;
    if (out->carveout_step_count > 0 && smem_per_sm != out->smem_per_sm_bytes) {
        int kept = 0;
        for (int s = 0; s < out->carveout_step_count; s++) {
            if (out->carveout_steps_bytes[s] < smem_per_sm) {
                out->carveout_steps_bytes[kept++] = out->carveout_steps_bytes[s];
            }
        }
        if (kept < OCC_MAX_CARVEOUT_STEPS) {
            out->carveout_steps_bytes[kept++] = smem_per_sm;
        }
        out->carveout_step_count = kept;
    }
    out->smem_per_sm_bytes = smem_per_sm;
    return occ_device_validate(out, err);
}

#ifdef __cplusplus
}
#endif

#endif /* OCC_CUDA_H */
