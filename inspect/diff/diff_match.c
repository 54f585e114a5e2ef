/*
 * diff_match.c - which kernel of the new build is which of the old one.
 *
 * Kernels are matched by arch and mangled name. Both sides are sorted by a
 * hash of (arch, mangled name), then by the name itself, then by the values
 * compared, and walked together: within one (arch, name), identical kernels
 * pair off first (unchanged), the rest pair in order (changed), and what is
 * left is added or removed. A kernel whose name changed but whose demangled
 * base name (without its return type and parameters, or the per-file prefix
 * nvcc gives internal-linkage kernels) and resources match is moved, not
 * added and removed. Sorting rather than a table of every name keeps memory
 * at two arrays of pointers; comparing hashes first keeps the sort cheap on
 * libraries whose templated names share long prefixes.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "diff_internal.h"

typedef struct keyed {
    const occ_inspect_kernel *k;
    uint64_t hash;
    const char *base; /* moved matching: the base name, not NUL-terminated */
    size_t base_len;
} keyed;

/* FNV-1a (64-bit) over the bytes, continued from `h`. */
static uint64_t fnv(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h = (h ^ p[i]) * 1099511628211ull;
    }
    return h;
}

#define FNV_OFFSET 14695981039346656037ull

static uint64_t arch_hash(uint64_t h, const occ_inspect_kernel *k)
{
    int arch[2] = {k->sm, k->arch_suffix};
    return fnv(h, arch, sizeof arch);
}

/* A name's hash, eight bytes at a time (the mangled names of a large library
   are tens of MB, and a byte at a time cost a fifth of a read): each word is
   mixed by a multiply and a shift, the tail byte-wise by FNV-1a. Only equal
   names need equal hashes; the names themselves decide. */
static uint64_t name_hash(const char *name, size_t len)
{
    uint64_t h = FNV_OFFSET ^ len;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, name + i, 8);
        h = (h ^ w) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 29;
    }
    return fnv(h, name + i, len - i);
}

static int compare_int(long long a, long long b)
{
    return (a > b) - (a < b);
}

static int compare_arch(const occ_inspect_kernel *a, const occ_inspect_kernel *b)
{
    int c = compare_int(a->sm, b->sm);
    return c != 0 ? c : compare_int(a->arch_suffix, b->arch_suffix);
}

/* The compared values, in a fixed order (kind and -rdc first, so that
   kernels pair with kernels of their own kind). */
static int compare_values(const occ_inspect_kernel *a, const occ_inspect_kernel *b)
{
    const long long x[] = {a->is_kernel,
                           a->relocatable,
                           a->regs,
                           a->spill_store_bytes,
                           a->spill_load_bytes,
                           a->spill_instructions,
                           a->stack_bytes,
                           a->smem_bytes,
                           a->barriers,
                           a->max_threads[0],
                           a->max_threads[1],
                           a->max_threads[2],
                           a->req_threads[0],
                           a->req_threads[1],
                           a->req_threads[2],
                           a->max_regs,
                           a->cluster_dims[0],
                           a->cluster_dims[1],
                           a->cluster_dims[2],
                           a->has_occupancy,
                           a->has_occupancy ? a->threads : 0,
                           a->has_occupancy ? a->blocks_per_sm : 0,
                           a->has_occupancy ? a->warps_per_sm : 0,
                           a->has_occupancy ? a->max_warps_per_sm : 0,
                           a->has_occupancy ? (long long)a->limiters : 0};
    const long long y[] = {b->is_kernel,
                           b->relocatable,
                           b->regs,
                           b->spill_store_bytes,
                           b->spill_load_bytes,
                           b->spill_instructions,
                           b->stack_bytes,
                           b->smem_bytes,
                           b->barriers,
                           b->max_threads[0],
                           b->max_threads[1],
                           b->max_threads[2],
                           b->req_threads[0],
                           b->req_threads[1],
                           b->req_threads[2],
                           b->max_regs,
                           b->cluster_dims[0],
                           b->cluster_dims[1],
                           b->cluster_dims[2],
                           b->has_occupancy,
                           b->has_occupancy ? b->threads : 0,
                           b->has_occupancy ? b->blocks_per_sm : 0,
                           b->has_occupancy ? b->warps_per_sm : 0,
                           b->has_occupancy ? b->max_warps_per_sm : 0,
                           b->has_occupancy ? (long long)b->limiters : 0};
    for (size_t i = 0; i < sizeof x / sizeof x[0]; i++) {
        if (x[i] != y[i]) {
            return x[i] < y[i] ? -1 : 1;
        }
    }
    /* a kernel without an occupancy says why; a changed reason is a change */
    if (!a->has_occupancy && (a->note != NULL || b->note != NULL)) {
        return strcmp(a->note != NULL ? a->note : "", b->note != NULL ? b->note : "");
    }
    return 0;
}

