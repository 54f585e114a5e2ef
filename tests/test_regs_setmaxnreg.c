/*
 * test_regs_setmaxnreg.c - occ regs on warp-specialized kernels: the
 * setmaxnreg findings wired into the engine (include/occ_regs.h,
 * inspect/regs/regs_setmaxnreg.c), each cap's fit, the recommendation that
 * never names a compile that cannot run, the errors in the text and the
 * document, and the exit status. The kernels are the lab's (lab/regs/kernels/
 * compiled to PTX: tests/data/regs/README.md), whose caps were timed on an
 * NVIDIA H200 (docs/results/regs-h200): ws_gemm_nolb runs only at cap 168
 * (uncapped and above 168 no block launches; at 40-160 it hangs in
 * setmaxnreg.inc), ws_gemm_setmaxnreg at every cap. Without ptxas it skips
 * (exit 77).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>
#include <jansson.h>

#include "cli.h"
#include "cli_harness.h"
#include "occ_regs.h"
#include "regs_internal.h"
#include "test_data.h"

static char work[256];  /* this run's temporary directory */
static char cache[300]; /* one cache for every run here: each module compiles once */

static occ_device h200(void)
{
    occ_device d;
    assert_int_equal(occ_gpu_find("H200", &d, NULL), OCC_OK);
    return d;
}

static occ_regs_result *run_ok(const char *relative, int threads, const int *min_blocks,
                               int min_blocks_count)
{
    occ_device d = h200();
    occ_regs_options o;
    occ_regs_options_init(&o);
    o.device = &d;
    o.threads = threads;
    o.cache_dir = cache;
    o.min_blocks = min_blocks;
    o.min_blocks_count = min_blocks_count;
    char path[512];
    snprintf(path, sizeof path, "%s", test_data_path(relative));
    occ_regs_result *r = NULL;
    occ_inspect_error err;
    if (occ_regs_run(path, NULL, 0, &o, &r, &err) != OCC_OK) {
        fail_msg("occ_regs_run %s: %s", relative, err.message);
    }
    return r;
}

static const occ_regs_point *cap_point(const occ_regs_kernel *k, int cap)
{
    for (int i = 0; i < k->cap_count; i++) {
        if (k->caps[i].cap == cap) {
            return &k->caps[i];
        }
    }
    fail_msg("%s: no cap %d compiled", k->name, cap);
    return NULL;
}

static bool has_message(const occ_regs_setmaxnreg *m, const char *code)
{
    for (int i = 0; i < m->message_count; i++) {
        if (strcmp(m->messages[i].code, code) == 0) {
            return true;
        }
    }
    return false;
}

/* nolb-1: no cap cannot launch (194 registers x 384 threads) and ptxas
   dropped its setmaxnreg (C7508, no USETMAXREG in the cubin): an error;
   nolb-2: the caps below 168 hang (the groups' 64,512 registers above the
   block's cap x 384 at entry), 168 fits exactly; nolb-3: the recommendation
   is 168, as the H200 measured, where the v1 rule alone named 40, and the
   one candidate to time (no cap cannot launch, the others hang); nolb-4:
   the __launch_bounds__ variants likewise (N = 1: 168, fits; N = 2: 80,
   over). */
