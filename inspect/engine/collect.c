/*
 * collect.c - occ_inspect_read: maps each input and splits it into tasks
 * (input_file.c, task_split.c, archive_split.c), runs the tasks on --jobs
 * threads (thread_pool.c), each function read becoming a row with its
 * occupancy through libocc (row_sink.c), and merges identical functions
 * found in several places (row_merge.c).
 *
 * Memory stays small on large libraries: the input is memory-mapped and the
 * pages of each entry or scanned part are dropped once read (page_sweep.c),
 * each thread reuses one decompression buffer and decompressor
 * (entry_read.c), and only the compact rows are kept, each distinct name
 * once (names.c).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "budget.h"
#include "collector.h"
#include "row_merge.h"
#include "task_split.h"
#include "thread_pool.h"

/* Opens (or takes from memory) one input and splits it into tasks. */
static occ_status open_input(collector *c, int index, const occ_inspect_input *in,
                             occ_inspect_error *err)
{
    input_file *file = &c->files[index];
    file->path = in->path != NULL ? in->path : "<memory>";
    occ_status status = OCC_OK;
    if (in->data != NULL) {
        file->data = in->data;
        file->size = in->size;
        if (file->size == 0) {
            return inspect_fail(err, OCC_ERR_BAD_FORMAT, index, -1, "%s: is empty", file->path);
        }
    } else {
        if (in->path == NULL) {
            return inspect_fail(err, OCC_ERR_INVALID_ARGUMENT, index, -1,
                                "%s: input %d has neither a path nor data", file->path, index);
        }
        status = input_file_open(file, index, err);
        if (status != OCC_OK) {
            return status;
        }
    }
    file->format = insp_detect(file->data, file->size);
    c->file = index;
    c->drop_from = 0;
    insp_error rerr = {0, "", false, false};
    if (file->size >= 3 && memcmp(file->data, "\xEF\xBB\xBF", 3) == 0) {
        /* a text editor's mark: JSON and logs are read without one */
        return inspect_fail(err, OCC_ERR_BAD_FORMAT, index, 0,
                            "%s: offset 0: starts with a UTF-8 byte-order mark (EF BB BF), which "
                            "a baseline or ptxas log does not have: save it without one",
                            file->path);
    }
    if (file->format == INSP_FORMAT_UNKNOWN) {
        return inspect_fail(err, OCC_ERR_BAD_FORMAT, index, 0,
                            "%s: offset 0: not a ptxas log, cubin, fatbin or ELF file, nor an "
                            "archive or occ baseline",
                            file->path);
    }
    if (!collect_split_region(c, file->format, 0, file->size, &rerr)) {
        return inspect_fail(err, rerr.over_limit ? OCC_ERR_LIMIT : OCC_ERR_BAD_FORMAT, index,
                            (long long)rerr.offset, "%s: offset %zu: %s", file->path, rerr.offset,
                            rerr.message);
    }
    if (atomic_load(&c->failed)) {
        return collect_failure(c, err);
    }
    return OCC_OK;
}

/* Demangles and ranks the distinct names, then points each row at its own. */
static bool finish_names(collector *c, int jobs, occ_inspect_result *out)
{
    if (!inspect_names_finish(c->names, c->opts->demangle, jobs)) {
        return false;
    }
    for (size_t i = 0; i < out->row_count; i++) {
        out->rows[i].k.name = out->rows[i].interned->printed;
    }
    return true;
}

static void collector_free(collector *c, worker *workers, int jobs, int input_count)
{
    for (int i = 0; workers != NULL && i < jobs; i++) {
        insp_scratch_free(&workers[i].scratch);
        free(workers[i].rows);
    }
    free(workers);
    insp_pool_trim();
    for (int i = 0; c->files != NULL && i < input_count; i++) {
        input_file_close(&c->files[i]);
    }
    for (size_t i = 0; i < c->task_count; i++) {
        free(c->tasks[i].found);
    }
    free(c->files);
    free(c->tasks);
    free(c->deferred);
    free(c->run_order);
    free(c->members);
    pthread_mutex_destroy(&c->error_lock);
    pthread_mutex_destroy(&c->drop_lock);
    pthread_mutex_destroy(&c->budget_lock);
}

/* Every input: round 1 reads the entries of .nv_fatbin and of fatbin files
   and scans other sections; round 2 reads the entries of the containers
   those scans found. Then the rows are merged and the names finished. */
