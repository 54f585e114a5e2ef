/*
 * test_cli_hostile.c - the command line against hostile and unusual input:
 * endless or over-long CSV records, NUL bytes and byte-order marks, FIFOs and
 * directories where a file is expected, numbers past every limit, and output
 * that cannot be written. Each case has one clear line on stderr, the exit
 * code docs/cli.md promises, bounded memory, and never a hang.
 */
/* wait4, for a child's own peak RSS */
#define _DEFAULT_SOURCE 1
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

/* The whole process's memory goal (docs/inspect.md, "Limits"): 256 MB. */
#define PROCESS_RSS_LIMIT_KB (256000000L / 1024)

/* ASan keeps freed blocks in quarantine and adds its shadow: its RSS is not
   the program's. */
#if defined(__SANITIZE_ADDRESS__)
#define RSS_MEASURED 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RSS_MEASURED 0
#endif
#endif
#ifndef RSS_MEASURED
#define RSS_MEASURED 1
#endif

/* Runs the built occ (OCC_BINARY) in a process of its own, so that its peak
   RSS is its own: the exit code, the peak in KiB, stderr into err. */
static int run_occ_process(const char *const *args, long *rss_kb, char *err, size_t cap)
{
    const char *binary = getenv("OCC_BINARY");
    assert_non_null(binary);
    char err_path[128];
    temp_path("occ-stderr", err_path, sizeof err_path);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int null = open("/dev/null", O_RDWR);
        if (fd < 0 || null < 0) {
            _exit(126);
        }
        dup2(null, 0);
        dup2(null, 1);
        dup2(fd, 2);
        static char name[] = "occ";
        char *argv[16] = {name};
        for (int i = 0; args[i] != NULL && i < 14; i++) {
            argv[i + 1] = (char *)(uintptr_t)args[i];
        }
        execv(binary, argv);
        _exit(127);
    }
    int status = 0;
    struct rusage u;
    assert_int_equal(wait4(pid, &status, 0, &u), pid);
    *rss_kb = u.ru_maxrss;
    FILE *f = fopen(err_path, "rb");
    assert_non_null(f);
    size_t n = fread(err, 1, cap - 1, f);
    err[n] = 0;
    fclose(f);
    unlink(err_path);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

/* An endless stream (/dev/zero) is refused at OCC_INSPECT_MAX_STREAM_BYTES
   with one line, and the whole process stays within 256 MB: the limit is
   the process's, so occ diff's two sides, read at once on two threads,
   share it rather than take it each (issue 21: 264 MB and 509 MB before). */
static void inspect_endless_stream_memory(void **state)
{
    (void)state;
    const char *const cases[][4] = {{"inspect", "/dev/zero", NULL, NULL},
                                    {"diff", "/dev/zero", "/dev/zero", NULL}};
    const int codes[] = {EXIT_DATA, EXIT_USAGE};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        long rss_kb = 0;
        char err[1024];
        int code = run_occ_process(cases[i], &rss_kb, err, sizeof err);
        char prefix[32];
        snprintf(prefix, sizeof prefix, "occ %s: /dev/zero: more than ", cases[i][0]);
        if (code != codes[i] || !starts_with(err, prefix) || line_count(err) != 1 ||
            strstr(err, "128 MiB") == NULL) {
            fail_msg("occ %s: exit %d, stderr '%s'", cases[i][0], code, err);
        }
        if (RSS_MEASURED && rss_kb > PROCESS_RSS_LIMIT_KB) {
            fail_msg("occ %s /dev/zero: peak RSS %ld KiB, above %ld KiB (256 MB)", cases[i][0],
                     rss_kb, PROCESS_RSS_LIMIT_KB);
        }
    }
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
        cmocka_unit_test(inspect_endless_stream_memory),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
