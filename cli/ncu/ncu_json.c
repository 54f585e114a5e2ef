/*
 * ncu_json.c - `occ ncu --json` (schema occ.ncu, version 1, docs/json.md):
 * the files, the agreement, the ranking, then one kernel object per line,
 * written as each launch is read.
 */
#include <stdlib.h>
#include <string.h>

#include "json_stream.h"
#include "ncu.h"

#define NCU_SCHEMA_VERSION 1

/* ,"key": */
static void key(json_stream *s, const char *name)
{
    json_stream_raw(s, ",\"", 2);
    json_stream_lit(s, name);
    json_stream_raw(s, "\":", 2);
}

static void int_or_null(json_stream *s, long long value, bool known)
{
    if (known) {
        json_stream_int(s, value);
    } else {
        json_stream_lit(s, "null");
    }
}

static void double_or_null(json_stream *s, double value, bool known)
{
    if (known) {
        json_stream_double(s, value);
    } else {
        json_stream_lit(s, "null");
    }
}

static void boolean(json_stream *s, bool value)
{
    json_stream_lit(s, value ? "true" : "false");
}

static void ints(json_stream *s, const int *values, int count)
{
    json_stream_raw(s, "[", 1);
    for (int i = 0; i < count; i++) {
        if (i > 0) {
            json_stream_raw(s, ",", 1);
        }
        json_stream_int(s, values[i]);
    }
    json_stream_raw(s, "]", 1);
}

static void limits(json_stream *s, const int values[OCC_PROFILE_NCU_LIMIT_COUNT])
{
    for (int i = 0; i < OCC_PROFILE_NCU_LIMIT_COUNT; i++) {
        json_stream_raw(s, i == 0 ? "{\"" : ",\"", 2);
        json_stream_lit(s, occ_profile_ncu_limit_names[i]);
        json_stream_raw(s, "\":", 2);
        int_or_null(s, values[i], values[i] >= 0);
    }
    json_stream_raw(s, "}", 1);
}

static const char *page_word(occ_profile_ncu_page page)
{
    return page == OCC_PROFILE_NCU_PAGE_RAW ? "raw" : "details";
}

void ncu_json_begin(json_stream *js, const ncu_summary *s)
{
    json_stream_lit(js, "{\"schema\":\"occ.ncu\"");
    key(js, "version");
    json_stream_int(js, NCU_SCHEMA_VERSION);
    key(js, "occ_version");
    json_stream_cstring(js, occ_version());
    key(js, "files");
    json_stream_raw(js, "[", 1);
    for (int i = 0; i < s->file_count; i++) {
        const ncu_file_info *f = &s->files[i];
        json_stream_lit(js, i == 0 ? "\n{\"path\":" : ",\n{\"path\":");
        json_stream_cstring(js, f->path);
        key(js, "page");
        json_stream_cstring(js, page_word(f->page));
        key(js, "launches");
        json_stream_int(js, f->launches);
        key(js, "agreed");
        json_stream_int(js, f->agreed);
        key(js, "timed");
        json_stream_int(js, f->timed);
        key(js, "gpu");
        if (f->launches > 0) {
            json_stream_cstring(js, f->gpu);
        } else {
            json_stream_lit(js, "null");
        }
        key(js, "skipped_lines");
        json_stream_int(js, f->skipped_lines);
        json_stream_raw(js, "}", 1);
    }
    json_stream_raw(js, "]", 1);
    key(js, "summary");
    json_stream_lit(js, "{\"launches\":");
    json_stream_int(js, s->launches);
    key(js, "agreed");
    json_stream_int(js, s->agreed);
    key(js, "mismatches");
    json_stream_raw(js, "{", 1);
    bool first = true;
    for (int bit = 0; bit < OCC_PROFILE_NCU_MISMATCH_KINDS; bit++) {
        if (s->mismatch_counts[bit] > 0) {
            json_stream_raw(js, first ? "\"" : ",\"", first ? 1 : 2);
            json_stream_lit(js, occ_profile_ncu_mismatch_name(1u << bit));
            json_stream_raw(js, "\":", 2);
            json_stream_int(js, s->mismatch_counts[bit]);
            first = false;
        }
    }
    json_stream_raw(js, "}", 1);
    key(js, "ranked_by");
    json_stream_cstring(js, s->by_time ? "duration_x_gap" : "gap");
    key(js, "untimed_file");
    if (s->by_time || s->untimed_file == NULL) {
        json_stream_lit(js, "null");
    } else {
        json_stream_cstring(js, s->untimed_file);
    }
    json_stream_raw(js, "}", 1);
    key(js, "ranking");
    json_stream_raw(js, "[", 1);
    for (int i = 0; i < s->top_count; i++) {
        const ncu_ranked *r = &s->top[i];
        json_stream_lit(js, i == 0 ? "\n{\"file\":" : ",\n{\"file\":");
        json_stream_cstring(js, s->files[r->file_index].path);
        key(js, "id");
        json_stream_int(js, r->id);
        key(js, "score");
        json_stream_double(js, r->score);
        key(js, "duration_us");
        double_or_null(js, r->launch.v[OCC_PROFILE_NCU_DURATION].value,
                       r->launch.v[OCC_PROFILE_NCU_DURATION].present);
        key(js, "gap");
        json_stream_double(js, r->gap.gap);
        key(js, "cause");
        json_stream_cstring(js, occ_gap_cause_name(r->gap.cause));
        json_stream_raw(js, "}", 1);
    }
    json_stream_raw(js, "]", 1);
    key(js, "kernels");
    json_stream_raw(js, "[", 1);
}

