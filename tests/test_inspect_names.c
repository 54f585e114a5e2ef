/*
 * test_inspect_names.c - the names table of `occ inspect` (inspect/engine/names.c) and the
 * row order built on it:
 *   - a name added again, from any thread, gives back the one copy (names-once,
 *     names-threads), also past the table's growth (names-grow);
 *   - every name is demangled as inspect_demangle demangles it, C names stay as they are,
 *     and ranks follow strcmp of the printed names, equal printed names sharing one
 *     (names-rank);
 *   - `occ inspect` lists rows in the order each --sort promises, checked on its JSON
 *     against strcmp of the printed names, not against the ranks (order-cli; needs the
 *     nvcc fixtures, tests/inspect/make_fixtures.sh).
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "cli_harness.h"
#include "engine.h"

static const inspect_name *add(inspect_names *t, const char *name)
{
    const inspect_name *n =
        inspect_names_add(t, name, strlen(name), inspect_name_hash(name, strlen(name)));
    assert_non_null(n);
    return n;
}

/* names-once: one copy per distinct name; a prefix or a longer name is another name. */
static void names_once_test(void **state)
{
    (void)state;
    inspect_names *t = inspect_names_create();
    assert_non_null(t);
    const inspect_name *a = add(t, "_Z4fillPfi");
    assert_ptr_equal(add(t, "_Z4fillPfi"), a);
    assert_string_equal(a->mangled, "_Z4fillPfi");
    assert_int_equal(a->length, strlen("_Z4fillPfi"));
    const inspect_name *prefix = add(t, "_Z4fill");
    const inspect_name *longer = add(t, "_Z4fillPfii");
    assert_ptr_not_equal(prefix, a);
    assert_ptr_not_equal(longer, a);
    /* names need not be NUL-terminated where they are read (ptxas logs) */
    const char log_line[] = "_Z4fillPfi'";
    assert_ptr_equal(inspect_names_add(t, log_line, 10, inspect_name_hash(log_line, 10)), a);
    assert_int_equal(inspect_names_count(t), 3);
    inspect_names_free(t);
}

/* names-grow: thousands of names, each found again after the shards grew. */
static void names_grow_test(void **state)
{
    (void)state;
    enum { COUNT = 20000 };
    inspect_names *t = inspect_names_create();
    const inspect_name **first = malloc(COUNT * sizeof *first);
    assert_non_null(first);
    char name[32];
    for (int i = 0; i < COUNT; i++) {
        snprintf(name, sizeof name, "kernel_%d", i);
        first[i] = add(t, name);
    }
    for (int i = 0; i < COUNT; i++) {
        snprintf(name, sizeof name, "kernel_%d", i);
        assert_ptr_equal(add(t, name), first[i]);
        assert_string_equal(first[i]->mangled, name);
    }
    assert_int_equal(inspect_names_count(t), COUNT);
    free(first);
    inspect_names_free(t);
}

/* names-threads: eight threads add the same 4,000 names in different orders. */
enum { THREADS = 8, SHARED_NAMES = 4000 };
typedef struct adder {
    inspect_names *t;
    int start;
    const inspect_name *got[SHARED_NAMES];
    pthread_t thread;
} adder;

static void *add_all(void *context)
{
    adder *a = context;
    char name[32];
    for (int k = 0; k < SHARED_NAMES; k++) {
        int i = (a->start + k * 7) % SHARED_NAMES; /* 7 is coprime to 4000 */
        snprintf(name, sizeof name, "_Z6kernelILi%dEEvv", i);
        a->got[i] =
            inspect_names_add(a->t, name, strlen(name), inspect_name_hash(name, strlen(name)));
    }
    return NULL;
}

static void names_threads_test(void **state)
{
    (void)state;
    inspect_names *t = inspect_names_create();
    adder *adders = calloc(THREADS, sizeof *adders);
    assert_non_null(adders);
    for (int i = 0; i < THREADS; i++) {
        adders[i].t = t;
        adders[i].start = i * 500;
        assert_int_equal(pthread_create(&adders[i].thread, NULL, add_all, &adders[i]), 0);
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(adders[i].thread, NULL);
    }
    assert_int_equal(inspect_names_count(t), SHARED_NAMES);
    for (int k = 0; k < SHARED_NAMES; k++) {
        assert_non_null(adders[0].got[k]);
        for (int i = 1; i < THREADS; i++) {
            assert_ptr_equal(adders[i].got[k], adders[0].got[k]);
        }
    }
    free(adders);
    inspect_names_free(t);
}

