/*
 * sweep.c - residency as one input varies: Nsight Compute's occupancy
 * curves (launch__occupancy_per_register_count, _per_shared_mem_size,
 * _per_block_size, _per_barrier_count), point for point.
 *
 * Every point is occ_calc's answer for the varied kernel; the shared-memory
 * axis asks it about a device without the per-block reserve, because
 * Nsight's x already is the block's whole allocation. The x grids and the
 * shared-memory cap rule were read from ncu 2025.3.1 on an H200 (driver
 * 580, tests/data/ncu-sweep/README.md).
 */
#include "occ_internal.h"

/* Nsight's grids (tests/data/ncu-sweep): registers 0..256, barriers 0..64,
   block sizes 1 then every 16, shared memory every 512 bytes. */
#define SWEEP_REGS_LAST 256
#define SWEEP_BARRIERS_LAST 64
#define SWEEP_THREADS_STEP 16
#define SWEEP_SMEM_STEP_BYTES 512

int occ_sweep_point_count(const occ_device *d, occ_sweep_axis axis)
{
    if (d == NULL) {
        return 0;
    }
    switch (axis) {
    case OCC_SWEEP_REGS: return SWEEP_REGS_LAST + 1;
    case OCC_SWEEP_BARRIERS: return SWEEP_BARRIERS_LAST + 1;
    case OCC_SWEEP_THREADS: return 1 + d->max_threads_per_block / SWEEP_THREADS_STEP;
    case OCC_SWEEP_SMEM:
        return (d->smem_per_sm_bytes + SWEEP_SMEM_STEP_BYTES - 1) / SWEEP_SMEM_STEP_BYTES;
    }
    return 0;
}

static int x_at(occ_sweep_axis axis, int i)
{
    switch (axis) {
    case OCC_SWEEP_THREADS: return i == 0 ? 1 : i * SWEEP_THREADS_STEP;
    case OCC_SWEEP_SMEM: return i * SWEEP_SMEM_STEP_BYTES;
    case OCC_SWEEP_REGS:
    case OCC_SWEEP_BARRIERS: return i;
    }
    return i;
}

occ_status occ_sweep_current_value(const occ_device *d, const occ_kernel *k, occ_sweep_axis axis,
                                   int *value, occ_error *err)
{
    if (d == NULL || k == NULL || value == NULL) {
        return occ__fail(err, OCC_ERR_NULL_POINTER, "value", "device, kernel or value is NULL");
    }
    *value = 0;
    occ_result r;
    /* The kernel must be valid: its allocation comes from occ_calc. */
    occ_status st = occ_calc(d, k, &r, err);
    if (st != OCC_OK) {
        return st;
    }
    switch (axis) {
    case OCC_SWEEP_REGS: *value = k->regs_per_thread; return OCC_OK;
    case OCC_SWEEP_BARRIERS: *value = k->barriers; return OCC_OK;
    case OCC_SWEEP_THREADS: *value = r.threads_per_block; return OCC_OK;
    case OCC_SWEEP_SMEM:
        /* The block's allocation as occ_calc makes it (reserve and rounding). */
        *value = r.smem_per_block_allocated_bytes;
        return OCC_OK;
    }
    return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "axis",
                     "the axis must be registers, shared memory, block size or barriers");
}

occ_kernel occ__kernel_with(const occ_kernel *k, occ_sweep_axis input, int value)
{
    occ_kernel v = *k;
    switch (input) {
    case OCC_SWEEP_REGS: v.regs_per_thread = value; break;
    case OCC_SWEEP_BARRIERS: v.barriers = value; break;
    case OCC_SWEEP_THREADS:
        v.block_x = value;
        v.block_y = 1;
        v.block_z = 1;
        break;
    case OCC_SWEEP_SMEM:
        v.static_smem_bytes = 0;
        v.dyn_smem_bytes = value;
        if (v.max_dyn_smem_bytes >= 0) {
            v.max_dyn_smem_bytes = OCC_DYN_SMEM_OPTIN_MAX;
        }
        break;
    }
    return v;
}

const char *occ_sweep_axis_name(occ_sweep_axis axis)
{
    switch (axis) {
    case OCC_SWEEP_REGS: return "registers";
    case OCC_SWEEP_SMEM: return "shared memory";
    case OCC_SWEEP_THREADS: return "block size";
    case OCC_SWEEP_BARRIERS: return "barriers";
    }
    return NULL;
}

occ_status occ_sweep(const occ_device *d, const occ_kernel *k, occ_sweep_axis axis,
                     occ_sweep_point *points, int max_points, int *count, occ_error *err)
{
    if (d == NULL || k == NULL || points == NULL || count == NULL) {
        return occ__fail(err, OCC_ERR_NULL_POINTER, "sweep",
                         "device, kernel, points and count must not be NULL");
    }
    *count = 0;
    int n = occ_sweep_point_count(d, axis);
    if (n == 0) {
        return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "axis",
                         "the axis must be registers, shared memory, block size or barriers");
    }
    if (max_points < n) {
        occ_msg msg;
        char text[OCC_ERROR_MESSAGE_BYTES];
        occ__msg_begin(&msg, text, sizeof text);
        occ__msg_str(&msg, "room for ");
        occ__msg_int(&msg, max_points);
        occ__msg_str(&msg, " points; this sweep has ");
        occ__msg_int(&msg, n);
        return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "points", text);
    }
    occ_status st = occ_kernel_validate(d, k, err);
    if (st != OCC_OK) {
        return st;
    }

    /* The shared-memory configuration stays the kernel's: occ_calc's pick
       unless the caller gave Nsight's. */
    occ_result here;
    occ__calc_unchecked(d, k, &here);
    occ_kernel base = *k;
    base.smem_config_bytes = here.smem_per_sm_bytes;

    /* The shared-memory axis: no reserve (x is the whole allocation), the
       block's shared memory all dynamic, and Nsight's cap. */
    occ_device no_reserve = *d;
    no_reserve.smem_reserved_per_block_bytes = 0;
    int default_total = d->smem_per_block_bytes;
    int optin_total = k->max_dyn_smem_bytes == OCC_DYN_SMEM_OPTIN_MAX
                          ? d->smem_per_block_optin_bytes
                      : k->max_dyn_smem_bytes == OCC_DYN_SMEM_NO_OPTIN
                          ? default_total
                          : k->static_smem_bytes + k->max_dyn_smem_bytes;
    bool capped_at_optin = k->static_smem_bytes > 0 || optin_total > default_total;

    for (int i = 0; i < n; i++) {
        int x = x_at(axis, i);
        occ_kernel v = occ__kernel_with(&base, axis, x);
        const occ_device *dev = d;
        if (axis == OCC_SWEEP_SMEM) {
            dev = &no_reserve;
            v.max_dyn_smem_bytes = capped_at_optin ? OCC_DYN_SMEM_OPTIN_MAX : OCC_DYN_SMEM_NO_OPTIN;
        }
        occ_result r;
        occ__calc_unchecked(dev, &v, &r);
        points[i].value = x;
        points[i].blocks_per_sm = r.blocks_per_sm;
        points[i].warps_per_sm = r.warps_per_sm;
        points[i].occupancy = r.occupancy;
    }
    *count = n;
    return OCC_OK;
}
