/*
 * spill.cu - seed 000's launch-bounds comparison (docs/sources.md): one
 * register-hungry kernel compiled with __launch_bounds__(256, MIN_BLOCKS)
 * for MIN_BLOCKS 1..8. Each bound caps the registers at what MIN_BLOCKS
 * blocks can share; past the kernel's natural count ptxas spills to local
 * memory, and occupancy rises while the time gets worse.
 */
#include <math.h>
#include <string.h>

#include "occ_lab.h"

#define SPILL_THREADS 256
#define SPILL_VALUES 64       /* live floats a thread keeps: about 64+ registers */
#define SPILL_ROUNDS 8        /* passes over them: FMAs that need them all live */
#define SPILL_THREADS_TOTAL (1 << 20)

template <int MIN_BLOCKS>
__global__ void __launch_bounds__(SPILL_THREADS, MIN_BLOCKS)
    spill_kernel(const float *__restrict__ in, float *__restrict__ out, int rounds)
{
    const size_t total = (size_t)gridDim.x * blockDim.x;
    const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    float v[SPILL_VALUES];
#pragma unroll
    for (int j = 0; j < SPILL_VALUES; j++) {
        v[j] = in[t + (size_t)j * total];
    }
#pragma unroll 1
    for (int r = 0; r < rounds; r++) {
#pragma unroll
        for (int j = 0; j < SPILL_VALUES; j++) {
            v[j] = __fmaf_rn(v[j], v[(j + 7) % SPILL_VALUES], 0.125f);
        }
    }
    float sum = 0.0f;
#pragma unroll
    for (int j = 0; j < SPILL_VALUES; j++) {
        sum += v[j];
    }
    out[t] = sum;
}

typedef void (*spill_fn)(const float *, float *, int);

static const spill_fn kernels[] = {spill_kernel<1>, spill_kernel<2>, spill_kernel<3>,
                                   spill_kernel<4>, spill_kernel<5>, spill_kernel<6>,
                                   spill_kernel<7>, spill_kernel<8>};
#define KERNEL_COUNT ((int)(sizeof kernels / sizeof kernels[0]))

/* The kernel's arithmetic on the host, in the same order: exact. */
static void spill_reference(const float *in, float *out, size_t total, int rounds)
{
    for (size_t t = 0; t < total; t++) {
        float v[SPILL_VALUES];
        for (int j = 0; j < SPILL_VALUES; j++) {
            v[j] = in[t + (size_t)j * total];
        }
        for (int r = 0; r < rounds; r++) {
            for (int j = 0; j < SPILL_VALUES; j++) {
                v[j] = fmaf(v[j], v[(j + 7) % SPILL_VALUES], 0.125f);
            }
        }
        float sum = 0.0f;
        for (int j = 0; j < SPILL_VALUES; j++) {
            sum += v[j];
        }
        out[t] = sum;
    }
}

typedef struct spill_launch {
    spill_fn kernel;
    const float *in;
    float *out;
} spill_launch;

static void launch_spill(void *context)
{
    spill_launch *l = (spill_launch *)context;
    l->kernel<<<SPILL_THREADS_TOTAL / SPILL_THREADS, SPILL_THREADS>>>(l->in, l->out,
                                                                       SPILL_ROUNDS);
    LAB_CHECK_LAUNCH();
}

void lab_spill(const lab_gpu *gpu, const lab_options *opt)
{
    const size_t total = SPILL_THREADS_TOTAL;
    const size_t in_count = total * SPILL_VALUES;
    float *in_host = (float *)malloc(in_count * sizeof(float));
    float *ref = (float *)malloc(total * sizeof(float));
    float *got = (float *)malloc(total * sizeof(float));
    if (in_host == NULL || ref == NULL || got == NULL) {
        LAB_FAIL("cannot allocate the spill experiment's host arrays");
    }
    /* Values in [-0.5, 0.5): v*w + 1/8 stays inside (-0.4, 0.4), so rounds
       neither overflow nor flush to zero. */
    unsigned state = 12345u;
    for (size_t i = 0; i < in_count; i++) {
        state = state * 1664525u + 1013904223u; /* Numerical Recipes' LCG */
        in_host[i] = (float)(int)(state >> 8) * (1.0f / 16777216.0f) - 0.5f;
    }
    lab_progress("spill: host reference");
    spill_reference(in_host, ref, total, SPILL_ROUNDS);
    float *in = NULL;
    float *out = NULL;
    LAB_CHECK(cudaMalloc((void **)&in, in_count * sizeof(float)));
    LAB_CHECK(cudaMalloc((void **)&out, total * sizeof(float)));
    LAB_CHECK(cudaMemcpy(in, in_host, in_count * sizeof(float), cudaMemcpyHostToDevice));

    for (int i = 0; i < KERNEL_COUNT; i++) {
        int min_blocks = i + 1;
        cudaFuncAttributes attr;
        LAB_CHECK(cudaFuncGetAttributes(&attr, (const void *)kernels[i]));
        occ_kernel k;
        lab_kernel_from_attributes(&attr, SPILL_THREADS, 0, &k);
        occ_result r;
        char label[32];
        snprintf(label, sizeof label, "lb%d", min_blocks);
        lab_occ_calc(gpu, &k, label, &r);
        int driver = -1;
        LAB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&driver, (const void *)kernels[i],
                                                                SPILL_THREADS, 0));
        if (driver != r.blocks_per_sm) {
            LAB_FAIL("spill %s: the driver says %d blocks an SM, libocc %d", label, driver,
                     r.blocks_per_sm);
        }
        spill_launch l = {kernels[i], in, out};
        lab_progress("spill __launch_bounds__(256, %d)", min_blocks);
        LAB_CHECK(cudaMemset(out, 0xFF, total * sizeof(float)));
        lab_times t = lab_time_launches(launch_spill, &l, LAB_WARMUPS, opt->quick ? 5 : LAB_RUNS);
        LAB_CHECK(cudaMemcpy(got, out, total * sizeof(float), cudaMemcpyDeviceToHost));
        for (size_t j = 0; j < total; j++) {
            if (memcmp(&got[j], &ref[j], sizeof(float)) != 0) {
                LAB_FAIL("spill %s: out[%zu] is %.9g, expected %.9g", label, j, (double)got[j],
                         (double)ref[j]);
            }
        }
        lab_record rec;
        lab_record_begin(&rec, "spill");
        lab_record_str(&rec, "label", label);
        lab_record_int(&rec, "min_blocks", min_blocks);
        lab_record_int(&rec, "threads", SPILL_THREADS);
        lab_record_int(&rec, "regs", attr.numRegs);
        lab_record_int(&rec, "local_bytes", (long long)attr.localSizeBytes);
        lab_record_int(&rec, "blocks_per_sm", driver);
        lab_record_int(&rec, "warps_per_sm", r.warps_per_sm);
        lab_record_int(&rec, "max_warps_per_sm", r.max_warps_per_sm);
        lab_record_num(&rec, "median_ms", t.median_ms);
        lab_record_num(&rec, "min_ms", t.min_ms);
        lab_record_int(&rec, "runs", t.runs);
        lab_record_bool(&rec, "checked", 1);
        lab_record_end(&rec);
    }
    LAB_CHECK(cudaFree(in));
    LAB_CHECK(cudaFree(out));
    free(in_host);
    free(ref);
    free(got);
}
