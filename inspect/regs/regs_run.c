/*
 * regs_run.c - occ_regs_run: the input to PTX (as it is, nvcc for a .cu,
 * the fatbin entry of a binary), the unconstrained compile and the probe
 * of ptxas's lowest cap, the caps and variants each kernel needs, all of
 * them compiled at once, and each kernel's points, prediction and
 * recommendation. Kernels are found in the PTX and in each compile's log
 * by their mangled names; the log is read by libocc-inspect's own reader
 * (occ_inspect_read), so that a figure here equals occ inspect's.
 */
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "regs_state.h"

/* Threads a kernel is compiled and computed for, without --threads, .reqntid
   or .maxntid: a common block size, and what occ inspect's users give. */
#define DEFAULT_THREADS 256

void regs_note(regs_notes *n, const char *format, ...)
{
    char line[600];
    va_list ap;
    va_start(ap, format);
    int len = vsnprintf(line, sizeof line, format, ap);
    va_end(ap);
    if (len < 0) {
        return;
    }
    size_t add = strlen(line);
    char *grown = realloc(n->text, n->size + add + 2);
    if (grown == NULL) {
        return;
    }
    n->text = grown;
    if (n->size > 0) {
        n->text[n->size++] = '\n';
    }
    memcpy(n->text + n->size, line, add + 1);
    n->size += add;
}

char *regs_notes_take(regs_notes *n)
{
    char *t = n->text != NULL ? n->text : strdup("");
    n->text = NULL;
    n->size = 0;
    return t;
}

void occ_regs_options_init(occ_regs_options *options)
{
    memset(options, 0, sizeof *options);
    options->loads_in_flight_per_thread = 1;
    options->bytes_per_load = 4;
}

static occ_status check_options(const occ_regs_options *o, occ_inspect_error *err)
{
    if (o->jobs < 0 || o->jobs > OCC_REGS_MAX_JOBS) {
        return regs_fail(err, OCC_ERR_INVALID_ARGUMENT, "jobs: %d is outside 0..%d", o->jobs,
                         OCC_REGS_MAX_JOBS);
    }
    if (o->threads < 0 || o->threads > 1024) {
        return regs_fail(err, OCC_ERR_INVALID_ARGUMENT, "threads: %d is outside 0..1024",
                         o->threads);
    }
    if (o->dyn_smem_bytes < 0) {
        return regs_fail(err, OCC_ERR_INVALID_ARGUMENT,
                         "dynamic shared memory: %d bytes is below 0", o->dyn_smem_bytes);
    }
    if (o->cap_count < 0 || o->cap_count > OCC_REGS_MAX_CAPS || (o->cap_count > 0 && !o->caps)) {
        return regs_fail(err, OCC_ERR_INVALID_ARGUMENT, "caps: %d caps; at most %d", o->cap_count,
                         OCC_REGS_MAX_CAPS);
    }
    for (int i = 0; i < o->cap_count; i++) {
        if (o->caps[i] < 1 || o->caps[i] > 255) {
            return regs_fail(err, OCC_ERR_INVALID_ARGUMENT,
                             "cap %d is outside 1..255, the registers a thread may have",
                             o->caps[i]);
        }
    }
    if (o->min_blocks_count < -1 || o->min_blocks_count > OCC_REGS_MAX_MIN_BLOCKS ||
        (o->min_blocks_count > 0 && !o->min_blocks)) {
        return regs_fail(err, OCC_ERR_INVALID_ARGUMENT, "minimum blocks: %d values; at most %d",
                         o->min_blocks_count, OCC_REGS_MAX_MIN_BLOCKS);
    }
    for (int i = 0; i < o->min_blocks_count; i++) {
        if (o->min_blocks[i] < 1 || o->min_blocks[i] > OCC_REGS_MAX_MIN_BLOCKS) {
            return regs_fail(err, OCC_ERR_INVALID_ARGUMENT, "minimum blocks %d is outside 1..%d",
                             o->min_blocks[i], OCC_REGS_MAX_MIN_BLOCKS);
        }
    }
    if (o->bytes_loaded_per_thread < 0 || o->loads_in_flight_per_thread <= 0 ||
        o->bytes_per_load <= 0) {
        return regs_fail(err, OCC_ERR_INVALID_ARGUMENT,
                         "the latency model's inputs must be positive (bytes loaded %g, loads in "
                         "flight %g, bytes per load %g)",
                         o->bytes_loaded_per_thread, o->loads_in_flight_per_thread,
                         o->bytes_per_load);
    }
    return OCC_OK;
}

