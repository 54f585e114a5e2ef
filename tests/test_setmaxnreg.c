/*
 * test_setmaxnreg.c - a warp-specialized kernel's setmaxnreg checked
 * (inspect/regs/setmaxnreg.h) on the reproducers of tests/data/setmaxnreg/
 * (README.md there: nvcc 13.0 and hand-written PTX, ptxas 13.0's logs and
 * cubins): which warp groups run which setmaxnreg, their budgets against
 * the block's pool and the SM's register file, ptxas's messages, whether
 * the cubin still holds USETMAXREG, the JSON object, and the counts the
 * PTX ISA refuses. The expected figures are worked by hand from the
 * kernels' sources (each .cu says its arithmetic); the lines are found in
 * the PTX text by this test, not taken from the code under test.
 *
 * With ptxas (as occ regs finds it), the same PTX is compiled here again:
 * the messages of today's ptxas must be the recorded ones, and the
 * USETMAXREG encoding is held to ptxas itself: the count read from the
 * cubin equals the PTX's for every count compiled, and code compiled
 * without setmaxnreg holds no instruction with its opcode. Without ptxas
 * those cases skip (exit 77) after the others ran.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "json_stream.h"
#include "regs_internal.h"
#include "setmaxnreg.h"
#include "test_data.h"

static char *ptxas; /* found as occ regs finds it */
static char work[256];

typedef struct blob {
    char *bytes;
    size_t size;
} blob;

static blob read_path(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fail_msg("cannot open %s", path);
    }
    blob b = {NULL, 0};
    size_t cap = 0;
    for (;;) {
        if (b.size + 4096 + 1 > cap) {
            cap = cap != 0 ? cap * 2 : 65536;
            b.bytes = realloc(b.bytes, cap);
            assert_non_null(b.bytes);
        }
        size_t n = fread(b.bytes + b.size, 1, 4096, f);
        b.size += n;
        if (n == 0) {
            break;
        }
    }
    fclose(f);
    b.bytes[b.size] = '\0';
    return b;
}

static blob read_data(const char *name)
{
    char relative[256];
    snprintf(relative, sizeof relative, "setmaxnreg/%s", name);
    FILE *f = test_data_open(relative, "rb"); /* fails the test, naming the path */
    fclose(f);
    return read_path(test_data_path(relative));
}

/* The line of the nth (from 1) occurrence of `needle` in text, counted
   from the start of entry `entry` where it is not NULL. */
static int line_in(const char *text, const char *entry, const char *needle, int nth)
{
    const char *at = text;
    if (entry != NULL) {
        char head[128];
        snprintf(head, sizeof head, ".entry %s(", entry);
        at = strstr(text, head);
        if (at == NULL) {
            fail_msg("no '%s' in the PTX", head);
        }
    }
    for (int i = 0; i < nth; i++) {
        at = strstr(i == 0 ? at : at + 1, needle);
        if (at == NULL) {
            fail_msg("'%s' does not occur %d times", needle, nth);
        }
    }
    int line = 1;
    for (const char *p = text; p < at; p++) {
        line += *p == '\n';
    }
    return line;
}

static int line_of(const char *text, const char *needle, int nth)
{
    return line_in(text, NULL, needle, nth);
}

/* ---- the cases -------------------------------------------------------------- */

#define G(g) (1u << (g))

typedef struct site_expect {
    insp_smr_action action;
    int regs_per_thread;
    unsigned groups; /* 0: not told (JSON null) */
} site_expect;

typedef struct smr_case {
    const char *id;
    const char *ptx, *entry, *log, *cubin; /* files; log and cubin may be NULL */
    int regs_at_entry, block_threads, blocks_per_sm;
    /* expected */
    int warp_groups;
    site_expect sites[4]; /* in the PTX's order; action 0 ends */
    site_expect at_entry; /* regs_per_thread 0: no at-entry region */
    long long block_budget, budget, pool;
    insp_smr_answer fits, honoured;
    int usetmaxreg;       /* -1: no cubin read */
    const char *messages; /* the codes, comma-separated */
    const char *note;     /* words the note holds, or NULL: no note */
} smr_case;

