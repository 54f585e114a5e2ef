/*
 * occ_profile_ncu_check.c - one profiled launch computed with libocc, on the export's
 * GPU with Nsight's own shared-memory configuration, and compared with
 * Nsight's theoretical occupancy, Block Limits, waves and active clusters.
 *
 * A value the details page rounded ("46.35 Kbyte" of dynamic shared memory)
 * stands for an interval of byte counts; libocc is run at both ends, and
 * Nsight's figure agrees when it lies between them.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "prof_ncu.h"

const char *const occ_profile_ncu_limit_names[OCC_PROFILE_NCU_LIMIT_COUNT] = {
    "warps", "blocks", "registers", "shared_mem", "barriers"};

static const occ_profile_ncu_field limit_fields[OCC_PROFILE_NCU_LIMIT_COUNT] = {
    OCC_PROFILE_NCU_LIMIT_WARPS, OCC_PROFILE_NCU_LIMIT_BLOCKS, OCC_PROFILE_NCU_LIMIT_REGISTERS,
    OCC_PROFILE_NCU_LIMIT_SHARED_MEM, OCC_PROFILE_NCU_LIMIT_BARRIERS};

static const unsigned limit_bits[OCC_PROFILE_NCU_LIMIT_COUNT] = {
    OCC_PROFILE_NCU_MISMATCH_WARPS, OCC_PROFILE_NCU_MISMATCH_BLOCKS,
    OCC_PROFILE_NCU_MISMATCH_REGISTERS, OCC_PROFILE_NCU_MISMATCH_SHARED_MEM,
    OCC_PROFILE_NCU_MISMATCH_BARRIERS};

const char *occ_profile_ncu_mismatch_name(unsigned bit)
{
    switch (bit) {
    case OCC_PROFILE_NCU_MISMATCH_THEORETICAL: return "theoretical_occupancy";
    case OCC_PROFILE_NCU_MISMATCH_WARPS: return "limits.warps";
    case OCC_PROFILE_NCU_MISMATCH_BLOCKS: return "limits.blocks";
    case OCC_PROFILE_NCU_MISMATCH_REGISTERS: return "limits.registers";
    case OCC_PROFILE_NCU_MISMATCH_SHARED_MEM: return "limits.shared_mem";
    case OCC_PROFILE_NCU_MISMATCH_BARRIERS: return "limits.barriers";
    case OCC_PROFILE_NCU_MISMATCH_CLUSTERS: return "max_active_clusters";
    case OCC_PROFILE_NCU_MISMATCH_WAVES: return "waves_per_sm";
    case OCC_PROFILE_NCU_MISMATCH_SMEM_CONFIG: return "shared_mem_config_bytes";
    case OCC_PROFILE_NCU_MISMATCH_DRIVER_SMEM: return "driver_shared_mem_bytes";
    default: return "unknown";
    }
}

/* floor(v + 0.5), without a call to floor for the counts exports hold. */
static double round_half_up(double v)
{
    return v >= 0.0 && v < 9e15 ? (double)(long long)(v + 0.5) : floor(v + 0.5);
}

/* A whole number in [lo, hi] from an exported count. */
static bool whole(const occ_profile_ncu_number *n, long long lo, long long hi, long long *out)
{
    if (!n->present) {
        return false;
    }
    double rounded = round_half_up(n->value);
    if (fabs(n->value - rounded) > n->tolerance + 1e-6 || rounded < (double)lo ||
        rounded > (double)hi) {
        return false;
    }
    *out = (long long)rounded;
    return true;
}

/* The byte counts a size stands for: [lo, hi], and the printed value. */
typedef struct byte_range {
    long long lo, hi, mid;
} byte_range;

