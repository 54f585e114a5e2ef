/*
 * test_regs.c - occ regs (include/occ_regs.h, inspect/regs/, cli/regs/)
 * against its oracles: ptxas -v run here directly at the same caps (its
 * registers, spills and stack), occ_calc walked register by register (the
 * staircase's steps), nvcc's own __launch_bounds__ directives, FIPS 180-4's
 * SHA-256 examples; and the cache, the kernel glob, the inputs (PTX, .cu,
 * fatbin) and the refusals, each one line. The data are
 * tests/data/regs/ (README.md there). Without ptxas the compiling cases
 * skip (exit 77) after the ones that need none.
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
#include <jansson.h>

#include "cli.h"
#include "cli_harness.h"
#include "occ_regs.h"
#include "regs_internal.h"
#include "test_data.h"

static char *ptxas;     /* found as occ regs finds it */
static char *nvcc;      /* NULL: the .cu case skips */
static char work[256];  /* this run's temporary directory */
static int scratch_seq; /* for unique names under it */

static char *read_data(const char *relative, size_t *size)
{
    char *text = NULL;
    occ_inspect_error err;
    if (regs_read_file(test_data_path(relative), 64 << 20, &text, size, &err) != OCC_OK) {
        fail_msg("%s", err.message);
    }
    return text;
}

/* A new empty directory under work/ (a fresh cache). */
static const char *fresh_dir(char *buf, size_t cap)
{
    snprintf(buf, cap, "%s/d%d", work, scratch_seq++);
    assert_int_equal(mkdir(buf, 0755), 0);
    return buf;
}

static void no_message_newline(const occ_inspect_error *err)
{
    assert_true(err->message[0] != '\0');
    assert_null(strchr(err->message, '\n'));
}

/* ---- needs no ptxas -------------------------------------------------------- */

