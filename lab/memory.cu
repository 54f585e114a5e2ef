/*
 * memory.cu - the memory system's two numbers the latency model needs:
 *   ceiling: the reachable bandwidth, as a device-to-device cudaMemcpy and
 *            as a copy kernel (bytes read + bytes written);
 *   latency: one dependent load after another (a pointer chase) over a
 *            buffer far larger than the L2 (DRAM) and one inside it (L2),
 *            in ns (%globaltimer) and SM cycles (clock64).
 */
#include <string.h>

#include "occ_lab.h"

/* 1 GiB per buffer: 16x the H200's 60 MB L2 (cudaDeviceProp l2CacheSize). */
#define CEILING_MIN_BYTES (1ull << 30)
#define COPY_THREADS 256
#define COPY_ITEMS 4 /* float4 loads a thread issues before its stores */

__global__ void copy_kernel(const float4 *__restrict__ src, float4 *__restrict__ dst, size_t n4)
{
    const size_t step = (size_t)gridDim.x * blockDim.x;
    const size_t base = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    float4 v[COPY_ITEMS];
#pragma unroll
    for (int j = 0; j < COPY_ITEMS; j++) {
        const size_t i = base + (size_t)j * step;
        if (i < n4) {
            v[j] = src[i];
        }
    }
#pragma unroll
    for (int j = 0; j < COPY_ITEMS; j++) {
        const size_t i = base + (size_t)j * step;
        if (i < n4) {
            dst[i] = v[j];
        }
    }
}

/* Counts the words where a and b differ (the copy kernel's check). */
__global__ void count_differences(const unsigned *a, const unsigned *b, size_t n,
                                  unsigned long long *differences)
{
    unsigned long long mine = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        mine += a[i] != b[i];
    }
    if (mine != 0) {
        atomicAdd(differences, mine);
    }
}

__global__ void fill_words(unsigned *p, size_t n, unsigned seed)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        unsigned h = (unsigned)i * 2654435761u ^ seed;
        h ^= h >> 15;
        p[i] = h * 2246822519u;
    }
}

typedef struct copy_launch {
    void *src, *dst;
    size_t bytes;
    int grid;
    int use_kernel;
} copy_launch;

static void launch_copy(void *context)
{
    copy_launch *l = (copy_launch *)context;
    if (l->use_kernel) {
        copy_kernel<<<l->grid, COPY_THREADS>>>((const float4 *)l->src, (float4 *)l->dst,
                                               l->bytes / sizeof(float4));
        LAB_CHECK_LAUNCH();
    } else {
        LAB_CHECK(cudaMemcpyAsync(l->dst, l->src, l->bytes, cudaMemcpyDeviceToDevice, 0));
    }
}

static void check_copy(const copy_launch *l, unsigned long long *differences, const char *what)
{
    LAB_CHECK(cudaMemset(differences, 0, sizeof *differences));
    count_differences<<<1024, 256>>>((const unsigned *)l->src, (const unsigned *)l->dst,
                                     l->bytes / sizeof(unsigned), differences);
    LAB_CHECK_LAUNCH();
    unsigned long long host = 0;
    LAB_CHECK(cudaMemcpy(&host, differences, sizeof host, cudaMemcpyDeviceToHost));
    if (host != 0) {
        LAB_FAIL("%s: %llu of %zu words differ after the copy", what, host,
                 l->bytes / sizeof(unsigned));
    }
}

