/*
 * cluster_kernels.cuh - the kernels that see where the hardware runs the
 * blocks of a cluster launch, shared by occ-lab (gpcs.cu, clusters.cu) and
 * the standalone cluster probe (tests/gpu/cluster_probe.cu), which includes
 * this file so both measure with the same code. Header-only and free of
 * occ: the probe links nothing of the tree.
 */
#ifndef OCC_LAB_CLUSTER_KERNELS_CUH
#define OCC_LAB_CLUSTER_KERNELS_CUH

#include <cooperative_groups.h>

/* %globaltimer: ns, shared by all SMs (PTX ISA "Special registers"). */
__device__ __forceinline__ unsigned long long cluster_global_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* %smid: the SM the block runs on. */
__device__ __forceinline__ unsigned cluster_sm_id()
{
    unsigned v;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(v));
    return v;
}

struct cluster_block_record {
    unsigned smid;
    unsigned cluster; /* %clusterid.x (1-D grids of 1-D clusters) */
    unsigned rank;    /* %cluster_ctarank */
    unsigned pad;
    unsigned long long start_ns, end_ns;
};

/* One record per block; the block then spins spin_cycles plus a jitter of
   up to as many again, drawn from the block index, so that SMs free up at
   different times and later clusters land on other SM groups. The launch's
   dynamic shared memory only limits residency. */
static __global__ void cluster_place_kernel(cluster_block_record *rec, long long spin_cycles, int jitter)
{
    if (threadIdx.x == 0) {
        unsigned long long start = cluster_global_ns();
        unsigned cluster, rank;
        asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(cluster));
        asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
        unsigned h = blockIdx.x * 2654435761u;
        h ^= h >> 13;
        long long spin = spin_cycles + (jitter ? (long long)(h % 1024u) * spin_cycles / 1024 : 0);
        long long t0 = clock64();
        while (clock64() - t0 < spin) {
        }
        cluster_block_record r;
        r.smid = cluster_sm_id();
        r.cluster = cluster;
        r.rank = rank;
        r.pad = 0;
        r.start_ns = start;
        r.end_ns = cluster_global_ns();
        rec[blockIdx.x] = r;
    }
}

/* A persistent cluster kernel: cluster c takes tiles c, c + clusters, ...;
   every block of it spends the same work on each tile (an FMA chain per
   thread), then the cluster synchronises, as a GEMM's cluster does when it
   shares operands. Records each block's SM. */
static __global__ void cluster_persistent_kernel(float *out, unsigned *smids, int tiles, int work)
{
    extern __shared__ char cluster_pad[];
    cooperative_groups::cluster_group cluster = cooperative_groups::this_cluster();
    unsigned clusters = gridDim.x / cluster.num_blocks();
    unsigned cid = blockIdx.x / cluster.num_blocks();
    float a = (float)threadIdx.x * 1e-3f, b = 1.0001f;
    for (int t = (int)cid; t < tiles; t += (int)clusters) {
        for (int i = 0; i < work; i++) {
            a = a * b + 1e-7f;
        }
        cluster.sync();
    }
    cluster_pad[threadIdx.x % 16] = (char)a;
    if (threadIdx.x == 0) {
        smids[blockIdx.x] = cluster_sm_id();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = a + cluster_pad[(threadIdx.x + 1) % 16];
}

#endif /* OCC_LAB_CLUSTER_KERNELS_CUH */
