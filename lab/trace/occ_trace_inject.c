/*
 * occ_trace_inject.c - the CUPTI activity recorder behind `occ lab trace`.
 *
 * Loaded into a CUDA program by the driver through CUDA_INJECTION64_PATH,
 * it asks CUPTI for every kernel launch (CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)
 * and every device (CUPTI_ACTIVITY_KIND_DEVICE) and writes them, one record
 * a line, to the file named by OCC_TRACE_OUT (default occ-trace.tsv) when the
 * program exits. `occ lab trace` turns that file into Nsight Systems' SQLite
 * schema (profile/formats/nsys_sqlite.c owns the format).
 *
 * The record layout is CUPTI's newest kernel record in the toolkit it is
 * built against: OCC_KERNEL_RECORD and OCC_DEVICE_RECORD name the structs
 * (tests/gpu/run_profile_traces.sh picks them from cupti_activity.h). Only
 * fields present since CUpti_ActivityKernel9 (CUDA 12.0) are read.
 *
 * Lines (tab-separated; the first field names the kind):
 *   D id name sm_count cc_major cc_minor
 *   K device context stream correlation start_ns end_ns grid_x grid_y grid_z
 *     block_x block_y block_z regs static_smem dyn_smem local_per_thread
 *     smem_executed shmem_limit_config carveout_requested(-1: none)
 *     cluster_x cluster_y cluster_z cluster_policy graph_id launch_type
 *     cache_config name
 * cache_config is the record's cacheConfig byte: the requested cudaFuncCache
 * preference in its low 4 bits, the executed one in its high 4 bits.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cupti.h>

#ifndef OCC_KERNEL_RECORD
#define OCC_KERNEL_RECORD CUpti_ActivityKernel9
#endif
#ifndef OCC_DEVICE_RECORD
#define OCC_DEVICE_RECORD CUpti_ActivityDevice5
#endif

#define BUFFER_BYTES (8u << 20)

static FILE *out_file;
static unsigned long long kernels_written, records_dropped;

static void write_kernel(const OCC_KERNEL_RECORD *k)
{
    /* cacheConfig is the byte after `kind` in every kernel record since
       CUpti_ActivityKernel4: a union of the byte and two 4-bit fields. */
    unsigned cache_config = ((const unsigned char *)k)[sizeof(CUpti_ActivityKind)];
    int carveout = k->isSharedMemoryCarveoutRequested ? (int)k->sharedMemoryCarveoutRequested : -1;
    fprintf(out_file,
            "K\t%u\t%u\t%u\t%u\t%llu\t%llu\t%d\t%d\t%d\t%d\t%d\t%d\t%u\t%d\t%d\t%u\t%u\t%u\t%d\t"
            "%u\t%u\t%u\t%u\t%u\t%u\t%u\t%s\n",
            k->deviceId, k->contextId, k->streamId, k->correlationId, (unsigned long long)k->start,
            (unsigned long long)k->end, k->gridX, k->gridY, k->gridZ, k->blockX, k->blockY,
            k->blockZ, (unsigned)k->registersPerThread, k->staticSharedMemory,
            k->dynamicSharedMemory, k->localMemoryPerThread, (unsigned)k->sharedMemoryExecuted,
            (unsigned)k->shmemLimitConfig, carveout, (unsigned)k->clusterX, (unsigned)k->clusterY,
            (unsigned)k->clusterZ, (unsigned)k->clusterSchedulingPolicy, (unsigned)k->graphId,
            (unsigned)k->launchType, cache_config, k->name ? k->name : "");
    kernels_written++;
}

static void write_device(const OCC_DEVICE_RECORD *d)
{
    fprintf(out_file, "D\t%u\t%s\t%u\t%u\t%u\n", d->id, d->name ? d->name : "",
            d->numMultiprocessors, d->computeCapabilityMajor, d->computeCapabilityMinor);
}

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *buffer = aligned_alloc(8, BUFFER_BYTES);
    *size = *buffer ? BUFFER_BYTES : 0;
    *max_records = 0;
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size,
                                      size_t valid)
{
    (void)ctx;
    (void)stream;
    (void)size;
    CUpti_Activity *record = NULL;
    while (out_file && cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
        if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL ||
            record->kind == CUPTI_ACTIVITY_KIND_KERNEL)
            write_kernel((const OCC_KERNEL_RECORD *)record);
        else if (record->kind == CUPTI_ACTIVITY_KIND_DEVICE)
            write_device((const OCC_DEVICE_RECORD *)record);
    }
    size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(ctx, stream, &dropped) == CUPTI_SUCCESS)
        records_dropped += dropped;
    free(buffer);
}

static void at_exit_flush(void)
{
    cuptiActivityFlushAll(1);
    if (out_file) {
        fprintf(out_file, "E\t%llu\t%llu\n", kernels_written, records_dropped);
        fclose(out_file);
        out_file = NULL;
    }
    fprintf(stderr, "occ trace: %llu kernel launches recorded, %llu dropped\n", kernels_written,
            records_dropped);
}

static int check(CUptiResult r, const char *what)
{
    if (r == CUPTI_SUCCESS)
        return 0;
    const char *text = "?";
    cuptiGetResultString(r, &text);
    fprintf(stderr, "occ trace: %s failed: %s\n", what, text);
    return -1;
}

/* Called by the CUDA driver when CUDA_INJECTION64_PATH names this library. */
int InitializeInjection(void)
{
    const char *path = getenv("OCC_TRACE_OUT");
    if (!path || !*path)
        path = "occ-trace.tsv";
    out_file = fopen(path, "w");
    if (!out_file) {
        fprintf(stderr, "occ trace: cannot write %s\n", path);
        return 0;
    }
    fprintf(out_file, "# occ-trace 1\n");
    if (check(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed),
              "cuptiActivityRegisterCallbacks") ||
        check(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_DEVICE), "enable DEVICE") ||
        check(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL),
              "enable CONCURRENT_KERNEL"))
        return 0;
    atexit(at_exit_flush);
    return 1;
}
