/*
 * gpcs.cu - `occ lab gpcs`: the GPC layout as the cluster scheduler sees it.
 * Clusters of every size 1..16 are launched with one block per SM (forced by
 * shared memory) over many waves with jittered block times, each block
 * recording %smid and %cluster_ctarank. A cluster's blocks share one GPC
 * [CUDA Programming Guide, "Thread Block Clusters"], so SMs that ever shared
 * a cluster are in one GPC: for each size, every SM's record lists the SMs
 * it shared a cluster with, and `occ lab` joins them into GPCs
 * (cli/lab/lab_gpcs.c). The driver's cudaOccupancyMaxActiveClusters for
 * each size, at one and at several blocks per SM, is recorded beside them
 * for occ to check its answer on the measured layout against.
 */
#include <string.h>

#include "cluster_kernels.cuh"
#include "occ_lab.h"

#define GPCS_SIZE_MAX 16 /* OCC_CLUSTER_NON_PORTABLE_MAX: the largest launch that runs */
#define GPCS_BLOCK_THREADS 128
#define GPCS_SM_MAX 1024 /* far above any GPU's SM count; %smid is below it */

static cudaLaunchConfig_t cluster_config(int size, int clusters, int block_threads, int dyn,
                                         cudaLaunchAttribute *attr)
{
    attr->id = cudaLaunchAttributeClusterDimension;
    attr->val.clusterDim.x = (unsigned)size;
    attr->val.clusterDim.y = 1;
    attr->val.clusterDim.z = 1;
    cudaLaunchConfig_t c = {};
    c.gridDim = dim3((unsigned)(size * clusters));
    c.blockDim = dim3((unsigned)block_threads);
    c.dynamicSmemBytes = (size_t)dyn;
    c.attrs = attr;
    c.numAttrs = 1;
    return c;
}

int lab_driver_active_clusters(const void *func, int size, int block_threads, int dyn_smem_bytes)
{
    cudaLaunchAttribute attr;
    /* 64 clusters: the grid size does not change the answer (cluster probe,
       docs/results/h200/clusters.md) */
    cudaLaunchConfig_t c = cluster_config(size, 64, block_threads, dyn_smem_bytes, &attr);
    int n = -1;
    if (cudaOccupancyMaxActiveClusters(&n, func, &c) != cudaSuccess) {
        (void)cudaGetLastError();
        return -1;
    }
    return n;
}

void lab_launch_clusters(const void *func, void **args, int size, int clusters,
                         int block_threads, int dyn_smem_bytes)
{
    cudaLaunchAttribute attr;
    cudaLaunchConfig_t c = cluster_config(size, clusters, block_threads, dyn_smem_bytes, &attr);
    LAB_CHECK(cudaLaunchKernelExC(&c, func, args));
    LAB_CHECK_LAUNCH();
}

/* The driver's answer for each size at this dynamic shared memory, with
   what occ needs to ask libocc the same question. */
static void driver_records(const cudaFuncAttributes *attr, int dyn)
{
    const void *fn = (const void *)cluster_place_kernel;
    int bps = 0;
    LAB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps, fn, GPCS_BLOCK_THREADS,
                                                            (size_t)dyn));
    for (int size = 1; size <= GPCS_SIZE_MAX; size++) {
        lab_record r;
        lab_record_begin(&r, "gpcs_driver");
        lab_record_int(&r, "cluster_size", size);
        lab_record_int(&r, "threads", GPCS_BLOCK_THREADS);
        lab_record_int(&r, "regs", attr->numRegs);
        lab_record_int(&r, "static_smem_bytes", (long long)attr->sharedSizeBytes);
        lab_record_int(&r, "dyn_smem_bytes", dyn);
        lab_record_int(&r, "max_threads", attr->maxThreadsPerBlock);
        lab_record_int(&r, "blocks_per_sm", bps);
        lab_record_int(&r, "driver_active_clusters",
                       lab_driver_active_clusters(fn, size, GPCS_BLOCK_THREADS, dyn));
        lab_record_end(&r);
    }
}

