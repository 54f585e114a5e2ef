/*
 * test_lab_regs.c - `occ lab regs` without a GPU: the regret analysis
 * (lab/analysis/regs_regret.h) on hand-made records whose answers are worked
 * out in the comments (the cases tests/gpu/test_analyse_regs.py held
 * analyse_regs.py to, then rounds, code groups, regs_same and candidates);
 * the first H200 run's records against the tables analyse_regs.py made of
 * them (tests/data/lab-regs/); the records reader's refusals; occ regs's
 * recommendations in each form; the code hash of a hand-built cubin; and
 * the command's run of occ-regs-bench, with a stand-in script for the
 * runner. Ids: lab-regs-<area>-<n>.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "cli.h"
#include "cli_harness.h"
#include "lab_regs_cubin.h"
#include "lab_regs_recommend.h"
#include "lab_regs_records.h"
#include "regs_regret.h"
#include "test_data.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-9)

/* --- helpers ------------------------------------------------------------- */

static char dir[64];

static int make_dir(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/occ-lab-regs-XXXXXX");
    return mkdtemp(dir) != NULL ? 0 : -1;
}

static int remove_dir(void **state)
{
    (void)state;
    char command[128];
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    return system(command) == 0 ? 0 : -1;
}

/* dir/name holding text; the path in a static buffer of 8 (one a call). */
static const char *write_file(const char *name, const char *text)
{
    static char paths[8][256];
    static int next;
    char *path = paths[next++ % 8];
    snprintf(path, 256, "%s/%s", dir, name);
    char *slash = strrchr(path, '/');
    *slash = '\0';
    mkdir(path, 0777);
    *slash = '/';
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
    assert_int_equal(fclose(f), 0);
    return path;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fail_msg("cannot open %s", path);
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    char *text = malloc((size_t)size + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)size, f), (size_t)size);
    text[size] = '\0';
    fclose(f);
    return text;
}

/* A regs_time record as test_analyse_regs.py wrote them. */
static void time_record(char *out, size_t cap, const char *kernel, const char *cap_text,
                        double median, int blocks, int regs, bool checked, double min_ms)
{
    snprintf(out, cap,
             "{\"record\":\"regs_time\",\"kernel\":\"%s\",\"cap\":%s,\"regs\":%d,"
             "\"local_bytes\":0,\"blocks_per_sm\":%d,\"median_ms\":%.17g,\"min_ms\":%.17g,"
             "\"runs\":21,\"checksum\":1.0,\"checked\":%s}\n",
             kernel, cap_text, regs, blocks, median, min_ms > 0 ? min_ms : median,
             checked ? "true" : "false");
}

/* The records of test_analyse_regs.py. */
static char *python_records(void)
{
    static char text[8192];
    char line[512];
    text[0] = '\0';
    strcat(text, "{\"record\":\"regs_header\",\"device\":\"NVIDIA H200\",\"sm_count\":132,"
                 "\"driver\":\"580.65.06\",\"cuda_driver_version\":13000,\"n\":16777216,"
                 "\"warmups\":3,\"runs\":21}\n");
    /* alpha: a cap below the unconstrained compile's 96 registers adds a
       block without spilling (64) and is the best; the most blocks (24) spill */
    time_record(line, sizeof line, "alpha", "null", 1.00, 2, 96, true, 0), strcat(text, line);
    time_record(line, sizeof line, "alpha", "24", 5.00, 8, 24, true, 0), strcat(text, line);
    time_record(line, sizeof line, "alpha", "64", 0.90, 3, 64, true, 0.88), strcat(text, line);
    time_record(line, sizeof line, "alpha", "96", 0.98, 2, 96, true, 0), strcat(text, line);
    time_record(line, sizeof line, "alpha", "255", 1.00, 2, 96, true, 0), strcat(text, line);
    /* beta: every cap has 4 blocks: the occupancy choice is the highest, 40 */
    time_record(line, sizeof line, "beta", "null", 0.50, 4, 32, true, 0), strcat(text, line);
    time_record(line, sizeof line, "beta", "32", 0.50, 4, 32, true, 0), strcat(text, line);
    time_record(line, sizeof line, "beta", "40", 0.52, 4, 32, true, 0), strcat(text, line);
    /* gamma: the cap with the most blocks hangs (a setmaxnreg budget) */
    time_record(line, sizeof line, "gamma", "null", 2.00, 1, 194, true, 0), strcat(text, line);
    strcat(text, "{\"record\":\"regs_error\",\"kernel\":\"gamma\",\"cap\":24,\"stage\":\"hang\","
                 "\"regs\":24,\"blocks_per_sm\":4,\"error\":\"launch 1 did not finish within 2 "
                 "s\"}\n");
    time_record(line, sizeof line, "gamma", "168", 2.10, 1, 168, true, 0), strcat(text, line);
    /* delta: the faster cap computed something else: it does not count */
    time_record(line, sizeof line, "delta", "null", 1.00, 2, 32, true, 0), strcat(text, line);
    time_record(line, sizeof line, "delta", "32", 0.50, 4, 32, false, 0), strcat(text, line);
    /* epsilon: nothing ran correctly */
    time_record(line, sizeof line, "epsilon", "null", 1.00, 2, 32, false, 0), strcat(text, line);
    strcat(text, "{\"record\":\"regs_done\",\"cubins\":14}\n");
    return text;
}

static const char python_recommended[] =
    "{\"alpha\": 64, \"beta\": null, \"gamma\": 168, \"delta\": 40}";

/* Reads records text into *d (initialised here). */
static bool read_text(const char *text, lab_regs_data *d, cli_error *err)
{
    lab_regs_data_init(d);
    FILE *f = fmemopen((void *)(uintptr_t)text, strlen(text), "r");
    assert_non_null(f);
    bool ok = lab_regs_records_read(f, "test.jsonl", d, err);
    fclose(f);
    return ok;
}

/* Records (and recommendations: NULL for none) scored. */
static void analyse_text(const char *records, const char *recommended, lab_regs_metric metric,
                         double tolerance, bool group, lab_regs_data *d, lab_regs_analysis *a)
{
    cli_error err;
    if (!read_text(records, d, &err)) {
        fail_msg("records refused: %s", err.message);
    }
    if (recommended != NULL &&
        !lab_regs_recommended_parse(recommended, strlen(recommended), "rec.json", NULL, d, &err)) {
        fail_msg("recommendations refused: %s", err.message);
    }
    lab_regs_kernel k[16];
    assert_true(d->kernel_count <= 16);
    for (int i = 0; i < d->kernel_count; i++) {
        const lab_regs_kernel_data *s = &d->kernels[i];
        k[i] = (lab_regs_kernel){s->name,
                                 s->records,
                                 s->count,
                                 s->has_recommendation,
                                 s->recommended_cap,
                                 s->has_candidates,
                                 s->candidates,
                                 s->candidate_count};
    }
    lab_regs_options o = {metric, tolerance, group};
    occ_error oerr;
    if (lab_regs_analyse(k, d->kernel_count, &o, a, &oerr) != OCC_OK) {
        fail_msg("analysis failed: %s", oerr.message);
    }
}

static const lab_regs_row *row_of(const lab_regs_analysis *a, const char *name)
{
    for (int i = 0; i < a->row_count; i++) {
        if (strcmp(a->rows[i].name, name) == 0) {
            return &a->rows[i];
        }
    }
    fail_msg("no row %s", name);
    return NULL;
}

