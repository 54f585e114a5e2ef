/*
 * bench_occ_calc.c - how fast occ computes occupancy, measured side by
 * side in one run:
 *   1. occ_calc against cudaOccMaxActiveBlocksPerMultiprocessor (the
 *      toolkit's cuda_occupancy.h) on the same 100,000 launches, 15 rounds
 *      each, interleaved; median nanoseconds per configuration and ratio;
 *   2. `occ calc --batch` on a 1,000,000-row CSV, in-process on one core,
 *      output discarded; median rows per second of 5 runs.
 * Usage: bench_occ_calc [ROWS]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "calc_output.h"
#include "occ.h"

#ifdef OCC_HAVE_CUDA_OCCUPANCY_H
#include <cuda_occupancy.h>

#include "header_bridge.h"
#endif

#define CONFIGS 100000
#define ROUNDS 15

static uint64_t rng = 88172645463325252ull;
static uint32_t rnd(uint32_t bound)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng % bound);
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a;
    double y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static occ_kernel kernels[CONFIGS];
static volatile long long sink;

static double time_occ(const occ_device *d)
{
    double t0 = now_ns();
    long long total = 0;
    for (int i = 0; i < CONFIGS; i++) {
        occ_result r;
        occ_calc(d, &kernels[i], &r, NULL);
        total += r.blocks_per_sm;
    }
    sink = total;
    return (now_ns() - t0) / CONFIGS;
}

#ifdef OCC_HAVE_CUDA_OCCUPANCY_H
static cudaOccFuncAttributes attrs[CONFIGS];
static cudaOccDeviceState states[CONFIGS];

static double time_header(const cudaOccDeviceProp *prop)
{
    double t0 = now_ns();
    long long total = 0;
    for (int i = 0; i < CONFIGS; i++) {
        cudaOccResult r = {0};
        cudaOccMaxActiveBlocksPerMultiprocessor(&r, prop, &attrs[i], &states[i], kernels[i].block_x,
                                                (size_t)kernels[i].dyn_smem_bytes);
        total += r.activeBlocksPerMultiprocessor;
    }
    sink = total;
    return (now_ns() - t0) / CONFIGS;
}
#endif

static void bench_calc(void)
{
    occ_device d;
    occ_gpu_find("H200", &d, NULL);
    for (int i = 0; i < CONFIGS; i++) {
        occ_kernel *k = &kernels[i];
        occ_kernel_init(k);
        k->block_x = 1 + (int)rnd(1024);
        k->regs_per_thread = (int)rnd(256);
        k->static_smem_bytes = (int)rnd(16384);
        k->dyn_smem_bytes = (int)rnd(65536);
        k->carveout_percent = (int)rnd(102) - 1;
    }
    double occ_ns[ROUNDS];
#ifdef OCC_HAVE_CUDA_OCCUPANCY_H
    cudaOccDeviceProp prop = bridge_device(&d);
    for (int i = 0; i < CONFIGS; i++) {
        attrs[i] = bridge_kernel(&d, &kernels[i]);
        states[i] = bridge_state(&kernels[i]);
    }
    double header_ns[ROUNDS];
    time_occ(&d); /* warm-up */
    time_header(&prop);
    for (int r = 0; r < ROUNDS; r++) {
        occ_ns[r] = time_occ(&d);
        header_ns[r] = time_header(&prop);
    }
    double o = median(occ_ns, ROUNDS);
    double h = median(header_ns, ROUNDS);
    printf("occ_calc                                   %7.1f ns per configuration (median of %d "
           "rounds x %d)\n",
           o, ROUNDS, CONFIGS);
    printf("cudaOccMaxActiveBlocksPerMultiprocessor    %7.1f ns per configuration\n", h);
    printf("ratio header / occ                         %7.2f (above 1: occ is faster)\n", h / o);
#else
    time_occ(&d);
    for (int r = 0; r < ROUNDS; r++) {
        occ_ns[r] = time_occ(&d);
    }
    printf("occ_calc %.1f ns per configuration; cuda_occupancy.h not installed, no comparison\n",
           median(occ_ns, ROUNDS));
#endif
}

static void bench_batch(long rows)
{
    char path[] = "/tmp/occ-bench-XXXXXX";
    int fd = mkstemp(path);
    FILE *csv = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (csv == NULL) {
        perror("occ bench: temporary file");
        exit(1);
    }
    static const char *const gpus[] = {"H200", "A100 80GB", "sm_89"};
    fprintf(csv, "gpu,threads,regs,smem,dyn_smem,carveout\n");
    for (long i = 0; i < rows; i++) {
        fprintf(csv, "%s,%u,%u,%u,%u,%d\n", gpus[i % 3 == 0 ? 0 : rnd(3)], 32 * (1 + rnd(32)),
                rnd(256), rnd(48) * 256, rnd(64) * 512, (int)rnd(102) - 1);
    }
    fclose(csv);
    FILE *devnull = fopen("/dev/null", "w");
    double rate[5];
    for (int r = 0; r < 5; r++) {
        const cli_io io = {stdin, devnull, stderr};
        double t0 = now_ns();
        int code = calc_batch(path, &io);
        double seconds = (now_ns() - t0) / 1e9;
        if (code != 0) {
            fprintf(stderr, "occ bench: batch failed with %d\n", code);
            exit(1);
        }
        rate[r] = (double)rows / seconds;
    }
    fclose(devnull);
    remove(path);
    printf("occ calc --batch                           %7.2f million rows per second (median of "
           "5 runs x %ld rows, one core)\n",
           median(rate, 5) / 1e6, rows);
}

int main(int argc, char **argv)
{
    long rows = argc > 1 ? strtol(argv[1], NULL, 10) : 1000000;
    if (rows < 1) {
        fprintf(stderr, "usage: bench_occ_calc [ROWS]\n");
        return 2;
    }
    bench_calc();
    bench_batch(rows);
    return 0;
}
