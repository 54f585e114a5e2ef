/*
 * verify.cu - libocc against the driver on the present GPU. Kernels with
 * varied register counts (templated live-register arrays, launch bounds)
 * and static shared memory, at every block size 1..1024, dynamic shared
 * memory from 0 to the maximum, and several carveout preferences: every
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor must equal occ_calc, and
 * every cudaOccupancyMaxPotentialBlockSize occ_max_potential_block_size.
 * A user with a new GPU runs this to know occ is right there.
 */
#include <string.h>

#include "occ_lab.h"

/* LIVE floats kept live across a run-time loop: registers grow with LIVE. */
template <int LIVE, int SMEM_BYTES>
__device__ __forceinline__ void verify_body(float *out, int rounds)
{
    constexpr int words = SMEM_BYTES > 0 ? SMEM_BYTES / 4 : 1;
    __shared__ float s[words];
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    float v[LIVE];
#pragma unroll
    for (int j = 0; j < LIVE; j++) {
        v[j] = out[t + j];
    }
#pragma unroll 1
    for (int r = 0; r < rounds; r++) {
#pragma unroll
        for (int j = 0; j < LIVE; j++) {
            v[j] = __fmaf_rn(v[j], v[(j + 3) % LIVE], 0.5f);
        }
    }
    float sum = 0.0f;
#pragma unroll
    for (int j = 0; j < LIVE; j++) {
        sum += v[j];
    }
    if constexpr (SMEM_BYTES > 0) {
        s[threadIdx.x % words] = sum;
        __syncthreads();
        sum = s[(threadIdx.x + 1) % words];
    }
    out[t] = sum;
}

template <int LIVE, int SMEM_BYTES>
__global__ void verify_plain(float *out, int rounds)
{
    verify_body<LIVE, SMEM_BYTES>(out, rounds);
}

template <int LIVE, int SMEM_BYTES, int MAX_THREADS, int MIN_BLOCKS>
__global__ void __launch_bounds__(MAX_THREADS, MIN_BLOCKS) verify_bounded(float *out, int rounds)
{
    verify_body<LIVE, SMEM_BYTES>(out, rounds);
}

typedef struct verify_kernel {
    const char *name;
    const void *func;
} verify_kernel;

#define K(...) {#__VA_ARGS__, (const void *)__VA_ARGS__}
static const verify_kernel kernels[] = {
    K(verify_plain<1, 0>),
    K(verify_plain<8, 1024>),
    K(verify_plain<24, 0>),
    K(verify_plain<40, 4096>),
    K(verify_plain<56, 0>),
    K(verify_plain<72, 12288>),
    K(verify_plain<100, 0>),
    K(verify_plain<128, 2048>),
    K(verify_plain<160, 0>),
    K(verify_plain<200, 40960>),
    K(verify_plain<240, 0>),
    K(verify_bounded<64, 0, 256, 4>),
    K(verify_bounded<128, 0, 512, 1>),
    K(verify_bounded<32, 4096, 1024, 1>),
    K(verify_bounded<96, 0, 128, 6>),
    K(verify_bounded<48, 8192, 384, 3>),
};
#undef K
#define KERNEL_COUNT ((int)(sizeof kernels / sizeof kernels[0]))

static const int carveouts[] = {OCC_CARVEOUT_DEFAULT, 0, 25, 50, 100};
#define CARVEOUT_COUNT ((int)(sizeof carveouts / sizeof carveouts[0]))

#define MISMATCH_RECORDS_MAX 40

typedef struct verify_tally {
    long long comparisons;
    long long mismatches;
    long long refused; /* requests the driver refused, where occ said 0 */
} verify_tally;

static void mismatch(verify_tally *t, const char *what, const char *kernel, int carveout,
                     int threads, int dyn, long long driver, long long occ)
{
    t->mismatches++;
    if (t->mismatches > MISMATCH_RECORDS_MAX) {
        return;
    }
    lab_record rec;
    lab_record_begin(&rec, "verify_mismatch");
    lab_record_str(&rec, "what", what);
    lab_record_str(&rec, "kernel", kernel);
    lab_record_int(&rec, "carveout", carveout);
    lab_record_int(&rec, "threads", threads);
    lab_record_int(&rec, "dyn_smem_bytes", dyn);
    lab_record_int(&rec, "driver", driver);
    lab_record_int(&rec, "occ", occ);
    lab_record_end(&rec);
}

/* Dynamic sizes from 0 to past the maximum, around each limit. */
static int dyn_sizes(const lab_gpu *gpu, const cudaFuncAttributes *attr, int *out, int quick)
{
    int max_dyn = (int)gpu->prop.sharedMemPerBlockOptin - (int)attr->sharedSizeBytes;
    int default_dyn = (int)gpu->prop.sharedMemPerBlock - (int)attr->sharedSizeBytes;
    int n = 0;
    out[n++] = 0;
    out[n++] = max_dyn; /* the largest a block may have */
    out[n++] = max_dyn + 1; /* refused */
    if (quick) {
        out[n++] = 20000;
        return n;
    }
    out[n++] = 1;
    out[n++] = 1000;
    out[n++] = 4096;
    out[n++] = 10000;
    out[n++] = 20000;
    out[n++] = default_dyn;
    out[n++] = default_dyn + 1;
    out[n++] = 60000;
    out[n++] = 100000;
    out[n++] = max_dyn / 2;
    out[n++] = max_dyn / 2 + 1;
    out[n++] = 150000;
    return n;
}