static const lab_regs_cap *cap_of(const lab_regs_row *r, int cap)
{
    for (int i = 0; i < r->cap_count; i++) {
        if (r->caps[i].cap == cap) {
            return &r->caps[i];
        }
    }
    fail_msg("%s: no cap %d", r->name, cap);
    return NULL;
}

static void done(lab_regs_data *d, lab_regs_analysis *a)
{
    lab_regs_analysis_free(a);
    lab_regs_data_free(d);
}

/* --- the cases of test_analyse_regs.py ----------------------------------- */

/* lab-regs-regret-1..7: alpha's best is cap 64 at 0.90 ms, so no cap (1.00
   ms) regrets 1.00 / 0.90 - 1 = 11.1 % and the 8-block cap 24 (5.00 ms)
   455.6 %; beta's caps all have 4 blocks: the occupancy cap is the highest,
   40, and the best is no cap on the tie at 0.50; gamma's 4-block cap 24
   hangs; delta's faster cap 32 computed something else; epsilon has no
   correct run. */
static void regret_test(void **state)
{
    (void)state;
    lab_regs_data d;
    lab_regs_analysis a;
    analyse_text(python_records(), python_recommended, LAB_REGS_MEDIAN_MS, 0, true, &d, &a);
    const lab_regs_row *alpha = row_of(&a, "alpha");
    assert_int_equal(alpha->best_cap, 64);
    NEAR(alpha->best_ms, 0.90);
    NEAR(alpha->none.regret, 1.00 / 0.90 - 1);
    assert_int_equal(alpha->occupancy.cap, 24);
    assert_int_equal(alpha->occupancy.blocks_per_sm, 8);
    NEAR(alpha->occupancy.regret, 5.00 / 0.90 - 1);
    const lab_regs_row *beta = row_of(&a, "beta");
    assert_int_equal(beta->occupancy.cap, 40);
    NEAR(beta->occupancy.regret, 0.52 / 0.50 - 1);
    assert_int_equal(beta->best_cap, LAB_REGS_NO_CAP);
    const lab_regs_row *gamma = row_of(&a, "gamma");
    assert_int_equal(gamma->occupancy.cap, 24);
    assert_int_equal(gamma->occupancy.blocks_per_sm, 4);
    assert_string_equal(gamma->occupancy.failure, "hangs");
    assert_true(isinf(gamma->occupancy.regret));
    const lab_regs_row *delta = row_of(&a, "delta");
    assert_int_equal(delta->best_cap, LAB_REGS_NO_CAP);
    NEAR(delta->best_ms, 1.00);
    const lab_regs_row *epsilon = row_of(&a, "epsilon");
    assert_false(epsilon->has_best);
    assert_false(epsilon->none.present);
    done(&d, &a);
}

/* lab-regs-regret-8: the first H200 run's hang records said registers and
   blocks only in words. */
static void error_words_test(void **state)
{
    (void)state;
    char text[2048], line[512];
    time_record(line, sizeof line, "k", "null", 2.00, 1, 194, true, 0);
    snprintf(text, sizeof text,
             "%s{\"record\":\"regs_error\",\"kernel\":\"k\",\"cap\":40,\"stage\":\"hang\","
             "\"error\":\"launch 1 did not finish within 2 s (40 registers a thread, 4 blocks an "
             "SM): the kernel hangs\"}\n",
             line);
    time_record(line, sizeof line, "k", "168", 1.90, 1, 168, true, 0);
    strcat(text, line);
    lab_regs_data d;
    lab_regs_analysis a;
    analyse_text(text, NULL, LAB_REGS_MEDIAN_MS, 0, true, &d, &a);
    const lab_regs_choice *occ = &a.rows[0].occupancy;
    assert_int_equal(occ->cap, 40);
    assert_int_equal(occ->blocks_per_sm, 4);
    assert_int_equal(occ->regs, 40);
    assert_string_equal(occ->failure, "hangs");
    done(&d, &a);
}

/* lab-regs-rec-1..4: the recommended caps' regrets; delta's cap 40 was not
   measured and is scored at 32 (which computed something else); the
   regrets are alpha 0, beta 0, gamma 5 %, delta inf: median 2.5 %, max inf;
   gamma and delta are more than 1 % slower than no cap. */
static void recommended_test(void **state)
{
    (void)state;
    lab_regs_data d;
    lab_regs_analysis a;
    analyse_text(python_records(), python_recommended, LAB_REGS_MEDIAN_MS, 0, true, &d, &a);
    NEAR(row_of(&a, "alpha")->recommended.regret, 0.0);
    NEAR(row_of(&a, "alpha")->recommended.vs_none, 0.90 / 1.00 - 1);
    NEAR(row_of(&a, "beta")->recommended.regret, 0.0);
    NEAR(row_of(&a, "gamma")->recommended.regret, 2.10 / 2.00 - 1);
    const lab_regs_choice *r = &row_of(&a, "delta")->recommended;
    assert_int_equal(r->asked, 40);
    assert_int_equal(r->cap, 32);
    assert_true(r->approximate);
    assert_string_equal(r->failure, "wrong output");
    assert_true(isinf(r->regret));
    assert_int_equal(a.recommended.kernels, 4);
    NEAR(a.recommended.median, (0.0 + 0.05) / 2);
    assert_true(isinf(a.recommended.max));
    assert_false(a.goal_median);
    assert_false(a.goal_max);
    assert_int_equal(a.worse_than_none, 2);
    assert_true(row_of(&a, "delta")->worse_than_none && row_of(&a, "gamma")->worse_than_none);
    assert_int_equal(a.none.kernels, 4); /* epsilon has no best */
    NEAR(a.none.max, 1.00 / 0.90 - 1);
    assert_int_equal(a.missed, 2);
    done(&d, &a);
}

/* lab-regs-rec-5: the goal met by alpha at 64 and beta at no cap. */
static void goals_met_test(void **state)
{
    (void)state;
    lab_regs_data d;
    lab_regs_analysis a;
    analyse_text(python_records(), "{\"alpha\": 64, \"beta\": null}", LAB_REGS_MEDIAN_MS, 0, true,
                 &d, &a);
    assert_int_equal(a.recommended.kernels, 2);
    assert_true(a.goal_median && a.goal_max && a.goal_vs_none);
    assert_int_equal(a.missed, 0);
    done(&d, &a);
}

/* lab-regs-metric-1: min_ms: alpha's best is 0.88 ms. */
static void min_metric_test(void **state)
{
    (void)state;
    lab_regs_data d;
    lab_regs_analysis a;
    analyse_text(python_records(), NULL, LAB_REGS_MIN_MS, 0, true, &d, &a);
    NEAR(row_of(&a, "alpha")->best_ms, 0.88);
    assert_false(row_of(&a, "alpha")->recommended.present);
    done(&d, &a);
}

/* lab-regs-tol-1..3: a cap whose outputs differ in the last bits (another
   FMA fusion): |10.005 - 10.0| = 0.005 <= 1e-5 x 1000 = 0.01 counts within
   the tolerance, |12 - 10| = 2 does not, and a NaN output never counts. */