char *regs_tmp_path(const regs_run_state *s, const char *name)
{
    size_t n = strlen(s->tmp_dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p != NULL) {
        snprintf(p, n, "%s/%s", s->tmp_dir, name);
    }
    return p;
}

static bool selected_by_glob(const char *glob, const occ_inspect_kernel *k, const char *mangled)
{
    if (glob == NULL) {
        return true;
    }
    return fnmatch(glob, mangled, 0) == 0 || (k != NULL && fnmatch(glob, k->name, 0) == 0);
}

/* Compiles and reads the two first compiles: unconstrained, and the probe
   at cap 1 that gives ptxas's lowest cap. */
static occ_status first_compiles(regs_run_state *s, occ_inspect_result **unconstrained,
                                 occ_inspect_error *err)
{
    size_t probe_size = 0;
    char *probe = regs_ptx_probe_module(&s->module, s->sm, s->suffix, &probe_size);
    char *module_path = regs_tmp_path(s, "module.ptx");
    char *probe_path = regs_tmp_path(s, "probe.ptx");
    occ_status status = OCC_OK;
    if (probe == NULL || module_path == NULL || probe_path == NULL) {
        status = regs_fail(err, OCC_ERR_OUT_OF_MEMORY, "out of memory");
    }
    if (status == OCC_OK) {
        status = regs_write_file(module_path, s->ptx, s->ptx_size, err);
    }
    if (status == OCC_OK) {
        status = regs_write_file(probe_path, probe, probe_size, err);
    }
    regs_compile c[2] = {
        {.ptx_path = module_path, .ptx = s->ptx, .ptx_size = s->ptx_size, .want_cubin = true},
        {.ptx_path = probe_path, .ptx = probe, .ptx_size = probe_size, .cap = 1}};
    regs_progress_offset shift = {s->o, 0, 2};
    if (status == OCC_OK) {
        int jobs = s->o->jobs > 0 ? s->o->jobs : occ_inspect_default_jobs();
        status = regs_compile_all(&s->tk, s->arch, c, 2, jobs, s->cache_dir, s->tmp_dir,
                                  s->o->progress != NULL ? regs_progress_shifted : NULL, &shift,
                                  &s->counts, err);
        s->compiles += 2;
    }
    if (status == OCC_OK && c[0].exit_status != 0) {
        char line[400];
        status = regs_fail(err, OCC_ERR_BAD_FORMAT, "ptxas refused the PTX (exit status %d): %s",
                           c[0].exit_status,
                           regs_first_error_line(c[0].log, c[0].log_size, line, sizeof line));
    }
    if (status == OCC_OK) {
        s->min_cap = c[1].exit_status == 0 ? regs_min_cap_from_log(c[1].log, c[1].log_size) : 0;
        if (s->min_cap == 0) {
            regs_note(&s->run_notes, "ptxas did not say its lowest --maxrregcount for %s", s->arch);
        }
        *unconstrained = regs_read_log(&c[0], err);
        if (*unconstrained == NULL) {
            status = err != NULL ? err->status : OCC_ERR_BAD_FORMAT;
        }
    }
    if (status == OCC_OK) {
        s->unconstrained_log = c[0].log;
        s->unconstrained_log_size = c[0].log_size;
        s->unconstrained_cubin = c[0].cubin;
        s->unconstrained_cubin_size = c[0].cubin_size;
        c[0].log = NULL;
        c[0].cubin = NULL;
    }
    free(c[0].log);
    free(c[0].cubin);
    free(c[1].log);
    free(c[1].cubin);
    free(probe);
    free(probe_path); /* module.ptx stays for the caps' compiles */
    free(module_path);
    return status;
}

/* The block size of entry e and where it comes from. */
int regs_threads_for(const occ_regs_options *o, const ptx_entry *e, const char **source)
{
    int req = regs_ptx_dims_product(e->reqntid);
    int max = regs_ptx_dims_product(e->maxntid);
    if (o->threads > 0) {
        *source = "threads";
        return o->threads;
    }
    if (req > 0) {
        *source = "reqntid";
        return req;
    }
    if (max > 0) {
        *source = "maxntid";
        return max;
    }
    *source = "default";
    return DEFAULT_THREADS;
}

static void free_plans(regs_plan *plans, size_t n)
{
    for (size_t i = 0; plans != NULL && i < n; i++) {
        free(plans[i].mangled);
        free(plans[i].kernel_notes.text);
    }
    free(plans);
}

