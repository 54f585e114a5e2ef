/*
 * test_inspect_cli.c - `occ inspect` as a command, on small inputs that need no nvcc
 * (tests/data/hostile/, made by make_hostile.py, and logs written here):
 *   - --json on more threads than rows writes a whole document (cli-json-jobs);
 *   - kernel and file names reach the table and --summary with their control characters
 *     shown escaped, never raw (cli-visible);
 *   - with no file and a terminal on stdin it says what it expects and exits 2 at once
 *     (cli-tty, through a pseudo-terminal);
 *   - kernels read from a ptxas log say that the log carries no launch bounds: a note
 *     under the table, "from_log" in JSON (cli-from-log);
 *   - /dev/stdin from a pipe is read, /proc/self/maps fails for its real reason, and
 *     neither waits (cli-streams, the occ binary run with a time limit);
 *   - bad options exit 2, bad inputs exit 1 with one line naming the file (cli-errors);
 *   - a directory stands for the binaries under it (cli-directory);
 *   - --launches gives each kernel the launches a profile recorded (cli-launches), or a
 *     launch table's, by name, mangled name or glob, with CUDA's grid limits; a table
 *     from a pipe reads, a profile from a pipe is refused saying why (the occ binary run);
 *   - a launch the kernel refuses (above __launch_bounds__, off .reqntid, cluster dims the
 *     GPU cannot launch) is flagged, and the register ceiling is the kernel's own cap
 *     (cli-launch-flags).
 */
#define _XOPEN_SOURCE 700 /* posix_openpt and friends, for the pseudo-terminal */

#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "cli.h"
#include "cli_harness.h"
#include "inspect_output.h"
#include "test_data.h"

/* A copy of a tests/data path (test_data_path's buffer is reused by the next call). */
static const char *data(const char *relative)
{
    static char paths[4][1024];
    static int next;
    char *p = paths[next++ % 4];
    snprintf(p, 1024, "%s", test_data_path(relative));
    return p;
}

static const char one_kernel_log[] =
    "ptxas info    : Compiling entry function '_Z5scalePfi' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z5scalePfi\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 16 registers, used 0 barriers, 368 bytes cmem[0]\n";

static json_t *parse_json(const char *text)
{
    json_error_t jerr;
    json_t *doc = json_loads(text, 0, &jerr);
    if (doc == NULL) {
        fail_msg("not JSON (%s at line %d): %.200s", jerr.text, jerr.line, text);
    }
    return doc;
}

/* One line on stderr, "occ inspect: PATH: ...", with `want` in it. */
static void assert_one_error_line(const char *path, const char *want)
{
    char prefix[1200];
    snprintf(prefix, sizeof prefix, "occ inspect: %s: ", path);
    if (!starts_with(last.err, prefix) || strstr(last.err, want) == NULL ||
        line_count(last.err) != 1) {
        fail_msg("expected one line '%s...%s...', got: %s", prefix, want, last.err);
    }
}

/* ------------------------------------------------------------------------ */
/* cli-json-jobs                                                            */
/* ------------------------------------------------------------------------ */

/* One kernel on four threads: three parts format no rows (their memory is NULL, and
   writing it was fwrite(NULL, 1, 0), which UBSan stops the ASan build on). */
static void json_jobs_test(void **state)
{
    (void)state;
    const char *inputs[] = {data("hostile/cubin-baseline.cubin"), "-"};
    for (size_t i = 0; i < 2; i++) {
        assert_int_equal(
            OCC(one_kernel_log, "inspect", "--json", "--jobs", "4", "--gpu", "H200", inputs[i]),
            EXIT_OK);
        json_t *doc = parse_json(last.out);
        json_t *functions = json_object_get(doc, "functions");
        assert_int_equal(json_array_size(functions), 1);
        json_t *fn = json_array_get(functions, 0);
        assert_true(json_is_object(json_object_get(fn, "occupancy")));
        assert_string_equal(json_string_value(json_object_get(doc, "gpu")), "H200");
        json_decref(doc);
    }
    /* and no kernel at all (a log of a file without kernels): an empty list */
    assert_int_equal(OCC("ptxas info    : 0 bytes gmem\n", "inspect", "--json", "--jobs", "4"),
                     EXIT_OK);
    json_t *doc = parse_json(last.out);
    assert_int_equal(json_array_size(json_object_get(doc, "functions")), 0);
    json_decref(doc);
}

/* ------------------------------------------------------------------------ */
/* cli-visible                                                              */
/* ------------------------------------------------------------------------ */

static void assert_no_raw_controls(const char *text)
{
    for (const char *p = text; *p != '\0'; p++) {
        if ((unsigned char)*p < 0x20 && *p != '\n') {
            fail_msg("raw control character 0x%02x in output: %s", (unsigned char)*p, text);
        }
    }
}

static void visible_names_test(void **state)
{
    (void)state;
    const char *log = data("hostile/log-control-chars.log");
    const char *shown = "evil\\x1b]0;title\\x07\\x1b[2Jname";
    assert_int_equal(OCC(NULL, "inspect", log), EXIT_OK);
    assert_no_raw_controls(last.out);
    assert_non_null(strstr(last.out, shown));
    assert_int_equal(OCC(NULL, "inspect", "--summary", log), EXIT_OK);
    assert_no_raw_controls(last.out);
    assert_non_null(strstr(last.out, shown));
    /* JSON escapes them its own way, and keeps them: the name as it is */
    assert_int_equal(OCC(NULL, "inspect", "--json", log), EXIT_OK);
    json_t *doc = parse_json(last.out);
    assert_string_equal(json_string_value(json_object_get(
                            json_array_get(json_object_get(doc, "functions"), 0), "name")),
                        "evil\x1b]0;title\x07\x1b[2Jname");
    json_decref(doc);

    /* a file name with a bell in it, in the footer and in an error */
    char path[128];
    snprintf(path, sizeof path, "/tmp/occ-inspect-\a-%d.log", (int)getpid());
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(one_kernel_log, f);
    fclose(f);
    assert_int_equal(OCC(NULL, "inspect", path), EXIT_OK);
    assert_no_raw_controls(last.out);
    assert_non_null(strstr(last.out, "/tmp/occ-inspect-\\x07-"));
    f = fopen(path, "w");
    assert_non_null(f);
    fputs("not a log\n", f);
    fclose(f);
    assert_int_equal(OCC(NULL, "inspect", path), EXIT_DATA);
    assert_no_raw_controls(last.err);
    assert_non_null(strstr(last.err, "/tmp/occ-inspect-\\x07-"));
    unlink(path);
}