static const smr_case cases[] = {
    /* fits.cu: (40 + 2 x 232) x 128 = 64,512, the block's 168 x 384 */
    {"fits-1",
     "fits.ptx",
     "fits",
     "fits.log",
     "fits.cubin",
     168,
     0,
     1,
     3,
     {{INSP_SMR_INC, 232, G(1) | G(2)}, {INSP_SMR_DEC, 40, G(0)}},
     {0, 0, 0},
     (40 + 2 * 232) * 128,
     (40 + 2 * 232) * 128,
     168 * 384,
     INSP_SMR_YES,
     INSP_SMR_YES,
     2,
     "",
     NULL},
    /* two such blocks would need 129,024 of the SM's 65,536 */
    {"fits-2",
     "fits.ptx",
     "fits",
     "fits.log",
     "fits.cubin",
     168,
     0,
     2,
     3,
     {{INSP_SMR_INC, 232, G(1) | G(2)}, {INSP_SMR_DEC, 40, G(0)}},
     {0, 0, 0},
     (40 + 2 * 232) * 128,
     2 * (40 + 2 * 232) * 128,
     168 * 384,
     INSP_SMR_NO,
     INSP_SMR_YES,
     2,
     "",
     "above the SM's 65536"},
    /* sm_100a: nvcc writes the branch as setp.gt.u32 %p, %tid.x, 127 */
    {"fits-sm100a",
     "fits.sm_100a.ptx",
     "fits",
     "fits.sm_100a.log",
     "fits.sm_100a.cubin",
     168,
     0,
     1,
     3,
     {{INSP_SMR_DEC, 40, G(0)}, {INSP_SMR_INC, 232, G(1) | G(2)}},
     {0, 0, 0},
     (40 + 2 * 232) * 128,
     (40 + 2 * 232) * 128,
     168 * 384,
     INSP_SMR_YES,
     INSP_SMR_YES,
     2,
     "",
     NULL},
    /* shfl.sync of %tid.x / 128, a role switch, an elected warp */
    {"cutlass-1",
     "cutlass_style.ptx",
     "cutlass_style",
     "cutlass_style.log",
     "cutlass_style.cubin",
     168,
     0,
     1,
     3,
     {{INSP_SMR_INC, 232, G(1) | G(2)}, {INSP_SMR_DEC, 40, G(0)}},
     {0, 0, 0},
     (40 + 2 * 232) * 128,
     (40 + 2 * 232) * 128,
     168 * 384,
     INSP_SMR_YES,
     INSP_SMR_YES,
     2,
     "",
     NULL},
    /* threadIdx.x >= 256: the producer is the last group; (24 + 2 x 240) x 128 */
    {"tid-compare-1",
     "tid_compare.ptx",
     "tid_compare",
     "tid_compare.log",
     "tid_compare.cubin",
     168,
     0,
     1,
     3,
     {{INSP_SMR_DEC, 24, G(2)}, {INSP_SMR_INC, 240, G(0) | G(1)}},
     {0, 0, 0},
     (24 + 2 * 240) * 128,
     (24 + 2 * 240) * 128,
     168 * 384,
     INSP_SMR_YES,
     INSP_SMR_YES,
     2,
     "",
     NULL},
    /* pool_edge.cu: (48 + 2 x 232) x 128 = 65,536 fits the register file but
       not the block's 168 x 384 = 64,512 (it deadlocks on an H200:
       docs/results/setmaxnreg-h200) */
    {"pool-edge-1",
     "pool_edge.ptx",
     "pool_edge",
     "pool_edge.log",
     "pool_edge.cubin",
     168,
     0,
     1,
     3,
     {{INSP_SMR_INC, 232, G(1) | G(2)}, {INSP_SMR_DEC, 48, G(0)}},
     {0, 0, 0},
     (48 + 2 * 232) * 128,
     (48 + 2 * 232) * 128,
     168 * 384,
     INSP_SMR_NO,
     INSP_SMR_YES,
     2,
     "",
     "above the 64512 it holds at entry"},
    /* oversubscribed.cu: (40 + 3 x 240) x 128 = 97,280 per block, x 2 blocks;
       the pool is 64 x 512 */
    {"oversubscribed-1",
     "oversubscribed.ptx",
     "oversubscribed",
     "oversubscribed.log",
     "oversubscribed.cubin",
     64,
     0,
     2,
     4,
     {{INSP_SMR_INC, 240, G(1) | G(2) | G(3)}, {INSP_SMR_DEC, 40, G(0)}},
     {0, 0, 0},
     (40 + 3 * 240) * 128,
     2 * (40 + 3 * 240) * 128,
     64 * 512,
     INSP_SMR_NO,
     INSP_SMR_YES,
     2,
     "",
     "above the 32768 it holds at entry"},
    /* idle_group.cu: group 3 keeps 128; (40 + 2 x 200 + 128) x 128 = 72,704 */
    {"idle-group-1",
     "idle_group.ptx",
     "idle_group",
     "idle_group.log",
     "idle_group.cubin",
     128,
     0,
     1,
     4,
     {{INSP_SMR_INC, 200, G(1) | G(2)}, {INSP_SMR_DEC, 40, G(0)}},
     {INSP_SMR_AT_ENTRY, 128, G(3)},
     (40 + 2 * 200 + 128) * 128,
     (40 + 2 * 200 + 128) * 128,
     128 * 512,
     INSP_SMR_NO,
     INSP_SMR_YES,
     2,
     "",
     "setmaxnreg.inc can wait forever"},
    /* a kernel parameter picks the role: every group may take 232, which
       may not fit (3 x 232 x 128 = 89,088), and cannot be told */
    {"runtime-branch-1",
     "runtime_branch.ptx",
     "runtime_branch",
     "runtime_branch.log",
     "runtime_branch.cubin",
     168,
     0,
     1,
     3,
     {{INSP_SMR_DEC, 40, 0}, {INSP_SMR_INC, 232, 0}},
     {0, 0, 0},
     3 * 232 * 128,
     3 * 232 * 128,
     168 * 384,
     INSP_SMR_UNKNOWN,
     INSP_SMR_YES,
     2,
     "",
     "may ask for"},
    /* no __launch_bounds__: C7508, no USETMAXREG left; the launch's 384
       threads tell the groups; what the PTX meant fits the register file.
       The pool: 22 registers are 704 a warp, 768 in units of 256, x 12 warps */
    {"c7508-1",
     "c7508.ptx",
     "c7508",
     "c7508.log",
     "c7508.cubin",
     22,
     384,
     1,
     3,
     {{INSP_SMR_INC, 232, G(1) | G(2)}, {INSP_SMR_DEC, 40, G(0)}},
     {0, 0, 0},
     (40 + 2 * 232) * 128,
     (40 + 2 * 232) * 128,
     768 * 12,
     INSP_SMR_YES,
     INSP_SMR_NO,
     0,
     "C7508",
     NULL},
    /* ... without the launch's threads nor .maxntid, no groups */
    {"c7508-2",
     "c7508.ptx",
     "c7508",
     "c7508.log",
     "c7508.cubin",
     22,
     0,
     1,
     0,
     {{INSP_SMR_INC, 232, 0}, {INSP_SMR_DEC, 40, 0}},
     {0, 0, 0},
     -1,
     -1,
     -1,
     INSP_SMR_UNKNOWN,
     INSP_SMR_NO,
     0,
     "C7508",
     "block size is unknown"},
    /* ... and without the cubin, honoured comes from the message */
    {"c7508-3",
     "c7508.ptx",
     "c7508",
     "c7508.log",
     NULL,
     22,
     384,
     1,
     3,
     {{INSP_SMR_INC, 232, G(1) | G(2)}, {INSP_SMR_DEC, 40, G(0)}},
     {0, 0, 0},
     (40 + 2 * 232) * 128,
     (40 + 2 * 232) * 128,
     768 * 12,
     INSP_SMR_YES,
     INSP_SMR_NO,
     -1,
     "C7508",
     NULL},
    /* one compile, two kernels, one C7508 naming neither: the cubin says
       `bounded` kept its setmaxnreg and `unbounded` lost them */
    {"two-kernels-1",
     "two_kernels.ptx",
     "bounded",
     "two_kernels.log",
     "two_kernels.cubin",
     168,
     0,
     1,
     3,
     {{INSP_SMR_INC, 232, G(1) | G(2)}, {INSP_SMR_DEC, 40, G(0)}},
     {0, 0, 0},
     (40 + 2 * 232) * 128,
     (40 + 2 * 232) * 128,
     168 * 384,
     INSP_SMR_YES,
     INSP_SMR_YES,
     2,
     "",
     "about another kernel"},
    {"two-kernels-2",
     "two_kernels.ptx",
     "unbounded",
     "two_kernels.log",
     "two_kernels.cubin",
     22,
     384,
     1,
     3,
     {{INSP_SMR_INC, 232, G(1) | G(2)}, {INSP_SMR_DEC, 40, G(0)}},
     {0, 0, 0},
     (40 + 2 * 232) * 128,
     (40 + 2 * 232) * 128,
     768 * 12,
     INSP_SMR_YES,
     INSP_SMR_NO,
     0,
     "C7508",
     NULL},
    /* ptxas's other messages (recorded logs, no cubin) */
    {"c7504-1",
     "fits.ptx",
     "fits",
     "c7504.log",
     NULL,
     168,
     0,
     1,
     3,
     {{INSP_SMR_INC, 232, G(1) | G(2)}, {INSP_SMR_DEC, 40, G(0)}},
     {0, 0, 0},
     (40 + 2 * 232) * 128,
     (40 + 2 * 232) * 128,
     168 * 384,
     INSP_SMR_YES,
     INSP_SMR_NO,
     -1,
     "C7504",
     NULL},
    {"c7505-1",
     "fits.ptx",
     "fits",
     "c7505.log",
     NULL,
     168,
     0,
     1,
     3,
     {{INSP_SMR_INC, 232, G(1) | G(2)}, {INSP_SMR_DEC, 40, G(0)}},
     {0, 0, 0},
     (40 + 2 * 232) * 128,
     (40 + 2 * 232) * 128,
     168 * 384,
     INSP_SMR_YES,
     INSP_SMR_NO,
     -1,
     "C7505",
     NULL},
    {"c7506-1",
     "extern_call.ptx",
     "extern_call",
     "c7506.log",
     NULL,
     168,
     0,
     1,
     3,
     {{INSP_SMR_INC, 232, G(1) | G(2)}, {INSP_SMR_DEC, 40, G(0)}},
     {0, 0, 0},
     (40 + 2 * 232) * 128,
     (40 + 2 * 232) * 128,
     168 * 384,
     INSP_SMR_YES,
     INSP_SMR_NO,
     -1,
     "C7506",
     NULL},
    /* wgmma_extern.ptx: 256 threads, shr.u32 %tid.x, 7; (40 + 232) x 128; the
       -c compile's 34 registers are 1,088 a warp, 1,280 in units of 256 */
    {"c7509-1",
     "wgmma_extern.ptx",
     "wgmma_extern",
     "c7509.log",
     NULL,
     34,
     0,
     1,
     2,
     {{INSP_SMR_INC, 232, G(1)}, {INSP_SMR_DEC, 40, G(0)}},
     {0, 0, 0},
     (40 + 232) * 128,
     (40 + 232) * 128,
     1280 * 8,
     INSP_SMR_YES,
     INSP_SMR_NO,
     -1,
     "C7504,C7509",
     NULL},
    {"maxrregcount-1",
     "fits.ptx",
     "fits",
     "maxrregcount.log",
     NULL,
     168,
     0,
     1,
     3,
     {{INSP_SMR_INC, 232, G(1) | G(2)}, {INSP_SMR_DEC, 40, G(0)}},
     {0, 0, 0},
     (40 + 2 * 232) * 128,
     (40 + 2 * 232) * 128,
     168 * 384,
     INSP_SMR_YES,
     INSP_SMR_UNKNOWN,
     -1,
     "maxrregcount-ignored",
     NULL},
    {"minnctapersm-1",
     "minnctapersm.ptx",
     "fits",
     "minnctapersm.log",
     NULL,
     168,
     0,
     1,
     3,
     {{INSP_SMR_INC, 232, G(1) | G(2)}, {INSP_SMR_DEC, 40, G(0)}},
     {0, 0, 0},
     (40 + 2 * 232) * 128,
     (40 + 2 * 232) * 128,
     168 * 384,
     INSP_SMR_YES,
     INSP_SMR_NO,
     -1,
     "minnctapersm-out-of-range,C7508",
     NULL},
    {"maxnreg-1",
     "maxnreg.ptx",
     "fits",
     "maxnreg.log",
     NULL,
     168,
     0,
     1,
     3,
     {{INSP_SMR_INC, 232, G(1) | G(2)}, {INSP_SMR_DEC, 40, G(0)}},
     {0, 0, 0},
     (40 + 2 * 232) * 128,
     (40 + 2 * 232) * 128,
     168 * 384,
     INSP_SMR_YES,
     INSP_SMR_UNKNOWN,
     -1,
     "maxnreg-ignored",
     NULL},
    {"unsupported-target-1",
     "fits.sm_90.ptx",
     "fits",
     "unsupported-target.log",
     NULL,
     168,
     0,
     1,
     3,
     {{INSP_SMR_INC, 232, G(1) | G(2)}, {INSP_SMR_DEC, 40, G(0)}},
     {0, 0, 0},
     (40 + 2 * 232) * 128,
     (40 + 2 * 232) * 128,
     168 * 384,
     INSP_SMR_YES,
     INSP_SMR_NO,
     -1,
     "setmaxnreg-unsupported-target",
     NULL},
    /* a message that names another entry is that entry's (the log names
       `fits`; its unnamed C7508 stays) */
    {"named-1",
     "two_kernels.ptx",
     "unbounded",
     "minnctapersm.log",
     NULL,
     22,
     384,
     1,
     3,
     {{INSP_SMR_INC, 232, G(1) | G(2)}, {INSP_SMR_DEC, 40, G(0)}},
     {0, 0, 0},
     (40 + 2 * 232) * 128,
     (40 + 2 * 232) * 128,
     768 * 12,
     INSP_SMR_YES,
     INSP_SMR_NO,
     -1,
     "C7508",
     NULL},
};

