/*
 * test_profile.c - libocc-profile and `occ profile`: each trace reader on
 * small traces written here (Kineto JSON plain and gzipped, the bare-array
 * form, nsys stats CSV, Nsight Systems SQLite through the writer), the
 * grouping, the device checks, every refusal naming its place, and the H200
 * traces of tests/data/profile-h200 held to sharedMemoryExecuted.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include <cmocka.h>

#include "cli_harness.h"
#include "occ_profile.h"
#include "prof_formats.h"
#include "test_data.h"

static char tmpdir[] = "/tmp/occ-profile-test-XXXXXX";

static const char *temp_path(const char *name)
{
    static char path[8][512];
    static int next;
    char *p = path[next++ % 8];
    snprintf(p, sizeof path[0], "%s/%s", tmpdir, name);
    return p;
}

static const char *write_file(const char *name, const char *text)
{
    const char *path = temp_path(name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static const char *write_gzip(const char *name, const char *text)
{
    const char *path = temp_path(name);
    gzFile f = gzopen(path, "wb");
    assert_non_null(f);
    gzputs(f, text);
    gzclose(f);
    return path;
}

/* Reads one file; returns the status, the result in *out (NULL on error). */
static occ_status read_one(const char *path, const occ_device *gpu, occ_profile_result **out,
                           occ_profile_error *err)
{
    occ_profile_input in = {path};
    occ_profile_options opts;
    occ_profile_options_init(&opts);
    opts.device = gpu;
    return occ_profile_read(&in, 1, &opts, out, err);
}

#define KINETO_HEAD                                                                                \
    "{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H200\", "        \
    "\"computeMajor\": 9, \"computeMinor\": 0, \"numSms\": 132, \"maxThreadsPerBlock\": 1024}],"   \
    "\n\"traceEvents\": [\n"
#define KERNEL(name, dur, grid, block, regs, smem, est)                                            \
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"" name "\", \"pid\": 0, \"tid\": 7, "        \
    "\"ts\": 1000.5, \"dur\": " dur ", \"args\": {\"device\": 0, \"stream\": 7, "                  \
    "\"registers per thread\": " regs ", \"shared memory\": " smem ", \"grid\": " grid             \
    ", \"block\": " block ", \"est. achieved occupancy %\": " est "}}"
#define RUNTIME                                                                                    \
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"ts\": 1, "       \
    "\"dur\": 3, \"args\": {\"correlation\": 5, \"grid\": \"not read\"}}"

static const char kineto_trace[] = KINETO_HEAD RUNTIME ",\n" KERNEL(
    "void add<float>(float*)", "10", "[1056, 1, 1]", "[256, 1, 1]", "64", "16384",
    "50") ",\n" RUNTIME
          ",\n" KERNEL("void add<float>(float*)", "30", "[1056, 1, 1]", "[256, 1, 1]", "64",
                       "16384", "50") ",\n" KERNEL("gemm", "100", "[132, 1, 1]", "[384, 1, 1]",
                                                   "168", "200000",
                                                   "0") ",\n"
                                                        "{\"ph\": \"X\", \"cat\": \"gpu_memcpy\", "
                                                        "\"name\": \"Memcpy HtoD\", \"dur\": 5}"
                                                        "\n], \"traceName\": \"t\"}\n";

/* PR-1: a Kineto trace: launches grouped by configuration, sorted by time,
   libocc's answer on the trace's GPU, Kineto's estimate explained. */