static void tolerance_test(void **state)
{
    (void)state;
    const char *base = "\"outputs\":100,\"reference_cap\":null,\"abs_checksum\":1000.0";
    char text[2048];
    snprintf(text, sizeof text,
             "{\"record\":\"regs_time\",\"kernel\":\"k\",\"cap\":null,\"blocks_per_sm\":2,"
             "\"median_ms\":1.0,\"checked\":true,\"checksum\":10.0,\"finite_outputs\":100,%s}\n"
             "{\"record\":\"regs_time\",\"kernel\":\"k\",\"cap\":32,\"blocks_per_sm\":4,"
             "\"median_ms\":0.8,\"checked\":false,\"checksum\":10.005,\"finite_outputs\":100,%s}\n"
             "{\"record\":\"regs_time\",\"kernel\":\"k\",\"cap\":24,\"blocks_per_sm\":5,"
             "\"median_ms\":0.7,\"checked\":false,\"checksum\":12.0,\"finite_outputs\":100,%s}\n"
             "{\"record\":\"regs_time\",\"kernel\":\"k\",\"cap\":40,\"blocks_per_sm\":3,"
             "\"median_ms\":0.6,\"checked\":false,\"checksum\":10.0,\"finite_outputs\":99,%s}\n",
             base, base, base, base);
    lab_regs_data d;
    lab_regs_analysis a;
    analyse_text(text, NULL, LAB_REGS_MEDIAN_MS, 0, true, &d, &a);
    assert_int_equal(a.rows[0].best_cap, LAB_REGS_NO_CAP);
    assert_int_equal(a.not_checked, 3);
    assert_int_equal(a.tolerated, 0);
    done(&d, &a);
    analyse_text(text, NULL, LAB_REGS_MEDIAN_MS, 1e-5, true, &d, &a);
    assert_int_equal(a.rows[0].best_cap, 32);
    assert_true(a.rows[0].best.tolerated);
    assert_int_equal(a.tolerated, 1);
    done(&d, &a);
    analyse_text(text, NULL, LAB_REGS_MEDIAN_MS, 1.0, true, &d, &a);
    assert_int_equal(a.rows[0].best_cap, 24); /* cap 40's 0.60 ms has a NaN */
    done(&d, &a);
}

/* --- rounds, code groups, regs_same, candidates --------------------------- */

/* A distinct run of two rounds: no cap 1.00 and 1.04 ms (1.02); cap 64 not
   timed, its code that of no cap; cap 32 0.90 and 0.94 (0.92); cap 24 hangs
   in round 1. */
static const char rounds_records[] =
    "{\"record\":\"regs_header\",\"device\":\"NVIDIA H200\",\"rounds\":2,\"distinct\":true}\n"
    "{\"record\":\"regs_time\",\"kernel\":\"k\",\"cap\":null,\"regs\":40,\"blocks_per_sm\":6,"
    "\"median_ms\":1.00,\"checked\":true,\"round\":1,\"code_hash\":\"00000000000000a1\"}\n"
    "{\"record\":\"regs_same\",\"kernel\":\"k\",\"cap\":64,\"cubin\":\"k.cap064.cubin\","
    "\"code_hash\":\"00000000000000a1\",\"same_as_cap\":null,\"same_as_cubin\":\"k.none.cubin\"}\n"
    "{\"record\":\"regs_time\",\"kernel\":\"k\",\"cap\":32,\"regs\":32,\"blocks_per_sm\":8,"
    "\"median_ms\":0.90,\"checked\":true,\"round\":1,\"code_hash\":\"00000000000000b2\"}\n"
    "{\"record\":\"regs_error\",\"kernel\":\"k\",\"cap\":24,\"stage\":\"hang\",\"round\":1,"
    "\"error\":\"launch 1 did not finish within 2 s (24 registers a thread, 8 blocks an SM)\","
    "\"code_hash\":\"00000000000000c3\"}\n"
    "{\"record\":\"regs_time\",\"kernel\":\"k\",\"cap\":null,\"regs\":40,\"blocks_per_sm\":6,"
    "\"median_ms\":1.04,\"checked\":true,\"round\":2,\"code_hash\":\"00000000000000a1\"}\n"
    "{\"record\":\"regs_time\",\"kernel\":\"k\",\"cap\":32,\"regs\":32,\"blocks_per_sm\":8,"
    "\"median_ms\":0.94,\"checked\":true,\"round\":2,\"code_hash\":\"00000000000000b2\"}\n";

/* lab-regs-group-1: a cubin's time is the median of its rounds; a regs_same
   cap has its code's time, blocks and registers; the best is cap 32 at 0.92,
   so no cap regrets 1.02 / 0.92 - 1 = 10.9 %; the occupancy cap is 32 (8
   blocks, as the hanging 24, the higher wins); the recommended cap 64 (not
   timed) is scored at its code's 1.02 ms, as slow as no cap. */
static void rounds_test(void **state)
{
    (void)state;
    lab_regs_data d;
    lab_regs_analysis a;
    analyse_text(rounds_records, "{\"k\": 64}", LAB_REGS_MEDIAN_MS, 0, true, &d, &a);
    const lab_regs_row *k = &a.rows[0];
    NEAR(cap_of(k, LAB_REGS_NO_CAP)->ms, 1.02);
    assert_int_equal(cap_of(k, LAB_REGS_NO_CAP)->timings, 2);
    const lab_regs_cap *same = cap_of(k, 64);
    assert_false(same->timed);
    assert_int_equal(same->timings, 0);
    NEAR(same->ms, 1.02);
    assert_int_equal(same->blocks_per_sm, 6);
    assert_int_equal(same->regs, 40);
    assert_int_equal(same->group_size, 2);
    assert_int_equal(k->best_cap, 32);
    NEAR(k->best_ms, 0.92);
    NEAR(k->none.regret, 1.02 / 0.92 - 1);
    assert_int_equal(k->occupancy.cap, 32);
    assert_string_equal(cap_of(k, 24)->failure, "hangs");
    assert_int_equal(k->recommended.cap, 64);
    assert_false(k->recommended.approximate);
    NEAR(k->recommended.regret, 1.02 / 0.92 - 1);
    NEAR(k->recommended.vs_none, 0.0);
    assert_int_equal(a.max_rounds, 2);
    assert_int_equal(a.codes, 3);
    assert_true(a.grouped);
    done(&d, &a);
}

/* lab-regs-group-2: rounds as files of their own: a second file times cap
   32 again (round 1 of another run) at 0.80; its time is the median of
   0.90, 0.94 and 0.80: 0.90. A second record of one cubin in one round of
   one file is refused. */
static void round_files_test(void **state)
{
    (void)state;
    lab_regs_data d;
    cli_error err;
    assert_true(read_text(rounds_records, &d, &err));
    const char *second = "{\"record\":\"regs_time\",\"kernel\":\"k\",\"cap\":32,\"regs\":32,"
                         "\"blocks_per_sm\":8,\"median_ms\":0.80,\"checked\":true,\"round\":1,"
                         "\"code_hash\":\"00000000000000b2\"}\n";
    FILE *f = fmemopen((void *)(uintptr_t)second, strlen(second), "r");
    assert_true(lab_regs_records_read(f, "second.jsonl", &d, &err));
    fclose(f);
    lab_regs_kernel k = {.name = d.kernels[0].name,
                         .records = d.kernels[0].records,
                         .record_count = d.kernels[0].count};
    lab_regs_options o = {LAB_REGS_MEDIAN_MS, 0, true};
    lab_regs_analysis a;
    assert_int_equal(lab_regs_analyse(&k, 1, &o, &a, NULL), OCC_OK);
    NEAR(cap_of(&a.rows[0], 32)->ms, 0.90);
    assert_int_equal(cap_of(&a.rows[0], 32)->timings, 3);
    done(&d, &a);

    char twice[4096];
    snprintf(twice, sizeof twice, "%s%s", rounds_records, second);
    assert_false(read_text(twice, &d, &err));
    assert_string_equal(err.message, "test.jsonl: line 8: a second record of kernel k at cap 32 "
                                     "in round 1 (the first is line 4)");
    lab_regs_data_free(&d);
}

