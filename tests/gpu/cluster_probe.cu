/*
 * cluster_probe.cu - what the CUDA driver and the hardware say about thread
 * block clusters on the GPU present. It records, it does not judge: the
 * files it writes are the ground truth libocc's cluster functions are tested
 * against (tests/data/h200-clusters/), so it links nothing of occ.
 *
 *  occupancy.csv  a dense sweep: for kernels of several register counts,
 *                 static shared memory and launch bounds, block sizes 32..1024,
 *                 dynamic shared memory 0..the opt-in maximum, cluster sizes
 *                 1..16 in 1-D, 2-D and 3-D shapes, with and without
 *                 cudaFuncAttributeNonPortableClusterSizeAllowed, a few
 *                 carveouts, scheduling policies and grid sizes: the driver's
 *                 cudaOccupancyMaxActiveClusters, cudaOccupancyMaxPotentialClusterSize
 *                 and cudaOccupancyMaxActiveBlocksPerMultiprocessor.
 *  clusters.csv   where the hardware put the blocks of cluster launches
 *                 (one block per SM, forced by shared memory; cluster sizes
 *                 1..16, many waves, jittered block times): for every
 *                 cluster (%clusterid.x), the %smid of its blocks in
 *                 %cluster_ctarank order.
 *  heldout.csv    as occupancy.csv, for random launches (block sizes 1..1024,
 *                 any dynamic shared memory, carveout, policy and cluster
 *                 shape, kernels the sweep does not have), drawn from a fixed
 *                 seed: data the rule was not derived from.
 *  cap.csv        how many blocks of a small kernel the hardware keeps on one
 *                 SM at once, launched with and without clusters.
 *  full.csv       launches of exactly the driver's maximum of active
 *                 clusters, and one cluster more, of blocks that wait long
 *                 enough to be seen together: which SMs each cluster got and
 *                 when it started.
 *  persistent.csv a persistent cluster kernel (static tile striding, as a
 *                 persistent GEMM's tile scheduler does) with its grid sized
 *                 by SM count against one sized by the driver's maximum of
 *                 active clusters, cluster sizes 1, 2, 4, 7, 8, 16.
 *  device.txt     the device, its UUID and the driver version.
 *
 * Why here and not in lab/: it is a recorder of the driver's answers, like
 * driver_probe.cu, built by one nvcc command with nothing else of the tree,
 * so its output can be taken on any CUDA machine and checked in as data.
 *
 * Build and run: tests/gpu/run_cluster_probe.sh OUTDIR (exits 77 without a
 * GPU of compute capability 9.0 or later).
 */
#include <algorithm>
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <vector>

#include "../../lab/cluster_kernels.cuh"

namespace cg = cooperative_groups;

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t e_ = (call);                                                         \
        if (e_ != cudaSuccess) {                                                         \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                \
                    cudaGetErrorString(e_));                                             \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

/* ---- kernels of the occupancy sweep (never launched) ---- */

/* LIVE values stay live across the loop, so ptxas needs about LIVE
   registers; the real count is read back with cudaFuncGetAttributes. */
template <int LIVE> __global__ void regs_kernel(float *out, int n)
{
    float acc[LIVE];
#pragma unroll
    for (int i = 0; i < LIVE; i++) {
        acc[i] = out[threadIdx.x + i];
    }
    for (int j = 0; j < n; j++) {
#pragma unroll
        for (int i = 0; i < LIVE; i++) {
            acc[i] = acc[i] * acc[(i + 1) % LIVE] + 1.0f;
        }
    }
    float s = 0.0f;
#pragma unroll
    for (int i = 0; i < LIVE; i++) {
        s += acc[i];
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

/* 16 KB of static shared memory. */
__global__ void static_smem_kernel(float *out, int n)
{
    __shared__ float s[4096];
    for (int i = threadIdx.x; i < 4096; i += blockDim.x) {
        s[i] = (float)(i * n);
    }
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x * 7) % 4096];
}

/* Launch bounds: 256 threads, and (Hopper's third bound) at most 4 blocks
   per cluster. */
__global__ void __launch_bounds__(256, 1, 4) bounded_cluster_kernel(float *out, int n)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = (float)n;
}

__global__ void __launch_bounds__(384) bounded_kernel(float *out, int n)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = (float)n;
}

/* A compile-time cluster shape. */
__global__ void __cluster_dims__(2, 1, 1) dims2_kernel(float *out, int n)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = (float)n;
}

__global__ void __cluster_dims__(4, 2, 1) dims8_kernel(float *out, int n)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = (float)n;
}

typedef void (*probe_fn)(float *, int);

struct probe_kernel {
    const char *name;
    probe_fn fn;
    bool compiled_cluster; /* __cluster_dims__: config gives no cluster */
};

static const probe_kernel probe_kernels[] = {
    {"regs1", regs_kernel<1>, false},
    {"regs8", regs_kernel<8>, false},
    {"regs24", regs_kernel<24>, false},
    {"regs32", regs_kernel<32>, false},
    {"regs40", regs_kernel<40>, false},
    {"regs56", regs_kernel<56>, false},
    {"regs72", regs_kernel<72>, false},
    {"regs88", regs_kernel<88>, false},
    {"regs120", regs_kernel<120>, false},
    {"regs160", regs_kernel<160>, false},
    {"regs200", regs_kernel<200>, false},
    {"regs240", regs_kernel<240>, false},
    {"static16k", static_smem_kernel, false},
    {"bounded256_c4", bounded_cluster_kernel, false},
    {"bounded384", bounded_kernel, false},
    {"dims2", dims2_kernel, true},
    {"dims8", dims8_kernel, true},
};