static void kineto_groups(void **state)
{
    (void)state;
    const char *path = write_file("k.json", kineto_trace);
    occ_profile_result *r;
    occ_profile_error err;
    assert_int_equal(read_one(path, NULL, &r, &err), OCC_OK);
    const occ_profile_summary *s = occ_profile_summary_of(r);
    assert_int_equal(s->launches_read, 3);
    assert_int_equal(occ_profile_group_count(r), 2);
    assert_int_equal(occ_profile_input_format(r, 0), OCC_PROFILE_FORMAT_KINETO);
    const occ_profile_group *g0 = occ_profile_group_at(r, 0);
    assert_string_equal(g0->name, "gemm"); /* 100 us before 2 x 20 us */
    const occ_profile_group *g1 = occ_profile_group_at(r, 1);
    assert_int_equal(g1->launches, 2);
    assert_true(g1->gpu_time_us == 40.0);
    assert_true(g1->computed);
    /* H200: 64 registers, 256 threads: 4 blocks, 32 of 64 warps, registers bind */
    assert_int_equal(g1->result.blocks_per_sm, 4);
    assert_true(g1->occupancy == 0.5);
    assert_int_equal(g1->limiters, OCC_LIMITER_REGISTERS);
    assert_int_equal(g1->static_smem_bytes, OCC_PROFILE_UNKNOWN);
    assert_int_equal(g1->smem_bytes, 16384);
    assert_false(g1->cluster_known);
    /* 1,056 blocks over 4 x 132: exactly 2 waves */
    assert_true(g1->waves == 2.0);
    assert_true(g1->kineto_est_occupancy == 0.5);
    assert_int_equal(g1->kineto_cause, OCC_PROFILE_KINETO_AGREES);
    /* 200,000 bytes per block: Kineto's call has no opt-in and says 0 */
    assert_int_equal(g0->kineto_cause, OCC_PROFILE_KINETO_OPTIN);
    assert_int_equal(s->kineto_checked, 3);
    assert_int_equal(s->kineto_by_cause[OCC_PROFILE_KINETO_OPTIN], 1);
    const occ_profile_device *d = occ_profile_device_at(r, 0);
    assert_string_equal(d->trace_name, "NVIDIA H200");
    assert_int_equal(d->trace_sm_count, 132);
    assert_string_equal(d->gpu.name, "H200");
    /* weighted: (0.5 x 40 + gemm's x 100) / 140 */
    double expect = (0.5 * 40 + g0->occupancy * 100) / 140;
    assert_true(s->weighted_occupancy > expect - 1e-12 && s->weighted_occupancy < expect + 1e-12);
    double hist = 0;
    for (int i = 0; i < OCC_PROFILE_HISTOGRAM_BINS; i++) {
        hist += s->histogram_us[i];
    }
    assert_true(hist == 140.0);
    size_t ranked[4];
    size_t n = occ_profile_rank(r, ranked, 4);
    assert_int_equal(n, 2);
    assert_int_equal(ranked[0], 0); /* 100 us x 0.81 before 40 us x 0.5 */
    occ_kernel k;
    assert_int_equal(occ_profile_group_kernel(r, 1, &k, NULL), OCC_OK);
    assert_int_equal(k.regs_per_thread, 64);
    assert_int_equal(k.smem_config_bytes, g1->smem_config_bytes);
    assert_int_equal(occ_profile_group_kernel(r, 9, &k, NULL), OCC_ERR_NOT_FOUND);
    occ_profile_result_free(r);
}

/* PR-2: gzip is read as it is; the bare-array form too. */
static void kineto_gzip_and_array(void **state)
{
    (void)state;
    occ_profile_result *r;
    occ_profile_error err;
    assert_int_equal(read_one(write_gzip("k.json.gz", kineto_trace), NULL, &r, &err), OCC_OK);
    assert_int_equal(occ_profile_summary_of(r)->launches_read, 3);
    occ_profile_result_free(r);
    const char *array = "[" KERNEL("k", "5", "[10, 1, 1]", "[32, 1, 1]", "16", "0", "1") "]";
    const occ_device *none = NULL;
    occ_device h200;
    assert_int_equal(occ_gpu_find("H200", &h200, NULL), OCC_OK);
    assert_int_equal(read_one(write_file("a.json", array), none, &r, &err), OCC_OK);
    assert_int_equal(occ_profile_summary_of(r)->launches_read, 1);
    /* no deviceProperties: no GPU, the group is kept but not computed */
    assert_false(occ_profile_group_at(r, 0)->computed);
    assert_non_null(occ_profile_group_at(r, 0)->note);
    occ_profile_result_free(r);
    assert_int_equal(read_one(write_file("a.json", array), &h200, &r, &err), OCC_OK);
    assert_true(occ_profile_group_at(r, 0)->computed);
    occ_profile_result_free(r);
}

/* PR-3: --gpu must agree with the trace's device. */
static void gpu_must_match_trace(void **state)
{
    (void)state;
    occ_device a100, h100;
    assert_int_equal(occ_gpu_find("A100", &a100, NULL), OCC_OK);
    assert_int_equal(occ_gpu_find("H100-PCIe", &h100, NULL), OCC_OK);
    occ_profile_result *r = NULL;
    occ_profile_error err;
    const char *path = write_file("k.json", kineto_trace);
    assert_int_equal(read_one(path, &a100, &r, &err), OCC_ERR_INVALID_DEVICE);
    assert_null(r);
    assert_non_null(strstr(err.message, "compute capability 9.0"));
    assert_non_null(strstr(err.message, "A100"));
    /* same compute capability, other SM count (114) */
    assert_int_equal(read_one(path, &h100, &r, &err), OCC_ERR_INVALID_DEVICE);
    assert_non_null(strstr(err.message, "132 SMs"));
}