/* Three timed cubins of one code (no cap 1.00, 40 1.10, 48 0.90 ms) and a
   cap with the same bytes but other registers. */
static const char same_code_records[] =
    "{\"record\":\"regs_time\",\"kernel\":\"g\",\"cap\":null,\"regs\":20,\"blocks_per_sm\":8,"
    "\"median_ms\":1.00,\"checked\":true,\"code_hash\":\"00000000000000e5\"}\n"
    "{\"record\":\"regs_time\",\"kernel\":\"g\",\"cap\":40,\"regs\":20,\"blocks_per_sm\":8,"
    "\"median_ms\":1.10,\"checked\":true,\"code_hash\":\"00000000000000e5\"}\n"
    "{\"record\":\"regs_time\",\"kernel\":\"g\",\"cap\":48,\"regs\":20,\"blocks_per_sm\":8,"
    "\"median_ms\":0.90,\"checked\":true,\"code_hash\":\"00000000000000e5\"}\n"
    "{\"record\":\"regs_time\",\"kernel\":\"s\",\"cap\":null,\"regs\":40,\"blocks_per_sm\":6,"
    "\"median_ms\":1.00,\"checked\":true,\"code_hash\":\"00000000000000f6\"}\n"
    "{\"record\":\"regs_time\",\"kernel\":\"s\",\"cap\":32,\"regs\":32,\"blocks_per_sm\":8,"
    "\"median_ms\":0.80,\"checked\":true,\"code_hash\":\"00000000000000f6\"}\n";

/* lab-regs-group-3..4: g's three cubins are one code: each is timed at the
   median of the three, 1.00, and the best is no cap (the tie goes to it):
   no regret for noise. Without grouping 48's 0.90 is the best and no cap
   regrets 11.1 %. s's two cubins share a hash but not their registers
   (32 and 40): two codes, 32 the best at 0.80, no cap 25 % behind. */
static void same_code_test(void **state)
{
    (void)state;
    lab_regs_data d;
    lab_regs_analysis a;
    analyse_text(same_code_records, NULL, LAB_REGS_MEDIAN_MS, 0, true, &d, &a);
    const lab_regs_row *g = row_of(&a, "g");
    assert_int_equal(g->best_cap, LAB_REGS_NO_CAP);
    NEAR(g->best_ms, 1.00);
    NEAR(cap_of(g, 48)->ms, 1.00);
    NEAR(g->none.regret, 0.0);
    assert_int_equal(g->codes, 1);
    const lab_regs_row *s = row_of(&a, "s");
    assert_int_equal(s->best_cap, 32);
    NEAR(s->none.regret, 0.25);
    assert_int_equal(s->codes, 2);
    done(&d, &a);
    analyse_text(same_code_records, NULL, LAB_REGS_MEDIAN_MS, 0, false, &d, &a);
    assert_int_equal(row_of(&a, "g")->best_cap, 48);
    NEAR(row_of(&a, "g")->none.regret, 1.00 / 0.90 - 1);
    assert_false(a.grouped);
    done(&d, &a);
}

/* lab-regs-cand-1: the best measured time among the candidates: no cap
   (1.02), 64 (1.02, its code's) and 48, not measured and scored at the cap
   below, 32 (0.92): 32, approximate, no regret. A candidate list that names
   no measured cap has the first's failure. */
static void candidates_test(void **state)
{
    (void)state;
    lab_regs_data d;
    lab_regs_analysis a;
    analyse_text(rounds_records,
                 "{\"k\": {\"recommended_cap\": null, \"candidates\": [null, 64, {\"cap\": 48}]}}",
                 LAB_REGS_MEDIAN_MS, 0, true, &d, &a);
    const lab_regs_choice *c = &a.rows[0].candidates;
    assert_true(c->present);
    assert_int_equal(c->cap, 32);
    assert_int_equal(c->asked, 48);
    assert_true(c->approximate);
    NEAR(c->regret, 0.0);
    assert_int_equal(c->candidates, 3);
    assert_int_equal(c->candidates_measured, 3);
    assert_true(a.candidates.present);
    done(&d, &a);
    analyse_text(rounds_records, "{\"k\": {\"recommended_cap\": 24, \"candidates\": [24]}}",
                 LAB_REGS_MEDIAN_MS, 0, true, &d, &a);
    c = &a.rows[0].candidates;
    assert_string_equal(c->failure, "hangs");
    assert_true(isinf(c->regret));
    done(&d, &a);
}

/* --- the first H200 run against analyse_regs.py's tables ----------------- */

static void expect_output(const char *expected_file)
{
    char *expected = slurp(test_data_path(expected_file));
    if (strcmp(last.out, expected) != 0) {
        fprintf(stderr, "--- got\n%s--- expected (%s)\n%s", last.out, expected_file, expected);
        fail_msg("the output differs from tests/data/%s", expected_file);
    }
    free(expected);
}

/* lab-regs-oracle-1..5: docs/results/regs-h200/regs-times.jsonl without
   code hashes (no cubins given, so nothing is grouped) gives, byte for byte,
   what analyse_regs.py printed (tests/data/lab-regs/README.md): by the
   median and by the min, as Markdown, without recommendations, and with the
   committed recommended-v1.json (a mapping of lists) read as the plain
   mapping. */
static void oracle_test(void **state)
{
    (void)state;
    char records[512], caps[512], listed[512];
    snprintf(records, sizeof records, "%s",
             test_data_path("../../docs/results/regs-h200/regs-times.jsonl"));
    snprintf(caps, sizeof caps, "%s", test_data_path("lab-regs/recommended-v1-caps.json"));
    snprintf(listed, sizeof listed, "%s",
             test_data_path("../../docs/results/regs-h200/recommended-v1.json"));
    assert_int_equal(OCC(NULL, "lab", "regs", "--records", records, "--recommended", caps),
                     EXIT_OK);
    expect_output("lab-regs/regret-v1.txt");
    assert_int_equal(
        OCC(NULL, "lab", "regs", "--records", records, "--recommended", caps, "--metric", "min_ms"),
        EXIT_OK);
    expect_output("lab-regs/regret-v1-min.txt");
    assert_int_equal(
        OCC(NULL, "lab", "regs", "--records", records, "--recommended", caps, "--markdown"),
        EXIT_OK);
    expect_output("lab-regs/regret-v1.md");
    assert_int_equal(OCC(NULL, "lab", "regs", "--records", records), EXIT_OK);
    expect_output("lab-regs/regret-v1-no-recommendation.txt");
    assert_int_equal(OCC(NULL, "lab", "regs", "--records", records, "--recommended", listed),
                     EXIT_OK);
    expect_output("lab-regs/regret-v1.txt");
}