static const smr_case *case_by_id(const char *id)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (strcmp(cases[i].id, id) == 0) {
            return &cases[i];
        }
    }
    fail_msg("no case %s", id);
    return NULL;
}

static const char *answer_name(insp_smr_answer a)
{
    return a == INSP_SMR_YES ? "true" : a == INSP_SMR_NO ? "false" : "null";
}

static void run_case(const smr_case *c, insp_setmaxnreg *out, blob *ptx)
{
    *ptx = read_data(c->ptx);
    blob log = {NULL, 0}, cubin = {NULL, 0};
    if (c->log != NULL) {
        log = read_data(c->log);
    }
    if (c->cubin != NULL) {
        cubin = read_data(c->cubin);
    }
    occ_inspect_error err;
    occ_status st = insp_setmaxnreg_analyse(
        ptx->bytes, ptx->size, c->entry, log.bytes, log.size, (const unsigned char *)cubin.bytes,
        cubin.size, c->regs_at_entry, c->block_threads, c->blocks_per_sm, NULL, out, &err);
    if (st != OCC_OK) {
        fail_msg("%s: %s", c->id, err.message);
    }
    free(log.bytes);
    free(cubin.bytes);
}

static void check_case(const smr_case *c)
{
    insp_setmaxnreg r;
    blob ptx;
    run_case(c, &r, &ptx);
    if (!r.present) {
        fail_msg("%s: no setmaxnreg found", c->id);
    }
    if (r.warp_group_count != c->warp_groups) {
        fail_msg("%s: %d warp groups, not %d", c->id, r.warp_group_count, c->warp_groups);
    }
    int region = 0;
    if (c->at_entry.regs_per_thread > 0) {
        const insp_smr_region *e = &r.regions[region++];
        if (e->action != INSP_SMR_AT_ENTRY || e->regs_per_thread != c->at_entry.regs_per_thread ||
            e->warp_groups != c->at_entry.groups || !e->groups_exact) {
            fail_msg("%s: the at-entry region is %s %d groups 0x%x", c->id,
                     insp_setmaxnreg_action_name(e->action), e->regs_per_thread, e->warp_groups);
        }
    }
    int n = 0;
    for (; c->sites[n].action != 0; n++) {
        const site_expect *want = &c->sites[n];
        if (region >= r.region_count) {
            fail_msg("%s: %d regions, fewer than expected", c->id, r.region_count);
        }
        const insp_smr_region *got = &r.regions[region++];
        int line = line_in(ptx.bytes, c->entry, "setmaxnreg.", n + 1);
        bool groups_ok = want->groups != 0 ? got->groups_exact && got->warp_groups == want->groups
                                           : !got->groups_exact || got->warp_groups == 0;
        if (got->action != want->action || got->regs_per_thread != want->regs_per_thread ||
            got->line != line || !groups_ok) {
            fail_msg("%s: region %d is %s %d at line %d, groups 0x%x (exact %d); expected %s %d "
                     "at line %d, groups 0x%x",
                     c->id, region, insp_setmaxnreg_action_name(got->action), got->regs_per_thread,
                     got->line, got->warp_groups, got->groups_exact,
                     insp_setmaxnreg_action_name(want->action), want->regs_per_thread, line,
                     want->groups);
        }
    }
    if (region != r.region_count) {
        fail_msg("%s: %d regions, not %d", c->id, r.region_count, region);
    }
    if (r.block_budget_regs != c->block_budget || r.budget_regs != c->budget ||
        r.pool_regs != c->pool) {
        fail_msg("%s: block budget %lld, budget %lld, pool %lld; expected %lld, %lld, %lld", c->id,
                 r.block_budget_regs, r.budget_regs, r.pool_regs, c->block_budget, c->budget,
                 c->pool);
    }
    if (r.fits != c->fits || r.honoured != c->honoured || r.usetmaxreg_count != c->usetmaxreg) {
        fail_msg("%s: fits %s, honoured %s, %d USETMAXREG; expected %s, %s, %d (note: %s)", c->id,
                 answer_name(r.fits), answer_name(r.honoured), r.usetmaxreg_count,
                 answer_name(c->fits), answer_name(c->honoured), c->usetmaxreg, r.note);
    }
    char codes[256] = "";
    for (int i = 0; i < r.message_count; i++) {
        size_t used = strlen(codes);
        snprintf(codes + used, sizeof codes - used, "%s%s", i > 0 ? "," : "", r.messages[i].code);
    }
    if (strcmp(codes, c->messages) != 0) {
        fail_msg("%s: ptxas messages '%s', expected '%s'", c->id, codes, c->messages);
    }
    if (c->note != NULL ? strstr(r.note, c->note) == NULL : r.note[0] != '\0') {
        fail_msg("%s: note '%s', expected %s%s%s", c->id, r.note, c->note != NULL ? "'" : "none",
                 c->note != NULL ? c->note : "", c->note != NULL ? "'" : "");
    }
    if (strchr(r.note, '\n') != NULL) {
        fail_msg("%s: the note is more than one line", c->id);
    }
    free(ptx.bytes);
}

static void cases_test(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        check_case(&cases[i]);
    }
}

