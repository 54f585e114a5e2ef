/*
 * test_diff.c - `occ diff` and the baselines of `occ inspect --save`, on the two ptxas logs of
 * tests/data/diff/ (tests/diff/variants.cu built twice; no nvcc needed):
 *   - which kernels are unchanged, changed, added, removed and moved (the source says);
 *   - every field's old and new value equals what ptxas printed (the logs, read here by the
 *     test's own parser), and blocks, occupancy and limiter what occ_calc gives on those
 *     numbers (diff-fields);
 *   - the worst change comes first in the table, the JSON and Markdown (diff-order);
 *   - --fail-on thresholds fail one step past the change and pass at it; the exit status as
 *     GNU diff's: 0 passed, 1 the gate failed (in every output format), 2 trouble: usage, an
 *     input that cannot be read, is damaged or is not recognised (diff-gate);
 *   - --missing-baseline: a first run without a baseline fails (2) or passes (0) with a note,
 *     no comparison written and no file made; only a missing OLD qualifies;
 *   - --allow accepts failures by name pattern with a reason, per item, and reports lines that
 *     excused nothing; an empty item list and an unknown item are refused (diff-allow);
 *   - Markdown: the opening line (GPU, block size, inputs, occ version); a change in a field
 *     the table has no column for is named; names escaped as the JSON escapes them, and no
 *     name breaks the table as GitHub's parser splits it (diff-markdown);
 *   - a baseline read back equals what it was saved from, as a diff shows (diff-baseline);
 *     damaged baselines fail with one line naming the offset (diff-baseline-hostile);
 *   - the at-risk flags: the cliff found equals a search one register or byte at a time with
 *     occ_calc, in diff and in inspect --summary; the register ceiling (diff-risk);
 *   - --launches: each kernel at each launch of a profile or a launch table, on both sides
 *     (a table's names as users copy them: spaced otherwise, mangled; grids above 1,024);
 *   - a static kernel whose per-file prefix changed is moved, with other resources it is not;
 *     --filter and --arch apply to both sides.
 * A few cases use hand-written logs in the form of ptxas -v (marked where they are).
 */
#include <dirent.h>
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

#include "cli.h"
#include "cli_harness.h"
#include "test_data.h"

/* occ diff's exit status, as GNU diff's and grep's; not cli.h's codes, where 1 is bad data. */
enum { DIFF_PASSED = 0, DIFF_FAILED = 1, DIFF_TROUBLE = 2 };

/* ------------------------------------------------------------------------ */
/* The logs, read independently of occ                                      */
/* ------------------------------------------------------------------------ */

typedef struct log_kernel {
    char mangled[64];
    int regs;
    int spill_store_bytes;
    int spill_load_bytes;
    int smem_bytes;
    int stack_bytes;
    int barriers;
} log_kernel;

typedef struct log_file {
    log_kernel k[32];
    int count;
} log_file;

/* The number just before `label` on the line ("128 bytes smem" -> 128), or 0. */
static int number_before(const char *line, const char *label)
{
    const char *at = strstr(line, label);
    if (at == NULL) {
        return 0;
    }
    while (at > line && at[-1] == ' ') {
        at--;
    }
    while (at > line && at[-1] >= '0' && at[-1] <= '9') {
        at--;
    }
    return atoi(at);
}

static void read_log(const char *relative, log_file *out)
{
    memset(out, 0, sizeof *out);
    FILE *f = test_data_open(relative, "r");
    char line[512];
    log_kernel *k = NULL;
    while (fgets(line, sizeof line, f) != NULL) {
        const char *entry = strstr(line, "Compiling entry function '");
        if (entry != NULL) {
            assert_true(out->count < 32);
            k = &out->k[out->count++];
            sscanf(entry + strlen("Compiling entry function '"), "%63[^']", k->mangled);
        } else if (k != NULL && strstr(line, "bytes spill stores") != NULL) {
            k->spill_store_bytes = number_before(line, "bytes spill stores");
            k->spill_load_bytes = number_before(line, "bytes spill loads");
        } else if (k != NULL && strstr(line, "Used ") != NULL) {
            k->regs = number_before(line, "registers");
            k->barriers = number_before(line, "barriers");
            k->smem_bytes = number_before(line, "bytes smem");
            k->stack_bytes = number_before(line, "bytes cumulative stack size");
        }
    }
    fclose(f);
}

static const log_kernel *log_find(const log_file *log, const char *mangled)
{
    for (int i = 0; i < log->count; i++) {
        if (strcmp(log->k[i].mangled, mangled) == 0) {
            return &log->k[i];
        }
    }
    return NULL;
}

/* occ_calc on an H200 at 256 threads: the oracle for blocks and occupancy. */
static occ_result h200_256(const log_kernel *k)
{
    occ_device d;
    assert_int_equal(occ_gpu_find("H200", &d, NULL), OCC_OK);
    occ_kernel kernel;
    occ_kernel_init(&kernel);
    kernel.block_x = 256;
    kernel.regs_per_thread = k->regs;
    kernel.static_smem_bytes = k->smem_bytes;
    kernel.barriers = k->barriers;
    occ_result r;
    assert_int_equal(occ_calc(&d, &kernel, &r, NULL), OCC_OK);
    return r;
}

/* ------------------------------------------------------------------------ */
/* Running occ diff                                                         */
/* ------------------------------------------------------------------------ */

/* A copy of a tests/data path (test_data_path's buffer is reused by the next call). */
static const char *data(const char *relative)
{
    static char paths[4][1024];
    static int next;
    char *p = paths[next++ % 4];
    snprintf(p, 1024, "%s", test_data_path(relative));
    return p;
}

static json_t *parse_json(const char *text)
{
    json_error_t jerr;
    json_t *doc = json_loads(text, 0, &jerr);
    if (doc == NULL) {
        fail_msg("not JSON (%s at line %d): %.300s", jerr.text, jerr.line, text);
    }
    return doc;
}

