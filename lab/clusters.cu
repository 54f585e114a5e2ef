/*
 * clusters.cu - `occ lab clusters`: a persistent cluster kernel (static tile
 * striding, as a persistent GEMM's tile scheduler does) with its grid sized
 * by SM count (SMs / cluster size clusters, the usual guess) against one
 * sized by cudaOccupancyMaxActiveClusters, for cluster sizes 1, 2, 4, 7, 8
 * and 16, at one block per SM. Records the time, the SMs that ran a block
 * and libocc's count of active clusters beside the driver's.
 */
#include <string.h>

#include "cluster_kernels.cuh"
#include "occ_lab.h"

#define PERSISTENT_THREADS 256
/* 7! tiles: they divide evenly among 1..10, 12, 14, 15 and 16 clusters. */
#define PERSISTENT_TILES 5040

typedef struct persistent_launch {
    float *out;
    unsigned *smids;
    int tiles, work;
    int size, clusters, dyn;
} persistent_launch;

static void launch_persistent(void *context)
{
    persistent_launch *p = (persistent_launch *)context;
    void *args[] = {&p->out, &p->smids, &p->tiles, &p->work};
    lab_launch_clusters((const void *)cluster_persistent_kernel, args, p->size, p->clusters,
                        PERSISTENT_THREADS, p->dyn);
}

static int compare_unsigned(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return x < y ? -1 : x > y;
}

/* Distinct SMs among the first n entries (sorts them). */
static int distinct(unsigned *ids, int n)
{
    qsort(ids, (size_t)n, sizeof *ids, compare_unsigned);
    int count = 0;
    for (int i = 0; i < n; i++) {
        count += i == 0 || ids[i] != ids[i - 1];
    }
    return count;
}

void lab_clusters(const lab_gpu *gpu, const lab_options *opt)
{
    if (gpu->prop.major < 9) {
        lab_progress("clusters: skipped: %s is compute capability %d.%d; clusters need 9.0",
                     gpu->prop.name, gpu->prop.major, gpu->prop.minor);
        return;
    }
    const void *fn = (const void *)cluster_persistent_kernel;
    /* One block per SM: the opt-in maximum of shared memory. */
    const int dyn = (int)gpu->prop.sharedMemPerBlockOptin;
    LAB_CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, dyn));
    LAB_CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    cudaFuncAttributes attr;
    LAB_CHECK(cudaFuncGetAttributes(&attr, fn));
    const int sms = gpu->prop.multiProcessorCount;
    persistent_launch p;
    memset(&p, 0, sizeof p);
    p.tiles = PERSISTENT_TILES;
    p.work = opt->quick ? 500 : 2000; /* FMAs per thread per tile: a few microseconds */
    p.dyn = dyn;
    LAB_CHECK(cudaMalloc(&p.out, (size_t)sms * 2 * PERSISTENT_THREADS * sizeof(float)));
    LAB_CHECK(cudaMalloc(&p.smids, (size_t)sms * 2 * sizeof(unsigned)));
    unsigned *ids = (unsigned *)malloc((size_t)sms * 2 * sizeof *ids);
    if (ids == NULL) {
        LAB_FAIL("clusters: out of memory");
    }
    static const int sizes[] = {1, 2, 4, 7, 8, 16};
    for (int s = 0; s < (int)(sizeof sizes / sizeof sizes[0]); s++) {
        const int size = sizes[s];
        const int driver = lab_driver_active_clusters(fn, size, PERSISTENT_THREADS, dyn);
        occ_kernel k;
        lab_kernel_from_attributes(&attr, PERSISTENT_THREADS, dyn, &k);
        k.cluster_x = size;
        k.cluster_non_portable = true;
        int occ_active = -1;
        occ_error err;
        if (occ_max_active_clusters(&gpu->device, &k, &occ_active, &err) != OCC_OK) {
            occ_active = -1; /* recorded; the report says libocc could not answer */
        }
        if (driver <= 0) {
            LAB_FAIL("clusters: the driver allows %d active clusters of %d blocks", driver, size);
        }
        for (int g = 0; g < 2; g++) {
            p.size = size;
            p.clusters = g == 0 ? sms / size : driver;
            lab_progress("clusters: size %d, %d clusters", size, p.clusters);
            LAB_CHECK(cudaMemset(p.smids, 0xff, (size_t)sms * 2 * sizeof(unsigned)));
            lab_times t = lab_time_launches(launch_persistent, &p, LAB_WARMUPS,
                                            opt->quick ? 3 : LAB_RUNS);
            const int blocks = p.clusters * size;
            LAB_CHECK(cudaMemcpy(ids, p.smids, (size_t)blocks * sizeof *ids,
                                 cudaMemcpyDeviceToHost));
            lab_record r;
            lab_record_begin(&r, "cluster_persistent");
            lab_record_int(&r, "cluster_size", size);
            lab_record_str(&r, "grid", g == 0 ? "sms" : "active");
            lab_record_int(&r, "clusters", p.clusters);
            lab_record_int(&r, "blocks", blocks);
            lab_record_int(&r, "driver_active_clusters", driver);
            lab_record_int(&r, "occ_active_clusters", occ_active);
            lab_record_int(&r, "sms_used", distinct(ids, blocks));
            lab_record_int(&r, "tiles", p.tiles);
            lab_record_int(&r, "work", p.work);
            lab_record_num(&r, "median_ms", t.median_ms);
            lab_record_num(&r, "min_ms", t.min_ms);
            lab_record_end(&r);
        }
    }
    free(ids);
    LAB_CHECK(cudaFree(p.out));
    LAB_CHECK(cudaFree(p.smids));
}