/* No setmaxnreg: no object. */
static void plain_test(void **state)
{
    (void)state;
    blob ptx = read_data("plain.ptx"), log = read_data("plain.log"),
         cubin = read_data("plain.cubin");
    insp_setmaxnreg r;
    occ_inspect_error err;
    assert_int_equal(insp_setmaxnreg_analyse(ptx.bytes, ptx.size, "plain", log.bytes, log.size,
                                             (const unsigned char *)cubin.bytes, cubin.size, 10,
                                             256, 1, NULL, &r, &err),
                     OCC_OK);
    assert_false(r.present);
    assert_int_equal(r.region_count, 0);
    /* a module without setmaxnreg is not searched for the entry */
    assert_int_equal(insp_setmaxnreg_analyse(ptx.bytes, ptx.size, "not_in_it", NULL, 0, NULL, 0, 10,
                                             256, 1, NULL, &r, &err),
                     OCC_OK);
    assert_false(r.present);
    free(ptx.bytes);
    free(log.bytes);
    free(cubin.bytes);
}

/* The JSON object, exactly, for a kernel whose groups are told and for one
   whose are not; the string form equals the stream's. */
static void json_test(void **state)
{
    (void)state;
    insp_setmaxnreg r;
    blob ptx;
    run_case(case_by_id("fits-1"), &r, &ptx);
    char want[1024];
    snprintf(want, sizeof want,
             "{\"regions\":[{\"action\":\"inc\",\"line\":%d,\"regs_per_thread\":232,"
             "\"warp_groups\":[1,2],\"warp_group_count\":2,\"regs\":%d},"
             "{\"action\":\"dec\",\"line\":%d,\"regs_per_thread\":40,\"warp_groups\":[0],"
             "\"warp_group_count\":1,\"regs\":%d}],\"budget_regs\":%d,\"fits\":true,"
             "\"ptxas_messages\":[],\"honoured\":true,\"usetmaxreg_count\":2,"
             "\"block_budget_regs\":%d,\"pool_regs\":%d,\"regs_per_sm\":65536,"
             "\"errors\":[],\"note\":\"\"}",
             line_of(ptx.bytes, "setmaxnreg.inc", 1), 232 * 128 * 2,
             line_of(ptx.bytes, "setmaxnreg.dec", 1), 40 * 128, (40 + 2 * 232) * 128,
             (40 + 2 * 232) * 128, 168 * 384);
    char *got = insp_setmaxnreg_json_string(&r);
    assert_non_null(got);
    assert_string_equal(got, want);
    json_stream s;
    json_stream_init_memory(&s);
    insp_setmaxnreg_json(&s, &r);
    json_stream_flush(&s);
    assert_int_equal(s.memory_bytes, strlen(got));
    assert_memory_equal(s.memory, got, s.memory_bytes);
    json_stream_free(&s);
    free(got);
    free(ptx.bytes);

    run_case(case_by_id("c7508-2"), &r, &ptx); /* no block size */
    snprintf(want, sizeof want,
             "{\"regions\":[{\"action\":\"inc\",\"line\":%d,\"regs_per_thread\":232,"
             "\"warp_groups\":null,\"warp_group_count\":null,\"regs\":null},"
             "{\"action\":\"dec\",\"line\":%d,\"regs_per_thread\":40,\"warp_groups\":null,"
             "\"warp_group_count\":null,\"regs\":null}],\"budget_regs\":null,\"fits\":null,"
             "\"ptxas_messages\":[\"C7508\"],\"honoured\":false,\"usetmaxreg_count\":0,"
             "\"block_budget_regs\":null,\"pool_regs\":null,\"regs_per_sm\":65536,"
             "\"errors\":[\"ptxas: (C7508) Potential Performance Loss: 'setmaxnreg' ignored; "
             "unable to determine register count at entry.\"],\"note\":\"%s\"}",
             line_of(ptx.bytes, "setmaxnreg.inc", 1), line_of(ptx.bytes, "setmaxnreg.dec", 1),
             r.note);
    got = insp_setmaxnreg_json_string(&r);
    assert_string_equal(got, want);
    free(got);
    free(ptx.bytes);

    run_case(case_by_id("idle-group-1"), &r, &ptx); /* the at-entry region */
    got = insp_setmaxnreg_json_string(&r);
    assert_non_null(strstr(got, "{\"action\":\"entry\",\"line\":null,\"regs_per_thread\":128,"
                                "\"warp_groups\":[3],\"warp_group_count\":1,\"regs\":16384}"));
    assert_non_null(strstr(got, "\"fits\":false"));
    free(got);
    free(ptx.bytes);
}

/* errors-1..9: what insp_setmaxnreg_errors calls an error, from ptxas's own
   logs (the README's commands): each message about the registers, a budget
   that does not fit, and a setmaxnreg dropped without a word; none for a
   kernel that fits and kept its setmaxnreg. */
static void errors_test(void **state)
{
    (void)state;
    static const struct {
        const char *id, *ptx, *entry, *log, *cubin;
        int regs_at_entry;
        int count;
        const char *first, *second;
    } logs[] = {
        {"errors-1", "fits.ptx", "fits", "c7504.log", NULL, 168, 1,
         "ptxas: (C7504) Potential Performance Loss: 'setmaxnreg' ignored to maintain "
         "compatibility across compilation units.",
         NULL},
        {"errors-2", "fits.ptx", "fits", "c7505.log", NULL, 168, 1,
         "ptxas: (C7505) Potential Performance Loss: 'setmaxnreg' ignored to allow debugging.",
         NULL},
        {"errors-3", "extern_call.ptx", "extern_call", "c7506.log", NULL, 168, 1,
         "ptxas: (C7506) Potential Performance Loss: 'setmaxnreg' ignored to maintain "
         "compatibility into 'extern' call.",
         NULL},
        {"errors-4", "wgmma_extern.ptx", "wgmma_extern", "c7509.log", NULL, 168, 2,
         "ptxas: (C7504) Potential Performance Loss",
         "ptxas: (C7509) Potential Performance Loss: wgmma.mma_async instructions are "
         "serialized due to the presence of Extern calls in the function 'wgmma_extern'"},
        {"errors-5", "fits.ptx", "fits", "maxrregcount.log", "fits.cubin", 168, 1,
         "ptxas: Too big maxrregcount value specified 300, will be ignored", NULL},
        {"errors-6", "minnctapersm.ptx", "fits", "minnctapersm.log", NULL, 22, 2,
         "ptxas: Value of minnctapersm for entry fits is out of range. minnctapersm will be "
         "ignored",
         "ptxas: (C7508) Potential Performance Loss: 'setmaxnreg' ignored; unable to determine "
         "register count at entry."},
        {"errors-7", "pool_edge.ptx", "pool_edge", "pool_edge.log", "pool_edge.cubin", 168, 1,
         "setmaxnreg can deadlock: the warp groups ask for 65536 registers per block, above the "
         "64512 it holds at entry (168 per thread x 384 threads): setmaxnreg.inc can wait "
         "forever",
         NULL},
        /* the cubin of the C7508 compile, without its log: dropped in silence */
        {"errors-8", "c7508.ptx", "c7508", NULL, "c7508.cubin", 22, 1,
         "setmaxnreg dropped: the code holds no USETMAXREG for the kernel's 2 setmaxnreg, and "
         "ptxas said nothing",
         NULL},
        {"errors-9", "fits.ptx", "fits", "fits.log", "fits.cubin", 168, 0, NULL, NULL},
    };
    for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++) {
        blob ptx = read_data(logs[i].ptx);
        blob log = logs[i].log != NULL ? read_data(logs[i].log) : (blob){NULL, 0};
        blob cubin = logs[i].cubin != NULL ? read_data(logs[i].cubin) : (blob){NULL, 0};
        insp_setmaxnreg r;
        occ_inspect_error err;
        if (insp_setmaxnreg_analyse(ptx.bytes, ptx.size, logs[i].entry, log.bytes, log.size,
                                    (const unsigned char *)cubin.bytes, cubin.size,
                                    logs[i].regs_at_entry, 384, 1, NULL, &r, &err) != OCC_OK) {
            fail_msg("%s: %s", logs[i].id, err.message);
        }
        char errors[INSP_SMR_ERRORS_BYTES];
        int n = insp_setmaxnreg_errors(&r, errors, sizeof errors);
        int lines = errors[0] != '\0';
        for (const char *c = errors; *c != '\0'; c++) {
            lines += *c == '\n';
        }
        const char *second = strchr(errors, '\n');
        bool ok =
            n == logs[i].count && lines == n &&
            (logs[i].first == NULL || strncmp(errors, logs[i].first, strlen(logs[i].first)) == 0) &&
            (logs[i].second == NULL || (second != NULL && strcmp(second + 1, logs[i].second) == 0));
        if (!ok) {
            fail_msg("%s: %d errors '%s'; expected %d, '%s' then '%s'", logs[i].id, n, errors,
                     logs[i].count, logs[i].first != NULL ? logs[i].first : "",
                     logs[i].second != NULL ? logs[i].second : "");
        }
        /* a buffer too small for a line leaves it out whole */
        char tiny[16];
        insp_setmaxnreg_errors(&r, tiny, sizeof tiny);
        assert_string_equal(tiny, "");
        free(ptx.bytes);
        free(log.bytes);
        free(cubin.bytes);
    }
}