static const char *write_temp(const char *text)
{
    static char paths[4][64];
    static int next;
    char *path = paths[next++ % 4];
    snprintf(path, 64, "/tmp/occ-test-diff-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    size_t len = strlen(text);
    assert_int_equal(write(fd, text, len), (ssize_t)len);
    close(fd);
    return path;
}

/* `occ diff --json --gpu H200 --threads 256 [extra] OLD NEW`, exit 0 or 1 expected. */
static json_t *diff_json(const char *old_path, const char *new_path, const char *extra,
                         int want_code)
{
    if (extra != NULL) {
        OCC(NULL, "diff", "--json", "--gpu", "H200", "--threads", "256", extra, old_path, new_path);
    } else {
        OCC(NULL, "diff", "--json", "--gpu", "H200", "--threads", "256", old_path, new_path);
    }
    if (last.code != want_code) {
        fail_msg("exit %d (wanted %d), stderr: %s", last.code, want_code, last.err);
    }
    return parse_json(last.out);
}

static json_t *entry_named(json_t *doc, const char *array, const char *mangled)
{
    json_t *list = json_object_get(doc, array);
    size_t i;
    json_t *e;
    json_array_foreach(list, i, e)
    {
        if (strcmp(json_string_value(json_object_get(e, "mangled")), mangled) == 0) {
            return e;
        }
    }
    fail_msg("no '%s' in \"%s\"", mangled, array);
    return NULL;
}

static json_int_t side_int(json_t *e, const char *field, const char *side)
{
    json_t *v = json_object_get(json_object_get(e, field), side);
    if (!json_is_integer(v)) {
        fail_msg("%s.%s is not an integer", field, side);
    }
    return json_integer_value(v);
}

static double side_real(json_t *e, const char *field, const char *side)
{
    return json_number_value(json_object_get(json_object_get(e, field), side));
}

static json_int_t count_of(json_t *doc, const char *what)
{
    return json_integer_value(json_object_get(json_object_get(doc, "counts"), what));
}

static bool in_list(json_t *list, const char *value)
{
    size_t i;
    json_t *v;
    json_array_foreach(list, i, v)
    {
        if (strcmp(json_string_value(v), value) == 0) {
            return true;
        }
    }
    return false;
}

/* ------------------------------------------------------------------------ */
/* diff-fields                                                              */
/* ------------------------------------------------------------------------ */

/* Which kernel did what is fixed by variants.cu (tests/data/diff/README.md). */
static void test_counts_follow_the_source(void **state)
{
    (void)state;
    log_file old_log, new_log;
    read_log("diff/old.log", &old_log);
    read_log("diff/new.log", &new_log);
    /* the logs hold what the source says: gone only in old, fresh only in new */
    assert_non_null(log_find(&old_log, "_Z4gonePf"));
    assert_null(log_find(&new_log, "_Z4gonePf"));
    assert_non_null(log_find(&new_log, "_Z5freshPf"));
    json_t *doc = diff_json(data("diff/old.log"), data("diff/new.log"), NULL, DIFF_PASSED);
    assert_int_equal(count_of(doc, "unchanged"), 1);
    assert_int_equal(count_of(doc, "changed"), 4);
    assert_int_equal(count_of(doc, "added"), 1);
    assert_int_equal(count_of(doc, "removed"), 1);
    assert_int_equal(count_of(doc, "moved"), 1);
    json_t *moved = entry_named(doc, "moved", "_Z5moverPfi");
    assert_string_equal(json_string_value(json_object_get(moved, "old_mangled")), "_Z5moverPf");
    assert_string_equal(json_string_value(json_object_get(moved, "old_name")), "mover(float*)");
    entry_named(doc, "added", "_Z5freshPf");
    entry_named(doc, "removed", "_Z4gonePf");
    /* every entry has arch, name, and old/new per field */
    json_t *e = entry_named(doc, "changed", "_Z9regs_growPfPKfi");
    assert_string_equal(json_string_value(json_object_get(e, "arch")), "sm_90");
    assert_string_equal(json_string_value(json_object_get(e, "name")),
                        "regs_grow(float*, float const*, int)");
    json_t *added = entry_named(doc, "added", "_Z5freshPf");
    assert_true(json_is_null(json_object_get(json_object_get(added, "regs"), "old")));
    assert_int_equal(side_int(added, "regs", "new"), log_find(&new_log, "_Z5freshPf")->regs);
    json_decref(doc);
}

static void test_fields_equal_ptxas_and_occ_calc(void **state)
{
    (void)state;
    log_file old_log, new_log;
    read_log("diff/old.log", &old_log);
    read_log("diff/new.log", &new_log);
    json_t *doc = diff_json(data("diff/old.log"), data("diff/new.log"), NULL, DIFF_PASSED);
    json_t *list = json_object_get(doc, "changed");
    size_t i;
    json_t *e;
    json_array_foreach(list, i, e)
    {
        const char *mangled = json_string_value(json_object_get(e, "mangled"));
        const log_kernel *a = log_find(&old_log, mangled);
        const log_kernel *b = log_find(&new_log, mangled);
        assert_non_null(a);
        assert_non_null(b);
        assert_int_equal(side_int(e, "regs", "old"), a->regs);
        assert_int_equal(side_int(e, "regs", "new"), b->regs);
        assert_int_equal(side_int(e, "spill_store_bytes", "old"), a->spill_store_bytes);
        assert_int_equal(side_int(e, "spill_store_bytes", "new"), b->spill_store_bytes);
        assert_int_equal(side_int(e, "spill_load_bytes", "old"), a->spill_load_bytes);
        assert_int_equal(side_int(e, "spill_load_bytes", "new"), b->spill_load_bytes);
        assert_int_equal(side_int(e, "smem_bytes", "old"), a->smem_bytes);
        assert_int_equal(side_int(e, "smem_bytes", "new"), b->smem_bytes);
        assert_int_equal(side_int(e, "stack_bytes", "old"), a->stack_bytes);
        assert_int_equal(side_int(e, "stack_bytes", "new"), b->stack_bytes);
        occ_result ra = h200_256(a);
        occ_result rb = h200_256(b);
        assert_int_equal(side_int(e, "blocks_per_sm", "old"), ra.blocks_per_sm);
        assert_int_equal(side_int(e, "blocks_per_sm", "new"), rb.blocks_per_sm);
        assert_true(side_real(e, "occupancy", "old") == ra.occupancy);
        assert_true(side_real(e, "occupancy", "new") == rb.occupancy);
        json_t *limiters = json_object_get(json_object_get(e, "limiters"), "new");
        assert_int_equal(in_list(limiters, "registers"),
                         (rb.limiters & OCC_LIMITER_REGISTERS) != 0);
        assert_int_equal(in_list(limiters, "warps"), (rb.limiters & OCC_LIMITER_WARPS) != 0);
        /* changed_fields names exactly the fields whose values differ */
        json_t *changed = json_object_get(e, "changed_fields");
        assert_int_equal(in_list(changed, "regs"), a->regs != b->regs);
        assert_int_equal(in_list(changed, "smem_bytes"), a->smem_bytes != b->smem_bytes);
        assert_int_equal(in_list(changed, "stack_bytes"), a->stack_bytes != b->stack_bytes);
        assert_int_equal(in_list(changed, "spill_store_bytes"),
                         a->spill_store_bytes != b->spill_store_bytes);
        assert_int_equal(in_list(changed, "occupancy"), ra.warps_per_sm != rb.warps_per_sm);
        assert_int_equal(in_list(changed, "blocks_per_sm"), ra.blocks_per_sm != rb.blocks_per_sm);
    }
    assert_int_equal(json_array_size(list), 4);
    json_decref(doc);
}

/* ------------------------------------------------------------------------ */
/* diff-order                                                               */
/* ------------------------------------------------------------------------ */

/* The kernel that loses the most occupancy, by occ_calc on the logs' numbers. */
static const char *worst_kernel(const log_file *old_log, const log_file *new_log)
{
    const char *worst = NULL;
    double drop = 0;
    for (int i = 0; i < new_log->count; i++) {
        const log_kernel *a = log_find(old_log, new_log->k[i].mangled);
        if (a == NULL) {
            continue;
        }
        double d = h200_256(a).occupancy - h200_256(&new_log->k[i]).occupancy;
        if (d > drop) {
            drop = d;
            worst = new_log->k[i].mangled;
        }
    }
    assert_non_null(worst);
    return worst;
}

static void test_worst_first(void **state)
{
    (void)state;
    log_file old_log, new_log;
    read_log("diff/old.log", &old_log);
    read_log("diff/new.log", &new_log);
    const char *worst = worst_kernel(&old_log, &new_log);
    json_t *doc = diff_json(data("diff/old.log"), data("diff/new.log"), NULL, DIFF_PASSED);
    json_t *first = json_array_get(json_object_get(doc, "changed"), 0);
    assert_string_equal(json_string_value(json_object_get(first, "mangled")), worst);
    json_decref(doc);
    /* the table: the first row under "Changed" names it */
    OCC(NULL, "diff", "--gpu", "H200", "--threads", "256", data("diff/old.log"),
        data("diff/new.log"));
    assert_int_equal(last.code, DIFF_PASSED);
    const char *section = strstr(last.out, "Changed");
    assert_non_null(section);
    const char *row = strchr(strchr(section, '\n') + 1, '\n') + 1; /* past the header */
    char line[512];
    line_at(row, 0, line, sizeof line);
    assert_non_null(strstr(line, "regs_grow"));
    /* Markdown: the first row is the worst, the rest folded */
    OCC(NULL, "diff", "--markdown", "--top", "1", "--gpu", "H200", "--threads", "256",
        data("diff/old.log"), data("diff/new.log"));
    assert_int_equal(last.code, DIFF_PASSED);
    const char *details = strstr(last.out, "<details><summary>6 more</summary>");
    assert_non_null(details);
    const char *first_row = strstr(last.out, "|---");
    assert_non_null(first_row);
    assert_true(strstr(first_row, "regs_grow") < details);
    assert_true(strstr(details, "tile_smem") != NULL);
    assert_non_null(strstr(last.out, "</details>"));
}

/* ------------------------------------------------------------------------ */
/* diff-gate                                                                */
/* ------------------------------------------------------------------------ */

static void expect_gate(const char *fail_on, int want_code, const char *want_item)
{
    OCC(NULL, "diff", "--gpu", "H200", "--threads", "256", "--fail-on", fail_on,
        data("diff/old.log"), data("diff/new.log"));
    if (last.code != want_code) {
        fail_msg("--fail-on %s: exit %d (wanted %d), stderr: %s", fail_on, last.code, want_code,
                 last.err);
    }
    if (want_code == DIFF_FAILED) {
        /* one line, and it is the gate that failed, not a file */
        if (!starts_with(last.err, "occ diff: gate failed: ") || line_count(last.err) != 1 ||
            strstr(last.err, want_item) == NULL) {
            fail_msg("--fail-on %s: stderr: %s", fail_on, last.err);
        }
    } else {
        assert_string_equal(last.err, "");
    }
}

static void test_thresholds(void **state)
{
    (void)state;
    log_file old_log, new_log;
    read_log("diff/old.log", &old_log);
    read_log("diff/new.log", &new_log);
    const log_kernel *ga = log_find(&old_log, "_Z9regs_growPfPKfi");
    const log_kernel *gb = log_find(&new_log, "_Z9regs_growPfPKfi");
    char item[64];
    /* registers: the change is tolerated at regs+D and fails at regs+(D-1) */
    int d = gb->regs - ga->regs;
    snprintf(item, sizeof item, "regs+%d", d - 1);
    expect_gate(item, DIFF_FAILED, item);
    snprintf(item, sizeof item, "regs+%d", d);
    expect_gate(item, DIFF_PASSED, NULL);
    /* occupancy in percentage points, from occ_calc */
    int drop = (int)((h200_256(ga).occupancy - h200_256(gb).occupancy) * 100.0 + 0.5);
    snprintf(item, sizeof item, "occupancy-%d%%", drop - 1);
    expect_gate(item, DIFF_FAILED, item);
    snprintf(item, sizeof item, "occupancy-%d%%", drop);
    expect_gate(item, DIFF_PASSED, NULL);
    /* blocks */
    int lost = h200_256(ga).blocks_per_sm - h200_256(gb).blocks_per_sm;
    snprintf(item, sizeof item, "blocks-%d", lost - 1);
    expect_gate(item, DIFF_FAILED, item);
    snprintf(item, sizeof item, "blocks-%d", lost);
    expect_gate(item, DIFF_PASSED, NULL);
    /* spills: stores + loads */
    const log_kernel *sa = log_find(&old_log, "_Z7spillerPdPKdi");
    const log_kernel *sb = log_find(&new_log, "_Z7spillerPdPKdi");
    int spill =
        sb->spill_store_bytes + sb->spill_load_bytes - sa->spill_store_bytes - sa->spill_load_bytes;
    snprintf(item, sizeof item, "spills+%d", spill - 1);
    expect_gate(item, DIFF_FAILED, item);
    snprintf(item, sizeof item, "spills+%d", spill);
    expect_gate(item, DIFF_PASSED, NULL);
    /* shared memory, in bytes with a K suffix: 4 KB to 16 KB is 12K */
    const log_kernel *ta = log_find(&old_log, "_Z9tile_smemPf");
    const log_kernel *tb = log_find(&new_log, "_Z9tile_smemPf");
    assert_int_equal(tb->smem_bytes - ta->smem_bytes, 12 * 1024);
    expect_gate("smem+11K", DIFF_FAILED, "smem+11K");
    expect_gate("smem+12K", DIFF_PASSED, NULL);
    /* stack */
    int stack = log_find(&new_log, "_Z10stack_userPii")->stack_bytes -
                log_find(&old_log, "_Z10stack_userPii")->stack_bytes;
    snprintf(item, sizeof item, "stack+%d", stack - 1);
    expect_gate(item, DIFF_FAILED, item);
    /* the spiller's stack grew more: both must be tolerated to pass */
    int spiller_stack = sb->stack_bytes - sa->stack_bytes;
    snprintf(item, sizeof item, "stack+%d", stack > spiller_stack ? stack : spiller_stack);
    expect_gate(item, DIFF_PASSED, NULL);
    /* the kinds of change */
    expect_gate("added", DIFF_FAILED, "added: 1");
    expect_gate("removed", DIFF_FAILED, "removed: 1");
    expect_gate("moved", DIFF_FAILED, "moved: 1");
    expect_gate("changed", DIFF_FAILED, "changed: 4");
    /* improvements never fail: the reverse diff loses no occupancy */
    OCC(NULL, "diff", "--gpu", "H200", "--threads", "256", "--fail-on", "occupancy,regs,spills",
        data("diff/new.log"), data("diff/old.log"));
    assert_int_equal(last.code, DIFF_PASSED);
    /* several items; the summary counts each */
    OCC(NULL, "diff", "--gpu", "H200", "--threads", "256", "--fail-on", "occupancy-10%,regs+8",
        "--fail-on", "added", data("diff/old.log"), data("diff/new.log"));
    assert_int_equal(last.code, DIFF_FAILED);
    /* a kernel counts once, and under each item it fails */
    assert_non_null(strstr(last.err, "2 kernels (occupancy-10%: 1, regs+8: 1, added: 1)"));
    assert_non_null(strstr(last.out, "Gate failed: 2 kernels"));
}

/* The exit status, as GNU diff's and grep's: 0 the gate passed (or there is none), 1 it
   failed, whatever the output, 2 trouble. */
static void test_exit_codes(void **state)
{
    (void)state;
    /* 0: no gate, or a gate nothing fails */
    OCC(NULL, "diff", data("diff/old.log"), data("diff/new.log"));
    assert_int_equal(last.code, DIFF_PASSED);
    OCC(NULL, "diff", "--fail-on", "regs+100", data("diff/old.log"), data("diff/new.log"));
    assert_int_equal(last.code, DIFF_PASSED);
    /* 1: the gate failed, and the report is printed in every format */
    static const char *const formats[] = {"--threads=256", "--json", "--markdown"};
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        OCC(NULL, "diff", "--gpu", "H200", formats[i], "--fail-on", "regs", data("diff/old.log"),
            data("diff/new.log"));
        if (last.code != DIFF_FAILED || !starts_with(last.err, "occ diff: gate failed: ") ||
            strstr(last.out, "regs_grow") == NULL) {
            fail_msg("%s: exit %d, stderr: %s", formats[i], last.code, last.err);
        }
    }
    json_t *doc =
        diff_json(data("diff/old.log"), data("diff/new.log"), "--fail-on=regs", DIFF_FAILED);
    assert_true(json_is_false(json_object_get(json_object_get(doc, "gate"), "passed")));
    json_decref(doc);
    /* 2: a file that cannot be read; the line names it, never "gate failed" */
    OCC(NULL, "diff", "--fail-on", "regs", data("diff/old.log"), "/nonexistent/new.so");
    assert_int_equal(last.code, DIFF_TROUBLE);
    assert_true(starts_with(last.err, "occ diff: /nonexistent/new.so: cannot open"));
    assert_null(strstr(last.err, "gate"));
    assert_string_equal(last.out, "");
    /* 2: a damaged input (a baseline cut short), as OLD or NEW, whatever the output and the gate;
       nothing on stdout */
    char damaged[128];
    snprintf(damaged, sizeof damaged, "%s",
             write_temp("{\"schema\":\"occ.baseline\",\"version\":1,\"functions\":[{\"mangled\":"
                        "\"_Z1kv\",\"arch\":\"sm_90\",\"kind\":\"kernel\",\"regs\":8,"));
    static const char *const damaged_runs[][3] = {
        {"--json", "old", "--fail-on=regs+100"},
        {"--markdown", "new", "--fail-on=regs"},
        {"--threads=256", "old", "--threads=128"},
    };
    for (size_t i = 0; i < sizeof damaged_runs / sizeof damaged_runs[0]; i++) {
        bool old_side = strcmp(damaged_runs[i][1], "old") == 0;
        OCC(NULL, "diff", damaged_runs[i][0], damaged_runs[i][2],
            old_side ? damaged : data("diff/old.log"), old_side ? data("diff/new.log") : damaged);
        char prefix[192];
        snprintf(prefix, sizeof prefix, "occ diff: %s: offset ", damaged);
        if (last.code != DIFF_TROUBLE || !starts_with(last.err, prefix) ||
            line_count(last.err) != 1 || last.out[0] != '\0') {
            fail_msg("damaged %s: exit %d, stderr: %s", damaged_runs[i][1], last.code, last.err);
        }
    }
    unlink(damaged);
    /* 2: an input that is not a build occ reads */
    char unknown[128];
    snprintf(unknown, sizeof unknown, "%s",
             write_temp("{\"schema\":\"occ.inspect\",\"version\":1,\"functions\":[]}"));
    OCC(NULL, "diff", "--fail-on", "regs", unknown, data("diff/new.log"));
    assert_int_equal(last.code, DIFF_TROUBLE);
    assert_non_null(strstr(last.err, "not a ptxas log, cubin, fatbin or ELF file"));
    unlink(unknown);
    /* 2: a --gpu-file that is not a GPU (data, not the command line: no hint) */
    OCC("{\"name\": 1}", "diff", "--gpu-file", "-", data("diff/old.log"), data("diff/new.log"));
    assert_int_equal(last.code, DIFF_TROUBLE);
    assert_null(strstr(last.err, "occ: try"));
    /* usage: exit 2 with a hint */
    static const struct {
        const char *args[4];
        const char *want;
    } usage[] = {
        {{"--fail-on", "regz"}, "'regz' is not an item; did you mean 'regs'?"},
        {{"--fail-on", "regs-8"}, "a threshold is how far regs may grow before it fails"},
        {{"--fail-on", "occupancy+5%"}, "write occupancy-10%"},
        {{"--fail-on", "smem+1%"}, "only occupancy takes a percentage"},
        {{"--fail-on", "added+1"}, "added takes no threshold"},
        {{"--fail-on", ","}, "an empty list"},
        {{"--json", "--markdown"}, "choose one"},
    };
    for (size_t i = 0; i < sizeof usage / sizeof usage[0]; i++) {
        OCC(NULL, "diff", usage[i].args[0], usage[i].args[1], data("diff/old.log"),
            data("diff/new.log"));
        if (last.code != DIFF_TROUBLE || strstr(last.err, usage[i].want) == NULL ||
            strstr(last.err, "occ: try 'occ diff --help'") == NULL) {
            fail_msg("%s %s: exit %d, stderr: %s", usage[i].args[0], usage[i].args[1], last.code,
                     last.err);
        }
    }
    OCC(NULL, "diff", data("diff/old.log"));
    assert_int_equal(last.code, DIFF_TROUBLE);
    assert_non_null(strstr(last.err, "give NEW too"));
    OCC(NULL, "diff", data("diff/old.log"), data("diff/new.log"), data("diff/new.log"));
    assert_int_equal(last.code, DIFF_TROUBLE);
    /* stdin as one side */
    FILE *f = test_data_open("diff/old.log", "r");
    static char text[8192];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    OCC(text, "diff", "--json", "-", data("diff/new.log"));
    assert_int_equal(last.code, DIFF_PASSED);
    doc = parse_json(last.out);
    assert_int_equal(count_of(doc, "changed"), 4);
    json_decref(doc);
    OCC(text, "diff", "-", "-");
    assert_int_equal(last.code, DIFF_TROUBLE);
}

