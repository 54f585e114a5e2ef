/*
 * smem_config_probe.cu - launches for finding the driver's launch-time
 * shared-memory configuration (Nsight Compute's launch__shared_mem_config_size,
 * "Shared Memory Configuration Size"). The driver picks it per launch; no
 * document states the rule. Each launch is one point: a kernel (register
 * count, static shared memory), a block size, dynamic shared memory and a
 * carveout preference. The points are a full grid over a few values plus
 * seeded random ones, launched in a shuffled order so that a dependence on
 * the previous launch would show. Run under ncu by run_ncu_profiles.sh:
 *   smem_config_probe LAUNCHES.csv [RANDOM_POINTS]
 * writes one CSV row per launch (in launch order, as ncu numbers them) with
 * the inputs and the attributes cudaFuncGetAttributes reports.
 *
 *   smem_config_probe LAUNCHES.csv targeted
 * (run_smem_config_targeted.sh) launches instead the points that test what
 * the first run could not tell apart (docs/occupancy-rules.md, "The
 * configuration at launch"): grids of 1 to 8,448 blocks, blocks of 800 to
 * 992 threads, a few bytes of shared memory with and without the opt-in,
 * one block by registers at under 640 threads, carveouts without shared
 * memory at large blocks, and cudaFuncSetCacheConfig. Its CSV adds the
 * columns grid, cache_config (cudaFuncCache) and optin (1: the kernel set
 * cudaFuncAttributeMaxDynamicSharedMemorySize to the most it may).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                    \
    do {                                                                               \
        cudaError_t err_ = (call);                                                     \
        if (err_ != cudaSuccess) {                                                     \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,      \
                    cudaGetErrorString(err_));                                         \
            exit(1);                                                                   \
        }                                                                              \
    } while (0)

/* R live accumulators (register pressure) and S bytes of static shared
   memory; dynamic shared memory is touched only on a path never taken. */
template <int R, int S>
__global__ void probe(float *out, const float *in, int n)
{
    float acc[R];
#pragma unroll
    for (int k = 0; k < R; k++) acc[k] = in[(threadIdx.x + k * 37) % n];
    for (int it = 0; it < n; it++) {
#pragma unroll
        for (int k = 0; k < R; k++) acc[k] = acc[k] * acc[(k + 1) % R] + in[(it + k) % n];
    }
    float s = 0;
#pragma unroll
    for (int k = 0; k < R; k++) s += acc[k];
    if (S > 0) {
        constexpr int words = S > 0 ? S / 4 : 1;
        __shared__ float buf[words];
        for (int i = threadIdx.x; i < words; i += blockDim.x) buf[i] = in[i % n];
        __syncthreads();
        s += buf[(threadIdx.x * 7) % words];
    }
    extern __shared__ float dyn[];
    if (n < 0) dyn[threadIdx.x] = s;
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

typedef void (*kernel_fn)(float *, const float *, int);
typedef struct kernel {
    kernel_fn fn;
    const char *name;
} kernel;

#define K(r, s) {probe<r, s>, "probe<" #r ", " #s ">"}
static const kernel kernels[] = {
    K(2, 0),     K(16, 0),     K(40, 0),     K(64, 0),     K(2, 1024),   K(2, 4096),
    K(2, 12288), K(2, 24576),  K(2, 40960),  K(40, 4096),  K(40, 16384), K(16, 8192),
};
#define KERNEL_COUNT ((int)(sizeof kernels / sizeof kernels[0]))

/* The targeted run's kernel that never opts in to more dynamic shared memory
   (as PyTorch's kernels below 48 KB): index KERNEL_COUNT. */
static const kernel no_optin_kernel = K(3, 0);

static const int threads_set[] = {32, 64, 96, 128, 192, 256, 384, 512, 640, 768, 1024};
static const int dyn_set[] = {0, 2048, 8192, 30000, 90000};
static const int carveout_set[] = {-1, 0, 10, 25, 50, 75, 100};
#define N_OF(a) ((int)(sizeof a / sizeof a[0]))

typedef struct point {
    int kernel, threads, dyn, carveout;
    int grid, cache; /* the targeted run's; 264 and cudaFuncCachePreferNone otherwise */
} point;

/* xorshift: the order and the random points repeat from the seed. */
static unsigned long long rng = 0x9E3779B97F4A7C15ull;
static unsigned next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng >> 16);
}

