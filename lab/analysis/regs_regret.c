/*
 * regs_regret.c - the regret table of `occ lab regs` (regs_regret.h): each
 * kernel's best cap and its four choices (no cap, the occupancy cap, the
 * recommended cap, the best of the candidates), their regrets, the
 * summaries and the goal. The rules are those of tests/gpu/analyse_regs.py,
 * which made the first H200 table (docs/results/regs-h200), with rounds and
 * code groups added (regs_caps.c). No I/O.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h> /* snprintf into labels and err; nothing is printed */
#include <stdlib.h>
#include <string.h>

#include "regs_caps.h"

const char *lab_regs_cap_label(int cap, char *buf, size_t cap_bytes)
{
    if (cap == LAB_REGS_NO_CAP) {
        snprintf(buf, cap_bytes, "none");
    } else {
        snprintf(buf, cap_bytes, "%d", cap);
    }
    return buf;
}

/* No cap sorts above every cap: it is the unconstrained compile. */
static int cap_order(int cap)
{
    return cap == LAB_REGS_NO_CAP ? LAB_REGS_CAP_SLOTS : cap;
}

static const lab_regs_cap *find_cap(const lab_regs_row *row, int cap)
{
    for (int i = 0; i < row->cap_count; i++) {
        if (row->caps[i].cap == cap) {
            return &row->caps[i];
        }
    }
    return NULL;
}

/* The choice of `cap` as the row scores it. */
static lab_regs_choice choose(const lab_regs_row *row, int cap, bool approximate)
{
    lab_regs_choice c;
    memset(&c, 0, sizeof c);
    c.present = true;
    c.cap = c.asked = cap;
    c.approximate = approximate;
    c.blocks_per_sm = c.regs = -1;
    c.regret = INFINITY;
    const lab_regs_cap *m = find_cap(row, cap);
    if (m == NULL) {
        c.failure = "not measured";
        return c;
    }
    c.blocks_per_sm = m->blocks_per_sm;
    c.regs = m->regs;
    if (!m->counts) {
        c.failure = m->failure;
        return c;
    }
    c.has_ms = true;
    c.ms = m->ms;
    c.tolerated = m->tolerated;
    c.regret = row->best_ms > 0.0 ? m->ms / row->best_ms - 1.0 : INFINITY;
    return c;
}

/* A cap that was not measured is scored at the highest measured cap below
   it; *approximate says so. No cap, and a cap with nothing below, stay. */
static int measured_cap(const lab_regs_row *row, int cap, bool *approximate)
{
    *approximate = false;
    if (cap == LAB_REGS_NO_CAP || find_cap(row, cap) != NULL) {
        return cap;
    }
    int below = -1;
    for (int i = 0; i < row->cap_count; i++) {
        int c = row->caps[i].cap;
        if (c != LAB_REGS_NO_CAP && c < cap && c > below) {
            below = c;
        }
    }
    if (below < 0) {
        return cap;
    }
    *approximate = true;
    return below;
}

/* The cap with the most blocks an SM, the highest such cap on a tie: every
   cap the driver gave blocks for, also those that then failed, since a
   planner that maximises occupancy picks it blind. */
static void choose_occupancy(lab_regs_row *row)
{
    int best = -1, most = -1;
    for (int i = 0; i < row->cap_count; i++) {
        const lab_regs_cap *c = &row->caps[i];
        if (c->cap == LAB_REGS_NO_CAP || c->blocks_per_sm < 0) {
            continue;
        }
        if (c->blocks_per_sm > most || (c->blocks_per_sm == most && c->cap > best)) {
            most = c->blocks_per_sm;
            best = c->cap;
        }
    }
    if (best >= 0) {
        row->occupancy = choose(row, best, false);
    }
}

static void choose_recommended(lab_regs_row *row, int asked)
{
    bool approximate;
    int cap = measured_cap(row, asked, &approximate);
    lab_regs_choice *r = &row->recommended;
    *r = choose(row, cap, approximate);
    r->asked = asked;
    if (!r->has_ms) {
        r->has_vs_none = true;
        r->vs_none = INFINITY;
    } else if (row->none.has_ms) {
        r->has_vs_none = true;
        r->vs_none = r->ms / row->none.ms - 1.0;
    }
}

/* The best measured time among the candidates, each scored at the measured
   cap it comes to (approximate only when no candidate names that cap
   itself); without one, the first candidate that was measured, or the
   first, with its failure. */
