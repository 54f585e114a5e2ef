/*
 * inspect_json.c - `occ inspect --json` (schema occ.inspect, version 1, in
 * docs/inspect.md). Written straight to the output through json_stream, one
 * function object per line: on a library of 100,000 kernels a jansson tree
 * per object cost more time than reading the library.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "calc_output.h"
#include "inspect_output.h"
#include "json_stream.h"

#define INSPECT_SCHEMA_VERSION 1
/* Rows formatted per round of threads: bounds the text held in memory
   (~1.5 KB a row for libtorch's templated names) while keeping every
   thread busy. */
#define ROWS_PER_BATCH 16384

/* ,"key": */
static void key(json_stream *s, const char *name)
{
    json_stream_raw(s, ",\"", 2);
    json_stream_lit(s, name);
    json_stream_raw(s, "\":", 2);
}

static void int_or_null(json_stream *s, int value, bool known)
{
    if (known) {
        json_stream_int(s, value);
    } else {
        json_stream_lit(s, "null");
    }
}

static void boolean(json_stream *s, bool value)
{
    json_stream_lit(s, value ? "true" : "false");
}

static void dims_or_null(json_stream *s, const int d[3])
{
    if (d[0] <= 0) {
        json_stream_lit(s, "null");
        return;
    }
    json_stream_raw(s, "[", 1);
    json_stream_int(s, d[0]);
    json_stream_raw(s, ",", 1);
    json_stream_int(s, d[1] > 0 ? d[1] : 1);
    json_stream_raw(s, ",", 1);
    json_stream_int(s, d[2] > 0 ? d[2] : 1);
    json_stream_raw(s, "]", 1);
}

static void occupancy_json(json_stream *s, const occ_inspect_kernel *k)
{
    if (!k->has_occupancy) {
        json_stream_lit(s, "null");
        return;
    }
    json_stream_lit(s, "{\"gpu\":");
    json_stream_cstring(s, k->gpu);
    key(s, "threads");
    json_stream_int(s, k->threads);
    key(s, "blocks_per_sm");
    json_stream_int(s, k->blocks_per_sm);
    key(s, "warps_per_sm");
    json_stream_int(s, k->warps_per_sm);
    key(s, "max_warps_per_sm");
    json_stream_int(s, k->max_warps_per_sm);
    key(s, "occupancy");
    json_stream_double(s, k->occupancy);
    key(s, "limiters");
    char limiters[64];
    calc_limiter_list(k->limiters, limiters, sizeof limiters);
    json_stream_raw(s, "[", 1);
    char *save = NULL;
    int n = 0;
    for (char *name = strtok_r(limiters, "+", &save); name != NULL;
         name = strtok_r(NULL, "+", &save)) {
        json_stream_raw(s, ",", n++ > 0 ? 1 : 0);
        json_stream_cstring(s, name);
    }
    json_stream_raw(s, "]", 1);
    key(s, "zero_reason");
    if (k->zero_reason == OCC_ZERO_NONE) {
        json_stream_lit(s, "null");
    } else {
        json_stream_cstring(s, occ_zero_reason_text(k->zero_reason));
    }
    /* a compiled cluster: its size and the active clusters (docs/json.md) */
    key(s, "cluster");
    if (k->cluster_size > 0) {
        json_stream_lit(s, "{\"size\":");
        json_stream_int(s, k->cluster_size);
        key(s, "max_active_clusters");
        int_or_null(s, k->max_active_clusters, k->max_active_clusters >= 0);
        json_stream_raw(s, "}", 1);
    } else {
        json_stream_lit(s, "null");
    }
    json_stream_raw(s, "}", 1);
}

