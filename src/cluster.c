/*
 * cluster.c - thread-block clusters: how many clusters of a kernel can be
 * active at once on a GPU's GPC layout (cudaOccupancyMaxActiveClusters), the
 * largest cluster that fits (cudaOccupancyMaxPotentialClusterSize), the
 * curve over cluster sizes and the answer in words.
 *
 * The rule was derived from the driver's answers on an H200 and its GPC
 * layout, measured on the same GPU by launching clusters and recording where
 * their blocks ran (tests/gpu/cluster_probe.cu, tests/data/h200-clusters,
 * docs/occupancy-rules.md "Clusters"):
 *  - a cluster's blocks run in one GPC, on distinct SMs unless the launch
 *    asks for load balancing, so a GPC with fewer SMs than the cluster has
 *    blocks holds none of it (the H200's four lone TPCs take clusters of at
 *    most 2 blocks);
 *  - the occupancy API answers for clusters of up to 64 blocks with the
 *    non-portable attribute (the launch itself refuses more than 16: H200
 *    probe, run 3), so occ answers too and flags the launch;
 *  - a GPC of n SMs holds floor(n x b / size) clusters, b the resident blocks
 *    per SM of occ_calc capped at 8 [H200 probe: 1,056 one-block clusters on
 *    132 SMs for kernels of 8 to 32 blocks per SM, and the hardware never ran
 *    more, docs/results/h200/clusters.md].
 */
#include "occ_internal.h"

/* [H200 probe] the most resident blocks per SM cudaOccupancyMaxActiveClusters
   counts, whatever occ_calc allows (measured on CC 9.0; occ assumes it for
   every cluster-capable GPU until measured there). */
#define CLUSTER_BLOCKS_PER_SM_MAX 8

/* [PG "Thread Block Clusters"] clusters need compute capability 9.0. */
#define CLUSTER_MIN_CC_MAJOR 9

static bool has_cluster(const occ_kernel *k)
{
    /* cluster_x 0 with y and z at their default 1 is an ordinary launch */
    return k->cluster_x != 0 || k->cluster_y != 1 || k->cluster_z != 1;
}

static int size_limit(const occ_kernel *k)
{
    return k->cluster_non_portable ? OCC_CLUSTER_NON_PORTABLE_MAX : OCC_CLUSTER_PORTABLE_MAX;
}

/* "WHAT VALUE MIDDLE LIMIT on GPU (sm_90)TAIL": one line naming the value
   and the limit. A negative limit is left out. */
static occ_status fail_cluster(occ_error *err, const occ_device *d, const char *field,
                               const char *what, long long value, const char *middle,
                               long long limit, const char *tail)
{
    if (err != NULL) {
        char label[OCC_DEVICE_NAME_BYTES + 16];
        occ__device_label(d, label, sizeof label);
        occ_msg m;
        err->field = field;
        err->status = OCC_ERR_INVALID_ARGUMENT;
        occ__msg_begin(&m, err->message, sizeof err->message);
        occ__msg_str(&m, what);
        occ__msg_int(&m, value);
        occ__msg_str(&m, middle);
        if (limit >= 0) {
            occ__msg_int(&m, limit);
        }
        occ__msg_str(&m, " on ");
        occ__msg_str(&m, label);
        occ__msg_str(&m, tail);
    }
    return OCC_ERR_INVALID_ARGUMENT;
}

/* What every cluster question needs: a cluster-capable device with an SM
   count and a kernel that passes occ_calc's checks. */
static occ_status check_device(const occ_device *d, const occ_kernel *k, occ_error *err)
{
    if (d == NULL || k == NULL) {
        return occ__fail(err, OCC_ERR_NULL_POINTER, "kernel", "device or kernel is NULL");
    }
    occ_status st = occ_device_validate(d, err);
    if (st != OCC_OK) {
        return st;
    }
    if (d->cc_major < CLUSTER_MIN_CC_MAJOR) {
        return fail_cluster(err, d, "cluster",
                            "thread-block clusters need compute capability 9.0 "
                            "or later, not ",
                            d->cc_major, ".", d->cc_minor, "");
    }
    if (d->sm_count <= 0) {
        return occ__fail(err, OCC_ERR_INVALID_DEVICE, "sm_count",
                         "cluster counts need the GPU's SM count (sm_count), which a generic "
                         "entry (sm_90) lacks: name a product (H200) or describe the GPU");
    }
    return occ_kernel_validate(d, k, err);
}

/* The cluster shape's checks, as the driver refuses a launch
   (cudaErrorInvalidClusterSize). */
