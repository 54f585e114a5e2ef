/*
 * gpu.cu - the present GPU: its properties, libocc's description of it, and
 * the check that the two agree before anything is planned with libocc.
 */
#include <string.h>

#include "occ_lab.h"

/* One libocc limit against the device property that reports it. */
static void expect_limit(const char *what, long long occ_value, long long device_value)
{
    if (occ_value != device_value) {
        LAB_FAIL("libocc's %s is %lld but the device reports %lld: libocc's table for this "
                 "compute capability is wrong here",
                 what, occ_value, device_value);
    }
}

void lab_gpu_open(lab_gpu *gpu)
{
    memset(gpu, 0, sizeof *gpu);
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        /* A record, not a stderr line: `occ lab` words the one-line reason. */
        char why[128];
        snprintf(why, sizeof why, "cudaGetDeviceCount: %s",
                 e == cudaSuccess ? "0 devices" : cudaGetErrorString(e));
        lab_record r;
        lab_record_begin(&r, "error");
        lab_record_str(&r, "kind", "no_gpu");
        lab_record_str(&r, "message", why);
        lab_record_end(&r);
        exit(LAB_EXIT_NO_GPU);
    }
    LAB_CHECK(cudaSetDevice(0));
    LAB_CHECK(cudaGetDeviceProperties(&gpu->prop, 0));
    LAB_CHECK(cudaDriverGetVersion(&gpu->driver_version));
    LAB_CHECK(cudaRuntimeGetVersion(&gpu->runtime_version));
    LAB_CHECK(cudaDeviceGetAttribute(&gpu->sm_clock_khz, cudaDevAttrClockRate, 0));
    LAB_CHECK(cudaDeviceGetAttribute(&gpu->mem_clock_khz, cudaDevAttrMemoryClockRate, 0));
    LAB_CHECK(cudaDeviceGetAttribute(&gpu->mem_bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0));

    const cudaDeviceProp *p = &gpu->prop;
    occ_error err;
    if (occ_arch_find(p->major, p->minor, &gpu->device, &err) != OCC_OK) {
        LAB_FAIL("libocc does not know compute capability %d.%d: %s", p->major, p->minor,
                 err.message);
    }
    occ_device *d = &gpu->device;
    expect_limit("warp size", d->warp_size_threads, p->warpSize);
    expect_limit("threads per block", d->max_threads_per_block, p->maxThreadsPerBlock);
    expect_limit("threads per SM", d->max_threads_per_sm, p->maxThreadsPerMultiProcessor);
    expect_limit("blocks per SM", d->max_blocks_per_sm, p->maxBlocksPerMultiProcessor);
    expect_limit("registers per SM", d->regs_per_sm, p->regsPerMultiprocessor);
    expect_limit("registers per block", d->regs_per_block, p->regsPerBlock);
    expect_limit("shared memory per SM", d->smem_per_sm_bytes,
                 (long long)p->sharedMemPerMultiprocessor);
    expect_limit("shared memory per block", d->smem_per_block_bytes,
                 (long long)p->sharedMemPerBlock);
    expect_limit("shared memory per block with opt-in", d->smem_per_block_optin_bytes,
                 (long long)p->sharedMemPerBlockOptin);
    expect_limit("shared memory reserved per block", d->smem_reserved_per_block_bytes,
                 (long long)p->reservedSharedMemPerBlock);

    /* The product facts come from the device itself, not the database. */
    snprintf(d->name, sizeof d->name, "%s", p->name);
    d->sm_count = p->multiProcessorCount;
    d->sm_clock_mhz = gpu->sm_clock_khz / 1000;
    d->l2_bytes = p->l2CacheSize;
    /* Peak DRAM bandwidth = 2 transfers per clock (DDR) x bus bytes x the
       memory clock (CUDA Samples' deviceQuery computes it the same way). */
    d->mem_bandwidth_gb_per_s =
        (int)(2.0 * gpu->mem_clock_khz * 1e3 * (gpu->mem_bus_bits / 8) / 1e9);

    /* The GPC layout the database lists for this product, when its SM count
       is the device's: without one occ's cluster counts are upper bounds
       (`occ lab gpcs` measures it). */
    occ_device named;
    occ_error ignored;
    if (occ_gpu_find(p->name, &named, &ignored) == OCC_OK && named.gpc_count > 0 &&
        named.sm_count == d->sm_count) {
        d->gpc_count = named.gpc_count;
        memcpy(d->gpc_sms, named.gpc_sms, sizeof d->gpc_sms);
        d->gpc_source = named.gpc_source;
        d->gpc_citation = named.gpc_citation;
    }
}

void lab_gpu_record(const lab_gpu *gpu)
{
    const cudaDeviceProp *p = &gpu->prop;
    lab_record r;
    lab_record_begin(&r, "device");
    lab_record_str(&r, "name", p->name);
    lab_record_int(&r, "cc_major", p->major);
    lab_record_int(&r, "cc_minor", p->minor);
    lab_record_int(&r, "sm_count", p->multiProcessorCount);
    lab_record_int(&r, "max_warps_per_sm", occ_device_max_warps_per_sm(&gpu->device));
    lab_record_int(&r, "l2_bytes", p->l2CacheSize);
    lab_record_int(&r, "global_mem_bytes", (long long)p->totalGlobalMem);
    lab_record_int(&r, "smem_per_sm_bytes", (long long)p->sharedMemPerMultiprocessor);
    lab_record_int(&r, "sm_clock_khz", gpu->sm_clock_khz);
    lab_record_int(&r, "mem_clock_khz", gpu->mem_clock_khz);
    lab_record_int(&r, "mem_bus_bits", gpu->mem_bus_bits);
    lab_record_int(&r, "peak_gb_per_s", gpu->device.mem_bandwidth_gb_per_s);
    lab_record_int(&r, "driver_version", gpu->driver_version);
    lab_record_int(&r, "runtime_version", gpu->runtime_version);
    lab_record_end(&r);
}

void lab_kernel_from_attributes(const cudaFuncAttributes *attr, int block_threads,
                                int dyn_smem_bytes, occ_kernel *out)
{
    occ_kernel_init(out);
    out->block_x = block_threads;
    out->regs_per_thread = attr->numRegs;
    out->static_smem_bytes = (int)attr->sharedSizeBytes;
    out->dyn_smem_bytes = dyn_smem_bytes;
    /* cudaFuncAttributes.maxThreadsPerBlock is the __launch_bounds__ maximum
       or what the register count allows, whichever is lower. */
    out->max_threads_per_block = attr->maxThreadsPerBlock;
}

void lab_occ_calc(const lab_gpu *gpu, const occ_kernel *k, const char *name, occ_result *out)
{
    occ_error err;
    if (occ_calc(&gpu->device, k, out, &err) != OCC_OK) {
        LAB_FAIL("occ_calc for %s: %s", name, err.message);
    }
}