/* sha-1..3: FIPS 180-4's examples (NIST's "SHA256.pdf"). */
static void sha256_test(void **state)
{
    (void)state;
    static const struct {
        const char *id, *text, *digest;
    } cases[] = {
        {"sha-1", "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"sha-2", "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"sha-3", "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        regs_sha256 h;
        regs_sha256_init(&h);
        /* fed in two parts, across a block boundary for the long one */
        size_t n = strlen(cases[i].text);
        regs_sha256_update(&h, cases[i].text, n / 2);
        regs_sha256_update(&h, cases[i].text + n / 2, n - n / 2);
        char hex[65];
        regs_sha256_hex(&h, hex);
        if (strcmp(hex, cases[i].digest) != 0) {
            fail_msg("%s: %s, not %s", cases[i].id, hex, cases[i].digest);
        }
    }
}

static void ptx_parse_test(void **state)
{
    (void)state;
    size_t size;
    char *text = read_data("regs/both.ptx", &size);
    ptx_module m;
    occ_inspect_error err;
    assert_int_equal(regs_ptx_parse(text, size, &m, &err), OCC_OK);
    assert_int_equal(m.version_major * 10 + m.version_minor, 90);
    assert_int_equal(m.target_sm, 90);
    assert_int_equal(m.entry_count, 2);
    assert_memory_equal(text + m.entries[0].name_at, "hungry", 6);
    assert_int_equal(m.entries[0].name_len, 6);
    assert_int_equal(m.entries[0].maxntid[0], 0);
    assert_memory_equal(text + m.entries[1].name_at, "light", 5);
    assert_int_equal(regs_ptx_dims_product(m.entries[1].maxntid), 128);
    assert_int_equal(text[m.entries[1].body_at], '{');
    regs_ptx_module_free(&m);
    free(text);

    /* refusals name the line */
    static const struct {
        const char *id, *text, *words;
    } bad[] = {
        {"ptx-bad-1", "hello\n", "not PTX"},
        {"ptx-bad-2", ".version 9.0\n.target sm_90\n.entry k(\n.param .u32 a\n", "line 3"},
        {"ptx-bad-3", ".version 9.0\n.target sm_90\n.entry k()\n.maxntid\n{ ret; }\n", "line 4"},
        {"ptx-bad-4", ".version 9.0\n.entry k() .minnctapersm 99999 { ret; }\n", "line 2"},
        {"ptx-bad-5", ".version 9.0\n.entry k()\n", "body is missing"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        occ_status s = regs_ptx_parse(bad[i].text, strlen(bad[i].text), &m, &err);
        if (s != OCC_ERR_BAD_FORMAT || strstr(err.message, bad[i].words) == NULL) {
            fail_msg("%s: status %d, '%s' (wanted '%s')", bad[i].id, (int)s, err.message,
                     bad[i].words);
        }
        no_message_newline(&err);
    }
    /* comments and strings hide what looks like an entry */
    const char *hidden = ".version 9.0 // .entry a() {}\n/* .entry b() {} */\n"
                         ".global .b8 s[4] = {1, 2, 3, 4};\n.entry c() { ret; }\n";
    assert_int_equal(regs_ptx_parse(hidden, strlen(hidden), &m, &err), OCC_OK);
    assert_int_equal(m.entry_count, 1);
    assert_int_equal(hidden[m.entries[0].name_at], 'c');
    regs_ptx_module_free(&m);
}

/* The text between an entry's parameter list and its body. */
static void directives_of(const char *text, size_t size, const char *entry, char *out, size_t cap)
{
    ptx_module m;
    assert_int_equal(regs_ptx_parse(text, size, &m, NULL), OCC_OK);
    for (size_t i = 0; i < m.entry_count; i++) {
        if (strncmp(text + m.entries[i].name_at, entry, strlen(entry)) == 0) {
            const char *close = text + m.entries[i].name_at;
            while (*close != ')') {
                close++;
            }
            size_t n = (size_t)(text + m.entries[i].body_at - close);
            snprintf(out, cap, "%.*s", (int)n, close);
        }
    }
    regs_ptx_module_free(&m);
}

/* min-1: __launch_bounds__(256, 4) written into hungry's entry reads as nvcc
   13.0 writes it (hungry_lb4.ptx); min-2: an entry's own .minnctapersm is
   replaced, not doubled. */
static void min_blocks_rewrite_test(void **state)
{
    (void)state;
    size_t size, nvcc_size;
    char *text = read_data("regs/hungry.ptx", &size);
    char *by_nvcc = read_data("regs/hungry_lb4.ptx", &nvcc_size);
    ptx_module m;
    assert_int_equal(regs_ptx_parse(text, size, &m, NULL), OCC_OK);
    bool selected[1] = {true};
    int threads[1] = {256};
    size_t out_size;
    char *ours = regs_ptx_with_min_blocks(text, size, &m, selected, threads, 4, &out_size);
    assert_non_null(ours);
    char want[256], got[256];
    directives_of(by_nvcc, nvcc_size, "hungry", want, sizeof want);
    directives_of(ours, out_size, "hungry", got, sizeof got);
    assert_string_equal(got, want);
    /* min-2 */
    ptx_module again;
    assert_int_equal(regs_ptx_parse(ours, out_size, &again, NULL), OCC_OK);
    size_t twice_size;
    char *twice =
        regs_ptx_with_min_blocks(ours, out_size, &again, selected, threads, 2, &twice_size);
    directives_of(twice, twice_size, "hungry", got, sizeof got);
    assert_string_equal(got, ")\n.maxntid 256, 1, 1\n.minnctapersm 2\n");
    regs_ptx_module_free(&again);
    regs_ptx_module_free(&m);
    free(twice);
    free(ours);
    free(text);
    free(by_nvcc);
}

static occ_regs_point pt(int cap, int regs, int spill, int stack, int blocks)
{
    occ_regs_point p = {0};
    p.cap = cap;
    p.regs = regs;
    p.spill_store_bytes = spill;
    p.stack_bytes = stack;
    p.blocks_per_sm = blocks;
    return p;
}

/* rule-1..6: the v1 rule on hand-made points (caps[0] is no cap). */
static void rule_test(void **state)
{
    (void)state;
    static const struct {
        const char *id;
        int count;
        int want;
    } ids[] = {{"rule-1", 1, 0}, {"rule-2", 3, 0}, {"rule-3", 3, 2},
               {"rule-4", 3, 1}, {"rule-5", 3, 0}, {"rule-6", 4, 1}};
    occ_regs_point sets[6][4] = {
        /* rule-1: nothing but no cap */
        {pt(0, 72, 0, 0, 3)},
        /* rule-2: every cap that adds blocks spills */
        {pt(0, 72, 0, 0, 3), pt(64, 64, 168, 40, 4), pt(32, 32, 1076, 272, 8)},
        /* rule-3: two free caps: the one with more blocks */
        {pt(0, 72, 0, 0, 3), pt(64, 64, 0, 0, 4), pt(56, 56, 0, 0, 5)},
        /* rule-4: a free cap, then a spilling one with more blocks */
        {pt(0, 72, 0, 0, 3), pt(64, 64, 0, 0, 4), pt(32, 32, 8, 8, 8)},
        /* rule-5: no spill but a larger stack than no cap's */
        {pt(0, 72, 0, 16, 3), pt(64, 64, 0, 32, 4), pt(56, 56, 4, 32, 5)},
        /* rule-6: a tie in blocks: the highest cap */
        {pt(0, 72, 0, 0, 3), pt(64, 64, 0, 0, 4), pt(60, 60, 0, 0, 4), pt(56, 56, 4, 8, 5)},
    };
    for (int i = 0; i < 6; i++) {
        int got = occ_regs_recommend(sets[i], ids[i].count);
        if (got != ids[i].want) {
            fail_msg("%s: index %d, not %d", ids[i].id, got, ids[i].want);
        }
    }
    /* the cliff and the words of rule-2 */
    assert_int_equal(regs_cliff_cap(sets[1], 3), 64);
    char why[1024];
    regs_why(sets[1], 3, 0, 8, 256, why, sizeof why);
    assert_non_null(strstr(why, "no cap"));
    assert_non_null(strstr(why, "cliff is at cap 64"));
    assert_non_null(strstr(why, "32 (8 blocks, 1076 spill bytes, 272 B stack)"));
    regs_why(sets[2], 3, 2, 8, 256, why, sizeof why);
    assert_true(strncmp(why, "cap 56: 5 blocks", 16) == 0);
}

static occ_regs_point smr_pt(int cap, int regs, int spill, int blocks, occ_regs_answer fits)
{
    occ_regs_point p = pt(cap, regs, spill, 0, blocks);
    p.setmaxnreg_fits = fits;
    return p;
}

/* rule-7..10: compiles that cannot run are never recommended (no block
   fits, or setmaxnreg's budgets do not fit the block's registers at entry:
   ws_gemm_nolb on the H200, docs/results/regs-h200); where no cap cannot
   run, the cap that runs with the fewest spills. */
static void rule_runs_test(void **state)
{
    (void)state;
    const occ_regs_answer Y = OCC_REGS_YES, N = OCC_REGS_NO, U = OCC_REGS_UNTOLD;
    static const struct {
        const char *id;
        int count;
        int want;
    } ids[] = {{"rule-7", 5, 2}, {"rule-8", 3, 0}, {"rule-9", 3, 0}, {"rule-10", 4, 2}};
    occ_regs_point sets[4][5] = {
        /* rule-7: ws_gemm_nolb's shape: no cap and 255 launch no block, 80 and 40
           hang; v1 alone would take 40 (4 blocks, no spills) */
        {smr_pt(0, 194, 0, 0, Y), smr_pt(255, 232, 0, 0, Y), smr_pt(168, 168, 0, 1, Y),
         smr_pt(80, 80, 0, 2, N), smr_pt(40, 40, 0, 4, N)},
        /* rule-8: no cap runs; the free caps that add blocks hang */
        {smr_pt(0, 168, 0, 1, Y), smr_pt(80, 80, 0, 2, N), smr_pt(40, 40, 0, 4, N)},
        /* rule-9: nothing runs */
        {smr_pt(0, 194, 0, 0, U), smr_pt(80, 80, 0, 2, N), smr_pt(40, 40, 0, 4, N)},
        /* rule-10: no cap launches no block: the running cap without spills,
           though one with spills gives more blocks */
        {smr_pt(0, 72, 0, 0, U), smr_pt(64, 64, 8, 1, U), smr_pt(56, 56, 0, 1, U),
         smr_pt(32, 32, 100, 2, U)},
    };
    for (int i = 0; i < 4; i++) {
        int got = occ_regs_recommend(sets[i], ids[i].count);
        if (got != ids[i].want) {
            fail_msg("%s: index %d, not %d", ids[i].id, got, ids[i].want);
        }
        for (int c = 0; c < ids[i].count; c++) {
            bool runs = sets[i][c].blocks_per_sm > 0 && sets[i][c].setmaxnreg_fits != N;
            assert_int_equal(occ_regs_point_runs(&sets[i][c]), runs);
        }
    }
    char why[1024];
    regs_why(sets[0], 5, 2, 4, 384, why, sizeof why);
    assert_true(strncmp(why, "cap 168: no cap cannot run (194 registers x 384 threads", 55) == 0);
    assert_non_null(strstr(why, "fit the 168 x 384 registers its block holds at entry"));
    assert_non_null(strstr(why, "Caps that cannot launch (no block fits an SM): 255."));
    assert_non_null(strstr(why, "registers the block holds at entry (a hang): 80, 40."));
    regs_why(sets[1], 3, 0, 4, 384, why, sizeof why);
    assert_non_null(strstr(why, "(a hang): 80, 40."));
    regs_why(sets[2], 3, 0, 4, 384, why, sizeof why);
    assert_true(strncmp(why, "no cap, though it cannot run", 28) == 0);
    assert_non_null(strstr(why, "no compile runs"));
}

/* cand-1..4: the caps worth timing on hand-made points (caps[0] is no cap,
   then highest first): no cap, then for each block count reached without
   spills the highest cap giving it, one per register count; only compiles
   that run. */
static void candidates_test(void **state)
{
    (void)state;
    static const struct {
        const char *id;
        int count;
        int want_count;
        int want[6];
    } ids[] = {{"cand-1", 7, 4, {0, 1, 3, 4}},
               {"cand-2", 4, 2, {0, 2}},
               {"cand-3", 5, 1, {2}},
               {"cand-4", 3, 1, {0}}};
    occ_regs_point sets[4][7] = {
        /* cand-1: dot32 on the H200 (ptxas 13.0): 255 and 128 both give 2
           blocks (255 the highest), 40 and 32 spill */
        {pt(0, 48, 0, 0, 5), pt(255, 117, 0, 0, 2), pt(128, 108, 0, 0, 2), pt(80, 80, 0, 0, 3),
         pt(64, 64, 0, 0, 4), pt(40, 40, 184, 40, 6), pt(32, 32, 360, 80, 8)},
        /* cand-2: a cap with no cap's registers adds nothing; the next one does */
        {pt(0, 31, 0, 0, 8), pt(255, 31, 0, 0, 8), pt(128, 80, 0, 0, 3), pt(64, 80, 0, 0, 3)},
        /* cand-3: no cap launches no block, 255 neither, 80 hangs */
        {smr_pt(0, 194, 0, 0, OCC_REGS_YES), smr_pt(255, 232, 0, 0, OCC_REGS_YES),
         smr_pt(168, 168, 0, 1, OCC_REGS_YES), smr_pt(80, 80, 0, 2, OCC_REGS_NO),
         smr_pt(40, 40, 0, 4, OCC_REGS_NO)},
        /* cand-4: every cap gives no cap's registers (__launch_bounds__ decides) */
        {pt(0, 168, 0, 0, 1), pt(80, 168, 0, 0, 1), pt(40, 168, 0, 0, 1)},
    };
    for (int i = 0; i < 4; i++) {
        int got[8];
        int n = occ_regs_candidates(sets[i], ids[i].count, got, 8);
        bool same = n == ids[i].want_count;
        for (int c = 0; same && c < n; c++) {
            same = got[c] == ids[i].want[c];
        }
        if (!same) {
            fail_msg("%s: %d candidates (first %d), not %d (first %d)", ids[i].id, n,
                     n > 0 ? got[0] : -1, ids[i].want_count, ids[i].want[0]);
        }
    }
    /* out's room is respected */
    int one[1];
    assert_int_equal(occ_regs_candidates(sets[0], 7, one, 1), 1);
    assert_int_equal(one[0], 0);
}

/* tool-1: nowhere to find ptxas says where it looked and how to point to it. */
static void find_tool_test(void **state)
{
    (void)state;
    char *path = NULL;
    occ_inspect_error err;
    char empty[300];
    fresh_dir(empty, sizeof empty);
    occ_status s = regs_find_tool("ptxas", NULL, empty, empty, empty, &path, &err);
    assert_int_equal(s, OCC_ERR_IO);
    assert_null(path);
    assert_non_null(strstr(err.message, "no ptxas found"));
    assert_non_null(strstr(err.message, "CUDA_HOME"));
    assert_non_null(strstr(err.message, "PATH"));
    no_message_newline(&err);
    s = regs_find_tool("ptxas", "/nonexistent/ptxas", NULL, NULL, NULL, &path, &err);
    assert_int_equal(s, OCC_ERR_IO);
    assert_non_null(strstr(err.message, "/nonexistent/ptxas"));
}

/* ---- needs ptxas ------------------------------------------------------------ */

/* One function of a `ptxas -v` log, read here apart from libocc-inspect's
   reader: the oracle. */
typedef struct ptxas_says {
    int regs, spill_stores, spill_loads, stack;
} ptxas_says;

static ptxas_says run_ptxas(const char *ptx_path, int cap, const char *kernel)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' -arch=sm_90 -v %s%.0d '%s' -o '%s/oracle.cubin' 2>&1", ptxas,
             cap > 0 ? "--maxrregcount " : "", cap, ptx_path, work);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    ptxas_says says = {-1, -1, -1, 0};
    char line[512];
    bool mine = false;
    while (fgets(line, sizeof line, p) != NULL) {
        char name[256];
        if (sscanf(line, "ptxas info : Compiling entry function '%255[^']'", name) == 1) {
            mine = strcmp(name, kernel) == 0;
        }
        int a, b, c;
        if (mine && sscanf(line,
                           " %d bytes stack frame, %d bytes spill stores, %d bytes spill "
                           "loads",
                           &a, &b, &c) == 3) {
            says.spill_stores = b;
            says.spill_loads = c;
        }
        const char *used = strstr(line, "Used ");
        if (mine && used != NULL && sscanf(used, "Used %d registers", &a) == 1) {
            says.regs = a;
            const char *stack = strstr(line, "bytes cumulative stack size");
            if (stack != NULL) {
                while (stack > line && stack[-1] == ' ') {
                    stack--;
                }
                while (stack > line && stack[-1] >= '0' && stack[-1] <= '9') {
                    stack--;
                }
                says.stack = atoi(stack);
            }
        }
    }
    assert_int_equal(pclose(p), 0);
    if (says.regs < 0) {
        fail_msg("ptxas printed nothing for %s at cap %d", kernel, cap);
    }
    return says;
}