void occ_regs_result_free(occ_regs_result *r)
{
    if (r == NULL) {
        return;
    }
    for (size_t i = 0; i < r->count; i++) {
        occ_regs_kernel *k = &r->kernels[i];
        regs_kernel_owned *owned = &r->owned[i];
        free(owned->name);
        free(owned->mangled);
        free(owned->why);
        free(owned->notes);
        regs_setmaxnreg_free(owned);
        free(owned->candidates);
        free(k->caps);
        free(k->launch_bounds);
    }
    free(r->kernels);
    free(r->owned);
    free(r->input);
    free(r->ptxas);
    free(r->cache_dir);
    free(r->notes);
    free(r);
}

static void remove_tmp(regs_run_state *s)
{
    static const char *const names[] = {"module.ptx", "probe.ptx"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char *p = regs_tmp_path(s, names[i]);
        if (p != NULL) {
            remove(p);
        }
        free(p);
    }
    for (int n = 1; n <= OCC_REGS_MAX_MIN_BLOCKS; n++) {
        char name[32];
        snprintf(name, sizeof name, "min%d.ptx", n);
        char *p = regs_tmp_path(s, name);
        if (p != NULL) {
            remove(p);
        }
        free(p);
    }
    rmdir(s->tmp_dir);
}

/* Lists the kernels of the module for a glob that matched none. */
static occ_status no_match(const regs_run_state *s, const occ_inspect_result *r,
                           occ_inspect_error *err)
{
    char names[300] = "";
    size_t used = 0;
    size_t listed = 0;
    for (size_t i = 0; i < s->module.entry_count && used < sizeof names - 40; i++) {
        const ptx_entry *e = &s->module.entries[i];
        char mangled[256];
        snprintf(mangled, sizeof mangled, "%.*s", (int)(e->name_len < 255 ? e->name_len : 255),
                 s->ptx + e->name_at);
        const occ_inspect_kernel *k = regs_find_kernel(r, mangled);
        used += (size_t)snprintf(names + used, sizeof names - used, "%s%.60s",
                                 listed++ > 0 ? ", " : "", k != NULL ? k->name : mangled);
    }
    if (used >= sizeof names - 40 && listed < s->module.entry_count) {
        snprintf(names + used, sizeof names - used, ", ...");
    }
    return regs_fail(err, OCC_ERR_NOT_FOUND, "--kernel '%.100s' matches none of the %zu %s: %s",
                     s->o->kernel_glob, s->module.entry_count,
                     s->module.entry_count == 1 ? "kernel" : "kernels", names);
}