static occ_status collect(collector *c, worker *workers, int jobs, const occ_inspect_input *inputs,
                          int input_count, occ_inspect_result *out, occ_inspect_error *err)
{
    double start = inspect_now();
    for (int i = 0; i < input_count; i++) {
        out->input_names[i] = strdup(inputs[i].path != NULL ? inputs[i].path : "<memory>");
        if (out->input_names[i] == NULL) {
            return inspect_fail(err, OCC_ERR_OUT_OF_MEMORY, i, -1, "%s: out of memory",
                                inputs[i].path != NULL ? inputs[i].path : "<memory>");
        }
        occ_status status = open_input(c, i, &inputs[i], err);
        out->input_formats[i] = (occ_inspect_format)c->files[i].format;
        if (status != OCC_OK) {
            return status;
        }
    }
    out->timing.split_seconds = inspect_now() - start;
    start = inspect_now();
    for (int round = 0; round < 2; round++) {
        if (round == 1) {
            insp_error rerr = {0, "", false, false};
            int bad_file = 0;
            size_t scanned = c->task_count;
            c->round_start = scanned;
            if (!collect_add_scanned_containers(c, scanned, &rerr, &bad_file)) {
                return inspect_fail(err, OCC_ERR_BAD_FORMAT, bad_file, (long long)rerr.offset,
                                    "%s: offset %zu: %s", c->files[bad_file].path, rerr.offset,
                                    rerr.message);
            }
        }
        occ_status status = collect_run_round(c, workers, jobs, err);
        if (status != OCC_OK) {
            return status;
        }
        double now = inspect_now();
        *(round == 0 ? &out->timing.read_seconds : &out->timing.scanned_seconds) = now - start;
        start = now;
    }
    /* the buffers go before the merge, which holds the rows twice for a while */
    for (int i = 0; i < jobs; i++) {
        insp_scratch_free(&workers[i].scratch);
    }
    insp_pool_trim();
    if (!collect_merge_workers(workers, jobs, out)) {
        return inspect_fail(err, OCC_ERR_OUT_OF_MEMORY, -1, -1, "out of memory");
    }
    out->timing.merge_seconds = inspect_now() - start;
    start = inspect_now();
    if (!finish_names(c, jobs, out)) {
        return inspect_fail(err, OCC_ERR_OUT_OF_MEMORY, -1, -1, "out of memory");
    }
    out->timing.names_seconds = inspect_now() - start;
    for (size_t i = 0; i < out->row_count; i++) {
        inspect_row *row = &out->rows[i];
        row->k.section = row->section_index >= 0 ? c->section_names[row->section_index] : NULL;
    }
    return OCC_OK;
}

void occ_inspect_options_init(occ_inspect_options *options)
{
    memset(options, 0, sizeof *options);
    options->demangle = true;
}

occ_status occ_inspect_read(const occ_inspect_input *inputs, int input_count,
                            const occ_inspect_options *options, occ_inspect_result **out,
                            occ_inspect_error *caller_err)
{
    return inspect_read_tuned(inputs, input_count, options, NULL, out, caller_err);
}

/* Each option in its range, or OCC_ERR_INVALID_ARGUMENT naming it. */
static occ_status check_options(const occ_inspect_options *o, occ_inspect_error *err)
{
    if (o->jobs < 0 || o->jobs > OCC_INSPECT_MAX_JOBS) {
        return inspect_fail(err, OCC_ERR_INVALID_ARGUMENT, -1, -1,
                            "options.jobs %d: must be 0 (every core, at most %d) to %d", o->jobs,
                            INSPECT_DEFAULT_JOBS_MAX, OCC_INSPECT_MAX_JOBS);
    }
    if (o->threads < 0 || o->threads > 1024) {
        return inspect_fail(err, OCC_ERR_INVALID_ARGUMENT, -1, -1,
                            "options.threads %d: must be 0 (the occupancy API's pick) to 1024",
                            o->threads);
    }
    if (o->dyn_smem_bytes < 0) {
        return inspect_fail(err, OCC_ERR_INVALID_ARGUMENT, -1, -1,
                            "options.dyn_smem_bytes %d: must not be negative", o->dyn_smem_bytes);
    }
    if (o->arch_sm != 0 && (o->arch_sm < 10 || o->arch_sm > 999)) {
        return inspect_fail(err, OCC_ERR_INVALID_ARGUMENT, -1, -1,
                            "options.arch_sm %d: must be 0 (every arch) or an SM number 10..999",
                            o->arch_sm);
    }
    if (o->arch_suffix != 0 && o->arch_suffix != 'a' && o->arch_suffix != 'f') {
        return inspect_fail(err, OCC_ERR_INVALID_ARGUMENT, -1, -1,
                            "options.arch_suffix %d: must be 0, 'a' or 'f'", (int)o->arch_suffix);
    }
    if (o->device != NULL) {
        occ_error e;
        if (occ_device_validate(o->device, &e) != OCC_OK) {
            return inspect_fail(err, OCC_ERR_INVALID_DEVICE, -1, -1, "options.device: %s",
                                e.message);
        }
    }
    return OCC_OK;
}