/* The entries of a directory, "." and ".." aside. */
static int entries_in(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e = readdir(d); e != NULL; e = readdir(d)) {
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    }
    closedir(d);
    return n;
}

/* A first run: the baseline main saves has not been saved yet. */
static void test_missing_baseline(void **state)
{
    (void)state;
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/occ-test-diff-dir-XXXXXX");
    assert_non_null(mkdtemp(dir));
    char missing[128];
    snprintf(missing, sizeof missing, "%s/base.json", dir);
    const char *new_log = data("diff/new.log");
    /* the default, fail: trouble, naming the file and how a first run passes */
    static const char *const fail_runs[] = {"--missing-baseline=fail", "--fail-on=regs+100"};
    for (size_t i = 0; i < sizeof fail_runs / sizeof fail_runs[0]; i++) {
        OCC(NULL, "diff", fail_runs[i], missing, new_log);
        char want[256];
        snprintf(want, sizeof want, "occ diff: %s: cannot open", missing);
        if (last.code != DIFF_TROUBLE || !starts_with(last.err, want) ||
            strstr(last.err, "--missing-baseline ok") == NULL || last.out[0] != '\0') {
            fail_msg("%s: exit %d, stderr: %s", fail_runs[i], last.code, last.err);
        }
    }
    /* ok: exit 0 whatever the gate, one note, nothing on stdout that reads as a comparison */
    char note[384];
    snprintf(note, sizeof note,
             "occ diff: note: no baseline: %s does not exist, so nothing was compared", missing);
    OCC(NULL, "diff", "--missing-baseline", "ok", "--fail-on", "added,regs,changed", missing,
        new_log);
    assert_int_equal(last.code, DIFF_PASSED);
    assert_string_equal(last.out, "");
    assert_true(starts_with(last.err, note));
    assert_int_equal(line_count(last.err), 1);
    /* --json: a small document that says so, without counts, gate or entries */
    OCC(NULL, "diff", "--json", "--missing-baseline", "ok", "--fail-on", "regs", missing, new_log);
    assert_int_equal(last.code, DIFF_PASSED);
    assert_true(starts_with(last.err, note));
    json_t *doc = parse_json(last.out);
    assert_string_equal(json_string_value(json_object_get(doc, "schema")), "occ.diff");
    assert_int_equal(json_integer_value(json_object_get(doc, "version")), 1);
    assert_string_equal(json_string_value(json_object_get(doc, "missing_baseline")), missing);
    static const char *const absent[] = {"old",   "counts",  "gate",  "changed",
                                         "added", "removed", "moved", "gpu"};
    for (size_t i = 0; i < sizeof absent / sizeof absent[0]; i++) {
        if (json_object_get(doc, absent[i]) != NULL) {
            fail_msg("\"%s\" in a document that compared nothing: %s", absent[i], last.out);
        }
    }
    log_file log;
    read_log("diff/new.log", &log);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(doc, "new"), "kernels")),
                     log.count);
    json_decref(doc);
    /* a comparison says it had its baseline */
    doc = diff_json(data("diff/old.log"), new_log, "--missing-baseline=ok", DIFF_PASSED);
    assert_true(json_is_null(json_object_get(doc, "missing_baseline")));
    assert_non_null(json_object_get(doc, "counts"));
    json_decref(doc);
    /* --markdown: one paragraph that says so; no table, no verdict */
    OCC(NULL, "diff", "--markdown", "--missing-baseline", "ok", "--fail-on", "regs", missing,
        new_log);
    assert_int_equal(last.code, DIFF_PASSED);
    assert_true(starts_with(last.out, "**occ diff**: no baseline, `"));
    assert_non_null(strstr(last.out, "nothing was compared"));
    assert_int_equal(line_count(last.out), 1);
    assert_null(strstr(last.out, "|"));
    assert_null(strstr(last.out, "Gate"));
    /* no file was made */
    assert_int_equal(entries_in(dir), 0);
    /* only a missing OLD: a missing NEW, an OLD that exists but is damaged, or a directory,
       are trouble */
    OCC(NULL, "diff", "--missing-baseline", "ok", data("diff/old.log"), missing);
    assert_int_equal(last.code, DIFF_TROUBLE);
    assert_null(strstr(last.err, "note"));
    OCC(NULL, "diff", "--missing-baseline", "ok", missing, missing);
    assert_int_equal(last.code, DIFF_TROUBLE);
    char damaged[128];
    snprintf(damaged, sizeof damaged, "%s", write_temp("{\"schema\":\"occ.baseline\","));
    OCC(NULL, "diff", "--missing-baseline", "ok", damaged, new_log);
    assert_int_equal(last.code, DIFF_TROUBLE);
    unlink(damaged);
    OCC(NULL, "diff", "--missing-baseline", "ok", dir, new_log);
    assert_int_equal(last.code, DIFF_TROUBLE);
    /* a baseline that exists is compared as always */
    OCC(NULL, "diff", "--missing-baseline", "ok", "--fail-on", "regs", data("diff/old.log"),
        new_log);
    assert_int_equal(last.code, DIFF_FAILED);
    /* a value that is neither */
    OCC(NULL, "diff", "--missing-baseline", "yes", missing, new_log);
    assert_int_equal(last.code, DIFF_TROUBLE);
    assert_non_null(strstr(last.err, "write ok (a missing OLD passes) or fail"));
    assert_non_null(strstr(last.err, "occ: try 'occ diff --help'"));
    assert_int_equal(entries_in(dir), 0);
    assert_int_equal(rmdir(dir), 0);
}