/* peers[a * sms + b]: SMs a and b ran blocks of one cluster. */
static void note_clusters(const cluster_block_record *host, int size, int clusters, int sms,
                          unsigned char *peers, unsigned char *seen)
{
    for (int c = 0; c < clusters; c++) {
        const cluster_block_record *first = host + (size_t)c * size;
        for (int i = 0; i < size; i++) {
            const cluster_block_record *b = first + i;
            if (b->cluster != (unsigned)c || b->rank >= (unsigned)size ||
                b->smid >= (unsigned)sms) {
                LAB_FAIL("gpcs: block %d of a %d-block cluster launch: cluster %u rank %u "
                         "SM %u (expected cluster %d, rank below %d, SM below %d)",
                         c * size + i, size, b->cluster, b->rank, b->smid, c, size, sms);
            }
            seen[b->smid] = 1;
            for (int j = 0; j < size; j++) {
                peers[(size_t)b->smid * sms + first[j].smid] = 1;
            }
        }
    }
}

void lab_gpcs(const lab_gpu *gpu, const lab_options *opt)
{
    if (gpu->prop.major < 9) {
        lab_progress("gpcs: skipped: %s is compute capability %d.%d; clusters need 9.0",
                     gpu->prop.name, gpu->prop.major, gpu->prop.minor);
        return;
    }
    const void *fn = (const void *)cluster_place_kernel;
    /* More than half the SM's shared memory: one block per SM, so each
       cluster covers `size` distinct SMs. */
    const int dyn = (int)gpu->prop.sharedMemPerBlockOptin;
    LAB_CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, dyn));
    LAB_CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    cudaFuncAttributes attr;
    LAB_CHECK(cudaFuncGetAttributes(&attr, fn));
    const int sms = gpu->prop.multiProcessorCount;
    if (sms > GPCS_SM_MAX) {
        LAB_FAIL("gpcs: %d SMs; the lab handles at most %d", sms, GPCS_SM_MAX);
    }
    const int waves = opt->quick ? 8 : 24;
    const int reps = opt->quick ? 1 : 3;
    const size_t max_blocks = (size_t)sms * waves + GPCS_SIZE_MAX;
    cluster_block_record *rec = NULL;
    LAB_CHECK(cudaMalloc(&rec, max_blocks * sizeof *rec));
    cluster_block_record *host = (cluster_block_record *)malloc(max_blocks * sizeof *host);
    unsigned char *peers = (unsigned char *)malloc((size_t)sms * sms);
    unsigned char *seen = (unsigned char *)malloc((size_t)sms);
    int *list = (int *)malloc((size_t)sms * sizeof *list);
    if (host == NULL || peers == NULL || seen == NULL || list == NULL) {
        LAB_FAIL("gpcs: out of memory");
    }
    long long spin = 20000; /* cycles: about 10 us at 2 GHz; jitter adds up to as much */
    int jitter = 1;
    void *args[] = {&rec, &spin, &jitter};
    for (int size = 1; size <= GPCS_SIZE_MAX; size++) {
        lab_progress("gpcs: clusters of %d", size);
        memset(peers, 0, (size_t)sms * sms);
        memset(seen, 0, (size_t)sms);
        const int clusters = sms * waves / size;
        for (int rep = 0; rep < reps; rep++) {
            LAB_CHECK(cudaMemset(rec, 0xff, max_blocks * sizeof *rec));
            lab_launch_clusters(fn, args, size, clusters, GPCS_BLOCK_THREADS, dyn);
            LAB_CHECK(cudaDeviceSynchronize());
            LAB_CHECK(cudaMemcpy(host, rec, (size_t)clusters * size * sizeof *rec,
                                 cudaMemcpyDeviceToHost));
            note_clusters(host, size, clusters, sms, peers, seen);
        }
        for (int sm = 0; sm < sms; sm++) {
            if (!seen[sm]) {
                continue; /* an SM no cluster of this size reached */
            }
            int n = 0;
            for (int other = 0; other < sms; other++) {
                if (other != sm && peers[(size_t)sm * sms + other]) {
                    list[n++] = other;
                }
            }
            lab_record r;
            lab_record_begin(&r, "gpcs_sm");
            lab_record_int(&r, "cluster_size", size);
            lab_record_int(&r, "smid", sm);
            lab_record_int(&r, "clusters_launched", (long long)clusters * reps);
            lab_record_ints(&r, "peers", list, n);
            lab_record_end(&r);
        }
    }
    /* One block per SM, then as many as the driver counts (dyn 0). */
    driver_records(&attr, dyn);
    driver_records(&attr, 0);
    free(list);
    free(seen);
    free(peers);
    free(host);
    LAB_CHECK(cudaFree(rec));
}
