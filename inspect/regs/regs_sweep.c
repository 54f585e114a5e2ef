/*
 * regs_sweep.c - the caps and __launch_bounds__ variants of every selected
 * kernel, compiled in one round (the union of the kernels' caps: ptxas
 * compiles the whole module at once), each log read by libocc-inspect's
 * ptxas log reader, and each kernel's points, recommendation and
 * prediction built from them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "regs_state.h"

/* ---- reading a compile ------------------------------------------------------ */

/* The functions of one compile's log, or NULL with the reason. */
occ_inspect_result *regs_read_log(const regs_compile *c, occ_inspect_error *err)
{
    occ_inspect_options io;
    occ_inspect_options_init(&io);
    io.jobs = 1;
    occ_inspect_input in = {.path = "ptxas log", .data = c->log, .size = c->log_size};
    occ_inspect_result *r = NULL;
    if (occ_inspect_read(&in, 1, &io, &r, err) != OCC_OK) {
        return NULL;
    }
    return r;
}

const occ_inspect_kernel *regs_find_kernel(const occ_inspect_result *r, const char *mangled)
{
    for (size_t i = 0; r != NULL && i < occ_inspect_kernel_count(r); i++) {
        const occ_inspect_kernel *k = occ_inspect_kernel_at(r, i);
        if (k->is_kernel && strcmp(k->mangled, mangled) == 0) {
            return k;
        }
    }
    return NULL;
}

static void fill_point(occ_regs_point *p, const occ_inspect_kernel *k, const regs_launch *l)
{
    p->regs = k->regs;
    p->spill_store_bytes = k->spill_store_bytes > 0 ? k->spill_store_bytes : 0;
    p->spill_load_bytes = k->spill_load_bytes > 0 ? k->spill_load_bytes : 0;
    p->stack_bytes = k->stack_bytes > 0 ? k->stack_bytes : 0;
    regs_launch at = *l;
    at.smem_bytes = k->smem_bytes;
    occ_result r;
    if (regs_occupancy(&at, k->regs, &r)) {
        p->blocks_per_sm = r.blocks_per_sm;
        p->warps_per_sm = r.warps_per_sm;
        p->occupancy = r.occupancy;
    }
}

/* ---- the latency model ------------------------------------------------------ */

void regs_predict(const occ_regs_options *o, const occ_device *device, occ_regs_kernel *k,
                  regs_notes *run_notes, bool *noted)
{
    if (o->bytes_loaded_per_thread <= 0) {
        return;
    }
    occ_memory_model model;
    if (occ_memory_model_from_device(device, &model, NULL) != OCC_OK) {
        if (!*noted) {
            regs_note(run_notes,
                      "no prediction: %s has no memory bandwidth or latency in the database "
                      "(give a named GPU)",
                      device->name);
            *noted = true;
        }
        return;
    }
    occ_regs_point *all[2] = {k->caps, k->launch_bounds};
    int counts[2] = {k->cap_count, k->launch_bounds_count};
    double base = 0;
    for (int set = 0; set < 2; set++) {
        for (int i = 0; i < counts[set]; i++) {
            occ_regs_point *p = &all[set][i];
            occ_latency_input in = {0};
            in.warps_per_sm = p->warps_per_sm;
            in.loads_in_flight_per_thread = o->loads_in_flight_per_thread;
            in.bytes_per_load = o->bytes_per_load;
            in.spill_bytes_per_byte_loaded =
                occ_regs_point_spill_bytes(p) / o->bytes_loaded_per_thread;
            occ_latency_result r;
            if (p->warps_per_sm <= 0 || occ_latency_predict(&model, &in, &r, NULL) != OCC_OK) {
                continue;
            }
            p->predicted = true;
            p->predicted_gb_per_s = r.predicted_gb_per_s;
            p->predicted_bound = r.bound;
            if (set == 0 && i == 0) {
                base = r.predicted_gb_per_s;
            }
            p->predicted_vs_unconstrained = base > 0 ? r.predicted_gb_per_s / base : 0;
        }
    }
}