/* ---- placement and persistent kernels (launched) ---- */

/* place_kernel and persistent_kernel: lab/cluster_kernels.cuh, shared with
   occ-lab (`occ lab gpcs`, `occ lab clusters`). */
typedef cluster_block_record block_record;
#define place_kernel cluster_place_kernel
#define persistent_kernel cluster_persistent_kernel

/* ---- the sweep ---- */

static cudaLaunchConfig_t launch_config(dim3 grid, int block, int dyn, cudaLaunchAttribute *attrs,
                                        int nattrs)
{
    cudaLaunchConfig_t c;
    memset(&c, 0, sizeof c);
    c.gridDim = grid;
    c.blockDim = dim3((unsigned)block, 1, 1);
    c.dynamicSmemBytes = (size_t)dyn;
    c.stream = 0;
    c.attrs = attrs;
    c.numAttrs = (unsigned)nattrs;
    return c;
}

struct shape {
    int x, y, z;
};

/* Every cluster size 1..16 as 1-D along x, and, where the size factors,
   along y and z and as 2-D and 3-D shapes. */
static std::vector<shape> shapes_of(int n)
{
    std::vector<shape> s;
    s.push_back({n, 1, 1});
    if (n > 1) {
        s.push_back({1, n, 1});
        s.push_back({1, 1, n});
    }
    for (int a = 2; a < n; a++) {
        if (n % a == 0) {
            s.push_back({a, n / a, 1});
            int rest = n / a;
            for (int b = 2; b < rest; b++) {
                if (rest % b == 0) {
                    s.push_back({a, b, rest / b});
                    break;
                }
            }
            break;
        }
    }
    return s;
}

static FILE *open_out(const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    return f;
}

static FILE *open_out_append(const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "a");
    if (!f) {
        perror(path);
        exit(1);
    }
    return f;
}

static long long rows;

/* One row per cluster shape of one (kernel, flag, carveout, policy, grid,
   block, dyn) point. grid_clusters is how many clusters the config's grid
   holds (the grid is the cluster shape times that along x). */
static void sweep_point(FILE *csv, const probe_kernel &k, const cudaFuncAttributes &a,
                        int non_portable, int carveout, int policy, int grid_clusters, int block,
                        int dyn, bool all_shapes)
{
    int bps = -1;
    cudaError_t eb =
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps, (const void *)k.fn, block, (size_t)dyn);
    cudaGetLastError();
    cudaLaunchAttribute attrs[2];
    int nattr = 0;
    if (policy >= 0) {
        attrs[nattr].id = cudaLaunchAttributeClusterSchedulingPolicyPreference;
        attrs[nattr].val.clusterSchedulingPolicyPreference = (cudaClusterSchedulingPolicy)policy;
        nattr++;
    }
    int pot = -1;
    cudaLaunchConfig_t pc = launch_config(dim3(720720u), block, dyn, attrs, nattr);
    if (grid_clusters != 0) {
        /* the grid variants also ask the potential size of a small grid */
        pc.gridDim = dim3((unsigned)grid_clusters);
    }
    cudaError_t ep = cudaOccupancyMaxPotentialClusterSize(&pot, (const void *)k.fn, &pc);
    cudaGetLastError();
    int max_size = k.compiled_cluster ? 1 : 16;
    for (int n = 1; n <= max_size; n++) {
        std::vector<shape> shapes = shapes_of(n);
        size_t count = all_shapes ? shapes.size() : 1;
        for (size_t i = 0; i < count; i++) {
            shape s = shapes[i];
            cudaLaunchAttribute cattrs[2];
            int cn = 0;
            if (!k.compiled_cluster) {
                cattrs[cn].id = cudaLaunchAttributeClusterDimension;
                cattrs[cn].val.clusterDim.x = (unsigned)s.x;
                cattrs[cn].val.clusterDim.y = (unsigned)s.y;
                cattrs[cn].val.clusterDim.z = (unsigned)s.z;
                cn++;
            } else {
                cudaFuncAttributes fa = a;
                s.x = fa.requiredClusterWidth;
                s.y = fa.requiredClusterHeight;
                s.z = fa.requiredClusterDepth;
            }
            if (policy >= 0) {
                cattrs[cn++] = attrs[0];
            }
            int gc = grid_clusters > 0 ? grid_clusters : 1024;
            dim3 grid((unsigned)(s.x * gc), (unsigned)s.y, (unsigned)s.z);
            cudaLaunchConfig_t c = launch_config(grid, block, dyn, cattrs, cn);
            int active = -1;
            cudaError_t ea = cudaOccupancyMaxActiveClusters(&active, (const void *)k.fn, &c);
            cudaGetLastError();
            fprintf(csv, "%s,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d\n", k.name,
                    a.numRegs, (int)a.sharedSizeBytes, a.maxThreadsPerBlock, non_portable,
                    carveout, policy, grid_clusters, block, dyn, s.x, s.y, s.z, s.x * s.y * s.z,
                    eb == cudaSuccess ? bps : -1, (int)eb, ep == cudaSuccess ? pot : -1, (int)ep,
                    ea == cudaSuccess ? active : -1, (int)ea);
            rows++;
        }
    }
}