static void options_for(occ_regs_options *o, const occ_device *h200, const char *cache)
{
    occ_regs_options_init(o);
    o->device = h200;
    o->threads = 256;
    o->cache_dir = cache;
    o->min_blocks_count = -1;
}

static occ_device h200(void)
{
    occ_device d;
    assert_int_equal(occ_gpu_find("H200", &d, NULL), OCC_OK);
    return d;
}

static occ_regs_result *run_ok(const char *path, const occ_regs_options *o)
{
    occ_regs_result *r = NULL;
    occ_inspect_error err;
    if (occ_regs_run(path, NULL, 0, o, &r, &err) != OCC_OK) {
        fail_msg("occ_regs_run %s: %s", path, err.message);
    }
    return r;
}

static void point_equals_ptxas(const occ_regs_point *p, const char *ptx_path, int cap,
                               const char *kernel)
{
    ptxas_says says = run_ptxas(ptx_path, cap, kernel);
    if (p->regs != says.regs || p->spill_store_bytes != says.spill_stores ||
        p->spill_load_bytes != says.spill_loads || p->stack_bytes != says.stack) {
        fail_msg("%s at cap %d: occ regs %d regs, %d/%d spill bytes, %d stack; ptxas -v %d, "
                 "%d/%d, %d",
                 kernel, cap, p->regs, p->spill_store_bytes, p->spill_load_bytes, p->stack_bytes,
                 says.regs, says.spill_stores, says.spill_loads, says.stack);
    }
}

