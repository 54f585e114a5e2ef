/*
 * inspect_document.c - the occ.inspect document (`occ inspect --json`,
 * docs/inspect.md): occ_inspect_json_write (include/occ_inspect.h). Written
 * straight to the output through json_stream, one function object per line,
 * each built by the renderer the baseline uses (kernel_json.c) and followed
 * by its occupancy, risk flags, launch and note.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "documents.h"
#include "engine.h"

#define INSPECT_SCHEMA_VERSION 1
/* Rows formatted per round of threads: bounds the text held in memory
   (~1.5 KB a row for libtorch's templated names) while keeping every
   thread busy. */
#define ROWS_PER_BATCH 16384

static void occupancy_json(json_stream *s, const occ_inspect_kernel *k)
{
    if (!k->has_occupancy) {
        json_stream_lit(s, "null");
        return;
    }
    json_stream_lit(s, "{\"gpu\":");
    json_stream_cstring(s, k->gpu);
    json_stream_key(s, "threads");
    json_stream_int(s, k->threads);
    json_stream_key(s, "blocks_per_sm");
    json_stream_int(s, k->blocks_per_sm);
    json_stream_key(s, "warps_per_sm");
    json_stream_int(s, k->warps_per_sm);
    json_stream_key(s, "max_warps_per_sm");
    json_stream_int(s, k->max_warps_per_sm);
    json_stream_key(s, "occupancy");
    json_stream_double(s, k->occupancy);
    json_stream_key(s, "limiters");
    char limiters[64];
    occ_limiter_list(k->limiters, limiters, sizeof limiters);
    json_stream_raw(s, "[", 1);
    char *save = NULL;
    int n = 0;
    for (char *name = strtok_r(limiters, "+", &save); name != NULL;
         name = strtok_r(NULL, "+", &save)) {
        json_stream_raw(s, ",", n++ > 0 ? 1 : 0);
        json_stream_cstring(s, name);
    }
    json_stream_raw(s, "]", 1);
    json_stream_key(s, "zero_reason");
    if (k->zero_reason == OCC_ZERO_NONE) {
        json_stream_lit(s, "null");
    } else {
        json_stream_cstring(s, occ_zero_reason_text(k->zero_reason));
    }
    /* a compiled cluster: its size and the active clusters (docs/json.md) */
    json_stream_key(s, "cluster");
    if (k->cluster_size > 0) {
        json_stream_lit(s, "{\"size\":");
        json_stream_int(s, k->cluster_size);
        json_stream_key(s, "max_active_clusters");
        json_stream_int_or_null(s, k->max_active_clusters, k->max_active_clusters >= 0);
        json_stream_raw(s, "}", 1);
    } else {
        json_stream_lit(s, "null");
    }
    json_stream_raw(s, "}", 1);
}

static void row_json(json_stream *s, const occ_inspect_kernel *f)
{
    insp_kernel_json_resources(s, f, INSP_KERNEL_JSON_INSPECT);
    json_stream_key(s, "occupancy");
    occupancy_json(s, f);
    /* the flags that need no search (the ceiling on the kernel's own arch) */
    json_stream_key(s, "flags");
    occ_inspect_options own_arch;
    memset(&own_arch, 0, sizeof own_arch);
    occ_inspect_risk risk;
    occ_inspect_risk_flags(f, &own_arch, &risk);
    char flags[192];
    json_stream_lit(s, occ_inspect_risk_json_flags(&risk, flags, sizeof flags));
    json_stream_key(s, "launch");
    char launch[192];
    json_stream_lit(s, occ_inspect_launch_json(f, launch, sizeof launch));
    json_stream_key(s, "note");
    json_stream_cstring_or_null(s, f->note);
    json_stream_raw(s, "}", 1);
}

/* Rows [from, to) of r, each followed by ",\n" (the last row of all by "\n"). */
typedef struct json_part {
    const occ_inspect_result *r;
    size_t from, to;
    pthread_t thread;
    bool started;
    json_stream stream;
} json_part;

static void write_rows(json_stream *s, const occ_inspect_result *r, size_t from, size_t to)
{
    size_t count = occ_inspect_kernel_count(r);
    for (size_t i = from; i < to; i++) {
        row_json(s, occ_inspect_kernel_at(r, i));
        json_stream_lit(s, i + 1 < count ? ",\n" : "\n");
    }
    json_stream_flush(s);
}

/* Formats a part into its stream's memory, reusing it from the last batch. */
static void *format_part(void *context)
{
    json_part *part = context;
    part->stream.memory_bytes = 0;
    part->stream.failed = false;
    write_rows(&part->stream, part->r, part->from, part->to);
    return NULL;
}

/* The function objects, formatted on `jobs` threads a batch at a time and
   written in order: the output is the same whatever the thread count. */