/* ------------------------------------------------------------------------ */
/* diff-allow                                                               */
/* ------------------------------------------------------------------------ */

static void test_allow(void **state)
{
    (void)state;
    /* the regs_grow failure accepted by a pattern on the printed name */
    const char *allow = write_temp("# accepted changes\n"
                                   "\n"
                                   "regs_grow(*  # more accumulators, faster: measured in #12\n"
                                   "no_such_kernel*  # stale\n");
    OCC(NULL, "diff", "--gpu", "H200", "--threads", "256", "--fail-on", "regs+8,occupancy",
        "--allow", allow, data("diff/old.log"), data("diff/new.log"));
    assert_int_equal(last.code, DIFF_PASSED);
    assert_non_null(strstr(last.out, "[allowed: occupancy, regs+8; "));
    assert_non_null(strstr(last.out, "more accumulators, faster: measured in #12]"));
    assert_non_null(strstr(last.out, "line 4 (no_such_kernel*) excused no failure"));
    OCC(NULL, "diff", "--json", "--gpu", "H200", "--threads", "256", "--fail-on",
        "regs+8,occupancy", "--allow", allow, data("diff/old.log"), data("diff/new.log"));
    json_t *doc = parse_json(last.out);
    json_t *gate = json_object_get(doc, "gate");
    assert_true(json_is_true(json_object_get(gate, "passed")));
    assert_int_equal(json_integer_value(json_object_get(gate, "allowed")), 1);
    assert_int_equal(
        json_integer_value(json_array_get(json_object_get(gate, "unused_allow_lines"), 0)), 4);
    json_t *e = entry_named(doc, "changed", "_Z9regs_growPfPKfi");
    json_t *allowed = json_object_get(e, "allowed");
    assert_int_equal(json_integer_value(json_object_get(allowed, "line")), 3);
    assert_string_equal(json_string_value(json_object_get(allowed, "reason")),
                        "more accumulators, faster: measured in #12");
    json_decref(doc);
    /* a line for occupancy only does not excuse registers; the mangled name matches too */
    const char *only_occupancy = write_temp("occupancy: _Z9regs_grow*  # occupancy accepted\n");
    OCC(NULL, "diff", "--gpu", "H200", "--threads", "256", "--fail-on", "regs+8,occupancy",
        "--allow", only_occupancy, data("diff/old.log"), data("diff/new.log"));
    assert_int_equal(last.code, DIFF_FAILED);
    /* only what is not accepted counts against the gate */
    assert_non_null(strstr(last.err, "gate failed: 1 kernel (regs+8: 1)"));
    assert_non_null(strstr(last.out, "[FAILS regs+8]"));
    const char *both = write_temp("occupancy, regs: _Z9regs_grow*  # both accepted\n");
    OCC(NULL, "diff", "--gpu", "H200", "--threads", "256", "--fail-on", "regs+8,occupancy",
        "--allow", both, data("diff/old.log"), data("diff/new.log"));
    assert_int_equal(last.code, DIFF_PASSED);
    /* a line without a reason: the file and line named, exit 1 */
    const char *no_reason = write_temp("steady*\nregs_grow*\n");
    OCC(NULL, "diff", "--fail-on", "regs", "--allow", no_reason, data("diff/old.log"),
        data("diff/new.log"));
    assert_int_equal(last.code, DIFF_TROUBLE);
    char want[256];
    snprintf(want, sizeof want, "occ diff: %s: line 1: no reason", no_reason);
    assert_true(starts_with(last.err, want));
    unlink(allow);
    unlink(only_occupancy);
    unlink(both);
    unlink(no_reason);
    /* an empty item list would accept every item: refused, the file and the line named */
    static const struct {
        const char *text;
        const char *want;
    } refused[] = {
        {"# accepted\n: regs_grow*  # every item?\n", "line 2: no item before ':'"},
        {"regs, : regs_grow*  # reason\n", "line 1: an empty item before ':'"},
        /* a misspelt item: named, and the items listed */
        {"bogus, regs: regs_grow*  # reason\n",
         "line 1: 'bogus' is not an item; items are occupancy, blocks, regs, spills, stack, smem, "
         "barriers, ceiling, launch-bounds, added, removed, moved, changed"},
        {"\nregs, ocupancy: regs_grow*  # reason\n",
         "line 2: 'ocupancy' is not an item (did you mean 'occupancy'?); items are occupancy, "},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        const char *path = write_temp(refused[i].text);
        OCC(NULL, "diff", "--fail-on", "regs,occupancy", "--allow", path, data("diff/old.log"),
            data("diff/new.log"));
        snprintf(want, sizeof want, "occ diff: %s: %s", path, refused[i].want);
        if (last.code != DIFF_TROUBLE || !starts_with(last.err, want) ||
            line_count(last.err) != 1 || last.out[0] != '\0') {
            fail_msg("%s: exit %d, stderr: %s", refused[i].text, last.code, last.err);
        }
        unlink(path);
    }
    /* a ':' in a pattern that is not a list of words stays the pattern's */
    const char *colon = write_temp("regs_grow(*: x*  # matches nothing: reported unused\n");
    OCC(NULL, "diff", "--fail-on", "regs", "--allow", colon, data("diff/old.log"),
        data("diff/new.log"));
    assert_int_equal(last.code, DIFF_FAILED);
    assert_non_null(strstr(last.out, "line 1 (regs_grow(*: x*) excused no failure"));
    unlink(colon);
}

/* ------------------------------------------------------------------------ */
/* diff-baseline                                                            */
/* ------------------------------------------------------------------------ */

static const char *temp_name(const char *suffix)
{
    static char path[128];
    snprintf(path, sizeof path, "/tmp/occ-test-diff-%ld%s", (long)getpid(), suffix);
    return path;
}

/* The entries of a diff, without the inputs (which name the files). */
static json_t *entries_of(json_t *doc)
{
    json_t *out = json_object();
    static const char *const arrays[] = {"counts", "changed", "added", "removed", "moved"};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) {
        json_object_set(out, arrays[i], json_object_get(doc, arrays[i]));
    }
    return out;
}