/* PR-4: two devices of one trace stay apart. */
static void devices_apart(void **state)
{
    (void)state;
    const char *two =
        "{\"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H200\", \"computeMajor\": 9, "
        "\"computeMinor\": 0, \"numSms\": 132}, {\"id\": 1, \"name\": \"NVIDIA A100-SXM4-80GB\", "
        "\"computeMajor\": 8, \"computeMinor\": 0, \"numSms\": 108}], \"traceEvents\": ["
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"dur\": 1, \"args\": {\"device\": "
        "0, \"registers per thread\": 32, \"shared memory\": 0, \"grid\": [1,1,1], \"block\": "
        "[1024,1,1]}}, {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"dur\": 1, "
        "\"args\": {\"device\": 1, \"registers per thread\": 32, \"shared memory\": 0, \"grid\": "
        "[1,1,1], \"block\": [1024,1,1]}}]}";
    occ_profile_result *r;
    occ_profile_error err;
    assert_int_equal(read_one(write_file("two.json", two), NULL, &r, &err), OCC_OK);
    assert_int_equal(occ_profile_device_count(r), 2);
    assert_int_equal(occ_profile_group_count(r), 2);
    const occ_profile_group *a = occ_profile_group_at(r, 0);
    const occ_profile_group *b = occ_profile_group_at(r, 1);
    assert_int_not_equal(a->device, b->device);
    /* 1,024 threads: 2 blocks on the H200 (2,048 threads), 2 on the A100 (2,048) */
    assert_true(a->computed && b->computed);
    assert_string_equal(occ_profile_device_at(r, 1)->gpu.cc_major == 8
                            ? occ_profile_device_at(r, 1)->gpu.name
                            : occ_profile_device_at(r, 0)->gpu.name,
                        "A100 SXM 80GB");
    occ_profile_result_free(r);
}

typedef struct refusal {
    const char *id;
    const char *text;
    occ_status status;
    const char *says; /* a piece of the one line */
} refusal;