/* The same (arch, mangled name, launch): with --launches a kernel has a
   row per launch configuration, and both sides have the same list. */
static int compare_key(const keyed *a, const keyed *b)
{
    if (a->hash != b->hash) {
        return a->hash < b->hash ? -1 : 1;
    }
    int c = strcmp(a->k->mangled, b->k->mangled);
    c = c != 0 ? c : compare_arch(a->k, b->k);
    return c != 0 ? c : compare_int(a->k->launch_index, b->k->launch_index);
}

static int compare_keyed(const void *pa, const void *pb)
{
    const keyed *a = pa;
    const keyed *b = pb;
    int c = compare_key(a, b);
    return c != 0 ? c : compare_values(a->k, b->k);
}

/* ---- moved: the base name and the resources ----------------------------- */

/* nvcc names an internal-linkage (static) kernel __nv_static_<...>_<file
   hash>__<mangled name>: the prefix changes when the file does. */
#define NV_STATIC_PREFIX "__nv_static_"

/* The demangled name without return type and parameters: "ns::k<int>" of
   "void ns::k<int>(float*, int)"; the mangled name after the per-file
   prefix of a static kernel (libiberty does not demangle those). */
static void base_name(const occ_inspect_kernel *k, const char **out, size_t *len)
{
    const char *s = k->name;
    size_t n = strlen(s);
    if (strncmp(s, NV_STATIC_PREFIX, sizeof NV_STATIC_PREFIX - 1) == 0) {
        const char *z = strstr(s + sizeof NV_STATIC_PREFIX - 1, "__Z");
        if (z != NULL) {
            *out = z + 2;
            *len = strlen(z + 2);
            return;
        }
    }
    if (n > 0 && s[n - 1] == ')') {
        /* the parameter list: from the last ')' back to its '(' */
        int depth = 0;
        size_t i = n;
        while (i > 0) {
            i--;
            if (s[i] == ')') {
                depth++;
            } else if (s[i] == '(' && --depth == 0) {
                n = i;
                break;
            }
        }
    }
    /* the return type ends at the last space outside <> and () */
    size_t start = 0;
    int angle = 0;
    int paren = 0;
    for (size_t i = 0; i < n; i++) {
        switch (s[i]) {
        case '<': angle++; break;
        case '>': angle--; break;
        case '(': paren++; break;
        case ')': paren--; break;
        case ' ':
            if (angle == 0 && paren == 0) {
                start = i + 1;
            }
            break;
        default: break;
        }
    }
    *out = s + start;
    *len = n - start;
}

/* What must match for a renamed kernel to count as moved: every resource
   (not its parameters, which a rename may change, nor the occupancy, which
   follows from the resources). */
static int compare_resources(const occ_inspect_kernel *a, const occ_inspect_kernel *b)
{
    const long long x[] = {a->is_kernel,         a->relocatable,      a->regs,
                           a->spill_store_bytes, a->spill_load_bytes, a->spill_instructions,
                           a->stack_bytes,       a->frame_bytes,      a->smem_bytes,
                           a->barriers,          a->max_threads[0],   a->max_threads[1],
                           a->max_threads[2],    a->req_threads[0],   a->req_threads[1],
                           a->req_threads[2],    a->max_regs,         a->cluster_dims[0],
                           a->cluster_dims[1],   a->cluster_dims[2],  a->explicit_cluster};
    const long long y[] = {b->is_kernel,         b->relocatable,      b->regs,
                           b->spill_store_bytes, b->spill_load_bytes, b->spill_instructions,
                           b->stack_bytes,       b->frame_bytes,      b->smem_bytes,
                           b->barriers,          b->max_threads[0],   b->max_threads[1],
                           b->max_threads[2],    b->req_threads[0],   b->req_threads[1],
                           b->req_threads[2],    b->max_regs,         b->cluster_dims[0],
                           b->cluster_dims[1],   b->cluster_dims[2],  b->explicit_cluster};
    for (size_t i = 0; i < sizeof x / sizeof x[0]; i++) {
        if (x[i] != y[i]) {
            return x[i] < y[i] ? -1 : 1;
        }
    }
    return 0;
}

