/*
 * test_gpu_file.c - libocc-inspect's reader of GPU descriptions
 * (occ_inspect_gpu_from_json, occ_inspect_gpu_file; docs/gpu-file.md), the
 * one reader --gpu-file and occ.gpu_from_file share: what it accepts equals
 * the device built by hand, each refusal has its status and the CLI's line
 * word for word, and bad arguments are refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli_harness.h"
#include "occ_inspect.h"

static char dir[] = "/tmp/occ-gpu-file-XXXXXX";

static const char *write_file(const char *name, const char *text)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

/* Field by field: the padding of two copies may differ. */
static void assert_device_equal(const occ_device *a, const occ_device *b)
{
    assert_string_equal(a->name, b->name);
#define SAME(f) assert_int_equal(a->f, b->f)
    SAME(cc_major);
    SAME(cc_minor);
    SAME(warp_size_threads);
    SAME(max_threads_per_block);
    SAME(max_threads_per_sm);
    SAME(max_blocks_per_sm);
    SAME(regs_per_sm);
    SAME(regs_per_block);
    SAME(max_regs_per_thread);
    SAME(reg_alloc_unit);
    SAME(sub_partitions_per_sm);
    SAME(reg_fit_sub_partitions);
    SAME(smem_per_sm_bytes);
    SAME(smem_per_block_bytes);
    SAME(smem_per_block_optin_bytes);
    SAME(smem_reserved_per_block_bytes);
    SAME(smem_alloc_unit_bytes);
    SAME(carveout_step_count);
    SAME(barriers_per_block_slot);
    SAME(partitioned_gc);
    SAME(sm_count);
    SAME(sm_clock_mhz);
    SAME(mem_bandwidth_gb_per_s);
    SAME(l2_bytes);
    SAME(mem_latency_ns);
    SAME(mem_latency_source);
    SAME(gpc_count);
    SAME(gpc_source);
#undef SAME
    assert_memory_equal(a->carveout_steps_bytes, b->carveout_steps_bytes,
                        sizeof(int) * (size_t)a->carveout_step_count);
    assert_memory_equal(a->gpc_sms, b->gpc_sms, sizeof(int) * (size_t)a->gpc_count);
    assert_ptr_equal(a->mem_latency_citation, b->mem_latency_citation);
    assert_ptr_equal(a->gpc_citation, b->gpc_citation);
}

static void accepted_equals_the_device_built_by_hand(void **state)
{
    (void)state;
    const char *text = "{\"name\": \"Mine\", \"base\": \"H200\", \"sm_count\": 100, "
                       "\"regs_per_sm\": 32768, \"regs_per_block\": 32768}";
    occ_device want;
    assert_int_equal(occ_gpu_find("H200", &want, NULL), OCC_OK);
    snprintf(want.name, sizeof want.name, "Mine");
    want.sm_count = 100;
    want.regs_per_sm = 32768;
    want.regs_per_block = 32768;
    want.gpc_count = 0; /* the base's layout belongs to its SM count */
    want.gpc_source = OCC_GPC_UNKNOWN;
    want.gpc_citation = NULL;

    occ_device got;
    occ_inspect_error err;
    assert_int_equal(occ_inspect_gpu_from_json(text, strlen(text), "mine.json", &got, &err),
                     OCC_OK);
    assert_device_equal(&got, &want);
    /* from a file: the same device */
    occ_device from_file;
    assert_int_equal(occ_inspect_gpu_file(write_file("mine.json", text), &from_file, &err), OCC_OK);
    assert_device_equal(&from_file, &want);
    /* no error struct: still answered */
    assert_int_equal(occ_inspect_gpu_from_json(text, strlen(text), NULL, &got, NULL), OCC_OK);
}

typedef struct refusal {
    const char *text;
    occ_status status;
    const char *message; /* after "bad.json: " */
} refusal;

static const refusal refusals[] = {
    {"{\"name\": \"Mine\",\n \"base\": \"sm_90\",\n \"sm_count\" 100}", OCC_ERR_BAD_FORMAT,
     "line 3 column 15: ':' expected near '100'"},
    {"{\"name\":\"Mine\",\"base\":\"sm_90\",\"bogus\":1}", OCC_ERR_BAD_FORMAT,
     "field 'bogus': is unknown (see docs/gpu-file.md)"},
    {"{\"name\":\"Mine\",\"base\":\"sm_90\",\"sm_count\":\"many\"}", OCC_ERR_BAD_FORMAT,
     "field 'sm_count': must be an integer"},
    {"[1, 2, 3]", OCC_ERR_BAD_FORMAT, "must hold one JSON object describing a GPU"},
    {"{\"base\":\"sm_90\"}", OCC_ERR_BAD_FORMAT, "field 'name': is required"},
    {"", OCC_ERR_BAD_FORMAT,
     "is empty (a FIFO without a writer reads as empty); a GPU description is one JSON object "
     "(docs/gpu-file.md)"},
    {"{\"name\":\"Mine\",\"base\":\"sm_90\",\"regs_per_block\":70000}", OCC_ERR_INVALID_DEVICE,
     NULL},
    {"{\"name\":\"Mine\",\"base\":\"sm_90\",\"gpc_sms\":[1,2],\"sm_count\":4}",
     OCC_ERR_INVALID_DEVICE, NULL},
};