static void sweep(const char *dir, const cudaDeviceProp &prop)
{
    FILE *csv = open_out(dir, "occupancy.csv");
    fprintf(csv, "kernel,regs,static_smem,max_threads,non_portable,carveout,policy,"
                 "grid_clusters,block,dyn_smem,cluster_x,cluster_y,cluster_z,cluster_size,"
                 "blocks_per_sm,blocks_status,potential_cluster_size,potential_status,"
                 "active_clusters,active_status\n");
    const int optin = (int)prop.sharedMemPerBlockOptin;
    static const int blocks[] = {32, 64, 96, 128, 160, 192, 256, 320, 384, 512, 640, 768, 1024};
    for (const probe_kernel &k : probe_kernels) {
        cudaFuncAttributes a;
        CHECK(cudaFuncGetAttributes(&a, (const void *)k.fn));
        int max_dyn = optin - (int)a.sharedSizeBytes;
        CHECK(cudaFuncSetAttribute((const void *)k.fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   max_dyn));
        CHECK(cudaFuncGetAttributes(&a, (const void *)k.fn));
        FILE *dev = open_out_append(dir, "device.txt");
        fprintf(dev,
                "kernel=%s regs=%d static_smem=%zu local=%zu max_threads=%d max_dyn=%d "
                "required_cluster=%dx%dx%d cluster_dim_must_be_set=%d non_portable_attr=%d\n",
                k.name, a.numRegs, a.sharedSizeBytes, a.localSizeBytes, a.maxThreadsPerBlock,
                a.maxDynamicSharedSizeBytes, a.requiredClusterWidth, a.requiredClusterHeight,
                a.requiredClusterDepth, a.clusterDimMustBeSet, a.nonPortableClusterSizeAllowed);
        fclose(dev);
        const int dyns[] = {0,     1024,  6000,  12288, 20000,  30000,  45000,  60000,
                            76000, 90000, 115000, 150000, 180000, 200000, max_dyn};
        for (int np = 0; np <= 1; np++) {
            CHECK(cudaFuncSetAttribute((const void *)k.fn,
                                       cudaFuncAttributeNonPortableClusterSizeAllowed, np));
            for (int b : blocks) {
                for (int dyn : dyns) {
                    if (dyn > max_dyn) {
                        continue;
                    }
                    /* every shape for a sample; 1-D clusters for the rest */
                    bool all = (b % 96 == 0 || b == 1024) && dyn % 2 == 0;
                    sweep_point(csv, k, a, np, -1, -1, 0, b, dyn, all);
                }
            }
        }
        CHECK(cudaFuncSetAttribute((const void *)k.fn,
                                   cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    }
    /* Carveouts, scheduling policies and grid sizes on two kernels. */
    static const int some_blocks[] = {64, 128, 256, 384, 1024};
    static const int some_dyns[] = {0, 20000, 60000, 115000, 200000};
    for (int ki : {1, 4}) {
        const probe_kernel &k = probe_kernels[ki];
        cudaFuncAttributes a;
        CHECK(cudaFuncGetAttributes(&a, (const void *)k.fn));
        for (int b : some_blocks) {
            for (int dyn : some_dyns) {
                for (int policy : {0, 1, 2}) {
                    sweep_point(csv, k, a, 1, -1, policy, 0, b, dyn, false);
                }
                for (int gc : {1, 3, 7, 15, 66}) {
                    sweep_point(csv, k, a, 1, -1, -1, gc, b, dyn, false);
                }
            }
        }
        for (int carve : {0, 25, 50, 75, 100}) {
            CHECK(cudaFuncSetAttribute((const void *)k.fn,
                                       cudaFuncAttributePreferredSharedMemoryCarveout, carve));
            for (int b : some_blocks) {
                for (int dyn : some_dyns) {
                    sweep_point(csv, k, a, 1, carve, -1, 0, b, dyn, false);
                }
            }
        }
        CHECK(cudaFuncSetAttribute((const void *)k.fn,
                                   cudaFuncAttributePreferredSharedMemoryCarveout, -1));
    }
    fclose(csv);
    printf("occupancy.csv: %lld rows\n", rows);
}

/* ---- placement ---- */

static int driver_active_clusters(const void *fn, int size, int block, int dyn)
{
    cudaLaunchAttribute at;
    at.id = cudaLaunchAttributeClusterDimension;
    at.val.clusterDim.x = (unsigned)size;
    at.val.clusterDim.y = 1;
    at.val.clusterDim.z = 1;
    cudaLaunchConfig_t c = launch_config(dim3((unsigned)size * 64), block, dyn, &at, 1);
    int n = -1;
    CHECK(cudaOccupancyMaxActiveClusters(&n, fn, &c));
    return n;
}

static void launch_clusters(const void *fn, void **args, int size, int clusters, int block,
                            int dyn)
{
    cudaLaunchAttribute at;
    at.id = cudaLaunchAttributeClusterDimension;
    at.val.clusterDim.x = (unsigned)size;
    at.val.clusterDim.y = 1;
    at.val.clusterDim.z = 1;
    cudaLaunchConfig_t c = launch_config(dim3((unsigned)(size * clusters)), block, dyn, &at, 1);
    CHECK(cudaLaunchKernelExC(&c, fn, args));
    CHECK(cudaGetLastError());
}

static void placement(const char *dir, const cudaDeviceProp &prop)
{
    const void *fn = (const void *)place_kernel;
    /* More than half the SM's shared memory: one block per SM. */
    int dyn = (int)prop.sharedMemPerBlockOptin;
    CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, dyn));
    CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    int bps = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps, fn, 128, (size_t)dyn));
    printf("placement: %d block(s) per SM at %d bytes of dynamic shared memory\n", bps, dyn);
    const int sms = prop.multiProcessorCount;
    const int waves = 24;
    block_record *rec = nullptr;
    size_t max_blocks = (size_t)sms * waves + 16;
    CHECK(cudaMalloc(&rec, max_blocks * sizeof(block_record)));
    std::vector<block_record> host(max_blocks);
    FILE *csv = open_out(dir, "clusters.csv");
    fprintf(csv, "cluster_size,rep,cluster,smid_by_rank\n");
    FILE *full = open_out(dir, "full.csv");
    fprintf(full, "cluster_size,dyn_smem,blocks_per_sm,driver_active_clusters,launched_clusters,"
                  "block,cluster,rank,smid,start_ns,end_ns\n");
    long long spin = 20000; /* cycles: about 10 us at the H200's 1.98 GHz */
    for (int size = 1; size <= 16; size++) {
        int active = driver_active_clusters(fn, size, 128, dyn);
        int clusters = sms * waves / size;
        for (int rep = 0; rep < 3; rep++) {
            int jitter = 1;
            void *args[] = {&rec, &spin, &jitter};
            CHECK(cudaMemset(rec, 0xff, max_blocks * sizeof(block_record)));
            launch_clusters(fn, args, size, clusters, 128, dyn);
            CHECK(cudaDeviceSynchronize());
            CHECK(cudaMemcpy(host.data(), rec, (size_t)clusters * size * sizeof(block_record),
                             cudaMemcpyDeviceToHost));
            /* one row per cluster: its blocks' SMs in rank order */
            for (int c = 0; c < clusters; c++) {
                unsigned by_rank[16];
                for (int b = c * size; b < (c + 1) * size; b++) {
                    if (host[b].cluster != (unsigned)c || host[b].rank >= (unsigned)size) {
                        fprintf(stderr, "block %d: cluster %u rank %u, expected cluster %d\n", b,
                                host[b].cluster, host[b].rank, c);
                        exit(1);
                    }
                    by_rank[host[b].rank] = host[b].smid;
                }
                fprintf(csv, "%d,%d,%d,", size, rep, c);
                for (int i = 0; i < size; i++) {
                    fprintf(csv, i == 0 ? "%u" : " %u", by_rank[i]);
                }
                fprintf(csv, "\n");
            }
        }
        /* Exactly the driver's maximum, then one more, of long blocks
           (about 1 ms, no jitter): the first all start together if the
           maximum is achievable; the extra one starts late if it is tight.
           At one block per SM and at two (do a cluster's blocks share an
           SM when they can?). */
        for (int full_dyn : {dyn, 100000}) {
            int full_bps = 0;
            CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&full_bps, fn, 128,
                                                                (size_t)full_dyn));
            int full_active = driver_active_clusters(fn, size, 128, full_dyn);
            for (int extra = 0; extra <= 1; extra++) {
                long long long_spin = 2000000;
                int jitter = 0;
                void *args[] = {&rec, &long_spin, &jitter};
                int n = full_active + extra;
                if ((size_t)n * size > max_blocks) {
                    continue;
                }
                CHECK(cudaMemset(rec, 0xff, max_blocks * sizeof(block_record)));
                launch_clusters(fn, args, size, n, 128, full_dyn);
                CHECK(cudaDeviceSynchronize());
                CHECK(cudaMemcpy(host.data(), rec, (size_t)n * size * sizeof(block_record),
                                 cudaMemcpyDeviceToHost));
                for (int b = 0; b < n * size; b++) {
                    const block_record &r = host[b];
                    fprintf(full, "%d,%d,%d,%d,%d,%d,%u,%u,%u,%llu,%llu\n", size, full_dyn,
                            full_bps, full_active, n, b, r.cluster, r.rank, r.smid, r.start_ns,
                            r.end_ns);
                }
            }
        }
        printf("placement: cluster size %2d: driver %3d active clusters (%3d SMs)\n", size,
               active, active * size);
    }
    fclose(csv);
    fclose(full);
    CHECK(cudaFree(rec));
}