/* names-rank: demangled as inspect_demangle does; ranks in strcmp order of the printed names. */
static void names_rank_test(void **state)
{
    (void)state;
    const char *const mangled[] = {"_Z4fillPfi",
                                   "_ZL1fv",
                                   "_Z1fv",
                                   "cublasLtKernel",
                                   "_Z5scaleIfEvPT_S0_",
                                   "_Z1gv",
                                   "_Z4fillPdi",
                                   "__cuda_sm_helper",
                                   "_ZN2at6native6kernelEv",
                                   "zeta"};
    enum { N = sizeof mangled / sizeof mangled[0] };
    for (int jobs = 1; jobs <= 3; jobs += 2) {
        inspect_names *t = inspect_names_create();
        const inspect_name *n[N];
        for (int i = 0; i < N; i++) {
            n[i] = add(t, mangled[i]);
        }
        assert_true(inspect_names_finish(t, true, jobs));
        for (int i = 0; i < N; i++) {
            char *expected = inspect_demangle(mangled[i]);
            if (expected == NULL) {
                assert_ptr_equal(n[i]->printed, n[i]->mangled); /* a C name */
            } else {
                assert_string_equal(n[i]->printed, expected);
                free(expected);
            }
        }
        /* _ZL1fv (internal linkage) and _Z1fv both print as f() */
        assert_string_equal(n[1]->printed, n[2]->printed);
        for (int i = 0; i < N; i++) {
            for (int k = 0; k < N; k++) {
                int by_text = strcmp(n[i]->printed, n[k]->printed);
                int by_rank = (n[i]->rank > n[k]->rank) - (n[i]->rank < n[k]->rank);
                assert_int_equal(by_rank, (by_text > 0) - (by_text < 0));
            }
        }
        inspect_names_free(t);
    }
    /* --mangled: nothing demangled, ranks by the raw names */
    inspect_names *t = inspect_names_create();
    const inspect_name *f = add(t, "_Z1fv");
    const inspect_name *c = add(t, "cublasLtKernel");
    assert_true(inspect_names_finish(t, false, 2));
    assert_ptr_equal(f->printed, f->mangled);
    assert_true(f->rank < c->rank); /* '_' (0x5F) sorts before 'c' */
    inspect_names_free(t);
}

/* ------------------------------------------------------------------------ */
/* order-cli                                                                */
/* ------------------------------------------------------------------------ */

static const char *fixtures;

static int json_int(json_t *fn, const char *key)
{
    return (int)json_integer_value(json_object_get(fn, key));
}

/* Ties break by the printed name first (docs/inspect.md), as strcmp orders it. */
static int tie(json_t *a, json_t *b)
{
    return strcmp(json_string_value(json_object_get(a, "name")),
                  json_string_value(json_object_get(b, "name")));
}

/* Occupancy of a row, or 2 (after every real one) where it has none. */
static double occupancy_of(json_t *fn)
{
    json_t *occ = json_object_get(fn, "occupancy");
    return json_is_object(occ) ? json_real_value(json_object_get(occ, "occupancy")) : 2.0;
}

static void order_cli_test(void **state)
{
    (void)state;
    const char *sorts[] = {"occupancy", "regs", "smem", "name"};
    const char *names[] = {"--mangled", "--functions"}; /* raw and demangled names */
    for (size_t s = 0; s < sizeof sorts / sizeof sorts[0]; s++) {
        for (size_t m = 0; m < 2; m++) {
            char path[3][512];
            snprintf(path[0], sizeof path[0], "%s/libextra.so", fixtures);
            snprintf(path[1], sizeof path[1], "%s/all.fatbin", fixtures);
            snprintf(path[2], sizeof path[2], "%s/app", fixtures);
            assert_int_equal(OCC(NULL, "inspect", "--json", "--sort", sorts[s], names[m], "--jobs",
                                 "3", path[0], path[1], path[2]),
                             0);
            json_error_t jerr;
            json_t *doc = json_loads(last.out, 0, &jerr);
            if (doc == NULL) {
                fail_msg("JSON: %s at line %d", jerr.text, jerr.line);
            }
            json_t *rows = json_object_get(doc, "functions");
            assert_true(json_array_size(rows) >= 20);
            for (size_t i = 1; i < json_array_size(rows); i++) {
                json_t *a = json_array_get(rows, i - 1);
                json_t *b = json_array_get(rows, i);
                int key;
                if (s == 0) {
                    double x = occupancy_of(a);
                    double y = occupancy_of(b);
                    key = (x > y) - (x < y);
                } else if (s == 1) {
                    key = json_int(b, "regs") - json_int(a, "regs");
                } else if (s == 2) {
                    key = json_int(b, "smem_bytes") - json_int(a, "smem_bytes");
                } else {
                    key = 0;
                }
                if (key > 0 || (key == 0 && tie(a, b) > 0)) {
                    fail_msg("--sort %s %s: row %zu (%s) before row %zu (%s)", sorts[s], names[m],
                             i - 1, json_string_value(json_object_get(a, "name")), i,
                             json_string_value(json_object_get(b, "name")));
                }
            }
            json_decref(doc);
        }
    }
}

int main(void)
{
    const struct CMUnitTest name_tests[] = {
        cmocka_unit_test(names_once_test),
        cmocka_unit_test(names_grow_test),
        cmocka_unit_test(names_threads_test),
        cmocka_unit_test(names_rank_test),
    };
    int failed = cmocka_run_group_tests_name("inspect-names", name_tests, NULL, NULL);
    fixtures = getenv("OCC_INSPECT_FIXTURES");
    char stamp[512];
    snprintf(stamp, sizeof stamp, "%s/stamp", fixtures != NULL ? fixtures : "");
    if (fixtures == NULL || access(stamp, R_OK) != 0) {
        fprintf(stderr, "test_inspect_names: SKIP order-cli: no fixtures (nvcc not found at "
                        "configure time)\n");
        return failed != 0 ? 1 : 77;
    }
    const struct CMUnitTest order_tests[] = {
        cmocka_unit_test(order_cli_test),
    };
    failed += cmocka_run_group_tests_name("inspect-order", order_tests, NULL, NULL);
    free(last.out);
    free(last.err);
    return failed != 0 ? 1 : 0;
}
