/*
 * cluster_explain.c - a cluster launch's answer in words: active clusters,
 * the GPCs that leave SMs idle at this cluster size and how many, and the
 * nearby sizes that keep more SMs busy. Every number comes from
 * occ_cluster_calc (for other sizes, occ_cluster_calc of the resized kernel).
 */
#include "occ_internal.h"

static void plural(occ_msg *m, long long n, const char *one, const char *many)
{
    occ__msg_count(m, n);
    occ__msg_str(m, " ");
    occ__msg_str(m, n == 1 ? one : many);
}

/* GPCs with the same SMs, clusters and busy SMs, described once. */
static void describe_gpcs(occ_msg *m, const occ_cluster_result *r)
{
    bool done[OCC_MAX_GPCS] = {false};
    bool first = true;
    for (int g = 0; g < r->gpc_count; g++) {
        if (done[g]) {
            continue;
        }
        int same = 0;
        for (int h = g; h < r->gpc_count; h++) {
            if (!done[h] && r->gpc_sms[h] == r->gpc_sms[g] &&
                r->gpc_clusters[h] == r->gpc_clusters[g] &&
                r->gpc_active_sms[h] == r->gpc_active_sms[g]) {
                done[h] = true;
                same++;
            }
        }
        int idle = r->gpc_sms[g] - r->gpc_active_sms[g];
        occ__msg_str(m, first ? "" : "; ");
        first = false;
        plural(m, same, "GPC", "GPCs");
        occ__msg_str(m, " of ");
        plural(m, r->gpc_sms[g], "SM", "SMs");
        if (r->gpc_clusters[g] == 0 && r->gpc_sms[g] < r->cluster_size) {
            occ__msg_str(m, ": too small for a cluster of ");
            occ__msg_int(m, r->cluster_size);
            occ__msg_str(m, same == 1 ? ", idle" : ", all idle");
            continue;
        }
        occ__msg_str(m, ": ");
        plural(m, r->gpc_clusters[g], "cluster", "clusters");
        occ__msg_str(m, same == 1 ? ", " : " each, ");
        if (idle == 0) {
            occ__msg_str(m, "no SM idle");
        } else {
            plural(m, idle, "SM idle", "SMs idle");
            occ__msg_str(m, same == 1 ? "" : " each");
        }
    }
}

/* Up to three sizes nearest the kernel's (the larger first on a tie) that
   keep more SMs busy, with their counts. */
static void nearby_sizes(occ_msg *m, const occ_device *d, const occ_kernel *k,
                         const occ_cluster_result *r)
{
    int limit = k->cluster_non_portable ? OCC_CLUSTER_NON_PORTABLE_MAX : OCC_CLUSTER_PORTABLE_MAX;
    if (k->max_blocks_per_cluster > 0 && k->max_blocks_per_cluster < limit) {
        limit = k->max_blocks_per_cluster;
    }
    int shown = 0;
    for (int step = 1; step < limit && shown < 3; step++) {
        const int sizes[2] = {r->cluster_size + step, r->cluster_size - step};
        for (int i = 0; i < 2 && shown < 3; i++) {
            if (sizes[i] < 1 || sizes[i] > limit) {
                continue;
            }
            occ_kernel other = *k;
            other.cluster_x = sizes[i];
            other.cluster_y = 1;
            other.cluster_z = 1;
            occ_cluster_result o;
            if (occ_cluster_calc(d, &other, &o, NULL) != OCC_OK || o.active_sms <= r->active_sms) {
                continue;
            }
            occ__msg_str(m, shown == 0 ? " Sizes near " : ", ");
            if (shown == 0) {
                occ__msg_int(m, r->cluster_size);
                occ__msg_str(m, " that keep more SMs busy: ");
            }
            occ__msg_int(m, sizes[i]);
            occ__msg_str(m, " (");
            plural(m, o.max_active_clusters, "cluster", "clusters");
            occ__msg_str(m, ", ");
            plural(m, o.active_sms, "SM", "SMs");
            occ__msg_str(m, ")");
            shown++;
        }
    }
    occ__msg_str(m, shown > 0 ? "." : " No other cluster size keeps more SMs busy.");
}

