/*
 * ncu_gap.c - `occ ncu`'s explanation of a launch (the gap model itself is
 * libocc's occ_achieved_gap, src/achieved_gap.c): what binds, what the grid
 * allows, what is left, what to change; and kernels' short names.
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ncu.h"
#include "output.h"

/* A growing text. */
typedef struct text {
    char *buf;
    size_t len, cap;
    bool failed;
} text;

static void add(text *t, const char *format, ...) __attribute__((format(printf, 2, 3)));

static void add(text *t, const char *format, ...)
{
    if (t->failed) {
        return;
    }
    if (t->cap - t->len < 256) {
        size_t cap = t->cap < 1024 ? 1024 : 2 * t->cap;
        char *grown = realloc(t->buf, cap);
        if (grown == NULL) {
            t->failed = true;
            return;
        }
        t->buf = grown;
        t->cap = cap;
    }
    /* into the room there is; where it does not fit, again with more */
    va_list ap;
    va_start(ap, format);
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(t->buf + t->len, t->cap - t->len, format, ap);
    va_end(ap);
    if (n < 0) {
        t->failed = true;
        va_end(again);
        return;
    }
    if (t->len + (size_t)n + 1 > t->cap) {
        size_t cap = (t->len + (size_t)n + 1) * 2;
        char *grown = realloc(t->buf, cap);
        if (grown == NULL) {
            t->failed = true;
            va_end(again);
            return;
        }
        t->buf = grown;
        t->cap = cap;
        vsnprintf(t->buf + t->len, t->cap - t->len, format, again);
    }
    va_end(again);
    t->len += (size_t)n;
}

static double pct(double fraction)
{
    return fraction * 100.0;
}

/* Digit groups for the counts of a text: two at a time per call. */
typedef struct groups {
    char a[32], b[32], c[32], d[32];
} groups;

/* "" for one, "s" for any other count: "1 block", "2 blocks". */
static const char *s_of(long long n)
{
    return n == 1 ? "" : "s";
}

static void explain_theoretical(text *t, const occ_profile_ncu_check *c)
{
    const occ_result *r = &c->result;
    groups n;
    add(t,
        "Theoretical occupancy %.2f%%: %d block%s of %d warp%s per SM, %d of %d warps, limited "
        "by ",
        pct(c->theoretical), r->blocks_per_sm, s_of(r->blocks_per_sm), r->warps_per_block,
        s_of(r->warps_per_block), r->warps_per_sm, r->max_warps_per_sm);
    const occ_limiter order[] = {OCC_LIMITER_WARPS, OCC_LIMITER_BLOCKS, OCC_LIMITER_REGISTERS,
                                 OCC_LIMITER_SHARED_MEM, OCC_LIMITER_BARRIERS};
    int named = 0;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        if ((r->limiters & (unsigned)order[i]) != 0) {
            add(t, "%s%s", named++ > 0 ? " and " : "", occ_limiter_name(order[i]));
        }
    }
    if (named == 0) {
        add(t, "nothing: no block fits (%s)", occ_zero_reason_text(r->zero_reason));
    }
    add(t, " (with Nsight's shared-memory configuration, %s bytes).",
        group_digits(c->smem_config_bytes, n.a, sizeof n.a));
    if (c->mismatches != 0) {
        add(t, " Nsight differs:");
        for (int bit = 0; bit < OCC_PROFILE_NCU_MISMATCH_KINDS; bit++) {
            if ((c->mismatches & (1u << bit)) != 0) {
                add(t, " %s", occ_profile_ncu_mismatch_name(1u << bit));
            }
        }
        add(t, " (Nsight's theoretical occupancy is %.2f%%).", pct(c->ncu_theoretical));
    }
    add(t, "\n");
}

