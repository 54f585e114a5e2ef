/*
 * test_inspect_documents.c - the documents libocc-inspect writes, called from C
 * (include/occ_inspect.h): baselines (occ_inspect_baseline_save and _write) and the
 * occ.inspect document (occ_inspect_json_write).
 *
 *   documents-1  a baseline of the two ptxas logs of tests/data/diff/ and of a hand-written
 *                baseline with odd dimensions reads back to the same functions, field by
 *                field; written to a FILE it is the saved file byte for byte, under the
 *                version the reader takes (INSP_BASELINE_VERSION)
 *   documents-2  refusals: a result with launches applied, a file that cannot be created,
 *                NULL arguments, and no temporary file left behind
 *   documents-3  occ.inspect is JSON of every kernel, each object's resources those of the
 *                kernel and of its baseline object (one renderer) but for the dimensions,
 *                which each document spells its own way; the same at 1 and 4 threads
 *   documents-4  functions of one name and arch that differ only in req_threads' y or z, or
 *                in being read from a log, stay rows of their own (the duplicate merge
 *                compares every field a row carries); truly equal ones merge, counted
 *   documents-5  a damaged function whose name holds a newline is refused in one line, the
 *                newline shown as \x0a
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "formats.h"
#include "occ_inspect.h"
#include "test_data.h"

/* A baseline whose dimensions each document spells differently: max_threads [128, 0, 0]
   (a launch reads [128, 1, 1]) and req_threads [0, 2, 0] (no launch bound: null). */
static const char odd_dims[] =
    "{\"schema\":\"occ.baseline\",\"version\":1,\"functions\":[\n"
    "{\"mangled\":\"_Z3oddv\",\"arch\":\"sm_90a\",\"kind\":\"kernel\",\"regs\":40,"
    "\"smem_bytes\":512,\"stack_bytes\":8,\"max_threads\":[128,0,0],\"req_threads\":[0,2,0],"
    "\"count\":3,\"barriers\":null,\"max_regs\":64},\n"
    "{\"mangled\":\"_Z6helperv\",\"arch\":\"sm_80\",\"kind\":\"function\",\"regs\":12,"
    "\"smem_bytes\":0,\"stack_bytes\":0,\"relocatable\":true}]}\n";

/* One kernel five times: [0], [1] and [4] differ only in req_threads' y or z or from_log; [2]
   equals [0] and merges into it. */
static const char near_duplicates[] =
    "{\"schema\":\"occ.baseline\",\"version\":1,\"functions\":[\n"
    "{\"mangled\":\"_Z4nearv\",\"arch\":\"sm_90\",\"kind\":\"kernel\",\"regs\":32,"
    "\"smem_bytes\":0,\"stack_bytes\":0,\"req_threads\":[64,2,1]},\n"
    "{\"mangled\":\"_Z4nearv\",\"arch\":\"sm_90\",\"kind\":\"kernel\",\"regs\":32,"
    "\"smem_bytes\":0,\"stack_bytes\":0,\"req_threads\":[64,4,1]},\n"
    "{\"mangled\":\"_Z4nearv\",\"arch\":\"sm_90\",\"kind\":\"kernel\",\"regs\":32,"
    "\"smem_bytes\":0,\"stack_bytes\":0,\"req_threads\":[64,2,1]},\n"
    "{\"mangled\":\"_Z4nearv\",\"arch\":\"sm_90\",\"kind\":\"kernel\",\"regs\":32,"
    "\"smem_bytes\":0,\"stack_bytes\":0,\"req_threads\":[64,2,2]},\n"
    "{\"mangled\":\"_Z4nearv\",\"arch\":\"sm_90\",\"kind\":\"kernel\",\"regs\":32,"
    "\"smem_bytes\":0,\"stack_bytes\":0,\"req_threads\":[64,2,1],\"from_log\":true}]}\n";

static occ_inspect_result *read_inputs(const occ_inspect_input *in, int count,
                                       const occ_inspect_options *o)
{
    occ_inspect_result *r = NULL;
    occ_inspect_error err;
    if (occ_inspect_read(in, count, o, &r, &err) != OCC_OK) {
        fail_msg("%s", err.message);
    }
    return r;
}