/* Every key of a JSON value and its children is named in `section`, quoted
   or in backticks. */
static void keys_documented(json_t *v, const char *section)
{
    const char *key;
    json_t *child;
    size_t i;
    if (json_is_object(v)) {
        json_object_foreach(v, key, child)
        {
            char quoted[128], ticked[128];
            snprintf(quoted, sizeof quoted, "\"%s\"", key);
            snprintf(ticked, sizeof ticked, "`%s`", key);
            if (strstr(section, quoted) == NULL && strstr(section, ticked) == NULL) {
                fail_msg("docs/lab.md's occ lab regs output does not name %s", quoted);
            }
            keys_documented(child, section);
        }
    } else if (json_is_array(v)) {
        json_array_foreach(v, i, child)
        {
            keys_documented(child, section);
        }
    }
}

/* lab-regs-json-1: the occ.lab.regs document: schema, version, a kernel's
   choices, an infinite regret as null beside its failure; every field named
   in docs/lab.md. */
static void json_test(void **state)
{
    (void)state;
    const char *records = write_file("json/records.jsonl", rounds_records);
    const char *rec = write_file("json/rec.json", "{\"k\": 24}");
    assert_int_equal(OCC(NULL, "lab", "regs", "--records", records, "--recommended", rec, "--json"),
                     EXIT_OK);
    json_error_t jerr;
    json_t *doc = json_loads(last.out, 0, &jerr);
    assert_non_null(doc);
    assert_string_equal(json_string_value(json_object_get(doc, "schema")), "occ.lab.regs");
    assert_int_equal(json_integer_value(json_object_get(doc, "version")), 1);
    assert_true(json_is_true(json_object_get(doc, "grouped")));
    json_t *k = json_array_get(json_object_get(doc, "kernels"), 0);
    assert_string_equal(json_string_value(json_object_get(k, "kernel")), "k");
    assert_int_equal(json_integer_value(json_object_get(k, "best_cap")), 32);
    json_t *rec_choice = json_object_get(k, "recommended");
    assert_true(json_is_null(json_object_get(rec_choice, "regret")));
    assert_string_equal(json_string_value(json_object_get(rec_choice, "failure")), "hangs");
    assert_string_equal(json_string_value(json_object_get(k, "miss")), "cap 24 hangs");
    json_t *caps = json_object_get(k, "caps");
    assert_int_equal(json_array_size(caps), 4);
    json_t *same = json_array_get(caps, 1); /* no cap first, then 64 */
    assert_int_equal(json_integer_value(json_object_get(same, "cap")), 64);
    assert_true(json_is_false(json_object_get(same, "timed")));
    assert_true(json_is_null(json_object_get(same, "code_of_cap")));
    json_decref(doc);

    const char *rec_candidates = write_file("json/cand.json", "{\"k\": {\"recommended_cap\": 64, "
                                                              "\"candidates\": [32]}}");
    assert_int_equal(
        OCC(NULL, "lab", "regs", "--records", records, "--recommended", rec_candidates, "--json"),
        EXIT_OK);
    doc = json_loads(last.out, 0, &jerr);
    assert_non_null(doc);
    char *guide = slurp(test_data_path("../../docs/lab.md"));
    char *section = strstr(guide, "## `occ lab regs`");
    assert_non_null(section);
    char *end = strstr(section, "### Records");
    assert_non_null(end);
    *end = '\0';
    keys_documented(doc, section);
    free(guide);
    json_decref(doc);
}

/* lab-regs-text-1: the text shows the grouping and the rounds in a line
   each, the candidates' column where there are candidates, and --per-cap
   every cap with its status. */
static void text_test(void **state)
{
    (void)state;
    const char *records = write_file("text/records.jsonl", rounds_records);
    const char *rec =
        write_file("text/rec.json", "{\"k\": {\"recommended_cap\": 64, \"candidates\": [32]}}");
    assert_int_equal(
        OCC(NULL, "lab", "regs", "--records", records, "--recommended", rec, "--per-cap"), EXIT_OK);
    assert_non_null(strstr(last.out, "cand cap  cand blk  cand ms  cand regret"));
    assert_non_null(strstr(last.out, "rounds: a cubin timed up to 2 times is timed as the median "
                                     "of its rounds' median_ms\n"));
    assert_non_null(strstr(last.out, "code: 4 cubins are 3 distinct machine codes"));
    assert_non_null(strstr(last.out, "the best of the candidates: median regret 0.0%, max 0.0% "
                                     "over 1 kernels\n"));
    assert_non_null(strstr(last.out, "k: 10.9% from the best (cap 32)\n"));
    assert_non_null(strstr(last.out, "not timed: its code timed at cap none"));
    assert_non_null(strstr(last.out, "24    24"));
}

/* --- refusals ------------------------------------------------------------- */

/* lab-regs-refuse-1..12: a malformed record is one line naming the file, the
   line and the value, exit 1. */