static void explain_clusters(text *t, const occ_profile_ncu_check *c, const occ_gap_result *g,
                             long long slots)
{
    if (!c->has_clusters) {
        return;
    }
    add(t, "Clusters of %d block%s: ", c->cluster_size, s_of(c->cluster_size));
    if (c->ncu_max_active_clusters >= 0) {
        add(t, "%d cluster%s fit%s at once (Nsight", c->ncu_max_active_clusters,
            s_of(c->ncu_max_active_clusters), c->ncu_max_active_clusters == 1 ? "s" : "");
    } else {
        add(t, "Nsight exported no count of active clusters (");
    }
    if (c->max_active_clusters >= 0) {
        add(t, "; libocc: %s%d)", c->clusters_exact ? "" : "at most ", c->max_active_clusters);
    } else {
        add(t, "; libocc: not computed)");
    }
    if (g->wave_blocks > 0 && g->wave_blocks < slots) {
        groups n;
        add(t, ", %s blocks against %s block slots (%d per SM x %d SMs)",
            group_digits(g->wave_blocks, n.a, sizeof n.a), group_digits(slots, n.b, sizeof n.b),
            c->result.blocks_per_sm, c->sm_count);
        if (g->cluster_loss > 0) {
            add(t, ": clusters leave %.2f points of occupancy unused on the SMs they occupy.\n",
                pct(g->cluster_loss));
        } else {
            int idle = c->sm_count - g->active_sms;
            add(t, ": %d SM%s stay%s idle, while the busy ones hold as many blocks as they can.\n",
                idle, s_of(idle), idle == 1 ? "s" : "");
        }
    } else {
        add(t, ", enough for every block slot.\n");
    }
}

static void explain_grid(text *t, const occ_profile_ncu_check *c, const occ_gap_result *g)
{
    if (g->wave_blocks == 0) {
        add(t, "The grid's waves are not modelled: the export gives no SM count, or no block "
               "fits.\n");
        return;
    }
    long long slots = (long long)c->result.blocks_per_sm * c->sm_count;
    explain_clusters(t, c, g, slots);
    long long waves = g->full_waves + (g->last_wave_blocks < g->wave_blocks ? 1 : 0);
    groups n;
    group_digits(g->grid_blocks, n.a, sizeof n.a);
    group_digits(g->wave_blocks, n.b, sizeof n.b);
    if (waves == 1 && g->grid_blocks < g->wave_blocks) {
        double each = (double)g->grid_blocks / (double)g->active_sms;
        add(t,
            "The grid of %s block%s is smaller than one wave of %s: %d SM%s hold%s %.2f "
            "block%s each on average",
            n.a, s_of(g->grid_blocks), n.b, g->active_sms, s_of(g->active_sms),
            g->active_sms == 1 ? "s" : "", each, each == 1.0 ? "" : "s");
        if (g->active_sms < c->sm_count) {
            int idle = c->sm_count - g->active_sms;
            add(t, " and %d SM%s stay%s idle", idle, s_of(idle), idle == 1 ? "s" : "");
        }
        add(t, ". With blocks of equal duration that allows %.2f%%.\n", pct(g->grid_bound));
    } else if (g->last_wave_blocks < g->wave_blocks) {
        add(t,
            "The grid of %s blocks makes %.2f waves of %s: %s full and a last one of %s "
            "block%s (%.0f%% full). With blocks of equal duration that allows %.2f%%; the "
            "tail costs %.2f points.\n",
            n.a, (double)g->grid_blocks / (double)g->wave_blocks, n.b,
            group_digits(g->full_waves, n.c, sizeof n.c),
            group_digits(g->last_wave_blocks, n.d, sizeof n.d), s_of(g->last_wave_blocks),
            pct((double)g->last_wave_blocks / (double)g->wave_blocks), pct(g->grid_bound),
            pct(g->tail_loss));
    } else {
        add(t, "The grid of %s block%s is exactly %s wave%s of %s: no tail.\n", n.a,
            s_of(g->grid_blocks), group_digits(g->full_waves, n.c, sizeof n.c), s_of(g->full_waves),
            n.b);
    }
}

static void explain_achieved(text *t, const occ_profile_ncu_check *c, const occ_gap_result *g)
{
    if (!c->has_achieved) {
        add(t, "The export has no achieved occupancy (profile with --section Occupancy).\n");
        return;
    }
    add(t, "Achieved %.2f%%, %.2f points below theoretical", pct(c->achieved), pct(g->gap));
    if (g->wave_blocks == 0) {
        add(t, ".\n");
        return;
    }
    double launch = c->theoretical - g->grid_bound;
    add(t, ": the launch's shape explains %.2f, ", pct(launch));
    if (g->in_kernel >= 0) {
        add(t,
            "the other %.2f happen inside the kernel (warps and blocks that end at different "
            "times: imbalance, warp-specialised roles, early exits, or blocks too short to "
            "cover their start).\n",
            pct(g->in_kernel));
    } else {
        add(t,
            "and the kernel does %.2f better than blocks of equal duration would (blocks that "
            "end at different times fill the last wave's gaps).\n",
            pct(-g->in_kernel));
    }
}