/* PR-5: every refusal names its place and what is wrong. */
static void kineto_refusals(void **state)
{
    (void)state;
    static const refusal cases[] = {
        {"PR-5.1",
         "{\"traceEvents\": [" KERNEL("k", "1", "[1, 1]", "[32, 1, 1]", "16", "0", "1") "]}",
         OCC_ERR_BAD_FORMAT, "\"grid\" has 2 values"},
        {"PR-5.2",
         "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", "
         "\"dur\": 1, \"args\": {\"grid\": [1,1,1], \"block\": [1,1,1]}}]}",
         OCC_ERR_BAD_FORMAT, "no \"registers per thread\""},
        {"PR-5.3",
         "{\"traceEvents\": [" KERNEL("k", "1", "[1, 1, 1]", "[2048, 1, 1]", "16", "0", "1") "]}",
         OCC_ERR_BAD_FORMAT, "block x 2048 is outside 1..1024"},
        {"PR-5.4",
         "{\"traceEvents\": [" KERNEL("k", "-5", "[1, 1, 1]", "[32, 1, 1]", "16", "0", "1") "]}",
         OCC_ERR_BAD_FORMAT, "duration -5"},
        {"PR-5.5",
         "{\"traceEvents\": [" KERNEL("k", "1", "[1, 1, 1]", "[32, 1, 1]", "300", "0", "1") "]}",
         OCC_ERR_BAD_FORMAT, "300 registers per thread"},
        {"PR-5.6",
         "{\"traceEvents\": [" KERNEL("k", "1", "[1, \"x\", 1]", "[32, 1, 1]", "16", "0", "1") "]}",
         OCC_ERR_BAD_FORMAT, "holds a string"},
        {"PR-5.7",
         "{\"traceEvents\": [" KERNEL("k", "1", "[1, 1, 1]", "[32, 1, 1]", "16", "-4", "1") "]}",
         OCC_ERR_BAD_FORMAT, "shared memory"},
        {"PR-5.8",
         "{\"traceEvents\": [" KERNEL("k", "1", "[1, 1, 1]", "[32, 1, 1]", "16", "0", "250") "]}",
         OCC_ERR_BAD_FORMAT, "est. achieved occupancy"},
        {"PR-5.9", "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\",", OCC_ERR_BAD_FORMAT,
         "not valid JSON"},
        {"PR-5.10", "{\"traceEvents\": [}", OCC_ERR_BAD_FORMAT, "not valid JSON"},
        {"PR-5.11",
         "{\"schemaVersion\": 1, \"traceEvents\": [" KERNEL("k", "1", "[1, 1, 1]", "[32, 1, 1]",
                                                            "1.5", "0", "1") "]}",
         OCC_ERR_BAD_FORMAT, "registers per thread 1.5"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        occ_profile_result *r = NULL;
        occ_profile_error err;
        occ_status st = read_one(write_file("bad.json", cases[i].text), NULL, &r, &err);
        if (st != cases[i].status || !strstr(err.message, cases[i].says)) {
            fail_msg("%s: status %d, message '%s'", cases[i].id, st, err.message);
        }
        assert_null(r);
        assert_non_null(strstr(err.message, "bad.json: "));
    }
}

/* PR-6: nesting deeper than any trace, and a file that is no trace. */
static void kineto_depth_and_unknown(void **state)
{
    (void)state;
    char deep[300] = "{\"traceEvents\": ";
    for (int i = 0; i < 100; i++) {
        strcat(deep, "[");
    }
    occ_profile_result *r = NULL;
    occ_profile_error err;
    assert_int_equal(read_one(write_file("deep.json", deep), NULL, &r, &err), OCC_ERR_BAD_FORMAT);
    assert_non_null(strstr(err.message, "nested deeper than 64"));
    assert_int_equal(read_one(write_file("x.txt", "hello\n"), NULL, &r, &err), OCC_ERR_BAD_FORMAT);
    assert_non_null(strstr(err.message, "not a PyTorch profiler trace"));
    assert_int_equal(read_one(temp_path("missing.json"), NULL, &r, &err), OCC_ERR_IO);
    occ_profile_format f;
    assert_int_equal(occ_profile_detect(write_file("x.txt", "hello\n"), &f, &err), OCC_OK);
    assert_int_equal(f, OCC_PROFILE_FORMAT_UNKNOWN);
}

static const char nsys_csv[] =
    "Start (ns),Duration (ns),CorrId,GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,Reg/Trd,StcSMem (MB),"
    "DymSMem (MB),Bytes (MB),Throughput (MBps),SrcMemKd,DstMemKd,Device,Ctx,GreenCtx,Strm,Name\n"
    "100,2000,5,1056,1,1,256,1,1,64,0.016384,0.000,,,,,NVIDIA H200 (0),1,,7,\"void add<float, "
    "2>(float*)\"\n"
    "200,500,6,,,,,,,,,,4.194,8000,Pageable,Device,NVIDIA H200 (0),1,,7,[CUDA memcpy HtoD]\n"
    "300,1000,7,1056,1,1,256,1,1,64,0.016384,0.000,,,,,NVIDIA H200 (0),1,,7,\"void add<float, "
    "2>(float*)\"\n";

/* PR-7: nsys stats CSV: kernels read, copies passed over, MB to bytes. */
static void nsys_csv_read(void **state)
{
    (void)state;
    occ_profile_result *r;
    occ_profile_error err;
    assert_int_equal(read_one(write_file("gpu_trace.csv", nsys_csv), NULL, &r, &err), OCC_OK);
    assert_int_equal(occ_profile_input_format(r, 0), OCC_PROFILE_FORMAT_NSYS_CSV);
    assert_int_equal(occ_profile_summary_of(r)->launches_read, 2);
    const occ_profile_group *g = occ_profile_group_at(r, 0);
    assert_string_equal(g->name, "void add<float, 2>(float*)");
    assert_int_equal(g->static_smem_bytes, 16384);
    assert_int_equal(g->launches, 2);
    assert_true(g->gpu_time_us == 3.0);
    assert_true(g->computed); /* the name "NVIDIA H200" finds the H200 */
    assert_true(g->occupancy == 0.5);
    occ_profile_result_free(r);
    char bad[sizeof nsys_csv + 16];
    snprintf(bad, sizeof bad, "%s", nsys_csv);
    char *reg = strstr(bad, ",64,0.016384");
    memcpy(reg, ",6x", 3);
    assert_int_equal(read_one(write_file("bad.csv", bad), NULL, &r, &err), OCC_ERR_BAD_FORMAT);
    assert_non_null(strstr(err.message, "line 2: Reg/Trd '6x'"));
}

static const char records[] =
    "# occ-trace 1\n"
    "D\t0\tNVIDIA H200\t132\t9\t0\n"
    "K\t0\t1\t7\t1\t1000\t3000\t2\t66\t1\t384\t1\t1\t168\t0\t213188\t0\t233472\t1\t-1\t2\t1\t1\t1"
    "\t0\t0\t16\tnvjet_sm90_tst_256x128\n"
    "K\t0\t1\t7\t2\t4000\t5000\t1056\t1\t1\t256\t1\t1\t64\t16384\t0\t0\t233472\t0\t-1\t0\t0\t0\t0"
    "\t0\t0\t0\t_Z3addPf\n"
    "K\t0\t1\t7\t3\t6000\t6500\t1\t1\t1\t128\t1\t1\t16\t0\t61440\t0\t233472\t0\t100\t0\t0\t0\t0\t0"
    "\t0\t0\t_Z4convPf\n"
    "E\t3\t0\n";

/* PR-8: CUPTI records to Nsight Systems' SQLite schema and back: clusters,
   sharedMemoryExecuted, the carveout preference, mangled names. */
static void sqlite_round_trip(void **state)
{
    (void)state;
    const char *db = temp_path("t.sqlite");
    long long n = 0;
    occ_profile_error err;
    assert_int_equal(occ_profile_convert_cupti(write_file("r.tsv", records), db, &n, &err), OCC_OK);
    assert_int_equal(n, 3);
    occ_profile_result *r;
    assert_int_equal(read_one(db, NULL, &r, &err), OCC_OK);
    assert_int_equal(occ_profile_input_format(r, 0), OCC_PROFILE_FORMAT_NSYS_SQLITE);
    const occ_profile_summary *s = occ_profile_summary_of(r);
    assert_int_equal(s->launches_read, 3);
    assert_int_equal(s->smem_config_checked, 3);
    /* 16 KB on 256 x 64-register blocks: 4 blocks, 64 KB + 4 KB reserved: the
       driver picked 228 KB here on purpose, so libocc's smaller pick differs */
    assert_int_equal(s->smem_config_differs, 1);
    for (size_t i = 0; i < occ_profile_group_count(r); i++) {
        const occ_profile_group *g = occ_profile_group_at(r, i);
        assert_true(g->cluster_known);
        if (strcmp(g->name, "nvjet_sm90_tst_256x128") == 0) {
            assert_null(g->mangled); /* not a C++ name */
            assert_int_equal(g->cluster[0], 2);
            assert_int_equal(g->max_active_clusters, 66);
            assert_int_equal(g->smem_config_bytes, 233472);
            assert_int_equal(g->trace_smem_config_differs, 0);
        } else if (strcmp(g->name, "conv(float*)") == 0) {
            /* demangled by the writer, the mangled name kept beside it */
            assert_string_equal(g->mangled, "_Z4convPf");
            /* a 100% carveout preference: the largest configuration */
            assert_int_equal(g->carveout_percent, 100);
            assert_int_equal(g->smem_config_bytes, 233472);
            assert_int_equal(g->trace_smem_config_differs, 0);
        } else {
            assert_string_equal(g->name, "add(float*)");
            assert_int_equal(g->trace_smem_config_differs, 1);
            assert_int_equal(g->trace_smem_config_bytes, 233472);
        }
    }
    occ_profile_result_free(r);
}

/* PR-9: records cut short, or not the recorder's, leave no database. */
static void records_refused(void **state)
{
    (void)state;
    static const refusal cases[] = {
        {"PR-9.1", "# occ-trace 1\nD\t0\tNVIDIA H200\t132\t9\t0\n", OCC_ERR_BAD_FORMAT,
         "no end record"},
        {"PR-9.2", "hello\n", OCC_ERR_BAD_FORMAT, "not occ's CUPTI records"},
        {"PR-9.3", "# occ-trace 1\nK\t0\t1\n", OCC_ERR_BAD_FORMAT, "line 2: not a D, K or E"},
        {"PR-9.4",
         "# occ-trace 1\nK\t0\t1\t7\t1\t9000\t3000\t1\t1\t1\t32\t1\t1\t16\t0\t0\t0\t8192\t0\t-1\t"
         "0\t0\t0\t0\t0\t0\t0\tk\nE\t1\t0\n",
         OCC_ERR_BAD_FORMAT, "ends before it starts"},
        {"PR-9.5",
         "# occ-trace 1\nK\t0\t1\t7\t1\t1000\t3000\t1\t1\t1\t32\t1\t1\t16\t0\t0\t0\t8192\t0\t150\t"
         "0\t0\t0\t0\t0\t0\t0\tk\nE\t1\t0\n",
         OCC_ERR_BAD_FORMAT, "'150' is not a whole number in -1..100"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *db = temp_path("cut.sqlite");
        occ_profile_error err;
        occ_status st =
            occ_profile_convert_cupti(write_file("cut.tsv", cases[i].text), db, NULL, &err);
        if (st != cases[i].status || !strstr(err.message, cases[i].says)) {
            fail_msg("%s: status %d, message '%s'", cases[i].id, st, err.message);
        }
        assert_int_equal(access(db, F_OK), -1);
    }
}

/* PR-10: SQLite databases that are not what occ needs. */
static void sqlite_refusals(void **state)
{
    (void)state;
    const char *db = temp_path("t.sqlite");
    occ_profile_error err;
    assert_int_equal(occ_profile_convert_cupti(write_file("r.tsv", records), db, NULL, &err),
                     OCC_OK);
    /* a copy without registersPerThread: refused naming the column */
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "sqlite3 %s 'ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL DROP COLUMN registersPerThread' "
             "2>/dev/null",
             db);
    occ_profile_result *r = NULL;
    if (system(cmd) == 0) {
        assert_int_equal(read_one(db, NULL, &r, &err), OCC_ERR_BAD_FORMAT);
        assert_non_null(strstr(err.message, "no column registersPerThread"));
    }
    snprintf(cmd, sizeof cmd, "sqlite3 %s 'CREATE TABLE t (x)' 2>/dev/null",
             temp_path("other.sqlite"));
    if (system(cmd) == 0) {
        assert_int_equal(read_one(temp_path("other.sqlite"), NULL, &r, &err), OCC_ERR_BAD_FORMAT);
        assert_non_null(strstr(err.message, "not an Nsight Systems export"));
    }
}

/* PR-11: the H200 traces: every recorded launch read, and libocc's
   launch-time configuration equals sharedMemoryExecuted on every one
   (docs/results/profile-h200). */
static void h200_traces(void **state)
{
    (void)state;
    static const char *const workloads[] = {"gemm", "attn", "conv", "reduce", "train"};
    static const long long launches[] = {72, 144, 583, 129, 1466};
    for (size_t i = 0; i < sizeof workloads / sizeof workloads[0]; i++) {
        char rel[64];
        snprintf(rel, sizeof rel, "profile-h200/cupti-%s.tsv.gz", workloads[i]);
        fclose(test_data_open(rel, "rb"));
        const char *db = temp_path("h200.sqlite");
        long long n;
        occ_profile_error err;
        assert_int_equal(occ_profile_convert_cupti(test_data_path(rel), db, &n, &err), OCC_OK);
        assert_int_equal(n, launches[i]);
        occ_profile_result *r;
        assert_int_equal(read_one(db, NULL, &r, &err), OCC_OK);
        const occ_profile_summary *s = occ_profile_summary_of(r);
        assert_int_equal(s->launches_read, launches[i]);
        assert_int_equal(s->launches_computed, launches[i]);
        assert_int_equal(s->smem_config_checked, launches[i]);
        assert_int_equal(s->smem_config_differs, 0);
        occ_profile_result_free(r);
        snprintf(rel, sizeof rel, "profile-h200/kineto-%s.json.gz", workloads[i]);
        fclose(test_data_open(rel, "rb"));
        assert_int_equal(read_one(test_data_path(rel), NULL, &r, &err), OCC_OK);
        s = occ_profile_summary_of(r);
        assert_true(s->kineto_checked > 0);
        assert_int_equal(s->kineto_by_cause[OCC_PROFILE_KINETO_UNEXPLAINED], 0);
        occ_profile_result_free(r);
    }
}

/* PR-13: kernel events read without yajl give what yajl gives: the same
   groups, launches, times and estimates on every H200 Kineto trace, and
   events of another shape (escapes, strings for numbers) go to yajl. */
static void fast_path_equals_yajl(void **state)
{
    (void)state;
    static const char *const traces[] = {"gemm", "attn", "conv", "reduce", "train", "sweep"};
    for (size_t t = 0; t < sizeof traces / sizeof traces[0]; t++) {
        char rel[64];
        snprintf(rel, sizeof rel, "profile-h200/kineto-%s.json.gz", traces[t]);
        fclose(test_data_open(rel, "rb"));
        occ_profile_result *fast, *slow;
        occ_profile_error err;
        prof_kineto_fast_path = true;
        assert_int_equal(read_one(test_data_path(rel), NULL, &fast, &err), OCC_OK);
        prof_kineto_fast_path = false;
        assert_int_equal(read_one(test_data_path(rel), NULL, &slow, &err), OCC_OK);
        prof_kineto_fast_path = true;
        assert_int_equal(occ_profile_group_count(fast), occ_profile_group_count(slow));
        for (size_t i = 0; i < occ_profile_group_count(fast); i++) {
            const occ_profile_group *a = occ_profile_group_at(fast, i);
            const occ_profile_group *b = occ_profile_group_at(slow, i);
            assert_string_equal(a->name, b->name);
            assert_int_equal(a->launches, b->launches);
            assert_true(a->gpu_time_us == b->gpu_time_us);
            assert_true(a->kineto_est_occupancy == b->kineto_est_occupancy);
            assert_memory_equal(a->grid, b->grid, sizeof a->grid);
            assert_memory_equal(a->block, b->block, sizeof a->block);
            assert_int_equal(a->regs_per_thread, b->regs_per_thread);
            assert_int_equal(a->smem_bytes, b->smem_bytes);
        }
        occ_profile_result_free(fast);
        occ_profile_result_free(slow);
    }
    /* an escape in the name and a string where a number belongs: yajl reads
       the first, and both paths refuse the second alike */
    const char *odd = "{\"traceEvents\": [" KERNEL("a\\\"b", "5", "[10, 1, 1]", "[32, 1, 1]", "16",
                                                   "0", "1") "]}";
    occ_profile_result *r;
    occ_profile_error err;
    assert_int_equal(read_one(write_file("odd.json", odd), NULL, &r, &err), OCC_OK);
    assert_string_equal(occ_profile_group_at(r, 0)->name, "a\"b");
    occ_profile_result_free(r);
    const char *bad =
        "{\"traceEvents\": [" KERNEL("k", "\"5\"", "[10, 1, 1]", "[32, 1, 1]", "16", "0", "1") "]}";
    for (int fast_path = 0; fast_path < 2; fast_path++) {
        prof_kineto_fast_path = fast_path;
        assert_int_equal(read_one(write_file("bad.json", bad), NULL, &r, &err), OCC_ERR_BAD_FORMAT);
        assert_non_null(strstr(err.message, "has no \"dur\""));
    }
    prof_kineto_fast_path = true;
}

/* PR-14: the scan's 64-byte blocks find the end of every event wherever its
   escapes, quotes and brackets fall against the blocks' edges, with AVX2
   and with SSE2 alone: an event full of them, its contents shifted by 0 to
   129 bytes, hides nothing and invents nothing, and a broken one is
   refused alike. */
static void block_scan_offsets(void **state)
{
    (void)state;
    static const char tricky[] =
        "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"a\\\\\\\\\\\"}]\\\"[{\", \"args\": "
        "{\"s\": \"\\\\\\\\\", \"t\": \"\\\"cat\\\": \\\"kernel\\\"\", \"u\": [[], {}], \"v\": "
        "\"}}}]]]\\\\\"}}";
    static char trace[4096], broken[4096];
    for (int pad = 0; pad < 130; pad++) {
        /* blocks start at the event's '{': the spaces after it shift the rest */
        snprintf(trace, sizeof trace, "%s{%*s%s,\n%s,\n%s]}", KINETO_HEAD, pad, "", tricky + 1,
                 tricky, KERNEL("k", "5", "[10, 1, 1]", "[32, 1, 1]", "16", "0", "1"));
        /* the first event loses its last '}', so it swallows the rest */
        snprintf(broken, sizeof broken, "%s{%*s%.*s,\n%s]}", KINETO_HEAD, pad, "",
                 (int)sizeof tricky - 3, tricky + 1,
                 KERNEL("k", "5", "[10, 1, 1]", "[32, 1, 1]", "16", "0", "1"));
        char message[2][OCC_PROFILE_ERROR_MESSAGE_BYTES];
        for (int avx2 = 0; avx2 < 2; avx2++) {
            prof_kineto_avx2 = avx2;
            occ_profile_result *r;
            occ_profile_error err;
            assert_int_equal(read_one(write_file("blocks.json", trace), NULL, &r, &err), OCC_OK);
            assert_int_equal(occ_profile_group_count(r), 1);
            assert_string_equal(occ_profile_group_at(r, 0)->name, "k");
            assert_int_equal(occ_profile_group_at(r, 0)->launches, 1);
            occ_profile_result_free(r);
            assert_int_equal(read_one(write_file("broken.json", broken), NULL, &r, &err),
                             OCC_ERR_BAD_FORMAT);
            snprintf(message[avx2], sizeof message[avx2], "%s", err.message);
        }
        assert_string_equal(message[0], message[1]);
        assert_non_null(strstr(message[0], "not valid JSON"));
    }
    prof_kineto_avx2 = true;
}

/* PR-15: "dur" read without strtod is strtod's double, digit for digit,
   for short decimals (read directly) and long ones (left to strtod). */
static void dur_as_strtod(void **state)
{
    (void)state;
    static const char *const durs[] = {"0.1",
                                       "1.005",
                                       "123456.789012345",
                                       "99999999.9999999",
                                       "0.000000000000001",
                                       "7",
                                       "0.3",
                                       "123456.7890123456",
                                       "1.5e3",
                                       "0.30000000000000004",
                                       "4503.5999",
                                       "1E2",
                                       "999999999999",
                                       "12.000",
                                       "0.000000000000000001"};
    size_t n = sizeof durs / sizeof durs[0];
    static char trace[8192];
    size_t used = (size_t)snprintf(trace, sizeof trace, "%s", KINETO_HEAD);
    for (size_t i = 0; i < n; i++) {
        used += (size_t)snprintf(
            trace + used, sizeof trace - used,
            "%s{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k%zu\", \"dur\": %s, \"args\": "
            "{\"registers per thread\": 16, \"shared memory\": 0, \"grid\": [1, 1, 1], "
            "\"block\": [32, 1, 1]}}",
            i ? ",\n" : "", i, durs[i]);
    }
    snprintf(trace + used, sizeof trace - used, "]}");
    occ_profile_result *r;
    occ_profile_error err;
    occ_status st = read_one(write_file("durs.json", trace), NULL, &r, &err);
    if (st != OCC_OK) {
        fail_msg("%s", err.message);
    }
    assert_int_equal(occ_profile_group_count(r), n);
    for (size_t g = 0; g < n; g++) {
        const occ_profile_group *group = occ_profile_group_at(r, g);
        size_t i = strtoul(group->name + 1, NULL, 10);
        assert_true(group->gpu_time_us == strtod(durs[i], NULL));
    }
    occ_profile_result_free(r);
}

/* PR-16: a "cat" key or "kernel" value spelt with \u escapes is still a
   kernel (JSON says "c\u0061t" is "cat"); a \u escape elsewhere costs
   nothing but a parse. */
static void kineto_unicode_escapes(void **state)
{
    (void)state;
    const char *trace =
        KINETO_HEAD "{\"ph\": \"X\", \"c\\u0061t\": \"kernel\", \"name\": \"k1\", \"dur\": 5, "
                    "\"args\": {\"registers per thread\": 16, \"shared memory\": 0, \"grid\": "
                    "[1, 1, 1], \"block\": [32, 1, 1]}},\n"
                    "{\"ph\": \"X\", \"cat\": \"\\u006bernel\", \"name\": \"k2\", \"dur\": 5, "
                    "\"args\": {\"registers per thread\": 16, \"shared memory\": 0, \"grid\": "
                    "[1, 1, 1], \"block\": [32, 1, 1]}},\n"
                    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"caf\\u00e9\", \"dur\": 5}]}";
    for (int avx2 = 0; avx2 < 2; avx2++) {
        prof_kineto_avx2 = avx2;
        occ_profile_result *r;
        occ_profile_error err;
        assert_int_equal(read_one(write_file("escapes.json", trace), NULL, &r, &err), OCC_OK);
        assert_int_equal(occ_profile_group_count(r), 2);
        occ_profile_result_free(r);
    }
    prof_kineto_avx2 = true;
}

/* PR-17: a database in WAL mode is read without a -wal or -shm file made
   beside it (opened immutable where no -wal file is there). */
static void sqlite_wal_leaves_nothing(void **state)
{
    (void)state;
    const char *rel = "hostile/profile/sqlite-wal-mode.sqlite";
    FILE *in = test_data_open(rel, "rb");
    const char *copy = temp_path("wal-mode.sqlite");
    FILE *out = fopen(copy, "wb");
    assert_non_null(out);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0) {
        assert_int_equal(fwrite(buf, 1, n, out), n);
    }
    fclose(in);
    fclose(out);
    occ_profile_result *r;
    occ_profile_error err;
    assert_int_equal(read_one(copy, NULL, &r, &err), OCC_OK);
    assert_int_equal(occ_profile_summary_of(r)->launches_read, 2);
    occ_profile_result_free(r);
    char side[600];
    snprintf(side, sizeof side, "%s-wal", copy);
    assert_int_not_equal(access(side, F_OK), 0);
    snprintf(side, sizeof side, "%s-shm", copy);
    assert_int_not_equal(access(side, F_OK), 0);
    /* the path goes into a URI: characters a URI gives a meaning to */
    const char *odd = temp_path("a b?c%d#e&immutable=0.sqlite");
    assert_int_equal(rename(copy, odd), 0);
    assert_int_equal(read_one(odd, NULL, &r, &err), OCC_OK);
    assert_int_equal(occ_profile_summary_of(r)->launches_read, 2);
    occ_profile_result_free(r);
}