/* ---- the held-out sample ---- */

/* Kernels for the held-out sample: four register counts the sweep does not
   have, and some of its own. */
static const probe_kernel heldout_kernels[] = {
    {"regs16", regs_kernel<16>, false},        {"regs48", regs_kernel<48>, false},
    {"regs100", regs_kernel<100>, false},      {"regs180", regs_kernel<180>, false},
    {"regs1", regs_kernel<1>, false},          {"regs72", regs_kernel<72>, false},
    {"static16k", static_smem_kernel, false},  {"bounded384", bounded_kernel, false},
    {"bounded256_c4", bounded_cluster_kernel, false}, {"dims2", dims2_kernel, true},
};

static unsigned long long rng_state = 0x0cc5eed2026ull;

/* xorshift64*: a fixed sequence, so the sample can be drawn again. */
static unsigned rnd(unsigned n)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (unsigned)((rng_state * 0x2545F4914F6CDD1Dull) >> 33) % n;
}

static void heldout(const char *dir, const cudaDeviceProp &prop, int count, const char *name,
                    unsigned long long seed, int max_blocks)
{
    rng_state = seed;
    FILE *csv = open_out(dir, name);
    fprintf(csv, "kernel,regs,static_smem,max_threads,non_portable,carveout,policy,"
                 "grid_clusters,block,dyn_smem,cluster_x,cluster_y,cluster_z,cluster_size,"
                 "blocks_per_sm,blocks_status,potential_cluster_size,potential_status,"
                 "active_clusters,active_status\n");
    const int optin = (int)prop.sharedMemPerBlockOptin;
    const int nk = (int)(sizeof heldout_kernels / sizeof heldout_kernels[0]);
    for (const probe_kernel &k : heldout_kernels) {
        cudaFuncAttributes a;
        CHECK(cudaFuncGetAttributes(&a, (const void *)k.fn));
        CHECK(cudaFuncSetAttribute((const void *)k.fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   optin - (int)a.sharedSizeBytes));
    }
    for (int i = 0; i < count; i++) {
        const probe_kernel &k = heldout_kernels[rnd((unsigned)nk)];
        const void *fn = (const void *)k.fn;
        int np = (int)rnd(2);
        int carve = rnd(3) == 0 ? -1 : (int)rnd(101);
        int policy = (int)rnd(4) - 1;
        CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeNonPortableClusterSizeAllowed, np));
        CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributePreferredSharedMemoryCarveout, carve));
        cudaFuncAttributes a;
        CHECK(cudaFuncGetAttributes(&a, fn));
        int max_dyn = optin - (int)a.sharedSizeBytes;
        int block = 1 + (int)rnd(1024);
        int dyn = rnd(5) == 0 ? 0 : (int)rnd((unsigned)max_dyn + 1);
        shape sh;
        do {
            sh.x = 1 + (int)rnd(16);
            sh.y = rnd(2) ? 1 : 1 + (int)rnd(4);
            sh.z = rnd(3) ? 1 : 1 + (int)rnd(3);
            /* past 16 along x; not drawn for the first sample (run 2), which
               had no such draw, so both samples can be drawn again */
            if (max_blocks > 20 && rnd(4) == 0) {
                sh.x = 1 + (int)rnd((unsigned)max_blocks);
            }
        } while (sh.x * sh.y * sh.z > max_blocks);
        int gc = rnd(3) == 0 ? 1 + (int)rnd(200) : 1024;
        cudaLaunchAttribute attrs[2];
        int nattr = 0;
        if (!k.compiled_cluster) {
            attrs[nattr].id = cudaLaunchAttributeClusterDimension;
            attrs[nattr].val.clusterDim.x = (unsigned)sh.x;
            attrs[nattr].val.clusterDim.y = (unsigned)sh.y;
            attrs[nattr].val.clusterDim.z = (unsigned)sh.z;
            nattr++;
        } else {
            sh.x = a.requiredClusterWidth;
            sh.y = a.requiredClusterHeight;
            sh.z = a.requiredClusterDepth;
        }
        if (policy >= 0) {
            attrs[nattr].id = cudaLaunchAttributeClusterSchedulingPolicyPreference;
            attrs[nattr].val.clusterSchedulingPolicyPreference = (cudaClusterSchedulingPolicy)policy;
            nattr++;
        }
        int bps = -1, pot = -1, active = -1;
        cudaError_t eb =
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps, fn, block, (size_t)dyn);
        cudaGetLastError();
        /* the potential size: no cluster attribute, a grid every size divides */
        cudaLaunchAttribute pattr[1];
        int np_attr = 0;
        if (policy >= 0) {
            pattr[np_attr++] = attrs[nattr - 1];
        }
        cudaLaunchConfig_t pc = launch_config(dim3(720720u, (unsigned)sh.y, (unsigned)sh.z), block,
                                              dyn, pattr, np_attr);
        cudaError_t ep = cudaOccupancyMaxPotentialClusterSize(&pot, fn, &pc);
        cudaGetLastError();
        dim3 grid((unsigned)(sh.x * gc), (unsigned)sh.y, (unsigned)sh.z);
        cudaLaunchConfig_t c = launch_config(grid, block, dyn, attrs, nattr);
        cudaError_t ea = cudaOccupancyMaxActiveClusters(&active, fn, &c);
        cudaGetLastError();
        fprintf(csv, "%s,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d\n", k.name,
                a.numRegs, (int)a.sharedSizeBytes, a.maxThreadsPerBlock, np, carve, policy,
                gc == 1024 ? 0 : gc, block, dyn, sh.x, sh.y, sh.z, sh.x * sh.y * sh.z,
                eb == cudaSuccess ? bps : -1, (int)eb, ep == cudaSuccess ? pot : -1, (int)ep,
                ea == cudaSuccess ? active : -1, (int)ea);
    }
    fclose(csv);
    printf("%s: %d rows\n", name, count);
}