size_t occ_cluster_explain(const occ_device *d, const occ_kernel *k, char *buf, size_t cap,
                           occ_error *err)
{
    if (buf == NULL || cap == 0) {
        occ__fail(err, OCC_ERR_NULL_POINTER, "buf", "buf is NULL or has no room");
        return 0;
    }
    buf[0] = '\0';
    occ_cluster_result r;
    if (occ_cluster_calc(d, k, &r, err) != OCC_OK) {
        return 0;
    }
    occ_result plain;
    occ_calc(d, k, &plain, NULL);
    char label[OCC_DEVICE_NAME_BYTES + 16];
    occ__device_label(d, label, sizeof label);

    occ_msg m;
    occ__msg_begin(&m, buf, cap);
    occ__msg_int(&m, r.cluster_size);
    occ__msg_str(&m, "-block clusters");
    if (r.cluster_y != 1 || r.cluster_z != 1) {
        occ__msg_str(&m, " (");
        occ__msg_int(&m, r.cluster_x);
        occ__msg_str(&m, "x");
        occ__msg_int(&m, r.cluster_y);
        occ__msg_str(&m, "x");
        occ__msg_int(&m, r.cluster_z);
        occ__msg_str(&m, ")");
    }
    occ__msg_str(&m, " on ");
    occ__msg_str(&m, label);
    occ__msg_str(&m, r.exact ? ": " : ": at most ");
    plural(&m, r.max_active_clusters, "active cluster", "active clusters");
    occ__msg_str(&m, ", ");
    plural(&m, r.active_blocks, "block", "blocks");
    occ__msg_str(&m, " on ");
    occ__msg_count(&m, r.active_sms);
    occ__msg_str(&m, " of ");
    occ__msg_count(&m, r.sm_count);
    occ__msg_str(&m, " SMs (");
    plural(&m, r.blocks_per_sm, "block", "blocks");
    occ__msg_str(&m, " per SM");
    if (plain.blocks_per_sm > r.blocks_per_sm) {
        occ__msg_str(&m, ": a cluster launch counts at most 8 of the ");
        occ__msg_int(&m, plain.blocks_per_sm);
        occ__msg_str(&m, " that fit");
    }
    occ__msg_str(&m, ").");
    if (r.launch_refused) {
        occ__msg_str(&m, " The driver's occupancy API answers for this size, but a launch of "
                         "clusters above 16 blocks fails (cudaErrorInvalidClusterSize).");
    }
    if (r.max_active_clusters == 0) {
        occ__msg_str(&m, plain.blocks_per_sm == 0 ? " No block of the kernel fits on an SM."
                                                  : " No GPC holds a cluster of this size.");
    }
    if (!r.exact) {
        occ__msg_str(&m, " The GPC layout of this GPU is unknown: the counts treat all ");
        occ__msg_count(&m, r.sm_count);
        occ__msg_str(&m, " SMs as one GPC and are upper bounds (the driver's answer can be "
                         "lower; a --gpu-file can give the layout).");
    } else {
        occ__msg_str(&m, " By GPC: ");
        describe_gpcs(&m, &r);
        occ__msg_str(&m, ". ");
        plural(&m, r.sm_count - r.active_sms, "SM", "SMs");
        occ__msg_str(&m, " idle in all. GPC layout ");
        occ__msg_str(&m, occ_gpc_source_name(r.gpc_source));
        if (d->gpc_citation != NULL) {
            occ__msg_str(&m, " (");
            occ__msg_str(&m, d->gpc_citation);
            occ__msg_str(&m, ")");
        }
        occ__msg_str(&m, ".");
    }
    nearby_sizes(&m, d, k, &r);
    if (m.truncated) {
        occ__fail(err, OCC_ERR_TEXT_TRUNCATED, "buf", "the cluster explanation did not fit");
        return 0;
    }
    return m.len;
}
