/*
 * test_diff_engine.c - libocc-inspect's diff engine called from C
 * (include/occ_diff.h), without the CLI: the gate's items and thresholds and
 * every refusal, the allow file's lines and refusals, a comparison of the
 * two ptxas logs of tests/data/diff/ (counts, entries worst first, the gate
 * applied and an allow line excusing a failure), the document in memory
 * equal to the one written to a FILE, occ_diff_run_json's whole diff, and
 * the limiter list libocc gives the fields. tests/test_diff.c holds the CLI
 * to the same engine through `occ diff`.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "occ_diff.h"
#include "test_data.h"

static occ_status parse_gate(const char *list, occ_diff_gate *g, occ_inspect_error *err)
{
    memset(g, 0, sizeof *g);
    return occ_diff_gate_parse(list, g, err);
}

static void test_gate_items_and_thresholds(void **state)
{
    (void)state;
    occ_diff_gate g;
    occ_inspect_error err;
    assert_int_equal(parse_gate("occupancy-10%, regs+8,spills,launch-bounds,smem+1.5K", &g, &err),
                     OCC_OK);
    assert_true(g.on[OCC_DIFF_GATE_OCCUPANCY]);
    assert_true(g.slack[OCC_DIFF_GATE_OCCUPANCY] == 10.0);
    assert_true(g.slack[OCC_DIFF_GATE_REGS] == 8.0);
    assert_true(g.on[OCC_DIFF_GATE_SPILLS] && g.slack[OCC_DIFF_GATE_SPILLS] == 0.0);
    assert_true(g.on[OCC_DIFF_GATE_LAUNCH_BOUNDS]);
    assert_true(g.slack[OCC_DIFF_GATE_SMEM] == 1536.0);
    assert_string_equal(g.text[OCC_DIFF_GATE_OCCUPANCY], "occupancy-10%");
    assert_false(g.on[OCC_DIFF_GATE_ADDED]);
    /* a second list adds to the first */
    assert_int_equal(occ_diff_gate_parse("added", &g, &err), OCC_OK);
    assert_true(g.on[OCC_DIFF_GATE_ADDED] && g.on[OCC_DIFF_GATE_REGS]);
    assert_string_equal(occ_diff_gate_item_name(OCC_DIFF_GATE_LAUNCH_BOUNDS), "launch-bounds");
    assert_string_equal(occ_diff_gate_item_name(OCC_DIFF_GATE_ITEM_COUNT), "?");
}

static void assert_gate_refused(const char *list, const char *words)
{
    occ_diff_gate g;
    occ_inspect_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(parse_gate(list, &g, &err), OCC_ERR_INVALID_ARGUMENT);
    assert_int_equal(err.status, OCC_ERR_INVALID_ARGUMENT);
    if (strstr(err.message, words) == NULL) {
        fail_msg("'%s': '%s' does not say '%s'", list, err.message, words);
    }
}

static void test_gate_refusals(void **state)
{
    (void)state;
    assert_gate_refused("ocupancy-10%", "did you mean 'occupancy'?");
    assert_gate_refused("bogus", "items are occupancy, blocks");
    assert_gate_refused("added+1", "added takes no threshold");
    assert_gate_refused("regs-8", "write regs+8");
    assert_gate_refused("occupancy+10%", "write occupancy-10%");
    assert_gate_refused("regs+8%", "only occupancy takes a percentage");
    assert_gate_refused("occupancy-101", "from 0 to 100");
    assert_gate_refused("occupancy-1e3", "from 0 to 100");
    assert_gate_refused("regs+x", "not a whole number");
    assert_gate_refused("regs+99999999999999999999", "not a whole number");
    assert_gate_refused("smem+1.0001K", "not a size in bytes");
    assert_gate_refused("smem+2T", "not a size in bytes");
    assert_gate_refused(" , ,", "an empty list");
    occ_inspect_error err;
    assert_int_equal(occ_diff_gate_parse(NULL, NULL, &err), OCC_ERR_NULL_POINTER);
}

static occ_status parse_allow(const char *text, occ_diff_allow_list *out, occ_inspect_error *err)
{
    return occ_diff_allow_parse("allow.txt", text, strlen(text), out, err);
}

static void test_allow_lines(void **state)
{
    (void)state;
    occ_diff_allow_list l;
    occ_inspect_error err;
    const char *text = "# accepted\n"
                       "\n"
                       "_Z7spiller* # cap kept on purpose\n"
                       "regs, spills: *regs_grow* # bigger tile\r\n"
                       "ns::k<int>(int) # a name with a colon and no items\n";
    assert_int_equal(parse_allow(text, &l, &err), OCC_OK);
    assert_int_equal(l.count, 3);
    assert_string_equal(l.rules[0].pattern, "_Z7spiller*");
    assert_string_equal(l.rules[0].reason, "cap kept on purpose");
    assert_int_equal(l.rules[0].items, 0);
    assert_int_equal(l.rules[0].line, 3);
    assert_string_equal(l.rules[1].pattern, "*regs_grow*");
    assert_int_equal(l.rules[1].items, 1u << OCC_DIFF_GATE_REGS | 1u << OCC_DIFF_GATE_SPILLS);
    assert_string_equal(l.rules[2].pattern, "ns::k<int>(int)");
    occ_diff_allow_free(&l);
}

