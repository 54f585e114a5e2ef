/*
 * test_cli_hostile.c - the command line against hostile and unusual input:
 * endless or over-long CSV records, NUL bytes and byte-order marks, FIFOs and
 * directories where a file is expected, numbers past every limit, and output
 * that cannot be written. Each case has one clear line on stderr, the exit
 * code docs/cli.md promises, bounded memory, and never a hang.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli.h"
#include "cli_harness.h"

/* A case that would hang fails instead: SIGALRM ends the test binary. */
#define HANG_LIMIT_SECONDS 20

static char dir[64];

static const char *temp_path(const char *name, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s/%s", dir, name);
    return buf;
}

static void write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
}

/* One line on stderr: the message, then (for usage errors) the hint. */
static void assert_one_error(int code, const char *command, const char *fragment)
{
    assert_int_equal(last.code, code);
    char prefix[64];
    snprintf(prefix, sizeof prefix, "occ %s: ", command);
    assert_true(starts_with(last.err, prefix));
    assert_int_equal(line_count(last.err), code == EXIT_USAGE ? 2 : 1);
    if (strstr(last.err, fragment) == NULL) {
        fail_msg("'%s' lacks '%s'", last.err, fragment);
    }
}

static long max_rss_kb(void)
{
    struct rusage u;
    assert_int_equal(getrusage(RUSAGE_SELF, &u), 0);
    return u.ru_maxrss;
}

/* ---- commands and help --------------------------------------------------- */

static void help_and_version(void **state)
{
    (void)state;
    assert_int_equal(OCC(NULL, "version"), EXIT_OK);
    assert_true(starts_with(last.out, "occ "));
    assert_int_equal(OCC(NULL, "calc", "-h"), EXIT_OK);
    char *dash_h = strdup(last.out);
    assert_int_equal(OCC(NULL, "help", "calc"), EXIT_OK);
    assert_string_equal(last.out, dash_h);
    free(dash_h);
    assert_non_null(strstr(last.out, "usage: occ calc"));
    OCC(NULL, "clac");
    assert_int_equal(last.code, EXIT_USAGE);
    assert_non_null(strstr(last.err, "'clac' is not a command; did you mean 'calc'?"));
    OCC(NULL, "help", "nosuch");
    assert_int_equal(last.code, EXIT_USAGE);
    OCC(NULL, "calc", "--gpu", "--threads", "256");
    assert_one_error(EXIT_USAGE, "calc", "option --gpu: needs a value");
}

/* ---- calc --batch ---------------------------------------------------------- */

/* /dev/zero has no line end: refused at the record limit, in bounded memory. */
static void batch_endless_record(void **state)
{
    (void)state;
    long before = max_rss_kb();
    OCC(NULL, "calc", "--batch", "/dev/zero");
    assert_one_error(EXIT_DATA, "calc", "without a line end");
    /* the reader holds one bounded buffer, not the stream */
    assert_true(max_rss_kb() - before < 64 * 1024);
}

/* A 10 KB line: its row is refused at the record limit and the rest of the
   input is still read. A 5 MB line is no CSV text at all: refused at once,
   in bounded memory. */
static void batch_long_line(void **state)
{
    (void)state;
    size_t n = 10000;
    char *input = malloc(n + 256);
    assert_non_null(input);
    int o = snprintf(input, 256, "gpu,threads,regs,smem,dyn_smem,carveout\nH200,");
    memset(input + o, '1', n);
    snprintf(input + o + n, 200, ",32,0,0,\nH200,256,32,0,0,\n");
    long before = max_rss_kb();
    OCC(input, "calc", "--batch", "-");
    free(input);
    assert_int_equal(last.code, EXIT_DATA);
    assert_non_null(strstr(last.err, "longer than 4096 bytes"));
    /* the good row after it is answered */
    assert_non_null(strstr(last.out, "\nH200,256,32,0,0,,8,64,1,"));

    n = 5u << 20;
    input = malloc(n + 256);
    assert_non_null(input);
    o = snprintf(input, 256, "gpu,threads,regs,smem,dyn_smem,carveout\nH200,");
    memset(input + o, '1', n);
    snprintf(input + o + n, 200, ",32,0,0,\n");
    OCC(input, "calc", "--batch", "-");
    free(input);
    assert_one_error(EXIT_DATA, "calc", "bytes without a line end");
    assert_true(max_rss_kb() - before < 64 * 1024);
}

/* A UTF-8 byte-order mark before the header is skipped, not part of "gpu". */
static void batch_bom(void **state)
{
    (void)state;
    assert_int_equal(OCC("\xef\xbb\xbfgpu,threads,regs,smem,dyn_smem,carveout\nH200,256,32,0,0,\n",
                         "calc", "--batch", "-"),
                     EXIT_OK);
    assert_true(starts_with(last.out, "gpu,threads,"));
}

/* A NUL byte in a row: the row is echoed with \0 in its place (not cut) and
   refused; the others are answered. */
