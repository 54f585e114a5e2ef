/*
 * bench_occ_calc.c - how fast occ computes occupancy, measured side by
 * side in one run:
 *   1. occ_calc against cudaOccMaxActiveBlocksPerMultiprocessor (the
 *      toolkit's cuda_occupancy.h) on the same 100,000 launches, 15 rounds
 *      each, interleaved; median nanoseconds per configuration and ratio;
 *   2. `occ calc --batch`, in-process, output discarded, median rows per
 *      second of 5 runs: on the H200 driver table's 161,600 launches
 *      (tests/data/h200-driver, every column, the GPU added and two renamed
 *      as the batch names them) and on a generated CSV of ROWS random
 *      launches. Each is also given as nanoseconds a row over the header's
 *      nanoseconds a configuration, timed in passes of part 1's launches
 *      between the runs: the cost of a row in calls of the toolkit's own
 *      calculator, which a faster, slower or busier machine moves less than
 *      the rows per second, so that a slowdown of the batch shows as a
 *      larger figure (docs/results/calc-batch-speed.md has the recorded
 *      ones).
 * Usage: bench_occ_calc [ROWS]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

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
static cudaOccDeviceProp header_prop; /* the H200's, for part 2 */

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
    header_prop = bridge_device(&d);
    for (int i = 0; i < CONFIGS; i++) {
        attrs[i] = bridge_kernel(&d, &kernels[i]);
        states[i] = bridge_state(&kernels[i]);
    }
    double header_ns[ROUNDS];
    time_occ(&d); /* warm-up */
    time_header(&header_prop);
    for (int r = 0; r < ROUNDS; r++) {
        occ_ns[r] = time_occ(&d);
        header_ns[r] = time_header(&header_prop);
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

/* A temporary file for a batch; exits on failure. */
static FILE *temp_csv(char *path, const char *header)
{
    int fd = mkstemp(path);
    FILE *csv = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (csv == NULL) {
        perror("occ bench: temporary file");
        exit(1);
    }
    fprintf(csv, "%s\n", header);
    return csv;
}

/* The H200 driver table's header, and as a batch reads it: a GPU first, the
   block size as threads, the static shared memory as smem; the other
   columns pass through, as they do when a user runs the table. */
#define DRIVER_TABLE_HEADER                                                                        \
    "kernel,regs,static_smem,local,max_threads,block,dyn_smem,carveout,driver_blocks,occh_blocks," \
    "occh_limiter_regs,occh_limiter_smem,occh_limiter_warps,occh_limiter_blocks\n"
#define DRIVER_BATCH_HEADER                                                                        \
    "gpu,kernel,regs,smem,local,max_threads,threads,dyn_smem,carveout,driver_blocks,occh_blocks,"  \
    "occh_limiter_regs,occh_limiter_smem,occh_limiter_warps,occh_limiter_blocks"

/* The H200 driver table as a batch on the H200; the rows written, 0 when
   the table is missing. */
static long write_driver_table(const char *table, FILE *csv)
{
    gzFile gz = gzopen(table, "rb");
    if (gz == NULL) {
        return 0;
    }
    char line[512];
    if (gzgets(gz, line, sizeof line) == NULL || strcmp(line, DRIVER_TABLE_HEADER) != 0) {
        fprintf(stderr, "occ bench: %s: not the header this bench reads\n", table);
        exit(1);
    }
    long rows = 0;
    while (gzgets(gz, line, sizeof line) != NULL) {
        fprintf(csv, "H200,%s", line);
        rows++;
    }
    gzclose(gz);
    return rows;
}

/* calc_batch on the file, 5 times; prints the median and the best rows per
   second and, where the header is installed, the best run's nanoseconds a
   row over the header's best nanoseconds a configuration in passes made
   between the runs: a load on the machine only adds time, so the best of
   each side is the steadiest ratio. */
static void time_batch(const char *label, const char *path, long rows)
{
    FILE *devnull = fopen("/dev/null", "w"); /* the rows, and the notes on passed-through columns */
    double rate[5];
    double best = 0;
    double best_header_ns = 0;
    for (int r = 0; r < 5; r++) {
#ifdef OCC_HAVE_CUDA_OCCUPANCY_H
        for (int pass = 0; pass < 3; pass++) {
            double ns = time_header(&header_prop);
            best_header_ns = best_header_ns == 0 || ns < best_header_ns ? ns : best_header_ns;
        }
#endif
        const cli_io io = {stdin, devnull, devnull};
        double t0 = now_ns();
        int code = calc_batch(path, &io);
        double seconds = (now_ns() - t0) / 1e9;
        if (code != 0) {
            fprintf(stderr, "occ bench: batch failed with %d\n", code);
            exit(1);
        }
        rate[r] = (double)rows / seconds;
        best = rate[r] > best ? rate[r] : best;
    }
    fclose(devnull);
    printf("occ calc --batch, %-24s %7.2f million rows per second (median of 5 runs x %ld "
           "rows; best %.2f)\n",
           label, median(rate, 5) / 1e6, rows, best / 1e6);
    if (best_header_ns > 0) {
        printf("  ns per row / header ns per configuration %7.1f (best of each; up: the batch "
               "is slower)\n",
               1e9 / best / best_header_ns);
    }
}

static void bench_batch(long rows)
{
    char table_path[] = "/tmp/occ-bench-XXXXXX";
    FILE *csv = temp_csv(table_path, DRIVER_BATCH_HEADER);
    long table_rows = write_driver_table(OCC_BENCH_H200_TABLE, csv);
    fclose(csv);
    if (table_rows > 0) {
        time_batch("H200 driver table", table_path, table_rows);
    } else {
        printf("occ calc --batch: %s is missing; the driver table is not timed\n",
               OCC_BENCH_H200_TABLE);
    }
    remove(table_path);

    char path[] = "/tmp/occ-bench-XXXXXX";
    csv = temp_csv(path, "gpu,threads,regs,smem,dyn_smem,carveout");
    static const char *const gpus[] = {"H200", "A100 80GB", "sm_89"};
    for (long i = 0; i < rows; i++) {
        fprintf(csv, "%s,%u,%u,%u,%u,%d\n", gpus[i % 3 == 0 ? 0 : rnd(3)], 32 * (1 + rnd(32)),
                rnd(256), rnd(48) * 256, rnd(64) * 512, (int)rnd(102) - 1);
    }
    fclose(csv);
    time_batch("random launches", path, rows);
    remove(path);
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