static occ_inspect_options functions_options(void)
{
    occ_inspect_options o;
    occ_inspect_options_init(&o);
    o.functions = true;
    return o;
}

static char *file_text(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fail_msg("%s: cannot open", path);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *text = malloc((size_t)n + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
    text[n] = '\0';
    fclose(f);
    *size = (size_t)n;
    return text;
}

static bool same_dims(const int a[3], const int b[3])
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

static void assert_same_kernel(const occ_inspect_kernel *a, const occ_inspect_kernel *b)
{
    if (strcmp(a->mangled, b->mangled) != 0 || a->sm != b->sm || a->arch_suffix != b->arch_suffix ||
        a->is_kernel != b->is_kernel || a->relocatable != b->relocatable ||
        a->from_log != b->from_log || a->regs != b->regs || a->smem_bytes != b->smem_bytes ||
        a->smem_section_bytes != b->smem_section_bytes || a->stack_bytes != b->stack_bytes ||
        a->frame_bytes != b->frame_bytes || a->spill_store_bytes != b->spill_store_bytes ||
        a->spill_load_bytes != b->spill_load_bytes ||
        a->spill_instructions != b->spill_instructions || a->barriers != b->barriers ||
        !same_dims(a->max_threads, b->max_threads) || !same_dims(a->req_threads, b->req_threads) ||
        a->max_regs != b->max_regs || !same_dims(a->cluster_dims, b->cluster_dims) ||
        a->explicit_cluster != b->explicit_cluster || a->max_cluster_rank != b->max_cluster_rank ||
        a->param_bytes != b->param_bytes || a->count != b->count || a->occupancy != b->occupancy ||
        a->blocks_per_sm != b->blocks_per_sm) {
        fail_msg("%s (%d regs, count %d) read back as %s (%d regs, count %d)", a->mangled, a->regs,
                 a->count, b->mangled, b->regs, b->count);
    }
}

/* Saves r, reads the baseline back and compares; returns the saved text. */
static char *round_trip(occ_inspect_result *r, const char *path, size_t *size)
{
    occ_inspect_options o = functions_options();
    occ_inspect_error err;
    if (occ_inspect_baseline_save(r, &o, NULL, path, &err) != OCC_OK) {
        fail_msg("%s", err.message);
    }
    occ_inspect_input in = {path, NULL, 0};
    occ_inspect_result *back = read_inputs(&in, 1, &o);
    assert_int_equal(occ_inspect_input_format(back, 0), OCC_INSPECT_FORMAT_BASELINE);
    assert_int_equal(occ_inspect_sort(back, OCC_INSPECT_BY_NAME, &err), OCC_OK);
    size_t count = occ_inspect_kernel_count(r);
    assert_true(count > 0);
    assert_int_equal(occ_inspect_kernel_count(back), count);
    for (size_t i = 0; i < count; i++) {
        assert_same_kernel(occ_inspect_kernel_at(r, i), occ_inspect_kernel_at(back, i));
    }
    occ_inspect_result_free(back);
    char *text = file_text(path, size);
    /* the same document to a FILE */
    char *written = NULL;
    size_t written_size = 0;
    FILE *out = open_memstream(&written, &written_size);
    assert_non_null(out);
    assert_int_equal(occ_inspect_baseline_write(r, &o, NULL, out, &err), OCC_OK);
    fclose(out);
    assert_int_equal(written_size, *size);
    assert_memory_equal(written, text, *size);
    free(written);
    return text;
}

static void test_baseline_round_trip(void **state)
{
    (void)state;
    char path[] = "/tmp/occ-test-documents-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    occ_inspect_options o = functions_options();
    char old_log[1024], new_log[1024];
    snprintf(old_log, sizeof old_log, "%s", test_data_path("diff/old.log"));
    snprintf(new_log, sizeof new_log, "%s", test_data_path("diff/new.log"));
    occ_inspect_input logs[] = {{old_log, NULL, 0}, {new_log, NULL, 0}};
    occ_inspect_result *r = read_inputs(logs, 2, &o);
    size_t size;
    char *text = round_trip(r, path, &size);
    char head[64];
    snprintf(head, sizeof head, "{\"schema\":\"occ.baseline\",\"version\":%d,",
             INSP_BASELINE_VERSION);
    assert_true(strncmp(text, head, strlen(head)) == 0);
    free(text);
    occ_inspect_result_free(r);
    occ_inspect_input odd = {"odd.json", odd_dims, sizeof odd_dims - 1};
    r = read_inputs(&odd, 1, &o);
    text = round_trip(r, path, &size);
    /* the binary's own numbers: a 0 stays 0 */
    assert_non_null(strstr(text, "\"max_threads\":[128,0,0],\"req_threads\":[0,2,0]"));
    free(text);
    occ_inspect_result_free(r);
    unlink(path);
}

static void test_baseline_refusals(void **state)
{
    (void)state;
    occ_inspect_options o = functions_options();
    occ_inspect_input odd = {"odd.json", odd_dims, sizeof odd_dims - 1};
    occ_inspect_result *r = read_inputs(&odd, 1, &o);
    occ_inspect_error err;
    assert_int_equal(occ_inspect_baseline_save(r, &o, NULL, "/nonexistent-dir/b.json", &err),
                     OCC_ERR_IO);
    assert_string_equal(err.message,
                        "/nonexistent-dir/b.json: cannot create: No such file or directory");
    assert_int_equal(occ_inspect_baseline_save(NULL, &o, NULL, "x.json", &err),
                     OCC_ERR_NULL_POINTER);
    assert_int_equal(occ_inspect_baseline_write(r, &o, NULL, NULL, &err), OCC_ERR_NULL_POINTER);
    assert_non_null(strstr(err.message, "occ_inspect_baseline_write"));
    /* a kernel with launches is several rows: not a baseline */
    occ_inspect_launch launch = {.name = "odd()",
                                 .block = {64, 1, 1},
                                 .dyn_smem_bytes = 0,
                                 .smem_total_bytes = OCC_INSPECT_UNKNOWN,
                                 .source = OCC_INSPECT_LAUNCH_TABLE,
                                 .carveout_percent = OCC_CARVEOUT_DEFAULT,
                                 .weight = 1};
    occ_inspect_launch_match match;
    assert_int_equal(occ_inspect_apply_launches(r, &o, &launch, 1, NULL, &match, &err), OCC_OK);
    assert_int_equal(match.matched, 1);
    char dir[] = "/tmp/occ-test-documents-dir-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/b.json", dir);
    assert_int_equal(occ_inspect_baseline_save(r, &o, NULL, path, &err), OCC_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(err.message, "before occ_inspect_apply_launches"));
    /* nothing written, not even the temporary file */
    DIR *d = opendir(dir);
    assert_non_null(d);
    int entries = 0;
    for (struct dirent *e = readdir(d); e != NULL; e = readdir(d)) {
        entries += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    }
    closedir(d);
    assert_int_equal(entries, 0);
    rmdir(dir);
    occ_inspect_result_free(r);
}