static bool bytes_of(const occ_profile_ncu_number *n, byte_range *out)
{
    double lo = ceil(n->value - n->tolerance - 1e-6);
    double hi = floor(n->value + n->tolerance + 1e-6);
    if (!n->present || lo > hi || hi < 0 || lo > 2147483647.0) {
        return false;
    }
    out->lo = lo < 0 ? 0 : (long long)lo;
    out->hi = hi > 2147483647.0 ? 2147483647 : (long long)hi;
    if (out->lo == out->hi) {
        out->mid = out->lo; /* exported to the byte */
        return true;
    }
    /* The size a kernel most likely has: the multiple of the largest power
       of two in the interval ("2.05 Kbyte" is 2,045 to 2,055 bytes: 2,048),
       as shared-memory sizes usually are; exact where the export is. */
    out->mid = out->lo;
    for (long long step = 1LL << 30; step >= 1; step >>= 1) {
        long long multiple = (out->lo + step - 1) / step * step;
        if (multiple <= out->hi) {
            out->mid = multiple;
            break;
        }
    }
    return true;
}

typedef struct where {
    const char *file;
    const occ_profile_ncu_launch *launch;
} where;

static bool fail(const where *w, occ_profile_error *err, const char *what,
                 const occ_profile_ncu_number *n)
{
    return ncu_fail(err, "%s: line %lld: launch ID %lld: %s %.6g is not a value a launch can have",
                    w->file, w->launch->line, w->launch->id, what, n->value);
}

/* The export's own device, looked up once for each name and compute
   capability: its name when occ knows it and its compute capability is the
   export's, else the generic entry of the export's compute capability
   (whose per-SM limits are the same). False when occ knows neither. */
static bool export_device(occ_profile_ncu_gpu *g, const occ_profile_ncu_launch *l)
{
    if (g->cached && g->cached_cc_major == l->cc_major && g->cached_cc_minor == l->cc_minor &&
        strcmp(g->cached_name, l->device_name) == 0) {
        return g->cached_ok;
    }
    g->cached = true;
    snprintf(g->cached_name, sizeof g->cached_name, "%s", l->device_name);
    g->cached_cc_major = l->cc_major;
    g->cached_cc_minor = l->cc_minor;
    occ_device *d = &g->cached_device;
    g->cached_named =
        l->device_name[0] != '\0' && occ_gpu_find(l->device_name, d, NULL) == OCC_OK &&
        (l->cc_major < 0 || (d->cc_major == l->cc_major && d->cc_minor == l->cc_minor));
    g->cached_ok = g->cached_named ||
                   (l->cc_major >= 0 && occ_arch_find(l->cc_major, l->cc_minor, d, NULL) == OCC_OK);
    return g->cached_ok;
}

/* --gpu (or --gpu-file) against the export's device: the same compute
   capability, and where both are named GPUs of the database, the same SM
   count (an H100 PCIe's 114 SMs are not an H200's 132). */
static bool check_forced(occ_profile_ncu_gpu *g, const occ_profile_ncu_launch *l, const where *w,
                         occ_profile_error *err)
{
    const occ_device *f = &g->forced_device;
    char device[OCC_PROFILE_NCU_DEVICE_NAME_BYTES + 16];
    snprintf(device, sizeof device, "%s%s", l->device_name[0] != '\0' ? " " : "", l->device_name);
    if (l->cc_major >= 0 && (f->cc_major != l->cc_major || f->cc_minor != l->cc_minor)) {
        return ncu_fail(err,
                        "%s: line %lld: launch ID %lld: the export's device%s is compute "
                        "capability %d.%d, and %s (%s) is %d.%d: occ would compute another "
                        "GPU's occupancy (leave the option out, or give the export's GPU)",
                        w->file, l->line, l->id, device, l->cc_major, l->cc_minor, g->forced_by,
                        f->name, f->cc_major, f->cc_minor);
    }
    if (g->forced_named && l->device_name[0] != '\0' && export_device(g, l) && g->cached_named &&
        g->cached_device.sm_count > 0 && f->sm_count > 0 &&
        g->cached_device.sm_count != f->sm_count) {
        return ncu_fail(err,
                        "%s: line %lld: launch ID %lld: the export's device%s has %d SMs, "
                        "and %s (%s) has %d (compute capability %d.%d both): occ would "
                        "compute another GPU's occupancy (leave the option out, or give the "
                        "export's GPU)",
                        w->file, l->line, l->id, device, g->cached_device.sm_count, g->forced_by,
                        f->name, f->sm_count, f->cc_major, f->cc_minor);
    }
    return true;
}