/* ------------------------------------------------------------------------ */
/* Running the occ binary, for what an in-process run cannot show           */
/* ------------------------------------------------------------------------ */

typedef struct proc_run {
    int code; /* exit status, or 128 + signal */
    char out[65536];
    char err[4096];
} proc_run;

static void read_back(int fd, char *buf, size_t cap)
{
    lseek(fd, 0, SEEK_SET);
    ssize_t n = read(fd, buf, cap - 1);
    buf[n > 0 ? n : 0] = '\0';
    close(fd);
}

/* Runs `occ ARGS...` with stdin_fd as its stdin, killed (SIGALRM) after 30 seconds:
   a run that waits for input shows as code 128 + 14 rather than a stuck test. */
static void run_occ(int stdin_fd, const char *const *args, proc_run *r)
{
    const char *occ = getenv("OCC_BINARY");
    if (occ == NULL) {
        fail_msg("OCC_BINARY is not set (tests/CMakeLists.txt sets it)");
    }
    char out_path[] = "/tmp/occ-inspect-out-XXXXXX";
    char err_path[] = "/tmp/occ-inspect-err-XXXXXX";
    int out_fd = mkstemp(out_path);
    int err_fd = mkstemp(err_path);
    assert_true(out_fd >= 0 && err_fd >= 0);
    unlink(out_path);
    unlink(err_path);
    char *argv[16];
    int argc = 0;
    argv[argc++] = (char *)(uintptr_t)occ;
    for (; args[argc - 1] != NULL; argc++) {
        assert_true(argc < 15);
        argv[argc] = (char *)(uintptr_t)args[argc - 1];
    }
    argv[argc] = NULL;
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(stdin_fd, 0);
        dup2(out_fd, 1);
        dup2(err_fd, 2);
        alarm(30);
        execv(occ, argv);
        _exit(127);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    r->code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    read_back(out_fd, r->out, sizeof r->out);
    read_back(err_fd, r->err, sizeof r->err);
}

#define RUN_OCC(fd, r, ...) run_occ(fd, (const char *const[]){__VA_ARGS__, NULL}, r)

/* ------------------------------------------------------------------------ */
/* cli-tty                                                                  */
/* ------------------------------------------------------------------------ */

static void terminal_stdin_test(void **state)
{
    (void)state;
    /* not a terminal: a file (the harness's stdin) and a pipe are read */
    FILE *file = tmpfile();
    assert_non_null(file);
    assert_false(inspect_stdin_is_terminal(file));
    fclose(file);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    FILE *pipe_end = fdopen(fds[0], "r");
    assert_non_null(pipe_end);
    assert_false(inspect_stdin_is_terminal(pipe_end));
    fclose(pipe_end);
    close(fds[1]);

    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) {
        skip(); /* no pseudo-terminals here (no /dev/ptmx) */
    }
    int slave = open(ptsname(master), O_RDWR | O_NOCTTY);
    assert_true(slave >= 0);
    FILE *tty = fdopen(dup(slave), "r");
    assert_non_null(tty);
    assert_true(inspect_stdin_is_terminal(tty));
    fclose(tty);

    /* the binary, its stdin a terminal nobody types on: exit 2 at once, one line */
    proc_run *r = malloc(sizeof *r);
    assert_non_null(r);
    RUN_OCC(slave, r, "inspect");
    if (r->code != EXIT_USAGE || strstr(r->err, "occ inspect: no input: give a file") == NULL ||
        strstr(r->err, "pipe") == NULL) {
        fail_msg("exit %d, stderr: %s", r->code, r->err);
    }
    /* a file named on the command line is read as usual */
    RUN_OCC(slave, r, "inspect", data("hostile/cubin-baseline.cubin"));
    assert_int_equal(r->code, EXIT_OK);
    assert_non_null(strstr(r->out, "k()"));
    /* /dev/stdin is the terminal too: refused by name, not waited on */
    RUN_OCC(slave, r, "inspect", "/dev/stdin");
    if (r->code != EXIT_DATA || strstr(r->err, "/dev/stdin: is a terminal") == NULL) {
        fail_msg("exit %d, stderr: %s", r->code, r->err);
    }
    free(r);
    close(slave);
    close(master);
}

/* ------------------------------------------------------------------------ */
/* cli-from-log                                                             */
/* ------------------------------------------------------------------------ */

static void from_log_test(void **state)
{
    (void)state;
    assert_int_equal(OCC(one_kernel_log, "inspect", "--gpu", "H200"), EXIT_OK);
    assert_non_null(strstr(last.out, "Note: 1 kernel was read from a ptxas log, which does not "
                                     "carry __launch_bounds__"));
    assert_int_equal(OCC(one_kernel_log, "inspect", "--summary"), EXIT_OK);
    assert_non_null(strstr(last.out, "Note: 1 kernel was read from a ptxas log"));
    assert_int_equal(OCC(one_kernel_log, "inspect", "--json"), EXIT_OK);
    json_t *doc = parse_json(last.out);
    json_t *fn = json_array_get(json_object_get(doc, "functions"), 0);
    assert_true(json_is_true(json_object_get(fn, "from_log")));
    assert_true(json_is_null(json_object_get(fn, "max_threads")));
    json_decref(doc);
    /* from a binary: no note, from_log false */
    const char *cubin = data("hostile/cubin-baseline.cubin");
    assert_int_equal(OCC(NULL, "inspect", cubin), EXIT_OK);
    assert_null(strstr(last.out, "Note:"));
    assert_int_equal(OCC(NULL, "inspect", "--json", cubin), EXIT_OK);
    doc = parse_json(last.out);
    fn = json_array_get(json_object_get(doc, "functions"), 0);
    assert_true(json_is_false(json_object_get(fn, "from_log")));
    json_decref(doc);
}