/* caps-1: every cap's registers, spills and stack are ptxas -v's at the same
   cap; caps-2: the caps are occ_calc's staircase for the H200 at 256
   threads, walked one register count at a time: every register count where
   the blocks per SM step down (the most registers a block count allows),
   and 255, on both sides of the unconstrained compile's count, at or above
   ptxas's lowest, where a block fits; highest first. */
static void caps_equal_ptxas_test(void **state)
{
    (void)state;
    occ_device d = h200();
    occ_regs_options o;
    options_for(&o, &d, "");
    const char *path = test_data_path("regs/hungry.ptx");
    char ptx_path[512];
    snprintf(ptx_path, sizeof ptx_path, "%s", path);
    occ_regs_result *r = run_ok(ptx_path, &o);
    assert_int_equal(occ_regs_kernel_count(r), 1);
    const occ_regs_kernel *k = occ_regs_kernel_at(r, 0);
    assert_string_equal(k->mangled, "hungry");
    assert_int_equal(k->caps[0].cap, 0);
    for (int i = 0; i < k->cap_count; i++) {
        point_equals_ptxas(&k->caps[i], ptx_path, k->caps[i].cap, "hungry");
    }
    /* caps-2 */
    occ_regs_totals t;
    occ_regs_totals_get(r, &t);
    assert_int_equal(t.min_cap, 24); /* ptxas 13.0 on sm_90: "lower bound of 24" */
    int want[64], n = 0;
    occ_kernel kern;
    occ_kernel_init(&kern);
    kern.block_x = 256;
    kern.barriers = 0;
    int blocks_above = 0; /* at regs + 1 */
    for (int regs = 255; regs >= 1; regs--) {
        kern.regs_per_thread = regs;
        occ_result res;
        assert_int_equal(occ_calc(&d, &kern, &res, NULL), OCC_OK);
        bool step_top = regs == 255 || res.blocks_per_sm > blocks_above;
        if (step_top && res.blocks_per_sm > 0 && regs != k->caps[0].regs && regs >= t.min_cap) {
            want[n++] = regs;
        }
        blocks_above = res.blocks_per_sm;
    }
    assert_int_equal(k->cap_count - 1, n);
    assert_true(k->caps[1].cap == 255 && k->caps[1].cap > k->caps[0].regs);
    for (int i = 0; i < n; i++) {
        assert_int_equal(k->caps[i + 1].cap, want[i]);
        kern.regs_per_thread = k->caps[i + 1].regs;
        occ_result res;
        occ_calc(&d, &kern, &res, NULL);
        assert_int_equal(k->caps[i + 1].blocks_per_sm, res.blocks_per_sm);
    }
    /* hungry spills under a cap of 64: the rule keeps no cap, and names the cliff */
    assert_true(n >= 3);
    assert_int_equal(k->recommended, 0);
    int first_below = 1;
    while (k->caps[first_below].cap > k->caps[0].regs) {
        first_below++;
    }
    assert_int_equal(k->cliff_cap, k->caps[first_below].cap);
    assert_non_null(strstr(k->why, "cliff"));
    occ_regs_result_free(r);
}

