/*
 * launches.c - the launches a program makes, given to the kernels of the
 * binaries read (occ_inspect_apply_launches, include/occ_inspect.h).
 *
 * A profile names a kernel demangled by its own demangler (CUPTI's), which
 * spaces template arguments its own way ("foo<int, 4>" against libiberty's
 * "foo<int, 4>" or "foo<int,4>"), so names are compared with white space
 * ignored; a launch that carries the mangled name is matched by it, and a
 * name that is a kernel's mangled name (a table's "_Z5scalePfi") by that.
 * These go through hash tables, so a profile of 200,000 groups against
 * 100,000 kernels costs one pass over each.
 *
 * A table's name with glob characters is a glob only where it names no
 * kernel: nearly every demangled signature with a pointer holds a '*'
 * ("scale(float*, int)"), and read as a glob it would match the name only
 * as spaced, and other kernels besides ("scale(float2*, int)"). A glob is
 * tried against every kernel, white space ignored as in names.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

const char *occ_inspect_launch_source_name(int source)
{
    switch (source) {
    case OCC_INSPECT_LAUNCH_API: return "api";
    case OCC_INSPECT_LAUNCH_THREADS: return "threads";
    case OCC_INSPECT_LAUNCH_PROFILE: return "profile";
    case OCC_INSPECT_LAUNCH_TABLE: return "table";
    default: return "unknown";
    }
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* FNV-1a of the name's bytes other than white space. */
static uint64_t spaceless_hash(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++) {
        if (!is_space(*s)) {
            h = (h ^ (unsigned char)*s) * 1099511628211ULL;
        }
    }
    return h;
}

static bool spaceless_equal(const char *a, const char *b)
{
    for (;;) {
        while (is_space(*a)) {
            a++;
        }
        while (is_space(*b)) {
            b++;
        }
        if (*a != *b) {
            return false;
        }
        if (*a == '\0') {
            return true;
        }
        a++;
        b++;
    }
}

static uint64_t plain_hash(const char *s)
{
    return inspect_name_hash(s, strlen(s));
}

/* Rows by a key: open addressing over row indices (+1; 0 is empty). Rows
   with the same key chain on through `next`. */
typedef struct row_index {
    size_t *slots;
    uint64_t *hashes;
    size_t cap;   /* a power of two */
    size_t *next; /* per row: the next row with the same key, +1 */
} row_index;

static bool index_init(row_index *ix, size_t rows)
{
    ix->cap = 16;
    while (ix->cap < 2 * rows + 1) {
        ix->cap *= 2;
    }
    ix->slots = calloc(ix->cap, sizeof *ix->slots);
    ix->hashes = calloc(ix->cap, sizeof *ix->hashes);
    ix->next = calloc(rows + 1, sizeof *ix->next);
    return ix->slots != NULL && ix->hashes != NULL && ix->next != NULL;
}

static void index_free(row_index *ix)
{
    free(ix->slots);
    free(ix->hashes);
    free(ix->next);
}

typedef bool (*key_equal)(const char *a, const char *b);

static void index_add(row_index *ix, const inspect_row *rows, size_t row, uint64_t h,
                      const char *(*key)(const inspect_row *), key_equal eq)
{
    size_t at = (size_t)h & (ix->cap - 1);
    while (ix->slots[at] != 0) {
        size_t first = ix->slots[at] - 1;
        if (ix->hashes[at] == h && eq(key(&rows[first]), key(&rows[row]))) {
            ix->next[row] = ix->next[first]; /* after the first of its key */
            ix->next[first] = row + 1;
            return;
        }
        at = (at + 1) & (ix->cap - 1);
    }
    ix->slots[at] = row + 1;
    ix->hashes[at] = h;
}

/* The first row with the key (+1), 0 if none. */
static size_t index_find(const row_index *ix, const inspect_row *rows, const char *text, uint64_t h,
                         const char *(*key)(const inspect_row *), key_equal eq)
{
    size_t at = (size_t)h & (ix->cap - 1);
    while (ix->slots[at] != 0) {
        size_t first = ix->slots[at] - 1;
        if (ix->hashes[at] == h && eq(key(&rows[first]), text)) {
            return first + 1;
        }
        at = (at + 1) & (ix->cap - 1);
    }
    return 0;
}