void lab_ceiling(const lab_gpu *gpu, const lab_options *opt)
{
    unsigned long long bytes = 16ull * (unsigned long long)gpu->prop.l2CacheSize;
    if (bytes < CEILING_MIN_BYTES) {
        bytes = CEILING_MIN_BYTES;
    }
    bytes = (bytes + (1ull << 20) - 1) >> 20 << 20;
    copy_launch l;
    memset(&l, 0, sizeof l);
    l.bytes = (size_t)bytes;
    LAB_CHECK(cudaMalloc(&l.src, l.bytes));
    LAB_CHECK(cudaMalloc(&l.dst, l.bytes));
    unsigned long long *differences = NULL;
    LAB_CHECK(cudaMalloc((void **)&differences, sizeof *differences));
    fill_words<<<1024, 256>>>((unsigned *)l.src, l.bytes / sizeof(unsigned), 0x5eedu);
    LAB_CHECK_LAUNCH();
    size_t per_block = (size_t)COPY_THREADS * COPY_ITEMS * sizeof(float4);
    l.grid = (int)((l.bytes + per_block - 1) / per_block);

    static const char *const methods[] = {"memcpy", "copy_kernel"};
    for (int m = 0; m < 2; m++) {
        l.use_kernel = m;
        lab_progress("ceiling %s, 2 x %llu MiB", methods[m], bytes >> 20);
        LAB_CHECK(cudaMemset(l.dst, 0xFF, l.bytes));
        lab_times t = lab_time_launches(launch_copy, &l, LAB_WARMUPS, opt->quick ? 5 : LAB_RUNS);
        check_copy(&l, differences, methods[m]);
        lab_record rec;
        lab_record_begin(&rec, "ceiling");
        lab_record_str(&rec, "method", methods[m]);
        lab_record_num(&rec, "bytes", 2.0 * (double)l.bytes); /* read + written */
        lab_record_num(&rec, "median_ms", t.median_ms);
        lab_record_num(&rec, "min_ms", t.min_ms);
        lab_record_int(&rec, "runs", t.runs);
        lab_record_bool(&rec, "checked", 1);
        lab_record_end(&rec);
    }
    LAB_CHECK(cudaFree(l.src));
    LAB_CHECK(cudaFree(l.dst));
    LAB_CHECK(cudaFree(differences));
}

/* ------------------------------------------------------------------------ */

/* One pointer a line: lines are 256 bytes apart, so no two hops share a
   32-byte sector or a 128-byte cache line. */
#define CHASE_LINE_WORDS 64

__device__ __forceinline__ unsigned long long global_timer_ns(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* Turns next_line (a single cycle over the lines) into the chase buffer. */
__global__ void chase_build(unsigned *chase, const unsigned *next_line, size_t lines)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < lines;
         i += (size_t)gridDim.x * blockDim.x) {
        chase[i * CHASE_LINE_WORDS] = next_line[i];
    }
}

/* One thread: each load's address is the previous load's value. Loads go
   through L2 only (ld.global.cg), so L1 hits cannot hide the latency. */
__global__ void chase_run(const unsigned *chase, long long steps, unsigned long long *result)
{
    unsigned line = 0;
    long long c0 = clock64();
    unsigned long long g0 = global_timer_ns();
    for (long long s = 0; s < steps; s++) {
        line = __ldcg(chase + (size_t)line * CHASE_LINE_WORDS);
    }
    unsigned long long g1 = global_timer_ns();
    long long c1 = clock64();
    result[0] = (unsigned long long)(c1 - c0);
    result[1] = g1 - g0;
    result[2] = line; /* keeps the chain alive */
}

typedef struct chase_level {
    const char *name;
    unsigned long long bytes; /* 0: from the L2 size */
    long long steps;
    int flush_l2; /* clear the L2 before each timed run */
} chase_level;

static unsigned long long level_bytes(const lab_gpu *gpu, const chase_level *lv)
{
    if (lv->bytes != 0) {
        return lv->bytes;
    }
    /* A sixteenth of the L2: inside the nearer L2 partition of a split L2
       (the H100/H200 L2 is two partitions; NVIDIA H100 whitepaper). */
    return (unsigned long long)gpu->prop.l2CacheSize / 16 >> 8 << 8;
}