/* ---- blocks per SM of a cluster launch, on the hardware ---- */

/* A small kernel (64 threads, no shared memory: 32 blocks fit an SM) run
   without clusters and with clusters of 1, 2 and 4: the most blocks the
   hardware had on one SM at once. */
static void cap(const char *dir, const cudaDeviceProp &prop)
{
    const void *fn = (const void *)place_kernel;
    CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, 0));
    int bps = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps, fn, 64, 0));
    const int sms = prop.multiProcessorCount;
    const int blocks = sms * 64;
    block_record *rec = nullptr;
    CHECK(cudaMalloc(&rec, (size_t)blocks * sizeof(block_record)));
    std::vector<block_record> host((size_t)blocks);
    FILE *csv = open_out(dir, "cap.csv");
    fprintf(csv, "cluster_size,blocks,occupancy_api_blocks_per_sm,driver_active_clusters,"
                 "max_blocks_on_one_sm,max_blocks_at_once\n");
    for (int size : {0, 1, 2, 4}) {
        long long spin = 200000; /* about 100 us */
        int jitter = 0;
        void *args[] = {&rec, &spin, &jitter};
        int driver = -1;
        if (size == 0) {
            CHECK(cudaLaunchKernel(fn, dim3((unsigned)blocks), dim3(64), args, 0, 0));
        } else {
            driver = driver_active_clusters(fn, size, 64, 0);
            launch_clusters(fn, args, size, blocks / size, 64, 0);
        }
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(host.data(), rec, host.size() * sizeof(block_record),
                         cudaMemcpyDeviceToHost));
        /* the most blocks overlapping in time, per SM and in all */
        std::vector<std::pair<unsigned long long, int>> events;
        std::vector<std::vector<std::pair<unsigned long long, int>>> per_sm(1024);
        for (const block_record &r : host) {
            events.push_back({r.start_ns, 1});
            events.push_back({r.end_ns, -1});
            per_sm[r.smid % 1024].push_back({r.start_ns, 1});
            per_sm[r.smid % 1024].push_back({r.end_ns, -1});
        }
        auto peak = [](std::vector<std::pair<unsigned long long, int>> &ev) {
            std::sort(ev.begin(), ev.end(), [](const auto &a, const auto &b) {
                return a.first != b.first ? a.first < b.first : a.second < b.second;
            });
            int now = 0, most = 0;
            for (const auto &e : ev) {
                now += e.second;
                most = std::max(most, now);
            }
            return most;
        };
        int most_sm = 0;
        for (auto &ev : per_sm) {
            most_sm = std::max(most_sm, peak(ev));
        }
        int most_all = peak(events);
        fprintf(csv, "%d,%d,%d,%d,%d,%d\n", size, blocks, bps, driver, most_sm, most_all);
        printf("cap: cluster size %d: %d blocks of 64 threads (%d per SM by the occupancy API), "
               "driver %d active clusters: at most %d blocks on one SM, %d at once in all\n",
               size, blocks, bps, driver, most_sm, most_all);
    }
    fclose(csv);
    CHECK(cudaFree(rec));
}