/* ---- the run ----------------------------------------------------------------- */

static int cmp_desc(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x < y) - (x > y);
}

/* Sorted highest first, without repeats. */
int regs_unique_desc(int *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_desc);
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (m == 0 || v[m - 1] != v[i]) {
            v[m++] = v[i];
        }
    }
    return m;
}

void regs_progress_shifted(void *context, int done, int total, bool cached)
{
    (void)total;
    regs_progress_offset *p = context;
    p->o->progress(p->o->progress_context, p->before + done, p->all, cached);
}

/* The variants to compile: the caller's, or 1 .. the most blocks any kernel
   allows. */
static int variants_wanted(const regs_run_state *s, const regs_plan *plans, size_t n, int *out)
{
    const occ_regs_options *o = s->o;
    if (o->min_blocks_count < 0) {
        return 0;
    }
    if (o->min_blocks != NULL && o->min_blocks_count > 0) {
        memcpy(out, o->min_blocks, (size_t)o->min_blocks_count * sizeof *out);
        return regs_unique_desc(out, o->min_blocks_count);
    }
    int top = 0;
    for (size_t i = 0; i < n; i++) {
        top = plans[i].max_blocks > top ? plans[i].max_blocks : top;
    }
    top = top < OCC_REGS_MAX_MIN_BLOCKS ? top : OCC_REGS_MAX_MIN_BLOCKS;
    for (int v = 0; v < top; v++) {
        out[v] = top - v;
    }
    return top;
}

/* Writes the module of variant N (min_blocks) for the planned kernels. */
static occ_status write_variant(regs_run_state *s, const regs_plan *plans, size_t n, int min_blocks,
                                regs_compile *c, occ_inspect_error *err)
{
    bool *selected = calloc(s->module.entry_count, sizeof *selected);
    int *threads = calloc(s->module.entry_count, sizeof *threads);
    occ_status status = OCC_OK;
    if (selected == NULL || threads == NULL) {
        status = regs_fail(err, OCC_ERR_OUT_OF_MEMORY, "out of memory");
    }
    for (size_t i = 0; status == OCC_OK && i < n; i++) {
        selected[plans[i].entry] = true;
        threads[plans[i].entry] = plans[i].launch.threads;
    }
    size_t size = 0;
    char *text = status == OCC_OK ? regs_ptx_with_min_blocks(s->ptx, s->ptx_size, &s->module,
                                                             selected, threads, min_blocks, &size)
                                  : NULL;
    char name[32];
    snprintf(name, sizeof name, "min%d.ptx", min_blocks);
    char *path = regs_tmp_path(s, name);
    if (status == OCC_OK && (text == NULL || path == NULL)) {
        status = regs_fail(err, OCC_ERR_OUT_OF_MEMORY, "out of memory");
    }
    if (status == OCC_OK) {
        status = regs_write_file(path, text, size, err);
    }
    free(selected);
    free(threads);
    if (status != OCC_OK) {
        free(text);
        free(path);
        return status;
    }
    c->ptx_path = c->owned_path = path;
    c->ptx = c->owned_text = text;
    c->ptx_size = size;
    c->min_blocks = min_blocks;
    return OCC_OK;
}

/* Every cap any kernel needs, highest first. */
static int caps_wanted(const regs_plan *plans, size_t n, int *out)
{
    int count = 0;
    for (size_t i = 0; i < n; i++) {
        for (int c = 0; c < plans[i].cap_count && count < OCC_REGS_MAX_CAPS * 4; c++) {
            out[count++] = plans[i].caps[c];
        }
    }
    return regs_unique_desc(out, count);
}

static occ_status compile_failed(const regs_compile *c, occ_inspect_error *err)
{
    char line[400];
    const char *what =
        c->min_blocks > 0 ? "__launch_bounds__ with minimum blocks" : "--maxrregcount";
    return regs_fail(err, OCC_ERR_BAD_FORMAT, "ptxas failed at %s %d (exit status %d): %s", what,
                     c->min_blocks > 0 ? c->min_blocks : c->cap, c->exit_status,
                     regs_first_error_line(c->log, c->log_size, line, sizeof line));
}