void lab_latency(const lab_gpu *gpu, const lab_options *opt)
{
    const chase_level levels[] = {
        /* 2 GiB: 34x the H200's L2; random lines defeat every prefetch */
        {"dram", 2ull << 30, opt->quick ? 20000 : 100000, 1},
        /* 64 MiB: each line is still visited once after the L2 is cleared
           (a DRAM access every hop), but the pages stay few, so address
           translation misses drop out: the latency a streaming kernel sees */
        {"dram_64mib", 64ull << 20, opt->quick ? 20000 : 100000, 1},
        {"l2", 0, opt->quick ? 20000 : 100000, 0},
    };
    const int level_count = (int)(sizeof levels / sizeof levels[0]);
    unsigned long long flush_bytes = 4ull * (unsigned long long)gpu->prop.l2CacheSize;
    void *flush = NULL;
    LAB_CHECK(cudaMalloc(&flush, flush_bytes));
    unsigned long long *result = NULL;
    LAB_CHECK(cudaMalloc((void **)&result, 3 * sizeof *result));

    for (int li = 0; li < level_count; li++) {
        const chase_level *lv = &levels[li];
        unsigned long long bytes = level_bytes(gpu, lv);
        size_t lines = (size_t)(bytes / (CHASE_LINE_WORDS * sizeof(unsigned)));
        lab_progress("latency %s: %zu lines over %llu KiB", lv->name, lines, bytes >> 10);
        /* Sattolo's algorithm: a uniformly random single cycle, so the
           chase visits every line before it repeats. */
        unsigned *next = (unsigned *)malloc(lines * sizeof(unsigned));
        if (next == NULL) {
            LAB_FAIL("cannot allocate %zu line indices", lines);
        }
        for (size_t i = 0; i < lines; i++) {
            next[i] = (unsigned)i;
        }
        unsigned long long state = 0x9e3779b97f4a7c15ull;
        for (size_t i = lines - 1; i > 0; i--) {
            state ^= state << 13; /* xorshift64 (Marsaglia 2003) */
            state ^= state >> 7;
            state ^= state << 17;
            size_t j = (size_t)(state % i);
            unsigned tmp = next[i];
            next[i] = next[j];
            next[j] = tmp;
        }
        unsigned *chase = NULL;
        unsigned *next_dev = NULL;
        LAB_CHECK(cudaMalloc((void **)&chase, (size_t)bytes));
        LAB_CHECK(cudaMalloc((void **)&next_dev, lines * sizeof(unsigned)));
        LAB_CHECK(cudaMemcpy(next_dev, next, lines * sizeof(unsigned), cudaMemcpyHostToDevice));
        chase_build<<<1024, 256>>>(chase, next_dev, lines);
        LAB_CHECK_LAUNCH();
        /* The host follows the same cycle to know where the chase ends. */
        unsigned expect = 0;
        for (long long s = 0; s < lv->steps; s++) {
            expect = next[expect];
        }
        /* Warm-up: the code, the TLB for the L2 buffer, the L2 itself. */
        chase_run<<<1, 1>>>(chase, lv->flush_l2 ? 1000 : (long long)lines, result);
        LAB_CHECK_LAUNCH();
        int runs = opt->quick ? 3 : 5;
        float ns_per_load[8];
        float cycles_per_load[8];
        for (int run = 0; run < runs; run++) {
            if (lv->flush_l2) {
                LAB_CHECK(cudaMemset(flush, run, (size_t)flush_bytes));
            }
            chase_run<<<1, 1>>>(chase, lv->steps, result);
            LAB_CHECK_LAUNCH();
            unsigned long long host[3];
            LAB_CHECK(cudaMemcpy(host, result, sizeof host, cudaMemcpyDeviceToHost));
            if (host[2] != expect) {
                LAB_FAIL("latency %s: the chase ended at line %llu, expected %u", lv->name,
                         host[2], expect);
            }
            cycles_per_load[run] = (float)((double)host[0] / (double)lv->steps);
            ns_per_load[run] = (float)((double)host[1] / (double)lv->steps);
        }
        lab_times ns = lab_times_of(ns_per_load, runs);
        lab_times cycles = lab_times_of(cycles_per_load, runs);
        lab_record rec;
        lab_record_begin(&rec, "latency");
        lab_record_str(&rec, "level", lv->name);
        lab_record_num(&rec, "buffer_bytes", (double)bytes);
        lab_record_int(&rec, "steps", lv->steps);
        lab_record_int(&rec, "runs", runs);
        lab_record_num(&rec, "ns_per_load", ns.median_ms);
        lab_record_num(&rec, "cycles_per_load", cycles.median_ms);
        lab_record_num(&rec, "min_ns_per_load", ns.min_ms);
        lab_record_bool(&rec, "checked", 1);
        lab_record_end(&rec);
        LAB_CHECK(cudaFree(chase));
        LAB_CHECK(cudaFree(next_dev));
        free(next);
    }
    LAB_CHECK(cudaFree(flush));
    LAB_CHECK(cudaFree(result));
}
