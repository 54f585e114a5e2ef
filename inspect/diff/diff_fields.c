/*
 * diff_fields.c - the fields occ_diff_compare compares: their names, their values
 * on one side as text and as JSON, and whether two sides differ. Every value
 * is read from the occ_inspect_kernel libocc-inspect returned; nothing is
 * recomputed here.
 */
#include <string.h>

#include "diff_internal.h"

static const char *const keys[OCC_DIFF_FIELD_COUNT] = {
    [OCC_DIFF_REGS] = "regs",
    [OCC_DIFF_SPILL_STORES] = "spill_store_bytes",
    [OCC_DIFF_SPILL_LOADS] = "spill_load_bytes",
    [OCC_DIFF_SPILL_INSTRUCTIONS] = "spill_instructions",
    [OCC_DIFF_STACK] = "stack_bytes",
    [OCC_DIFF_SMEM] = "smem_bytes",
    [OCC_DIFF_BARRIERS] = "barriers",
    [OCC_DIFF_MAX_THREADS] = "max_threads",
    [OCC_DIFF_REQ_THREADS] = "req_threads",
    [OCC_DIFF_MAX_REGS] = "max_regs",
    [OCC_DIFF_CLUSTER] = "cluster_dims",
    [OCC_DIFF_THREADS] = "threads",
    [OCC_DIFF_BLOCKS] = "blocks_per_sm",
    [OCC_DIFF_OCCUPANCY] = "occupancy",
    [OCC_DIFF_LIMITER] = "limiters",
};

const char *occ_diff_field_key(occ_diff_field field)
{
    return field >= 0 && field < OCC_DIFF_FIELD_COUNT ? keys[field] : "?";
}

static const int *dims_of(const occ_inspect_kernel *k, occ_diff_field field)
{
    switch (field) {
    case OCC_DIFF_MAX_THREADS: return k->max_threads;
    case OCC_DIFF_REQ_THREADS: return k->req_threads;
    case OCC_DIFF_CLUSTER: return k->cluster_dims;
    default: return NULL;
    }
}

/* A plain number field, and whether the kernel carries it. */
static bool int_of(const occ_inspect_kernel *k, occ_diff_field field, long long *out)
{
    switch (field) {
    case OCC_DIFF_REGS: *out = k->regs; return true;
    case OCC_DIFF_SPILL_STORES: *out = k->spill_store_bytes; return *out != OCC_INSPECT_UNKNOWN;
    case OCC_DIFF_SPILL_LOADS: *out = k->spill_load_bytes; return *out != OCC_INSPECT_UNKNOWN;
    case OCC_DIFF_SPILL_INSTRUCTIONS: *out = k->spill_instructions; return true;
    case OCC_DIFF_STACK: *out = k->stack_bytes; return true;
    case OCC_DIFF_SMEM: *out = k->smem_bytes; return true;
    case OCC_DIFF_BARRIERS: *out = k->barriers; return *out != OCC_INSPECT_UNKNOWN;
    case OCC_DIFF_MAX_REGS: *out = k->max_regs; return *out > 0;
    case OCC_DIFF_THREADS: *out = k->threads; return k->has_occupancy;
    case OCC_DIFF_BLOCKS: *out = k->blocks_per_sm; return k->has_occupancy;
    default: return false;
    }
}

double occ_diff_occupancy_percent(const occ_inspect_kernel *k)
{
    return k->has_occupancy ? k->occupancy * 100.0 : 0.0;
}

long long occ_diff_spill_bytes(const occ_inspect_kernel *k)
{
    return (k->spill_store_bytes > 0 ? k->spill_store_bytes : 0) +
           (k->spill_load_bytes > 0 ? k->spill_load_bytes : 0);
}

bool occ_diff_field_differs(const occ_inspect_kernel *a, const occ_inspect_kernel *b,
                            occ_diff_field field)
{
    const int *da = dims_of(a, field);
    if (da != NULL) {
        return memcmp(da, dims_of(b, field), 3 * sizeof *da) != 0;
    }
    if (field == OCC_DIFF_OCCUPANCY) {
        /* whole warps, not doubles: the same fraction compares equal exactly */
        return a->has_occupancy != b->has_occupancy ||
               (a->has_occupancy &&
                (a->warps_per_sm != b->warps_per_sm || a->max_warps_per_sm != b->max_warps_per_sm));
    }
    if (field == OCC_DIFF_LIMITER) {
        return a->has_occupancy != b->has_occupancy ||
               (a->has_occupancy ? a->limiters != b->limiters
                                 : (a->note == NULL) != (b->note == NULL) ||
                                       (a->note != NULL && strcmp(a->note, b->note) != 0));
    }
    long long x = 0;
    long long y = 0;
    bool hx = int_of(a, field, &x);
    bool hy = int_of(b, field, &y);
    return hx != hy || (hx && x != y);
}