/* Fills one kernel's points from the compiles' logs (read once each). */
static occ_status build_kernel(regs_run_state *s, regs_plan *p, const occ_inspect_result *first,
                               occ_inspect_result *const *reads, const regs_compile *compiles,
                               int cap_compiles, int total, occ_regs_kernel *k,
                               regs_kernel_owned *owned, occ_inspect_error *err)
{
    const occ_inspect_kernel *base = regs_find_kernel(first, p->mangled);
    k->name = owned->name = strdup(base->name);
    k->mangled = owned->mangled = strdup(p->mangled);
    const ptx_entry *e = &s->module.entries[p->entry];
    regs_threads_for(s->o, e, &k->threads_source);
    k->threads = p->launch.threads;
    k->smem_bytes = base->smem_bytes;
    k->ptx_max_regs = e->maxnreg;
    k->caps = calloc((size_t)p->cap_count + 1, sizeof *k->caps);
    k->launch_bounds = calloc((size_t)(total - cap_compiles) + 1, sizeof *k->launch_bounds);
    if (k->name == NULL || k->mangled == NULL || k->caps == NULL || k->launch_bounds == NULL) {
        return regs_fail(err, OCC_ERR_OUT_OF_MEMORY, "out of memory");
    }
    fill_point(&k->caps[0], base, &p->launch);
    k->cap_count = 1;
    occ_status status = regs_setmaxnreg_kernel(s, p->mangled, k, owned, &p->kernel_notes, err);
    if (status != OCC_OK) {
        return status;
    }
    for (int c = 0; c < p->cap_count; c++) {
        for (int i = 0; i < cap_compiles; i++) {
            if (compiles[i].cap != p->caps[c]) {
                continue;
            }
            const occ_inspect_kernel *at = regs_find_kernel(reads[i], p->mangled);
            if (at == NULL) {
                return regs_fail(err, OCC_ERR_BAD_FORMAT,
                                 "%s: not in ptxas's log at --maxrregcount %d", base->name,
                                 p->caps[c]);
            }
            occ_regs_point *pt = &k->caps[k->cap_count++];
            pt->cap = p->caps[c];
            fill_point(pt, at, &p->launch);
            if (k->setmaxnreg != NULL) {
                regs_setmaxnreg_point(s, p->mangled, k->threads, compiles[i].log,
                                      compiles[i].log_size, pt);
            }
        }
    }
    /* variants, 1 first */
    for (int i = total - 1; i >= cap_compiles; i--) {
        const regs_compile *c = &compiles[i];
        if (c->min_blocks > p->max_blocks) {
            continue;
        }
        const occ_inspect_kernel *at =
            reads[i] != NULL ? regs_find_kernel(reads[i], p->mangled) : NULL;
        if (at == NULL) {
            continue;
        }
        occ_regs_point *pt = &k->launch_bounds[k->launch_bounds_count++];
        pt->min_blocks = c->min_blocks;
        fill_point(pt, at, &p->launch);
        if (k->setmaxnreg != NULL) {
            regs_setmaxnreg_point(s, p->mangled, k->threads, c->log, c->log_size, pt);
        }
    }
    k->recommended = occ_regs_recommend(k->caps, k->cap_count);
    owned->candidates = malloc((size_t)k->cap_count * sizeof *owned->candidates);
    if (owned->candidates == NULL) {
        return regs_fail(err, OCC_ERR_OUT_OF_MEMORY, "out of memory");
    }
    k->candidates = owned->candidates;
    k->candidate_count =
        occ_regs_candidates(k->caps, k->cap_count, owned->candidates, k->cap_count);
    k->cliff_cap = regs_cliff_cap(k->caps, k->cap_count);
    char why[2048];
    k->why = owned->why = strdup(regs_why(k->caps, k->cap_count, k->recommended, p->max_blocks,
                                          k->threads, why, sizeof why));
    k->notes = owned->notes = regs_notes_take(&p->kernel_notes);
    if (k->why == NULL || k->notes == NULL) {
        return regs_fail(err, OCC_ERR_OUT_OF_MEMORY, "out of memory");
    }
    return OCC_OK;
}