static void nolb_test(void **state)
{
    (void)state;
    const int variants[] = {1, 2};
    occ_regs_result *r = run_ok("regs/ws_gemm_nolb.ptx", 384, variants, 2);
    const occ_regs_kernel *k = occ_regs_kernel_at(r, 0);
    assert_non_null(k);
    const occ_regs_setmaxnreg *m = k->setmaxnreg;
    assert_non_null(m);
    /* nolb-1 */
    assert_int_equal(k->caps[0].blocks_per_sm, 0);
    assert_false(occ_regs_point_runs(&k->caps[0]));
    assert_true(has_message(m, "C7508"));
    assert_int_equal(m->honoured, OCC_REGS_NO);
    assert_int_equal(m->usetmaxreg_count, 0);
    assert_int_equal(m->block_threads, 384);
    assert_int_equal(m->warp_group_count, 3);
    assert_int_equal(m->block_budget_regs, (40 + 2 * 232) * 128);
    assert_non_null(strstr(m->errors, "ptxas: (C7508) Potential Performance Loss: 'setmaxnreg' "
                                      "ignored; unable to determine register count at entry"));
    assert_int_equal(m->region_count, 2);
    assert_string_equal(m->regions[0].action, "dec");
    assert_int_equal(m->regions[0].regs_per_thread, 40);
    assert_int_equal(m->regions[0].warp_groups, 1u);
    assert_int_equal(m->regions[0].regs, 40 * 128);
    assert_string_equal(m->regions[1].action, "inc");
    assert_int_equal(m->regions[1].warp_groups, 6u);
    assert_int_equal(m->regions[1].warp_group_count, 2);
    assert_int_equal(m->regions[1].regs, 232 * 256);
    /* nolb-2 */
    int over = 0;
    for (int i = 1; i < k->cap_count; i++) {
        const occ_regs_point *p = &k->caps[i];
        occ_regs_answer want = p->regs * 384 >= (40 + 2 * 232) * 128 ? OCC_REGS_YES : OCC_REGS_NO;
        if (p->blocks_per_sm > 0 && p->setmaxnreg_fits != want) {
            fail_msg("cap %d (%d registers): setmaxnreg_fits %d, not %d", p->cap, p->regs,
                     (int)p->setmaxnreg_fits, (int)want);
        }
        over += p->setmaxnreg_fits == OCC_REGS_NO;
    }
    assert_true(over >= 3); /* 80, 56, 40 on the H200 at 384 threads */
    const occ_regs_point *at168 = cap_point(k, 168);
    assert_int_equal(at168->regs, 168);
    assert_int_equal(at168->blocks_per_sm, 1);
    assert_int_equal(at168->setmaxnreg_fits, OCC_REGS_YES);
    /* nolb-3 */
    assert_int_equal(k->caps[k->recommended].cap, 168);
    assert_true(strncmp(k->why, "cap 168: no cap cannot run", 26) == 0);
    assert_non_null(strstr(k->why, "(a hang): 80, 56, 40."));
    assert_int_equal(k->candidate_count, 1);
    assert_int_equal(k->caps[k->candidates[0]].cap, 168);
    /* nolb-4 */
    assert_int_equal(k->launch_bounds_count, 2);
    assert_int_equal(k->launch_bounds[0].regs, 168);
    assert_int_equal(k->launch_bounds[0].setmaxnreg_fits, OCC_REGS_YES);
    assert_int_equal(k->launch_bounds[1].setmaxnreg_fits, OCC_REGS_NO);
    occ_regs_result_free(r);
}

/* lb-1: with __launch_bounds__(384, 1) ptxas keeps 168 at every cap, keeps
   the setmaxnreg (two USETMAXREG) and says nothing: every cap fits, no
   error, no cap recommended, and no cap the only candidate (every cap is
   the same 168 registers). */
static void launch_bounds_test(void **state)
{
    (void)state;
    occ_regs_result *r = run_ok("regs/ws_gemm_setmaxnreg.ptx", 0, NULL, -1);
    const occ_regs_kernel *k = occ_regs_kernel_at(r, 0);
    const occ_regs_setmaxnreg *m = k->setmaxnreg;
    assert_non_null(m);
    assert_int_equal(k->threads, 384); /* its .maxntid */
    assert_int_equal(m->honoured, OCC_REGS_YES);
    assert_int_equal(m->usetmaxreg_count, 2);
    assert_int_equal(m->fits, OCC_REGS_YES);
    assert_int_equal(m->message_count, 0);
    assert_string_equal(m->errors, "");
    assert_int_equal(m->pool_regs, 168 * 384);
    assert_true(k->cap_count >= 2);
    for (int i = 0; i < k->cap_count; i++) {
        assert_int_equal(k->caps[i].regs, 168);
        assert_int_equal(k->caps[i].setmaxnreg_fits, OCC_REGS_YES);
    }
    assert_int_equal(k->recommended, 0);
    assert_int_equal(k->candidate_count, 1);
    assert_int_equal(k->candidates[0], 0);
    occ_regs_result_free(r);
}

/* minncta-1: `.minnctapersm 100`, which ptxas finds out of range and
   ignores, and C7508 after it: both errors. */