/* above-1: dot32 (lab/regs/kernels, 48 registers uncapped on ptxas 13.0) is
   compiled at the staircase's step tops above 48 as well (64, 80, 128, 255
   at 256 threads), each equal to ptxas -v there, and ptxas uses more
   registers at some (the H200 ran it 22.6% faster at cap 64:
   docs/results/regs-h200); above-2: none of them is recommended (they add
   no block); above-3: the candidates are no cap and, for each block count
   some cap reaches without spills, the highest such cap, one per register
   count, found here by grouping the caps. */
static void above_test(void **state)
{
    (void)state;
    occ_device d = h200();
    occ_regs_options o;
    options_for(&o, &d, "");
    char path[512];
    snprintf(path, sizeof path, "%s", test_data_path("regs/dot32.ptx"));
    occ_regs_result *r = run_ok(path, &o);
    const occ_regs_kernel *k = occ_regs_kernel_at(r, 0);
    int above = 0, more_registers = 0;
    for (int i = 1; i < k->cap_count; i++) {
        const occ_regs_point *p = &k->caps[i];
        assert_true(p->cap < k->caps[i - 1].cap || i == 1);
        if (p->cap > k->caps[0].regs) {
            above++;
            more_registers += p->regs > k->caps[0].regs;
            point_equals_ptxas(p, path, p->cap, "kernel");
        }
    }
    assert_true(above >= 4);
    assert_true(more_registers >= 1);
    /* above-2 */
    assert_int_equal(k->recommended, 0);
    /* above-3: for each block count without spills, the highest cap */
    int best_for_blocks[33] = {0}; /* index into caps, 0 none */
    for (int i = k->cap_count - 1; i >= 1; i--) {
        const occ_regs_point *p = &k->caps[i];
        if (occ_regs_point_spill_bytes(p) == 0 && p->blocks_per_sm > 0) {
            best_for_blocks[p->blocks_per_sm] = i; /* the last written is the highest cap */
        }
    }
    int want[34], n = 0;
    want[n++] = 0;
    for (int i = 1; i < k->cap_count; i++) {
        bool chosen = best_for_blocks[k->caps[i].blocks_per_sm] == i;
        for (int c = 0; chosen && c < n; c++) {
            chosen = k->caps[want[c]].regs != k->caps[i].regs;
        }
        if (chosen) {
            want[n++] = i;
        }
    }
    assert_int_equal(k->candidate_count, n);
    for (int c = 0; c < n; c++) {
        assert_int_equal(k->candidates[c], want[c]);
    }
    assert_true(n >= 3); /* no cap, and caps above at more registers */
    occ_regs_result_free(r);
}

/* variants-1: each __launch_bounds__(256, N) variant is what ptxas -v gives
   for the module written with it. */
static void variants_test(void **state)
{
    (void)state;
    occ_device d = h200();
    occ_regs_options o;
    options_for(&o, &d, "");
    int wanted[] = {2, 4, 8};
    o.min_blocks = wanted;
    o.min_blocks_count = 3;
    const char *path = test_data_path("regs/hungry.ptx");
    char ptx_path[512];
    snprintf(ptx_path, sizeof ptx_path, "%s", path);
    occ_regs_result *r = run_ok(ptx_path, &o);
    const occ_regs_kernel *k = occ_regs_kernel_at(r, 0);
    assert_int_equal(k->launch_bounds_count, 3);
    size_t size;
    char *text = read_data("regs/hungry.ptx", &size);
    ptx_module m;
    assert_int_equal(regs_ptx_parse(text, size, &m, NULL), OCC_OK);
    for (int i = 0; i < k->launch_bounds_count; i++) {
        const occ_regs_point *p = &k->launch_bounds[i];
        assert_int_equal(p->min_blocks, wanted[i]);
        bool selected[1] = {true};
        int threads[1] = {256};
        size_t n;
        char *variant =
            regs_ptx_with_min_blocks(text, size, &m, selected, threads, p->min_blocks, &n);
        char variant_path[300];
        snprintf(variant_path, sizeof variant_path, "%s/variant%d.ptx", work, p->min_blocks);
        assert_int_equal(regs_write_file(variant_path, variant, n, NULL), OCC_OK);
        point_equals_ptxas(p, variant_path, 0, "hungry");
        free(variant);
        /* at least the blocks asked for, where ptxas could give them */
        assert_true(p->blocks_per_sm >= p->min_blocks || p->regs <= 32);
    }
    regs_ptx_module_free(&m);
    free(text);
    occ_regs_result_free(r);
}

/* cache-1: a second run compiles nothing; cache-2: a damaged entry is
   compiled again and rewritten; the figures never change. */
