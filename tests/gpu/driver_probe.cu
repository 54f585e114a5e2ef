/*
 * driver_probe.cu - libocc against the CUDA driver on the GPU present,
 * where the shared H200 table says nothing: kernels that use several block
 * barriers (the barrier limit of CC >= 9.0), a launch above the kernel's
 * __launch_bounds__, and cudaOccupancyMaxPotentialBlockSize with a block
 * size limit and a per-block shared-memory function.
 *
 * Build and run (needs a GPU): tests/gpu/run_driver_probe.sh OUTDIR
 * Prints one line per comparison to OUTDIR/driver_probe.csv and a summary;
 * exits 1 on any disagreement, 77 when no GPU is present.
 */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "occ.h"

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t e_ = (call);                                                         \
        if (e_ != cudaSuccess) {                                                         \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                \
                    cudaGetErrorString(e_));                                             \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

/* Barrier I (a named barrier): every thread of the block takes part. */
template <int I> __device__ void sync_named()
{
    asm volatile("bar.sync %0;" ::"n"(I) : "memory");
}

template <int N> __device__ void sync_all(float *s)
{
    if constexpr (N > 0) {
        sync_all<N - 1>(s);
        s[threadIdx.x] += 1.0f;
        sync_named<N - 1>();
    }
}

/* A kernel that uses N block barriers (ptxas: "used N barriers"). */
template <int N> __global__ void barrier_kernel(float *out)
{
    __shared__ float s[1024];
    s[threadIdx.x] = (float)threadIdx.x;
    sync_all<N>(s);
    out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
}

/* 4 KB of static shared memory plus the dynamic array; one instance per
   opt-in setting, since cudaFuncSetAttribute is per function. */
template <int Instance> __global__ void smem_kernel(float *out)
{
    __shared__ float fixed[1024];
    extern __shared__ float dynamic[];
    fixed[threadIdx.x % 1024] = (float)threadIdx.x;
    dynamic[threadIdx.x] = fixed[(threadIdx.x + 1) % 1024];
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = dynamic[(threadIdx.x + 1) % blockDim.x] + Instance;
}

__global__ void __launch_bounds__(256) bounded_kernel(float *out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}

static size_t smem_for_block(int block)
{
    return (size_t)block * 24;
}
static size_t occ_smem_for_block(int block, void *context)
{
    (void)context;
    return smem_for_block(block);
}

static int mismatches;
static int comparisons;
static FILE *csv;

static void fill_kernel(const cudaFuncAttributes *a, int barriers, occ_kernel *k)
{
    occ_kernel_init(k);
    k->regs_per_thread = a->numRegs;
    k->static_smem_bytes = (int)a->sharedSizeBytes;
    k->max_threads_per_block = a->maxThreadsPerBlock;
    k->barriers = barriers;
}

/* Occupancy and available dynamic shared memory for one opt-in setting
   (optin: OCC_DYN_SMEM_NO_OPTIN or bytes) and one carveout. */