static char *inspect_document(const occ_inspect_result *r, int jobs, size_t *size)
{
    occ_inspect_options o = functions_options();
    o.jobs = jobs;
    char *text = NULL;
    FILE *out = open_memstream(&text, size);
    assert_non_null(out);
    occ_inspect_error err;
    assert_int_equal(occ_inspect_json_write(r, &o, NULL, out, &err), OCC_OK);
    fclose(out);
    return text;
}

static json_t *parse(const char *text, size_t size)
{
    json_error_t jerr;
    json_t *doc = json_loadb(text, size, JSON_REJECT_DUPLICATES, &jerr);
    if (doc == NULL) {
        fail_msg("not JSON: %s: %.300s", jerr.text, text);
    }
    return doc;
}

static void test_inspect_document(void **state)
{
    (void)state;
    occ_inspect_options o = functions_options();
    occ_inspect_input odd = {"odd.json", odd_dims, sizeof odd_dims - 1};
    occ_inspect_result *r = read_inputs(&odd, 1, &o);
    occ_inspect_error err;
    assert_int_equal(occ_inspect_sort(r, OCC_INSPECT_BY_NAME, &err), OCC_OK);
    size_t size, size4;
    char *text = inspect_document(r, 1, &size);
    char *text4 = inspect_document(r, 4, &size4);
    assert_int_equal(size4, size);
    assert_memory_equal(text4, text, size);
    json_t *doc = parse(text, size);
    assert_string_equal(json_string_value(json_object_get(doc, "schema")), "occ.inspect");
    json_t *functions = json_object_get(doc, "functions");
    assert_int_equal(json_array_size(functions), occ_inspect_kernel_count(r));
    char *baseline = NULL;
    size_t baseline_size = 0;
    FILE *out = open_memstream(&baseline, &baseline_size);
    assert_int_equal(occ_inspect_baseline_write(r, &o, NULL, out, &err), OCC_OK);
    fclose(out);
    json_t *saved = parse(baseline, baseline_size);
    json_t *saved_functions = json_object_get(saved, "functions");
    for (size_t i = 0; i < occ_inspect_kernel_count(r); i++) {
        const occ_inspect_kernel *k = occ_inspect_kernel_at(r, i);
        json_t *f = json_array_get(functions, i);
        json_t *s = json_array_get(saved_functions, i);
        assert_string_equal(json_string_value(json_object_get(f, "name")), k->name);
        assert_int_equal(json_integer_value(json_object_get(f, "regs")), k->regs);
        assert_int_equal(json_integer_value(json_object_get(f, "count")), k->count);
        /* every key of the baseline's object, with its value, but the dimensions */
        const char *key;
        json_t *value;
        json_object_foreach(s, key, value)
        {
            bool dims = strcmp(key, "max_threads") == 0 || strcmp(key, "req_threads") == 0 ||
                        strcmp(key, "cluster_dims") == 0;
            if (!dims && !json_equal(value, json_object_get(f, key))) {
                fail_msg("%s: \"%s\" differs between the documents", k->mangled, key);
            }
        }
        if (strcmp(k->mangled, "_Z3oddv") == 0) {
            json_t *want = json_pack("[iii]", 128, 1, 1);
            assert_true(json_equal(json_object_get(f, "max_threads"), want));
            json_decref(want);
            assert_true(json_is_null(json_object_get(f, "req_threads")));
            want = json_pack("[iii]", 0, 2, 0);
            assert_true(json_equal(json_object_get(s, "req_threads"), want));
            json_decref(want);
        }
    }
    o.jobs = OCC_INSPECT_MAX_JOBS + 1;
    assert_int_equal(occ_inspect_json_write(r, &o, NULL, stdout, &err), OCC_ERR_INVALID_ARGUMENT);
    json_decref(saved);
    json_decref(doc);
    free(baseline);
    free(text);
    free(text4);
    occ_inspect_result_free(r);
}