static int compare_moved(const void *pa, const void *pb)
{
    const keyed *a = pa;
    const keyed *b = pb;
    if (a->hash != b->hash) {
        return a->hash < b->hash ? -1 : 1;
    }
    size_t n = a->base_len < b->base_len ? a->base_len : b->base_len;
    int c = memcmp(a->base, b->base, n);
    if (c == 0) {
        c = compare_int((long long)a->base_len, (long long)b->base_len);
    }
    if (c == 0) {
        c = compare_arch(a->k, b->k);
    }
    if (c == 0) {
        c = compare_resources(a->k, b->k);
    }
    /* then by mangled name, so that pairing does not depend on the sort */
    return c != 0 ? c : strcmp(a->k->mangled, b->k->mangled);
}

static void set_moved_key(keyed *e)
{
    base_name(e->k, &e->base, &e->base_len);
    e->hash = arch_hash(fnv(FNV_OFFSET, e->base, e->base_len), e->k);
}

static bool same_moved(const keyed *a, const keyed *b)
{
    return a->hash == b->hash && a->base_len == b->base_len &&
           memcmp(a->base, b->base, a->base_len) == 0 && compare_arch(a->k, b->k) == 0 &&
           compare_resources(a->k, b->k) == 0;
}

/* ---- the report ----------------------------------------------------------- */

typedef struct builder {
    occ_diff_report *report;
    size_t cap;
    bool failed;
} builder;

static void add_entry(builder *b, occ_diff_status status, const occ_inspect_kernel *old_k,
                      const occ_inspect_kernel *new_k)
{
    occ_diff_report *r = b->report;
    uint32_t changed = 0;
    if (old_k != NULL && new_k != NULL) {
        uint32_t unknowable = occ_diff_one_side_fields(old_k, new_k);
        for (int f = 0; f < OCC_DIFF_FIELD_COUNT; f++) {
            if (occ_diff_field_differs(old_k, new_k, (occ_diff_field)f)) {
                if ((unknowable >> f) & 1u) {
                    r->one_side_only |= 1u << f; /* said once, not counted */
                } else {
                    changed |= 1u << f;
                }
            }
        }
        if (status == OCC_DIFF_CHANGED && changed == 0) {
            r->unchanged++; /* what differed is what one side cannot know */
            return;
        }
    }
    if (r->entry_count == b->cap) {
        size_t cap = b->cap > 0 ? b->cap * 2 : 64;
        occ_diff_entry *bigger = realloc(r->entries, cap * sizeof *bigger);
        if (bigger == NULL) {
            b->failed = true;
            return;
        }
        r->entries = bigger;
        b->cap = cap;
    }
    occ_diff_entry *e = &r->entries[r->entry_count++];
    memset(e, 0, sizeof *e);
    e->status = status;
    e->old_k = old_k;
    e->new_k = new_k;
    e->changed = changed;
    occ_inspect_risk_of(new_k != NULL ? new_k : old_k, r->read, &e->risk);
    switch (status) {
    case OCC_DIFF_CHANGED: r->changed++; break;
    case OCC_DIFF_ADDED: r->added++; break;
    case OCC_DIFF_REMOVED: r->removed++; break;
    case OCC_DIFF_MOVED: r->moved++; break;
    }
}

static keyed *keyed_side(const occ_inspect_result *r, const occ_inspect_options *read,
                         occ_diff_side *side)
{
    size_t n = occ_inspect_kernel_count(r);
    keyed *v = malloc((n > 0 ? n : 1) * sizeof *v);
    if (v == NULL) {
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        const occ_inspect_kernel *k = occ_inspect_kernel_at(r, i);
        uint64_t h = arch_hash(name_hash(k->mangled, strlen(k->mangled)), k);
        v[i] = (keyed){k, fnv(h, &k->launch_index, sizeof k->launch_index), NULL, 0};
        occ_inspect_risk flags;
        occ_inspect_risk_flags(k, read, &flags);
        side->at_ceiling += flags.at_ceiling;
        side->spilling += flags.spilling;
    }
    qsort(v, n, sizeof *v, compare_keyed);
    return v;
}