/* Kernel indices of kernels[] by name, for the targeted points. */
enum { P2_0 = 0, P64_0 = 3, P2_4K = 5, P2_12K = 6, NO_OPTIN = KERNEL_COUNT };

/* The targeted points, each group one open question; returns the count. */
static int targeted_points(point *pts)
{
    int n = 0;
    /* Does the grid matter? (the first run kept 264 blocks) */
    static const int grids[] = {1, 66, 132, 264, 1056, 8448};
    for (int g = 0; g < N_OF(grids); g++) {
        pts[n++] = (point){P2_4K, 256, 0, -1, grids[g], 0};
        pts[n++] = (point){P2_0, 256, 0, -1, grids[g], 0};
        pts[n++] = (point){P2_4K, 1024, 0, -1, grids[g], 0};
        pts[n++] = (point){P2_4K, 256, 0, 25, grids[g], 0};
    }
    /* Which block sizes between 768 and 1024 threads are sized for twice
       their resident blocks? */
    for (int t = 800; t <= 1024; t += 32) {
        pts[n++] = (point){P2_4K, t, 0, -1, 264, 0};
        pts[n++] = (point){P2_12K, t, 0, -1, 264, 0};
    }
    /* A few bytes of shared memory (PyTorch's layer norm: 24 dynamic bytes,
       128 threads, no opt-in, got 32 KB where twice its blocks asks 64). */
    static const int small_dyn[] = {8, 24, 128, 512, 1024};
    static const int small_threads[] = {64, 128, 256};
    for (int t = 0; t < N_OF(small_threads); t++) {
        for (int b = 0; b < N_OF(small_dyn); b++) {
            pts[n++] = (point){P2_0, small_threads[t], small_dyn[b], -1, 264, 0};
        }
    }
    static const int no_optin_dyn[] = {24, 128, 1024, 2048};
    for (int b = 0; b < N_OF(no_optin_dyn); b++) {
        pts[n++] = (point){NO_OPTIN, 128, no_optin_dyn[b], -1, 264, 0};
        pts[n++] = (point){NO_OPTIN, 128, no_optin_dyn[b], -1, 8192, 0};
    }
    /* One resident block by registers below 640 threads (96 registers). */
    static const int reg_threads[] = {320, 352, 384, 448, 512};
    for (int t = 0; t < N_OF(reg_threads); t++) {
        pts[n++] = (point){P64_0, reg_threads[t], 0, -1, 264, 0};
        pts[n++] = (point){P64_0, reg_threads[t], 4096, -1, 264, 0};
    }
    /* A carveout without shared memory of its own at large blocks. */
    static const int big_threads[] = {512, 768, 1024};
    for (int t = 0; t < N_OF(big_threads); t++) {
        pts[n++] = (point){P2_0, big_threads[t], 0, 0, 264, 0};
        pts[n++] = (point){P2_0, big_threads[t], 0, 10, 264, 0};
    }
    /* cudaFuncSetCacheConfig: shared, L1, equal; with and without a carveout. */
    for (int c = 1; c <= 3; c++) {
        pts[n++] = (point){P2_4K, 256, 0, -1, 264, c};
        pts[n++] = (point){P2_0, 256, 0, -1, 264, c};
        pts[n++] = (point){P2_4K, 256, 0, 25, 264, c};
    }
    return n;
}
#define TARGETED_MAX 128

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: smem_config_probe LAUNCHES.csv [RANDOM_POINTS]\n");
        return 2;
    }
    FILE *csv = fopen(argv[1], "w");
    if (csv == NULL) {
        perror(argv[1]);
        return 1;
    }
    const bool targeted = argc > 2 && strcmp(argv[2], "targeted") == 0;
    int random_points = argc > 2 && !targeted ? atoi(argv[2]) : 400;
    float *out, *in;
    CHECK(cudaMalloc(&out, 1 << 26));
    CHECK(cudaMalloc(&in, 1 << 24));
    CHECK(cudaMemset(in, 0, 1 << 24));
    int optin = 0;
    CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
    cudaFuncAttributes attr[KERNEL_COUNT + 1];
    for (int k = 0; k < KERNEL_COUNT; k++) {
        CHECK(cudaFuncGetAttributes(&attr[k], (const void *)kernels[k].fn));
        CHECK(cudaFuncSetAttribute((const void *)kernels[k].fn,
                                   cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   optin - (int)attr[k].sharedSizeBytes));
    }
    CHECK(cudaFuncGetAttributes(&attr[KERNEL_COUNT], (const void *)no_optin_kernel.fn));
    /* the grid: every kernel x threads at dyn 0 and the default carveout,
       and every dyn x carveout at 256 threads for each kernel */
    int cap = KERNEL_COUNT * (N_OF(threads_set) + N_OF(dyn_set) * N_OF(carveout_set)) +
              random_points + TARGETED_MAX;
    point *pts = (point *)malloc(sizeof(point) * (size_t)cap);
    int n = 0;
    for (int k = 0; k < KERNEL_COUNT && !targeted; k++) {
        for (int t = 0; t < N_OF(threads_set); t++) pts[n++] = (point){k, threads_set[t], 0, -1};
        for (int d = 0; d < N_OF(dyn_set); d++)
            for (int c = 0; c < N_OF(carveout_set); c++)
                pts[n++] = (point){k, 256, dyn_set[d], carveout_set[c]};
    }
    for (int i = 0; i < random_points && !targeted; i++) {
        pts[n++] = (point){(int)(next_random() % KERNEL_COUNT),
                           threads_set[next_random() % N_OF(threads_set)],
                           (int)(next_random() % 60000u),
                           carveout_set[next_random() % N_OF(carveout_set)]};
    }
    if (targeted) {
        n = targeted_points(pts);
        if (n > TARGETED_MAX) {
            fprintf(stderr, "smem_config_probe: %d targeted points, room for %d\n", n,
                    TARGETED_MAX);
            return 1;
        }
    }
    for (int i = n - 1; i > 0; i--) { /* shuffle */
        int j = (int)(next_random() % (unsigned)(i + 1));
        point t = pts[i];
        pts[i] = pts[j];
        pts[j] = t;
    }
    fprintf(csv, "launch,kernel,regs,static_smem,local,max_threads,threads,dyn_smem,carveout,"
           "driver_blocks%s\n", targeted ? ",grid,cache_config,optin" : "");
    int launched = 0;
    for (int i = 0; i < n; i++) {
        const point *p = &pts[i];
        const cudaFuncAttributes *a = &attr[p->kernel];
        const kernel *kp = p->kernel == KERNEL_COUNT ? &no_optin_kernel : &kernels[p->kernel];
        if (p->threads > a->maxThreadsPerBlock ||
            p->dyn + (int)a->sharedSizeBytes > optin) {
            continue; /* a launch the GPU refuses: not a point */
        }
        const void *fn = (const void *)kp->fn;
        CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributePreferredSharedMemoryCarveout,
                                   p->carveout));
        if (targeted) {
            CHECK(cudaFuncSetCacheConfig(fn, (cudaFuncCache)p->cache));
        }
        int blocks = 0;
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fn, p->threads, p->dyn));
        if (blocks == 0) {
            continue;
        }
        int grid = targeted ? p->grid : 264;
        kp->fn<<<grid, p->threads, p->dyn>>>(out, in, 8);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        fprintf(csv, "%d,\"%s\",%d,%zu,%zu,%d,%d,%d,%d,%d", launched++, kp->name, a->numRegs,
               a->sharedSizeBytes, a->localSizeBytes, a->maxThreadsPerBlock, p->threads, p->dyn,
               p->carveout, blocks);
        if (targeted) {
            fprintf(csv, ",%d,%d,%d", grid, p->cache, p->kernel == KERNEL_COUNT ? 0 : 1);
        }
        fprintf(csv, "\n");
    }
    fprintf(stderr, "smem_config_probe: %d launches\n", launched);
    free(pts);
    return fclose(csv) == 0 ? 0 : 1;
}