template <typename F>
static void compare_optin(const char *name, F func, int optin, int carveout,
                          const occ_device *dev)
{
    if (optin != OCC_DYN_SMEM_NO_OPTIN) {
        CHECK(cudaFuncSetAttribute(func, cudaFuncAttributeMaxDynamicSharedMemorySize, optin));
    }
    if (carveout != OCC_CARVEOUT_DEFAULT) {
        CHECK(cudaFuncSetAttribute(func, cudaFuncAttributePreferredSharedMemoryCarveout,
                                   carveout));
    }
    cudaFuncAttributes a;
    CHECK(cudaFuncGetAttributes(&a, func));
    static const int dyns[] = {0, 1, 20000, 40000, 45056, 45057, 49152, 60000,
                               100000, 100001, 150000, 228352, 228353};
    static const int blocks[] = {128, 256, 1024};
    for (int b : blocks) {
        for (int dyn : dyns) {
            int driver = -1;
            cudaError_t e =
                cudaOccupancyMaxActiveBlocksPerMultiprocessor(&driver, func, b, (size_t)dyn);
            cudaGetLastError();
            occ_kernel k;
            fill_kernel(&a, 1, &k);
            k.block_x = b;
            k.dyn_smem_bytes = dyn;
            k.max_dyn_smem_bytes = optin;
            k.carveout_percent = carveout;
            occ_result r;
            occ_error err;
            if (occ_calc(dev, &k, &r, &err) != OCC_OK) {
                fprintf(stderr, "occ_calc: %s\n", err.message);
                exit(1);
            }
            /* A request the driver refuses is zero blocks to occ. */
            int said = e == cudaSuccess ? driver : 0;
            bool ok = said == r.blocks_per_sm;
            fprintf(csv, "optin,%s optin=%d carveout=%d,%d,1,%d,%d,%d (%s),%d,,%s\n", name,
                    optin, carveout, a.numRegs, b, dyn, driver, cudaGetErrorName(e),
                    r.blocks_per_sm, ok ? "ok" : "MISMATCH");
            comparisons++;
            mismatches += !ok;
        }
        for (int num = 1; num <= 4; num++) {
            size_t avail = 0;
            cudaError_t e = cudaOccupancyAvailableDynamicSMemPerBlock(&avail, func, num, b);
            cudaGetLastError();
            occ_kernel k;
            fill_kernel(&a, 1, &k);
            k.max_dyn_smem_bytes = optin;
            k.carveout_percent = carveout;
            occ_dyn_smem_result got;
            occ_status st = occ_dyn_smem_available(dev, &k, num, b, &got, NULL);
            bool ok = e == cudaSuccess ? st == OCC_OK && (size_t)got.driver_bytes == avail
                                       : st == OCC_ERR_NOT_FOUND;
            fprintf(csv, "avail_dyn,%s optin=%d carveout=%d,%d,1,%d,%d blocks,%zu (%s),%d,,%s\n",
                    name, optin, carveout, a.numRegs, b, num, avail, cudaGetErrorName(e),
                    st == OCC_OK ? got.driver_bytes : -1, ok ? "ok" : "MISMATCH");
            comparisons++;
            mismatches += !ok;
        }
    }
}

template <typename F>
static void compare_kernel(const char *name, F func, int barriers, const occ_device *dev)
{
    cudaFuncAttributes a;
    CHECK(cudaFuncGetAttributes(&a, func));
    static const int blocks[] = {1, 32, 64, 96, 128, 192, 256, 512, 1024};
    static const int dyns[] = {0, 1024, 20000};
    for (int b : blocks) {
        for (int dyn : dyns) {
            if (b > a.maxThreadsPerBlock) {
                continue;
            }
            int driver = -1;
            CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&driver, func, b, (size_t)dyn));
            occ_kernel k;
            fill_kernel(&a, barriers, &k);
            k.block_x = b;
            k.dyn_smem_bytes = dyn;
            occ_result r;
            occ_error err;
            if (occ_calc(dev, &k, &r, &err) != OCC_OK) {
                fprintf(stderr, "occ_calc: %s\n", err.message);
                exit(1);
            }
            occ_kernel one = k;
            one.barriers = 1;
            occ_result r1;
            occ_calc(dev, &one, &r1, NULL);
            bool ok = r.blocks_per_sm == driver;
            fprintf(csv, "occupancy,%s,%d,%d,%d,%d,%d,%d,%d,%s\n", name, a.numRegs, barriers, b,
                    dyn, driver, r.blocks_per_sm, r1.blocks_per_sm, ok ? "ok" : "MISMATCH");
            comparisons++;
            mismatches += !ok;
        }
    }
}