/* Plans each selected kernel: its launch and its caps. */
static occ_status make_plans(regs_run_state *s, const occ_inspect_result *r, regs_plan **out,
                             size_t *count, occ_inspect_error *err)
{
    regs_plan *plans = calloc(s->module.entry_count, sizeof *plans);
    if (plans == NULL) {
        return regs_fail(err, OCC_ERR_OUT_OF_MEMORY, "out of memory");
    }
    size_t n = 0;
    for (size_t i = 0; i < s->module.entry_count; i++) {
        const ptx_entry *e = &s->module.entries[i];
        char *mangled = strndup(s->ptx + e->name_at, e->name_len);
        if (mangled == NULL) {
            free_plans(plans, n);
            return regs_fail(err, OCC_ERR_OUT_OF_MEMORY, "out of memory");
        }
        const occ_inspect_kernel *k = regs_find_kernel(r, mangled);
        if (!selected_by_glob(s->o->kernel_glob, k, mangled)) {
            free(mangled);
            continue;
        }
        if (k == NULL) {
            regs_note(&s->run_notes, "%s: not in ptxas's log; left out", mangled);
            free(mangled);
            continue;
        }
        regs_plan *p = &plans[n++];
        p->entry = i;
        p->mangled = mangled;
        const char *source;
        p->launch.device = &s->device;
        p->launch.threads = regs_threads_for(s->o, e, &source);
        p->launch.dyn_smem_bytes = s->o->dyn_smem_bytes;
        p->launch.smem_bytes = k->smem_bytes;
        p->launch.barriers = k->barriers;
        int req = regs_ptx_dims_product(e->reqntid);
        p->launch.max_threads = req > 0 ? req : regs_ptx_dims_product(e->maxntid);
        if (p->launch.threads > s->device.max_threads_per_block) {
            occ_status status =
                regs_fail(err, OCC_ERR_INVALID_ARGUMENT,
                          "%s: %d threads are above the %d a block of %s may have", k->name,
                          p->launch.threads, s->device.max_threads_per_block, s->device.name);
            free_plans(plans, n);
            return status;
        }
        if (p->launch.max_threads > 0 && p->launch.threads > p->launch.max_threads) {
            regs_note(&p->kernel_notes,
                      "a launch of %d threads fails: the kernel's %s is %d (the occupancy is the "
                      "occupancy API's all the same)",
                      p->launch.threads, req > 0 ? ".reqntid" : ".maxntid", p->launch.max_threads);
        }
        p->max_blocks = regs_max_blocks(&p->launch);
        if (e->maxnreg > 0) {
            regs_note(
                &p->kernel_notes,
                "its .maxnreg %d (__maxnreg__) sets its registers: ptxas ignores --maxrregcount "
                "for it",
                e->maxnreg);
        }
        if (s->o->caps != NULL) {
            for (int c = 0; c < s->o->cap_count; c++) {
                p->caps[p->cap_count++] = s->o->caps[c];
            }
            p->cap_count = regs_unique_desc(p->caps, p->cap_count);
            continue;
        }
        int steps[OCC_REGS_MAX_CAPS];
        int step_count = regs_staircase_caps(&p->launch, k->regs, steps, OCC_REGS_MAX_CAPS);
        /* and above the unconstrained count: ptxas uses what it is given */
        int above = regs_step_tops_above(&p->launch, k->regs, p->caps, OCC_REGS_MAX_CAPS / 2);
        p->cap_count = above;
        for (int c = 0; c < step_count && p->cap_count < OCC_REGS_MAX_CAPS; c++) {
            if (s->min_cap > 0 && steps[c] < s->min_cap) {
                occ_result at;
                regs_note(&p->kernel_notes,
                          "cap %d (%d blocks per SM) is below ptxas's lowest for %s, %d: not "
                          "compiled",
                          steps[c],
                          regs_occupancy(&p->launch, steps[c], &at) ? at.blocks_per_sm : 0, s->arch,
                          s->min_cap);
                continue;
            }
            p->caps[p->cap_count++] = steps[c];
        }
    }
    *out = plans;
    *count = n;
    if (n == 0 && s->module.entry_count > 0 && s->o->kernel_glob != NULL) {
        free_plans(plans, n);
        *out = NULL;
        return no_match(s, r, err);
    }
    if (n == 0) {
        free_plans(plans, n);
        *out = NULL;
        return regs_fail(err, OCC_ERR_NOT_FOUND, "no kernel (.entry) in the PTX");
    }
    return OCC_OK;
}

static occ_status check_caps(const regs_run_state *s, occ_inspect_error *err)
{
    for (int i = 0; i < s->o->cap_count; i++) {
        if (s->min_cap > 0 && s->o->caps[i] < s->min_cap) {
            return regs_fail(err, OCC_ERR_INVALID_ARGUMENT,
                             "cap %d is below the lowest --maxrregcount ptxas %s honours for %s, "
                             "%d",
                             s->o->caps[i], s->tk.release, s->arch, s->min_cap);
        }
        if (s->o->caps[i] > s->device.max_regs_per_thread) {
            return regs_fail(err, OCC_ERR_INVALID_ARGUMENT,
                             "cap %d is above the %d registers a thread of %s may have",
                             s->o->caps[i], s->device.max_regs_per_thread, s->arch);
        }
    }
    return OCC_OK;
}

static occ_status finish_totals(regs_run_state *s, occ_regs_result *r, occ_inspect_error *err)
{
    r->input = strdup(s->path);
    r->ptxas = strdup(s->tk.ptxas);
    snprintf(r->ptxas_release, sizeof r->ptxas_release, "%s", s->tk.release);
    r->cache_dir = s->cache_dir;
    s->cache_dir = NULL;
    r->notes = regs_notes_take(&s->run_notes);
    if (r->input == NULL || r->ptxas == NULL || r->notes == NULL) {
        return regs_fail(err, OCC_ERR_OUT_OF_MEMORY, "out of memory");
    }
    occ_regs_totals *t = &r->totals;
    t->input = r->input;
    t->input_kind = s->kind;
    snprintf(t->arch, sizeof t->arch, "%s", s->arch);
    snprintf(t->gpu, sizeof t->gpu, "%s", s->device.name);
    t->ptxas = r->ptxas;
    t->ptxas_version = r->ptxas_release;
    t->min_cap = s->min_cap;
    t->compiles = s->compiles;
    t->ptxas_runs = s->counts.ptxas_runs;
    t->cache_hits = s->counts.cache_hits;
    t->cache_dir = r->cache_dir;
    t->notes = r->notes;
    return OCC_OK;
}