static void choose_candidates(lab_regs_row *row, const int *caps, int count)
{
    if (count <= 0) {
        return;
    }
    int best = -1, first = -1, measured = 0;
    for (int i = 0; i < count; i++) {
        bool approximate;
        const lab_regs_cap *m = find_cap(row, measured_cap(row, caps[i], &approximate));
        if (m == NULL) {
            continue;
        }
        measured++;
        first = first < 0 ? i : first;
        if (!m->counts) {
            continue;
        }
        const lab_regs_cap *b = best >= 0 ? find_cap(row, row->candidates.cap) : NULL;
        if (b == NULL || m->ms < b->ms ||
            (m->ms == b->ms && cap_order(m->cap) > cap_order(b->cap))) {
            best = i;
            row->candidates = choose(row, m->cap, approximate);
            row->candidates.asked = caps[i];
        } else if (b == m && row->candidates.approximate && !approximate) {
            row->candidates.approximate = false;
            row->candidates.asked = caps[i];
        }
    }
    if (best < 0) {
        int i = first >= 0 ? first : 0;
        bool approximate;
        int cap = measured_cap(row, caps[i], &approximate);
        row->candidates = choose(row, cap, approximate);
        row->candidates.asked = caps[i];
    }
    row->candidates.candidates = count;
    row->candidates.candidates_measured = measured;
}

static void score_row(const lab_regs_kernel *k, lab_regs_row *row)
{
    row->caps_measured = row->caps_tolerated = 0;
    int best = -1;
    for (int i = 0; i < row->cap_count; i++) {
        const lab_regs_cap *c = &row->caps[i];
        if (!c->counts) {
            continue;
        }
        row->caps_measured++;
        row->caps_tolerated += c->tolerated;
        if (best < 0 || c->ms < row->caps[best].ms ||
            (c->ms == row->caps[best].ms && cap_order(c->cap) > cap_order(row->caps[best].cap))) {
            best = i;
        }
    }
    if (best < 0) {
        return; /* no cap measured correctly: no choices */
    }
    row->has_best = true;
    row->best_cap = row->caps[best].cap;
    row->best_ms = row->caps[best].ms;
    row->best = choose(row, row->best_cap, false);
    row->none = choose(row, LAB_REGS_NO_CAP, false);
    choose_occupancy(row);
    if (k->has_recommendation) {
        choose_recommended(row, k->recommended_cap);
        const lab_regs_choice *r = &row->recommended;
        row->worse_than_none = r->has_vs_none && r->vs_none > LAB_REGS_GOAL_VS_NONE;
        row->miss.failed = r->failure != NULL;
        row->miss.far = !row->miss.failed && r->regret > LAB_REGS_GOAL_MEDIAN;
        row->miss.slower = !row->miss.failed && row->worse_than_none;
        row->miss.missed = row->miss.failed || row->miss.far || row->miss.slower;
    }
    if (k->has_candidates) {
        choose_candidates(row, k->candidates, k->candidate_count);
    }
}

/* Median and maximum regret of one choice (its offset in the row). */
static occ_status summarise(const lab_regs_analysis *a, size_t offset, lab_regs_summary *out)
{
    memset(out, 0, sizeof *out);
    double *regrets = malloc((size_t)(a->row_count > 0 ? a->row_count : 1) * sizeof *regrets);
    if (regrets == NULL) {
        return OCC_ERR_OUT_OF_MEMORY;
    }
    int n = 0;
    for (int i = 0; i < a->row_count; i++) {
        const lab_regs_choice *c =
            (const lab_regs_choice *)(const void *)((const char *)&a->rows[i] + offset);
        if (c->present) {
            regrets[n++] = c->regret;
            out->max = n == 1 || c->regret > out->max ? c->regret : out->max;
        }
    }
    out->present = n > 0;
    out->kernels = n;
    out->median = lab_regs_median(regrets, n);
    free(regrets);
    return OCC_OK;
}

static int by_name(const void *a, const void *b)
{
    const lab_regs_kernel *x = *(const lab_regs_kernel *const *)a;
    const lab_regs_kernel *y = *(const lab_regs_kernel *const *)b;
    return strcmp(x->name, y->name);
}

static occ_status fail(occ_error *err, occ_status status, const char *field, const char *format,
                       ...) __attribute__((format(printf, 4, 5)));
static occ_status fail(occ_error *err, occ_status status, const char *field, const char *format,
                       ...)
{
    if (err != NULL) {
        err->status = status;
        err->field = field;
        va_list args;
        va_start(args, format);
        vsnprintf(err->message, sizeof err->message, format, args);
        va_end(args);
    }
    return status;
}

