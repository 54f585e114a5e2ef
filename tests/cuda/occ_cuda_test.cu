/*
 * occ_cuda_test.cu - include/occ_cuda.h compiled by nvcc as CUDA host code,
 * and run without a GPU: cudaDeviceProp filled by hand with what the
 * runtime reports on an NVIDIA H200 (the device attributes of
 * tests/data/ncu-h200/torch-raw.csv.gz), then changed the way a MIG
 * instance, an unknown GPU or a future compute capability would change it.
 * Exits 0 when every check holds, 1 with the failed check otherwise.
 */
#include <cstdio>
#include <cstring>

#include <cuda_runtime.h>

#include "occ_cuda.h"

static int failures = 0;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            std::fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond);                \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

/* An H200 as cudaGetDeviceProperties reports it (Nsight Compute's
   device__attribute_* of the same run, driver 580.159.04, CUDA 13.0). */
static cudaDeviceProp h200_prop()
{
    cudaDeviceProp p;
    std::memset(&p, 0, sizeof p);
    std::snprintf(p.name, sizeof p.name, "NVIDIA H200");
    p.major = 9;
    p.minor = 0;
    p.multiProcessorCount = 132;
    p.l2CacheSize = 62914560;
    p.warpSize = 32;
    p.maxThreadsPerBlock = 1024;
    p.maxThreadsPerMultiProcessor = 2048;
    p.maxBlocksPerMultiProcessor = 32;
    p.regsPerBlock = 65536;
    p.regsPerMultiprocessor = 65536;
    p.sharedMemPerBlock = 49152;
    p.sharedMemPerBlockOptin = 232448;
    p.sharedMemPerMultiprocessor = 233472;
    p.reservedSharedMemPerBlock = 1024;
    return p;
}

/* The same answer as the database's H200 for a few kernels of every kind. */
static void check_same_occupancy(const occ_device *a, const occ_device *b)
{
    static const int threads[] = {32, 256, 1024};
    static const int regs[] = {16, 64, 255};
    static const int smem[] = {0, 20000, 100000};
    for (int t : threads) {
        for (int r : regs) {
            for (int s : smem) {
                occ_kernel k;
                occ_kernel_init(&k);
                k.block_x = t;
                k.regs_per_thread = r;
                k.dyn_smem_bytes = s;
                occ_result ra, rb;
                CHECK(occ_calc(a, &k, &ra, NULL) == OCC_OK);
                CHECK(occ_calc(b, &k, &rb, NULL) == OCC_OK);
                CHECK(ra.blocks_per_sm == rb.blocks_per_sm);
                CHECK(ra.limiters == rb.limiters);
                CHECK(ra.smem_per_sm_bytes == rb.smem_per_sm_bytes);
            }
        }
    }
}

int main()
{
    occ_device db;
    CHECK(occ_gpu_find("H200", &db, NULL) == OCC_OK);

    /* An H200: the database's entry, GPC layout and latency included. */
    cudaDeviceProp p = h200_prop();
    occ_device d;
    occ_error err;
    CHECK(occ_device_from_cuda_prop(&p, &d, &err) == OCC_OK);
    CHECK(std::strcmp(d.name, "H200") == 0);
    CHECK(d.sm_count == 132);
    CHECK(d.gpc_count == db.gpc_count && d.gpc_count > 0);
    CHECK(d.mem_latency_ns == db.mem_latency_ns);
    check_same_occupancy(&d, &db);
    occ_block_size_result pick;
    occ_kernel k;
    occ_kernel_init(&k);
    k.regs_per_thread = 32;
    CHECK(occ_max_potential_block_size(&d, &k, 0, NULL, NULL, &pick, NULL) == OCC_OK);
    CHECK(pick.min_grid_size == pick.blocks_per_sm * 132);

    /* A MIG slice of 16 SMs: the generic sm_90 entry under the runtime's
       name, with its SM count (a generic entry has none: occ_arch_find). */
    std::snprintf(p.name, sizeof p.name, "NVIDIA H200 MIG 2g.35gb");
    p.multiProcessorCount = 16;
    CHECK(occ_device_from_cuda_prop(&p, &d, &err) == OCC_OK);
    CHECK(std::strcmp(d.name, "NVIDIA H200 MIG 2g.35gb") == 0);
    CHECK(d.sm_count == 16);
    CHECK(d.l2_bytes == 62914560);
    CHECK(d.gpc_count == 0);
    check_same_occupancy(&d, &db);
    occ_device generic;
    CHECK(occ_arch_find(9, 0, &generic, NULL) == OCC_OK);
    CHECK(generic.sm_count == 0);
    CHECK(occ_max_potential_block_size(&d, &k, 0, NULL, NULL, &pick, NULL) == OCC_OK);
    CHECK(pick.min_grid_size == pick.blocks_per_sm * 16);

    /* Less shared memory per SM than the architecture's largest step: the
       steps end there, and the description is valid. */
    p = h200_prop();
    std::snprintf(p.name, sizeof p.name, "a smaller sm_90");
    p.sharedMemPerMultiprocessor = 100 * 1024;
    p.sharedMemPerBlockOptin = 99 * 1024;
    CHECK(occ_device_from_cuda_prop(&p, &d, &err) == OCC_OK);
    CHECK(d.smem_per_sm_bytes == 100 * 1024);
    CHECK(d.carveout_steps_bytes[d.carveout_step_count - 1] == 100 * 1024);

    /* Properties that contradict themselves are refused by name. */
    p = h200_prop();
    p.maxThreadsPerMultiProcessor = 0;
    CHECK(occ_device_from_cuda_prop(&p, &d, &err) == OCC_ERR_INVALID_DEVICE);
    CHECK(err.field != NULL);

    /* A compute capability occ does not know. */
    p = h200_prop();
    std::snprintf(p.name, sizeof p.name, "a future GPU");
    p.major = 99;
    CHECK(occ_device_from_cuda_prop(&p, &d, &err) == OCC_ERR_UNKNOWN_GPU);
    CHECK(occ_device_from_cuda_prop(NULL, &d, &err) == OCC_ERR_NULL_POINTER);
    CHECK(std::strcmp(err.field, "prop") == 0);

    if (failures == 0) {
        std::printf("occ_cuda.h: every check holds\n");
    }
    return failures == 0 ? 0 : 1;
}