static void cache_test(void **state)
{
    (void)state;
    occ_device d = h200();
    char cache[300];
    fresh_dir(cache, sizeof cache);
    occ_regs_options o;
    options_for(&o, &d, cache);
    const char *path = test_data_path("regs/hungry.ptx");
    char ptx_path[512];
    snprintf(ptx_path, sizeof ptx_path, "%s", path);
    occ_regs_result *first = run_ok(ptx_path, &o);
    occ_regs_totals t;
    occ_regs_totals_get(first, &t);
    assert_true(t.compiles >= 3);
    assert_int_equal(t.ptxas_runs, t.compiles);
    assert_int_equal(t.cache_hits, 0);
    char *first_json = NULL;
    size_t first_size;
    assert_int_equal(occ_regs_json_text(first, &first_json, &first_size, NULL), OCC_OK);
    int compiles = t.compiles;

    occ_regs_result *second = run_ok(ptx_path, &o);
    occ_regs_totals_get(second, &t);
    assert_int_equal(t.compiles, compiles);
    assert_int_equal(t.ptxas_runs, 0);
    assert_int_equal(t.cache_hits, compiles);
    const occ_regs_kernel *a = occ_regs_kernel_at(first, 0), *b = occ_regs_kernel_at(second, 0);
    assert_int_equal(a->cap_count, b->cap_count);
    assert_memory_equal(a->caps, b->caps, (size_t)a->cap_count * sizeof *a->caps);

    /* cache-2: cut one entry short */
    char cmd[700];
    snprintf(cmd, sizeof cmd,
             "f=$(ls '%s'/*.log | head -n 1) && head -c 40 \"$f\" > \"$f.cut\" "
             "&& mv \"$f.cut\" \"$f\"",
             cache);
    assert_int_equal(system(cmd), 0);
    occ_regs_result *third = run_ok(ptx_path, &o);
    occ_regs_totals_get(third, &t);
    assert_int_equal(t.ptxas_runs, 1);
    assert_int_equal(t.cache_hits, compiles - 1);
    char *third_json = NULL;
    size_t third_size;
    assert_int_equal(occ_regs_json_text(third, &third_json, &third_size, NULL), OCC_OK);
    /* the same document but for the counts */
    const char *k1 = strstr(first_json, "\"kernels\"");
    const char *k3 = strstr(third_json, "\"kernels\"");
    assert_string_equal(k1, k3);
    occ_regs_result *fourth = run_ok(ptx_path, &o);
    occ_regs_totals_get(fourth, &t);
    assert_int_equal(t.ptxas_runs, 0);
    occ_inspect_text_free(first_json);
    occ_inspect_text_free(third_json);
    occ_regs_result_free(first);
    occ_regs_result_free(second);
    occ_regs_result_free(third);
    occ_regs_result_free(fourth);
}

/* light-1: every block fits already: only caps above its registers are
   compiled (the staircase's step tops up to 255), none recommended; the block size is
   its .maxntid. glob-1: --kernel selects one kernel of a module; glob-2: a
   glob that matches none lists the kernels. */
static void light_and_glob_test(void **state)
{
    (void)state;
    occ_device d = h200();
    occ_regs_options o;
    options_for(&o, &d, "");
    o.threads = 0;
    char path[512];
    snprintf(path, sizeof path, "%s", test_data_path("regs/light.ptx"));
    occ_regs_result *r = run_ok(path, &o);
    const occ_regs_kernel *k = occ_regs_kernel_at(r, 0);
    assert_int_equal(k->threads, 128);
    assert_string_equal(k->threads_source, "maxntid");
    assert_true(k->cap_count > 1);
    for (int i = 1; i < k->cap_count; i++) {
        assert_true(k->caps[i].cap > k->caps[0].regs);
        assert_true(k->caps[i].blocks_per_sm <= k->caps[0].blocks_per_sm);
    }
    assert_int_equal(k->caps[1].cap, 255);
    assert_int_equal(k->recommended, 0);
    assert_int_equal(k->caps[0].occupancy, 1.0);
    assert_non_null(strstr(k->why, "the most this launch allows"));
    point_equals_ptxas(&k->caps[0], path, 0, "light");
    occ_regs_result_free(r);

    snprintf(path, sizeof path, "%s", test_data_path("regs/both.ptx"));
    o.kernel_glob = "li*";
    r = run_ok(path, &o);
    assert_int_equal(occ_regs_kernel_count(r), 1);
    assert_string_equal(occ_regs_kernel_at(r, 0)->name, "light");
    occ_regs_result_free(r);

    o.kernel_glob = "gemm*";
    occ_inspect_error err;
    assert_int_equal(occ_regs_run(path, NULL, 0, &o, &r, &err), OCC_ERR_NOT_FOUND);
    assert_null(r);
    assert_non_null(strstr(err.message, "--kernel 'gemm*' matches none of the 2 kernels"));
    assert_non_null(strstr(err.message, "hungry, light"));
    no_message_newline(&err);
}