static void refusal_test(void **state)
{
    (void)state;
    static const struct {
        const char *line;
        const char *message;
    } cases[] = {
        {"{oops", "bad.jsonl: line 1: not a JSON object ("},
        {"[1]", "bad.jsonl: line 1: not a JSON object (another JSON value)"},
        {"{\"kernel\":\"k\"}", "bad.jsonl: line 1: no \"record\" kind"},
        {"{\"record\":\"regs_time\",\"kernel\":\"k\",\"cap\":300}",
         "line 1: regs_time field 'cap' is 300; it must be null (no cap) or a whole number from "
         "1 to 255"},
        {"{\"record\":\"regs_time\",\"kernel\":\"k\",\"cap\":\"40\"}",
         "regs_time field 'cap' is a value that is not a whole number; it must be null"},
        {"{\"record\":\"regs_time\",\"kernel\":\"k\"}", "regs_time record has no field 'cap'"},
        {"{\"record\":\"regs_time\",\"kernel\":\"a/b\",\"cap\":null}",
         "regs_time field 'kernel' is 'a/b'; it must be a name without '/'"},
        {"{\"record\":\"regs_time\",\"kernel\":\"k\",\"cap\":null,\"code_hash\":\"xyz\"}",
         "regs_time field 'code_hash' is 'xyz'; it must be 16 hex digits"},
        {"{\"record\":\"regs_time\",\"kernel\":\"k\",\"cap\":null,\"round\":0}",
         "regs_time field 'round' is 0; it must be from 1 to 100"},
        {"{\"record\":\"regs_time\",\"kernel\":\"k\",\"cap\":null,\"median_ms\":-1}",
         "regs_time field 'median_ms' is -1; a measured time must be above 0"},
        {"{\"record\":\"regs_time\",\"kernel\":\"k\",\"cap\":null,\"checked\":\"yes\"}",
         "regs_time field 'checked' is not true or false"},
        {"{\"record\":\"regs_time\",\"kernel\":\"k\",\"cap\":null,\"arch\":\"sm_x\"}",
         "regs_time field 'arch' is 'sm_x'; it must be sm_ and a compute capability"},
        {"{\"record\":\"regs_same\",\"kernel\":\"k\",\"cap\":40,\"cubin\":\"k.cap040.cubin\","
         "\"same_as_cap\":40}",
         "regs_same record of kernel k says cap 40 is the same as itself"},
        {"{\"record\":\"regs_same\",\"kernel\":\"k\",\"cap\":40,\"same_as_cap\":null}",
         "regs_same record has no field 'cubin'"},
        {"{\"record\":\"regs_header\",\"rounds\":1000}",
         "regs_header field 'rounds' is 1000; it must be from 1 to 100"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "%s\n", cases[i].line);
        const char *path = write_file("bad.jsonl", text);
        assert_int_equal(OCC(NULL, "lab", "regs", "--records", path), EXIT_DATA);
        assert_int_equal(line_count(last.err), 1);
        if (strstr(last.err, cases[i].message) == NULL) {
            fail_msg("case %zu: '%s' lacks '%s'", i, last.err, cases[i].message);
        }
    }
    /* a timed cubin that a regs_same record of the same file says was not */
    const char *both = write_file(
        "both.jsonl",
        "{\"record\":\"regs_time\",\"kernel\":\"k\",\"cap\":40,\"median_ms\":1,\"checked\":true}\n"
        "{\"record\":\"regs_same\",\"kernel\":\"k\",\"cap\":40,\"cubin\":\"k.cap040.cubin\","
        "\"same_as_cap\":null}\n");
    assert_int_equal(OCC(NULL, "lab", "regs", "--records", both), EXIT_DATA);
    assert_non_null(strstr(last.err, "both.jsonl: line 1: kernel k at cap 40 is timed, but line "
                                     "2 says it was not (regs_same)"));
    /* no kernel records; a run that failed as a whole */
    const char *empty = write_file("empty.jsonl", "{\"record\":\"regs_done\"}\n");
    assert_int_equal(OCC(NULL, "lab", "regs", "--records", empty), EXIT_DATA);
    assert_non_null(strstr(last.err, "empty.jsonl: no regs_time or regs_error records"));
    const char *init = write_file("init.jsonl", "{\"record\":\"regs_error\",\"stage\":\"init\","
                                                "\"error\":\"no CUDA GPU to measure on\"}\n");
    assert_int_equal(OCC(NULL, "lab", "regs", "--records", init), EXIT_DATA);
    assert_non_null(strstr(last.err, "the run failed (init: no CUDA GPU to measure on)"));
    /* a line without end (/dev/zero) stops at the limit */
    assert_int_equal(OCC(NULL, "lab", "regs", "--records", "/dev/zero"), EXIT_DATA);
    assert_non_null(strstr(last.err, "/dev/zero: line 1: longer than the limit of 65536 bytes"));
}

/* lab-regs-refuse-13: records of two GPUs in one analysis. */
static void two_gpus_test(void **state)
{
    (void)state;
    const char *a = write_file("gpu/a.jsonl", "{\"record\":\"regs_header\",\"device\":\"H200\"}\n"
                                              "{\"record\":\"regs_time\",\"kernel\":\"k\","
                                              "\"cap\":null,\"median_ms\":1,\"checked\":true}\n");
    const char *b = write_file("gpu/b.jsonl", "{\"record\":\"regs_header\",\"device\":\"A100\"}\n");
    assert_int_equal(OCC(NULL, "lab", "regs", "--records", a, b), EXIT_DATA);
    assert_non_null(strstr(last.err, "b.jsonl: line 1: records of another GPU: 'A100', where the "
                                     "first file's are of 'H200'"));
}

/* --- the recommendations' forms ------------------------------------------- */

static const char *doc_of(const char *name, const char *cap)
{
    static char text[4][256];
    static int next;
    char *t = text[next++ % 4];
    snprintf(t, 256,
             "{\"schema\": \"occ.regs\", \"version\": 1, \"kernels\": [{\"name\": \"%s\", "
             "\"recommended_cap\": %s, \"caps\": []}]}",
             name, cap);
    return t;
}

/* Records of kernels alpha and beta, for the forms below. */
static void two_kernels(lab_regs_data *d)
{
    cli_error err;
    assert_true(read_text("{\"record\":\"regs_time\",\"kernel\":\"alpha\",\"cap\":null}\n"
                          "{\"record\":\"regs_time\",\"kernel\":\"beta\",\"cap\":null}\n",
                          d, &err));
}

static void expect_caps(const lab_regs_data *d, int alpha, int beta)
{
    assert_true(d->kernels[0].has_recommendation && d->kernels[1].has_recommendation);
    assert_int_equal(d->kernels[0].recommended_cap, alpha);
    assert_int_equal(d->kernels[1].recommended_cap, beta);
}

/* lab-regs-format-1..9: a plain mapping (0 is no cap); a folder of NAME.json
   documents of a kernel named "kernel"; a mapping of documents and of
   entries; one document of named kernels; a mapping of lists of entries;
   and the refusals: one document of a kernel named "kernel", a cap of 300,
   not JSON, candidates that are not caps. */
static void formats_test(void **state)
{
    (void)state;
    lab_regs_data d;
    cli_error err;
    two_kernels(&d);
    assert_true(lab_regs_recommended_load(write_file("m.json", "{\"alpha\": 64, \"beta\": 0}"),
                                          NULL, &d, &err));
    expect_caps(&d, 64, LAB_REGS_NO_CAP);
    lab_regs_data_free(&d);

    two_kernels(&d);
    write_file("docs/alpha.json", doc_of("kernel", "72"));
    write_file("docs/beta.json", doc_of("kernel", "null"));
    write_file("docs/notes.txt", "ignored");
    char docs[128];
    snprintf(docs, sizeof docs, "%s/docs", dir);
    assert_true(lab_regs_recommended_load(docs, NULL, &d, &err));
    expect_caps(&d, 72, LAB_REGS_NO_CAP);
    lab_regs_data_free(&d);

    two_kernels(&d);
    char text[1024];
    snprintf(text, sizeof text, "{\"alpha\": %s, \"beta\": {\"recommended_cap\": 40}}",
             doc_of("kernel", "48"));
    assert_true(lab_regs_recommended_parse(text, strlen(text), "m", NULL, &d, &err));
    expect_caps(&d, 48, 40);
    lab_regs_data_free(&d);

    two_kernels(&d);
    const char *named = "{\"schema\": \"occ.regs\", \"kernels\": [{\"name\": \"alpha\", "
                        "\"recommended_cap\": 64}, {\"name\": \"beta\", \"recommended_cap\": "
                        "null}]}";
    assert_true(lab_regs_recommended_parse(named, strlen(named), "d", NULL, &d, &err));
    expect_caps(&d, 64, LAB_REGS_NO_CAP);
    lab_regs_data_free(&d);

    two_kernels(&d);
    const char *listed = "{\"alpha\": [{\"kernel\": \"kernel\", \"recommended_cap\": 32}], "
                         "\"beta\": [{\"kernel\": \"kernel\", \"recommended_cap\": null}]}";
    assert_true(lab_regs_recommended_parse(listed, strlen(listed), "l", NULL, &d, &err));
    expect_caps(&d, 32, LAB_REGS_NO_CAP);
    lab_regs_data_free(&d);

    static const struct {
        const char *text, *message;
    } bad[] = {
        {"{\"schema\": \"occ.regs\", \"kernels\": [{\"name\": \"kernel\", \"recommended_cap\": "
         "64}]}",
         "r: one occ.regs document names its kernel 'kernel'; give one document a kernel"},
        {"{\"alpha\": 300}", "r: alpha: recommended cap 300 is not null or 1..255"},
        {"{", "r: not JSON: "},
        {"{\"alpha\": {\"recommended_cap\": 32, \"candidates\": [\"x\"]}}",
         "r: alpha: candidates[0] \"x\" is not null or 1..255"},
        {"{\"alpha\": {\"candidates\": []}}", "r: alpha: a kernel without recommended_cap"},
        {"[64]", "r: neither a mapping of kernels nor an occ.regs document"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        two_kernels(&d);
        assert_false(
            lab_regs_recommended_parse(bad[i].text, strlen(bad[i].text), "r", NULL, &d, &err));
        assert_int_equal(err.code, EXIT_DATA);
        if (strstr(err.message, bad[i].message) == NULL) {
            fail_msg("case %zu: '%s' lacks '%s'", i, err.message, bad[i].message);
        }
        lab_regs_data_free(&d);
    }
}

/* --- the code hash ---------------------------------------------------------- */

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h = (h ^ ((const unsigned char *)p)[i]) * 0x100000001b3ull;
    }
    return h;
}