occ_status occ_regs_run(const char *path, const void *data, size_t size,
                        const occ_regs_options *options, occ_regs_result **out,
                        occ_inspect_error *err)
{
    *out = NULL;
    if (path == NULL || options == NULL) {
        return regs_fail(err, OCC_ERR_NULL_POINTER, "no input or no options");
    }
    occ_status status = check_options(options, err);
    if (status != OCC_OK) {
        return status;
    }
    regs_run_state s;
    memset(&s, 0, sizeof s);
    s.o = options;
    s.path = path;
    const char *tmp_root = getenv("TMPDIR");
    snprintf(s.tmp_dir, sizeof s.tmp_dir, "%s/occ-regs-XXXXXX",
             tmp_root != NULL && tmp_root[0] == '/' ? tmp_root : "/tmp");
    if (mkdtemp(s.tmp_dir) == NULL) {
        return regs_fail(err, OCC_ERR_IO, "cannot create a temporary directory in %.300s",
                         tmp_root != NULL ? tmp_root : "/tmp");
    }
    occ_regs_result *result = calloc(1, sizeof *result);
    occ_inspect_result *first = NULL;
    regs_plan *plans = NULL;
    size_t plan_count = 0;
    if (result == NULL) {
        status = regs_fail(err, OCC_ERR_OUT_OF_MEMORY, "out of memory");
    }
    /* ptxas first: without it nothing runs, .cu inputs included */
    if (status == OCC_OK) {
        status = regs_toolkit_open(&s.tk, options->ptxas, err);
    }
    if (status == OCC_OK) {
        status = regs_load_ptx(&s, data, size, err);
    }
    if (status == OCC_OK) {
        status = regs_ptx_parse(s.ptx, s.ptx_size, &s.module, err);
    }
    if (status == OCC_OK && s.module.entry_count == 0) {
        status = regs_fail(err, OCC_ERR_NOT_FOUND, "no kernel (.entry) in the PTX");
    }
    if (status == OCC_OK) {
        status = regs_choose_arch(&s, err);
    }
    if (status == OCC_OK) {
        char why[400];
        s.cache_dir = regs_cache_dir(options->cache_dir, why, sizeof why);
        if (s.cache_dir == NULL && options->cache_dir == NULL) {
            regs_note(&s.run_notes, "%s", why);
        }
        status = first_compiles(&s, &first, err);
    }
    if (status == OCC_OK) {
        status = check_caps(&s, err);
    }
    if (status == OCC_OK) {
        status = make_plans(&s, first, &plans, &plan_count, err);
    }
    if (status == OCC_OK) {
        status = regs_sweep(&s, plans, plan_count, result, first, err);
    }
    if (status == OCC_OK) {
        bool noted = false;
        for (size_t i = 0; i < result->count; i++) {
            regs_predict(options, &s.device, &result->kernels[i], &s.run_notes, &noted);
        }
        status = finish_totals(&s, result, err);
    }
    if (err != NULL &&
        (status == OCC_ERR_BAD_FORMAT || status == OCC_ERR_NOT_FOUND || status == OCC_ERR_LIMIT) &&
        strncmp(err->message, path, strlen(path)) != 0) {
        /* what is wrong with the input: its name in front, as occ_inspect_read's
           messages have it */
        char message[OCC_INSPECT_ERROR_MESSAGE_BYTES];
        snprintf(message, sizeof message, "%s", err->message);
        snprintf(err->message, sizeof err->message, "%.200s: %.300s", path, message);
        err->input = 0;
    }
    occ_inspect_result_free(first);
    free_plans(plans, plan_count);
    remove_tmp(&s);
    regs_ptx_module_free(&s.module);
    regs_toolkit_close(&s.tk);
    free(s.ptx);
    free(s.cache_dir);
    free(s.unconstrained_log);
    free(s.unconstrained_cubin);
    free(s.run_notes.text);
    if (status != OCC_OK) {
        occ_regs_result_free(result);
        return status;
    }
    *out = result;
    return OCC_OK;
}

size_t occ_regs_kernel_count(const occ_regs_result *result)
{
    return result != NULL ? result->count : 0;
}

const occ_regs_kernel *occ_regs_kernel_at(const occ_regs_result *result, size_t index)
{
    return result != NULL && index < result->count ? &result->kernels[index] : NULL;
}

void occ_regs_totals_get(const occ_regs_result *result, occ_regs_totals *out)
{
    if (result == NULL) {
        memset(out, 0, sizeof *out);
        return;
    }
    *out = result->totals;
}