static void assert_allow_refused(const char *text, size_t size, const char *words)
{
    occ_diff_allow_list l;
    occ_inspect_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(occ_diff_allow_parse("allow.txt", text, size, &l, &err), OCC_ERR_BAD_FORMAT);
    if (strstr(err.message, words) == NULL) {
        fail_msg("'%s' does not say '%s'", err.message, words);
    }
    occ_diff_allow_free(&l);
}

static void test_allow_refusals(void **state)
{
    (void)state;
    assert_allow_refused("k*\n", 3, "allow.txt: line 1: no reason");
    assert_allow_refused("# c\nregs: # reason\n", 18, "line 2: no name pattern");
    assert_allow_refused(": k* # reason\n", 14, "line 1: no item before ':'");
    assert_allow_refused("regs, : k* # reason\n", 20, "an empty item");
    assert_allow_refused("bogus, regs: k* # r\n", 20, "'bogus' is not an item");
    assert_allow_refused("reqs: k* # r\n", 13, "did you mean 'regs'?");
    assert_allow_refused("k*\0 # r\n", 8, "a NUL byte");
    occ_diff_allow_list l;
    occ_inspect_error err;
    assert_int_equal(occ_diff_allow_read("/nonexistent/allow.txt", &l, &err), OCC_ERR_IO);
    assert_non_null(strstr(err.message, "/nonexistent/allow.txt: cannot open"));
}

/* The two logs of tests/data/diff/, read for an H200 at 256 threads. */
typedef struct sides {
    occ_device h200;
    occ_inspect_options opts;
    occ_inspect_input in[2];
    occ_diff_sides read;
} sides;

static void read_logs(sides *s)
{
    assert_int_equal(occ_gpu_find("H200", &s->h200, NULL), OCC_OK);
    occ_inspect_options_init(&s->opts);
    s->opts.device = &s->h200;
    s->opts.threads = 256;
    static char old_path[512], new_path[512];
    snprintf(old_path, sizeof old_path, "%s", test_data_path("diff/old.log"));
    snprintf(new_path, sizeof new_path, "%s", test_data_path("diff/new.log"));
    s->in[0] = (occ_inspect_input){old_path, NULL, 0};
    s->in[1] = (occ_inspect_input){new_path, NULL, 0};
    occ_inspect_error err;
    assert_int_equal(occ_diff_read(&s->in[0], 1, &s->in[1], 1, &s->opts, NULL, &s->read, &err),
                     OCC_OK);
    assert_int_equal(s->read.failed_side, -1);
}

static const occ_diff_entry *entry_named(const occ_diff_report *r, const char *prefix)
{
    for (size_t i = 0; i < r->entry_count; i++) {
        const occ_inspect_kernel *k =
            r->entries[i].new_k != NULL ? r->entries[i].new_k : r->entries[i].old_k;
        if (strncmp(k->name, prefix, strlen(prefix)) == 0) {
            return &r->entries[i];
        }
    }
    fail_msg("no entry for %s", prefix);
    return NULL;
}

static void test_compare_logs(void **state)
{
    (void)state;
    sides s;
    read_logs(&s);
    occ_diff_gate gate;
    occ_inspect_error err;
    assert_int_equal(parse_gate("occupancy-10%,spills", &gate, &err), OCC_OK);
    occ_diff_allow_list allow;
    const char *allow_text = "spills: spiller* # the cap is kept on purpose\n";
    assert_int_equal(parse_allow(allow_text, &allow, &err), OCC_OK);
    occ_diff_report r = {.old_side = {"old.log", s.read.old_result, 0, 0},
                         .new_side = {"new.log", s.read.new_result, 0, 0},
                         .read = &s.opts,
                         .gate = &gate,
                         .allow = &allow};
    assert_int_equal(occ_diff_compare(&r, &err), OCC_OK);
    /* tests/data/diff/README.md: steady is unchanged, regs_grow and spiller
       change, gone is removed, mover moved */
    assert_true(r.unchanged >= 1);
    assert_true(r.changed >= 2);
    assert_true(r.removed >= 1);
    assert_true(r.moved >= 1);
    const occ_diff_entry *grow = entry_named(&r, "regs_grow");
    assert_int_equal(grow->status, OCC_DIFF_CHANGED);
    assert_true(grow->changed & (1u << OCC_DIFF_REGS));
    assert_int_equal(grow->old_k->blocks_per_sm, 8);
    assert_int_equal(grow->new_k->blocks_per_sm, 5);
    assert_true(grow->failed & (1u << OCC_DIFF_GATE_OCCUPANCY));
    assert_null(grow->allowed);
    const occ_diff_entry *spill = entry_named(&r, "spiller");
    assert_true(spill->failed & (1u << OCC_DIFF_GATE_SPILLS));
    assert_ptr_equal(spill->allowed, &allow.rules[0]);
    assert_int_equal(allow.rules[0].used, 1);
    assert_true(r.failed >= 1);
    assert_int_equal(r.allowed, 1);
    /* failures first */
    assert_true(r.entries[0].failed != 0 && r.entries[0].allowed == NULL);
    char summary[256];
    assert_non_null(strstr(occ_diff_gate_summary(&r, summary, sizeof summary), "occupancy-10%"));

    /* the document in memory is the one written to a FILE */
    char *text;
    size_t size;
    assert_int_equal(occ_diff_json_text(&r, &text, &size, &err), OCC_OK);
    assert_int_equal(strlen(text), size);
    char *file_text = NULL;
    size_t file_size = 0;
    FILE *f = open_memstream(&file_text, &file_size);
    assert_int_equal(occ_diff_json_write(&r, f, &err), OCC_OK);
    fclose(f);
    assert_int_equal(file_size, size);
    assert_memory_equal(file_text, text, size);
    free(file_text);
    json_error_t jerr;
    json_t *doc = json_loads(text, 0, &jerr);
    assert_non_null(doc);
    assert_string_equal(json_string_value(json_object_get(doc, "schema")), "occ.diff");
    assert_int_equal(json_integer_value(json_object_get(doc, "version")), OCC_DIFF_SCHEMA_VERSION);
    assert_false(json_is_true(json_object_get(json_object_get(doc, "gate"), "passed")));
    json_decref(doc);
    occ_inspect_text_free(text);

    occ_diff_report_free(&r);
    occ_diff_allow_free(&allow);
    occ_inspect_result_free(s.read.old_result);
    occ_inspect_result_free(s.read.new_result);
}