static void put(unsigned char *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++) {
        p[i] = (unsigned char)(v >> (8 * i));
    }
}

/* A cubin of five sections: null, .shstrtab, .text.k (16 bytes, sh_info 8),
   the module's .nv.info with a REGCOUNT record (symbol 3, `regs`), and the
   function's .nv.info.k with a MAXREG_COUNT record (the cap ptxas was
   given). 640 bytes. */
static void build_cubin(unsigned char *elf, int regs, int cap)
{
    static const char names[] = "\0.shstrtab\0.text.k\0.nv.info\0.nv.info.k";
    memset(elf, 0, 640);
    memcpy(elf, "\177ELF", 4);
    elf[4] = 2;              /* 64-bit */
    elf[5] = 1;              /* little-endian */
    put(elf + 0x28, 256, 8); /* e_shoff */
    put(elf + 0x3a, 64, 2);  /* e_shentsize */
    put(elf + 0x3c, 5, 2);   /* e_shnum */
    put(elf + 0x3e, 1, 2);   /* e_shstrndx */
    memcpy(elf + 64, names, sizeof names);
    for (int i = 0; i < 16; i++) {
        elf[128 + i] = (unsigned char)(0xA0 + i); /* the code */
    }
    unsigned char *info = elf + 160;
    info[0] = 0x04, info[1] = 0x2f; /* SVAL REGCOUNT: [symbol, registers] */
    put(info + 2, 8, 2);
    put(info + 4, 3, 4);
    put(info + 8, (uint64_t)regs, 4);
    unsigned char *own = elf + 192;
    own[0] = 0x03, own[1] = 0x1b; /* HVAL MAXREG_COUNT */
    put(own + 2, (uint64_t)cap, 2);
    const struct {
        int name, type, info;
        int offset, size;
    } sh[5] = {{0, 0, 0, 0, 0},
               {1, 3, 0, 64, (int)sizeof names},
               {11, 1, 8, 128, 16},
               {19, 0x70000000, 0, 160, 12},
               {28, 0x70000000, 0, 192, 4}};
    for (int i = 0; i < 5; i++) {
        unsigned char *h = elf + 256 + 64 * i;
        put(h, (uint64_t)sh[i].name, 4);
        put(h + 4, (uint64_t)sh[i].type, 4);
        put(h + 0x18, (uint64_t)sh[i].offset, 8);
        put(h + 0x20, (uint64_t)sh[i].size, 8);
        put(h + 0x2c, (uint64_t)sh[i].info, 4);
    }
}

/* lab-regs-hash-1..6: the hash is FNV-1a over .text.k's name, sh_info and
   bytes, then the module .nv.info's (worked out here from the bytes
   themselves); another register count changes it, another cap (in the
   function's .nv.info.k) does not, another instruction does; a file that is
   not an ELF64 file, or whose section table lies outside it, hashes to 0;
   a section whose bytes lie outside the file is hashed by its name alone. */
static void code_hash_test(void **state)
{
    (void)state;
    unsigned char elf[640];
    build_cubin(elf, 40, 64);
    const uint64_t start = 0xcbf29ce484222325ull;
    uint64_t text = fnv(fnv(fnv(start, ".text.k", 7), "\x08\0\0\0", 4), elf + 128, 16);
    uint64_t h = fnv(fnv(fnv(text, ".nv.info", 8), "\0\0\0\0", 4), elf + 160, 12);
    assert_true(lab_regs_code_hash(elf, sizeof elf) == h);
    build_cubin(elf, 40, 255);
    assert_true(lab_regs_code_hash(elf, sizeof elf) == h);
    build_cubin(elf, 48, 64);
    assert_true(lab_regs_code_hash(elf, sizeof elf) != h);
    build_cubin(elf, 40, 64);
    elf[130] ^= 1;
    assert_true(lab_regs_code_hash(elf, sizeof elf) != h);
    assert_true(lab_regs_code_hash(elf, 64) == 0);
    assert_true(lab_regs_code_hash((const unsigned char *)"not an ELF file at all, but long "
                                                          "enough to be read as one: 64 bytes..",
                                   64) == 0);
    build_cubin(elf, 40, 64);
    put(elf + 0x28, 400, 8); /* five headers from 400 run past 640 */
    assert_true(lab_regs_code_hash(elf, sizeof elf) == 0);
    build_cubin(elf, 40, 64);
    put(elf + 256 + 3 * 64 + 0x18, 4000, 8); /* .nv.info's bytes past the end */
    assert_true(lab_regs_code_hash(elf, sizeof elf) ==
                fnv(fnv(text, ".nv.info", 8), "\0\0\0\0", 4));
}

/* lab-regs-hash-7: --cubins gives records without code hashes the hash of
   their cubins: two cubins of equal code and registers are one code, and a
   missing cubin is named. */
static void cubins_option_test(void **state)
{
    (void)state;
    unsigned char elf[640];
    char path[256];
    const char *names[] = {"k.none.cubin", "k.cap040.cubin", "k.cap032.cubin"};
    for (int i = 0; i < 3; i++) {
        build_cubin(elf, i < 2 ? 40 : 32, i == 0 ? 255 : 40);
        snprintf(path, sizeof path, "%s/cubins", dir);
        mkdir(path, 0777);
        snprintf(path, sizeof path, "%s/cubins/%s", dir, names[i]);
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        assert_int_equal(fwrite(elf, 1, sizeof elf, f), sizeof elf);
        fclose(f);
    }
    const char *records = write_file(
        "cubins.jsonl",
        "{\"record\":\"regs_time\",\"kernel\":\"k\",\"cap\":null,\"regs\":40,\"median_ms\":1.0,"
        "\"checked\":true,\"cubin\":\"k.none.cubin\"}\n"
        "{\"record\":\"regs_time\",\"kernel\":\"k\",\"cap\":40,\"regs\":40,\"median_ms\":0.9,"
        "\"checked\":true}\n"
        "{\"record\":\"regs_time\",\"kernel\":\"k\",\"cap\":32,\"regs\":32,\"median_ms\":1.2,"
        "\"checked\":true}\n");
    char cubins[128];
    snprintf(cubins, sizeof cubins, "%s/cubins", dir);
    assert_int_equal(OCC(NULL, "lab", "regs", "--records", records, "--cubins", cubins), EXIT_OK);
    /* none and 40 are one code at the median of 1.0 and 0.9: 0.95 */
    assert_non_null(strstr(last.out, "code: 3 cubins are 2 distinct machine codes"));
    assert_non_null(strstr(last.out, "k       none  0.9500"));
    unlink(path); /* k.cap032.cubin */
    assert_int_equal(OCC(NULL, "lab", "regs", "--records", records, "--cubins", cubins), EXIT_DATA);
    assert_non_null(strstr(last.err, "option --cubins: kernel k at cap 32: "));
    assert_non_null(strstr(last.err, "k.cap032.cubin: cannot open: No such file or directory"));
}

