/*
 * risk.c - how close each kernel is to losing occupancy (include/occ_inspect.h,
 * "kernels at risk"). The cliffs are searched with occ_calc: resident blocks
 * never rise as registers or shared memory grow, so a bisection finds the
 * first value that loses a block in a few calls.
 */
#include <stdio.h>
#include <string.h>

#include "occ_inspect.h"

/* Registers per thread on every compute capability 5.0 to 12.x (CUDA C++
   Programming Guide, "Technical Specifications per Compute Capability"):
   the ceiling where the arch is not in the database. */
#define REGS_CEILING_DEFAULT 255

/* The device the kernel's occupancy was computed on. */
static bool device_of(const occ_inspect_kernel *k, const occ_inspect_options *opts, occ_device *out)
{
    if (opts->device != NULL) {
        *out = *opts->device;
        return true;
    }
    return occ_arch_find(k->sm / 10, k->sm % 10, out, NULL) == OCC_OK;
}

/* Threads in x*y*z (0 when x is 0), each dimension and the product capped
   at 2^20, as libocc-inspect multiplies launch bounds. */
static int product(const int dims[3])
{
    if (dims[0] <= 0) {
        return 0;
    }
    long long p = 1;
    for (int d = 0; d < 3; d++) {
        long long v = dims[d] > 0 ? dims[d] : 1;
        p *= v < (1 << 20) ? v : (1 << 20);
    }
    return p > 1 << 20 ? 1 << 20 : (int)p;
}

/* The launch libocc-inspect computed the kernel's occupancy for
   (include/occ_inspect.h): its resources, the options' dynamic shared
   memory, its launch bound, at the block size it reports. */
static void launch_of(const occ_inspect_kernel *k, const occ_inspect_options *opts,
                      const occ_device *d, occ_kernel *out)
{
    occ_kernel_init(out);
    out->block_x = k->threads;
    out->regs_per_thread = k->regs;
    out->static_smem_bytes = k->smem_bytes;
    out->dyn_smem_bytes = opts->dyn_smem_bytes;
    if (k->barriers != OCC_INSPECT_UNKNOWN) {
        out->barriers = k->barriers;
    }
    int bound = product(k->req_threads) > 0 ? product(k->req_threads) : product(k->max_threads);
    if (bound > 0 && bound <= d->max_threads_per_block) {
        out->max_threads_per_block = bound;
    }
}

/* Resident blocks; 0 when the launch is invalid (beyond a per-block limit). */
static int blocks_at(const occ_device *d, const occ_kernel *k)
{
    occ_result r;
    return occ_calc(d, k, &r, NULL) == OCC_OK ? r.blocks_per_sm : 0;
}

/* Smallest step in (0, top] at which `blocks` falls below `start`, given
   that it does at `top`: bisection over a function that never rises. */
typedef int (*blocks_fn)(const occ_device *d, occ_kernel k, int step);

static int first_loss(const occ_device *d, const occ_kernel *k, blocks_fn blocks, int start,
                      int top)
{
    int lo = 0; /* still `start` blocks */
    int hi = top;
    while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2;
        if (blocks(d, *k, mid) < start) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    return hi;
}

static int blocks_with_regs(const occ_device *d, occ_kernel k, int more)
{
    k.regs_per_thread += more;
    return blocks_at(d, &k);
}

static int blocks_with_smem(const occ_device *d, occ_kernel k, int more)
{
    k.dyn_smem_bytes += more;
    return blocks_at(d, &k);
}

static int flags_of(const occ_inspect_kernel *k, const occ_inspect_options *opts, occ_device *d,
                    bool *have_device, occ_inspect_risk *out)
{
    memset(out, 0, sizeof *out);
    *have_device = device_of(k, opts, d);
    int ceiling = *have_device ? d->max_regs_per_thread : REGS_CEILING_DEFAULT;
    /* the kernel's own cap, where the binary records one (a ptxas log does
       not): ptxas spills rather than pass it */
    if (k->max_regs > 0 && k->max_regs < ceiling) {
        ceiling = k->max_regs;
        out->own_cap = true;
    }
    out->ceiling = ceiling;
    out->at_ceiling = k->regs >= ceiling;
    out->launch_bounds = (k->launch_flags & OCC_INSPECT_LAUNCH_OVER_BOUNDS) != 0;
    out->reqntid = (k->launch_flags & OCC_INSPECT_LAUNCH_NOT_REQNTID) != 0;
    out->cluster_refused = (k->launch_flags & OCC_INSPECT_LAUNCH_CLUSTER) != 0;
    out->spilling =
        k->spill_store_bytes > 0 || k->spill_load_bytes > 0 || k->spill_instructions > 0;
    return ceiling;
}