/* Each refusal: its status, one line starting with the name, and the very
   line `occ calc --gpu-file` prints. */
static void refusals_have_a_status_and_the_cli_line(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++) {
        const refusal *r = &refusals[i];
        const char *path = write_file("bad.json", r->text);
        occ_device d;
        occ_inspect_error err;
        assert_int_equal(occ_inspect_gpu_file(path, &d, &err), r->status);
        assert_int_equal(err.status, r->status);
        assert_null(strchr(err.message, '\n'));
        char want[600];
        if (r->message != NULL) {
            snprintf(want, sizeof want, "%s: %s", path, r->message);
            assert_string_equal(err.message, want);
        }
        occ_inspect_error from_text;
        assert_int_equal(occ_inspect_gpu_from_json(r->text, strlen(r->text), path, &d, &from_text),
                         r->status);
        assert_string_equal(from_text.message, err.message);
        assert_int_equal(OCC(NULL, "calc", "--gpu-file", path, "--threads", "256"), 1);
        snprintf(want, sizeof want, "occ calc: %s\n", err.message);
        assert_string_equal(last.err, want);
    }
}

static void files_that_cannot_be_read(void **state)
{
    (void)state;
    occ_device d;
    occ_inspect_error err;
    char path[300];
    snprintf(path, sizeof path, "%s/missing.json", dir);
    assert_int_equal(occ_inspect_gpu_file(path, &d, &err), OCC_ERR_IO);
    assert_true(strstr(err.message, ": cannot open: ") != NULL);
    assert_int_equal(occ_inspect_gpu_file(dir, &d, &err), OCC_ERR_IO);
    char want[400];
    snprintf(want, sizeof want, "%s: is a directory, not a file", dir);
    assert_string_equal(err.message, want);
    /* a FIFO without a writer opens without blocking and reads as empty */
    snprintf(path, sizeof path, "%s/fifo", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    assert_int_equal(occ_inspect_gpu_file(path, &d, &err), OCC_ERR_BAD_FORMAT);
    assert_true(strstr(err.message, "is empty") != NULL);
    unlink(path);
    /* above the limit */
    size_t big = (size_t)OCC_INSPECT_GPU_FILE_MAX_BYTES + 1;
    char *text = malloc(big + 1);
    assert_non_null(text);
    memset(text, ' ', big);
    text[big] = '\0';
    const char *large = write_file("large.json", text);
    assert_int_equal(occ_inspect_gpu_file(large, &d, &err), OCC_ERR_LIMIT);
    assert_int_equal(occ_inspect_gpu_from_json(text, big, "large.json", &d, &err), OCC_ERR_LIMIT);
    assert_string_equal(err.message, "large.json: larger than the limit of 1048576 bytes");
    free(text);
    /* a path longer than the message keeps the reason at its end */
    char deep[1200];
    int n = snprintf(deep, sizeof deep, "%s/", dir);
    for (int level = 0; level < 5; level++) { /* 5 names of 200 bytes: a name is at most 255 */
        memset(deep + n, 'd', 199);
        deep[n + 199] = '/';
        n += 200;
    }
    snprintf(deep + n - 1, sizeof deep - (size_t)n + 1, "/gpu.json");
    assert_int_equal(occ_inspect_gpu_file(deep, &d, &err), OCC_ERR_IO);
    assert_int_equal(strncmp(err.message, dir, strlen(dir)), 0);
    const char *end = "/gpu.json: cannot open: No such file or directory";
    assert_true(strlen(err.message) > strlen(end));
    assert_string_equal(err.message + strlen(err.message) - strlen(end), end);
}

static void null_arguments(void **state)
{
    (void)state;
    occ_device d;
    occ_inspect_error err;
    assert_int_equal(occ_inspect_gpu_file(NULL, &d, &err), OCC_ERR_NULL_POINTER);
    assert_int_equal(occ_inspect_gpu_file("x.json", NULL, &err), OCC_ERR_NULL_POINTER);
    assert_int_equal(occ_inspect_gpu_from_json(NULL, 3, "x", &d, &err), OCC_ERR_NULL_POINTER);
    assert_int_equal(occ_inspect_gpu_from_json("{}", 2, "x", NULL, NULL), OCC_ERR_NULL_POINTER);
    /* NULL with no bytes is an empty text */
    assert_int_equal(occ_inspect_gpu_from_json(NULL, 0, NULL, &d, &err), OCC_ERR_BAD_FORMAT);
    assert_true(strncmp(err.message, "<gpu description>: is empty", 27) == 0);
}

static int make_dir(void **state)
{
    (void)state;
    return mkdtemp(dir) == NULL ? -1 : 0;
}

static int remove_dir(void **state)
{
    (void)state;
    char path[300];
    snprintf(path, sizeof path, "%s/mine.json", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/bad.json", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/large.json", dir);
    unlink(path);
    return rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(accepted_equals_the_device_built_by_hand),
        cmocka_unit_test(refusals_have_a_status_and_the_cli_line),
        cmocka_unit_test(files_that_cannot_be_read),
        cmocka_unit_test(null_arguments),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