/* The GPU: --gpu (when it is the export's), else the export's device. */
static bool find_device(const occ_profile_ncu_launch *l, occ_profile_ncu_gpu *g, const where *w,
                        occ_device *out, occ_profile_error *err)
{
    if (g->forced) {
        if (!check_forced(g, l, w, err)) {
            return false;
        }
        *out = g->forced_device;
        return true;
    }
    if (export_device(g, l)) {
        *out = g->cached_device;
        return true;
    }
    return ncu_fail(err,
                    "%s: line %lld: launch ID %lld: occ knows neither the GPU '%.60s' nor "
                    "compute capability %d.%d: give --gpu",
                    w->file, l->line, l->id, l->device_name, l->cc_major, l->cc_minor);
}

/* libocc's Block Limits as Nsight shows them. Nsight caps Block Limit
   Barriers at the SM's block slots (an H200 with 1 barrier per block shows
   32, not 64; with none, 32 too: tests/data/ncu-h200), and libocc's
   "unlimited" (a resource the kernel does not use) is shown as the block
   slots as well. */
static void nsight_limits(const occ_device *d, const occ_result *r,
                          int out[OCC_PROFILE_NCU_LIMIT_COUNT])
{
    const int raw[OCC_PROFILE_NCU_LIMIT_COUNT] = {r->limit_warps, r->limit_blocks,
                                                  r->limit_registers, r->limit_shared_mem,
                                                  r->limit_barriers};
    for (int i = 0; i < OCC_PROFILE_NCU_LIMIT_COUNT; i++) {
        out[i] = raw[i] == OCC_UNLIMITED ? d->max_blocks_per_sm : raw[i];
    }
    if (out[4] > d->max_blocks_per_sm) {
        out[4] = d->max_blocks_per_sm;
    }
}

/* Nsight's shared-memory configuration, as one of the GPU's carveout
   steps: the step inside the exported interval. False when none is. */
static bool config_step(const occ_device *d, const byte_range *cfg, int *out)
{
    if (d->carveout_step_count == 0) {
        *out = d->smem_per_sm_bytes;
        return cfg->lo <= d->smem_per_sm_bytes && d->smem_per_sm_bytes <= cfg->hi;
    }
    for (int i = 0; i < d->carveout_step_count; i++) {
        if (cfg->lo <= d->carveout_steps_bytes[i] && d->carveout_steps_bytes[i] <= cfg->hi) {
            *out = d->carveout_steps_bytes[i];
            return true;
        }
    }
    long long clamped = cfg->mid > d->smem_per_sm_bytes ? d->smem_per_sm_bytes : cfg->mid;
    *out = (int)clamped;
    return false;
}

/* The kernel of the launch, sizes from `pick` (lo, mid or hi of each). */
typedef enum pick { PICK_LO, PICK_MID, PICK_HI } pick;

static long long picked(const byte_range *b, pick p)
{
    return p == PICK_LO ? b->lo : p == PICK_HI ? b->hi : b->mid;
}

static bool in_range(double value, double tolerance, double a, double b)
{
    double lo = a < b ? a : b;
    double hi = a < b ? b : a;
    return value + tolerance + 1e-9 >= lo && value - tolerance - 1e-9 <= hi;
}

/* The block shape: the exported dims when they multiply to the block size. */
static void set_block(occ_kernel *k, const occ_profile_ncu_launch *l, long long threads)
{
    const int *d = l->block_dims;
    if (d[0] > 0 && d[1] > 0 && d[2] > 0 && (long long)d[0] * d[1] * d[2] == threads) {
        k->block_x = d[0];
        k->block_y = d[1];
        k->block_z = d[2];
    } else {
        k->block_x = (int)threads;
        k->block_y = k->block_z = 1;
    }
}