static void test_baseline_round_trip(void **state)
{
    (void)state;
    char base[128];
    snprintf(base, sizeof base, "%s", temp_name(".json"));
    OCC(NULL, "inspect", "--save", base, data("diff/old.log"));
    assert_int_equal(last.code, EXIT_OK);
    /* the table is printed as without --save */
    assert_non_null(strstr(last.out, "regs_grow(float*, float const*, int)"));
    /* the baseline against its own source: nothing changed */
    log_file old_log;
    read_log("diff/old.log", &old_log);
    json_t *same = diff_json(base, data("diff/old.log"), NULL, EXIT_OK);
    assert_int_equal(count_of(same, "unchanged"), old_log.count);
    assert_int_equal(count_of(same, "changed") + count_of(same, "added") +
                         count_of(same, "removed") + count_of(same, "moved"),
                     0);
    json_decref(same);
    /* against the new build: what diffing the logs shows */
    json_t *from_base = diff_json(base, data("diff/new.log"), NULL, EXIT_OK);
    json_t *from_log = diff_json(data("diff/old.log"), data("diff/new.log"), NULL, EXIT_OK);
    json_t *a = entries_of(from_base);
    json_t *b = entries_of(from_log);
    assert_true(json_equal(a, b));
    json_decref(a);
    json_decref(b);
    assert_string_equal(
        json_string_value(json_object_get(
            json_array_get(json_object_get(json_object_get(from_base, "old"), "inputs"), 0),
            "format")),
        "baseline");
    json_decref(from_base);
    json_decref(from_log);
    /* a cubin's launch bounds, cluster dims and spill instructions survive the trip */
    OCC(NULL, "inspect", "--save", base, "--functions", data("hostile/cubin-baseline.cubin"));
    assert_int_equal(last.code, EXIT_OK);
    OCC(NULL, "inspect", "--json", "--functions", base);
    json_t *saved = parse_json(last.out);
    OCC(NULL, "inspect", "--json", "--functions", data("hostile/cubin-baseline.cubin"));
    json_t *direct = parse_json(last.out);
    json_t *fa = json_object_get(saved, "functions");
    json_t *fb = json_object_get(direct, "functions");
    assert_int_equal(json_array_size(fa), json_array_size(fb));
    for (size_t i = 0; i < json_array_size(fa); i++) {
        json_t *x = json_deep_copy(json_array_get(fa, i));
        json_t *y = json_deep_copy(json_array_get(fb, i));
        /* a baseline keeps no section (it is not a host ELF file) */
        json_object_del(x, "section");
        json_object_del(y, "section");
        assert_true(json_equal(x, y));
        json_decref(x);
        json_decref(y);
    }
    json_decref(saved);
    json_decref(direct);
    /* --save - would mix the baseline with the table */
    OCC(NULL, "inspect", "--save", "-", data("diff/old.log"));
    assert_int_equal(last.code, EXIT_USAGE);
    /* a directory that does not exist: exit 1, the file named */
    OCC(NULL, "inspect", "--save", "/nonexistent/base.json", data("diff/old.log"));
    assert_int_equal(last.code, EXIT_DATA);
    assert_non_null(strstr(last.err, "/nonexistent/base.json: cannot create"));
    unlink(base);
}

/* One line naming the offset and what is wrong. */
static void expect_bad_baseline(const char *text, const char *want)
{
    const char *path = write_temp(text);
    OCC(NULL, "inspect", path);
    char prefix[128];
    snprintf(prefix, sizeof prefix, "occ inspect: %s: offset ", path);
    if (last.code != EXIT_DATA || !starts_with(last.err, prefix) ||
        strstr(last.err, want) == NULL || line_count(last.err) != 1) {
        fail_msg("%s: exit %d, stderr: %s", text, last.code, last.err);
    }
    unlink(path);
}

#define FUNCTION_HEAD "{\"mangled\":\"_Z1kv\",\"arch\":\"sm_90\",\"kind\":\"kernel\","

static void test_baseline_hostile(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        const char *want;
    } bad[] = {
        {"{\"schema\":\"occ.baseline\",\"version\":1}", "no \"functions\" array"},
        {"{\"schema\":\"occ.baseline\",\"version\":2,\"functions\":[]}",
         "version 2 is newer than this occ reads (1)"},
        {"{\"schema\":\"occ.baseline\",\"functions\":[]}", "no \"version\""},
        {"{\"version\":1,\"functions\":[]} \"occ.baseline\"", "text after the end"},
        {"{\"schema\":\"occ.baseline\",\"version\":1,\"functions\":[" FUNCTION_HEAD
         "\"regs\":8,\"smem_bytes\":0}]}",
         "a function has no \"stack_bytes\""},
        {"{\"schema\":\"occ.baseline\",\"version\":1,\"functions\":[" FUNCTION_HEAD
         "\"regs\":8.5,\"smem_bytes\":0,\"stack_bytes\":0}]}",
         "\"regs\" must be a whole number"},
        {"{\"schema\":\"occ.baseline\",\"version\":1,\"functions\":[" FUNCTION_HEAD
         "\"regs\":99999999999,\"smem_bytes\":0,\"stack_bytes\":0}]}",
         "\"regs\" must be a whole number from 0 to 2147483647"},
        {"{\"schema\":\"occ.baseline\",\"version\":1,\"functions\":[" FUNCTION_HEAD
         "\"regs\":300,\"smem_bytes\":0,\"stack_bytes\":0}]}",
         "300 registers per thread is beyond what the architecture allows (the limit is 255)"},
        {"{\"schema\":\"occ.baseline\",\"version\":1,\"functions\":[{\"mangled\":\"_Z1kv\","
         "\"arch\":\"gpu9\",\"kind\":\"kernel\",\"regs\":8,\"smem_bytes\":0,\"stack_bytes\":0}]}",
         "\"arch\" is not an arch"},
        {"{\"schema\":\"occ.baseline\",\"version\":1,\"functions\":[" FUNCTION_HEAD
         "\"regs\":8,\"smem_bytes\":0,\"stack_bytes\":0,\"count\":0}]}",
         "\"count\" must be a whole number from 1"},
        {"{\"schema\":\"occ.baseline\",\"version\":1,\"functions\":[" FUNCTION_HEAD
         "\"regs\":8,\"smem_bytes\":0,\"stack_bytes\":0},]}",
         "an element of \"functions\" is not an object"},
        {"{\"schema\":\"occ.baseline\",\"version\":1,\"functions\":[{\"mangled\":\"_Z1k\\ud800\"}]"
         "}",
         "a high surrogate escape without its low half"},
        {"{\"schema\":\"occ.baseline\",\"version\":1,\"functions\":[{\"mangled\":\"_Z1\\u0000k\"}]"
         "}",
         "\"mangled\" holds a NUL character"},
        {"{\"schema\":\"occ.baseline\",\"version\":1,\"functions\":[" FUNCTION_HEAD
         "\"regs\":8,\"smem_bytes\":0,\"stack_bytes\":0",
         "expected ',' or '}' in an object"},
        {"{\"schema\":\"occ.baseline\",\"version\":1,\"x\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
         "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],\"functions\":[]}",
         "nested deeper than 32 levels"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        expect_bad_baseline(bad[i].text, bad[i].want);
    }
    /* not a baseline at all: another schema is not taken for one */
    const char *other = write_temp("{\"schema\":\"occ.inspect\",\"version\":1,\"functions\":[]}");
    OCC(NULL, "inspect", other);
    assert_int_equal(last.code, EXIT_DATA);
    assert_non_null(strstr(last.err, "not a ptxas log, cubin, fatbin or ELF file"));
    unlink(other);
    /* unknown keys are skipped (a later version may add some), escapes decoded */
    const char *fine = write_temp(
        "{\"future\":{\"a\":[1,2.5e3,null,true,\"x\"]},\"schema\":\"occ.baseline\","
        "\"version\":1,\"functions\":[{\"mangled\":\"_Z5k\\u00e9\\ud83d\\ude00v\",\"arch\":"
        "\"sm_90a\",\"kind\":\"kernel\",\"regs\":8,\"smem_bytes\":0,\"stack_bytes\":0,"
        "\"new_field\":[{}]}]}");
    OCC(NULL, "inspect", "--json", fine);
    assert_int_equal(last.code, EXIT_OK);
    json_t *doc = parse_json(last.out);
    json_t *f = json_array_get(json_object_get(doc, "functions"), 0);
    assert_string_equal(json_string_value(json_object_get(f, "mangled")),
                        "_Z5k\xc3\xa9\xf0\x9f\x98\x80v");
    assert_string_equal(json_string_value(json_object_get(f, "arch")), "sm_90a");
    json_decref(doc);
    unlink(fine);
}

/* ------------------------------------------------------------------------ */
/* diff-risk                                                                */
/* ------------------------------------------------------------------------ */

/* Registers more that lose a block, one at a time: the oracle for the bisection. */
static int regs_cliff(const log_kernel *k)
{
    occ_result start = h200_256(k);
    for (int more = 1; k->regs + more <= 255; more++) {
        log_kernel bigger = *k;
        bigger.regs += more;
        if (h200_256(&bigger).blocks_per_sm < start.blocks_per_sm) {
            return more;
        }
    }
    return 0;
}

/* Bytes of shared memory more that lose a block, a byte at a time. */
static int smem_cliff(const log_kernel *k)
{
    occ_device d;
    assert_int_equal(occ_gpu_find("H200", &d, NULL), OCC_OK);
    occ_result start = h200_256(k);
    for (int more = 1;; more++) {
        occ_kernel kernel;
        occ_kernel_init(&kernel);
        kernel.block_x = 256;
        kernel.regs_per_thread = k->regs;
        kernel.static_smem_bytes = k->smem_bytes;
        kernel.barriers = k->barriers;
        kernel.dyn_smem_bytes = more;
        occ_result r;
        if (occ_calc(&d, &kernel, &r, NULL) != OCC_OK || r.blocks_per_sm < start.blocks_per_sm) {
            return more;
        }
    }
}