/* occ explain's changes for a device and kernel, kept for the launches of
   the same kernel that follow (an export repeats its kernels many times,
   and occ_explain computes a few hundred occupancies): a slot by the
   kernel's hash, the last kernel of that hash in it. */
#define EXPLAIN_CACHE_SLOTS 4096

typedef struct explained {
    occ_device device;
    occ_kernel kernel;
    char *advice; /* "" when no change helps */
} explained;

struct ncu_explain_cache {
    explained **slots; /* EXPLAIN_CACHE_SLOTS, made at the first kernel */
};

/* FNV-1a over the kernel's bytes. */
static unsigned kernel_hash(const occ_kernel *k)
{
    const unsigned char *p = (const unsigned char *)k;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < sizeof *k; i++) {
        h = (h ^ p[i]) * 16777619u;
    }
    return h % EXPLAIN_CACHE_SLOTS;
}

ncu_explain_cache *ncu_explain_cache_new(void)
{
    return calloc(1, sizeof(ncu_explain_cache));
}

void ncu_explain_cache_free(ncu_explain_cache *cache)
{
    if (cache == NULL) {
        return;
    }
    if (cache->slots != NULL) {
        for (int i = 0; i < EXPLAIN_CACHE_SLOTS; i++) {
            if (cache->slots[i] != NULL) {
                free(cache->slots[i]->advice);
                free(cache->slots[i]);
            }
        }
        free(cache->slots);
    }
    free(cache);
}

/* occ explain's changes that help, as one line; NULL when out of memory. */
static char *theoretical_advice(const occ_profile_ncu_check *c)
{
    text t = {NULL, 0, 0, false};
    add(&t, "%s", "");
    occ_explanation *ex = malloc(sizeof *ex);
    if (ex == NULL || occ_explain(&c->device, &c->kernel, ex, NULL) != OCC_OK) {
        free(ex);
        return t.buf;
    }
    bool any = false;
    for (int i = 0; i < ex->change_count; i++) {
        if (ex->changes[i].helps) {
            add(&t, "%s%s", any ? " " : "- A higher theoretical occupancy (as occ explain says): ",
                ex->changes[i].text);
            any = true;
        }
    }
    if (any) {
        add(&t, " Libraries such as cuBLAS and cuDNN choose low occupancy for large tiles: more "
                "warps pay only where warps wait on memory.\n");
    }
    free(ex);
    if (t.failed) {
        free(t.buf);
        return NULL;
    }
    return t.buf;
}

static void advise_theoretical(text *t, const occ_profile_ncu_check *c, ncu_explain_cache *cache)
{
    if (c->result.occupancy >= 1.0 || c->result.blocks_per_sm == 0) {
        return;
    }
    unsigned slot = cache != NULL ? kernel_hash(&c->kernel) : 0;
    const explained *hit = cache != NULL && cache->slots != NULL ? cache->slots[slot] : NULL;
    /* equal bytes are equal values (a miss only costs the computing) */
    if (hit != NULL && memcmp(&hit->kernel, &c->kernel, sizeof c->kernel) == 0 &&
        memcmp(&hit->device, &c->device, sizeof c->device) == 0) {
        add(t, "%s", hit->advice);
        return;
    }
    char *advice = theoretical_advice(c);
    if (advice == NULL) {
        t->failed = true;
        return;
    }
    add(t, "%s", advice);
    if (cache != NULL && cache->slots == NULL) {
        cache->slots = calloc(EXPLAIN_CACHE_SLOTS, sizeof *cache->slots);
    }
    explained *e = cache != NULL && cache->slots != NULL ? cache->slots[slot] : NULL;
    if (e == NULL && cache != NULL && cache->slots != NULL) {
        e = cache->slots[slot] = malloc(sizeof *e);
    } else if (e != NULL) {
        free(e->advice);
    }
    if (e == NULL) {
        free(advice); /* not kept: the cache is only an economy */
        return;
    }
    e->device = c->device;
    e->kernel = c->kernel;
    e->advice = advice;
}