const char *occ_diff_field_text(const occ_inspect_kernel *k, occ_diff_field field, char *buf,
                                size_t cap)
{
    const int *d = dims_of(k, field);
    long long v;
    if (d != NULL) {
        if (d[0] == 0 && d[1] == 0 && d[2] == 0) {
            snprintf(buf, cap, "-");
        } else if (d[1] <= 1 && d[2] <= 1) {
            snprintf(buf, cap, "%d", d[0]);
        } else {
            snprintf(buf, cap, "%dx%dx%d", d[0], d[1], d[2]);
        }
    } else if (field == OCC_DIFF_OCCUPANCY) {
        if (k->has_occupancy) {
            snprintf(buf, cap, "%.1f%%", k->occupancy * 100.0);
        } else {
            snprintf(buf, cap, "-");
        }
    } else if (field == OCC_DIFF_LIMITER) {
        occ_inspect_limiter_text(k, buf, cap);
    } else if (int_of(k, field, &v)) {
        snprintf(buf, cap, "%lld", v);
    } else {
        snprintf(buf, cap, "-");
    }
    return buf;
}

const char *occ_diff_field_json(const occ_inspect_kernel *k, occ_diff_field field, char *buf,
                                size_t cap)
{
    const int *d = dims_of(k, field);
    long long v;
    if (d != NULL) {
        if (d[0] == 0 && d[1] == 0 && d[2] == 0) {
            snprintf(buf, cap, "null");
        } else {
            snprintf(buf, cap, "[%d,%d,%d]", d[0], d[1], d[2]);
        }
    } else if (field == OCC_DIFF_OCCUPANCY) {
        if (k->has_occupancy) {
            /* as jansson and occ inspect --json write a real: %.17g (which
               round-trips a double), with ".0" on an integral value */
            int n = snprintf(buf, cap, "%.17g", k->occupancy);
            if (n > 0 && (size_t)n + 2 < cap && strpbrk(buf, ".eEn") == NULL) {
                memcpy(buf + n, ".0", 3);
            }
        } else {
            snprintf(buf, cap, "null");
        }
    } else if (field == OCC_DIFF_LIMITER) {
        if (!k->has_occupancy) {
            snprintf(buf, cap, "null");
            return buf;
        }
        char names[64];
        occ_limiter_list(k->blocks_per_sm > 0 ? k->limiters : 0, names, sizeof names);
        size_t used = (size_t)snprintf(buf, cap, "[");
        char *save = NULL;
        int n = 0;
        for (char *name = strtok_r(names, "+", &save); name != NULL && used < cap;
             name = strtok_r(NULL, "+", &save)) {
            used += (size_t)snprintf(buf + used, cap - used, "%s\"%s\"", n++ > 0 ? "," : "", name);
        }
        if (used < cap) {
            snprintf(buf + used, cap - used, "]");
        }
    } else if (int_of(k, field, &v)) {
        snprintf(buf, cap, "%lld", v);
    } else {
        snprintf(buf, cap, "null");
    }
    return buf;
}

unsigned occ_diff_one_side_fields(const occ_inspect_kernel *a, const occ_inspect_kernel *b)
{
    if (a->from_log == b->from_log) {
        return 0;
    }
    const occ_inspect_kernel *binary = a->from_log ? b : a;
    uint32_t bits = 1u << OCC_DIFF_SPILL_STORES | 1u << OCC_DIFF_SPILL_LOADS |
                    1u << OCC_DIFF_SPILL_INSTRUCTIONS | 1u << OCC_DIFF_MAX_THREADS |
                    1u << OCC_DIFF_REQ_THREADS | 1u << OCC_DIFF_MAX_REGS | 1u << OCC_DIFF_CLUSTER;
    /* the occupancy too, where the binary's rests on what the log lacks:
       its bounds choose the block size, its cluster dims the launch */
    if (binary->max_threads[0] > 0 || binary->req_threads[0] > 0 || binary->cluster_dims[0] > 0) {
        bits |= 1u << OCC_DIFF_THREADS | 1u << OCC_DIFF_BLOCKS | 1u << OCC_DIFF_OCCUPANCY |
                1u << OCC_DIFF_LIMITER;
    }
    return bits;
}

const char *occ_diff_one_side_text(unsigned bits, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int f = 0; f < OCC_DIFF_FIELD_COUNT; f++) {
        if ((bits >> f) & 1u) {
            int w = snprintf(buf + n, cap - n, "%s%s", n > 0 ? ", " : "", keys[f]);
            n = w > 0 && (size_t)w < cap - n ? n + (size_t)w : cap - 1;
        }
    }
    return buf;
}
