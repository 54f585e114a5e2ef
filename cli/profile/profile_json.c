/*
 * profile_json.c - `occ profile --json`: schema occ.profile, version 1
 * (docs/json.md). One document: the inputs, the GPUs, the program's figures,
 * the checks against the trace, the ranking, then one group per line.
 */
#include <string.h>

#include "json_stream.h"
#include "profile_output.h"

#define PROFILE_SCHEMA_VERSION 1

static void limiters(json_stream *s, unsigned bits)
{
    static const occ_limiter order[] = {OCC_LIMITER_WARPS, OCC_LIMITER_BLOCKS,
                                        OCC_LIMITER_REGISTERS, OCC_LIMITER_SHARED_MEM,
                                        OCC_LIMITER_BARRIERS};
    json_stream_raw(s, "[", 1);
    bool first = true;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        if (bits & order[i]) {
            if (!first) {
                json_stream_raw(s, ",", 1);
            }
            json_stream_cstring(s, occ_limiter_name(order[i]));
            first = false;
        }
    }
    json_stream_raw(s, "]", 1);
}

static void group(json_stream *s, const occ_profile_result *r, size_t i)
{
    const occ_profile_group *g = occ_profile_group_at(r, i);
    const occ_profile_device *d = occ_profile_device_at(r, (size_t)g->device);
    json_stream_lit(s, "{\"index\":");
    json_stream_int(s, (long long)i);
    json_stream_key(s, "gpu");
    json_stream_int(s, g->device);
    json_stream_key(s, "name");
    json_stream_cstring(s, g->name);
    json_stream_key(s, "mangled");
    if (g->mangled) {
        json_stream_cstring(s, g->mangled);
    } else {
        json_stream_null(s);
    }
    json_stream_key(s, "block");
    json_stream_ints(s, g->block, 3);
    json_stream_key(s, "grid");
    json_stream_ints(s, g->grid, 3);
    json_stream_key(s, "cluster");
    if (g->cluster[0]) {
        json_stream_ints(s, g->cluster, 3);
    } else {
        json_stream_null(s);
    }
    json_stream_key(s, "cluster_recorded");
    json_stream_bool(s, g->cluster_known);
    json_stream_key(s, "registers_per_thread");
    json_stream_int(s, g->regs_per_thread);
    json_stream_key(s, "static_smem_bytes");
    json_stream_int_or_null(s, g->static_smem_bytes, g->static_smem_bytes >= 0);
    json_stream_key(s, "dyn_smem_bytes");
    json_stream_int_or_null(s, g->dyn_smem_bytes, g->dyn_smem_bytes >= 0);
    json_stream_key(s, "smem_bytes");
    json_stream_int(s, g->smem_bytes);
    json_stream_key(s, "local_bytes_per_thread");
    json_stream_int_or_null(s, g->local_bytes_per_thread, g->local_bytes_per_thread >= 0);
    json_stream_key(s, "cache_preference");
    json_stream_int_or_null(s, g->cache_preference, g->cache_preference >= 0);
    json_stream_key(s, "carveout_percent");
    json_stream_int_or_null(s, g->carveout_percent, g->carveout_percent >= 0);
    json_stream_key(s, "launches");
    json_stream_int(s, g->launches);
    json_stream_key(s, "gpu_time_us");
    json_stream_double(s, g->gpu_time_us);
    json_stream_key(s, "max_time_us");
    json_stream_double(s, g->max_time_us);
    const occ_profile_summary *sum = occ_profile_summary_of(r);
    json_stream_key(s, "gpu_time_share");
    json_stream_double(s, sum->gpu_time_us > 0 ? g->gpu_time_us / sum->gpu_time_us : 0.0);
    json_stream_key(s, "computed");
    json_stream_bool(s, g->computed);
    json_stream_key(s, "note");
    if (g->note) {
        json_stream_cstring(s, g->note);
    } else {
        json_stream_null(s);
    }
    json_stream_key(s, "theoretical_occupancy");
    json_stream_double_or_null(s, g->occupancy, g->computed);
    json_stream_key(s, "limiters");
    limiters(s, g->computed ? g->limiters : 0);
    json_stream_key(s, "blocks_per_sm");
    json_stream_int_or_null(s, g->result.blocks_per_sm, g->computed);
    json_stream_key(s, "warps_per_sm");
    json_stream_int_or_null(s, g->result.warps_per_sm, g->computed);
    json_stream_key(s, "smem_config_bytes");
    json_stream_int_or_null(s, g->smem_config_bytes, g->computed);
    json_stream_key(s, "smem_config_rule");
    if (g->computed) {
        json_stream_cstring(s, occ_smem_config_rule_name(g->smem_config_rule));
    } else {
        json_stream_null(s);
    }
    json_stream_key(s, "trace_smem_config_bytes");
    json_stream_int_or_null(s, g->trace_smem_config_bytes, g->trace_smem_config_bytes >= 0);
    json_stream_key(s, "trace_smem_config_differs");
    json_stream_int(s, g->trace_smem_config_differs);
    json_stream_key(s, "waves");
    json_stream_double_or_null(s, g->waves, g->computed && g->waves >= 0);
    json_stream_key(s, "tail_idle_fraction");
    json_stream_double_or_null(s, g->tail_idle_fraction, g->computed && g->waves >= 0);
    json_stream_key(s, "grid_occupancy");
    json_stream_double_or_null(s, g->grid_occupancy, g->computed && g->waves >= 0);
    json_stream_key(s, "max_active_clusters");
    json_stream_int_or_null(s, g->max_active_clusters, g->max_active_clusters >= 0);
    json_stream_key(s, "max_active_clusters_exact");
    if (g->max_active_clusters >= 0) {
        json_stream_bool(s, g->clusters_exact);
    } else {
        json_stream_null(s);
    }
    bool kineto = g->kineto_est_occupancy > -1.5;
    json_stream_key(s, "kineto_est_occupancy");
    json_stream_double_or_null(s, g->kineto_est_occupancy, kineto);
    json_stream_key(s, "kineto_model_occupancy");
    json_stream_double_or_null(s, g->kineto_model_occupancy, kineto && g->computed);
    json_stream_key(s, "kineto_cause");
    if (kineto && g->computed) {
        json_stream_cstring(s, occ_profile_kineto_cause_name(g->kineto_cause));
    } else {
        json_stream_null(s);
    }
    (void)d;
    json_stream_lit(s, "}");
}

