/*
 * bench_ncu.c - how fast `occ ncu` reads an Nsight Compute raw page: an
 * export of ROWS launches (default 1,000,000) is made in a temporary file
 * from the 944 launches of the H200 probe export (tests/data/ncu-h200/
 * smemcfg-raw.csv.gz: 279 columns, about 2 KB a row), their IDs renumbered,
 * and `occ ncu FILE` runs on it in-process, output discarded: median
 * launches per second of 5 runs (and of 3 with --json --top 1000).
 * Usage: bench_ncu [ROWS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <zlib.h>

#include "cli.h"

#ifndef OCC_BENCH_NCU_TEMPLATE
#error "OCC_BENCH_NCU_TEMPLATE: the path of tests/data/ncu-h200/smemcfg-raw.csv.gz"
#endif

/* The template's longest line is 2,130 bytes. */
#define LINE_BYTES (1 << 16)
#define TEMPLATE_ROWS 944

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

static void die(const char *what)
{
    perror(what);
    exit(1);
}

/* The export: the template's header and units rows, then its rows over and
   over with IDs 0, 1, 2, ... (each row begins "ID",). */
static long long make_export(const char *path, long rows)
{
    gzFile in = gzopen(OCC_BENCH_NCU_TEMPLATE, "rb");
    if (in == NULL) {
        die(OCC_BENCH_NCU_TEMPLATE);
    }
    static char head[2][LINE_BYTES];
    static char body[TEMPLATE_ROWS][LINE_BYTES];
    for (int i = 0; i < 2; i++) {
        if (gzgets(in, head[i], LINE_BYTES) == NULL) {
            die("bench_ncu: the template's header");
        }
    }
    int count = 0;
    while (count < TEMPLATE_ROWS && gzgets(in, body[count], LINE_BYTES) != NULL) {
        count++;
    }
    gzclose(in);
    if (count == 0) {
        die("bench_ncu: the template has no rows");
    }
    FILE *out = fopen(path, "w");
    if (out == NULL) {
        die(path);
    }
    fputs(head[0], out);
    fputs(head[1], out);
    for (long i = 0; i < rows; i++) {
        const char *row = body[i % count];
        const char *rest = strstr(row, "\",");
        if (rest == NULL) {
            die("bench_ncu: a template row without an ID");
        }
        fprintf(out, "\"%ld%s", i, rest);
    }
    if (fclose(out) != 0) {
        die(path);
    }
    FILE *f = fopen(path, "r");
    fseek(f, 0, SEEK_END);
    long long bytes = ftell(f);
    fclose(f);
    return bytes;
}

/* `occ ncu ARGS... FILE`, in-process; launches per second. */
static double run(const char *path, long rows, int argc, const char *const *args)
{
    char *argv[8];
    char copies[8][64];
    snprintf(copies[0], sizeof copies[0], "ncu");
    argv[0] = copies[0];
    for (int i = 0; i < argc; i++) {
        snprintf(copies[i + 1], sizeof copies[i + 1], "%s", args[i]);
        argv[i + 1] = copies[i + 1];
    }
    char file[4096];
    snprintf(file, sizeof file, "%s", path);
    argv[argc + 1] = file;
    argv[argc + 2] = NULL;
    FILE *devnull = fopen("/dev/null", "w");
    if (devnull == NULL) {
        die("/dev/null");
    }
    const cli_io io = {stdin, devnull, stderr};
    double t0 = now_ns();
    int code = cmd_ncu(argc + 2, argv, &io);
    double seconds = (now_ns() - t0) / 1e9;
    fclose(devnull);
    if (code != 0) {
        fprintf(stderr, "bench_ncu: occ ncu exited %d\n", code);
        exit(1);
    }
    return (double)rows / seconds;
}

int main(int argc, char **argv)
{
    long rows = argc > 1 ? strtol(argv[1], NULL, 10) : 1000000;
    if (rows < 1) {
        fprintf(stderr, "usage: bench_ncu [ROWS]\n");
        return 2;
    }
    const char *tmp = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/occ-bench-ncu-XXXXXX", tmp != NULL ? tmp : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0) {
        die(path);
    }
    close(fd);
    long long bytes = make_export(path, rows);
    printf("export: %ld launches, %.1f MB (raw page, 279 columns)\n", rows, (double)bytes / 1e6);

    double rate[5];
    for (int r = 0; r < 5; r++) {
        rate[r] = run(path, rows, 0, NULL);
    }
    double text = median(rate, 5);
    printf("occ ncu FILE                      %9.0f launches per second (median of 5 runs, "
           "%.0f MB/s)\n",
           text, text * (double)bytes / (double)rows / 1e6);
    static const char *const json_args[] = {"--json", "--top", "1000"};
    for (int r = 0; r < 3; r++) {
        rate[r] = run(path, rows, 3, json_args);
    }
    printf("occ ncu --json --top 1000 FILE    %9.0f launches per second (median of 3 runs)\n",
           median(rate, 3));
    remove(path);
    return 0;
}