/* The cluster shape: the raw page's dims, else the details page's size. */
static void set_cluster(occ_kernel *k, const occ_profile_ncu_launch *l, occ_profile_ncu_check *c)
{
    long long x, y, z, size;
    if (whole(&l->v[OCC_PROFILE_NCU_CLUSTER_X], 1, 16, &x) &&
        whole(&l->v[OCC_PROFILE_NCU_CLUSTER_Y], 1, 16, &y) &&
        whole(&l->v[OCC_PROFILE_NCU_CLUSTER_Z], 1, 16, &z)) {
        k->cluster_x = (int)x;
        k->cluster_y = (int)y;
        k->cluster_z = (int)z;
    } else if (whole(&l->v[OCC_PROFILE_NCU_CLUSTER_SIZE], 1, 1024, &size)) {
        k->cluster_x = (int)size;
        k->cluster_y = k->cluster_z = 1;
    }
    c->has_clusters = k->cluster_x > 0;
    c->cluster_size = k->cluster_x * (k->cluster_y > 0 ? k->cluster_y : 1) *
                      (k->cluster_z > 0 ? k->cluster_z : 1);
    if (!c->has_clusters) {
        c->cluster_size = 0;
        return;
    }
    /* a cluster above the portable 8 blocks runs only with the attribute set */
    k->cluster_non_portable = c->cluster_size > OCC_CLUSTER_PORTABLE_MAX;
    if (strcmp(l->cluster_policy, "PolicySpread") == 0) {
        k->cluster_policy = OCC_CLUSTER_POLICY_SPREAD;
    } else if (strcmp(l->cluster_policy, "PolicyLoadBalancing") == 0) {
        k->cluster_policy = OCC_CLUSTER_POLICY_LOAD_BALANCING;
    }
}

/* libocc's active clusters, compared with Nsight's. The SM count is
   Nsight's: where it is not the database's (a MIG slice, a green context)
   the GPC layout is unknown and libocc's count an upper bound. */
static void check_clusters(const occ_profile_ncu_launch *l, occ_profile_ncu_check *c)
{
    long long ncu;
    c->ncu_max_active_clusters = -1;
    c->max_active_clusters = -1;
    if (!c->has_clusters) {
        return;
    }
    if (whole(&l->v[OCC_PROFILE_NCU_MAX_ACTIVE_CLUSTERS], 0, 1LL << 30, &ncu)) {
        c->ncu_max_active_clusters = (int)ncu;
    }
    occ_device d = c->device;
    if (c->sm_count > 0 && c->sm_count != d.sm_count) {
        d.sm_count = c->sm_count;
        d.gpc_count = 0;
    }
    occ_cluster_result r;
    if (occ_cluster_calc(&d, &c->kernel, &r, NULL) != OCC_OK) {
        return; /* not computed: said in the output */
    }
    c->max_active_clusters = r.max_active_clusters;
    c->clusters_exact = r.exact;
    if (c->ncu_max_active_clusters >= 0) {
        bool agree = r.exact ? c->ncu_max_active_clusters == r.max_active_clusters
                             : c->ncu_max_active_clusters <= r.max_active_clusters;
        if (!agree) {
            c->mismatches |= OCC_PROFILE_NCU_MISMATCH_CLUSTERS;
        }
    }
}

/* The barrier count Nsight's Block Limit Barriers stands for, where the
   export has no count (the details page): the driver's default of 1 when it
   gives that limit, else the fewest that do. */
static int infer_barriers(const occ_device *d, occ_kernel k, long long ncu_limit)
{
    static const int order[] = {1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        int b = order[i];
        occ_result r;
        int limits[OCC_PROFILE_NCU_LIMIT_COUNT];
        k.barriers = b;
        if (occ_calc(d, &k, &r, NULL) == OCC_OK) {
            nsight_limits(d, &r, limits);
            if (limits[4] == ncu_limit) {
                return b;
            }
        }
    }
    return 1; /* none does: the driver's default, and the limit is a mismatch */
}