/* bad-1..4: each refusal is one line with its value and limit. */
static void bad_inputs_test(void **state)
{
    (void)state;
    occ_device d = h200();
    occ_regs_options o;
    options_for(&o, &d, "");
    occ_regs_result *r = NULL;
    occ_inspect_error err;
    /* bad-1: no ptxas */
    o.ptxas = "/nonexistent/bin/ptxas";
    char path[512];
    snprintf(path, sizeof path, "%s", test_data_path("regs/hungry.ptx"));
    assert_int_equal(occ_regs_run(path, NULL, 0, &o, &r, &err), OCC_ERR_IO);
    assert_non_null(strstr(err.message, "ptxas '/nonexistent/bin/ptxas' cannot be run"));
    no_message_newline(&err);
    o.ptxas = NULL;
    /* bad-2: not PTX (the .cu's text, given as a .txt) */
    snprintf(path, sizeof path, "%s", test_data_path("regs/README.md"));
    assert_int_equal(occ_regs_run(path, NULL, 0, &o, &r, &err), OCC_ERR_BAD_FORMAT);
    assert_non_null(strstr(err.message, "README.md: not PTX"));
    no_message_newline(&err);
    /* bad-3: a cap below ptxas's lowest */
    int low[] = {16};
    o.caps = low;
    o.cap_count = 1;
    snprintf(path, sizeof path, "%s", test_data_path("regs/hungry.ptx"));
    assert_int_equal(occ_regs_run(path, NULL, 0, &o, &r, &err), OCC_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(err.message, "cap 16 is below the lowest --maxrregcount"));
    assert_non_null(strstr(err.message, "sm_90, 24"));
    no_message_newline(&err);
    o.caps = NULL;
    o.cap_count = 0;
    /* bad-4: PTX ptxas refuses (no .target it can compile: sm_100 for an H200) */
    const char *above = ".version 9.0\n.target sm_100\n.address_size 64\n.entry k() { ret; }\n";
    assert_int_equal(occ_regs_run("above.ptx", above, strlen(above), &o, &r, &err),
                     OCC_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(err.message, "the PTX targets sm_100, above sm_90"));
    const char *broken = ".version 9.0\n.target sm_90\n.address_size 64\n"
                         ".entry k() { bogus.instruction; }\n";
    assert_int_equal(occ_regs_run("broken.ptx", broken, strlen(broken), &o, &r, &err),
                     OCC_ERR_BAD_FORMAT);
    assert_non_null(strstr(err.message, "broken.ptx: ptxas refused the PTX"));
    no_message_newline(&err);
    assert_null(r);
}

/* input-1: a fatbin's compute_90 PTX gives what the .ptx gives; input-2: an
   arch the fatbin has no PTX for is refused with the archs it has; input-3:
   a .cu through nvcc (skipped without nvcc). */
static void inputs_test(void **state)
{
    (void)state;
    occ_device d = h200();
    occ_regs_options o;
    options_for(&o, &d, "");
    char path[512];
    snprintf(path, sizeof path, "%s", test_data_path("regs/hungry.ptx"));
    occ_regs_result *from_ptx = run_ok(path, &o);
    snprintf(path, sizeof path, "%s", test_data_path("regs/hungry.fatbin"));
    occ_regs_result *from_fatbin = run_ok(path, &o);
    occ_regs_totals t;
    occ_regs_totals_get(from_fatbin, &t);
    assert_string_equal(t.input_kind, "fatbin");
    const occ_regs_kernel *a = occ_regs_kernel_at(from_ptx, 0);
    const occ_regs_kernel *b = occ_regs_kernel_at(from_fatbin, 0);
    assert_int_equal(a->cap_count, b->cap_count);
    assert_memory_equal(a->caps, b->caps, (size_t)a->cap_count * sizeof *a->caps);
    occ_regs_result_free(from_fatbin);

    o.arch_sm = 80;
    occ_regs_result *r = NULL;
    occ_inspect_error err;
    assert_int_equal(occ_regs_run(path, NULL, 0, &o, &r, &err), OCC_ERR_NOT_FOUND);
    assert_non_null(strstr(err.message, "no PTX for sm_80"));
    assert_non_null(strstr(err.message, "compute_90"));
    o.arch_sm = 0;

    if (nvcc == NULL) {
        fprintf(stderr, "test_regs: input-3 skipped: no nvcc\n");
        occ_regs_result_free(from_ptx);
        return;
    }
    o.nvcc = nvcc;
    snprintf(path, sizeof path, "%s", test_data_path("regs/hungry.cu"));
    occ_regs_result *from_cu = run_ok(path, &o);
    occ_regs_totals_get(from_cu, &t);
    assert_string_equal(t.input_kind, "cu");
    b = occ_regs_kernel_at(from_cu, 0);
    assert_int_equal(a->cap_count, b->cap_count);
    assert_memory_equal(a->caps, b->caps, (size_t)a->cap_count * sizeof *a->caps);
    occ_regs_result_free(from_cu);
    /* the arguments after -- reach nvcc: a bound of 4 blocks changes the PTX */
    const char *args[] = {"-DOCC_MIN_BLOCKS=4"};
    o.nvcc_args = args;
    o.nvcc_arg_count = 1;
    from_cu = run_ok(path, &o);
    b = occ_regs_kernel_at(from_cu, 0);
    assert_string_equal(b->threads_source, "threads");
    assert_true(b->caps[0].regs <= 64);
    occ_regs_result_free(from_cu);
    occ_regs_result_free(from_ptx);
}

/* cli-1: --json is the occ.regs document, with the candidates (null for no
   cap) and each cap's setmaxnreg_fits (null: hungry has no setmaxnreg);
   cli-2: the table and the candidates; cli-3: usage errors exit 2, bad data
   1; cli-4: --svg writes a chart whose occupancy line runs left to right
   over the caps on both sides of no cap, a ring a candidate. */