/* Hand-written entries for the paths the reproducers do not take: a call to
   a .func that runs setmaxnreg (before and after the entry), an indirect
   branch, a block of two dimensions, a guarded setmaxnreg, and a group that
   gives registers back and takes more later. */
static void paths_test(void **state)
{
    (void)state;
    static const char head[] = ".version 8.0\n.target sm_90a\n.address_size 64\n";
    static const char role[] = "{\n .reg .pred %p<3>;\n .reg .b32 %r<4>;\n"
                               " mov.u32 %r1, %tid.x;\n shr.u32 %r2, %r1, 7;\n"
                               " setp.eq.s32 %p1, %r2, 0;\n";
    static const struct {
        const char *id, *before, *dims, *body, *after;
        insp_smr_answer fits;
        long long block_budget;
        const char *note;
    } paths[] = {
        {"call-1", ".func helper()\n{\n setmaxnreg.dec.sync.aligned.u32 40;\n ret;\n}\n",
         "256, 1, 1",
         " @%p1 bra $P;\n setmaxnreg.inc.sync.aligned.u32 232;\n ret;\n"
         "$P:\n call helper, ();\n ret;\n}\n",
         "", INSP_SMR_UNKNOWN, -1, "calls a .func that runs setmaxnreg"},
        {"call-2", ".func helper();\n", "256, 1, 1",
         " @%p1 bra $P;\n setmaxnreg.inc.sync.aligned.u32 232;\n ret;\n"
         "$P:\n call helper, ();\n ret;\n}\n",
         ".func helper()\n{\n setmaxnreg.dec.sync.aligned.u32 40;\n ret;\n}\n", INSP_SMR_UNKNOWN,
         -1, "calls a .func that runs setmaxnreg"},
        {"brx-1", "", "256, 1, 1",
         " setmaxnreg.inc.sync.aligned.u32 232;\n $T: .branchtargets $A, $B;\n"
         " brx.idx %r2, $T;\n$A:\n ret;\n$B:\n ret;\n}\n",
         "", INSP_SMR_UNKNOWN, -1, "indirect branch"},
        /* %tid.x alone does not give the group: both groups may run both,
           and (232 + 232) x 128 still fits the register file */
        {"two-dims-1", "", "128, 2, 1",
         " @%p1 bra $P;\n setmaxnreg.inc.sync.aligned.u32 232;\n ret;\n"
         "$P:\n setmaxnreg.dec.sync.aligned.u32 40;\n ret;\n}\n",
         "", INSP_SMR_YES, 2 * 232 * 128, NULL},
        /* the guard itself picks the groups: group 0 at 40, group 1 at 232 */
        {"guarded-1", "", "256, 1, 1",
         " @%p1 setmaxnreg.dec.sync.aligned.u32 40;\n"
         " @!%p1 setmaxnreg.inc.sync.aligned.u32 232;\n ret;\n}\n",
         "", INSP_SMR_YES, (40 + 232) * 128, NULL},
        /* group 0 gives back to 40, then takes 256: counted at 256, with
           groups 1 and 2 at 232 more than the 65,536 of the register file */
        {"sequence-1", "", "384, 1, 1",
         " @%p1 bra $P;\n setmaxnreg.inc.sync.aligned.u32 232;\n ret;\n"
         "$P:\n setmaxnreg.dec.sync.aligned.u32 40;\n"
         " setmaxnreg.inc.sync.aligned.u32 256;\n ret;\n}\n",
         "", INSP_SMR_NO, (256 + 2 * 232) * 128, "above the SM's 65536"},
    };
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        char ptx[2048];
        snprintf(ptx, sizeof ptx, "%s%s.visible .entry k()\n.maxntid %s\n%s%s%s", head,
                 paths[i].before, paths[i].dims, role, paths[i].body, paths[i].after);
        insp_setmaxnreg r;
        occ_inspect_error err;
        if (insp_setmaxnreg_analyse(ptx, strlen(ptx), "k", NULL, 0, NULL, 0, 0, 0, 1, NULL, &r,
                                    &err) != OCC_OK) {
            fail_msg("%s: %s", paths[i].id, err.message);
        }
        bool note_ok = paths[i].note != NULL ? strstr(r.note, paths[i].note) != NULL : true;
        if (!r.present || r.fits != paths[i].fits || r.block_budget_regs != paths[i].block_budget ||
            !note_ok) {
            fail_msg("%s: fits %s, block budget %lld, note '%s'; expected %s, %lld, '%s'",
                     paths[i].id, answer_name(r.fits), r.block_budget_regs, r.note,
                     answer_name(paths[i].fits), paths[i].block_budget,
                     paths[i].note != NULL ? paths[i].note : "");
        }
        if (strcmp(paths[i].id, "two-dims-1") == 0) {
            for (int g = 0; g < r.region_count; g++) {
                assert_false(r.regions[g].groups_exact); /* JSON null */
            }
        }
        if (strcmp(paths[i].id, "guarded-1") == 0) {
            assert_int_equal(r.region_count, 2);
            assert_true(r.regions[0].groups_exact && r.regions[0].warp_groups == G(0));
            assert_true(r.regions[1].groups_exact && r.regions[1].warp_groups == G(1));
        }
    }
}

/* An exit the whole block takes before any setmaxnreg (`if (n < N)
   return;` on a kernel parameter, as ws_gemm_nolb.cu has it) holds no
   budget: every warp leaves there, none waits. 384 threads, 168 at entry
   (a pool of 64,512); group 0 dec 40, groups 1-2 inc 232 (64,512). The
   exit counts where the warps may part ways before it: a value of one
   thread (global memory), a call's result read through .param, or a
   kernel parameter tested by one group alone. */