/* ------------------------------------------------------------------------ */
/* cli-launch-flags                                                         */
/* ------------------------------------------------------------------------ */

#define BASELINE_ROW(mangled, regs, max_threads, req_threads, max_regs, cluster)                   \
    "{\"mangled\":\"" mangled "\",\"arch\":\"sm_90\",\"kind\":\"kernel\",\"relocatable\":false,"   \
    "\"from_log\":false,\"count\":1,\"regs\":" regs ",\"smem_bytes\":0,\"smem_section_bytes\":0,"  \
    "\"stack_bytes\":0,\"frame_bytes\":0,\"spill_store_bytes\":null,\"spill_load_bytes\":null,"    \
    "\"spill_instructions\":0,\"barriers\":0,\"max_threads\":" max_threads                         \
    ",\"req_threads\":" req_threads ",\"max_regs\":" max_regs ",\"cluster_dims\":" cluster         \
    ",\"explicit_cluster\":false,\"max_cluster_rank\":null,\"param_bytes\":8}"

/* A launch the kernel refuses is flagged, never shown as a plain 100%:
   above __launch_bounds__, off .reqntid, cluster dims the GPU cannot
   launch (17 blocks; 10^6 cubed, which once overflowed); and the register
   ceiling is the kernel's own cap (__maxnreg__(40)), not 255. */
static const char launch_baseline[] =
    "{\"schema\":\"occ.baseline\",\"version\":1,\"occ_version\":\"0.1.0\",\"inputs\":[{\"file\":"
    "\"k.cubin\",\"format\":\"cubin\"}],\"options\":{\"arch\":null,\"functions\":false,\"all\":"
    "false,\"filter\":null},\"function_count\":6,\"functions\":[\n" BASELINE_ROW("_Z7bounded", "16", "[128,1,1]", "null", "null", "null") ",\n" BASELINE_ROW(
        "_Z7reqntid", "16", "null", "[64,1,1]", "null",
        "null") ",\n" BASELINE_ROW("_Z6capped", "40", "null", "null", "40",
                                   "null") ",\n" BASELINE_ROW("_Z9cluster17", "16", "null", "null",
                                                              "null",
                                                              "[17,1,1]") ",\n" BASELINE_ROW("_Z9cl"
                                                                                             "uster"
                                                                                             "big",
                                                                                             "16",
                                                                                             "null",
                                                                                             "null",
                                                                                             "null",
                                                                                             "[1000"
                                                                                             "000,"
                                                                                             "10000"
                                                                                             "00,"
                                                                                             "10000"
                                                                                             "00]") ",\n" BASELINE_ROW("_Z5plain",
                                                                                                                       "16",
                                                                                                                       "null",
                                                                                                                       "null",
                                                                                                                       "null",
                                                                                                                       "null") "\n]}\n";

static json_t *function_named(json_t *doc, const char *name)
{
    json_t *functions = json_object_get(doc, "functions");
    for (size_t i = 0; i < json_array_size(functions); i++) {
        json_t *f = json_array_get(functions, i);
        if (strcmp(json_string_value(json_object_get(f, "mangled")), name) == 0) {
            return f;
        }
    }
    fail_msg("no function %s", name);
    return NULL;
}

static bool has_flag(json_t *f, const char *flag)
{
    json_t *flags = json_object_get(f, "flags");
    assert_true(json_is_array(flags));
    for (size_t i = 0; i < json_array_size(flags); i++) {
        if (strcmp(json_string_value(json_array_get(flags, i)), flag) == 0) {
            return true;
        }
    }
    return false;
}

static void launch_flags_test(void **state)
{
    (void)state;
    assert_int_equal(OCC(launch_baseline, "inspect", "--gpu", "H200", "--threads", "256", "--json"),
                     EXIT_OK);
    json_t *doc = parse_json(last.out);
    assert_true(has_flag(function_named(doc, "_Z7bounded"), "launch_bounds"));
    assert_true(has_flag(function_named(doc, "_Z7reqntid"), "reqntid"));
    assert_true(has_flag(function_named(doc, "_Z9cluster17"), "cluster_dims"));
    json_t *big = function_named(doc, "_Z9clusterbig");
    assert_true(has_flag(big, "cluster_dims"));
    assert_true(json_is_null(json_object_get(big, "occupancy"))); /* no non-cluster 100% */
    assert_true(has_flag(function_named(doc, "_Z6capped"), "ceiling"));
    json_t *plain = function_named(doc, "_Z5plain");
    assert_int_equal(json_array_size(json_object_get(plain, "flags")), 0);
    assert_false(has_flag(function_named(doc, "_Z7bounded"), "ceiling"));
    json_decref(doc);
    /* the table says the launch fails, and why, under it */
    assert_int_equal(OCC(launch_baseline, "inspect", "--gpu", "H200", "--threads", "256"), EXIT_OK);
    assert_non_null(strstr(last.out, "FAILS: > bound"));
    assert_non_null(strstr(last.out, "FAILS: != reqntid"));
    assert_non_null(strstr(last.out, "FAILS: cluster > 16"));
    assert_non_null(strstr(last.out, "cluster dims cannot launch on this GPU"));
    assert_non_null(strstr(last.out, "1 kernel cannot launch at 256 threads: above its "
                                     "__launch_bounds__"));
    /* --summary counts them, and the kernel at its own cap */
    assert_int_equal(
        OCC(launch_baseline, "inspect", "--gpu", "H200", "--threads", "256", "--summary"), EXIT_OK);
    assert_non_null(
        strstr(last.out, "launch fails (launch_bounds, reqntid, cluster_dims)        4"));
    assert_non_null(
        strstr(last.out, "at the register ceiling (ceiling)                          1"));
    assert_non_null(
        strstr(last.out, "  of them at their own register cap (max_regs)             1"));
    /* a shape is its thread count, as occ calc takes it: 16x16 is 256 */
    char *flat = strdup(last.out);
    assert_non_null(flat);
    assert_int_equal(
        OCC(launch_baseline, "inspect", "--gpu", "H200", "--threads", "16x16", "--summary"),
        EXIT_OK);
    assert_string_equal(last.out, flat);
    free(flat);
    assert_int_equal(OCC(launch_baseline, "inspect", "--gpu", "H200", "--threads", "8x8x4"),
                     EXIT_OK);
    assert_non_null(strstr(last.out, "1 kernel cannot launch at 256 threads: above its "
                                     "__launch_bounds__"));
    assert_int_equal(OCC(launch_baseline, "inspect", "--threads", "64x32"), EXIT_USAGE);
    assert_true(starts_with(last.err, "occ inspect: option --threads: threads per block: '64x32' "
                                      "is 2048 threads, above the maximum, 1024\n"));
    assert_int_equal(OCC(launch_baseline, "inspect", "--threads", "16x"), EXIT_USAGE);
    assert_non_null(strstr(last.err, "is not a block size such as 256, 16x16 or 8x8x4"));
    /* at the API's pick (within the bound, at .reqntid) nothing fails */
    assert_int_equal(OCC(launch_baseline, "inspect", "--gpu", "H200", "--json"), EXIT_OK);
    doc = parse_json(last.out);
    assert_false(has_flag(function_named(doc, "_Z7bounded"), "launch_bounds"));
    assert_false(has_flag(function_named(doc, "_Z7reqntid"), "reqntid"));
    json_decref(doc);
}

