/*
 * timeline.cu - when and where each block ran: the SM (%smid) and start and
 * end stamps (%globaltimer) of every block, for launches whose last wave is
 * full and launches whose last wave is partial. Each block does a fixed
 * amount of waiting, so the waves stand out; `occ lab timeline` turns the
 * stamps into achieved occupancy over time, waves and the tail.
 */
#include <string.h>

#include "occ_lab.h"

#define TIMELINE_THREADS 256
#define TIMELINE_BLOCKS_PER_SM 4 /* set with a shared-memory reservation */
#define TIMELINE_WORK_NS 40000ull /* each block waits 40 us: far above the
                                     timer's tick, short enough for 4 waves */

__device__ __forceinline__ unsigned long long timer_ns(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__device__ __forceinline__ unsigned sm_id(void)
{
    unsigned id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    return id;
}

/* stamps[3 b .. 3 b + 2] = start ns, end ns, SM of block b. */
__global__ void timeline_kernel(unsigned long long work_ns, unsigned long long *stamps)
{
    __shared__ unsigned long long start;
    if (threadIdx.x == 0) {
        start = timer_ns();
    }
    __syncthreads();
    while (timer_ns() - start < work_ns) {
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned long long *s = stamps + 3 * (size_t)blockIdx.x;
        s[0] = start;
        s[1] = timer_ns();
        s[2] = sm_id();
    }
}

typedef struct timeline_shape {
    const char *name;
    int full_waves;
    int extra_blocks_per_sm_quarter; /* extra blocks: this x SMs / 4 */
    int extra_blocks;                /* and this many more */
} timeline_shape;

static const timeline_shape shapes[] = {
    {"full", 3, 0, 0},      /* three full waves */
    {"quarter", 2, 1, 0},   /* two waves and a quarter of an SM's worth */
    {"one_extra", 1, 0, 1}, /* one wave and a single block: the worst tail */
};

void lab_timeline(const lab_gpu *gpu, const lab_options *opt)
{
    (void)opt;
    const void *kernel = (const void *)timeline_kernel;
    cudaFuncAttributes attr;
    LAB_CHECK(cudaFuncGetAttributes(&attr, kernel));
    LAB_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   (int)gpu->prop.sharedMemPerBlockOptin -
                                       (int)attr.sharedSizeBytes));
    occ_kernel k;
    lab_kernel_from_attributes(&attr, TIMELINE_THREADS, 0, &k);
    occ_dyn_smem_result avail;
    occ_error err;
    if (occ_dyn_smem_available(&gpu->device, &k, TIMELINE_BLOCKS_PER_SM, TIMELINE_THREADS, &avail,
                               &err) != OCC_OK) {
        LAB_FAIL("occ_dyn_smem_available: %s", err.message);
    }
    k.dyn_smem_bytes = avail.fitting_bytes;
    occ_result r;
    lab_occ_calc(gpu, &k, "timeline", &r);
    int driver = -1;
    LAB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&driver, kernel, TIMELINE_THREADS,
                                                            (size_t)k.dyn_smem_bytes));
    if (driver != TIMELINE_BLOCKS_PER_SM || r.blocks_per_sm != TIMELINE_BLOCKS_PER_SM) {
        LAB_FAIL("timeline: %d bytes should leave %d blocks an SM; libocc says %d, the driver %d",
                 k.dyn_smem_bytes, TIMELINE_BLOCKS_PER_SM, r.blocks_per_sm, driver);
    }
    int sms = gpu->prop.multiProcessorCount;
    int wave = TIMELINE_BLOCKS_PER_SM * sms;
    int max_grid = 4 * wave;
    unsigned long long *stamps = NULL;
    LAB_CHECK(cudaMalloc((void **)&stamps, 3 * sizeof(unsigned long long) * (size_t)max_grid));
    unsigned long long *host =
        (unsigned long long *)malloc(3 * sizeof(unsigned long long) * (size_t)max_grid);
    if (host == NULL) {
        LAB_FAIL("cannot allocate %d block stamps", max_grid);
    }
    cudaEvent_t start, stop;
    LAB_CHECK(cudaEventCreate(&start));
    LAB_CHECK(cudaEventCreate(&stop));

    /* Warm-up: module load and the first launch's costs stay out. */
    timeline_kernel<<<wave, TIMELINE_THREADS, (size_t)k.dyn_smem_bytes>>>(1000, stamps);
    LAB_CHECK_LAUNCH();
    LAB_CHECK(cudaDeviceSynchronize());

    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
        const timeline_shape *sh = &shapes[si];
        int grid = sh->full_waves * wave + sh->extra_blocks_per_sm_quarter * sms / 4 +
                   sh->extra_blocks;
        lab_progress("timeline %s: %d blocks", sh->name, grid);
        LAB_CHECK(cudaMemset(stamps, 0, 3 * sizeof(unsigned long long) * (size_t)grid));
        LAB_CHECK(cudaEventRecord(start, 0));
        timeline_kernel<<<grid, TIMELINE_THREADS, (size_t)k.dyn_smem_bytes>>>(TIMELINE_WORK_NS,
                                                                              stamps);
        LAB_CHECK_LAUNCH();
        LAB_CHECK(cudaEventRecord(stop, 0));
        LAB_CHECK(cudaEventSynchronize(stop));
        float ms = 0;
        LAB_CHECK(cudaEventElapsedTime(&ms, start, stop));
        LAB_CHECK(cudaMemcpy(host, stamps, 3 * sizeof(unsigned long long) * (size_t)grid,
                             cudaMemcpyDeviceToHost));
        unsigned long long t0 = ~0ull;
        for (int b = 0; b < grid; b++) {
            if (host[3 * b] == 0 || host[3 * b + 1] < host[3 * b] ||
                host[3 * b + 2] >= (unsigned long long)sms) {
                LAB_FAIL("timeline %s: block %d left no valid stamp (start %llu, end %llu, "
                         "SM %llu)",
                         sh->name, b, host[3 * b], host[3 * b + 1], host[3 * b + 2]);
            }
            if (host[3 * b] < t0) {
                t0 = host[3 * b];
            }
        }
        lab_record rec;
        lab_record_begin(&rec, "launch");
        lab_record_str(&rec, "launch", sh->name);
        lab_record_int(&rec, "grid", grid);
        lab_record_int(&rec, "threads", TIMELINE_THREADS);
        lab_record_int(&rec, "dyn_smem_bytes", k.dyn_smem_bytes);
        lab_record_int(&rec, "blocks_per_sm", driver);
        lab_record_int(&rec, "warps_per_sm", r.warps_per_sm);
        lab_record_int(&rec, "max_warps_per_sm", r.max_warps_per_sm);
        lab_record_int(&rec, "sm_count", sms);
        lab_record_int(&rec, "work_ns", (long long)TIMELINE_WORK_NS);
        lab_record_num(&rec, "kernel_ms", ms);
        lab_record_end(&rec);
        for (int b = 0; b < grid; b++) {
            lab_record_begin(&rec, "block");
            lab_record_str(&rec, "launch", sh->name);
            lab_record_int(&rec, "block", b);
            lab_record_int(&rec, "sm", (long long)host[3 * b + 2]);
            lab_record_int(&rec, "start_ns", (long long)(host[3 * b] - t0));
            lab_record_int(&rec, "end_ns", (long long)(host[3 * b + 1] - t0));
            lab_record_end(&rec);
        }
    }
    LAB_CHECK(cudaEventDestroy(start));
    LAB_CHECK(cudaEventDestroy(stop));
    LAB_CHECK(cudaFree(stamps));
    free(host);
}