/* The caps and variants of every kernel, compiled at once and read. */
occ_status regs_sweep(regs_run_state *s, regs_plan *plans, size_t n, occ_regs_result *result,
                      const occ_inspect_result *first, occ_inspect_error *err)
{
    int caps[OCC_REGS_MAX_CAPS * 4];
    int cap_count = caps_wanted(plans, n, caps);
    int variants[OCC_REGS_MAX_MIN_BLOCKS];
    int variant_count = variants_wanted(s, plans, n, variants);
    int total = cap_count + variant_count;
    regs_compile *compiles = calloc((size_t)total + 1, sizeof *compiles);
    occ_inspect_result **reads = calloc((size_t)total + 1, sizeof *reads);
    char *module_path = regs_tmp_path(s, "module.ptx");
    occ_status status = OCC_OK;
    if (compiles == NULL || reads == NULL || module_path == NULL) {
        status = regs_fail(err, OCC_ERR_OUT_OF_MEMORY, "out of memory");
    }
    for (int i = 0; status == OCC_OK && i < cap_count; i++) {
        compiles[i] = (regs_compile){
            .ptx_path = module_path, .ptx = s->ptx, .ptx_size = s->ptx_size, .cap = caps[i]};
    }
    int written = cap_count;
    for (int v = 0; status == OCC_OK && v < variant_count; v++) {
        status = write_variant(s, plans, n, variants[v], &compiles[written], err);
        written += status == OCC_OK;
    }
    regs_progress_offset shift = {s->o, s->compiles, s->compiles + total};
    if (status == OCC_OK && total > 0) {
        int jobs = s->o->jobs > 0 ? s->o->jobs : occ_inspect_default_jobs();
        status = regs_compile_all(&s->tk, s->arch, compiles, total, jobs, s->cache_dir, s->tmp_dir,
                                  s->o->progress != NULL ? regs_progress_shifted : NULL, &shift,
                                  &s->counts, err);
        s->compiles += total;
    }
    for (int i = 0; status == OCC_OK && i < total; i++) {
        if (compiles[i].exit_status != 0) {
            if (i < cap_count) {
                status = compile_failed(&compiles[i], err);
            } else {
                char line[400];
                regs_note(&s->run_notes,
                          "__launch_bounds__ variant with minimum blocks %d: ptxas "
                          "failed: %s",
                          compiles[i].min_blocks,
                          regs_first_error_line(compiles[i].log, compiles[i].log_size, line,
                                                sizeof line));
            }
            continue;
        }
        reads[i] = regs_read_log(&compiles[i], err);
        if (reads[i] == NULL) {
            status = err != NULL ? err->status : OCC_ERR_BAD_FORMAT;
        }
    }
    if (status == OCC_OK) {
        result->kernels = calloc(n, sizeof *result->kernels);
        result->owned = calloc(n, sizeof *result->owned);
        if (result->kernels == NULL || result->owned == NULL) {
            status = regs_fail(err, OCC_ERR_OUT_OF_MEMORY, "out of memory");
        }
    }
    for (size_t i = 0; status == OCC_OK && i < n; i++) {
        result->count++;
        status = build_kernel(s, &plans[i], first, reads, compiles, cap_count, total,
                              &result->kernels[i], &result->owned[i], err);
    }
    for (int i = 0; compiles != NULL && i < total; i++) {
        free(compiles[i].log);
        free(compiles[i].cubin);
        free(compiles[i].owned_text);
        free(compiles[i].owned_path);
        if (reads != NULL) {
            occ_inspect_result_free(reads[i]);
        }
    }
    free(compiles);
    free(reads);
    free(module_path);
    return status;
}