static occ_status check_shape(const occ_device *d, const occ_kernel *k, int *size, occ_error *err)
{
    const int dims[3] = {k->cluster_x, k->cluster_y, k->cluster_z};
    static const char *const names[3] = {"cluster_x", "cluster_y", "cluster_z"};
    long long blocks = 1;
    for (int i = 0; i < 3; i++) {
        if (dims[i] < 1 || dims[i] > OCC_CLUSTER_OCCUPANCY_MAX) {
            return fail_cluster(err, d, names[i], "cluster dimension ", dims[i], ": must be 1 to ",
                                OCC_CLUSTER_OCCUPANCY_MAX, "");
        }
        blocks *= dims[i];
    }
    if (blocks > OCC_CLUSTER_OCCUPANCY_MAX) {
        return fail_cluster(err, d, "cluster", "", blocks,
                            " blocks per cluster: beyond the most occ checked against the "
                            "driver, ",
                            OCC_CLUSTER_OCCUPANCY_MAX, " (no launch above 16 blocks runs)");
    }
    if (blocks > OCC_CLUSTER_PORTABLE_MAX && !k->cluster_non_portable) {
        return fail_cluster(err, d, "cluster", "", blocks,
                            " blocks per cluster exceed the portable maximum, ",
                            OCC_CLUSTER_PORTABLE_MAX,
                            ", without cudaFuncAttributeNonPortableClusterSizeAllowed "
                            "(cluster_non_portable)");
    }
    if (k->max_blocks_per_cluster < 0) {
        return fail_cluster(err, d, "max_blocks_per_cluster", "max_blocks_per_cluster ",
                            k->max_blocks_per_cluster, ": must be 0 (none) or a block count", -1,
                            "");
    }
    if (k->max_blocks_per_cluster > 0 && blocks > k->max_blocks_per_cluster) {
        return fail_cluster(err, d, "cluster", "", blocks,
                            " blocks per cluster exceed the kernel's __launch_bounds__ cluster "
                            "maximum, ",
                            k->max_blocks_per_cluster, "");
    }
    if (k->cluster_policy < OCC_CLUSTER_POLICY_DEFAULT ||
        k->cluster_policy > OCC_CLUSTER_POLICY_LOAD_BALANCING) {
        return fail_cluster(err, d, "cluster_policy", "cluster_policy ",
                            (long long)k->cluster_policy,
                            ": must be 0 (default), 1 (spread) or 2 (load balancing)", -1, "");
    }
    *size = (int)blocks;
    return OCC_OK;
}

/* The layout the counts use: the device's, or every SM as one GPC. */
static int layout_of(const occ_device *d, int *sms)
{
    if (d->gpc_count <= 0) {
        sms[0] = d->sm_count;
        return 1;
    }
    for (int g = 0; g < d->gpc_count; g++) {
        sms[g] = d->gpc_sms[g];
    }
    return d->gpc_count;
}

/* Clusters of `size` blocks at b resident blocks per SM on the layout;
   fills the per-GPC clusters and busy SMs when asked. */
static int count_clusters(const int *sms, int gpcs, int b, int size, occ_cluster_policy policy,
                          int *gpc_clusters, int *gpc_active_sms, int *active_sms)
{
    int total = 0;
    int busy = 0;
    for (int g = 0; g < gpcs; g++) {
        bool fits = policy == OCC_CLUSTER_POLICY_LOAD_BALANCING || size <= sms[g];
        int clusters = fits ? (int)((long long)sms[g] * b / size) : 0;
        /* Blocks of a cluster go to distinct SMs, round-robin over the GPC. */
        long long blocks = (long long)clusters * size;
        int used = blocks < sms[g] ? (int)blocks : sms[g];
        if (gpc_clusters != NULL) {
            gpc_clusters[g] = clusters;
            gpc_active_sms[g] = used;
        }
        total += clusters;
        busy += used;
    }
    if (active_sms != NULL) {
        *active_sms = busy;
    }
    return total;
}

static int cluster_blocks_per_sm(const occ_device *d, const occ_kernel *k)
{
    occ_result r;
    occ__calc_unchecked(d, k, &r);
    return r.blocks_per_sm < CLUSTER_BLOCKS_PER_SM_MAX ? r.blocks_per_sm
                                                       : CLUSTER_BLOCKS_PER_SM_MAX;
}

/* The largest size up to `limit` with at least one active cluster. */
static int potential_size(const int *sms, int gpcs, int b, int limit, occ_cluster_policy policy)
{
    for (int size = limit; size >= 1; size--) {
        if (count_clusters(sms, gpcs, b, size, policy, NULL, NULL, NULL) > 0) {
            return size;
        }
    }
    return 0;
}