static void test_risk_matches_a_linear_search(void **state)
{
    (void)state;
    log_file new_log;
    read_log("diff/new.log", &new_log);
    json_t *doc = diff_json(data("diff/old.log"), data("diff/new.log"), NULL, DIFF_PASSED);
    static const char *const arrays[] = {"changed", "added", "moved"};
    int checked = 0;
    for (size_t a = 0; a < 3; a++) {
        size_t i;
        json_t *e;
        json_array_foreach(json_object_get(doc, arrays[a]), i, e)
        {
            const log_kernel *k =
                log_find(&new_log, json_string_value(json_object_get(e, "mangled")));
            assert_non_null(k);
            json_t *risk = json_object_get(e, "risk");
            json_t *regs = json_object_get(risk, "regs_to_lose_block");
            int want = regs_cliff(k);
            assert_int_equal(json_is_null(regs) ? 0 : json_integer_value(regs), want);
            assert_int_equal(json_integer_value(json_object_get(risk, "smem_to_lose_block_bytes")),
                             smem_cliff(k));
            assert_int_equal(json_is_true(json_object_get(risk, "spilling")),
                             k->spill_store_bytes + k->spill_load_bytes > 0);
            assert_int_equal(in_list(json_object_get(risk, "flags"), "spills"),
                             k->spill_store_bytes + k->spill_load_bytes > 0);
            checked++;
        }
    }
    assert_int_equal(checked, 6);
    json_decref(doc);
    /* inspect --summary counts the same flags over every kernel of the log */
    int spilling = 0;
    int near_regs = 0;
    for (int i = 0; i < new_log.count; i++) {
        spilling += new_log.k[i].spill_store_bytes + new_log.k[i].spill_load_bytes > 0;
        int c = regs_cliff(&new_log.k[i]);
        near_regs += c > 0 && c <= 4;
    }
    OCC(NULL, "inspect", "--summary", "--gpu", "H200", "--threads", "256", data("diff/new.log"));
    assert_int_equal(last.code, EXIT_OK);
    char want[160];
    snprintf(want, sizeof want, "  %-58s %d\n", "spilling (spills)", spilling);
    assert_non_null(strstr(last.out, want));
    snprintf(want, sizeof want, "  %-58s %d\n", "within 4 registers of losing a block (regs+N)",
             near_regs);
    assert_non_null(strstr(last.out, want));
    assert_non_null(strstr(last.out, "At risk (the first 10 in --sort order):"));
}

/* A hand-written log (the form of ptxas -v): a kernel reaching 255 registers. */
static const char ceiling_old[] =
    "ptxas info    : Compiling entry function '_Z3bigPf' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z3bigPf\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 200 registers, used 0 barriers\n";
static const char ceiling_new[] =
    "ptxas info    : Compiling entry function '_Z3bigPf' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z3bigPf\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 255 registers, used 0 barriers\n";

/* A baseline of one kernel whose __launch_bounds__ is `bound` threads. */
static const char *bounded_baseline(const char *bound)
{
    static char text[2048];
    snprintf(text, sizeof text,
             "{\"schema\":\"occ.baseline\",\"version\":1,\"occ_version\":\"0.1.0\",\"inputs\":"
             "[{\"file\":\"k.cubin\",\"format\":\"cubin\"}],\"options\":{\"arch\":null,"
             "\"functions\":false,\"all\":false,\"filter\":null},\"function_count\":1,"
             "\"functions\":[{\"mangled\":\"_Z3fooPf\",\"arch\":\"sm_90\",\"kind\":\"kernel\","
             "\"relocatable\":false,\"from_log\":false,\"count\":1,\"regs\":32,\"smem_bytes\":0,"
             "\"smem_section_bytes\":0,\"stack_bytes\":0,\"frame_bytes\":0,"
             "\"spill_store_bytes\":null,\"spill_load_bytes\":null,\"spill_instructions\":0,"
             "\"barriers\":0,\"max_threads\":%s,\"req_threads\":null,\"max_regs\":null,"
             "\"cluster_dims\":null,\"explicit_cluster\":false,\"max_cluster_rank\":null,"
             "\"param_bytes\":8}]}\n",
             bound);
    return write_temp(text);
}

/* --fail-on launch-bounds: a build whose kernel now refuses the launch
   (its __launch_bounds__ fell below --threads) fails the gate; the flag is
   in the row's JSON flags either way. */
static void test_launch_bounds(void **state)
{
    (void)state;
    char old_path[128], new_path[128];
    snprintf(old_path, sizeof old_path, "%s", bounded_baseline("[512,1,1]"));
    snprintf(new_path, sizeof new_path, "%s", bounded_baseline("[128,1,1]"));
    OCC(NULL, "diff", "--gpu", "H200", "--threads", "256", "--fail-on", "launch-bounds", old_path,
        new_path);
    assert_int_equal(last.code, DIFF_FAILED);
    assert_non_null(strstr(last.err, "launch-bounds: 1"));
    OCC(NULL, "diff", "--gpu", "H200", "--threads", "256", "--json", old_path, new_path);
    assert_int_equal(last.code, EXIT_OK);
    assert_non_null(strstr(last.out, "\"flags\":[\"launch_bounds\""));
    /* already refused on both sides: not a new failure */
    OCC(NULL, "diff", "--gpu", "H200", "--threads", "256", "--fail-on", "launch-bounds", new_path,
        new_path);
    assert_int_equal(last.code, EXIT_OK);
    /* within the bound on both sides: nothing to flag */
    OCC(NULL, "diff", "--gpu", "H200", "--threads", "64", "--fail-on", "launch-bounds", old_path,
        new_path);
    assert_int_equal(last.code, EXIT_OK);
    unlink(old_path);
    unlink(new_path);
}

/* --launches: each kernel compared at each launch a profile recorded (its
   rows paired launch by launch), in the JSON's launch and launch_match. */
static void test_launches(void **state)
{
    (void)state;
    char old_path[128], new_path[128], trace[128];
    const char *base = bounded_baseline("null");
    snprintf(old_path, sizeof old_path, "%s", base);
    /* the new build: 64 registers instead of 32 */
    FILE *f = fopen(old_path, "r");
    assert_non_null(f);
    char text[2048];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    char *regs = strstr(text, "\"regs\":32");
    assert_non_null(regs);
    memcpy(regs, "\"regs\":64", 9);
    snprintf(new_path, sizeof new_path, "%s", write_temp(text));
    snprintf(trace, sizeof trace, "%s",
             write_temp("{\"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H200\", "
                        "\"computeMajor\": 9, \"computeMinor\": 0, \"numSms\": 132}], "
                        "\"traceEvents\": [\n"
                        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"foo(float*)\", \"dur\": "
                        "30, \"args\": {\"registers per thread\": 32, \"shared memory\": 0, "
                        "\"grid\": [10, 1, 1], \"block\": [1024, 1, 1]}},\n"
                        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"foo(float *)\", \"dur\": "
                        "10, \"args\": {\"registers per thread\": 32, \"shared memory\": 0, "
                        "\"grid\": [10, 1, 1], \"block\": [128, 1, 1]}},\n"
                        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"triton_x\", \"dur\": 10, "
                        "\"args\": {\"registers per thread\": 32, \"shared memory\": 0, \"grid\": "
                        "[10, 1, 1], \"block\": [128, 1, 1]}}]}\n"));
    OCC(NULL, "diff", "--gpu", "H200", "--launches", trace, "--json", old_path, new_path);
    assert_int_equal(last.code, EXIT_OK);
    json_error_t jerr;
    json_t *doc = json_loads(last.out, 0, &jerr);
    assert_non_null(doc);
    json_t *changed = json_object_get(doc, "changed");
    assert_int_equal(json_array_size(changed), 2); /* one row per launch */
    for (size_t i = 0; i < 2; i++) {
        json_t *launch = json_object_get(json_array_get(changed, i), "launch");
        assert_string_equal(json_string_value(json_object_get(launch, "source")), "profile");
    }
    json_t *m = json_object_get(doc, "launch_match");
    assert_int_equal(json_integer_value(json_object_get(m, "matched")), 2);
    assert_true(json_real_value(json_object_get(m, "matched_time_share")) == 0.8);
    json_decref(doc);
    /* the gate judges each launch: at 1,024 threads 64 registers halve the blocks */
    OCC(NULL, "diff", "--gpu", "H200", "--launches", trace, "--fail-on", "occupancy-10%", old_path,
        new_path);
    assert_int_equal(last.code, DIFF_FAILED);
    assert_non_null(strstr(last.out, "[profile, block 1024]"));
    assert_non_null(strstr(last.out, "Launches from "));
    /* the pull request's comment opens with the launch source */
    OCC(NULL, "diff", "--gpu", "H200", "--launches", trace, "--markdown", old_path, new_path);
    assert_non_null(strstr(last.out, "at the launches of the profile "));
    assert_non_null(strstr(last.out, "(80.0% of its GPU time matched), else at the occupancy "));
    assert_non_null(strstr(last.out, "`foo(float*)` [profile, block 1024] |"));
    /* a launch source that cannot be read is trouble */
    OCC(NULL, "diff", "--launches", "/nonexistent.json", old_path, new_path);
    assert_int_equal(last.code, DIFF_TROUBLE);
    unlink(old_path);
    unlink(new_path);
    unlink(trace);
}

/* --launches with a launch table as a user writes it against the logs of
   tests/data/diff: a signature copied with its own spacing ('*' in it, which
   made it a glob that matched nothing), a mangled name (which matched
   nothing), and a grid of one H200 wave (refused above 1,024). Both sides
   get each launch. */
static void test_launch_table_names(void **state)
{
    (void)state;
    const char *table = write_temp("kernel,block,dyn_smem,grid\n"
                                   "\"regs_grow(float*,float const*,int)\",256,0,1056\n"
                                   "_Z7spillerPdPKdi,128,0,132x8\n"
                                   "\"spiller(double*, double const*, int)\",64,0,\n");
    char path[64];
    snprintf(path, sizeof path, "%s", table);
    OCC(NULL, "diff", "--json", "--gpu", "H200", "--launches", path, data("diff/old.log"),
        data("diff/new.log"));
    if (last.code != DIFF_PASSED) {
        fail_msg("exit %d, stderr: %s", last.code, last.err);
    }
    json_t *doc = parse_json(last.out);
    json_t *m = json_object_get(doc, "launch_match");
    assert_int_equal(json_integer_value(json_object_get(m, "matched")), 3);
    assert_int_equal(json_array_size(json_object_get(m, "unmatched")), 0);
    /* a row per launch, each at its block on both sides */
    static const struct {
        const char *mangled;
        int block;
    } want[] = {{"_Z9regs_growPfPKfi", 256}, {"_Z7spillerPdPKdi", 128}, {"_Z7spillerPdPKdi", 64}};
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
        int seen = 0;
        size_t i;
        json_t *e;
        json_array_foreach(json_object_get(doc, "changed"), i, e)
        {
            json_t *launch = json_object_get(e, "launch");
            if (strcmp(json_string_value(json_object_get(e, "mangled")), want[w].mangled) == 0 &&
                json_integer_value(json_array_get(json_object_get(launch, "block"), 0)) ==
                    want[w].block) {
                assert_string_equal(json_string_value(json_object_get(launch, "source")), "table");
                seen++;
            }
        }
        if (seen != 1) {
            fail_msg("%s at block %d: %d rows, want 1", want[w].mangled, want[w].block, seen);
        }
    }
    json_decref(doc);
    unlink(path);
}