static void row_json(json_stream *s, const occ_inspect_kernel *f)
{
    char arch[16];
    json_stream_lit(s, "{\"name\":");
    json_stream_cstring(s, f->name);
    key(s, "mangled");
    json_stream_cstring(s, f->mangled);
    key(s, "arch");
    json_stream_cstring(s, occ_inspect_arch_name(f->sm, f->arch_suffix, arch, sizeof arch));
    key(s, "kind");
    json_stream_lit(s, f->is_kernel ? "\"kernel\"" : "\"function\"");
    key(s, "relocatable");
    boolean(s, f->relocatable);
    key(s, "from_log");
    boolean(s, f->from_log);
    key(s, "count");
    json_stream_int(s, f->count);
    key(s, "section");
    if (f->section != NULL) {
        json_stream_cstring(s, f->section);
    } else {
        json_stream_lit(s, "null");
    }
    key(s, "regs");
    json_stream_int(s, f->regs);
    key(s, "smem_bytes");
    json_stream_int(s, f->smem_bytes);
    key(s, "smem_section_bytes");
    int_or_null(s, f->smem_section_bytes, f->smem_section_bytes != OCC_INSPECT_UNKNOWN);
    key(s, "stack_bytes");
    json_stream_int(s, f->stack_bytes);
    key(s, "frame_bytes");
    json_stream_int(s, f->frame_bytes);
    key(s, "spill_store_bytes");
    int_or_null(s, f->spill_store_bytes, f->spill_store_bytes != OCC_INSPECT_UNKNOWN);
    key(s, "spill_load_bytes");
    int_or_null(s, f->spill_load_bytes, f->spill_load_bytes != OCC_INSPECT_UNKNOWN);
    key(s, "spill_instructions");
    json_stream_int(s, f->spill_instructions);
    key(s, "barriers");
    int_or_null(s, f->barriers, f->barriers != OCC_INSPECT_UNKNOWN);
    key(s, "max_threads");
    dims_or_null(s, f->max_threads);
    key(s, "req_threads");
    dims_or_null(s, f->req_threads);
    key(s, "max_regs");
    int_or_null(s, f->max_regs, f->max_regs > 0);
    key(s, "cluster_dims");
    dims_or_null(s, f->cluster_dims);
    key(s, "explicit_cluster");
    boolean(s, f->explicit_cluster);
    key(s, "max_cluster_rank");
    int_or_null(s, f->max_cluster_rank, f->max_cluster_rank > 0);
    key(s, "param_bytes");
    int_or_null(s, f->param_bytes, f->param_bytes != OCC_INSPECT_UNKNOWN);
    key(s, "occupancy");
    occupancy_json(s, f);
    /* the flags that need no search (the ceiling on the kernel's own arch) */
    key(s, "flags");
    occ_inspect_options own_arch;
    memset(&own_arch, 0, sizeof own_arch);
    occ_inspect_risk risk;
    occ_inspect_risk_flags(f, &own_arch, &risk);
    char flags[192];
    json_stream_lit(s, occ_inspect_risk_json_flags(&risk, flags, sizeof flags));
    key(s, "launch");
    char launch[192];
    json_stream_lit(s, occ_inspect_launch_json(f, launch, sizeof launch));
    key(s, "note");
    if (f->note != NULL) {
        json_stream_cstring(s, f->note);
    } else {
        json_stream_lit(s, "null");
    }
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

/* The function objects, formatted on --jobs threads a batch at a time and
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

void inspect_print_json(FILE *out, const occ_inspect_result *r, const inspect_args *a)
{
    json_stream stream;
    json_stream *s = &stream;
    json_stream_init(s, out);
    json_stream_lit(s, "{\"schema\":\"occ.inspect\",\"version\":");
    json_stream_int(s, INSPECT_SCHEMA_VERSION);
    key(s, "occ_version");
    json_stream_cstring(s, occ_version());
    json_stream_lit(s, ",\n\"inputs\":[");
    occ_inspect_totals totals;
    occ_inspect_totals_get(r, &totals);
    for (int i = 0; i < totals.input_count; i++) {
        json_stream_lit(s, i > 0 ? ",{\"file\":" : "{\"file\":");
        json_stream_cstring(s, occ_inspect_input_name(r, i));
        key(s, "format");
        json_stream_cstring(s, occ_inspect_format_name(occ_inspect_input_format(r, i)));
        json_stream_raw(s, "}", 1);
    }
    json_stream_lit(s, "],\n\"gpu\":");
    if (a->read.device != NULL) {
        json_stream_cstring(s, a->read.device->name);
    } else {
        json_stream_lit(s, "null");
    }
    key(s, "threads");
    int_or_null(s, a->read.threads, a->read.threads > 0);
    key(s, "dyn_smem_bytes");
    json_stream_int(s, a->read.dyn_smem_bytes);
    key(s, "functions_read");
    json_stream_int(s, (long long)totals.functions_read);
    json_stream_lit(s, ",\n\"no_resource_data\":[");
    for (int i = 0; i < totals.no_data_count; i++) {
        char kind[16];
        char arch[16];
        occ_inspect_no_data n = occ_inspect_no_data_at(r, i);
        json_stream_lit(s, i > 0 ? ",{\"kind\":" : "{\"kind\":");
        json_stream_cstring(s, occ_inspect_entry_kind_name(n.kind, kind, sizeof kind));
        key(s, "arch");
        json_stream_cstring(s, occ_inspect_arch_name(n.sm, n.arch_suffix, arch, sizeof arch));
        key(s, "count");
        json_stream_int(s, n.count);
        json_stream_raw(s, "}", 1);
    }
    json_stream_lit(s, "],\n\"entries_skipped\":");
    json_stream_int(s, totals.entries_skipped);
    json_stream_lit(s, ",\n\"launch_match\":");
    char *launch_match = NULL;
    size_t launch_match_size = 0;
    if (occ_inspect_launch_match_json(a->launch_set != NULL ? a->launch_set->list : NULL,
                                      &launch_match, &launch_match_size) == OCC_OK) {
        json_stream_raw(s, launch_match, launch_match_size);
    } else {
        json_stream_lit(s, "null"); /* out of memory: the document stays whole */
    }
    occ_inspect_text_free(launch_match);
    json_stream_lit(s, ",\n\"functions\":[\n");
    int jobs = a->read.jobs > 0 ? a->read.jobs : occ_inspect_default_jobs();
    write_functions(s, r, jobs);
    json_stream_lit(s, "]}\n");
    json_stream_flush(s);
}