/* ---- clusters above 16 blocks ---- */

/* The occupancy API for clusters of 17 to 64 blocks (the first held-out
   sample showed the driver answering 18 and 20 with the non-portable
   attribute), and real launches of such clusters: the launch's status and
   where each cluster's blocks ran. */
static void big_clusters(const char *dir, const cudaDeviceProp &prop)
{
    FILE *csv = open_out(dir, "big.csv");
    fprintf(csv, "kernel,regs,static_smem,max_threads,non_portable,carveout,policy,"
                 "grid_clusters,block,dyn_smem,cluster_x,cluster_y,cluster_z,cluster_size,"
                 "blocks_per_sm,blocks_status,potential_cluster_size,potential_status,"
                 "active_clusters,active_status\n");
    const int optin = (int)prop.sharedMemPerBlockOptin;
    static const int blocks[] = {32, 128, 256, 512, 1024};
    static const int dyns[] = {0, 30000, 60000, 100000, 200000};
    for (int ki : {0, 1, 7, 12, 14}) {
        const probe_kernel &k = probe_kernels[ki];
        const void *fn = (const void *)k.fn;
        cudaFuncAttributes a;
        CHECK(cudaFuncGetAttributes(&a, fn));
        CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   optin - (int)a.sharedSizeBytes));
        CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributePreferredSharedMemoryCarveout, -1));
        for (int np = 0; np <= 1; np++) {
            CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeNonPortableClusterSizeAllowed, np));
            CHECK(cudaFuncGetAttributes(&a, fn));
            for (int policy : {-1, 1, 2}) {
                for (int b : blocks) {
                    for (int dyn : dyns) {
                        if (dyn > optin - (int)a.sharedSizeBytes) {
                            continue;
                        }
                        int bps = -1, pot = -1;
                        cudaError_t eb =
                            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps, fn, b, (size_t)dyn);
                        cudaGetLastError();
                        cudaLaunchAttribute pol;
                        pol.id = cudaLaunchAttributeClusterSchedulingPolicyPreference;
                        pol.val.clusterSchedulingPolicyPreference =
                            (cudaClusterSchedulingPolicy)(policy < 0 ? 0 : policy);
                        cudaLaunchConfig_t pc =
                            launch_config(dim3(720720u), b, dyn, &pol, policy >= 0 ? 1 : 0);
                        cudaError_t ep = cudaOccupancyMaxPotentialClusterSize(&pot, fn, &pc);
                        cudaGetLastError();
                        for (int n = 15; n <= 64; n++) {
                            if (n > 40 && n % 8 != 0) {
                                continue;
                            }
                            shape shs[2] = {{n, 1, 1}, {1, 1, 1}};
                            int nsh = 1;
                            if (n % 2 == 0) {
                                shs[nsh++] = {2, n / 2, 1};
                            }
                            for (int i = 0; i < nsh; i++) {
                                shape sh = shs[i];
                                cudaLaunchAttribute at[2];
                                at[0].id = cudaLaunchAttributeClusterDimension;
                                at[0].val.clusterDim.x = (unsigned)sh.x;
                                at[0].val.clusterDim.y = (unsigned)sh.y;
                                at[0].val.clusterDim.z = 1;
                                int na = 1;
                                if (policy >= 0) {
                                    at[na++] = pol;
                                }
                                cudaLaunchConfig_t c = launch_config(
                                    dim3((unsigned)sh.x * 64, (unsigned)sh.y, 1), b, dyn, at, na);
                                int active = -1;
                                cudaError_t ea = cudaOccupancyMaxActiveClusters(&active, fn, &c);
                                cudaGetLastError();
                                fprintf(csv,
                                        "%s,%d,%d,%d,%d,-1,%d,0,%d,%d,%d,%d,1,%d,%d,%d,%d,%d,%d,%d\n",
                                        k.name, a.numRegs, (int)a.sharedSizeBytes,
                                        a.maxThreadsPerBlock, np, policy, b, dyn, sh.x, sh.y,
                                        sh.x * sh.y, eb == cudaSuccess ? bps : -1, (int)eb,
                                        ep == cudaSuccess ? pot : -1, (int)ep,
                                        ea == cudaSuccess ? active : -1, (int)ea);
                            }
                        }
                    }
                }
            }
        }
    }
    fclose(csv);
    /* Real launches: one block per SM, and small blocks (dyn 0). */
    const void *fn = (const void *)place_kernel;
    CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, optin));
    CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    block_record *rec = nullptr;
    const int max_blocks = 64 * 64;
    CHECK(cudaMalloc(&rec, (size_t)max_blocks * sizeof(block_record)));
    std::vector<block_record> host((size_t)max_blocks);
    FILE *launch = open_out(dir, "big_launch.csv");
    fprintf(launch, "cluster_size,dyn_smem,policy,driver_active_clusters,launch_status,cluster,"
                    "smid_by_rank\n");
    for (int size : {16, 17, 18, 20, 24, 32, 33}) {
        for (int dyn : {0, optin}) {
            for (int policy : {-1, 2}) {
                cudaLaunchAttribute at[2];
                at[0].id = cudaLaunchAttributeClusterDimension;
                at[0].val.clusterDim.x = (unsigned)size;
                at[0].val.clusterDim.y = 1;
                at[0].val.clusterDim.z = 1;
                int na = 1;
                if (policy >= 0) {
                    at[na].id = cudaLaunchAttributeClusterSchedulingPolicyPreference;
                    at[na].val.clusterSchedulingPolicyPreference =
                        (cudaClusterSchedulingPolicy)policy;
                    na++;
                }
                int clusters = 20;
                cudaLaunchConfig_t c =
                    launch_config(dim3((unsigned)(size * clusters)), 128, dyn, at, na);
                int active = -1;
                cudaError_t ea = cudaOccupancyMaxActiveClusters(&active, fn, &c);
                cudaGetLastError();
                long long spin = 20000;
                int jitter = 1;
                void *args[] = {&rec, &spin, &jitter};
                CHECK(cudaMemset(rec, 0xff, (size_t)max_blocks * sizeof(block_record)));
                cudaError_t el = cudaLaunchKernelExC(&c, fn, args);
                if (el == cudaSuccess) {
                    el = cudaDeviceSynchronize();
                }
                cudaGetLastError();
                printf("big: %d-block clusters, dyn %d, policy %d: driver %d active (%s), "
                       "launch %s\n",
                       size, dyn, policy, ea == cudaSuccess ? active : -1, cudaGetErrorName(ea),
                       cudaGetErrorName(el));
                if (el != cudaSuccess) {
                    fprintf(launch, "%d,%d,%d,%d,%d,,\n", size, dyn, policy,
                            ea == cudaSuccess ? active : -1, (int)el);
                    continue;
                }
                CHECK(cudaMemcpy(host.data(), rec, (size_t)size * clusters * sizeof(block_record),
                                 cudaMemcpyDeviceToHost));
                for (int cl = 0; cl < clusters; cl++) {
                    fprintf(launch, "%d,%d,%d,%d,0,%d,", size, dyn, policy,
                            ea == cudaSuccess ? active : -1, cl);
                    for (int b = cl * size; b < (cl + 1) * size; b++) {
                        fprintf(launch, b == cl * size ? "%u" : " %u", host[b].smid);
                    }
                    fprintf(launch, "\n");
                }
            }
        }
    }
    fclose(launch);
    CHECK(cudaFree(rec));
}