static void compare(const occ_profile_ncu_launch *l, const occ_result *lo, const occ_result *hi,
                    occ_profile_ncu_check *c)
{
    int limits_lo[OCC_PROFILE_NCU_LIMIT_COUNT];
    int limits_hi[OCC_PROFILE_NCU_LIMIT_COUNT];
    nsight_limits(&c->device, lo, limits_lo);
    nsight_limits(&c->device, hi, limits_hi);
    for (int i = 0; i < OCC_PROFILE_NCU_LIMIT_COUNT; i++) {
        const occ_profile_ncu_number *n = &l->v[limit_fields[i]];
        long long v;
        if (!whole(n, 0, 1 << 30, &v)) {
            c->ncu_limits[i] = -1;
            c->mismatches |= limit_bits[i];
            continue;
        }
        c->ncu_limits[i] = (int)v;
        if (!in_range((double)v, 0.0, limits_lo[i], limits_hi[i])) {
            c->mismatches |= limit_bits[i];
        }
    }
    const occ_profile_ncu_number *pct = &l->v[OCC_PROFILE_NCU_THEORETICAL_PCT];
    if (!in_range(pct->value, pct->tolerance, lo->occupancy * 100.0, hi->occupancy * 100.0)) {
        c->mismatches |= OCC_PROFILE_NCU_MISMATCH_THEORETICAL;
    }
    const occ_profile_ncu_number *warps = &l->v[OCC_PROFILE_NCU_THEORETICAL_WARPS];
    if (warps->present &&
        !in_range(warps->value, warps->tolerance, lo->warps_per_sm, hi->warps_per_sm)) {
        c->mismatches |= OCC_PROFILE_NCU_MISMATCH_THEORETICAL;
    }
    long long grid;
    const occ_profile_ncu_number *waves = &l->v[OCC_PROFILE_NCU_WAVES];
    c->waves = -1.0;
    if (c->sm_count > 0 && whole(&l->v[OCC_PROFILE_NCU_GRID_SIZE], 1, 1LL << 53, &grid) &&
        c->result.blocks_per_sm > 0) {
        c->waves = (double)grid / ((double)c->result.blocks_per_sm * c->sm_count);
        if (waves->present && lo->blocks_per_sm > 0 && hi->blocks_per_sm > 0) {
            double w_lo = (double)grid / ((double)lo->blocks_per_sm * c->sm_count);
            double w_hi = (double)grid / ((double)hi->blocks_per_sm * c->sm_count);
            if (!in_range(waves->value, waves->tolerance, w_lo, w_hi)) {
                c->mismatches |= OCC_PROFILE_NCU_MISMATCH_WAVES;
            }
        }
    }
    byte_range driver;
    if (l->v[OCC_PROFILE_NCU_DRIVER_SMEM].present &&
        bytes_of(&l->v[OCC_PROFILE_NCU_DRIVER_SMEM], &driver) &&
        (driver.lo > c->device.smem_reserved_per_block_bytes ||
         driver.hi < c->device.smem_reserved_per_block_bytes)) {
        c->mismatches |= OCC_PROFILE_NCU_MISMATCH_DRIVER_SMEM;
    }
}