/* Renamed kernels among the removed and added ones. */
static bool find_moved(builder *b, keyed *removed, size_t nr, keyed *added, size_t na)
{
    for (size_t i = 0; i < nr; i++) {
        set_moved_key(&removed[i]);
    }
    for (size_t i = 0; i < na; i++) {
        set_moved_key(&added[i]);
    }
    qsort(removed, nr, sizeof *removed, compare_moved);
    qsort(added, na, sizeof *added, compare_moved);
    size_t i = 0;
    size_t j = 0;
    while (i < nr || j < na) {
        int c = i == nr ? 1 : j == na ? -1 : compare_moved(&removed[i], &added[j]);
        if (c != 0 && i < nr && j < na && same_moved(&removed[i], &added[j])) {
            c = 0; /* same base and resources, other mangled names: a move */
        }
        if (c == 0) {
            add_entry(b, OCC_DIFF_MOVED, removed[i++].k, added[j++].k);
        } else if (c < 0) {
            add_entry(b, OCC_DIFF_REMOVED, removed[i++].k, NULL);
        } else {
            add_entry(b, OCC_DIFF_ADDED, NULL, added[j++].k);
        }
    }
    return !b->failed;
}

typedef struct side_job {
    occ_diff_side *side;
    const occ_inspect_options *read;
    keyed *v;
    pthread_t thread;
} side_job;

static void *keyed_job(void *context)
{
    side_job *job = context;
    job->v = keyed_side(job->side->result, job->read, job->side);
    return NULL;
}

bool insp_diff_match(occ_diff_report *report)
{
    builder b = {report, 0, false};
    size_t no = occ_inspect_kernel_count(report->old_side.result);
    size_t nn = occ_inspect_kernel_count(report->new_side.result);
    /* each side hashed and sorted on its own thread */
    side_job old_job = {&report->old_side, report->read, NULL, 0};
    bool threaded = pthread_create(&old_job.thread, NULL, keyed_job, &old_job) == 0;
    if (!threaded) {
        keyed_job(&old_job);
    }
    keyed *new_v = keyed_side(report->new_side.result, report->read, &report->new_side);
    if (threaded) {
        pthread_join(old_job.thread, NULL);
    }
    keyed *old_v = old_job.v;
    keyed *removed = malloc((no > 0 ? no : 1) * sizeof *removed);
    keyed *added = malloc((nn > 0 ? nn : 1) * sizeof *added);
    if (old_v == NULL || new_v == NULL || removed == NULL || added == NULL) {
        free(old_v);
        free(new_v);
        free(removed);
        free(added);
        return false;
    }
    size_t nr = 0;
    size_t na = 0;
    size_t i = 0;
    size_t j = 0;
    while (i < no || j < nn) {
        int c = i == no ? 1 : j == nn ? -1 : compare_key(&old_v[i], &new_v[j]);
        if (c < 0) {
            removed[nr++] = old_v[i++];
            continue;
        }
        if (c > 0) {
            added[na++] = new_v[j++];
            continue;
        }
        /* one (arch, name) on both sides: [i, ie) and [j, je), each sorted by value */
        size_t ie = i + 1;
        size_t je = j + 1;
        while (ie < no && compare_key(&old_v[ie], &old_v[i]) == 0) {
            ie++;
        }
        while (je < nn && compare_key(&new_v[je], &new_v[j]) == 0) {
            je++;
        }
        size_t first_old = nr;
        size_t first_new = na;
        while (i < ie && j < je) {
            int v = compare_values(old_v[i].k, new_v[j].k);
            if (v == 0) {
                report->unchanged++;
                i++;
                j++;
            } else if (v < 0) {
                removed[nr++] = old_v[i++];
            } else {
                added[na++] = new_v[j++];
            }
        }
        while (i < ie) {
            removed[nr++] = old_v[i++];
        }
        while (j < je) {
            added[na++] = new_v[j++];
        }
        /* what is left of the name pairs in order: changed; the pairs then
           leave both lists, whose tails are this name's rows */
        size_t left_old = nr - first_old;
        size_t left_new = na - first_new;
        size_t pairs = left_old < left_new ? left_old : left_new;
        for (size_t p = 0; p < pairs; p++) {
            add_entry(&b, OCC_DIFF_CHANGED, removed[first_old + p].k, added[first_new + p].k);
        }
        memmove(&removed[first_old], &removed[first_old + pairs],
                (left_old - pairs) * sizeof *removed);
        memmove(&added[first_new], &added[first_new + pairs], (left_new - pairs) * sizeof *added);
        nr -= pairs;
        na -= pairs;
    }
    bool ok = !b.failed && find_moved(&b, removed, nr, added, na);
    free(old_v);
    free(new_v);
    free(removed);
    free(added);
    return ok;
}