occ_status occ_cluster_calc(const occ_device *d, const occ_kernel *k, occ_cluster_result *out,
                            occ_error *err)
{
    if (out == NULL) {
        return occ__fail(err, OCC_ERR_NULL_POINTER, "out", "out is NULL");
    }
    occ_status st = check_device(d, k, err);
    if (st != OCC_OK) {
        return st;
    }
    if (!has_cluster(k)) {
        return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "cluster",
                         "the kernel has no cluster shape (cluster_x is 0)");
    }
    int size = 0;
    st = check_shape(d, k, &size, err);
    if (st != OCC_OK) {
        return st;
    }
    int sms[OCC_MAX_GPCS];
    int gpcs = layout_of(d, sms);
    int b = cluster_blocks_per_sm(d, k);
    *out = (occ_cluster_result){0};
    out->cluster_x = k->cluster_x;
    out->cluster_y = k->cluster_y;
    out->cluster_z = k->cluster_z;
    out->cluster_size = size;
    out->launch_refused = size > OCC_CLUSTER_NON_PORTABLE_MAX;
    out->blocks_per_sm = b;
    out->sm_count = d->sm_count;
    out->exact = d->gpc_count > 0;
    out->gpc_source = d->gpc_count > 0 ? d->gpc_source : OCC_GPC_UNKNOWN;
    out->gpc_count = gpcs;
    for (int g = 0; g < gpcs; g++) {
        out->gpc_sms[g] = sms[g];
    }
    out->max_active_clusters =
        count_clusters(sms, gpcs, b, size, k->cluster_policy, out->gpc_clusters,
                       out->gpc_active_sms, &out->active_sms);
    out->active_blocks = out->max_active_clusters * size;
    out->max_potential_cluster_size =
        potential_size(sms, gpcs, b, size_limit(k), k->cluster_policy);
    return OCC_OK;
}

occ_status occ_max_active_clusters(const occ_device *d, const occ_kernel *k, int *clusters,
                                   occ_error *err)
{
    if (clusters == NULL) {
        return occ__fail(err, OCC_ERR_NULL_POINTER, "clusters", "clusters is NULL");
    }
    occ_cluster_result r;
    occ_status st = occ_cluster_calc(d, k, &r, err);
    if (st == OCC_OK) {
        *clusters = r.max_active_clusters;
    }
    return st;
}

occ_status occ_max_potential_cluster_size(const occ_device *d, const occ_kernel *k, int *size,
                                          occ_error *err)
{
    if (size == NULL) {
        return occ__fail(err, OCC_ERR_NULL_POINTER, "size", "size is NULL");
    }
    occ_status st = check_device(d, k, err);
    if (st != OCC_OK) {
        return st;
    }
    int sms[OCC_MAX_GPCS];
    int gpcs = layout_of(d, sms);
    *size =
        potential_size(sms, gpcs, cluster_blocks_per_sm(d, k), size_limit(k), k->cluster_policy);
    return OCC_OK;
}

occ_status occ_cluster_sweep(const occ_device *d, const occ_kernel *k,
                             occ_cluster_sweep_point *points, int max_points, int *count,
                             occ_error *err)
{
    if (points == NULL || count == NULL) {
        return occ__fail(err, OCC_ERR_NULL_POINTER, "points", "points or count is NULL");
    }
    occ_status st = check_device(d, k, err);
    if (st != OCC_OK) {
        return st;
    }
    int last = size_limit(k);
    if (k->max_blocks_per_cluster > 0 && k->max_blocks_per_cluster < last) {
        last = k->max_blocks_per_cluster;
    }
    if (max_points < last) {
        return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "points",
                         "max_points is below the curve's length (up to 16 sizes)");
    }
    int sms[OCC_MAX_GPCS];
    int gpcs = layout_of(d, sms);
    int b = cluster_blocks_per_sm(d, k);
    occ_result r;
    occ__calc_unchecked(d, k, &r);
    for (int size = 1; size <= last; size++) {
        occ_cluster_sweep_point *p = &points[size - 1];
        p->cluster_size = size;
        p->blocks_per_sm = b;
        p->max_active_clusters =
            count_clusters(sms, gpcs, b, size, k->cluster_policy, NULL, NULL, &p->active_sms);
        p->warps_per_sm =
            (double)p->max_active_clusters * size * r.warps_per_block / (double)d->sm_count;
        p->occupancy = p->warps_per_sm / (double)occ_device_max_warps_per_sm(d);
    }
    *count = last;
    return OCC_OK;
}

occ_status occ_cluster_waves(const occ_cluster_result *c, long long grid_clusters,
                             occ_waves_result *out, occ_error *err)
{
    if (c == NULL) {
        return occ__fail(err, OCC_ERR_NULL_POINTER, "cluster", "cluster is NULL");
    }
    if (c->max_active_clusters <= 0) {
        return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "max_active_clusters",
                         "no cluster can be active, so the grid never runs");
    }
    /* One wave is every active cluster: waves of clusters, not of blocks. */
    return occ_launch_waves(c->max_active_clusters, 1, grid_clusters, out, err);
}

const char *occ_gpc_source_name(occ_gpc_source source)
{
    switch (source) {
    case OCC_GPC_MEASURED: return "measured";
    case OCC_GPC_PUBLISHED: return "published";
    case OCC_GPC_GIVEN: return "given";
    case OCC_GPC_UNKNOWN: break;
    }
    return "unknown";
}