occ_status inspect_read_tuned(const occ_inspect_input *inputs, int input_count,
                              const occ_inspect_options *options, const inspect_part_tuning *tuning,
                              occ_inspect_result **out, occ_inspect_error *caller_err)
{
    occ_inspect_error local;
    occ_inspect_error *err = caller_err != NULL ? caller_err : &local;
    memset(err, 0, sizeof *err);
    err->input = -1;
    err->offset = -1;
    if (out == NULL || options == NULL || (inputs == NULL && input_count > 0)) {
        return inspect_fail(err, OCC_ERR_NULL_POINTER, -1, -1, "inputs, options or out is NULL");
    }
    *out = NULL;
    if (input_count < 1) {
        return inspect_fail(err, OCC_ERR_INVALID_ARGUMENT, -1, -1, "no input to read");
    }
    occ_status bad = check_options(options, err);
    if (bad != OCC_OK) {
        return bad;
    }
    occ_inspect_result *r = calloc(1, sizeof *r);
    collector *c = calloc(1, sizeof *c);
    int jobs = options->jobs > 0 ? options->jobs : inspect_default_jobs();
    worker *workers = calloc((size_t)jobs, sizeof *workers);
    if (r == NULL || c == NULL || workers == NULL) {
        free(r);
        free(c);
        free(workers);
        return inspect_fail(err, OCC_ERR_OUT_OF_MEMORY, -1, -1, "out of memory");
    }
    c->opts = options;
    c->jobs = jobs;
    c->filter = (insp_filter){options->arch_sm, options->arch_suffix, options->arch_any_suffix};
    c->page_bytes = sysconf(_SC_PAGESIZE);
    c->names = inspect_names_create();
    r->names = c->names;
    r->input_count = input_count;
    pthread_mutex_init(&c->error_lock, NULL);
    pthread_mutex_init(&c->budget_lock, NULL);
    pthread_mutex_init(&c->drop_lock, NULL);
    for (int i = 0; i < jobs; i++) {
        workers[i].c = c;
        if (tuning != NULL) {
            workers[i].scratch.part_min_bytes = tuning->min_bytes;
            workers[i].scratch.part_head_bytes = tuning->head_bytes;
            workers[i].scratch.part_tail_max_bytes = tuning->tail_max_bytes;
        }
    }
    c->files = calloc((size_t)input_count, sizeof *c->files);
    r->input_names = calloc((size_t)input_count, sizeof *r->input_names);
    r->input_formats = calloc((size_t)input_count, sizeof *r->input_formats);
    occ_status status =
        c->files != NULL && r->input_names != NULL && r->input_formats != NULL && c->names != NULL
            ? collect(c, workers, jobs, inputs, input_count, r, err)
            : inspect_fail(err, OCC_ERR_OUT_OF_MEMORY, -1, -1, "out of memory");
    collector_free(c, workers, jobs, input_count);
    r->sections = calloc((size_t)c->section_count + 1, sizeof *r->sections);
    if (r->sections != NULL) {
        if (c->section_count > 0) {
            memcpy(r->sections, c->section_names, (size_t)c->section_count * sizeof(char *));
        }
        r->section_count = c->section_count;
    } else {
        for (int i = 0; i < c->section_count; i++) {
            free(c->section_names[i]);
        }
        c->section_count = 0;
        if (status == OCC_OK) {
            status = inspect_fail(err, OCC_ERR_OUT_OF_MEMORY, -1, -1, "out of memory");
        }
    }
    free(c->section_names);
    free(c->section_slots);
    free(c);
    if (status != OCC_OK) {
        occ_inspect_result_free(r);
        return status;
    }
    *out = r;
    return OCC_OK;
}