static void test_near_duplicates_stay_apart(void **state)
{
    (void)state;
    occ_inspect_options o = functions_options();
    occ_inspect_input in = {"near.json", near_duplicates, sizeof near_duplicates - 1};
    occ_inspect_result *r = read_inputs(&in, 1, &o);
    assert_int_equal(occ_inspect_kernel_count(r), 4);
    int merged = 0;
    int from_log = 0;
    int y4 = 0;
    int z2 = 0;
    for (size_t i = 0; i < occ_inspect_kernel_count(r); i++) {
        const occ_inspect_kernel *k = occ_inspect_kernel_at(r, i);
        merged += k->count == 2 ? 1 : 0;
        from_log += k->from_log ? 1 : 0;
        y4 += k->req_threads[1] == 4 ? 1 : 0;
        z2 += k->req_threads[2] == 2 ? 1 : 0;
    }
    assert_int_equal(merged, 1);
    assert_int_equal(from_log, 1);
    assert_int_equal(y4, 1);
    assert_int_equal(z2, 1);
    occ_inspect_result_free(r);
}

static void test_damaged_name_one_line(void **state)
{
    (void)state;
    static const char damaged[] =
        "{\"schema\":\"occ.baseline\",\"version\":1,\"functions\":[\n"
        "{\"mangled\":\"bad\\nname\\u001b[2J\",\"arch\":\"sm_90\",\"kind\":\"kernel\","
        "\"regs\":300,\"smem_bytes\":0,\"stack_bytes\":0}]}\n";
    occ_inspect_options o = functions_options();
    occ_inspect_input in = {"damaged.json", damaged, sizeof damaged - 1};
    occ_inspect_result *r = NULL;
    occ_inspect_error err;
    assert_int_not_equal(occ_inspect_read(&in, 1, &o, &r, &err), OCC_OK);
    assert_null(strchr(err.message, '\n'));
    assert_null(strchr(err.message, '\033'));
    assert_non_null(strstr(err.message, "bad\\x0aname\\x1b[2J"));
    assert_non_null(strstr(err.message, "300 registers per thread"));
}