/* ------------------------------------------------------------------------ */
/* cli-launches                                                             */
/* ------------------------------------------------------------------------ */

/* Kernels as a baseline holds them, and the launches a program made of them. */
static const char launches_baseline[] =
    "{\"schema\":\"occ.baseline\",\"version\":1,\"occ_version\":\"0.1.0\",\"inputs\":[{\"file\":"
    "\"k.cubin\",\"format\":\"cubin\"}],\"options\":{\"arch\":null,\"functions\":false,\"all\":"
    "false,\"filter\":null},\"function_count\":4,\"functions\":[\n" BASELINE_ROW(
        "_Z3addPf", "64", "null", "null", "null",
        "null") ",\n" BASELINE_ROW("_Z4convPf", "16", "null", "null", "null",
                                   "null") ",\n" BASELINE_ROW("_Z5scalePfi", "32", "null", "null",
                                                              "null",
                                                              "null") ",\n" BASELINE_ROW("nvjet_"
                                                                                         "sm90_tst_"
                                                                                         "256x128",
                                                                                         "168",
                                                                                         "null",
                                                                                         "null",
                                                                                         "null",
                                                                                         "null") "\n]}\n";

/* occ's CUPTI records (mangled names, clusters, dynamic shared memory),
   written as an Nsight Systems SQLite export by occ lab trace --convert. */
static const char launch_records[] =
    "# occ-trace 1\n"
    "D\t0\tNVIDIA H200\t132\t9\t0\n"
    "K\t0\t1\t7\t1\t1000\t3000\t2\t66\t1\t384\t1\t1\t168\t0\t213188\t0\t233472\t1\t-1\t2\t1\t1\t1"
    "\t0\t0\t16\tnvjet_sm90_tst_256x128\n"
    "K\t0\t1\t7\t2\t4000\t5000\t1056\t1\t1\t256\t1\t1\t64\t0\t0\t0\t233472\t0\t-1\t0\t0\t0\t0"
    "\t0\t0\t0\t_Z3addPf\n"
    "K\t0\t1\t7\t3\t6000\t6500\t1\t1\t1\t128\t1\t1\t16\t0\t61440\t0\t233472\t0\t100\t0\t0\t0\t0\t0"
    "\t0\t0\t_Z4convPf\n"
    "E\t3\t0\n";

/* A PyTorch profile: names demangled its own way, static + dynamic shared
   memory summed, one kernel compiled at run time. */
static const char launch_kineto[] =
    "{\"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H200\", \"computeMajor\": 9, "
    "\"computeMinor\": 0, \"numSms\": 132}], \"traceEvents\": [\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"scale(float*,int)\", \"dur\": 30, \"args\": "
    "{\"registers per thread\": 32, \"shared memory\": 8192, \"grid\": [10, 1, 1], \"block\": "
    "[16, 16, 1]}},\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"triton_poi_fused_0\", \"dur\": 10, \"args\": "
    "{\"registers per thread\": 32, \"shared memory\": 0, \"grid\": [10, 1, 1], \"block\": "
    "[128, 1, 1]}}]}\n";