static const char *printed_of(const inspect_row *row)
{
    return row->k.name;
}

static const char *mangled_of(const inspect_row *row)
{
    return row->k.mangled;
}

static bool plain_equal(const char *a, const char *b)
{
    return strcmp(a, b) == 0;
}

/* A kernel a launch may be given to: a kernel, on the GPU asked for. */
static bool launchable(const inspect_row *row)
{
    return row->k.is_kernel && row->k.note != inspect_note_wrong_arch;
}

static occ_status check_launch(const occ_inspect_launch *l, size_t i, occ_inspect_error *err)
{
    if (l->name == NULL || l->name[0] == '\0') {
        return inspect_fail(err, OCC_ERR_INVALID_ARGUMENT, -1, -1, "launch %zu has no kernel name",
                            i);
    }
    long long threads = 1;
    for (int d = 0; d < 3; d++) {
        int v = l->block[d] == 0 && d > 0 ? 1 : l->block[d];
        if (v < 1 || v > 1024) {
            return inspect_fail(err, OCC_ERR_INVALID_ARGUMENT, -1, -1,
                                "launch %zu (%.200s): block dimension %d is outside 1..1024", i,
                                l->name, l->block[d]);
        }
        threads *= v;
        if (l->cluster[d] < 0 || l->cluster[d] > OCC_CLUSTER_OCCUPANCY_MAX) {
            return inspect_fail(err, OCC_ERR_INVALID_ARGUMENT, -1, -1,
                                "launch %zu (%.200s): cluster dimension %d is outside 0..%d", i,
                                l->name, l->cluster[d], OCC_CLUSTER_OCCUPANCY_MAX);
        }
    }
    if (threads > 1024) {
        return inspect_fail(err, OCC_ERR_INVALID_ARGUMENT, -1, -1,
                            "launch %zu (%.200s): %lld threads per block, above 1024", i, l->name,
                            threads);
    }
    if ((l->dyn_smem_bytes < 0 && l->dyn_smem_bytes != OCC_INSPECT_UNKNOWN) ||
        (l->smem_total_bytes < 0 && l->smem_total_bytes != OCC_INSPECT_UNKNOWN)) {
        return inspect_fail(err, OCC_ERR_INVALID_ARGUMENT, -1, -1,
                            "launch %zu (%.200s): a negative shared memory size", i, l->name);
    }
    if (!(l->weight >= 0.0) || l->grid_blocks < 0) {
        return inspect_fail(err, OCC_ERR_INVALID_ARGUMENT, -1, -1,
                            "launch %zu (%.200s): a negative weight or grid", i, l->name);
    }
    if (l->carveout_percent != OCC_CARVEOUT_DEFAULT &&
        (l->carveout_percent < 0 || l->carveout_percent > 100)) {
        return inspect_fail(err, OCC_ERR_INVALID_ARGUMENT, -1, -1,
                            "launch %zu (%.200s): carveout %d%% is outside 0..100", i, l->name,
                            l->carveout_percent);
    }
    if (l->source != OCC_INSPECT_LAUNCH_PROFILE && l->source != OCC_INSPECT_LAUNCH_TABLE) {
        return inspect_fail(err, OCC_ERR_INVALID_ARGUMENT, -1, -1,
                            "launch %zu (%.200s): source %d is not a profile or a table", i,
                            l->name, l->source);
    }
    return OCC_OK;
}

/* A (row, launch) pair; pairs are kept in row order, then launch order. */
typedef struct pair {
    size_t row, launch;
} pair;

static int by_row_then_launch(const void *pa, const void *pb)
{
    const pair *a = pa, *b = pb;
    if (a->row != b->row) {
        return a->row < b->row ? -1 : 1;
    }
    return a->launch < b->launch ? -1 : a->launch > b->launch;
}

typedef struct pairs {
    pair *items;
    size_t count, cap;
} pairs;

static bool pairs_add(pairs *p, size_t row, size_t launch)
{
    if (p->count == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 1024;
        pair *items = realloc(p->items, cap * sizeof *items);
        if (items == NULL) {
            return false;
        }
        p->items = items;
        p->cap = cap;
    }
    p->items[p->count++] = (pair){row, launch};
    return true;
}

