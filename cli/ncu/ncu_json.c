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

static void limits(json_stream *s, const int values[OCC_PROFILE_NCU_LIMIT_COUNT])
{
    for (int i = 0; i < OCC_PROFILE_NCU_LIMIT_COUNT; i++) {
        json_stream_raw(s, i == 0 ? "{\"" : ",\"", 2);
        json_stream_lit(s, occ_profile_ncu_limit_names[i]);
        json_stream_raw(s, "\":", 2);
        json_stream_int_or_null(s, values[i], values[i] >= 0);
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
    json_stream_key(js, "version");
    json_stream_int(js, NCU_SCHEMA_VERSION);
    json_stream_key(js, "occ_version");
    json_stream_cstring(js, occ_version());
    json_stream_key(js, "files");
    json_stream_raw(js, "[", 1);
    for (int i = 0; i < s->file_count; i++) {
        const ncu_file_info *f = &s->files[i];
        json_stream_lit(js, i == 0 ? "\n{\"path\":" : ",\n{\"path\":");
        json_stream_cstring(js, f->path);
        json_stream_key(js, "page");
        json_stream_cstring(js, page_word(f->page));
        json_stream_key(js, "launches");
        json_stream_int(js, f->launches);
        json_stream_key(js, "agreed");
        json_stream_int(js, f->agreed);
        json_stream_key(js, "timed");
        json_stream_int(js, f->timed);
        json_stream_key(js, "gpu");
        if (f->launches > 0) {
            json_stream_cstring(js, f->gpu);
        } else {
            json_stream_null(js);
        }
        json_stream_key(js, "skipped_lines");
        json_stream_int(js, f->skipped_lines);
        json_stream_raw(js, "}", 1);
    }
    json_stream_raw(js, "]", 1);
    json_stream_key(js, "summary");
    json_stream_lit(js, "{\"launches\":");
    json_stream_int(js, s->launches);
    json_stream_key(js, "agreed");
    json_stream_int(js, s->agreed);
    json_stream_key(js, "mismatches");
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
    json_stream_key(js, "ranked_by");
    json_stream_cstring(js, s->by_time ? "duration_x_gap" : "gap");
    json_stream_key(js, "untimed_file");
    if (s->by_time || s->untimed_file == NULL) {
        json_stream_null(js);
    } else {
        json_stream_cstring(js, s->untimed_file);
    }
    json_stream_raw(js, "}", 1);
    json_stream_key(js, "ranking");
    json_stream_raw(js, "[", 1);
    for (int i = 0; i < s->top_count; i++) {
        const ncu_ranked *r = &s->top[i];
        json_stream_lit(js, i == 0 ? "\n{\"file\":" : ",\n{\"file\":");
        json_stream_cstring(js, s->files[r->file_index].path);
        json_stream_key(js, "id");
        json_stream_int(js, r->id);
        json_stream_key(js, "score");
        json_stream_double(js, r->score);
        json_stream_key(js, "duration_us");
        json_stream_double_or_null(js, r->launch.v[OCC_PROFILE_NCU_DURATION].value,
                                   r->launch.v[OCC_PROFILE_NCU_DURATION].present);
        json_stream_key(js, "gap");
        json_stream_double(js, r->gap.gap);
        json_stream_key(js, "cause");
        json_stream_cstring(js, occ_gap_cause_name(r->gap.cause));
        json_stream_raw(js, "}", 1);
    }
    json_stream_raw(js, "]", 1);
    json_stream_key(js, "kernels");
    json_stream_raw(js, "[", 1);
}

static void gap_object(json_stream *js, const occ_profile_ncu_check *c, const occ_gap_result *g)
{
    bool modelled = g->wave_blocks > 0;
    json_stream_lit(js, "{\"cause\":");
    json_stream_cstring(js, occ_gap_cause_name(g->cause));
    json_stream_key(js, "theoretical_minus_achieved");
    json_stream_double_or_null(js, g->gap, c->has_achieved);
    json_stream_key(js, "grid_bound");
    json_stream_double_or_null(js, g->grid_bound, modelled);
    json_stream_key(js, "cluster_loss");
    json_stream_double_or_null(js, g->cluster_loss, modelled);
    json_stream_key(js, "small_grid_loss");
    json_stream_double_or_null(js, g->small_grid_loss, modelled);
    json_stream_key(js, "tail_loss");
    json_stream_double_or_null(js, g->tail_loss, modelled);
    json_stream_key(js, "in_kernel");
    json_stream_double_or_null(js, g->in_kernel, modelled && c->has_achieved);
    json_stream_key(js, "wave_blocks");
    json_stream_int_or_null(js, g->wave_blocks, modelled);
    json_stream_key(js, "full_waves");
    json_stream_int_or_null(js, g->full_waves, modelled);
    json_stream_key(js, "last_wave_blocks");
    json_stream_int_or_null(js, g->last_wave_blocks, modelled);
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
    json_stream_key(js, "id");
    json_stream_int(js, l->id);
    json_stream_key(js, "name");
    json_stream_cstring(js, l->name);
    json_stream_key(js, "gpu");
    json_stream_cstring(js, c->device.name);
    json_stream_key(js, "block");
    const int block[3] = {k->block_x, k->block_y, k->block_z};
    json_stream_ints(js, block, 3);
    json_stream_key(js, "block_size");
    json_stream_int(js, r->threads_per_block);
    json_stream_key(js, "grid_size");
    json_stream_int(js, (long long)(l->v[OCC_PROFILE_NCU_GRID_SIZE].value + 0.5));
    json_stream_key(js, "registers_per_thread");
    json_stream_int(js, k->regs_per_thread);
    json_stream_key(js, "static_smem_bytes");
    json_stream_int(js, k->static_smem_bytes);
    json_stream_key(js, "dyn_smem_bytes");
    json_stream_int(js, k->dyn_smem_bytes);
    json_stream_key(js, "exact_inputs");
    json_stream_bool(js, c->exact_inputs);
    json_stream_key(js, "barriers");
    json_stream_int(js, k->barriers);
    json_stream_key(js, "barriers_inferred");
    json_stream_bool(js, c->barriers_inferred);
    json_stream_key(js, "cluster");
    if (c->has_clusters) {
        const int cluster[3] = {k->cluster_x, k->cluster_y > 0 ? k->cluster_y : 1,
                                k->cluster_z > 0 ? k->cluster_z : 1};
        json_stream_ints(js, cluster, 3);
    } else {
        json_stream_null(js);
    }
    json_stream_key(js, "shared_mem_config_bytes");
    json_stream_int(js, c->smem_config_bytes);
    json_stream_key(js, "sm_count");
    json_stream_int_or_null(js, c->sm_count, c->sm_count > 0);
    json_stream_key(js, "duration_us");
    json_stream_double_or_null(js, l->v[OCC_PROFILE_NCU_DURATION].value,
                               l->v[OCC_PROFILE_NCU_DURATION].present);
    json_stream_key(js, "ncu_theoretical_occupancy");
    json_stream_double(js, c->ncu_theoretical);
    json_stream_key(js, "theoretical_occupancy");
    json_stream_double(js, c->theoretical);
    json_stream_key(js, "achieved_occupancy");
    json_stream_double_or_null(js, c->achieved, c->has_achieved);
    json_stream_key(js, "blocks_per_sm");
    json_stream_int(js, r->blocks_per_sm);
    json_stream_key(js, "warps_per_sm");
    json_stream_int(js, r->warps_per_sm);
    json_stream_key(js, "limiters");
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
    json_stream_key(js, "limits");
    limits(js, c->limits);
    json_stream_key(js, "ncu_limits");
    limits(js, c->ncu_limits);
    json_stream_key(js, "max_active_clusters");
    json_stream_int_or_null(js, c->max_active_clusters,
                            c->has_clusters && c->max_active_clusters >= 0);
    json_stream_key(js, "max_active_clusters_exact");
    if (c->has_clusters && c->max_active_clusters >= 0) {
        json_stream_bool(js, c->clusters_exact);
    } else {
        json_stream_null(js);
    }
    json_stream_key(js, "ncu_max_active_clusters");
    json_stream_int_or_null(js, c->ncu_max_active_clusters,
                            c->has_clusters && c->ncu_max_active_clusters >= 0);
    json_stream_key(js, "waves_per_sm");
    json_stream_double_or_null(js, c->waves, c->waves >= 0);
    json_stream_key(js, "ncu_waves_per_sm");
    json_stream_double_or_null(js, l->v[OCC_PROFILE_NCU_WAVES].value,
                               l->v[OCC_PROFILE_NCU_WAVES].present);
    json_stream_key(js, "gap");
    gap_object(js, c, g);
    json_stream_key(js, "explanation");
    char *text = ncu_explain(l, c, g, cache);
    if (text != NULL) {
        json_stream_cstring(js, text);
        free(text);
    } else {
        json_stream_null(js);
    }
    json_stream_key(js, "mismatches");
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