void profile_print_json(FILE *out, const profile_view *v)
{
    const occ_profile_result *r = v->result;
    const occ_profile_summary *sum = occ_profile_summary_of(r);
    json_stream js;
    json_stream *s = &js;
    json_stream_init(s, out);
    json_stream_lit(s, "{\"schema\":\"occ.profile\",\"version\":");
    json_stream_int(s, PROFILE_SCHEMA_VERSION);
    json_stream_key(s, "occ_version");
    json_stream_cstring(s, occ_version());
    json_stream_key(s, "inputs");
    json_stream_raw(s, "[", 1);
    for (int i = 0; i < v->path_count; i++) {
        json_stream_lit(s, i ? ",{\"path\":" : "{\"path\":");
        json_stream_cstring(s, v->paths[i]);
        json_stream_key(s, "format");
        json_stream_cstring(s, occ_profile_format_name(occ_profile_input_format(r, i)));
        json_stream_raw(s, "}", 1);
    }
    json_stream_raw(s, "]", 1);
    json_stream_key(s, "launches_read");
    json_stream_int(s, sum->launches_read);
    json_stream_key(s, "launches_computed");
    json_stream_int(s, sum->launches_computed);
    json_stream_key(s, "gpu_time_us");
    json_stream_double(s, sum->gpu_time_us);
    json_stream_key(s, "weighted_occupancy");
    json_stream_double_or_null(s, sum->weighted_occupancy, sum->launches_computed > 0);
    json_stream_key(s, "gpu");
    json_stream_raw(s, "[", 1);
    for (size_t i = 0; i < occ_profile_device_count(r); i++) {
        const occ_profile_device *d = occ_profile_device_at(r, i);
        json_stream_lit(s, i ? ",\n {\"index\":" : "\n {\"index\":");
        json_stream_int(s, (long long)i);
        json_stream_key(s, "input");
        json_stream_int(s, d->input);
        json_stream_key(s, "trace_device");
        json_stream_int(s, d->trace_id);
        json_stream_key(s, "trace_name");
        if (d->trace_name[0]) {
            json_stream_cstring(s, d->trace_name);
        } else {
            json_stream_null(s);
        }
        json_stream_key(s, "trace_sm_count");
        json_stream_int_or_null(s, d->trace_sm_count, d->trace_sm_count > 0);
        json_stream_key(s, "trace_compute_capability");
        if (d->trace_cc_major >= 0) {
            char cc[16];
            snprintf(cc, sizeof cc, "%d.%d", d->trace_cc_major, d->trace_cc_minor);
            json_stream_cstring(s, cc);
        } else {
            json_stream_null(s);
        }
        json_stream_key(s, "occ_gpu");
        if (d->gpu_known) {
            json_stream_cstring(s, d->gpu.name);
        } else {
            json_stream_null(s);
        }
        json_stream_key(s, "sm_count");
        json_stream_int_or_null(s, d->gpu.sm_count, d->gpu_known && d->gpu.sm_count > 0);
        json_stream_key(s, "launches");
        json_stream_int(s, d->launches);
        json_stream_key(s, "gpu_time_us");
        json_stream_double(s, d->gpu_time_us);
        json_stream_raw(s, "}", 1);
    }
    json_stream_raw(s, "]", 1);
    json_stream_key(s, "histogram");
    json_stream_raw(s, "[", 1);
    for (int i = 0; i < OCC_PROFILE_HISTOGRAM_BINS; i++) {
        json_stream_lit(s, i ? ",{\"from_percent\":" : "{\"from_percent\":");
        json_stream_int(s, i * 10);
        json_stream_key(s, "to_percent");
        json_stream_int(s, (i + 1) * 10);
        json_stream_key(s, "gpu_time_us");
        json_stream_double(s, sum->histogram_us[i]);
        json_stream_raw(s, "}", 1);
    }
    json_stream_raw(s, "]", 1);
    json_stream_key(s, "checks");
    json_stream_lit(s, "{\"smem_config\":{\"launches\":");
    json_stream_int(s, sum->smem_config_checked);
    json_stream_key(s, "differ");
    json_stream_int(s, sum->smem_config_differs);
    json_stream_lit(s, "},\"kineto\":{\"launches\":");
    json_stream_int(s, sum->kineto_checked);
    json_stream_key(s, "by_cause");
    json_stream_raw(s, "{", 1);
    for (int c = 0; c < 8; c++) {
        json_stream_lit(s, c ? ",\"" : "\"");
        json_stream_lit(s, occ_profile_kineto_cause_name((occ_profile_kineto_cause)c));
        json_stream_lit(s, "\":");
        json_stream_int(s, sum->kineto_by_cause[c]);
    }
    json_stream_lit(s, "}}}");
    json_stream_key(s, "ranked");
    json_stream_raw(s, "[", 1);
    for (size_t k = 0; k < v->ranked_count; k++) {
        if (k) {
            json_stream_raw(s, ",", 1);
        }
        json_stream_int(s, (long long)v->ranked[k]);
    }
    json_stream_raw(s, "]", 1);
    json_stream_key(s, "groups");
    json_stream_raw(s, "[", 1);
    for (size_t i = 0; i < occ_profile_group_count(r); i++) {
        json_stream_lit(s, i ? ",\n" : "\n");
        group(s, r, i);
    }
    json_stream_lit(s, "]}\n");
    json_stream_flush(s);
}