/* ---- the persistent grid experiment ---- */

static void persistent(const char *dir, const cudaDeviceProp &prop)
{
    const void *fn = (const void *)persistent_kernel;
    int dyn = (int)prop.sharedMemPerBlockOptin;
    CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, dyn));
    CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    const int sms = prop.multiProcessorCount;
    const int block = 256;
    const int tiles = 5040; /* 7!: divides evenly among 1..10, 12, 14, 15, 16 clusters */
    int work = 2000;        /* FMAs per thread per tile: a few microseconds */
    float *out = nullptr;
    unsigned *smids = nullptr;
    CHECK(cudaMalloc(&out, (size_t)sms * 2 * block * sizeof(float)));
    CHECK(cudaMalloc(&smids, (size_t)sms * 2 * sizeof(unsigned)));
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    FILE *csv = open_out(dir, "persistent.csv");
    fprintf(csv, "cluster_size,grid,clusters,blocks,driver_active_clusters,sms_used,tiles,"
                 "work,median_ms,min_ms,max_ms\n");
    printf("\npersistent cluster kernel, %d tiles of %d FMAs per thread, %d threads, one block "
           "per SM\n",
           tiles, work, block);
    printf("%4s %-14s %8s %6s %7s %8s %10s\n", "size", "grid", "clusters", "blocks", "active",
           "SMs used", "median ms");
    for (int size : {1, 2, 4, 7, 8, 16}) {
        int active = driver_active_clusters(fn, size, block, dyn);
        for (int g = 0; g < 2; g++) {
            int clusters = g == 0 ? sms / size : active;
            void *args[] = {&out, &smids, (void *)&tiles, &work};
            std::vector<float> ms;
            for (int rep = 0; rep < 9; rep++) {
                CHECK(cudaMemset(smids, 0xff, (size_t)sms * 2 * sizeof(unsigned)));
                CHECK(cudaEventRecord(e0));
                launch_clusters(fn, args, size, clusters, block, dyn);
                CHECK(cudaEventRecord(e1));
                CHECK(cudaEventSynchronize(e1));
                float t = 0;
                CHECK(cudaEventElapsedTime(&t, e0, e1));
                if (rep > 0) {
                    ms.push_back(t);
                }
            }
            std::vector<unsigned> ids((size_t)clusters * size);
            CHECK(cudaMemcpy(ids.data(), smids, ids.size() * sizeof(unsigned),
                             cudaMemcpyDeviceToHost));
            std::sort(ids.begin(), ids.end());
            int used = (int)(std::unique(ids.begin(), ids.end()) - ids.begin());
            std::sort(ms.begin(), ms.end());
            float median = ms[ms.size() / 2];
            const char *name = g == 0 ? "sms/size" : "active";
            fprintf(csv, "%d,%s,%d,%d,%d,%d,%d,%d,%.4f,%.4f,%.4f\n", size, name, clusters,
                    clusters * size, active, used, tiles, work, median, ms.front(), ms.back());
            printf("%4d %-14s %8d %6d %7d %8d %10.4f\n", size, name, clusters, clusters * size,
                   active, used, median);
        }
    }
    fclose(csv);
    CHECK(cudaFree(out));
    CHECK(cudaFree(smids));
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        printf("SKIPPED: no CUDA GPU\n");
        return 77;
    }
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    if (prop.major < 9) {
        printf("SKIPPED: %s is compute capability %d.%d; clusters need 9.0\n", prop.name,
               prop.major, prop.minor);
        return 77;
    }
    int driver = 0, runtime = 0;
    CHECK(cudaDriverGetVersion(&driver));
    CHECK(cudaRuntimeGetVersion(&runtime));
    FILE *dev = open_out(dir, "device.txt");
    char uuid[64];
    int p = 0;
    for (int i = 0; i < 16; i++) {
        p += snprintf(uuid + p, sizeof uuid - (size_t)p, "%02x",
                      (unsigned char)prop.uuid.bytes[i]);
    }
    int cluster_launch = 0;
    CHECK(cudaDeviceGetAttribute(&cluster_launch, cudaDevAttrClusterLaunch, 0));
    fprintf(dev,
            "name=%s\ncc=%d.%d\nsms=%d\nuuid=GPU-%s\ndriver_api=%d\nruntime_api=%d\n"
            "smem_per_sm=%zu\nsmem_per_block_optin=%zu\nreserved_smem_per_block=%zu\n"
            "cluster_launch=%d\n",
            prop.name, prop.major, prop.minor, prop.multiProcessorCount, uuid, driver, runtime,
            prop.sharedMemPerMultiprocessor, prop.sharedMemPerBlockOptin,
            prop.reservedSharedMemPerBlock, cluster_launch);
    fclose(dev);
    printf("%s, %d SMs, driver API %d, runtime %d, GPU-%s\n", prop.name,
           prop.multiProcessorCount, driver, runtime, uuid);
    /* "all", or parts separated by commas: placement,persistent,sweep,heldout,cap */
    const char *only = argc > 2 ? argv[2] : "all";
    bool all = strcmp(only, "all") == 0;
    auto want = [&](const char *part) { return all || strstr(only, part) != nullptr; };
    if (want("placement")) {
        placement(dir, prop);
    }
    if (want("persistent")) {
        persistent(dir, prop);
    }
    if (want("sweep")) {
        sweep(dir, prop);
    }
    /* The first sample (2026-12-02, run 2) allowed clusters up to 20 blocks;
       the second (run 3) up to 40, from another seed. */
    if (want("heldout1")) {
        heldout(dir, prop, 30000, "heldout.csv", 0x0cc5eed2026ull, 20);
    }
    if (want("heldout2")) {
        heldout(dir, prop, 30000, "heldout2.csv", 0x5eed2c1a57e2ull, 40);
    }
    if (want("big")) {
        big_clusters(dir, prop);
    }
    if (want("cap")) {
        cap(dir, prop);
    }
    return 0;
}