static void batch_nul(void **state)
{
    (void)state;
    static const char text[] = "gpu,threads,regs,smem,dyn_smem,carveout\n"
                               "H2\0"
                               "00,256,32,0,0,\n"
                               "H200,256,32,0,0,\n";
    char path[128];
    write_file(temp_path("nul.csv", path, sizeof path), text, sizeof text - 1);
    OCC(NULL, "calc", "--batch", path);
    assert_int_equal(last.code, EXIT_DATA);
    assert_non_null(strstr(last.out, "\nH2\\000,256,32,0,0,,"));
    assert_non_null(strstr(last.out, "NUL byte"));
    assert_non_null(strstr(last.out, "\nH200,256,32,0,0,,8,64,1,"));
}

/* A value out of range names the range. */
static void batch_ranges(void **state)
{
    (void)state;
    OCC("gpu,threads,regs,smem,dyn_smem,carveout\nH200,256,300,0,0,\nH200,256,32,3000M,0,\n",
        "calc", "--batch", "-");
    assert_int_equal(last.code, EXIT_DATA);
    assert_non_null(strstr(last.out, "regs: '300' is above the maximum, 255"));
    assert_non_null(strstr(last.out, "smem: '3000M' is above the maximum, 2147483647 bytes"));
}

/* ---- --gpu-file ------------------------------------------------------------ */

static void gpu_file_fifo_and_dir(void **state)
{
    (void)state;
    char fifo[128];
    temp_path("gpu.fifo", fifo, sizeof fifo);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    /* no writer: reads as empty at once, never blocks */
    OCC(NULL, "calc", "--gpu-file", fifo, "--threads", "256");
    assert_one_error(EXIT_DATA, "calc", "is empty");
    unlink(fifo);
    OCC(NULL, "calc", "--gpu-file", dir, "--threads", "256");
    assert_one_error(EXIT_DATA, "calc", "is a directory");
}

static void gpu_file_values(void **state)
{
    (void)state;
    OCC("{\"name\":\"Mine\",\"base\":\"sm_90\",\"sm_count\":9223372036854775807}", "calc",
        "--gpu-file", "-", "--threads", "256");
    assert_one_error(EXIT_DATA, "calc", "9223372036854775807 is outside the range of an int");
    /* a minimal file: what it does not give comes from its base, consistently */
    assert_int_equal(OCC("{\"name\":\"Mine\",\"base\":\"sm_90\",\"regs_per_sm\":32768}", "calc",
                         "--gpu-file", "-", "--threads", "256", "--regs", "32"),
                     EXIT_OK);
    assert_true(starts_with(last.out, "Mine (sm_90)"));
    /* a latency of the author's own is said to be given */
    assert_int_equal(OCC("{\"name\":\"Mine\",\"base\":\"H200\",\"mem_latency_ns\":500}", "latency",
                         "--gpu-file", "-", "--warps", "32"),
                     EXIT_OK);
    assert_non_null(strstr(last.out, "Memory latency 500 ns: given (--gpu-file)"));
}

/* ---- advice one can follow ------------------------------------------------- */

static void optin_advice_within_limit(void **state)
{
    (void)state;
    OCC(NULL, "calc", "--gpu", "H200", "--threads", "256", "--dyn-smem", "228K");
    assert_null(strstr(last.out, "233472"));
    assert_non_null(strstr(last.out, "no attribute makes this launch possible"));
    assert_int_equal(OCC(NULL, "calc", "--gpu", "H200", "--threads", "256", "--dyn-smem", "100K"),
                     EXIT_OK);
    assert_non_null(strstr(last.out, "cudaFuncAttributeMaxDynamicSharedMemorySize, 102400)"));
}

/* ---- output that cannot be written ----------------------------------------- */

static void write_errors(void **state)
{
    (void)state;
    FILE *full = fopen("/dev/full", "w");
    if (full == NULL) {
        skip(); /* no /dev/full on this system */
    }
    FILE *err = tmpfile();
    assert_non_null(err);
    static char a0[] = "occ", a1[] = "calc", a2[] = "--gpu", a3[] = "H200", a4[] = "--threads",
                a5[] = "256", a6[] = "--regs", a7[] = "32", a8[] = "--json";
    char *argv[] = {a0, a1, a2, a3, a4, a5, a6, a7, a8, NULL};
    const cli_io io = {stdin, full, err};
    assert_int_equal(cli_main(9, argv, &io), EXIT_DATA);
    rewind(err);
    char line[256] = "";
    assert_non_null(fgets(line, sizeof line, err));
    assert_non_null(strstr(line, "occ calc: cannot write the output"));
    fclose(err);
    fclose(full);
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/occ-hostile-XXXXXX");
    assert_non_null(mkdtemp(dir));
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char path[128];
    unlink(temp_path("nul.csv", path, sizeof path));
    unlink(temp_path("gpu.fifo", path, sizeof path));
    rmdir(dir);
    free(last.out);
    free(last.err);
    last.out = last.err = NULL;
    return 0;
}

int main(void)
{
    alarm(HANG_LIMIT_SECONDS);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(help_and_version),
        cmocka_unit_test(batch_endless_record),
        cmocka_unit_test(batch_long_line),
        cmocka_unit_test(batch_bom),
        cmocka_unit_test(batch_nul),
        cmocka_unit_test(batch_ranges),
        cmocka_unit_test(gpu_file_fifo_and_dir),
        cmocka_unit_test(gpu_file_values),
        cmocka_unit_test(optin_advice_within_limit),
        cmocka_unit_test(write_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