static void test_run_json_is_the_whole_diff(void **state)
{
    (void)state;
    sides s;
    read_logs(&s);
    occ_inspect_error err;
    /* the same diff by hand */
    occ_diff_gate gate;
    assert_int_equal(parse_gate("regs+8", &gate, &err), OCC_OK);
    occ_diff_report r = {.old_side = {"old.log", s.read.old_result, 0, 0},
                         .new_side = {"new.log", s.read.new_result, 0, 0},
                         .read = &s.opts,
                         .gate = &gate};
    assert_int_equal(occ_diff_compare(&r, &err), OCC_OK);
    char *by_hand;
    size_t by_hand_size;
    assert_int_equal(occ_diff_json_text(&r, &by_hand, &by_hand_size, &err), OCC_OK);
    /* and in one call */
    occ_diff_request q = {.old_inputs = &s.in[0],
                          .old_count = 1,
                          .new_inputs = &s.in[1],
                          .new_count = 1,
                          .old_label = "old.log",
                          .new_label = "new.log",
                          .read = &s.opts,
                          .fail_on = "regs+8"};
    char *text;
    size_t size;
    size_t failed = 99;
    assert_int_equal(occ_diff_run_json(&q, &text, &size, &failed, &err), OCC_OK);
    assert_int_equal(failed, r.failed);
    assert_true(failed >= 1);
    assert_int_equal(size, by_hand_size);
    assert_memory_equal(text, by_hand, size);
    occ_inspect_text_free(text);
    occ_inspect_text_free(by_hand);
    /* a bad gate is refused before anything is read */
    q.fail_on = "regs+";
    q.old_inputs = &(occ_inspect_input){"/nonexistent.log", NULL, 0};
    assert_int_equal(occ_diff_run_json(&q, &text, &size, &failed, &err), OCC_ERR_INVALID_ARGUMENT);
    assert_null(text);
    /* an unreadable side names it */
    q.fail_on = NULL;
    assert_int_equal(occ_diff_run_json(&q, &text, &size, &failed, &err), OCC_ERR_IO);
    assert_non_null(strstr(err.message, "/nonexistent.log"));
    occ_diff_report_free(&r);
    occ_inspect_result_free(s.read.old_result);
    occ_inspect_result_free(s.read.new_result);
}

static void test_limiter_list(void **state)
{
    (void)state;
    char buf[64];
    assert_string_equal(
        occ_limiter_list(OCC_LIMITER_REGISTERS | OCC_LIMITER_WARPS, buf, sizeof buf),
        "warps+registers");
    assert_string_equal(
        occ_limiter_list(OCC_LIMITER_SHARED_MEM | OCC_LIMITER_BARRIERS | OCC_LIMITER_BLOCKS, buf,
                         sizeof buf),
        "blocks+shared_mem+barriers");
    assert_string_equal(occ_limiter_list(0, buf, sizeof buf), "");
    /* cut at a whole key */
    assert_string_equal(occ_limiter_list(OCC_LIMITER_WARPS | OCC_LIMITER_REGISTERS, buf, 12),
                        "warps");
    assert_string_equal(occ_limiter_key(OCC_LIMITER_SHARED_MEM), "shared_mem");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gate_items_and_thresholds),
        cmocka_unit_test(test_gate_refusals),
        cmocka_unit_test(test_allow_lines),
        cmocka_unit_test(test_allow_refusals),
        cmocka_unit_test(test_compare_logs),
        cmocka_unit_test(test_run_json_is_the_whole_diff),
        cmocka_unit_test(test_limiter_list),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