/* The first row (+1) that launch l names, 0 if none; *next gets the chain
   of rows with the same key. By the mangled name it carries, else its name
   as a kernel's mangled name, else as a printed name, white space ignored.
   Every row counts, launchable or not: a name that names a kernel of
   another arch is still that kernel's, not a glob. */
static size_t named_row(const occ_inspect_result *r, const occ_inspect_launch *l,
                        const row_index *by_mangled, const row_index *by_printed,
                        const size_t **next)
{
    size_t first = 0;
    *next = by_mangled->next;
    if (l->mangled != NULL && l->mangled[0] != '\0') {
        first = index_find(by_mangled, r->rows, l->mangled, plain_hash(l->mangled), mangled_of,
                           plain_equal);
    }
    if (first == 0) {
        first =
            index_find(by_mangled, r->rows, l->name, plain_hash(l->name), mangled_of, plain_equal);
    }
    if (first == 0) {
        first = index_find(by_printed, r->rows, l->name, spaceless_hash(l->name), printed_of,
                           spaceless_equal);
        *next = by_printed->next;
    }
    return first;
}

/* Room for a copy of text without its white space. */
typedef struct scratch {
    char *text;
    size_t cap;
} scratch;

/* text without white space: text itself where it has none, else a copy in
   s; NULL when memory runs out. */
static const char *spaceless(const char *text, scratch *s)
{
    if (strpbrk(text, " \t\n\r") == NULL) {
        return text;
    }
    size_t len = strlen(text);
    if (len + 1 > s->cap) {
        char *grown = realloc(s->text, len + 1);
        if (grown == NULL) {
            return NULL;
        }
        s->text = grown;
        s->cap = len + 1;
    }
    char *o = s->text;
    for (; *text; text++) {
        if (!is_space(*text)) {
            *o++ = *text;
        }
    }
    *o = '\0';
    return s->text;
}

/* The launchable rows glob l matches (printed or mangled name, white space
   ignored in both the glob and the name), added to p. */
static bool match_glob(const occ_inspect_result *r, const occ_inspect_launch *l, size_t li,
                       pairs *p, size_t *found)
{
    scratch glob_copy = {0}, name_copy = {0};
    const char *glob = spaceless(l->name, &glob_copy);
    bool ok = glob != NULL;
    for (size_t i = 0; ok && i < r->row_count; i++) {
        const occ_inspect_kernel *k = &r->rows[i].k;
        if (!launchable(&r->rows[i])) {
            continue;
        }
        const char *name = spaceless(k->name, &name_copy);
        if (name == NULL) {
            ok = false;
        } else if (fnmatch(glob, name, 0) == 0 || fnmatch(glob, k->mangled, 0) == 0) {
            ok = pairs_add(p, i, li);
            (*found)++;
        }
    }
    free(glob_copy.text);
    free(name_copy.text);
    return ok;
}

/* The rows launch l matches, added to p: those it names, or where it names
   none and is a glob, those the glob matches. */
static bool match_one(const occ_inspect_result *r, const occ_inspect_launch *l, size_t li,
                      const row_index *by_mangled, const row_index *by_printed, pairs *p,
                      size_t *found)
{
    *found = 0;
    const size_t *next;
    size_t first = named_row(r, l, by_mangled, by_printed, &next);
    if (first == 0 && l->glob) {
        return match_glob(r, l, li, p, found);
    }
    for (size_t at = first; at != 0; at = next[at - 1]) {
        if (launchable(&r->rows[at - 1])) {
            if (!pairs_add(p, at - 1, li)) {
                return false;
            }
            (*found)++;
        }
    }
    return true;
}

static int dyn_smem_of(const occ_inspect_launch *l, const occ_inspect_kernel *k,
                       const occ_inspect_options *opts)
{
    if (l->dyn_smem_bytes != OCC_INSPECT_UNKNOWN) {
        return l->dyn_smem_bytes;
    }
    if (l->smem_total_bytes != OCC_INSPECT_UNKNOWN) {
        int dyn = l->smem_total_bytes - k->smem_bytes;
        return dyn > 0 ? dyn : 0;
    }
    return opts->dyn_smem_bytes;
}