static void verify_one(const lab_gpu *gpu, const lab_options *opt, const verify_kernel *vk,
                       verify_tally *total)
{
    cudaFuncAttributes attr;
    LAB_CHECK(cudaFuncGetAttributes(&attr, vk->func));
    LAB_CHECK(cudaFuncSetAttribute(vk->func, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   (int)gpu->prop.sharedMemPerBlockOptin -
                                       (int)attr.sharedSizeBytes));
    int dyns[32];
    int dyn_count = dyn_sizes(gpu, &attr, dyns, opt->quick);
    verify_tally t = {0, 0, 0};
    int thread_step = opt->quick ? 31 : 1;
    for (int c = 0; c < CARVEOUT_COUNT; c++) {
        LAB_CHECK(cudaFuncSetAttribute(vk->func, cudaFuncAttributePreferredSharedMemoryCarveout,
                                       carveouts[c]));
        for (int d = 0; d < dyn_count; d++) {
            for (int threads = 1; threads <= attr.maxThreadsPerBlock; threads += thread_step) {
                int driver = -1;
                cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                    &driver, vk->func, threads, (size_t)dyns[d]);
                if (e != cudaSuccess) {
                    (void)cudaGetLastError(); /* a refusal, not a failure */
                    driver = 0;
                    t.refused++;
                }
                occ_kernel k;
                lab_kernel_from_attributes(&attr, threads, dyns[d], &k);
                k.carveout_percent = carveouts[c];
                occ_result r;
                lab_occ_calc(gpu, &k, vk->name, &r);
                t.comparisons++;
                if (r.blocks_per_sm != driver) {
                    mismatch(&t, "blocks_per_sm", vk->name, carveouts[c], threads, dyns[d],
                             driver, r.blocks_per_sm);
                }
            }
            /* The occupancy API's block size for this dynamic size. */
            int min_grid = 0;
            int block = 0;
            cudaError_t e = cudaOccupancyMaxPotentialBlockSize(
                &min_grid, &block, (void (*)(float *, int))vk->func, (size_t)dyns[d], 0);
            occ_kernel k;
            lab_kernel_from_attributes(&attr, 1, dyns[d], &k);
            k.carveout_percent = carveouts[c];
            occ_block_size_result pick;
            occ_status st =
                occ_max_potential_block_size(&gpu->device, &k, 0, NULL, NULL, &pick, NULL);
            if (e != cudaSuccess) {
                (void)cudaGetLastError();
                block = 0;
                min_grid = 0;
            }
            int occ_block = st == OCC_OK ? pick.block_size : 0;
            int occ_grid = st == OCC_OK ? pick.min_grid_size : 0;
            t.comparisons++;
            if (occ_block != block || occ_grid != min_grid) {
                mismatch(&t, "max_potential_block_size", vk->name, carveouts[c], block, dyns[d],
                         (long long)block * 100000 + min_grid,
                         (long long)occ_block * 100000 + occ_grid);
            }
        }
    }
    LAB_CHECK(cudaFuncSetAttribute(vk->func, cudaFuncAttributePreferredSharedMemoryCarveout,
                                   OCC_CARVEOUT_DEFAULT));
    lab_record rec;
    lab_record_begin(&rec, "verify_kernel");
    lab_record_str(&rec, "kernel", vk->name);
    lab_record_int(&rec, "regs", attr.numRegs);
    lab_record_int(&rec, "static_smem_bytes", (long long)attr.sharedSizeBytes);
    lab_record_int(&rec, "local_bytes", (long long)attr.localSizeBytes);
    lab_record_int(&rec, "max_threads", attr.maxThreadsPerBlock);
    lab_record_int(&rec, "comparisons", t.comparisons);
    lab_record_int(&rec, "mismatches", t.mismatches);
    lab_record_int(&rec, "refused", t.refused);
    lab_record_end(&rec);
    total->comparisons += t.comparisons;
    total->mismatches += t.mismatches;
    total->refused += t.refused;
}

void lab_verify(const lab_gpu *gpu, const lab_options *opt)
{
    verify_tally total = {0, 0, 0};
    for (int i = 0; i < KERNEL_COUNT; i++) {
        lab_progress("verify %s (%d of %d)", kernels[i].name, i + 1, KERNEL_COUNT);
        verify_one(gpu, opt, &kernels[i], &total);
    }
    lab_record rec;
    lab_record_begin(&rec, "verify");
    lab_record_int(&rec, "kernels", KERNEL_COUNT);
    lab_record_int(&rec, "carveouts", CARVEOUT_COUNT);
    lab_record_int(&rec, "comparisons", total.comparisons);
    lab_record_int(&rec, "mismatches", total.mismatches);
    lab_record_int(&rec, "refused", total.refused);
    lab_record_end(&rec);
    if (total.mismatches != 0) {
        LAB_FAIL("verify: %lld of %lld comparisons differ between libocc and the driver",
                 total.mismatches, total.comparisons);
    }
    if (gpu->prop.major >= 9) {
        lab_verify_clusters(gpu, opt); /* verify_clusters.cu, on the same kernels */
    }
}

int lab_verify_kernel_count(void)
{
    return KERNEL_COUNT;
}

const void *lab_verify_kernel(int index, const char **name)
{
    *name = kernels[index].name;
    return kernels[index].func;
}