static const char *write_text(const char *suffix, const char *text)
{
    static char paths[2][128];
    static int next;
    char *path = paths[next++ % 2];
    snprintf(path, 128, "/tmp/occ-launches-%d%s", (int)getpid(), suffix);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static json_t *launch_of_row(json_t *doc, const char *mangled)
{
    return json_object_get(function_named(doc, mangled), "launch");
}

static long long int_at(json_t *o, const char *key)
{
    return (long long)json_integer_value(json_object_get(o, key));
}

static void launches_test(void **state)
{
    (void)state;
    const char *tsv = write_text(".tsv", launch_records);
    char db[128];
    snprintf(db, sizeof db, "/tmp/occ-launches-%d.sqlite", (int)getpid());
    assert_int_equal(OCC(NULL, "lab", "trace", "--convert", tsv, "--output", db), EXIT_OK);
    unlink(tsv);
    const char *records = db; /* as Nsight Systems exports it: SQLite */
    assert_int_equal(
        OCC(launches_baseline, "inspect", "--gpu", "H200", "--launches", records, "--json"),
        EXIT_OK);
    json_t *doc = parse_json(last.out);
    json_t *add = launch_of_row(doc, "_Z3addPf"); /* by its mangled name */
    assert_string_equal(json_string_value(json_object_get(add, "source")), "profile");
    assert_int_equal(json_integer_value(json_array_get(json_object_get(add, "block"), 0)), 256);
    json_t *conv = launch_of_row(doc, "_Z4convPf");
    assert_int_equal(int_at(conv, "dyn_smem_bytes"), 61440);
    json_t *nvjet = launch_of_row(doc, "nvjet_sm90_tst_256x128"); /* a C name, a cluster */
    assert_int_equal(json_integer_value(json_array_get(json_object_get(nvjet, "cluster"), 0)), 2);
    assert_int_equal(int_at(nvjet, "dyn_smem_bytes"), 213188);
    json_t *occupancy = json_object_get(function_named(doc, "nvjet_sm90_tst_256x128"), "occupancy");
    assert_int_equal(int_at(occupancy, "blocks_per_sm"), 1);
    /* no recorded launch: the API's pick, and the row says so */
    json_t *scale = launch_of_row(doc, "_Z5scalePfi");
    assert_string_equal(json_string_value(json_object_get(scale, "source")), "api");
    json_t *m = json_object_get(doc, "launch_match");
    assert_int_equal(int_at(m, "matched"), 3);
    assert_true(json_real_value(json_object_get(m, "matched_time_share")) == 1.0);
    json_decref(doc);

    /* a PyTorch profile: "scale(float*,int)" is libiberty's "scale(float*, int)", its 8 KB
       of shared memory all dynamic (the kernel has no static), its block 16x16 */
    const char *kineto = write_text(".json", launch_kineto);
    assert_int_equal(
        OCC(launches_baseline, "inspect", "--gpu", "H200", "--launches", kineto, "--json"),
        EXIT_OK);
    doc = parse_json(last.out);
    scale = launch_of_row(doc, "_Z5scalePfi");
    assert_string_equal(json_string_value(json_object_get(scale, "source")), "profile");
    assert_int_equal(int_at(scale, "dyn_smem_bytes"), 8192);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(scale, "block"), 1)), 16);
    occupancy = json_object_get(function_named(doc, "_Z5scalePfi"), "occupancy");
    assert_int_equal(int_at(occupancy, "threads"), 256);
    m = json_object_get(doc, "launch_match");
    assert_int_equal(int_at(m, "matched"), 1);
    assert_true(fabs(json_real_value(json_object_get(m, "matched_time_share")) - 0.75) < 1e-9);
    json_t *unmatched = json_array_get(json_object_get(m, "unmatched"), 0);
    assert_string_equal(json_string_value(json_object_get(unmatched, "name")),
                        "triton_poi_fused_0");
    json_decref(doc);
    /* the table names the source on each launched row and the kernels not found */
    assert_int_equal(OCC(launches_baseline, "inspect", "--gpu", "H200", "--launches", kineto),
                     EXIT_OK);
    assert_non_null(strstr(last.out, "[profile, block 16x16x1, 8192 B dynamic]"));
    assert_non_null(strstr(last.out, "1 configuration matches no kernel read (25.0% of the GPU "
                                     "time"));
    assert_non_null(strstr(last.out, "25.0%  triton_poi_fused_0"));
    /* a launch source that cannot be read is an error naming it */
    assert_int_equal(OCC(launches_baseline, "inspect", "--launches", "/nonexistent/p.json"),
                     EXIT_DATA);
    assert_non_null(strstr(last.err, "--launches: /nonexistent/p.json"));
    unlink(db);
    unlink(kineto);
}

/* The library call itself: a glob, a launch no GPU allows, and NULLs. */
static void apply_launches_api_test(void **state)
{
    (void)state;
    occ_inspect_input in = {"b.json", launches_baseline, sizeof launches_baseline - 1};
    occ_inspect_options opts;
    occ_inspect_options_init(&opts);
    occ_inspect_result *r;
    occ_inspect_error err;
    assert_int_equal(occ_inspect_read(&in, 1, &opts, &r, &err), OCC_OK);
    assert_int_equal(occ_inspect_kernel_count(r), 4);
    occ_inspect_launch glob = {.name = "*conv*",
                               .block = {64, 1, 1},
                               .dyn_smem_bytes = 1024,
                               .smem_total_bytes = OCC_INSPECT_UNKNOWN,
                               .weight = 1.0,
                               .source = OCC_INSPECT_LAUNCH_TABLE,
                               .carveout_percent = OCC_CARVEOUT_DEFAULT,
                               .glob = true};
    occ_inspect_launch both[2] = {glob, glob};
    both[1].block[0] = 128;
    bool matched[2];
    occ_inspect_launch_match m;
    assert_int_equal(occ_inspect_apply_launches(r, &opts, both, 2, matched, &m, &err), OCC_OK);
    assert_true(matched[0] && matched[1]);
    assert_int_equal(m.rows, 5); /* conv twice */
    assert_int_equal(m.kernels_launched, 1);
    int seen = 0;
    for (size_t i = 0; i < occ_inspect_kernel_count(r); i++) {
        const occ_inspect_kernel *k = occ_inspect_kernel_at(r, i);
        if (strcmp(k->mangled, "_Z4convPf") == 0) {
            assert_int_equal(k->launch_source, OCC_INSPECT_LAUNCH_TABLE);
            assert_int_equal(k->threads, k->launch_index == 0 ? 64 : 128);
            assert_int_equal(k->launch_dyn_smem_bytes, 1024);
            seen++;
        }
    }
    assert_int_equal(seen, 2);
    occ_inspect_launch bad = glob;
    bad.block[0] = 2048;
    assert_int_equal(occ_inspect_apply_launches(r, &opts, &bad, 1, NULL, NULL, &err),
                     OCC_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(err.message, "block dimension 2048 is outside 1..1024"));
    bad = glob;
    bad.block[1] = 64; /* 64 x 64 threads */
    assert_int_equal(occ_inspect_apply_launches(r, &opts, &bad, 1, NULL, NULL, &err),
                     OCC_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(err.message, "4096 threads per block, above 1024"));
    bad = glob;
    bad.carveout_percent = 101;
    assert_int_equal(occ_inspect_apply_launches(r, &opts, &bad, 1, NULL, NULL, &err),
                     OCC_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(err.message, "carveout 101% is outside 0..100"));
    assert_int_equal(occ_inspect_apply_launches(r, &opts, NULL, 1, NULL, NULL, &err),
                     OCC_ERR_NULL_POINTER);
    assert_string_equal(occ_inspect_launch_source_name(OCC_INSPECT_LAUNCH_PROFILE), "profile");
    assert_string_equal(occ_inspect_launch_source_name(99), "unknown");
    occ_inspect_result_free(r);
}