static void write_functions(json_stream *s, const occ_inspect_result *r, int jobs)
{
    size_t count = occ_inspect_kernel_count(r);
    json_part *parts = jobs > 1 ? calloc((size_t)jobs, sizeof *parts) : NULL;
    if (parts == NULL) {
        write_rows(s, r, 0, count);
        return;
    }
    json_stream_flush(s);
    for (int p = 0; p < jobs; p++) {
        json_stream_init_memory(&parts[p].stream);
    }
    for (size_t batch = 0; batch < count; batch += ROWS_PER_BATCH) {
        size_t end = count - batch < ROWS_PER_BATCH ? count : batch + ROWS_PER_BATCH;
        size_t per_part = (end - batch + (size_t)jobs - 1) / (size_t)jobs;
        for (int p = 0; p < jobs; p++) {
            json_part *part = &parts[p];
            part->r = r;
            part->from = batch + (size_t)p * per_part < end ? batch + (size_t)p * per_part : end;
            part->to = part->from + per_part < end ? part->from + per_part : end;
            part->started = p > 0 && pthread_create(&part->thread, NULL, format_part, part) == 0;
            if (p > 0 && !part->started) {
                format_part(part);
            }
        }
        format_part(&parts[0]);
        for (int p = 0; p < jobs; p++) {
            json_part *part = &parts[p];
            if (part->started) {
                pthread_join(part->thread, NULL);
            }
            if (part->stream.failed) {
                /* out of memory for the text: write this part directly */
                write_rows(s, r, part->from, part->to);
            } else if (part->stream.memory_bytes > 0) {
                /* a part with no rows (fewer rows than threads) has no memory at all:
                   fwrite(NULL, 1, 0) is undefined behaviour */
                fwrite(part->stream.memory, 1, part->stream.memory_bytes, s->out);
            }
        }
    }
    for (int p = 0; p < jobs; p++) {
        json_stream_free(&parts[p].stream);
    }
    free(parts);
}

static void write_document(json_stream *s, const occ_inspect_result *r,
                           const occ_inspect_options *o, const occ_inspect_launch_list *launches)
{
    insp_document_open(s, r, "occ.inspect", INSPECT_SCHEMA_VERSION);
    occ_inspect_totals totals;
    occ_inspect_totals_get(r, &totals);
    json_stream_lit(s, ",\n\"gpu\":");
    if (o->device != NULL) {
        json_stream_cstring(s, o->device->name);
    } else {
        json_stream_lit(s, "null");
    }
    json_stream_key(s, "threads");
    json_stream_int_or_null(s, o->threads, o->threads > 0);
    json_stream_key(s, "dyn_smem_bytes");
    json_stream_int(s, o->dyn_smem_bytes);
    json_stream_key(s, "functions_read");
    json_stream_int(s, (long long)totals.functions_read);
    json_stream_lit(s, ",\n\"no_resource_data\":[");
    for (int i = 0; i < totals.no_data_count; i++) {
        char kind[16];
        char arch[16];
        occ_inspect_no_data n = occ_inspect_no_data_at(r, i);
        json_stream_lit(s, i > 0 ? ",{\"kind\":" : "{\"kind\":");
        json_stream_cstring(s, occ_inspect_entry_kind_name(n.kind, kind, sizeof kind));
        json_stream_key(s, "arch");
        json_stream_cstring(s, occ_inspect_arch_name(n.sm, n.arch_suffix, arch, sizeof arch));
        json_stream_key(s, "count");
        json_stream_int(s, n.count);
        json_stream_raw(s, "}", 1);
    }
    json_stream_lit(s, "],\n\"entries_skipped\":");
    json_stream_int(s, totals.entries_skipped);
    json_stream_lit(s, ",\n\"launch_match\":");
    char *launch_match = NULL;
    size_t launch_match_size = 0;
    if (occ_inspect_launch_match_json(launches, &launch_match, &launch_match_size) == OCC_OK) {
        json_stream_raw(s, launch_match, launch_match_size);
    } else {
        json_stream_lit(s, "null"); /* out of memory: the document stays whole */
    }
    occ_inspect_text_free(launch_match);
    json_stream_lit(s, ",\n\"functions\":[\n");
    int jobs = o->jobs > 0 ? o->jobs : occ_inspect_default_jobs();
    write_functions(s, r, jobs);
    json_stream_lit(s, "]}\n");
    json_stream_flush(s);
}

occ_status occ_inspect_json_write(const occ_inspect_result *r, const occ_inspect_options *options,
                                  const occ_inspect_launch_list *launches, FILE *out,
                                  occ_inspect_error *err)
{
    if (r == NULL || options == NULL || out == NULL) {
        return inspect_fail(err, OCC_ERR_NULL_POINTER, -1, -1,
                            "occ_inspect_json_write: a NULL argument");
    }
    if (options->jobs < 0 || options->jobs > OCC_INSPECT_MAX_JOBS) {
        return inspect_fail(err, OCC_ERR_INVALID_ARGUMENT, -1, -1,
                            "options.jobs %d: must be 0 (every core, at most %d) to %d",
                            options->jobs, INSPECT_DEFAULT_JOBS_MAX, OCC_INSPECT_MAX_JOBS);
    }
    json_stream *s = malloc(sizeof *s); /* its buffer is 16 KB: not on the stack */
    if (s == NULL) {
        return inspect_fail(err, OCC_ERR_OUT_OF_MEMORY, -1, -1, "out of memory");
    }
    json_stream_init(s, out);
    write_document(s, r, options, launches);
    free(s);
    if (fflush(out) != 0 || ferror(out)) {
        return inspect_fail(err, OCC_ERR_IO, -1, -1, "cannot write the occ.inspect document");
    }
    return OCC_OK;
}
