/*
 * profile_csv.c - `occ profile --csv`: one row per launch configuration,
 * the columns of the JSON groups (docs/profile.md), empty where unknown.
 */
#include "csv.h"
#include "profile_output.h"

void profile_print_csv(FILE *out, const profile_view *v)
{
    const occ_profile_result *r = v->result;
    fputs("gpu,name,block_x,block_y,block_z,grid_x,grid_y,grid_z,cluster_x,cluster_y,cluster_z,"
          "registers_per_thread,static_smem_bytes,dyn_smem_bytes,smem_bytes,launches,gpu_time_us,"
          "theoretical_occupancy,limiters,blocks_per_sm,warps_per_sm,smem_config_bytes,"
          "trace_smem_config_bytes,waves,grid_occupancy,max_active_clusters,"
          "kineto_est_occupancy,kineto_cause\n",
          out);
    for (size_t i = 0; i < occ_profile_group_count(r); i++) {
        const occ_profile_group *g = occ_profile_group_at(r, i);
        char lim[64];
        fprintf(out, "%d,", g->device);
        csv_put_field_rfc4180(out, g->name);
        fprintf(out, ",%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,", g->block[0], g->block[1], g->block[2],
                g->grid[0], g->grid[1], g->grid[2], g->cluster[0], g->cluster[1], g->cluster[2],
                g->regs_per_thread);
        if (g->static_smem_bytes >= 0) {
            fprintf(out, "%d,%d,", g->static_smem_bytes, g->dyn_smem_bytes);
        } else {
            fputs(",,", out);
        }
        fprintf(out, "%d,%lld,%.3f,", g->smem_bytes, g->launches, g->gpu_time_us);
        if (g->computed) {
            fprintf(out, "%.6g,%s,%d,%d,%d,", g->occupancy,
                    profile_limiters(g->limiters, lim, sizeof lim), g->result.blocks_per_sm,
                    g->result.warps_per_sm, g->smem_config_bytes);
        } else {
            fputs(",,,,,", out);
        }
        if (g->trace_smem_config_bytes >= 0) {
            fprintf(out, "%d", g->trace_smem_config_bytes);
        }
        fputc(',', out);
        if (g->computed && g->waves >= 0) {
            fprintf(out, "%.6g,%.6g", g->waves, g->grid_occupancy);
        } else {
            fputc(',', out);
        }
        fputc(',', out);
        if (g->max_active_clusters >= 0) {
            fprintf(out, "%d", g->max_active_clusters);
        }
        fputc(',', out);
        if (g->kineto_est_occupancy > -1.5) {
            fprintf(out, "%.4g,%s", g->kineto_est_occupancy,
                    g->computed ? occ_profile_kineto_cause_name(g->kineto_cause) : "");
        } else {
            fputc(',', out);
        }
        fputc('\n', out);
    }
    (void)v;
}