/* --- the run -------------------------------------------------------------- */

/* A stand-in occ-regs-bench: writes its arguments to dir/args and prints
   dir/out, then exits with `status`. */
static const char *fake_bench(int status)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/bench.sh", dir);
    char body[1024];
    snprintf(body, sizeof body,
             "#!/bin/sh\necho \"$@\" > '%s/args'\necho progress >&2\ncat '%s/out'\nexit %d\n", dir,
             dir, status);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(body, f);
    fclose(f);
    assert_int_equal(chmod(path, 0755), 0);
    return path;
}

/* lab-regs-run-1..5: occ lab regs runs occ-regs-bench with --rounds,
   --distinct, the table and the cubins, keeps its records (--save) and
   scores them; without a runner, without cubins and without a GPU it says
   so in one line and exits 1; options of a run with --records are usage
   errors. */
static void bench_run_test(void **state)
{
    (void)state;
    char cubins[128], saved[128], args_file[128];
    snprintf(cubins, sizeof cubins, "%s/run-cubins", dir);
    snprintf(saved, sizeof saved, "%s/saved.jsonl", dir);
    snprintf(args_file, sizeof args_file, "%s/args", dir);
    mkdir(cubins, 0777);
    const char *table = write_file("kernels.tsv", "name\tfile\n");
    write_file("out", rounds_records);
    setenv("OCC_REGS_BENCH", fake_bench(0), 1);
    assert_int_equal(OCC(NULL, "lab", "regs", "--cubins", cubins, "--kernels", table, "--rounds",
                         "2", "--distinct", "--save", saved),
                     EXIT_OK);
    char *args = slurp(args_file);
    char expected[512];
    snprintf(expected, sizeof expected, "--rounds 2 --distinct %s %s\n", table, cubins);
    assert_string_equal(args, expected);
    free(args);
    char *kept = slurp(saved);
    assert_string_equal(kept, rounds_records);
    free(kept);
    assert_non_null(strstr(last.out, "k       32    0.9200"));

    write_file("out", "{\"record\":\"regs_error\",\"stage\":\"init\",\"error\":\"no CUDA GPU to "
                      "measure on: CUDA_ERROR_NO_DEVICE\"}\n");
    setenv("OCC_REGS_BENCH", fake_bench(1), 1);
    assert_int_equal(OCC(NULL, "lab", "regs", "--cubins", cubins, "--kernels", table), EXIT_DATA);
    assert_int_equal(line_count(last.err), 1);
    assert_non_null(strstr(last.err, "occ lab regs: no CUDA GPU present (no CUDA GPU to measure "
                                     "on: CUDA_ERROR_NO_DEVICE)"));

    setenv("OCC_REGS_BENCH", "/nonexistent/occ-regs-bench", 1);
    assert_int_equal(OCC(NULL, "lab", "regs", "--cubins", cubins, "--kernels", table), EXIT_DATA);
    assert_non_null(strstr(last.err, "occ-regs-bench is not built (no executable "
                                     "/nonexistent/occ-regs-bench;"));
    assert_int_equal(OCC(NULL, "lab", "regs", "--cubins", "/nonexistent/cubins"), EXIT_DATA);
    assert_non_null(strstr(last.err, "no cubins in /nonexistent/cubins (tests/gpu/run_regs_lab.sh "
                                     "compiles them; or give --cubins DIR)"));
    unsetenv("OCC_REGS_BENCH");
}

/* lab-regs-usage-1..7: usage errors exit 2 with one line and the hint. */
static void usage_test(void **state)
{
    (void)state;
    const char *r = write_file("usage.jsonl", rounds_records);
    static const struct {
        const char *args[6];
        const char *message;
    } cases[] = {
        {{"--records", "R", "--rounds", "2"},
         "option --rounds: is for a run; with --records nothing is run"},
        {{"--records", "R", "--gpu", "H200"}, "option --gpu: is the GPU of --ptx's occupancy"},
        {{"--records", "R", "--ptx", "p", "--recommended", "q"},
         "options --recommended and --ptx: give one"},
        {{"R"}, "': record files follow --records; without it occ lab regs times on the GPU"},
        {{"--records", "R", "--json", "--markdown"}, "options --json and --markdown: give one"},
        {{"--records", "R", "--metric", "mean_ms"},
         "option --metric: 'mean_ms' is not median_ms "
         "or min_ms"},
        {{"--records", "R", "--tolerance", "2"}, "option --tolerance: '2' is above the maximum"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *argv[10] = {"lab", "regs"};
        int n = 2;
        for (int j = 0; j < 6 && cases[i].args[j] != NULL; j++) {
            argv[n++] = strcmp(cases[i].args[j], "R") == 0 ? r : cases[i].args[j];
        }
        argv[n] = NULL;
        assert_int_equal(run_cli(NULL, argv), EXIT_USAGE);
        if (strstr(last.err, cases[i].message) == NULL) {
            fail_msg("case %zu: '%s' lacks '%s'", i, last.err, cases[i].message);
        }
        assert_int_equal(line_count(last.err), 2); /* the line and the --help hint */
    }
    assert_int_equal(OCC(NULL, "lab", "regs", "--help"), EXIT_OK);
    assert_true(starts_with(last.out, "occ lab regs - time every register cap"));
    assert_non_null(strstr(last.out, "--records FILE"));
    /* the description's lines, after the usage to the options: at most 80 */
    const char *text = strstr(strstr(last.out, "usage:"), "\n\n") + 2;
    const char *options = strstr(text, "\noptions:");
    assert_non_null(options);
    for (const char *end; text < options; text = end + 1) {
        end = text + strcspn(text, "\n");
        assert_true(end - text <= 80);
    }
    assert_int_equal(OCC(NULL, "lab", "--help"), EXIT_OK);
    assert_non_null(strstr(last.out, "  regs       every register cap"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(regret_test),      cmocka_unit_test(error_words_test),
        cmocka_unit_test(recommended_test), cmocka_unit_test(goals_met_test),
        cmocka_unit_test(min_metric_test),  cmocka_unit_test(tolerance_test),
        cmocka_unit_test(rounds_test),      cmocka_unit_test(round_files_test),
        cmocka_unit_test(same_code_test),   cmocka_unit_test(candidates_test),
        cmocka_unit_test(oracle_test),      cmocka_unit_test(json_test),
        cmocka_unit_test(text_test),        cmocka_unit_test(refusal_test),
        cmocka_unit_test(two_gpus_test),    cmocka_unit_test(formats_test),
        cmocka_unit_test(code_hash_test),   cmocka_unit_test(cubins_option_test),
        cmocka_unit_test(bench_run_test),   cmocka_unit_test(usage_test),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