static void gap_object(json_stream *js, const occ_profile_ncu_check *c, const occ_gap_result *g)
{
    bool modelled = g->wave_blocks > 0;
    json_stream_lit(js, "{\"cause\":");
    json_stream_cstring(js, occ_gap_cause_name(g->cause));
    key(js, "theoretical_minus_achieved");
    double_or_null(js, g->gap, c->has_achieved);
    key(js, "grid_bound");
    double_or_null(js, g->grid_bound, modelled);
    key(js, "cluster_loss");
    double_or_null(js, g->cluster_loss, modelled);
    key(js, "small_grid_loss");
    double_or_null(js, g->small_grid_loss, modelled);
    key(js, "tail_loss");
    double_or_null(js, g->tail_loss, modelled);
    key(js, "in_kernel");
    double_or_null(js, g->in_kernel, modelled && c->has_achieved);
    key(js, "wave_blocks");
    int_or_null(js, g->wave_blocks, modelled);
    key(js, "full_waves");
    int_or_null(js, g->full_waves, modelled);
    key(js, "last_wave_blocks");
    int_or_null(js, g->last_wave_blocks, modelled);
    json_stream_raw(js, "}", 1);
}

void ncu_json_kernel(json_stream *js, const ncu_summary *s, int file_index,
                     const occ_profile_ncu_launch *l, const occ_profile_ncu_check *c,
                     const occ_gap_result *g, bool first, ncu_explain_cache *cache)
{
    const occ_kernel *k = &c->kernel;
    const occ_result *r = &c->result;
    json_stream_lit(js, first ? "\n{\"file\":" : ",\n{\"file\":");
    json_stream_cstring(js, s->files[file_index].path);
    key(js, "id");
    json_stream_int(js, l->id);
    key(js, "name");
    json_stream_cstring(js, l->name);
    key(js, "gpu");
    json_stream_cstring(js, c->device.name);
    key(js, "block");
    const int block[3] = {k->block_x, k->block_y, k->block_z};
    ints(js, block, 3);
    key(js, "block_size");
    json_stream_int(js, r->threads_per_block);
    key(js, "grid_size");
    json_stream_int(js, (long long)(l->v[OCC_PROFILE_NCU_GRID_SIZE].value + 0.5));
    key(js, "registers_per_thread");
    json_stream_int(js, k->regs_per_thread);
    key(js, "static_smem_bytes");
    json_stream_int(js, k->static_smem_bytes);
    key(js, "dyn_smem_bytes");
    json_stream_int(js, k->dyn_smem_bytes);
    key(js, "exact_inputs");
    boolean(js, c->exact_inputs);
    key(js, "barriers");
    json_stream_int(js, k->barriers);
    key(js, "barriers_inferred");
    boolean(js, c->barriers_inferred);
    key(js, "cluster");
    if (c->has_clusters) {
        const int cluster[3] = {k->cluster_x, k->cluster_y > 0 ? k->cluster_y : 1,
                                k->cluster_z > 0 ? k->cluster_z : 1};
        ints(js, cluster, 3);
    } else {
        json_stream_lit(js, "null");
    }
    key(js, "shared_mem_config_bytes");
    json_stream_int(js, c->smem_config_bytes);
    key(js, "sm_count");
    int_or_null(js, c->sm_count, c->sm_count > 0);
    key(js, "duration_us");
    double_or_null(js, l->v[OCC_PROFILE_NCU_DURATION].value,
                   l->v[OCC_PROFILE_NCU_DURATION].present);
    key(js, "ncu_theoretical_occupancy");
    json_stream_double(js, c->ncu_theoretical);
    key(js, "theoretical_occupancy");
    json_stream_double(js, c->theoretical);
    key(js, "achieved_occupancy");
    double_or_null(js, c->achieved, c->has_achieved);
    key(js, "blocks_per_sm");
    json_stream_int(js, r->blocks_per_sm);
    key(js, "warps_per_sm");
    json_stream_int(js, r->warps_per_sm);
    key(js, "limiters");
    const occ_limiter order[] = {OCC_LIMITER_WARPS, OCC_LIMITER_BLOCKS, OCC_LIMITER_REGISTERS,
                                 OCC_LIMITER_SHARED_MEM, OCC_LIMITER_BARRIERS};
    json_stream_raw(js, "[", 1);
    bool any = false;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        if ((r->limiters & (unsigned)order[i]) != 0) {
            if (any) {
                json_stream_raw(js, ",", 1);
            }
            json_stream_cstring(js, occ_limiter_name(order[i]));
            any = true;
        }
    }
    json_stream_raw(js, "]", 1);
    key(js, "limits");
    limits(js, c->limits);
    key(js, "ncu_limits");
    limits(js, c->ncu_limits);
    key(js, "max_active_clusters");
    int_or_null(js, c->max_active_clusters, c->has_clusters && c->max_active_clusters >= 0);
    key(js, "max_active_clusters_exact");
    if (c->has_clusters && c->max_active_clusters >= 0) {
        boolean(js, c->clusters_exact);
    } else {
        json_stream_lit(js, "null");
    }
    key(js, "ncu_max_active_clusters");
    int_or_null(js, c->ncu_max_active_clusters, c->has_clusters && c->ncu_max_active_clusters >= 0);
    key(js, "waves_per_sm");
    double_or_null(js, c->waves, c->waves >= 0);
    key(js, "ncu_waves_per_sm");
    double_or_null(js, l->v[OCC_PROFILE_NCU_WAVES].value, l->v[OCC_PROFILE_NCU_WAVES].present);
    key(js, "gap");
    gap_object(js, c, g);
    key(js, "explanation");
    char *text = ncu_explain(l, c, g, cache);
    if (text != NULL) {
        json_stream_cstring(js, text);
        free(text);
    } else {
        json_stream_lit(js, "null");
    }
    key(js, "mismatches");
    json_stream_raw(js, "[", 1);
    any = false;
    for (int bit = 0; bit < OCC_PROFILE_NCU_MISMATCH_KINDS; bit++) {
        if ((c->mismatches & (1u << bit)) != 0) {
            if (any) {
                json_stream_raw(js, ",", 1);
            }
            json_stream_cstring(js, occ_profile_ncu_mismatch_name(1u << bit));
            any = true;
        }
    }
    json_stream_raw(js, "]}", 2);
}

void ncu_json_end(json_stream *js)
{
    json_stream_raw(js, "\n]}\n", 4);
    json_stream_flush(js);
}