/* A directory stands for the binaries under it (Triton's cache: a cubin
   beside its PTX and JSON); one with none is an error naming it. */
static void directory_test(void **state)
{
    (void)state;
    char dir[128], sub[160], copy[200], other[200];
    snprintf(dir, sizeof dir, "/tmp/occ-inspect-dir-%d", (int)getpid());
    snprintf(sub, sizeof sub, "%s/ab12", dir);
    assert_int_equal(mkdir(dir, 0700), 0);
    assert_int_equal(mkdir(sub, 0700), 0);
    snprintf(copy, sizeof copy, "%s/kernel.cubin", sub);
    snprintf(other, sizeof other, "%s/kernel.ptx", sub);
    FILE *in = fopen(data("hostile/cubin-baseline.cubin"), "rb");
    FILE *out = fopen(copy, "wb");
    assert_non_null(in);
    assert_non_null(out);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0) {
        assert_int_equal(fwrite(buf, 1, n, out), n);
    }
    fclose(in);
    fclose(out);
    out = fopen(other, "w");
    assert_non_null(out);
    fputs(".version 8.0\n", out); /* not a binary: passed over */
    fclose(out);
    assert_int_equal(OCC(NULL, "inspect", "--json", dir), EXIT_OK);
    json_t *doc = parse_json(last.out);
    json_t *inputs = json_object_get(doc, "inputs");
    assert_int_equal(json_array_size(inputs), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(inputs, 0), "file")),
                        copy);
    assert_true(json_array_size(json_object_get(doc, "functions")) > 0);
    json_decref(doc);
    unlink(copy);
    assert_int_equal(OCC(NULL, "inspect", dir), EXIT_DATA);
    assert_non_null(strstr(last.err, "a directory without a cubin, fatbin, ELF file or archive"));
    unlink(other);
    rmdir(sub);
    rmdir(dir);
}

/* The library checks its options and names the field (the CLI checks them
   too, but C and Python callers reach the library directly). */
static void options_checked_test(void **state)
{
    (void)state;
    occ_inspect_input in = {"b.json", launches_baseline, sizeof launches_baseline - 1};
    const char *wants[] = {"options.jobs 1000000",    "options.jobs -1",      "options.arch_sm -90",
                           "options.arch_suffix 122", "options.threads 2048", "options.device: "};
    occ_device bad_device;
    assert_int_equal(occ_gpu_find("H200", &bad_device, NULL), OCC_OK);
    bad_device.max_threads_per_sm = 0;
    for (size_t i = 0; i < sizeof wants / sizeof wants[0]; i++) {
        occ_inspect_options o;
        occ_inspect_options_init(&o);
        switch (i) {
        case 0: o.jobs = 1000000; break;
        case 1: o.jobs = -1; break;
        case 2: o.arch_sm = -90; break;
        case 3: o.arch_suffix = 'z'; break;
        case 4: o.threads = 2048; break;
        default: o.device = &bad_device; break;
        }
        occ_inspect_result *r;
        occ_inspect_error err;
        occ_status st = occ_inspect_read(&in, 1, &o, &r, &err);
        assert_true(st == OCC_ERR_INVALID_ARGUMENT || st == OCC_ERR_INVALID_DEVICE);
        if (strstr(err.message, wants[i]) == NULL) {
            fail_msg("case %zu: '%s' not in '%s'", i, wants[i], err.message);
        }
    }
    /* the CLI says so before reading anything */
    assert_int_equal(OCC(launches_baseline, "inspect", "--jobs", "65"), EXIT_USAGE);
}

/* A launch table: names or globs, block dims, dynamic shared memory, and
   the optional cluster, grid and weight; each bad cell named with its line. */