/* PR-12: the command: help, usage errors (exit 2), data errors (exit 1),
   text, JSON, CSV and SVG. */
static void cli(void **state)
{
    (void)state;
    assert_int_equal(OCC(NULL, "profile", "--help"), 0);
    assert_non_null(strstr(last.out, "occ profile [options] FILE..."));
    assert_int_equal(OCC(NULL, "profile"), 2);
    assert_int_equal(OCC(NULL, "profile", "--json", "--csv", "x"), 2);
    assert_int_equal(OCC(NULL, "profile", "--top", "0", "x"), 2);
    const char *path = write_file("k.json", kineto_trace);
    assert_int_equal(OCC(NULL, "profile", temp_path("none.json")), 1);
    assert_int_equal(line_count(last.err), 1);
    assert_int_equal(OCC(NULL, "profile", "--gpu", "A100", path), 1);
    assert_non_null(strstr(last.err, "is not --gpu A100"));
    assert_int_equal(OCC(NULL, "profile", path), 0);
    assert_non_null(strstr(last.out, "3 kernel launches in 2 launch configurations"));
    assert_non_null(strstr(last.out, "GPU time by theoretical occupancy"));
    assert_non_null(strstr(last.out, "Kineto's est. achieved occupancy: 3 launches"));
    assert_int_equal(OCC(NULL, "profile", "--json", path), 0);
    assert_non_null(strstr(last.out, "{\"schema\":\"occ.profile\",\"version\":1"));
    assert_non_null(strstr(last.out, "\"launches_read\":3"));
    assert_non_null(strstr(last.out, "\"kineto_cause\":\"optin\""));
    assert_int_equal(OCC(NULL, "profile", "--csv", path), 0);
    assert_int_equal(line_count(last.out), 3);
    assert_true(starts_with(last.out, "gpu,name,block_x"));
    const char *svg = temp_path("h.svg");
    assert_int_equal(OCC(NULL, "profile", "--svg", svg, path), 0);
    FILE *f = fopen(svg, "r");
    assert_non_null(f);
    char head[64] = "";
    assert_non_null(fgets(head, sizeof head, f));
    fclose(f);
    assert_non_null(strstr(head, "<svg") ? head : strstr(head, "<?xml"));
}

static int setup(void **state)
{
    (void)state;
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kineto_groups),
        cmocka_unit_test(kineto_gzip_and_array),
        cmocka_unit_test(gpu_must_match_trace),
        cmocka_unit_test(devices_apart),
        cmocka_unit_test(kineto_refusals),
        cmocka_unit_test(kineto_depth_and_unknown),
        cmocka_unit_test(nsys_csv_read),
        cmocka_unit_test(sqlite_round_trip),
        cmocka_unit_test(records_refused),
        cmocka_unit_test(sqlite_refusals),
        cmocka_unit_test(h200_traces),
        cmocka_unit_test(cli),
        cmocka_unit_test(fast_path_equals_yajl),
        cmocka_unit_test(block_scan_offsets),
        cmocka_unit_test(dur_as_strtod),
        cmocka_unit_test(kineto_unicode_escapes),
        cmocka_unit_test(sqlite_wal_leaves_nothing),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
