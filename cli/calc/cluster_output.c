/*
 * cluster_output.c - cluster launches in the kernel-launch commands
 * (cluster_output.h). Every number comes from libocc's occ_cluster_calc,
 * occ_cluster_sweep and occ_cluster_explain.
 */
#include <string.h>

#include "calc_output.h"
#include "cluster_output.h"
#include "output.h"
#include "sweep_json.h"

static bool has_cluster(const occ_kernel *k)
{
    return k->cluster_x != 0 || k->cluster_y != 1 || k->cluster_z != 1;
}

void cluster_print_text(FILE *out, const occ_device *d, const occ_kernel *k)
{
    if (!has_cluster(k)) {
        return;
    }
    char text[OCC_CLUSTER_TEXT_BYTES];
    occ_error err;
    fprintf(out, "\nClusters\n");
    if (occ_cluster_explain(d, k, text, sizeof text, &err) == 0) {
        cli_print_wrappedf(out, 0, "(no cluster answer: %s)", err.message);
        return;
    }
    cli_print_wrapped(out, text, 0);
}

bool cluster_sweep_print(FILE *out, const occ_device *d, const occ_kernel *k, bool regs_given,
                         bool csv, bool json, cli_error *err)
{
    occ_cluster_sweep_point p[OCC_CLUSTER_NON_PORTABLE_MAX];
    int n = 0;
    occ_error oerr;
    if (occ_cluster_sweep(d, k, p, OCC_CLUSTER_NON_PORTABLE_MAX, &n, &oerr) != OCC_OK) {
        return cli_error_set(err, EXIT_USAGE, "axis cluster: %s", oerr.message);
    }
    if (csv) {
        fprintf(out, "value,max_active_clusters,blocks_per_sm,warps_per_sm,occupancy\n");
        for (int i = 0; i < n; i++) {
            fprintf(out, "%d,%d,%d,%.6g,%.6g\n", p[i].cluster_size, p[i].max_active_clusters,
                    p[i].blocks_per_sm, p[i].warps_per_sm, p[i].occupancy);
        }
        return true;
    }
    if (json) {
        json_t *doc = sweep_json_cluster(d, k, p, n);
        calc_json_set_regs_given(doc, regs_given);
        cli_print_json(out, doc);
        return true;
    }
    int current = has_cluster(k) ? k->cluster_x * k->cluster_y * k->cluster_z : 0;
    occ_kernel one = *k;
    one.cluster_x = 1;
    one.cluster_y = one.cluster_z = 1;
    occ_cluster_result c;
    occ_cluster_calc(d, &one, &c, NULL);
    fprintf(out,
            "%s: active clusters vs cluster size (%d %s per SM in a cluster launch; GPC "
            "layout %s%s)\n\n",
            d->name, p[0].blocks_per_sm, p[0].blocks_per_sm == 1 ? "block" : "blocks",
            occ_gpc_source_name(c.gpc_source), c.exact ? "" : ": the counts are upper bounds");
    fprintf(out, "%5s %9s %8s %9s %9s %10s\n", "size", "clusters", "blocks", "busy SMs", "warps/SM",
            "occupancy");
    for (int i = 0; i < n; i++) {
        fprintf(out, "%5d %9d %8d %9d %9.2f %9.1f%%%s\n", p[i].cluster_size,
                p[i].max_active_clusters, p[i].max_active_clusters * p[i].cluster_size,
                p[i].active_sms, p[i].warps_per_sm, p[i].occupancy * 100.0,
                p[i].cluster_size == current ? "  <- current" : "");
    }
    fprintf(out, "\n");
    cli_print_wrapped(out,
                      "warps/SM: the warps of every active cluster's blocks spread over all "
                      "SMs, the most a grid of this kernel keeps resident at once.",
                      0);
    return true;
}

void cluster_print_persistent(FILE *out, const occ_device *d, const occ_kernel *k, json_t *doc)
{
    if (!has_cluster(k)) {
        return;
    }
    occ_cluster_result r;
    occ_error err;
    if (occ_cluster_calc(d, k, &r, &err) != OCC_OK) {
        if (doc != NULL) {
            json_object_set_new(doc, "cluster", json_null());
        } else {
            cli_print_wrappedf(out, 0, "\nClusters: %s", err.message);
        }
        return;
    }
    int size = r.cluster_size;
    int by_sms = d->sm_count / size;
    /* With equal work per cluster, a grid of G clusters on A active takes
       ceil(G / A) rounds of 1/G of the work: ceil(G / A) x A / G times the
       persistent grid's time (measured on an H200 for sizes 1 to 16:
       docs/results/h200/cluster-persistent.csv). */
    long long rounds = by_sms > 0 && r.max_active_clusters > 0
                           ? (by_sms + r.max_active_clusters - 1) / r.max_active_clusters
                           : 0;
    double ratio = by_sms > 0 ? (double)rounds * r.max_active_clusters / by_sms : 0.0;
    if (doc != NULL) {
        json_object_set_new(
            doc, "cluster",
            json_pack("{s:[i,i,i], s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:I, s:f, s:b, s:s}", "dims",
                      r.cluster_x, r.cluster_y, r.cluster_z, "size", size, "blocks_per_sm",
                      r.blocks_per_sm, "max_active_clusters", r.max_active_clusters,
                      "persistent_grid_blocks", r.active_blocks, "active_sms", r.active_sms,
                      "sm_grid_clusters", by_sms, "sm_grid_blocks", by_sms * size, "sm_grid_rounds",
                      (json_int_t)rounds, "sm_grid_time_ratio", ratio, "exact", r.exact,
                      "gpc_layout_source", occ_gpc_source_name(r.gpc_source)));
        return;
    }
    fprintf(out, "\n");
    if (r.max_active_clusters == 0) {
        cli_print_wrappedf(out, 0,
                           "Clusters of %d %s: none can be active on %s (no GPC holds one "
                           "at %d %s per SM).",
                           size, cli_plural(size, "block", "blocks"), d->name, r.blocks_per_sm,
                           cli_plural(r.blocks_per_sm, "block", "blocks"));
        return;
    }
    cli_print_wrappedf(
        out, 0,
        "Clusters of %d %s: %s%d active at once (%d %s per SM in a cluster "
        "launch), %d of %d SMs busy. Persistent grid: %d %s = %d %s.",
        size, cli_plural(size, "block", "blocks"), r.exact ? "" : "at most ", r.max_active_clusters,
        r.blocks_per_sm, cli_plural(r.blocks_per_sm, "block", "blocks"), r.active_sms, r.sm_count,
        r.max_active_clusters, cli_plural(r.max_active_clusters, "cluster", "clusters"),
        r.active_blocks, cli_plural(r.active_blocks, "block", "blocks"));
    if (by_sms > 0 && by_sms != r.max_active_clusters) {
        cli_print_wrappedf(out, 0,
                           "A grid sized by SMs, %d / %d = %d clusters (%d blocks), %s; with "
                           "equal work per cluster it takes %.2fx the persistent grid's time.",
                           d->sm_count, size, by_sms, by_sms * size,
                           by_sms > r.max_active_clusters ? "runs in rounds: not every cluster "
                                                            "fits at once"
                                                          : "leaves active cluster slots empty",
                           ratio);
    }
    if (!r.exact) {
        cli_print_wrapped(out,
                          "The GPC layout of this GPU is unknown: these are upper bounds; "
                          "cudaOccupancyMaxActiveClusters on the GPU gives the real count.",
                          0);
    }
}