static bool check_launch(const occ_profile_ncu_launch *l, occ_profile_ncu_gpu *gpu,
                         const char *file, occ_profile_ncu_check *c, occ_profile_error *err)
{
    memset(c, 0, sizeof *c);
    const where w = {file, l};
    if (!find_device(l, gpu, &w, &c->device, err)) {
        return false;
    }
    const occ_device *d = &c->device;
    occ_kernel k;
    memset(&k, 0, sizeof k); /* padding too: kernels are compared by their bytes */
    occ_kernel_init(&k);
    long long threads, regs, barriers, sms, grid;
    byte_range stat, dyn, cfg;
    if (!whole(&l->v[OCC_PROFILE_NCU_BLOCK_SIZE], 1, 1 << 20, &threads)) {
        return fail(&w, err, "block size", &l->v[OCC_PROFILE_NCU_BLOCK_SIZE]);
    }
    /* beyond 2^53 blocks a count is not exact in a double (no launch comes
       near: the H200 exports' largest grid is 65,536 blocks) */
    if (!whole(&l->v[OCC_PROFILE_NCU_GRID_SIZE], 1, 1LL << 53, &grid)) {
        return fail(&w, err, "grid size", &l->v[OCC_PROFILE_NCU_GRID_SIZE]);
    }
    if (!whole(&l->v[OCC_PROFILE_NCU_REGS], 0, 1 << 20, &regs)) {
        return fail(&w, err, "registers per thread", &l->v[OCC_PROFILE_NCU_REGS]);
    }
    if (!bytes_of(&l->v[OCC_PROFILE_NCU_STATIC_SMEM], &stat)) {
        return fail(&w, err, "static shared memory (bytes)", &l->v[OCC_PROFILE_NCU_STATIC_SMEM]);
    }
    if (!bytes_of(&l->v[OCC_PROFILE_NCU_DYN_SMEM], &dyn)) {
        return fail(&w, err, "dynamic shared memory (bytes)", &l->v[OCC_PROFILE_NCU_DYN_SMEM]);
    }
    if (!bytes_of(&l->v[OCC_PROFILE_NCU_SMEM_CONFIG], &cfg)) {
        return fail(&w, err, "shared memory configuration (bytes)",
                    &l->v[OCC_PROFILE_NCU_SMEM_CONFIG]);
    }
    set_block(&k, l, threads);
    k.regs_per_thread = (int)regs;
    if (!config_step(d, &cfg, &k.smem_config_bytes)) {
        c->mismatches |= OCC_PROFILE_NCU_MISMATCH_SMEM_CONFIG;
    }
    c->smem_config_bytes = k.smem_config_bytes;
    set_cluster(&k, l, c);
    c->sm_count = d->sm_count;
    if (whole(&l->v[OCC_PROFILE_NCU_SM_COUNT], 1, 1 << 20, &sms)) {
        c->sm_count = (int)sms;
    }

    occ_kernel at[3];
    occ_result res[3];
    for (int p = PICK_LO; p <= PICK_HI; p++) {
        at[p] = k;
        at[p].static_smem_bytes = (int)picked(&stat, (pick)p);
        at[p].dyn_smem_bytes = (int)picked(&dyn, (pick)p);
    }
    if (l->v[OCC_PROFILE_NCU_BARRIERS].present) {
        if (!whole(&l->v[OCC_PROFILE_NCU_BARRIERS], 0, 1 << 20, &barriers)) {
            return fail(&w, err, "barriers", &l->v[OCC_PROFILE_NCU_BARRIERS]);
        }
        for (int p = PICK_LO; p <= PICK_HI; p++) {
            at[p].barriers = (int)barriers;
        }
    } else {
        long long ncu_limit = -1;
        whole(&l->v[OCC_PROFILE_NCU_LIMIT_BARRIERS], 0, 1 << 30, &ncu_limit);
        int b = infer_barriers(d, at[PICK_MID], ncu_limit);
        for (int p = PICK_LO; p <= PICK_HI; p++) {
            at[p].barriers = b;
        }
        c->barriers_inferred = true;
    }
    /* sizes exported to the byte (the raw page) make the three one */
    bool exact = stat.lo == stat.hi && dyn.lo == dyn.hi;
    for (int p = PICK_LO; p <= PICK_HI; p++) {
        occ_error e;
        if (exact && p != PICK_LO) {
            res[p] = res[PICK_LO];
            continue;
        }
        if (occ_calc(d, &at[p], &res[p], &e) != OCC_OK) {
            return ncu_fail(err, "%s: line %lld: launch ID %lld: %s", file, l->line, l->id,
                            e.message);
        }
    }
    c->kernel = at[PICK_MID];
    c->result = res[PICK_MID];
    c->exact_inputs = exact;
    nsight_limits(d, &c->result, c->limits);
    c->theoretical = c->result.occupancy;
    c->ncu_theoretical = l->v[OCC_PROFILE_NCU_THEORETICAL_PCT].value / 100.0;
    c->has_achieved = l->v[OCC_PROFILE_NCU_ACHIEVED_PCT].present;
    c->achieved = c->has_achieved ? l->v[OCC_PROFILE_NCU_ACHIEVED_PCT].value / 100.0 : 0.0;
    /* the most blocks (fewest bytes) and the fewest (most bytes) */
    compare(l, &res[PICK_LO], &res[PICK_HI], c);
    check_clusters(l, c);
    return true;
}

occ_status occ_profile_ncu_check_launch(const occ_profile_ncu_launch *l, occ_profile_ncu_gpu *gpu,
                                        const char *file, occ_profile_ncu_check *out,
                                        occ_profile_error *err)
{
    if (!check_launch(l, gpu, file, out, err)) {
        return err ? err->status : OCC_ERR_BAD_FORMAT;
    }
    return OCC_OK;
}