/* The same build read two ways, a cubin's baseline and a ptxas log: the
   fields a log cannot know are said once and not counted as changes. */
static void test_kinds_differ(void **state)
{
    (void)state;
    char binary[128], log[128];
    snprintf(binary, sizeof binary, "%s", bounded_baseline("[512,1,1]"));
    snprintf(log, sizeof log, "%s",
             write_temp("ptxas info    : Compiling entry function '_Z3fooPf' for 'sm_90'\n"
                        "ptxas info    : Function properties for _Z3fooPf\n"
                        "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                        "ptxas info    : Used 32 registers, used 0 barriers\n"));
    OCC(NULL, "diff", binary, log);
    assert_int_equal(last.code, EXIT_OK);
    assert_non_null(strstr(last.out, "0 changed, 0 added, 0 removed, 0 moved, 1 unchanged."));
    assert_non_null(strstr(last.out, "Note: one side was read from a ptxas log, the other from a "
                                     "binary: spill_store_bytes, spill_load_bytes, max_threads"));
    OCC(NULL, "diff", "--json", binary, log);
    assert_non_null(strstr(last.out, "\"one_side_only\":[\"spill_store_bytes\""));
    /* a real change still counts */
    char changed_log[128];
    snprintf(changed_log, sizeof changed_log, "%s",
             write_temp("ptxas info    : Compiling entry function '_Z3fooPf' for 'sm_90'\n"
                        "ptxas info    : Function properties for _Z3fooPf\n"
                        "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                        "ptxas info    : Used 40 registers, used 0 barriers\n"));
    OCC(NULL, "diff", "--fail-on", "regs", binary, changed_log);
    assert_int_equal(last.code, DIFF_FAILED);
    assert_non_null(strstr(last.out, "1 changed"));
    /* two logs: nothing is one side's only */
    OCC(NULL, "diff", "--json", log, changed_log);
    assert_non_null(strstr(last.out, "\"one_side_only\":[]"));
    unlink(binary);
    unlink(log);
    unlink(changed_log);
}

static void test_ceiling(void **state)
{
    (void)state;
    char old_path[128];
    char new_path[128];
    snprintf(old_path, sizeof old_path, "%s", write_temp(ceiling_old));
    snprintf(new_path, sizeof new_path, "%s", write_temp(ceiling_new));
    OCC(NULL, "diff", "--fail-on", "ceiling", old_path, new_path);
    assert_int_equal(last.code, DIFF_FAILED);
    assert_non_null(strstr(last.err, "gate failed: 1 kernel (ceiling: 1)"));
    assert_non_null(strstr(last.out, "at the register ceiling: 0 -> 1"));
    /* already at the ceiling on both sides: not a new failure */
    OCC(NULL, "diff", "--fail-on", "ceiling", new_path, new_path);
    assert_int_equal(last.code, DIFF_PASSED);
    OCC(NULL, "inspect", "--summary", new_path);
    char want[160];
    snprintf(want, sizeof want, "  %-58s %d\n", "at the register ceiling (ceiling)", 1);
    assert_non_null(strstr(last.out, want));
    unlink(old_path);
    unlink(new_path);
}

/* ------------------------------------------------------------------------ */
/* diff-markdown                                                            */
/* ------------------------------------------------------------------------ */

/* The cells of a GFM table row as GitHub's parser (cmark-gfm) splits them: a backslash and
   the ASCII punctuation after it are one unit, so "\|" stays in the cell and "\\|" ends it;
   any other '|' ends a cell. Returns the number of cells (the row starts and ends with '|'),
   cell `want` (trimmed) into buf. */
static int gfm_cells(const char *row, int want, char *buf, size_t cap)
{
    int cells = -1;
    const char *start = NULL;
    buf[0] = '\0';
    for (const char *p = row; *p != '\0' && *p != '\n'; p++) {
        if (*p == '\\' && p[1] != '\0' && strchr("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", p[1])) {
            p++;
        } else if (*p == '|') {
            if (cells == want && start != NULL) {
                while (start < p && *start == ' ') {
                    start++;
                }
                size_t len = (size_t)(p - start);
                while (len > 0 && start[len - 1] == ' ') {
                    len--;
                }
                snprintf(buf, cap, "%.*s", (int)len, start);
            }
            cells++;
            start = p + 1;
        }
    }
    return cells;
}

/* Every row of every table in the Markdown has as many cells as its header, and returns the
   row that names `kernel`, or fails. */
static const char *md_row_of(const char *markdown, const char *kernel)
{
    static char row[2048];
    const char *found = NULL;
    int columns = 0;
    char cell[512];
    for (const char *p = markdown; *p != '\0';) {
        const char *end = strchr(p, '\n');
        size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
        if (p[0] == '|') {
            snprintf(row, sizeof row, "%.*s", (int)len, p);
            int n = gfm_cells(row, 0, cell, sizeof cell);
            if (strncmp(row, "| | status |", 12) == 0) {
                columns = n;
            } else if (n != columns) {
                fail_msg("%d cells, the header has %d: %s", n, columns, row);
            }
            if (found == NULL && strstr(row, kernel) != NULL) {
                found = p;
            }
        }
        p += len + (end != NULL);
    }
    if (found == NULL) {
        fail_msg("no row names %s in: %s", kernel, markdown);
    }
    const char *end = strchr(found, '\n');
    snprintf(row, sizeof row, "%.*s", (int)(end != NULL ? end - found : (long)strlen(found)),
             found);
    return row;
}

/* The cell of a row under the header's column `name`. */
static const char *md_cell(const char *row, const char *name)
{
    static const char *const header[] = {
        "",     "status",    "arch",      "kernel",  "regs",          "spills",  "stack",
        "smem", "blocks/SM", "occupancy", "limiter", "other changes", "at risk", "fails"};
    static char cell[512];
    for (int i = 0; i < (int)(sizeof header / sizeof header[0]); i++) {
        if (strcmp(header[i], name) == 0) {
            gfm_cells(row, i, cell, sizeof cell);
            return cell;
        }
    }
    fail_msg("no column %s", name);
    return NULL;
}

/* The opening line: the GPU, where the block size comes from, both inputs, occ's version. */
static void test_markdown_header(void **state)
{
    (void)state;
    char want[1024];
    char line[1024];
    OCC(NULL, "diff", "--markdown", "--gpu", "H200", "--threads", "256", data("diff/old.log"),
        data("diff/new.log"));
    assert_int_equal(last.code, DIFF_PASSED);
    snprintf(want, sizeof want, "**occ diff** `%s` → `%s` on `H200`, at `--threads 256` (occ %s)",
             data("diff/old.log"), data("diff/new.log"), occ_version());
    assert_string_equal(line_at(last.out, 0, line, sizeof line), want);
    /* no --gpu, no --threads; dynamic shared memory named when there is some */
    OCC(NULL, "diff", "--markdown", "--dyn-smem", "4096", "--fail-on", "regs", data("diff/old.log"),
        data("diff/new.log"));
    assert_int_equal(last.code, DIFF_FAILED);
    snprintf(want, sizeof want,
             "**occ diff** `%s` → `%s` on a generic GPU of each kernel's arch, at the occupancy "
             "API's block size per kernel and `--dyn-smem 4096` (occ %s)",
             data("diff/old.log"), data("diff/new.log"), occ_version());
    assert_string_equal(line_at(last.out, 0, line, sizeof line), want);
    /* the version is the one occ --version prints */
    snprintf(want, sizeof want, "occ %s\n", occ_version());
    OCC(NULL, "--version");
    assert_string_equal(last.out, want);
}

/* A baseline file of sm_90 kernels, each given by its own keys. */
static const char *baseline_of(const char *const *functions, size_t count)
{
    static char text[2048];
    size_t used = (size_t)snprintf(text, sizeof text,
                                   "{\"schema\":\"occ.baseline\",\"version\":1,\"functions\":[");
    for (size_t i = 0; i < count; i++) {
        used += (size_t)snprintf(text + used, sizeof text - used,
                                 "%s{\"arch\":\"sm_90\",\"kind\":\"kernel\",\"smem_bytes\":0,%s}",
                                 i > 0 ? "," : "", functions[i]);
        assert_true(used < sizeof text);
    }
    snprintf(text + used, sizeof text - used, "]}");
    return write_temp(text);
}

/* Hand-written baselines: a kernel whose only change is its register cap (-maxrregcount), one
   whose spill stores and loads swapped (the same sum), one whose registers grew. The table
   has no column for the first two changes: the row names them. */
static void test_markdown_other_changes(void **state)
{
    (void)state;
    static const char *const old_functions[] = {
        "\"mangled\":\"_Z4capAPf\",\"regs\":32,\"stack_bytes\":0,\"max_regs\":64",
        "\"mangled\":\"_Z5swapsPf\",\"regs\":32,\"stack_bytes\":8,\"spill_store_bytes\":8,"
        "\"spill_load_bytes\":16",
        "\"mangled\":\"_Z4growPf\",\"regs\":32,\"stack_bytes\":0",
    };
    static const char *const new_functions[] = {
        "\"mangled\":\"_Z4capAPf\",\"regs\":32,\"stack_bytes\":0,\"max_regs\":40",
        "\"mangled\":\"_Z5swapsPf\",\"regs\":32,\"stack_bytes\":8,\"spill_store_bytes\":16,"
        "\"spill_load_bytes\":8",
        "\"mangled\":\"_Z4growPf\",\"regs\":40,\"stack_bytes\":0",
    };
    char old_path[128];
    char new_path[128];
    snprintf(old_path, sizeof old_path, "%s", baseline_of(old_functions, 3));
    snprintf(new_path, sizeof new_path, "%s", baseline_of(new_functions, 3));
    json_t *doc = diff_json(old_path, new_path, NULL, DIFF_PASSED);
    json_t *cap = json_object_get(entry_named(doc, "changed", "_Z4capAPf"), "changed_fields");
    assert_int_equal(json_array_size(cap), 1);
    assert_string_equal(json_string_value(json_array_get(cap, 0)), "max_regs");
    json_decref(doc);
    OCC(NULL, "diff", "--markdown", "--gpu", "H200", "--threads", "256", old_path, new_path);
    assert_int_equal(last.code, DIFF_PASSED);
    const char *row = md_row_of(last.out, "`capA(float*)`");
    assert_string_equal(md_cell(row, "other changes"), "max_regs 64 → 40");
    assert_string_equal(md_cell(row, "regs"), "32");
    row = md_row_of(last.out, "`swaps(float*)`");
    assert_string_equal(md_cell(row, "spills"), "24 B");
    assert_string_equal(md_cell(row, "other changes"),
                        "spill_store_bytes 8 → 16, spill_load_bytes 16 → 8");
    /* a change the columns show is not named again */
    row = md_row_of(last.out, "`grow(float*)`");
    assert_string_equal(md_cell(row, "regs"), "32 → 40");
    assert_string_equal(md_cell(row, "other changes"), "");
    unlink(old_path);
    unlink(new_path);
}

/* Whether text is valid UTF-8 (RFC 3629). */
static bool valid_utf8(const char *text)
{
    const unsigned char *p = (const unsigned char *)text;
    while (*p != '\0') {
        int n = *p < 0x80                  ? 0
                : *p >= 0xC2 && *p <= 0xDF ? 1
                : *p >= 0xE0 && *p <= 0xEF ? 2
                : *p >= 0xF0 && *p <= 0xF4 ? 3
                                           : -1;
        if (n < 0) {
            return false;
        }
        unsigned lo = (*p == 0xE0) ? 0xA0 : (*p == 0xF0) ? 0x90 : 0x80;
        unsigned hi = (*p == 0xED) ? 0x9F : (*p == 0xF4) ? 0x8F : 0xBF;
        for (int i = 1; i <= n; i++) {
            if (p[i] < (i == 1 ? lo : 0x80) || p[i] > (i == 1 ? hi : 0xBF)) {
                return false;
            }
        }
        p += n + 1;
    }
    return true;
}

/* A hand-written pair of logs for one kernel named `name`, 8 registers then 16. */
static void name_logs(const char *name, char *old_path, char *new_path, size_t cap)
{
    char text[512];
    snprintf(text, sizeof text,
             "ptxas info    : Compiling entry function '%s' for 'sm_90'\n"
             "ptxas info    : Used 8 registers, used 0 barriers\n",
             name);
    snprintf(old_path, cap, "%s", write_temp(text));
    snprintf(text, sizeof text,
             "ptxas info    : Compiling entry function '%s' for 'sm_90'\n"
             "ptxas info    : Used 16 registers, used 0 barriers\n",
             name);
    snprintf(new_path, cap, "%s", write_temp(text));
}

/* Names from hand-written logs, as the Markdown writes them: never breaking the table (as
   GitHub's parser splits it), bytes that are not UTF-8 as the JSON writes them. */
static void test_markdown_escapes(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        const char *cell; /* the kernel cell, as written */
        bool as_json;     /* the cell is the JSON's name (decoded) in backquotes */
    } cases[] = {
        /* '|' escaped; a backquote inside: a longer fence, the name kept */
        {"a|b`c", "`` a\\|b`c ``", false},
        {"k``x", "``` k``x ```", false},
        {"`edge`", "`` `edge` ``", false},
        /* a backslash before '|' would escape the escape: HTML code, punctuation as
           character references */
        {"a\\|b", "<code>a&#92;&#124;b</code>", false},
        {"a\\\\|b|", "<code>a&#92;&#92;&#124;b&#124;</code>", false},
        /* control characters made visible, as in the table */
        {"tab\tk", "`tab\\x09k`", false},
        /* not UTF-8: U+FFFD per byte, as --json writes it (\ufffd) */
        {"bad\xff"
         "x\xc3",
         "`bad\xef\xbf\xbdx\xef\xbf\xbd`", true},
        {"caf\xc3\xa9\xed\xa0\x80", "`caf\xc3\xa9\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd`", true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char old_path[128];
        char new_path[128];
        name_logs(cases[i].name, old_path, new_path, sizeof old_path);
        OCC(NULL, "diff", "--markdown", "--fail-on", "regs", old_path, new_path);
        assert_int_equal(last.code, DIFF_FAILED);
        if (!valid_utf8(last.out)) {
            fail_msg("case %zu: the Markdown is not UTF-8: %s", i, last.out);
        }
        const char *row = md_row_of(last.out, "| changed |");
        if (strcmp(md_cell(row, "kernel"), cases[i].cell) != 0 ||
            strcmp(md_cell(row, "regs"), "8 → 16") != 0 ||
            strcmp(md_cell(row, "fails"), "regs") != 0) {
            fail_msg("case %zu: the row: %s", i, row);
        }
        /* the name the JSON gives is the one in the code span */
        json_t *doc = diff_json(old_path, new_path, NULL, DIFF_PASSED);
        const char *name = json_string_value(
            json_object_get(json_array_get(json_object_get(doc, "changed"), 0), "name"));
        char quoted[256];
        snprintf(quoted, sizeof quoted, "`%s`", name);
        if (cases[i].as_json && strcmp(quoted, cases[i].cell) != 0) {
            fail_msg("case %zu: the JSON's name %s is not the Markdown's %s", i, name,
                     cases[i].cell);
        }
        json_decref(doc);
        unlink(old_path);
        unlink(new_path);
    }
}

/* Hand-written logs in nvcc's naming of internal-linkage kernels: the per-file prefix
   changed (the file was renamed), the kernel did not: moved. With other registers it is
   not the same kernel: removed and added. */
static void test_static_kernel_moved(void **state)
{
    (void)state;
    char old_path[128];
    char new_path[128];
    char other_path[128];
    snprintf(old_path, sizeof old_path, "%s",
             write_temp("ptxas info    : Compiling entry function "
                        "'__nv_static_34__1a2b3c4d_9_old_cu_aa__Z4tickPf' for 'sm_90'\n"
                        "ptxas info    : Used 12 registers, used 0 barriers\n"));
    snprintf(new_path, sizeof new_path, "%s",
             write_temp("ptxas info    : Compiling entry function "
                        "'__nv_static_34__99887766_9_new_cu_bb__Z4tickPf' for 'sm_90'\n"
                        "ptxas info    : Used 12 registers, used 0 barriers\n"));
    snprintf(other_path, sizeof other_path, "%s",
             write_temp("ptxas info    : Compiling entry function "
                        "'__nv_static_34__99887766_9_new_cu_bb__Z4tickPf' for 'sm_90'\n"
                        "ptxas info    : Used 40 registers, used 0 barriers\n"));
    json_t *doc = diff_json(old_path, new_path, NULL, DIFF_PASSED);
    assert_int_equal(count_of(doc, "moved"), 1);
    assert_int_equal(count_of(doc, "added") + count_of(doc, "removed"), 0);
    json_decref(doc);
    doc = diff_json(old_path, other_path, NULL, DIFF_PASSED);
    assert_int_equal(count_of(doc, "moved"), 0);
    assert_int_equal(count_of(doc, "added"), 1);
    assert_int_equal(count_of(doc, "removed"), 1);
    json_decref(doc);
    unlink(old_path);
    unlink(new_path);
    unlink(other_path);
}

/* --filter and --arch apply to both sides. */
static void test_filter(void **state)
{
    (void)state;
    json_t *doc =
        diff_json(data("diff/old.log"), data("diff/new.log"), "--filter=^regs_", DIFF_PASSED);
    assert_int_equal(count_of(doc, "changed"), 1);
    assert_int_equal(count_of(doc, "added") + count_of(doc, "removed") + count_of(doc, "moved") +
                         count_of(doc, "unchanged"),
                     0);
    json_decref(doc);
    doc = diff_json(data("diff/old.log"), data("diff/new.log"), "--arch=sm_80", DIFF_PASSED);
    assert_int_equal(count_of(doc, "changed") + count_of(doc, "unchanged"), 0);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts_follow_the_source),
        cmocka_unit_test(test_fields_equal_ptxas_and_occ_calc),
        cmocka_unit_test(test_worst_first),
        cmocka_unit_test(test_thresholds),
        cmocka_unit_test(test_exit_codes),
        cmocka_unit_test(test_missing_baseline),
        cmocka_unit_test(test_allow),
        cmocka_unit_test(test_baseline_round_trip),
        cmocka_unit_test(test_baseline_hostile),
        cmocka_unit_test(test_risk_matches_a_linear_search),
        cmocka_unit_test(test_ceiling),
        cmocka_unit_test(test_launch_bounds),
        cmocka_unit_test(test_launches),
        cmocka_unit_test(test_launch_table_names),
        cmocka_unit_test(test_kinds_differ),
        cmocka_unit_test(test_markdown_header),
        cmocka_unit_test(test_markdown_other_changes),
        cmocka_unit_test(test_markdown_escapes),
        cmocka_unit_test(test_static_kernel_moved),
        cmocka_unit_test(test_filter),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