/* The rows' totals, the summaries and the goal. */
static occ_status total(lab_regs_analysis *out, const lab_regs_options *options, occ_error *err)
{
    for (int i = 0; i < out->row_count; i++) {
        const lab_regs_row *row = &out->rows[i];
        out->worse_than_none += row->worse_than_none;
        out->missed += row->miss.missed;
        out->tolerated += row->caps_tolerated;
        out->cubins += row->cap_count;
        out->codes += row->codes;
        out->max_rounds = row->max_rounds > out->max_rounds ? row->max_rounds : out->max_rounds;
        for (int c = 0; c < row->cap_count; c++) {
            out->not_checked += row->caps[c].output_failed;
        }
    }
    out->grouped = options->group && out->codes > 0;
    if (summarise(out, offsetof(lab_regs_row, none), &out->none) != OCC_OK ||
        summarise(out, offsetof(lab_regs_row, occupancy), &out->occupancy) != OCC_OK ||
        summarise(out, offsetof(lab_regs_row, recommended), &out->recommended) != OCC_OK ||
        summarise(out, offsetof(lab_regs_row, candidates), &out->candidates) != OCC_OK) {
        return fail(err, OCC_ERR_OUT_OF_MEMORY, "kernels", "out of memory");
    }
    out->goal_median = out->recommended.median <= LAB_REGS_GOAL_MEDIAN;
    out->goal_max = out->recommended.max <= LAB_REGS_GOAL_MAX;
    out->goal_vs_none = out->worse_than_none == 0;
    return OCC_OK;
}

occ_status lab_regs_analyse(const lab_regs_kernel *kernels, int count,
                            const lab_regs_options *options, lab_regs_analysis *out, occ_error *err)
{
    memset(out, 0, sizeof *out);
    if ((kernels == NULL && count > 0) || options == NULL || out == NULL) {
        return fail(err, OCC_ERR_NULL_POINTER, "kernels", "no kernels or no options");
    }
    if (count < 0) {
        return fail(err, OCC_ERR_INVALID_ARGUMENT, "kernels", "%d kernels: below 0", count);
    }
    if (!(options->tolerance >= 0.0) || !isfinite(options->tolerance)) {
        return fail(err, OCC_ERR_INVALID_ARGUMENT, "tolerance",
                    "tolerance %g is not a finite number at or above 0", options->tolerance);
    }
    const lab_regs_kernel **order = malloc((size_t)(count > 0 ? count : 1) * sizeof *order);
    out->rows = calloc((size_t)(count > 0 ? count : 1), sizeof *out->rows);
    if (order == NULL || out->rows == NULL) {
        free(order);
        return fail(err, OCC_ERR_OUT_OF_MEMORY, "kernels", "out of memory (%d kernels)", count);
    }
    for (int i = 0; i < count; i++) {
        order[i] = &kernels[i];
        if (kernels[i].name == NULL || kernels[i].record_count < 0 ||
            (kernels[i].record_count > 0 && kernels[i].records == NULL) ||
            (kernels[i].candidate_count > 0 && kernels[i].candidates == NULL)) {
            free(order);
            return fail(err, OCC_ERR_INVALID_ARGUMENT, "kernels",
                        "kernel %d (%.100s): no name, or a count without its array", i,
                        kernels[i].name != NULL ? kernels[i].name : "?");
        }
    }
    qsort(order, (size_t)count, sizeof *order, by_name);
    occ_status status = OCC_OK;
    for (int i = 0; i < count && status == OCC_OK; i++) {
        const lab_regs_kernel *k = order[i];
        if (i > 0 && strcmp(k->name, order[i - 1]->name) == 0) {
            status = fail(err, OCC_ERR_INVALID_ARGUMENT, "kernels", "kernel %.100s is given twice",
                          k->name);
            break;
        }
        lab_regs_row *row = &out->rows[out->row_count++];
        row->name = k->name;
        status = lab_regs_caps_collect(k, options, row, err);
        if (status == OCC_OK) {
            score_row(k, row);
        }
    }
    free(order);
    return status != OCC_OK ? status : total(out, options, err);
}

void lab_regs_analysis_free(lab_regs_analysis *analysis)
{
    if (analysis != NULL) {
        free(analysis->rows);
        analysis->rows = NULL;
        analysis->row_count = 0;
    }
}
