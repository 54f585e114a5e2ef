/*
 * cluster_json.c - result.cluster and gpu.gpc_layout (cluster_json.h), from
 * libocc's occ_cluster_calc.
 */
#include "cluster_json.h"

static bool has_cluster(const occ_kernel *k)
{
    return k->cluster_x != 0 || k->cluster_y != 1 || k->cluster_z != 1;
}

static const char *policy_name(occ_cluster_policy policy)
{
    switch (policy) {
    case OCC_CLUSTER_POLICY_SPREAD: return "spread";
    case OCC_CLUSTER_POLICY_LOAD_BALANCING: return "load-balancing";
    case OCC_CLUSTER_POLICY_DEFAULT: break;
    }
    return "default";
}

json_t *gpc_layout_to_json(const occ_device *d)
{
    json_t *sms = json_null();
    if (d->gpc_count > 0) {
        sms = json_array();
        for (int g = 0; g < d->gpc_count; g++) {
            json_array_append_new(sms, json_integer(d->gpc_sms[g]));
        }
    }
    return json_pack(
        "{s:s, s:o, s:o}", "source",
        occ_gpc_source_name(d->gpc_count > 0 ? d->gpc_source : OCC_GPC_UNKNOWN), "citation",
        d->gpc_citation != NULL ? json_string(d->gpc_citation) : json_null(), "gpc_sms", sms);
}

json_t *cluster_to_json(const occ_device *d, const occ_kernel *k)
{
    occ_cluster_result r;
    if (!has_cluster(k) || occ_cluster_calc(d, k, &r, NULL) != OCC_OK) {
        return json_null();
    }
    json_t *gpcs = json_array();
    for (int g = 0; g < r.gpc_count; g++) {
        json_array_append_new(gpcs,
                              json_pack("{s:i, s:i, s:i}", "sms", r.gpc_sms[g], "clusters",
                                        r.gpc_clusters[g], "active_sms", r.gpc_active_sms[g]));
    }
    return json_pack("{s:[i,i,i], s:i, s:b, s:s, s:i, s:i, s:i, s:i, s:i, s:s, s:b, s:b, s:o}",
                     "dims", r.cluster_x, r.cluster_y, r.cluster_z, "size", r.cluster_size,
                     "non_portable", k->cluster_non_portable, "policy",
                     policy_name(k->cluster_policy), "blocks_per_sm", r.blocks_per_sm,
                     "max_active_clusters", r.max_active_clusters, "max_potential_cluster_size",
                     r.max_potential_cluster_size, "active_blocks", r.active_blocks, "active_sms",
                     r.active_sms, "gpc_layout_source", occ_gpc_source_name(r.gpc_source), "exact",
                     r.exact, "launch_refused", r.launch_refused, "gpcs", gpcs);
}