void occ_inspect_risk_flags(const occ_inspect_kernel *k, const occ_inspect_options *opts,
                            occ_inspect_risk *out)
{
    occ_device d;
    bool have_device;
    flags_of(k, opts, &d, &have_device, out);
}

void occ_inspect_risk_of(const occ_inspect_kernel *k, const occ_inspect_options *opts,
                         occ_inspect_risk *out)
{
    occ_device d;
    bool have_device;
    int ceiling = flags_of(k, opts, &d, &have_device, out);
    if (!have_device || !k->has_occupancy || k->blocks_per_sm <= 0 || k->cluster_dims[0] > 0) {
        /* a __cluster_dims__ kernel's figure is a cluster launch's, which
           occ_calc alone does not give: no cliff is claimed for it */
        return;
    }
    occ_kernel launch;
    launch_of(k, opts, &d, &launch);
    int start = blocks_at(&d, &launch);
    if (start != k->blocks_per_sm) {
        return; /* not the launch the figure came from: no cliff to claim */
    }
    out->has_cliffs = true;
    out->blocks_per_sm = start;
    /* ptxas never goes past a register cap (it spills instead) */
    int regs_top = ceiling;
    if (regs_top > k->regs && blocks_with_regs(&d, launch, regs_top - k->regs) < start) {
        out->regs_to_cliff = first_loss(&d, &launch, blocks_with_regs, start, regs_top - k->regs);
    }
    /* one byte past the per-block maximum the block cannot launch at all */
    long long room = (long long)d.smem_per_block_optin_bytes - k->smem_bytes - opts->dyn_smem_bytes;
    if (room >= 0 && room < OCC_UNLIMITED) {
        int top = (int)room + 1;
        out->smem_to_cliff_bytes = first_loss(&d, &launch, blocks_with_smem, start, top);
    }
}

bool occ_inspect_risk_near_regs(const occ_inspect_risk *r)
{
    return r->regs_to_cliff > 0 && r->regs_to_cliff <= OCC_INSPECT_RISK_NEAR_REGS;
}

bool occ_inspect_risk_near_smem(const occ_inspect_risk *r)
{
    return r->smem_to_cliff_bytes > 0 && r->smem_to_cliff_bytes <= OCC_INSPECT_RISK_NEAR_SMEM_BYTES;
}

bool occ_inspect_risk_fails(const occ_inspect_risk *r)
{
    return r->launch_bounds || r->reqntid || r->cluster_refused;
}

bool occ_inspect_risk_any(const occ_inspect_risk *r)
{
    return occ_inspect_risk_fails(r) || r->at_ceiling || r->spilling ||
           occ_inspect_risk_near_regs(r) || occ_inspect_risk_near_smem(r);
}

const char *occ_inspect_risk_text(const occ_inspect_risk *r, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    const char *sep = "";
#define RISK_ADD(...)                                                                              \
    do {                                                                                           \
        int n_ = snprintf(buf + used, cap - used, __VA_ARGS__);                                    \
        used = n_ > 0 && (size_t)n_ < cap - used ? used + (size_t)n_ : cap - 1;                    \
        sep = ", ";                                                                                \
    } while (0)
    if (r->launch_bounds) {
        RISK_ADD("%slaunch_bounds", sep);
    }
    if (r->reqntid) {
        RISK_ADD("%sreqntid", sep);
    }
    if (r->cluster_refused) {
        RISK_ADD("%scluster_dims", sep);
    }
    if (r->at_ceiling) {
        RISK_ADD("%sceiling", sep);
    }
    if (r->spilling) {
        RISK_ADD("%sspills", sep);
    }
    if (occ_inspect_risk_near_regs(r)) {
        RISK_ADD("%sregs+%d", sep, r->regs_to_cliff);
    }
    if (occ_inspect_risk_near_smem(r)) {
        RISK_ADD("%ssmem+%dB", sep, r->smem_to_cliff_bytes);
    }
#undef RISK_ADD
    if (used == 0) {
        snprintf(buf, cap, "-");
    }
    return buf;
}

const char *occ_inspect_limiter_text(const occ_inspect_kernel *k, char *buf, size_t cap)
{
    if (!k->has_occupancy) {
        snprintf(buf, cap, "%s", k->note != NULL ? k->note : "-");
    } else if (k->blocks_per_sm == 0) {
        snprintf(buf, cap, "none fits");
    } else {
        occ_limiter_list(k->limiters, buf, cap);
    }
    return buf;
}