static void minnctapersm_test(void **state)
{
    (void)state;
    occ_regs_result *r = run_ok("setmaxnreg/minnctapersm.ptx", 0, NULL, -1);
    const occ_regs_setmaxnreg *m = occ_regs_kernel_at(r, 0)->setmaxnreg;
    assert_non_null(m);
    assert_true(has_message(m, "minnctapersm-out-of-range"));
    assert_true(has_message(m, "C7508"));
    assert_non_null(strstr(m->errors, "ptxas: Value of minnctapersm for entry fits is out of "
                                      "range"));
    assert_non_null(strstr(m->errors, "\nptxas: (C7508)"));
    occ_regs_result_free(r);
}

/* cli-smr-1: the table shows each cap's fit, the findings and the error,
   and the run exits 1 with one line naming the kernel and the first error;
   cli-smr-2: --json prints the document all the same, with setmaxnreg's
   fields and each cap's setmaxnreg_fits; cli-smr-3: a kernel that fits
   exits 0. */
static void cli_test(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s", test_data_path("regs/ws_gemm_nolb.ptx"));
    assert_int_equal(OCC(NULL, "regs", "--gpu", "H200", "--threads", "384", "--min-blocks", "none",
                         "--cache-dir", cache, path),
                     EXIT_DATA);
    assert_non_null(strstr(last.out, "BLK/SM     OCC SETMAXNREG"));
    assert_non_null(strstr(last.out, "  168        168         0         0      0       1   "
                                     "18.8%       fits  <- recommended\n"));
    assert_non_null(strstr(last.out, "  80          80         0         0      0       2   "
                                     "37.5%       over\n"));
    assert_non_null(strstr(last.out, "    groups 1-2       inc to 232 at PTX line"));
    assert_non_null(strstr(last.out, "honoured: no (0 USETMAXREG in the code); ptxas said C7508"));
    assert_non_null(strstr(last.out, "\n  error: ptxas: (C7508) Potential Performance Loss"));
    assert_int_equal(line_count(last.err), 1);
    assert_non_null(strstr(last.err, "occ regs: setmaxnreg errors in 1 kernel; kernel: ptxas: "
                                     "(C7508)"));
    /* cli-smr-2 */
    assert_int_equal(OCC(NULL, "regs", "--gpu", "H200", "--threads", "384", "--min-blocks", "none",
                         "--cache-dir", cache, "--json", path),
                     EXIT_DATA);
    json_error_t jerr;
    json_t *doc = json_loads(last.out, 0, &jerr);
    if (doc == NULL) {
        fail_msg("not JSON: %s", jerr.text);
    }
    json_t *k = json_array_get(json_object_get(doc, "kernels"), 0);
    assert_int_equal(json_integer_value(json_object_get(k, "recommended_cap")), 168);
    json_t *candidates = json_object_get(k, "candidates");
    assert_int_equal(json_array_size(candidates), 1);
    assert_int_equal(json_integer_value(json_array_get(candidates, 0)), 168);
    json_t *smr = json_object_get(k, "setmaxnreg");
    assert_true(json_is_object(smr));
    assert_int_equal(json_array_size(json_object_get(smr, "regions")), 2);
    assert_int_equal(json_integer_value(json_object_get(smr, "budget_regs")), 64512);
    assert_true(json_is_true(json_object_get(smr, "fits")));
    assert_true(json_is_false(json_object_get(smr, "honoured")));
    assert_int_equal(json_integer_value(json_object_get(smr, "usetmaxreg_count")), 0);
    assert_string_equal(
        json_string_value(json_array_get(json_object_get(smr, "ptxas_messages"), 0)), "C7508");
    assert_non_null(
        strstr(json_string_value(json_array_get(json_object_get(smr, "errors"), 0)), "(C7508)"));
    json_t *caps = json_object_get(k, "caps");
    for (size_t i = 0; i < json_array_size(caps); i++) {
        json_t *c = json_array_get(caps, i);
        json_int_t cap = json_integer_value(json_object_get(c, "cap"));
        json_t *fits = json_object_get(c, "setmaxnreg_fits");
        if (cap == 168) {
            assert_true(json_is_true(fits));
        } else if (cap > 0 && cap < 168) {
            assert_true(json_is_false(fits));
        }
    }
    json_decref(doc);
    /* cli-smr-3 */
    snprintf(path, sizeof path, "%s", test_data_path("regs/ws_gemm_setmaxnreg.ptx"));
    assert_int_equal(
        OCC(NULL, "regs", "--gpu", "H200", "--min-blocks", "none", "--cache-dir", cache, path),
        EXIT_OK);
    assert_string_equal(last.err, "");
    assert_non_null(strstr(last.out, "honoured: yes (2 USETMAXREG in the code); ptxas said "
                                     "nothing"));
    assert_null(strstr(last.out, "error:"));
}