static void advise(text *t, const occ_profile_ncu_check *c, const occ_gap_result *g,
                   ncu_explain_cache *cache)
{
    groups n;
    add(t, "What to change:\n");
    switch (g->cause) {
    case OCC_GAP_NONE:
        add(t, "- Nothing for the achieved occupancy: it is within %.2f points of theoretical.\n",
            pct(g->gap));
        break;
    case OCC_GAP_SMALL_GRID:
        add(t,
            "- More blocks: a grid of at least %s blocks fills one wave (%d per SM x %d "
            "SMs). Split the work finer, or run independent work beside it in other streams; "
            "smaller blocks alone do not help, the grid is what is short.\n",
            group_digits(g->wave_blocks, n.a, sizeof n.a), c->result.blocks_per_sm, c->sm_count);
        break;
    case OCC_GAP_TAIL: {
        long long k = g->grid_blocks / g->wave_blocks;
        add(t,
            "- A grid that is a multiple of %s blocks (%s or %s near the %s of this launch), "
            "or a persistent grid of %s blocks that loops over the work, removes the tail; "
            "with more waves the tail's share shrinks.\n",
            group_digits(g->wave_blocks, n.a, sizeof n.a),
            group_digits((k > 0 ? k : 1) * g->wave_blocks, n.b, sizeof n.b),
            group_digits((k + 1) * g->wave_blocks, n.c, sizeof n.c),
            group_digits(g->grid_blocks, n.d, sizeof n.d), n.a);
        break;
    }
    case OCC_GAP_CLUSTERS: {
        char buf[OCC_CLUSTER_TEXT_BYTES];
        add(t, "- Clusters: ");
        if (occ_cluster_explain(&c->device, &c->kernel, buf, sizeof buf, NULL) > 0) {
            add(t, "%s\n", buf);
        } else {
            add(t, "a cluster size that divides the SMs of each GPC leaves fewer slots empty.\n");
        }
        break;
    }
    case OCC_GAP_IN_KERNEL:
        add(t, "- Not the launch: the gap is inside the kernel. Nsight's Warp State Statistics "
               "and Scheduler Statistics sections show where warps wait or end early.\n");
        break;
    default:
        add(t, "- Profile with --section LaunchStats --section Occupancy for the achieved "
               "occupancy and the SM count.\n");
        break;
    }
    advise_theoretical(t, c, cache);
}

char *ncu_explain(const occ_profile_ncu_launch *l, const occ_profile_ncu_check *c,
                  const occ_gap_result *g, ncu_explain_cache *cache)
{
    (void)l;
    text t = {NULL, 0, 0, false};
    explain_theoretical(&t, c);
    explain_grid(&t, c, g);
    explain_achieved(&t, c, g);
    advise(&t, c, g, cache);
    if (t.failed) {
        free(t.buf);
        return NULL;
    }
    return t.buf;
}

/* The kernel's name without its return type, namespaces and parameters
   ("void at::native::foo<float, 4>(int)" -> "foo<float, 4>"): what tells
   kernels apart in a table. */
const char *ncu_short_name(const char *name, char *buf, size_t cap)
{
    if (cap == 0) {
        return buf;
    }
    const char *start = name;
    const char *end = name + strlen(name);
    int depth = 0;
    for (const char *p = name; *p != '\0'; p++) {
        if (*p == '(' && strncmp(p, "(anonymous namespace)", 21) == 0) {
            p += 20;
        } else if (*p == '<' && strncmp(p, "<unnamed>", 9) == 0) {
            p += 8;
        } else if (*p == '<') {
            depth++;
        } else if (*p == '>') {
            depth -= depth > 0;
        } else if (depth == 0 && *p == '(') {
            end = p; /* the parameters */
            break;
        } else if (depth == 0 && *p == ' ') {
            start = p + 1; /* after the return type */
        } else if (depth == 0 && p[0] == ':' && p[1] == ':') {
            start = p + 2; /* after a namespace or class */
            p++;
        }
    }
    if (start >= end) {
        start = name;
        end = name + strlen(name);
    }
    size_t len = (size_t)(end - start);
    if (len < cap) {
        memcpy(buf, start, len);
        buf[len] = '\0';
    } else if (cap > 4) {
        memcpy(buf, start, cap - 4);
        memcpy(buf + cap - 4, "...", 4); /* cut, visibly */
    } else {
        buf[0] = '\0';
    }
    return buf;
}