static void cli_test(void **state)
{
    (void)state;
    char path[512], svg_path[300];
    snprintf(path, sizeof path, "%s", test_data_path("regs/hungry.ptx"));
    snprintf(svg_path, sizeof svg_path, "%s/caps.svg", work);
    assert_int_equal(OCC(NULL, "regs", "--gpu", "H200", "--min-blocks", "none", "--no-cache",
                         "--json", "--svg", svg_path, path),
                     EXIT_OK);
    json_error_t jerr;
    json_t *doc = json_loads(last.out, 0, &jerr);
    if (doc == NULL) {
        fail_msg("not JSON: %s", jerr.text);
    }
    assert_string_equal(json_string_value(json_object_get(doc, "schema")), "occ.regs");
    assert_int_equal(json_integer_value(json_object_get(doc, "version")), OCC_REGS_SCHEMA_VERSION);
    assert_string_equal(json_string_value(json_object_get(doc, "arch")), "sm_90");
    json_t *k = json_array_get(json_object_get(doc, "kernels"), 0);
    json_t *caps = json_object_get(k, "caps");
    assert_true(json_array_size(caps) >= 4);
    assert_true(json_is_null(json_object_get(json_array_get(caps, 0), "cap")));
    static const char *const fields[] = {"regs", "spill_store_bytes", "spill_load_bytes",
                                         "stack_bytes", "blocks_per_sm"};
    for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
        assert_true(json_is_integer(json_object_get(json_array_get(caps, 1), fields[f])));
    }
    assert_true(json_is_integer(json_object_get(json_array_get(caps, 1), "cap")));
    assert_true(json_is_real(json_object_get(json_array_get(caps, 1), "occupancy")));
    assert_true(json_is_null(json_object_get(k, "recommended_cap")));
    assert_true(json_is_string(json_object_get(k, "why")));
    assert_true(json_is_null(json_object_get(k, "setmaxnreg")));
    assert_true(json_is_null(json_object_get(json_array_get(caps, 1), "setmaxnreg_fits")));
    json_t *candidates = json_object_get(k, "candidates");
    assert_true(json_array_size(candidates) >= 1);
    assert_true(json_is_null(json_array_get(candidates, 0))); /* no cap */
    size_t candidate_count = json_array_size(candidates);
    json_decref(doc);
    size_t svg_size;
    char *svg = NULL;
    assert_int_equal(regs_read_file(svg_path, 1 << 20, &svg, &svg_size, NULL), OCC_OK);
    assert_non_null(strstr(svg, "<svg"));
    const char *points = strstr(svg, "<polyline");
    assert_non_null(points);
    points = strstr(points, "points=\"") + 8;
    double previous_x = -1, x, y;
    int seen = 0, used;
    while (sscanf(points, "%lf,%lf%n", &x, &y, &used) == 2) {
        assert_true(x >= previous_x);
        previous_x = x;
        points += used;
        seen++;
    }
    assert_true(seen >= 8); /* no cap, 255, 128, 80, 64, 48, 40, 32 */
    size_t rings = 0;
    for (const char *at = svg; (at = strstr(at, "stroke=\"#d08a00\"")) != NULL; at++) {
        rings++;
    }
    assert_int_equal(rings, candidate_count);
    free(svg);

    assert_int_equal(OCC(NULL, "regs", "--gpu", "H200", "--min-blocks", "none", "--no-cache", path),
                     EXIT_OK);
    assert_non_null(strstr(last.out, "  CAP       REGS  SPILL-ST"));
    assert_non_null(strstr(last.out, "recommended: no cap"));
    assert_non_null(strstr(last.out, "\n  to time (no cap, and each block count's highest cap "
                                     "without spills): none ("));

    /* cli-3 */
    assert_int_equal(OCC(NULL, "regs", "--caps", "300", path), EXIT_USAGE);
    assert_non_null(strstr(last.err, "option --caps: '300' is above the maximum, 255"));
    assert_int_equal(OCC(NULL, "regs", "--gpu", "H200", "--no-cache", "--caps", "16", path),
                     EXIT_USAGE);
    assert_int_equal(line_count(last.err), 2); /* the line, then the hint */
    assert_int_equal(OCC(NULL, "regs", "--gpu", "H200", "--no-cache", "--kernel", "x", path),
                     EXIT_DATA);
    assert_int_equal(line_count(last.err), 1);
    assert_int_equal(OCC(NULL, "regs", path, "--", "-O3"), EXIT_USAGE);
    assert_int_equal(OCC(NULL, "regs"), EXIT_USAGE);
    assert_int_equal(OCC(NULL, "regs", "--help"), EXIT_OK);
    assert_non_null(strstr(last.out, "usage: occ regs"));
}

int main(void)
{
    snprintf(work, sizeof work, "%s/occ-test-regs-XXXXXX",
             getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
    if (mkdtemp(work) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    const struct CMUnitTest plain[] = {
        cmocka_unit_test(sha256_test),
        cmocka_unit_test(ptx_parse_test),
        cmocka_unit_test(min_blocks_rewrite_test),
        cmocka_unit_test(rule_test),
        cmocka_unit_test(rule_runs_test),
        cmocka_unit_test(candidates_test),
        cmocka_unit_test(find_tool_test),
    };
    int failed = cmocka_run_group_tests_name("regs", plain, NULL, NULL);
    occ_inspect_error err;
    if (regs_find_tool("ptxas", NULL, getenv("CUDA_HOME"), getenv("PATH"), "/usr/local/cuda/bin",
                       &ptxas, &err) != OCC_OK) {
        fprintf(stderr, "test_regs: SKIP the ptxas cases: %s\n", err.message);
        return failed != 0 ? 1 : 77;
    }
    if (regs_find_tool("nvcc", NULL, getenv("CUDA_HOME"), getenv("PATH"), "/usr/local/cuda/bin",
                       &nvcc, NULL) != OCC_OK) {
        nvcc = NULL;
    }
    const struct CMUnitTest with_ptxas[] = {
        cmocka_unit_test(caps_equal_ptxas_test), cmocka_unit_test(above_test),
        cmocka_unit_test(variants_test),         cmocka_unit_test(cache_test),
        cmocka_unit_test(light_and_glob_test),   cmocka_unit_test(bad_inputs_test),
        cmocka_unit_test(inputs_test),           cmocka_unit_test(cli_test),
    };
    failed += cmocka_run_group_tests_name("regs-ptxas", with_ptxas, NULL, NULL);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", work);
    if (system(cmd) != 0) {
        fprintf(stderr, "test_regs: could not remove %s\n", work);
    }
    free(ptxas);
    free(nvcc);
    return failed != 0 ? 1 : 0;
}
