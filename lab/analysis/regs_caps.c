/*
 * regs_caps.c - one kernel's records gathered into its caps (regs_caps.h):
 * each cap's own records decide whether it failed; its rounds, and with
 * options.group every cap of equal code hash, are pooled into one time, the
 * median of every counted timing; a regs_same cap takes the time of the
 * cubin it equals. No I/O.
 */
#include <math.h>
#include <stdio.h> /* snprintf into err; nothing is printed */
#include <stdlib.h>
#include <string.h>

#include "regs_caps.h"

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a;
    double y = *(const double *)b;
    return (x > y) - (x < y);
}

double lab_regs_median(double *values, int n)
{
    if (n <= 0) {
        return 0.0;
    }
    qsort(values, (size_t)n, sizeof *values, compare_double);
    /* as Python's statistics.median, which the first table was made with */
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

static double metric_of(const lab_regs_record *r, lab_regs_metric metric)
{
    return metric == LAB_REGS_MIN_MS ? r->min_ms : r->median_ms;
}

/* The kernel's first checked timing at `cap`: what a record's outputs were
   compared with. */
static const lab_regs_record *reference_of(const lab_regs_kernel *k, int cap)
{
    for (int i = 0; i < k->record_count; i++) {
        const lab_regs_record *r = &k->records[i];
        if (r->kind == LAB_REGS_TIME && r->cap == cap && r->checked) {
            return r;
        }
    }
    return NULL;
}

/* Finite outputs whose checksum is within the tolerance of the reference's
   (ptxas may fuse a multiply and an add differently at another cap). */
static bool within_tolerance(const lab_regs_kernel *k, const lab_regs_record *r, double tolerance)
{
    bool same_count = r->has_outputs == r->has_finite_outputs &&
                      (!r->has_outputs || r->outputs == r->finite_outputs);
    if (!(tolerance > 0.0) || !same_count || !r->has_checksum) {
        return false;
    }
    const lab_regs_record *ref = reference_of(k, r->reference_cap);
    if (ref == NULL || !ref->has_checksum) {
        return false;
    }
    double scale = ref->abs_checksum != 0.0 ? ref->abs_checksum : fabs(ref->checksum);
    return fabs(r->checksum - ref->checksum) <= tolerance * scale;
}

/* What one record of a cap says: a time (*ms), or why not. */
static const char *record_outcome(const lab_regs_kernel *k, const lab_regs_record *r,
                                  const lab_regs_options *o, double *ms, bool *tolerated)
{
    *ms = 0.0;
    *tolerated = false;
    if (r->kind == LAB_REGS_ERROR) {
        return r->stage == LAB_REGS_STAGE_HANG        ? "hangs"
               : r->stage == LAB_REGS_STAGE_OCCUPANCY ? "cannot launch"
                                                      : "failed";
    }
    bool counts = r->checked || within_tolerance(k, r, o->tolerance);
    double t = metric_of(r, o->metric);
    if (!counts || !(t > 0.0)) {
        return r->checked ? "no time" : "wrong output";
    }
    *ms = t;
    *tolerated = !r->checked;
    return NULL;
}

static int find_root(int *parent, int i)
{
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

static void join(int *parent, int a, int b)
{
    int ra = find_root(parent, a);
    int rb = find_root(parent, b);
    if (ra != rb) {
        /* the root is the member listed first, so a group is named by it */
        if (ra < rb) {
            parent[rb] = ra;
        } else {
            parent[ra] = rb;
        }
    }
}

/* A cap's own figures: from its timings first, then its failures (as the
   first table read them). */
static void own_figures(const lab_regs_kernel *k, lab_regs_cap *c)
{
    c->regs = c->blocks_per_sm = c->local_bytes = -1;
    c->code_hash = 0;
    for (int pass = 0; pass < 3; pass++) {
        lab_regs_kind kind = pass == 0 ? LAB_REGS_TIME : pass == 1 ? LAB_REGS_ERROR : LAB_REGS_SAME;
        for (int i = 0; i < k->record_count; i++) {
            const lab_regs_record *r = &k->records[i];
            if (r->cap != c->cap || r->kind != kind) {
                continue;
            }
            if (c->regs < 0) {
                c->regs = r->regs;
            }
            if (c->blocks_per_sm < 0) {
                c->blocks_per_sm = r->blocks_per_sm;
            }
            if (c->local_bytes < 0) {
                c->local_bytes = r->local_bytes;
            }
            if (c->code_hash == 0) {
                c->code_hash = r->code_hash;
            }
        }
    }
}

/* The cap's own records: how many were timed, whether any failed the output
   check, and the first failure (NULL: none, or no records of its own). */
static const char *own_status(const lab_regs_kernel *k, const lab_regs_options *o, lab_regs_cap *c)
{
    const char *failure = NULL;
    for (int i = 0; i < k->record_count; i++) {
        const lab_regs_record *r = &k->records[i];
        if (r->cap != c->cap || r->kind == LAB_REGS_SAME) {
            continue;
        }
        c->timed = true;
        c->timings += r->kind == LAB_REGS_TIME;
        c->output_failed |= r->kind == LAB_REGS_TIME && !r->checked;
        double ms;
        bool tolerated;
        const char *why = record_outcome(k, r, o, &ms, &tolerated);
        if (failure == NULL) {
            failure = why;
        }
    }
    return failure;
}

/* The groups: equal code hashes (with options.group) and regs_same links. */
static void make_groups(const lab_regs_kernel *k, const lab_regs_options *o, lab_regs_row *row,
                        const int *slot, int *parent)
{
    for (int i = 0; i < row->cap_count; i++) {
        parent[i] = i;
    }
    /* Equal hashes whose records give different register counts are not
       one code: a hash that leaves the count out (of the .text bytes alone)
       cannot tell a setmaxnreg kernel's caps apart. */
    for (int i = 0; i < row->cap_count && o->group; i++) {
        const lab_regs_cap *c = &row->caps[i];
        for (int j = 0; j < i && c->code_hash != 0; j++) {
            const lab_regs_cap *e = &row->caps[j];
            if (e->code_hash == c->code_hash &&
                (e->regs < 0 || c->regs < 0 || e->regs == c->regs)) {
                join(parent, i, j);
            }
        }
    }
    for (int i = 0; i < k->record_count; i++) {
        const lab_regs_record *r = &k->records[i];
        if (r->kind == LAB_REGS_SAME && r->same_as_cap >= 0 && r->same_as_cap <= LAB_REGS_MAX_CAP &&
            slot[r->same_as_cap] >= 0) {
            join(parent, slot[r->cap], slot[r->same_as_cap]);
        }
    }
}

/* Every counted timing of the group rooted at `root` (members without a
   failure of their own) into samples; whether any counted only within the
   tolerance; the first failure of a timed member. */
static int group_samples(const lab_regs_kernel *k, const lab_regs_options *o, lab_regs_row *row,
                         int *parent, int root, const char *const *failures, double *samples,
                         bool *tolerated, const char **failure)
{
    int n = 0;
    *tolerated = false;
    *failure = NULL;
    for (int i = 0; i < row->cap_count; i++) {
        if (find_root(parent, i) != root) {
            continue;
        }
        if (failures[i] != NULL) {
            if (*failure == NULL) {
                *failure = failures[i];
            }
            continue;
        }
        for (int j = 0; j < k->record_count; j++) {
            const lab_regs_record *r = &k->records[j];
            double ms;
            bool tol;
            if (r->cap == row->caps[i].cap && r->kind == LAB_REGS_TIME &&
                record_outcome(k, r, o, &ms, &tol) == NULL) {
                samples[n++] = ms;
                *tolerated |= tol;
            }
        }
    }
    return n;
}

/* Registers, blocks and local memory a member of the group knows, where the
   cap itself does not (a regs_same cap). */
static void fill_from_group(lab_regs_row *row, int *parent, int i)
{
    lab_regs_cap *c = &row->caps[i];
    int root = find_root(parent, i);
    for (int j = 0; j < row->cap_count; j++) {
        const lab_regs_cap *m = &row->caps[j];
        if (j == i || find_root(parent, j) != root) {
            continue;
        }
        if (c->regs < 0) {
            c->regs = m->regs;
        }
        if (c->blocks_per_sm < 0) {
            c->blocks_per_sm = m->blocks_per_sm;
        }
        if (c->local_bytes < 0) {
            c->local_bytes = m->local_bytes;
        }
    }
}

/* Distinct codes among the caps with a hash: their groups (several caps of
   one hash and different register counts are several codes). */
static int count_codes(const lab_regs_row *row)
{
    int codes = 0;
    for (int i = 0; i < row->cap_count; i++) {
        const lab_regs_cap *c = &row->caps[i];
        bool first = c->code_hash != 0;
        for (int j = 0; j < i && first; j++) {
            const lab_regs_cap *e = &row->caps[j];
            first = !(e->code_hash == c->code_hash && (e->group == c->group || e->regs == c->regs));
        }
        codes += first;
    }
    return codes;
}

occ_status lab_regs_caps_collect(const lab_regs_kernel *k, const lab_regs_options *o,
                                 lab_regs_row *row, occ_error *err)
{
    int slot[LAB_REGS_CAP_SLOTS];
    bool used[LAB_REGS_CAP_SLOTS] = {false};
    for (int i = 0; i < k->record_count; i++) {
        const lab_regs_record *r = &k->records[i];
        if (r->cap < 0 || r->cap > LAB_REGS_MAX_CAP) {
            if (err != NULL) {
                err->status = OCC_ERR_INVALID_ARGUMENT;
                err->field = "cap";
                snprintf(err->message, sizeof err->message,
                         "kernel %.100s: cap %d is not none or 1..%d", k->name, r->cap,
                         LAB_REGS_MAX_CAP);
            }
            return OCC_ERR_INVALID_ARGUMENT;
        }
        used[r->cap] = true;
    }
    /* no cap first, then the highest cap first */
    row->cap_count = 0;
    for (int s = 0; s < LAB_REGS_CAP_SLOTS; s++) {
        int cap = s == 0 ? LAB_REGS_NO_CAP : LAB_REGS_CAP_SLOTS - s;
        slot[cap] = -1;
        if (used[cap]) {
            slot[cap] = row->cap_count;
            lab_regs_cap *c = &row->caps[row->cap_count++];
            memset(c, 0, sizeof *c);
            c->cap = cap;
            own_figures(k, c);
        }
    }
    const char *failures[LAB_REGS_CAP_SLOTS];
    int parent[LAB_REGS_CAP_SLOTS];
    for (int i = 0; i < row->cap_count; i++) {
        failures[i] = own_status(k, o, &row->caps[i]);
    }
    make_groups(k, o, row, slot, parent);
    double *samples = malloc((size_t)(k->record_count > 0 ? k->record_count : 1) * sizeof *samples);
    if (samples == NULL) {
        if (err != NULL) {
            err->status = OCC_ERR_OUT_OF_MEMORY;
            err->field = "records";
            snprintf(err->message, sizeof err->message, "out of memory");
        }
        return OCC_ERR_OUT_OF_MEMORY;
    }
    row->max_rounds = 0;
    for (int i = 0; i < row->cap_count; i++) {
        lab_regs_cap *c = &row->caps[i];
        int root = find_root(parent, i);
        c->group = root;
        c->group_size = 0;
        for (int j = 0; j < row->cap_count; j++) {
            c->group_size += find_root(parent, j) == root;
        }
        fill_from_group(row, parent, i);
        if (c->timings > row->max_rounds) {
            row->max_rounds = c->timings;
        }
        if (failures[i] != NULL) {
            c->failure = failures[i];
            continue;
        }
        bool tolerated;
        const char *group_failure;
        int n =
            group_samples(k, o, row, parent, root, failures, samples, &tolerated, &group_failure);
        if (n > 0) {
            c->counts = true;
            c->ms = lab_regs_median(samples, n);
            c->tolerated = tolerated;
        } else {
            /* only regs_same records, and the cubin it equals has no time */
            c->failure = group_failure != NULL ? group_failure : "not measured";
        }
    }
    free(samples);
    row->codes = count_codes(row);
    return OCC_OK;
}