/* A baseline holds at most OCC_INSPECT_MAX_BASELINE_FUNCTIONS functions:
   one more is OCC_ERR_LIMIT, refused while the frame is walked, before any
   row is made (a baseline of 10^6 functions took 489 MB to summarize and
   958 MB to diff with itself). The limit itself is read. */
static char *baseline_of(size_t functions, size_t *size)
{
    static const char head[] = "{\"schema\":\"occ.baseline\",\"version\":1,\"functions\":[";
    static const char one[] = "{\"mangled\":\"k\",\"arch\":\"sm_90\",\"kind\":\"kernel\","
                              "\"regs\":32,\"smem_bytes\":0,\"stack_bytes\":0}";
    size_t cap = sizeof head + functions * sizeof one + 4;
    char *text = malloc(cap);
    assert_non_null(text);
    size_t at = 0;
    memcpy(text, head, sizeof head - 1);
    at += sizeof head - 1;
    for (size_t i = 0; i < functions; i++) {
        if (i > 0) {
            text[at++] = ',';
        }
        memcpy(text + at, one, sizeof one - 1);
        at += sizeof one - 1;
    }
    memcpy(text + at, "]}\n", 3);
    *size = at + 3;
    return text;
}

static void test_baseline_function_limit(void **state)
{
    (void)state;
    occ_inspect_options o = functions_options();
    size_t size;
    char *text = baseline_of(OCC_INSPECT_MAX_BASELINE_FUNCTIONS, &size);
    occ_inspect_input in = {"most.json", text, size};
    occ_inspect_result *r = read_inputs(&in, 1, &o);
    occ_inspect_totals t;
    occ_inspect_totals_get(r, &t);
    assert_int_equal(t.functions_read, OCC_INSPECT_MAX_BASELINE_FUNCTIONS);
    occ_inspect_result_free(r);
    free(text);

    text = baseline_of(OCC_INSPECT_MAX_BASELINE_FUNCTIONS + 1, &size);
    in = (occ_inspect_input){"over.json", text, size};
    occ_inspect_error err;
    r = NULL;
    assert_int_equal(occ_inspect_read(&in, 1, &o, &r, &err), OCC_ERR_LIMIT);
    assert_null(r);
    char want[128];
    snprintf(want, sizeof want, "baseline: more than %d functions, the most a baseline may hold",
             OCC_INSPECT_MAX_BASELINE_FUNCTIONS);
    if (strstr(err.message, want) == NULL || strncmp(err.message, "over.json: offset ", 18) != 0) {
        fail_msg("'%s' lacks '%s'", err.message, want);
    }
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_baseline_round_trip),
        cmocka_unit_test(test_baseline_refusals),
        cmocka_unit_test(test_inspect_document),
        cmocka_unit_test(test_near_duplicates_stay_apart),
        cmocka_unit_test(test_damaged_name_one_line),
        cmocka_unit_test(test_baseline_function_limit),
    };
    return cmocka_run_group_tests_name("inspect-documents", tests, NULL, NULL);
}
