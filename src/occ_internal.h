/*
 * occ_internal.h - declarations shared by the files of libocc (src/) and
 * by its unit tests. Not part of the public API: see include/occ.h.
 */
#ifndef OCC_INTERNAL_H
#define OCC_INTERNAL_H

#include "occ.h"

/* A named GPU: a product's facts on top of its compute capability's limits. */
typedef struct occ_named_gpu {
    const char *name;           /* display name, e.g. "H100 SXM" */
    const char *const *aliases; /* NULL-terminated; may be NULL */
    int cc_major;               /* compute capability */
    int cc_minor;
    int sm_count;                          /* streaming multiprocessors */
    int sm_clock_mhz;                      /* boost clock; 0 if unknown */
    int mem_bandwidth_gb_per_s;            /* peak DRAM bandwidth; 0 if unknown */
    int l2_bytes;                          /* L2 size; 0 if unknown */
    int mem_latency_ns;                    /* DRAM latency; every named GPU has one */
    occ_latency_source mem_latency_source; /* where it comes from */
    const char *mem_latency_citation;      /* the source in a few words */
} occ_named_gpu;

/* Read-only tables (gpu_arch.c, gpu_named.c). */
extern const occ_device occ__arch_table[];
extern const int occ__arch_count;
extern const occ_named_gpu occ__named_table[];
extern const int occ__named_count;

/* One-line message builder: no libc, so the core builds freestanding. */
typedef struct occ_msg {
    char *buf;
    size_t cap;
    size_t len;
    bool truncated; /* something did not fit and was left out */
    bool *overflow; /* also set to true when something is left out; may be NULL */
} occ_msg;

void occ__msg_begin(occ_msg *m, char *buf, size_t cap);
void occ__msg_str(occ_msg *m, const char *s);
void occ__msg_int(occ_msg *m, long long v);
void occ__msg_count(occ_msg *m, long long v);       /* 65,536 */
void occ__msg_percent(occ_msg *m, double fraction); /* 0.625 -> 62.5% */

/* Sets err->field and err->message from a sequence of pieces; returns `status`. */
occ_status occ__fail(occ_error *err, occ_status status, const char *field, const char *message);

/* occ_calc without the argument checks, for callers that ask about
   configurations past the hardware's ranges on purpose (occ_sweep draws
   Nsight's curves to 256 registers and 64 barriers). The kernel's values
   must still be non-negative and the block non-empty. */
void occ__calc_unchecked(const occ_device *d, const occ_kernel *k, occ_result *result);

/* The kernel with one input set to `value`, as occ_sweep and occ_explain
   vary it: registers, barriers, a 1-D block of `value` threads, or `value`
   bytes of shared memory per block, all dynamic (static memory moves into
   the dynamic part so any size up to the opt-in is allowed). */
occ_kernel occ__kernel_with(const occ_kernel *k, occ_sweep_axis input, int value);

/* Freestanding string helpers. */
size_t occ__strlen(const char *s);
void occ__strlcpy(char *dst, const char *src, size_t cap);

/* The kernel's cudaFuncAttributeMaxDynamicSharedMemorySize in bytes: the
   opt-in maximum less static memory for OCC_DYN_SMEM_OPTIN_MAX, the default
   per-block limit less static memory when the kernel never opted in. */
static inline int occ__max_dyn_smem(const occ_device *d, const occ_kernel *k)
{
    if (k->max_dyn_smem_bytes == OCC_DYN_SMEM_OPTIN_MAX) {
        return d->smem_per_block_optin_bytes - k->static_smem_bytes;
    }
    if (k->max_dyn_smem_bytes == OCC_DYN_SMEM_NO_OPTIN) {
        return d->smem_per_block_bytes - k->static_smem_bytes;
    }
    return k->max_dyn_smem_bytes;
}

/* The most shared memory one block may be allocated, reserved bytes
   included: the opt-in limit once the kernel has opted in and could use
   more than the default (`usage_bytes`), else the default [OCH]. */
static inline int occ__smem_block_limit(const occ_device *d, const occ_kernel *k,
                                        long long usage_bytes)
{
    bool optin = k->max_dyn_smem_bytes != OCC_DYN_SMEM_NO_OPTIN;
    int limit = optin && usage_bytes > d->smem_per_block_bytes ? d->smem_per_block_optin_bytes
                                                               : d->smem_per_block_bytes;
    return limit + d->smem_reserved_per_block_bytes;
}

/* The GPC layout of a named GPU (gpu_gpc.c), by its display name in
   d->name; none (gpc_count 0, OCC_GPC_UNKNOWN) where the table has none.
   The count and names let tests check every layout against the database. */
void occ__gpc_layout_fill(occ_device *d);
int occ__gpc_layout_count(void);
const char *occ__gpc_layout_name(int index);

/* The device's display name for messages: "sm_90" or "H200 (sm_90)". */
void occ__device_label(const occ_device *device, char *out, size_t cap);

/* Smallest carveout step >= bytes; -1 if bytes exceeds the largest step.
   Inline and branch-free: it counts the steps below `bytes` over every
   slot, independent compares the compiler can vectorise. occ_calc asks on
   every call; an early-exit scan mispredicts on varied inputs, and a
   binary search chains its compares (both measured slower). */
static inline int occ__carveout_align_up(const occ_device *device, int bytes)
{
    int below = 0;
    for (int i = 0; i < OCC_MAX_CARVEOUT_STEPS; i++) {
        below += (i < device->carveout_step_count) & (device->carveout_steps_bytes[i] < bytes);
    }
    return below < device->carveout_step_count ? device->carveout_steps_bytes[below] : -1;
}

/* Shared memory the carveout preference asks for, before any block is
   placed: the SM's maximum by default (and where shared memory is fixed),
   else the percentage rounded up to a supported step [OCH]. */
static inline int occ__smem_preferred(const occ_device *d, int carveout_percent)
{
    if (d->carveout_step_count == 0 || carveout_percent == OCC_CARVEOUT_DEFAULT) {
        return d->smem_per_sm_bytes;
    }
    long long want = (long long)carveout_percent * d->smem_per_sm_bytes / 100;
    return occ__carveout_align_up(d, (int)want); /* at most smem_per_sm_bytes */
}

#endif /* OCC_INTERNAL_H */