int main(int argc, char **argv)
{
    const char *out_dir = argc > 1 ? argv[1] : ".";
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        printf("SKIPPED: no CUDA GPU present\n");
        return 77;
    }
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    int driver_version = 0;
    CHECK(cudaDriverGetVersion(&driver_version));
    char arch[16];
    snprintf(arch, sizeof arch, "%d.%d", p.major, p.minor);
    occ_device dev;
    occ_error err;
    if (occ_gpu_find(arch, &dev, &err) != OCC_OK) {
        fprintf(stderr, "occ: %s\n", err.message);
        return 1;
    }
    dev.sm_count = p.multiProcessorCount;
    printf("device %s, cc %s, %d SMs, driver %d\n", p.name, arch, p.multiProcessorCount,
           driver_version);

    char path[512];
    snprintf(path, sizeof path, "%s/driver_probe.csv", out_dir);
    csv = fopen(path, "w");
    if (csv == NULL) {
        perror(path);
        return 1;
    }
    fprintf(csv, "what,kernel,regs,barriers,block,dyn_smem,driver,occ,occ_if_1_barrier,verdict\n");

    compare_kernel("barrier_kernel<1>", barrier_kernel<1>, 1, &dev);
    compare_kernel("barrier_kernel<2>", barrier_kernel<2>, 2, &dev);
    compare_kernel("barrier_kernel<3>", barrier_kernel<3>, 3, &dev);
    compare_kernel("barrier_kernel<4>", barrier_kernel<4>, 4, &dev);
    compare_kernel("barrier_kernel<5>", barrier_kernel<5>, 5, &dev);
    compare_kernel("barrier_kernel<8>", barrier_kernel<8>, 8, &dev);
    compare_kernel("barrier_kernel<11>", barrier_kernel<11>, 11, &dev);
    compare_kernel("barrier_kernel<16>", barrier_kernel<16>, 16, &dev);

    /* Dynamic shared memory without opt-in, with opt-in to a size, and with
       a carveout preference. */
    compare_optin("smem_kernel<0>", smem_kernel<0>, OCC_DYN_SMEM_NO_OPTIN, OCC_CARVEOUT_DEFAULT,
                  &dev);
    compare_optin("smem_kernel<1>", smem_kernel<1>, 100000, OCC_CARVEOUT_DEFAULT, &dev);
    compare_optin("smem_kernel<2>", smem_kernel<2>, 150000, 25, &dev);
    compare_optin("smem_kernel<3>", smem_kernel<3>, OCC_DYN_SMEM_NO_OPTIN, 0, &dev);

    /* Above the launch bounds: what does the driver answer? */
    cudaFuncAttributes a;
    CHECK(cudaFuncGetAttributes(&a, bounded_kernel));
    int driver = -1;
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&driver, bounded_kernel, 512, 0);
    occ_kernel k;
    fill_kernel(&a, 1, &k);
    k.block_x = 512;
    occ_result r;
    occ_calc(&dev, &k, &r, NULL);
    bool ok = e == cudaSuccess && driver == r.blocks_per_sm && r.exceeds_launch_bounds;
    fprintf(csv, "launch_bounds,bounded_kernel,%d,1,512,0,%d (%s),%d,,%s\n", a.numRegs,
            e == cudaSuccess ? driver : -1, cudaGetErrorName(e), r.blocks_per_sm,
            ok ? "ok" : "MISMATCH");
    comparisons++;
    mismatches += !ok;
    /* And the launch itself, which occ says fails. */
    float *buf = NULL;
    CHECK(cudaMalloc(&buf, 512 * sizeof(float)));
    bounded_kernel<<<1, 512>>>(buf);
    cudaError_t launch = cudaGetLastError();
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(buf));
    ok = launch != cudaSuccess;
    fprintf(csv, "launch_bounds_launch,bounded_kernel,%d,1,512,0,%s,fails,,%s\n", a.numRegs,
            cudaGetErrorName(launch), ok ? "ok" : "MISMATCH");
    printf("launching bounded_kernel<<<1, 512>>> (bounds 256): %s\n", cudaGetErrorString(launch));
    comparisons++;
    mismatches += !ok;

    /* cudaOccupancyMaxPotentialBlockSize with limits and a smem function. */
    static const int limits[] = {0, 1000, 200, 96, 33};
    for (int limit : limits) {
        int grid = 0;
        int block = 0;
        CHECK(cudaOccupancyMaxPotentialBlockSizeVariableSMem(&grid, &block, barrier_kernel<3>,
                                                             smem_for_block, limit));
        CHECK(cudaFuncGetAttributes(&a, barrier_kernel<3>));
        fill_kernel(&a, 3, &k);
        occ_block_size_result bs;
        occ_max_potential_block_size(&dev, &k, limit, occ_smem_for_block, NULL, &bs, NULL);
        ok = bs.block_size == block && bs.min_grid_size == grid;
        fprintf(csv, "max_potential,barrier_kernel<3>,%d,3,%d,limit %d,%d/%d,%d/%d,,%s\n",
                a.numRegs, block, limit, grid, block, bs.min_grid_size, bs.block_size,
                ok ? "ok" : "MISMATCH");
        comparisons++;
        mismatches += !ok;
    }
    fclose(csv);
    printf("%d comparisons, %d mismatches (details: %s)\n", comparisons, mismatches, path);
    return mismatches == 0 ? 0 : 1;
}