static void block_exit_test(void **state)
{
    (void)state;
    static const char head[] = ".version 8.0\n.target sm_90a\n.address_size 64\n"
                               ".func (.param .b32 out) value()\n{\n st.param.b32 [out], 1;\n"
                               " ret;\n}\n"
                               ".visible .entry k(.param .u32 k_param_0, .param .u64 k_param_1)\n"
                               ".maxntid 384, 1, 1\n{\n .reg .pred %p<4>;\n .reg .b32 %r<6>;\n"
                               " .reg .b64 %rd<2>;\n";
    static const char split[] = " mov.u32 %r1, %tid.x;\n setp.lt.u32 %p1, %r1, 128;\n"
                                " @%p1 bra $PRODUCER;\n";
    static const char roles[] = " setmaxnreg.inc.sync.aligned.u32 232;\n ret;\n"
                                "$PRODUCER:\n setmaxnreg.dec.sync.aligned.u32 40;\n"
                                " bra.uni $OUT;\n$OUT:\n ret;\n}\n";
    static const struct {
        const char *id, *before_split, *after_split;
        insp_smr_answer fits;
        long long block_budget;
    } exits[] = {
        {"block-exit-1",
         " ld.param.u32 %r3, [k_param_0];\n setp.lt.s32 %p2, %r3, 16;\n"
         " @%p2 bra $OUT;\n",
         "", INSP_SMR_YES, (40 + 2 * 232) * 128},
        {"block-exit-2",
         " mov.u32 %r3, %ctaid.x;\n add.s32 %r4, %r3, 1;\n"
         " setp.ge.u32 %p2, %r4, 100;\n @%p2 bra $OUT;\n",
         "", INSP_SMR_YES, (40 + 2 * 232) * 128},
        {"block-exit-3",
         " ld.param.u64 %rd1, [k_param_1+0];\n ld.global.u32 %r3, [%rd1];\n"
         " setp.lt.s32 %p2, %r3, 16;\n @%p2 bra $OUT;\n",
         "", INSP_SMR_UNKNOWN, (168 + 2 * 232) * 128},
        {"block-exit-4",
         " {\n .param .b32 r;\n call (r), value, ();\n ld.param.b32 %r3, [r];\n"
         " }\n setp.lt.s32 %p2, %r3, 16;\n @%p2 bra $OUT;\n",
         "", INSP_SMR_UNKNOWN, (168 + 2 * 232) * 128},
        /* the producer alone tests the parameter: it may leave at 168 while the
           consumers take 232 */
        {"block-exit-5", "", "", INSP_SMR_UNKNOWN, (168 + 2 * 232) * 128},
    };
    for (size_t i = 0; i < sizeof exits / sizeof exits[0]; i++) {
        char ptx[2048];
        if (strcmp(exits[i].id, "block-exit-5") == 0) {
            snprintf(ptx, sizeof ptx,
                     "%s%s setmaxnreg.inc.sync.aligned.u32 232;\n ret;\n$PRODUCER:\n"
                     " ld.param.u32 %%r3, [k_param_0];\n setp.lt.s32 %%p2, %%r3, 16;\n"
                     " @%%p2 bra $OUT;\n setmaxnreg.dec.sync.aligned.u32 40;\n$OUT:\n ret;\n}\n",
                     head, split);
        } else {
            snprintf(ptx, sizeof ptx, "%s%s%s%s%s", head, exits[i].before_split, split,
                     exits[i].after_split, roles);
        }
        insp_setmaxnreg r;
        occ_inspect_error err;
        if (insp_setmaxnreg_analyse(ptx, strlen(ptx), "k", NULL, 0, NULL, 0, 168, 384, 1, NULL, &r,
                                    &err) != OCC_OK) {
            fail_msg("%s: %s", exits[i].id, err.message);
        }
        if (!r.present || r.fits != exits[i].fits || r.block_budget_regs != exits[i].block_budget) {
            fail_msg("%s: fits %s, block budget %lld, note '%s'; expected %s, %lld", exits[i].id,
                     answer_name(r.fits), r.block_budget_regs, r.note, answer_name(exits[i].fits),
                     exits[i].block_budget);
        }
    }
}

/* Counts the PTX ISA refuses, each with its line and the rule. */
static void refusals_test(void **state)
{
    (void)state;
    static const struct {
        const char *id, *file, *words;
    } bad[] = {
        {"count-1", "count-250.ptx", "setmaxnreg count 250 is not a multiple of 8"},
        {"count-2", "count-264.ptx", "setmaxnreg count 264 is above the maximum, 256"},
        {"count-3", "count-16.ptx", "setmaxnreg count 16 is below the minimum, 24"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        blob ptx = read_data(bad[i].file);
        insp_setmaxnreg r;
        occ_inspect_error err;
        memset(&err, 0, sizeof err);
        occ_status st = insp_setmaxnreg_analyse(ptx.bytes, ptx.size, "bad_count", NULL, 0, NULL, 0,
                                                168, 0, 1, NULL, &r, &err);
        char want[200];
        snprintf(want, sizeof want, "PTX line %d: %s", line_of(ptx.bytes, "setmaxnreg.inc", 1),
                 bad[i].words);
        if (st != OCC_ERR_BAD_FORMAT || strcmp(err.message, want) != 0) {
            fail_msg("%s: status %d '%s', expected '%s'", bad[i].id, st, err.message, want);
        }
        free(ptx.bytes);
    }
    /* written wrongly: the qualifiers, the operand */
    static const struct {
        const char *id, *ptx, *words;
    } forms[] = {
        {"form-1", ".entry k() { setmaxnreg.inc.u32 232; ret; }",
         "PTX line 1: 'setmaxnreg.inc.u32': setmaxnreg is written "
         "setmaxnreg.inc.sync.aligned.u32"},
        {"form-2", ".entry k() { setmaxnreg.sync.aligned.u32 232; ret; }",
         "PTX line 1: 'setmaxnreg.sync.aligned.u32': setmaxnreg needs .inc or .dec"},
        {"form-3", ".entry k()\n{\n setmaxnreg.dec.sync.aligned.u32 %r1;\n}",
         "PTX line 3: setmaxnreg count '%r1' is not an integer constant"},
        {"form-4", ".entry k() { setmaxnreg.dec.sync.aligned.u32 40, 48; }",
         "PTX line 1: setmaxnreg takes one register count, not 2 operands"},
        {"form-5", ".entry k() { setmaxnreg.dec.sync.aligned.u32 40; ",
         "PTX: entry 'k' has no closing '}'"},
        {"form-6", ".entry k() { setmaxnreg.dec.sync.aligned.u32 40 }",
         "PTX line 1: instruction 'setmaxnreg.dec.sync.aligned.u32' in entry 'k' has no ';'"},
        {"form-7", ".entry k();\n.entry j() { setmaxnreg.dec.sync.aligned.u32 40; ret; }",
         "PTX line 1: .entry 'k' is declared without a body"},
        /* fuzz/corpus/setmaxnreg/hostile-operand-over-lines.ptx: an operand that runs
           over lines is quoted up to its first line's end (the fuzzer found the
           message in two lines) */
        {"form-8",
         ".entry k()\n{\n\tsetmaxnreg.dec.sync.aligned.u32 40 // no semicolon\n\tret;\n}\n",
         "PTX line 3: setmaxnreg count '40 // no semicolon...' is not an integer constant"},
    };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        insp_setmaxnreg r;
        occ_inspect_error err;
        memset(&err, 0, sizeof err);
        occ_status st = insp_setmaxnreg_analyse(forms[i].ptx, strlen(forms[i].ptx), "k", NULL, 0,
                                                NULL, 0, 0, 256, 1, NULL, &r, &err);
        if (st != OCC_ERR_BAD_FORMAT || strcmp(err.message, forms[i].words) != 0) {
            fail_msg("%s: status %d '%s', expected '%s'", forms[i].id, st, err.message,
                     forms[i].words);
        }
    }
    /* the entry, the arguments */
    blob ptx = read_data("fits.ptx");
    insp_setmaxnreg r;
    occ_inspect_error err;
    assert_int_equal(insp_setmaxnreg_analyse(ptx.bytes, ptx.size, "nope", NULL, 0, NULL, 0, 168, 0,
                                             1, NULL, &r, &err),
                     OCC_ERR_NOT_FOUND);
    assert_string_equal(err.message, "PTX: no .entry 'nope' in the module");
    assert_int_equal(insp_setmaxnreg_analyse(ptx.bytes, ptx.size, "fits", NULL, 0, NULL, 0, 256, 0,
                                             1, NULL, &r, &err),
                     OCC_ERR_INVALID_ARGUMENT);
    assert_string_equal(err.message, "setmaxnreg: registers at entry: 256 is outside 0..255");
    assert_int_equal(insp_setmaxnreg_analyse(ptx.bytes, ptx.size, "fits", NULL, 0, NULL, 0, 168,
                                             2048, 1, NULL, &r, &err),
                     OCC_ERR_INVALID_ARGUMENT);
    assert_string_equal(err.message, "setmaxnreg: threads per block: 2048 is outside 0..1024");
    /* a damaged cubin is refused, not read past its end */
    blob cubin = read_data("fits.cubin");
    assert_int_equal(insp_setmaxnreg_analyse(ptx.bytes, ptx.size, "fits", NULL, 0,
                                             (const unsigned char *)cubin.bytes, 100, 168, 0, 1,
                                             NULL, &r, &err),
                     OCC_ERR_BAD_FORMAT);
    assert_non_null(strstr(err.message, "cubin: offset"));
    free(cubin.bytes);
    free(ptx.bytes);
}