occ_status occ_inspect_apply_launches(occ_inspect_result *r, const occ_inspect_options *options,
                                      const occ_inspect_launch *launches, size_t count,
                                      bool *matched, occ_inspect_launch_match *out,
                                      occ_inspect_error *err)
{
    if (r == NULL || options == NULL || (launches == NULL && count > 0)) {
        return inspect_fail(err, OCC_ERR_NULL_POINTER, -1, -1,
                            "result, options or launches is NULL");
    }
    if (count > (size_t)OCC_INSPECT_MAX_LAUNCH_ROWS) {
        return inspect_fail(err, OCC_ERR_LIMIT, -1, -1, "%zu launches: more than %d", count,
                            OCC_INSPECT_MAX_LAUNCH_ROWS);
    }
    occ_inspect_launch_match m = {0};
    m.launches = count;
    for (size_t i = 0; i < count; i++) {
        occ_status st = check_launch(&launches[i], i, err);
        if (st != OCC_OK) {
            return st;
        }
        m.weight += launches[i].weight;
    }
    row_index by_mangled = {0}, by_printed = {0};
    pairs p = {0};
    occ_status st = OCC_OK;
    if (!index_init(&by_mangled, r->row_count) || !index_init(&by_printed, r->row_count)) {
        st = inspect_fail(err, OCC_ERR_OUT_OF_MEMORY, -1, -1, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < r->row_count; i++) {
        index_add(&by_mangled, r->rows, i, plain_hash(r->rows[i].k.mangled), mangled_of,
                  plain_equal);
        index_add(&by_printed, r->rows, i, spaceless_hash(r->rows[i].k.name), printed_of,
                  spaceless_equal);
    }
    for (size_t i = 0; i < count; i++) {
        size_t found;
        if (!match_one(r, &launches[i], i, &by_mangled, &by_printed, &p, &found)) {
            st = inspect_fail(err, OCC_ERR_OUT_OF_MEMORY, -1, -1, "out of memory");
            goto done;
        }
        if (matched != NULL) {
            matched[i] = found > 0;
        }
        if (found > 0) {
            m.matched++;
            m.matched_weight += launches[i].weight;
        }
        if (p.count > OCC_INSPECT_MAX_LAUNCH_ROWS) {
            st = inspect_fail(err, OCC_ERR_LIMIT, -1, -1,
                              "launches and kernels make more than %d rows (a glob too wide?)",
                              OCC_INSPECT_MAX_LAUNCH_ROWS);
            goto done;
        }
    }
    qsort(p.items, p.count, sizeof *p.items, by_row_then_launch);
    /* the rows: each kernel's launches in its place, the rest as they were */
    size_t launched = 0;
    for (size_t i = 0; i < p.count; i++) {
        launched += i == 0 || p.items[i].row != p.items[i - 1].row;
    }
    size_t rows = r->row_count - launched + p.count;
    inspect_row *out_rows = malloc((rows > 0 ? rows : 1) * sizeof *out_rows);
    if (out_rows == NULL) {
        st = inspect_fail(err, OCC_ERR_OUT_OF_MEMORY, -1, -1, "out of memory");
        goto done;
    }
    size_t o = 0, at = 0;
    for (size_t i = 0; i < r->row_count; i++) {
        if (at < p.count && p.items[at].row == i) {
            for (; at < p.count && p.items[at].row == i; at++) {
                const occ_inspect_launch *l = &launches[p.items[at].launch];
                inspect_row row = r->rows[i];
                int block[3] = {l->block[0], l->block[1] > 0 ? l->block[1] : 1,
                                l->block[2] > 0 ? l->block[2] : 1};
                inspect_compute_occupancy_at(&row.k, options, block[0] * block[1] * block[2],
                                             dyn_smem_of(l, &row.k, options), l->cluster,
                                             l->carveout_percent);
                row.k.launch_source = l->source;
                row.k.launch_index = (int)p.items[at].launch;
                memcpy(row.k.launch_block, block, sizeof block);
                out_rows[o++] = row;
            }
        } else {
            out_rows[o++] = r->rows[i];
        }
    }
    free(r->rows);
    r->rows = out_rows;
    r->row_count = o;
    m.rows = o;
    m.kernels_launched = launched;
done:
    free(p.items);
    index_free(&by_mangled);
    index_free(&by_printed);
    if (st == OCC_OK && out != NULL) {
        *out = m;
    }
    return st;
}