static void launch_table_test(void **state)
{
    (void)state;
    const char *table = write_text(".csv", "kernel,block,dyn_smem,cluster,weight,carveout\n"
                                           "*conv*,64,4K,,3,50\n"
                                           "\"scale(float*, int)\",16x16,0,,1\n"
                                           "nvjet_sm90_tst_256x128,384,213188,2,1\n"
                                           "not_in_any_binary,128,0,,1\n");
    assert_int_equal(
        OCC(launches_baseline, "inspect", "--gpu", "H200", "--launches", table, "--json"), EXIT_OK);
    json_t *doc = parse_json(last.out);
    json_t *conv = launch_of_row(doc, "_Z4convPf");
    assert_string_equal(json_string_value(json_object_get(conv, "source")), "table");
    assert_int_equal(int_at(conv, "dyn_smem_bytes"), 4096);
    assert_int_equal(int_at(conv, "carveout_percent"), 50);
    json_t *scale = launch_of_row(doc, "_Z5scalePfi");
    assert_int_equal(json_integer_value(json_array_get(json_object_get(scale, "block"), 1)), 16);
    assert_true(json_is_null(json_object_get(scale, "carveout_percent")));
    json_t *nvjet = launch_of_row(doc, "nvjet_sm90_tst_256x128");
    assert_int_equal(json_integer_value(json_array_get(json_object_get(nvjet, "cluster"), 0)), 2);
    json_t *m = json_object_get(doc, "launch_match");
    assert_string_equal(json_string_value(json_object_get(m, "source")), "table");
    assert_int_equal(int_at(m, "matched"), 3);
    assert_true(fabs(json_real_value(json_object_get(m, "matched_time_share")) - 5.0 / 6.0) < 1e-9);
    json_decref(doc);
    static const struct {
        const char *text, *want;
    } bad[] = {
        {"kernel,block,dyn_smem\nk,2048,0\n", "line 2: block: '2048' is above the maximum"},
        {"kernel,blok,dyn_smem\n", "line 1: blok: not a column"},
        {"kernel,block\n", "line 1: dyn_smem: missing: the header is kernel,block,dyn_smem"},
        {"kernel,block,dyn_smem\n,64,0\n", "line 2: kernel: empty"},
        {"kernel,block,dyn_smem,weight\nk,64,0,-1\n", "line 2: weight: not a number of 0 or more"},
        {"kernel,block,dyn_smem,block\n", "line 1: block: appears twice"},
        {"kernel,block,dyn_smem,carveout\nk,64,0,101\n", "line 2: carveout: "},
        {"kernel,block,dyn_smem,grid\nk,64,0,1x65536\n",
         "line 2: grid: '1x65536': dimension '65536' is above the maximum, 65535"},
        {"kernel,block,dyn_smem\nk,64,0,2\n",
         "line 2: row: 4 fields, but the header has 3 columns: field 4, '2', is in none"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *path = write_text(".csv", bad[i].text);
        assert_int_equal(OCC(launches_baseline, "inspect", "--launches", path), EXIT_DATA);
        if (strstr(last.err, bad[i].want) == NULL) {
            fail_msg("%s: want '%s', got: %s", bad[i].text, bad[i].want, last.err);
        }
        unlink(path);
    }
    unlink(table);
}

/* A launch table's names as a user copies them: a demangled signature with a
   pointer spaced otherwise than libiberty spaces it, a mangled name; a grid
   of one H200 wave (1056 blocks, above a block's 1024). */
static void launch_table_names_test(void **state)
{
    (void)state;
    const char *table = write_text(".csv", "kernel,block,dyn_smem,grid,weight\n"
                                           "\"scale(float*,int)\",16x16,0,1056,1\n"
                                           "_Z3addPf,128,1K,132x8,1\n"
                                           "*conv*,64,0,,1\n");
    assert_int_equal(
        OCC(launches_baseline, "inspect", "--gpu", "H200", "--launches", table, "--json"), EXIT_OK);
    json_t *doc = parse_json(last.out);
    json_t *scale = launch_of_row(doc, "_Z5scalePfi");
    assert_string_equal(json_string_value(json_object_get(scale, "source")), "table");
    assert_int_equal(json_integer_value(json_array_get(json_object_get(scale, "block"), 1)), 16);
    json_t *add = launch_of_row(doc, "_Z3addPf");
    assert_string_equal(json_string_value(json_object_get(add, "source")), "table");
    assert_int_equal(json_integer_value(json_array_get(json_object_get(add, "block"), 0)), 128);
    assert_int_equal(int_at(add, "dyn_smem_bytes"), 1024);
    json_t *conv = launch_of_row(doc, "_Z4convPf"); /* the glob of the docs still a glob */
    assert_string_equal(json_string_value(json_object_get(conv, "source")), "table");
    json_t *m = json_object_get(doc, "launch_match");
    assert_int_equal(int_at(m, "matched"), 3);
    assert_int_equal(json_array_size(json_object_get(m, "unmatched")), 0);
    json_decref(doc);
    unlink(table);
}

/* --launches /dev/stdin from a pipe: a launch table reads; a profile, which
   is read by path after the look for a table has taken the pipe's bytes, is
   refused in one line saying to write it to a file. */
static void launches_pipe_test(void **state)
{
    (void)state;
    proc_run *r = malloc(sizeof *r);
    assert_non_null(r);
    char input[128];
    snprintf(input, sizeof input, "%s", write_text(".json", launches_baseline));
    int fds[2];
    static const char table[] = "kernel,block,dyn_smem\n\"scale(float*, int)\",16x16,0\n";
    assert_int_equal(pipe(fds), 0);
    assert_int_equal(write(fds[1], table, strlen(table)), (ssize_t)strlen(table));
    close(fds[1]);
    RUN_OCC(fds[0], r, "inspect", "--gpu", "H200", "--launches", "/dev/stdin", input);
    close(fds[0]);
    if (r->code != EXIT_OK || strstr(r->out, "[table, block 16x16x1]") == NULL ||
        strstr(r->out, "Launches from /dev/stdin (table): 1 configuration") == NULL) {
        fail_msg("exit %d, stdout: %s, stderr: %s", r->code, r->out, r->err);
    }
    assert_int_equal(pipe(fds), 0);
    assert_int_equal(write(fds[1], launch_kineto, strlen(launch_kineto)),
                     (ssize_t)strlen(launch_kineto));
    close(fds[1]);
    RUN_OCC(fds[0], r, "inspect", "--gpu", "H200", "--launches", "/dev/stdin", input);
    close(fds[0]);
    if (r->code != EXIT_DATA ||
        strcmp(r->err, "occ inspect: --launches: /dev/stdin: not a launch table (its first line "
                       "does not start with the column kernel), and a profile is read from a "
                       "file, not a pipe: write it to a file and give that\n") != 0) {
        fail_msg("exit %d, stderr: %s", r->code, r->err);
    }
    /* '-' is the command's stdin: a table reads from it, beside an input file */
    assert_int_equal(OCC(table, "inspect", "--gpu", "H200", "--launches", "-", input), EXIT_OK);
    assert_non_null(strstr(last.out, "[table, block 16x16x1]"));
    assert_non_null(strstr(last.out, "Launches from <stdin> (table): 1 configuration"));
    /* and it is stdin once only */
    assert_int_equal(OCC(table, "inspect", "--gpu", "H200", "--launches", "-", "-"), EXIT_USAGE);
    assert_non_null(strstr(last.err, "stdin ('-') is named more than once"));
    unlink(input);
    free(r);
}

/* ------------------------------------------------------------------------ */
/* cli-streams                                                              */
/* ------------------------------------------------------------------------ */

static void streams_test(void **state)
{
    (void)state;
    proc_run *r = malloc(sizeof *r);
    assert_non_null(r);
    /* /dev/stdin from a pipe: read like a file */
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    assert_int_equal(write(fds[1], one_kernel_log, strlen(one_kernel_log)),
                     (ssize_t)strlen(one_kernel_log));
    close(fds[1]);
    RUN_OCC(fds[0], r, "inspect", "--csv", "/dev/stdin");
    close(fds[0]);
    if (r->code != EXIT_OK || strstr(r->out, "\nsm_90,\"scale(float*, int)\",16,") == NULL) {
        fail_msg("exit %d, stdout: %s, stderr: %s", r->code, r->out, r->err);
    }
    /* no file, stdin a pipe: the same */
    assert_int_equal(pipe(fds), 0);
    assert_int_equal(write(fds[1], one_kernel_log, strlen(one_kernel_log)),
                     (ssize_t)strlen(one_kernel_log));
    close(fds[1]);
    RUN_OCC(fds[0], r, "inspect", "--csv");
    close(fds[0]);
    assert_int_equal(r->code, EXIT_OK);
    assert_non_null(strstr(r->out, "scale(float*, int)"));
    /* a /proc file (size 0 to stat, text to read): read, and refused for what it is */
    int null_fd = open("/dev/null", O_RDONLY);
    assert_true(null_fd >= 0);
    RUN_OCC(null_fd, r, "inspect", "/proc/self/maps");
    if (r->code != EXIT_DATA ||
        strstr(r->err, "occ inspect: /proc/self/maps: offset 0: not a ptxas log, cubin, "
                       "fatbin or ELF file") == NULL ||
        line_count(r->err) != 1) {
        fail_msg("exit %d, stderr: %s", r->code, r->err);
    }
    /* a FIFO nobody writes to: empty, not waited on */
    char fifo[64];
    snprintf(fifo, sizeof fifo, "/tmp/occ-inspect-fifo-%d", (int)getpid());
    assert_int_equal(mkfifo(fifo, 0600), 0);
    RUN_OCC(null_fd, r, "inspect", fifo);
    unlink(fifo);
    if (r->code != EXIT_DATA || strstr(r->err, ": is empty") == NULL) {
        fail_msg("exit %d, stderr: %s", r->code, r->err);
    }
    close(null_fd);
    free(r);
}

/* ------------------------------------------------------------------------ */
/* cli-errors                                                               */
/* ------------------------------------------------------------------------ */

static void errors_test(void **state)
{
    (void)state;
    const char *cubin = data("hostile/cubin-baseline.cubin");
    static const char *const usage[][4] = {
        {"--threads", "0", NULL, NULL},
        {"--jobs", "0", NULL, NULL},
        {"--sort", "size", NULL, NULL},
        {"--arch", "gfx90", NULL, NULL},
        {"--arch", "sm_9000", NULL, NULL},
        {"--gpu", "no-such-gpu", NULL, NULL},
        {"--json", "--csv", NULL, NULL},
        {"--filter", "(", NULL, NULL},
        {"--regs", "32", NULL, NULL},
        {"--dyn-smem", "lots", NULL, NULL},
        {"-", "-", NULL, NULL},
        {"--gpu-file", "-", "-", NULL},
        {"--gpu", "H200", "--gpu-file", "x"},
    };
    for (size_t i = 0; i < sizeof usage / sizeof usage[0]; i++) {
        const char *const *u = usage[i];
        int code = OCC("", "inspect", u[0], u[1] != NULL ? u[1] : cubin,
                       u[2] != NULL ? u[2] : cubin, u[3] != NULL ? u[3] : cubin);
        if (code != EXIT_USAGE || !starts_with(last.err, "occ inspect: ") ||
            strstr(last.err, "occ: try 'occ inspect --help'") == NULL) {
            fail_msg("inspect %s %s: exit %d, stderr: %s", u[0], u[1] != NULL ? u[1] : "", code,
                     last.err);
        }
    }
    assert_int_equal(OCC(NULL, "inspect", "/nonexistent/x.cubin"), EXIT_DATA);
    assert_one_error_line("/nonexistent/x.cubin", "cannot open");
    char dir[1100];
    snprintf(dir, sizeof dir, "%s", data("hostile"));
    /* a directory stands for its binaries: this one's first damaged one is named */
    assert_int_equal(OCC(NULL, "inspect", dir), EXIT_DATA);
    assert_true(starts_with(last.err, "occ inspect: "));
    assert_non_null(strstr(last.err, dir));
    assert_null(strstr(last.err, "is a directory"));
    /* the second input is the bad one: named, not the first */
    const char *bad = data("hostile/log-barriers-99.log");
    assert_int_equal(OCC(NULL, "inspect", cubin, bad), EXIT_DATA);
    assert_one_error_line(bad, "99 barriers");
    /* stdin that holds nothing */
    assert_int_equal(OCC("", "inspect"), EXIT_DATA);
    assert_one_error_line("<stdin>", "is empty");
    assert_int_equal(OCC(NULL, "inspect", "--help"), EXIT_OK);
    assert_true(starts_with(last.out, "occ inspect - "));
    assert_non_null(strstr(last.out, "-arch=sm_90"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(json_jobs_test),
        cmocka_unit_test(visible_names_test),
        cmocka_unit_test(terminal_stdin_test),
        cmocka_unit_test(from_log_test),
        cmocka_unit_test(streams_test),
        cmocka_unit_test(errors_test),
        cmocka_unit_test(launch_flags_test),
        cmocka_unit_test(launches_test),
        cmocka_unit_test(apply_launches_api_test),
        cmocka_unit_test(directory_test),
        cmocka_unit_test(options_checked_test),
        cmocka_unit_test(launch_table_test),
        cmocka_unit_test(launch_table_names_test),
        cmocka_unit_test(launches_pipe_test),
    };
    int failed = cmocka_run_group_tests_name("inspect-cli", tests, NULL, NULL);
    free(last.out);
    free(last.err);
    return failed != 0 ? 1 : 0;
}