/* The USETMAXREG reader on the recorded cubins: each setmaxnreg of the PTX
   as a USETMAXREG of its form (TRY_ALLOC for .inc, DEALLOC for .dec) and
   count, none where ptxas dropped them or the kernel has none, and -1 for
   an arch before sm_90 and for a kernel the cubin lacks. */
typedef struct sass_expect {
    insp_smr_action action;
    int regs_per_thread;
} sass_expect;

/* found == want_count and list[] holds want[] in any order. */
static bool same_sass(int found, const insp_smr_sass *list, int want_count, const sass_expect *want)
{
    if (found != want_count) {
        return false;
    }
    bool used[8] = {false};
    for (int w = 0; w < want_count; w++) {
        bool matched = false;
        for (int k = 0; k < found && k < 8 && !matched; k++) {
            matched = !used[k] && list[k].action == want[w].action &&
                      list[k].regs_per_thread == want[w].regs_per_thread;
            used[k] = used[k] || matched;
        }
        if (!matched) {
            return false;
        }
    }
    return true;
}

static void sass_test(void **state)
{
    (void)state;
    static const struct {
        const char *id, *cubin, *entry;
        int found;
        sass_expect want[2];
    } cubins[] = {
        {"sass-1", "fits.cubin", "fits", 2, {{INSP_SMR_INC, 232}, {INSP_SMR_DEC, 40}}},
        {"sass-2", "fits.sm_100a.cubin", "fits", 2, {{INSP_SMR_INC, 232}, {INSP_SMR_DEC, 40}}},
        {"sass-3",
         "tid_compare.cubin",
         "tid_compare",
         2,
         {{INSP_SMR_INC, 240}, {INSP_SMR_DEC, 24}}},
        {"sass-4",
         "oversubscribed.cubin",
         "oversubscribed",
         2,
         {{INSP_SMR_INC, 240}, {INSP_SMR_DEC, 40}}},
        {"sass-5", "idle_group.cubin", "idle_group", 2, {{INSP_SMR_INC, 200}, {INSP_SMR_DEC, 40}}},
        {"sass-6",
         "cutlass_style.cubin",
         "cutlass_style",
         2,
         {{INSP_SMR_INC, 232}, {INSP_SMR_DEC, 40}}},
        {"sass-7", "c7508.cubin", "c7508", 0, {{0, 0}, {0, 0}}},
        {"sass-8", "plain.cubin", "plain", 0, {{0, 0}, {0, 0}}},
        {"sass-9", "two_kernels.cubin", "bounded", 2, {{INSP_SMR_INC, 232}, {INSP_SMR_DEC, 40}}},
        {"sass-10", "two_kernels.cubin", "unbounded", 0, {{0, 0}, {0, 0}}},
        {"sass-11", "plain.sm_80.cubin", "plain", -1, {{0, 0}, {0, 0}}},
        {"sass-12", "fits.cubin", "not_in_it", -1, {{0, 0}, {0, 0}}},
    };
    for (size_t i = 0; i < sizeof cubins / sizeof cubins[0]; i++) {
        blob b = read_data(cubins[i].cubin);
        int found = -2;
        insp_smr_sass list[8];
        memset(list, 0, sizeof list);
        occ_inspect_error err;
        assert_int_equal(insp_setmaxnreg_sass_count((const unsigned char *)b.bytes, b.size,
                                                    cubins[i].entry, &found, list, 8, &err),
                         OCC_OK);
        int want_count = cubins[i].found > 0 ? cubins[i].found : 0;
        if (!same_sass(found < 0 ? 0 : found, list, want_count, cubins[i].want) ||
            found != cubins[i].found) {
            fail_msg("%s: %d USETMAXREG (%s %d, %s %d), expected %d", cubins[i].id, found,
                     insp_setmaxnreg_action_name(list[0].action), list[0].regs_per_thread,
                     insp_setmaxnreg_action_name(list[1].action), list[1].regs_per_thread,
                     cubins[i].found);
        }
        free(b.bytes);
    }
}

/* ---- with ptxas -------------------------------------------------------------- */

/* Compiles `ptx_text` with ptxas ARGS into work/NAME.{ptx,cubin,log};
   returns the log, and the cubin in *cubin (bytes NULL where ptxas wrote
   none). */
static blob compile(const char *name, const char *ptx_text, size_t ptx_size, const char *arch,
                    const char *extra, blob *cubin)
{
    char ptx_path[400], cubin_path[400], log_path[400];
    snprintf(ptx_path, sizeof ptx_path, "%s/%s.ptx", work, name);
    snprintf(cubin_path, sizeof cubin_path, "%s/%s.cubin", work, name);
    snprintf(log_path, sizeof log_path, "%s/%s.log", work, name);
    FILE *f = fopen(ptx_path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(ptx_text, 1, ptx_size, f), ptx_size);
    fclose(f);
    unlink(cubin_path);
    char arch_arg[64];
    snprintf(arch_arg, sizeof arch_arg, "-arch=%s", arch);
    const char *argv[8] = {ptxas, arch_arg, "-v", ptx_path, "-o", cubin_path, NULL, NULL};
    if (extra != NULL) {
        argv[6] = argv[5];
        argv[5] = argv[4];
        argv[4] = argv[3];
        argv[3] = extra;
    }
    int status;
    occ_inspect_error err;
    if (regs_run_program(argv, log_path, &status, &err) != OCC_OK) {
        fail_msg("%s: %s", name, err.message);
    }
    cubin->bytes = NULL;
    cubin->size = 0;
    if (status == 0 && access(cubin_path, R_OK) == 0) {
        *cubin = read_path(cubin_path);
    }
    return read_path(log_path);
}

/* Today's ptxas says what the recorded logs say, and its cubin keeps or
   drops USETMAXREG as recorded. */