/* Every key of the object (and of the objects and arrays in it) is quoted
   in the section's text; fails naming the first that is not. */
static void keys_documented(json_t *v, const char *section, const char *where)
{
    if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++) {
            keys_documented(json_array_get(v, i), section, where);
        }
        return;
    }
    if (!json_is_object(v)) {
        return;
    }
    const char *name;
    json_t *value;
    json_object_foreach(v, name, value)
    {
        char quoted[128];
        snprintf(quoted, sizeof quoted, "\"%s\"", name);
        if (strstr(section, quoted) == NULL) {
            fail_msg("docs/json.md's occ.regs section does not name %s (in %s)", quoted, where);
        }
        keys_documented(value, section, name);
    }
}

/* doc-1: every field of the occ.regs document, of a setmaxnreg kernel and of
   a prediction, is in docs/json.md's occ.regs section. */
static void documented_test(void **state)
{
    (void)state;
    const char *source = getenv("OCC_SOURCE_DIR");
    assert_non_null(source);
    char path[600];
    snprintf(path, sizeof path, "%s/docs/json.md", source);
    char *doc_text = NULL;
    size_t doc_size;
    assert_int_equal(regs_read_file(path, 1 << 22, &doc_text, &doc_size, NULL), OCC_OK);
    char *section = strstr(doc_text, "## `occ regs --json`: schema `occ.regs`");
    assert_non_null(section);
    char *end = strstr(section + 3, "\n## ");
    if (end != NULL) {
        *end = '\0';
    }
    char ptx[512];
    snprintf(ptx, sizeof ptx, "%s", test_data_path("regs/ws_gemm_nolb.ptx"));
    OCC(NULL, "regs", "--gpu", "H200", "--threads", "384", "--min-blocks", "1", "--bytes-loaded",
        "64", "--cache-dir", cache, "--json", ptx);
    json_error_t jerr;
    json_t *doc = json_loads(last.out, 0, &jerr);
    if (doc == NULL) {
        fail_msg("not JSON: %s", jerr.text);
    }
    json_t *k = json_array_get(json_object_get(doc, "kernels"), 0);
    assert_true(json_is_object(json_object_get(k, "setmaxnreg")));
    assert_true(json_is_object(
        json_object_get(json_array_get(json_object_get(k, "caps"), 1), "predicted")));
    keys_documented(doc, section, "the document");
    json_decref(doc);
    free(doc_text);
}

int main(void)
{
    char *ptxas = NULL;
    if (regs_find_tool("ptxas", NULL, getenv("CUDA_HOME"), getenv("PATH"), "/usr/local/cuda/bin",
                       &ptxas, NULL) != OCC_OK) {
        fprintf(stderr, "test_regs_setmaxnreg: SKIP: no ptxas\n");
        return 77;
    }
    free(ptxas);
    snprintf(work, sizeof work, "%s/occ-test-regs-smr-XXXXXX",
             getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
    if (mkdtemp(work) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(cache, sizeof cache, "%s/cache", work);
    if (mkdir(cache, 0755) != 0) {
        perror("mkdir");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nolb_test),         cmocka_unit_test(launch_bounds_test),
        cmocka_unit_test(minnctapersm_test), cmocka_unit_test(cli_test),
        cmocka_unit_test(documented_test),
    };
    int failed = cmocka_run_group_tests_name("regs-setmaxnreg", tests, NULL, NULL);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", work);
    if (system(cmd) != 0) {
        fprintf(stderr, "test_regs_setmaxnreg: could not remove %s\n", work);
    }
    return failed != 0 ? 1 : 0;
}