static void live_messages_test(void **state)
{
    (void)state;
    static const struct {
        const char *id, *ptx, *entry, *arch, *extra;
        int regs, threads;
        const char *messages;
        insp_smr_answer honoured;
    } live[] = {
        {"live-1", "fits.ptx", "fits", "sm_90a", NULL, 168, 0, "", INSP_SMR_YES},
        {"live-2", "c7508.ptx", "c7508", "sm_90a", NULL, 22, 384, "C7508", INSP_SMR_NO},
        {"live-3", "fits.ptx", "fits", "sm_90a", "-c", 168, 0, "C7504", INSP_SMR_NO},
        {"live-4", "fits.ptx", "fits", "sm_90a", "-g", 168, 0, "C7505", INSP_SMR_NO},
        {"live-5", "extern_call.ptx", "extern_call", "sm_90a", "-ewp", 168, 0, "C7506",
         INSP_SMR_NO},
        {"live-6", "wgmma_extern.ptx", "wgmma_extern", "sm_90a", "-c", 255, 0, "C7504,C7509",
         INSP_SMR_NO},
        {"live-7", "fits.ptx", "fits", "sm_90a", "-maxrregcount=300", 168, 0,
         "maxrregcount-ignored", INSP_SMR_YES},
        {"live-8", "minnctapersm.ptx", "fits", "sm_90a", NULL, 22, 0,
         "minnctapersm-out-of-range,C7508", INSP_SMR_NO},
        {"live-9", "maxnreg.ptx", "fits", "sm_90a", NULL, 168, 0, "maxnreg-ignored", INSP_SMR_YES},
        {"live-10", "fits.sm_90.ptx", "fits", "sm_90", NULL, 168, 0,
         "setmaxnreg-unsupported-target", INSP_SMR_NO},
        {"live-11", "fits.sm_100a.ptx", "fits", "sm_100a", NULL, 168, 0, "", INSP_SMR_YES},
        {"live-12", "two_kernels.ptx", "bounded", "sm_90a", NULL, 168, 0, "", INSP_SMR_YES},
        {"live-13", "two_kernels.ptx", "unbounded", "sm_90a", NULL, 22, 384, "C7508", INSP_SMR_NO},
    };
    for (size_t i = 0; i < sizeof live / sizeof live[0]; i++) {
        blob ptx = read_data(live[i].ptx), cubin;
        blob log = compile(live[i].id, ptx.bytes, ptx.size, live[i].arch, live[i].extra, &cubin);
        insp_setmaxnreg r;
        occ_inspect_error err;
        if (insp_setmaxnreg_analyse(ptx.bytes, ptx.size, live[i].entry, log.bytes, log.size,
                                    (const unsigned char *)cubin.bytes, cubin.size, live[i].regs,
                                    live[i].threads, 1, NULL, &r, &err) != OCC_OK) {
            fail_msg("%s: %s", live[i].id, err.message);
        }
        char codes[256] = "";
        for (int m = 0; m < r.message_count; m++) {
            size_t used = strlen(codes);
            snprintf(codes + used, sizeof codes - used, "%s%s", m > 0 ? "," : "",
                     r.messages[m].code);
        }
        if (strcmp(codes, live[i].messages) != 0 || r.honoured != live[i].honoured) {
            fail_msg("%s: ptxas %s says '%s', honoured %s; recorded '%s', %s", live[i].id,
                     live[i].extra != NULL ? live[i].extra : "", codes, answer_name(r.honoured),
                     live[i].messages, answer_name(live[i].honoured));
        }
        free(ptx.bytes);
        free(log.bytes);
        free(cubin.bytes);
    }
}

static const char *find_in(const char *s, size_t len, const char *needle)
{
    size_t n = strlen(needle);
    for (size_t i = 0; n <= len && i <= len - n; i++) {
        if (memcmp(s + i, needle, n) == 0) {
            return s + i;
        }
    }
    return NULL;
}

/* Replaces every "setmaxnreg.inc.sync.aligned.u32 N" count with `count`,
   or drops each setmaxnreg line where count is 0. */
static char *rewrite(const char *ptx, int count)
{
    size_t n = strlen(ptx);
    char *out = malloc(n + 64);
    assert_non_null(out);
    size_t o = 0;
    for (const char *line = ptx; *line != '\0';) {
        const char *end = strchr(line, '\n');
        size_t len = end != NULL ? (size_t)(end - line) + 1 : strlen(line);
        const char *smr = find_in(line, len, "setmaxnreg.");
        if (smr == NULL) {
            memcpy(out + o, line, len);
            o += len;
        } else if (count > 0 && find_in(line, len, "setmaxnreg.inc") != NULL) {
            o += (size_t)snprintf(out + o, n + 64 - o, "\tsetmaxnreg.inc.sync.aligned.u32 %d;\n",
                                  count);
        } else if (count > 0) {
            memcpy(out + o, line, len);
            o += len;
        }
        line += len;
    }
    out[o] = '\0';
    return out;
}

/*
 * The encoding held to ptxas: the same PTX compiled with each count the
 * PTX ISA allows for .inc (from .dec's 40 to 256 by 8) gives, in the cubin,
 * a TRY_ALLOC USETMAXREG of that count and a DEALLOC of 40; compiled with the setmaxnreg lines
 * removed, it holds no instruction with USETMAXREG's opcode, nor does plain.ptx. For sm_90a and
 * sm_100a.
 */
static void encoding_test(void **state)
{
    (void)state;
    static const char *const arches[][2] = {{"sm_90a", "fits.ptx"},
                                            {"sm_100a", "fits.sm_100a.ptx"}};
    for (int a = 0; a < 2; a++) {
        blob ptx = read_data(arches[a][1]);
        for (int count = 0; count <= INSP_SMR_MAX_REGS; count += INSP_SMR_REGS_STEP) {
            if (count > 0 && count < INSP_SMR_MIN_REGS) {
                continue;
            }
            /* ptxas refuses a .dec above the most registers the program holds
               (C7406): keep .inc at or above .dec's 40 */
            if (count > 0 && count < 40) {
                continue;
            }
            char *text = rewrite(ptx.bytes, count);
            char name[64];
            snprintf(name, sizeof name, "enc-%s-%d", arches[a][0], count);
            blob cubin;
            blob log = compile(name, text, strlen(text), arches[a][0], NULL, &cubin);
            if (cubin.bytes == NULL) {
                fail_msg("%s: ptxas failed: %s", name, log.bytes);
            }
            int found;
            insp_smr_sass list[8];
            memset(list, 0, sizeof list);
            occ_inspect_error err;
            assert_int_equal(insp_setmaxnreg_sass_count((const unsigned char *)cubin.bytes,
                                                        cubin.size, "fits", &found, list, 8, &err),
                             OCC_OK);
            sass_expect want[2] = {{INSP_SMR_INC, count}, {INSP_SMR_DEC, 40}};
            if (!same_sass(found, list, count == 0 ? 0 : 2, want)) {
                fail_msg("%s: %d USETMAXREG (%s %d, %s %d); the PTX asks for %s", name, found,
                         insp_setmaxnreg_action_name(list[0].action), list[0].regs_per_thread,
                         insp_setmaxnreg_action_name(list[1].action), list[1].regs_per_thread,
                         count == 0 ? "none" : "inc COUNT and dec 40");
            }
            free(text);
            free(log.bytes);
            free(cubin.bytes);
        }
        free(ptx.bytes);
    }
    blob plain = read_data("plain.ptx"), cubin;
    blob log = compile("enc-plain", plain.bytes, plain.size, "sm_90a", NULL, &cubin);
    int found;
    assert_non_null(cubin.bytes);
    assert_int_equal(insp_setmaxnreg_sass_count((const unsigned char *)cubin.bytes, cubin.size,
                                                "plain", &found, NULL, 0, NULL),
                     OCC_OK);
    assert_int_equal(found, 0);
    free(plain.bytes);
    free(log.bytes);
    free(cubin.bytes);
}

int main(void)
{
    const struct CMUnitTest plain[] = {
        cmocka_unit_test(cases_test),      cmocka_unit_test(plain_test),
        cmocka_unit_test(json_test),       cmocka_unit_test(paths_test),
        cmocka_unit_test(block_exit_test), cmocka_unit_test(errors_test),
        cmocka_unit_test(refusals_test),   cmocka_unit_test(sass_test),
    };
    int failed = cmocka_run_group_tests_name("setmaxnreg", plain, NULL, NULL);
    occ_inspect_error err;
    if (regs_find_tool("ptxas", NULL, getenv("CUDA_HOME"), getenv("PATH"), "/usr/local/cuda/bin",
                       &ptxas, &err) != OCC_OK) {
        fprintf(stderr, "test_setmaxnreg: SKIP the ptxas cases: %s\n", err.message);
        return failed != 0 ? 1 : 77;
    }
    snprintf(work, sizeof work, "%s/occ-setmaxnreg-XXXXXX",
             getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
    if (mkdtemp(work) == NULL) {
        fprintf(stderr, "test_setmaxnreg: cannot make a directory under %s\n", work);
        return 1;
    }
    const struct CMUnitTest with_ptxas[] = {
        cmocka_unit_test(live_messages_test),
        cmocka_unit_test(encoding_test),
    };
    failed += cmocka_run_group_tests_name("setmaxnreg-ptxas", with_ptxas, NULL, NULL);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", work);
    if (system(cmd) != 0) {
        fprintf(stderr, "test_setmaxnreg: could not remove %s\n", work);
    }
    free(ptxas);
    return failed != 0 ? 1 : 0;
}
