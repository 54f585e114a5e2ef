/*
 * inspect_launches.c - `--launches FILE`: a profile's launch configurations
 * given to the kernels read (see inspect_launches.h).
 */
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "inspect_launches.h"
#include "json_stream.h"
#include "occ_profile.h"
#include "output.h"
#include "values.h"

/* The launch table's columns. */
enum {
    COL_KERNEL,
    COL_BLOCK,
    COL_DYN_SMEM,
    COL_CLUSTER,
    COL_GRID,
    COL_WEIGHT,
    COL_CARVEOUT,
    COL_COUNT
};
static const char *const column_names[COL_COUNT] = {"kernel", "block",  "dyn_smem", "cluster",
                                                    "grid",   "weight", "carveout"};

static bool table_fail(cli_error *err, const char *path, long long line, const char *column,
                       const char *why)
{
    return cli_error_set(err, EXIT_DATA, "--launches %s: line %lld: %s: %s", path, line, column,
                         why);
}

static bool glob_chars(const char *text)
{
    return strpbrk(text, "*?[") != NULL;
}

/* One row of the table into l (its name copied into set->names). */
static bool table_row(csv_reader *r, const int *column_of, inspect_launch_set *set,
                      occ_inspect_launch *l, cli_error *err)
{
    const char *v[COL_COUNT];
    for (int c = 0; c < COL_COUNT; c++) {
        v[c] = column_of[c] >= 0 ? csv_field(r, column_of[c]) : "";
    }
    if (v[COL_KERNEL][0] == '\0') {
        return table_fail(err, set->path, r->line, "kernel", "empty: give a name or a glob");
    }
    cli_error e;
    memset(l, 0, sizeof *l);
    if (!cli_parse_block(v[COL_BLOCK], l->block, &e)) {
        return table_fail(err, set->path, r->line, "block", e.message);
    }
    long long n;
    if (!cli_parse_size(v[COL_DYN_SMEM], &n, &e)) {
        return table_fail(err, set->path, r->line, "dyn_smem", e.message);
    }
    l->dyn_smem_bytes = (int)n;
    l->smem_total_bytes = OCC_INSPECT_UNKNOWN;
    if (v[COL_CLUSTER][0] != '\0' && !cli_parse_block(v[COL_CLUSTER], l->cluster, &e)) {
        return table_fail(err, set->path, r->line, "cluster", e.message);
    }
    if (v[COL_GRID][0] != '\0') {
        int grid[3];
        if (!cli_parse_block(v[COL_GRID], grid, &e)) {
            return table_fail(err, set->path, r->line, "grid", e.message);
        }
        l->grid_blocks = (long long)grid[0] * grid[1] * grid[2];
    }
    l->carveout_percent = OCC_CARVEOUT_DEFAULT;
    if (v[COL_CARVEOUT][0] != '\0') {
        if (!cli_parse_int(v[COL_CARVEOUT], 0, 100, &n, &e)) {
            return table_fail(err, set->path, r->line, "carveout", e.message);
        }
        l->carveout_percent = (int)n;
    }
    l->weight = 1.0;
    if (v[COL_WEIGHT][0] != '\0') {
        char *end;
        double w = strtod(v[COL_WEIGHT], &end);
        if (*end != '\0' || !(w >= 0.0 && w < 1e300)) {
            return table_fail(err, set->path, r->line, "weight",
                              "not a number of 0 or more (a share, a time, a count)");
        }
        l->weight = w;
    }
    char *name = strdup(v[COL_KERNEL]);
    if (name == NULL) {
        return cli_error_set(err, EXIT_DATA, "out of memory");
    }
    set->names[set->name_count++] = name;
    l->name = name;
    l->glob = glob_chars(name);
    l->source = OCC_INSPECT_LAUNCH_TABLE;
    return true;
}

/* The table whose header r just read. */
static bool load_table(csv_reader *r, inspect_launch_set *out, cli_error *err)
{
    int column_of[COL_COUNT];
    for (int c = 0; c < COL_COUNT; c++) {
        column_of[c] = -1;
    }
    for (int i = 0; i < r->field_count && i < r->max_fields; i++) {
        const char *name = csv_field(r, i);
        int c = 0;
        while (c < COL_COUNT && strcmp(name, column_names[c]) != 0) {
            c++;
        }
        if (c == COL_COUNT) {
            return table_fail(err, out->path, r->line, name,
                              "not a column (kernel, block, dyn_smem, cluster, grid, weight, "
                              "carveout)");
        }
        if (column_of[c] >= 0) {
            return table_fail(err, out->path, r->line, name, "appears twice");
        }
        column_of[c] = i;
    }
    for (int c = 0; c <= COL_DYN_SMEM; c++) {
        if (column_of[c] < 0) {
            return table_fail(err, out->path, r->line, column_names[c],
                              "missing: the header is kernel,block,dyn_smem[,cluster,grid,weight]");
        }
    }
    size_t cap = 0;
    for (;;) {
        csv_status st = csv_next(r);
        if (st == CSV_END) {
            return true;
        }
        if (st == CSV_READ_ERROR) {
            return cli_error_set(err, EXIT_DATA, "--launches %s: %s", out->path, r->error);
        }
        if (st != CSV_RECORD || r->unclosed_quote || r->text_after_quote || r->has_nul) {
            return table_fail(err, out->path, r->line, "row",
                              "not a CSV record (too long, a NUL byte, or a quote left open)");
        }
        if (out->count == INSPECT_LAUNCH_TABLE_MAX_ROWS) {
            return table_fail(err, out->path, r->line, "row", "more than 1000000 rows");
        }
        if (out->count == cap) {
            cap = cap ? cap * 2 : 64;
            occ_inspect_launch *l = realloc(out->launches, cap * sizeof *l);
            char **names = realloc(out->names, cap * sizeof *names);
            bool *matched = realloc(out->matched, cap * sizeof *matched);
            if (l != NULL) {
                out->launches = l;
            }
            if (names != NULL) {
                out->names = names;
            }
            if (matched != NULL) {
                out->matched = matched;
            }
            if (l == NULL || names == NULL || matched == NULL) {
                return cli_error_set(err, EXIT_DATA, "out of memory");
            }
        }
        if (!table_row(r, column_of, out, &out->launches[out->count], err)) {
            return false;
        }
        out->matched[out->count++] = false;
    }
}

/* A launch table when the file's first record starts with "kernel":
 *is_table, and the table read when it is one. */
static bool try_table(const char *path, inspect_launch_set *out, bool *is_table, cli_error *err)
{
    *is_table = false;
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return true; /* the profile reader says why */
    }
    csv_reader r;
    bool ok = true;
    if (!csv_init(&r, f, 4096, 16)) {
        fclose(f);
        return cli_error_set(err, EXIT_DATA, "out of memory");
    }
    if (csv_next(&r) == CSV_RECORD && !r.has_nul && strcmp(csv_field(&r, 0), "kernel") == 0) {
        *is_table = true;
        out->kind = "table";
        ok = load_table(&r, out, err);
    }
    csv_free(&r);
    fclose(f);
    return ok;
}

bool inspect_launches_load(const char *path, inspect_launch_set *out, cli_error *err)
{
    memset(out, 0, sizeof *out);
    out->path = path;
    out->kind = "profile";
    bool is_table;
    if (!try_table(path, out, &is_table, err)) {
        inspect_launches_free(out);
        return false;
    }
    if (is_table) {
        out->path = path;           /* (free cleared it on error only) */
        if (out->matched == NULL) { /* a header without rows */
            out->matched = calloc(1, sizeof *out->matched);
            out->launches = calloc(1, sizeof *out->launches);
            if (out->matched == NULL || out->launches == NULL) {
                inspect_launches_free(out);
                return cli_error_set(err, EXIT_DATA, "out of memory");
            }
        }
        return true;
    }
    occ_profile_input in = {path};
    occ_profile_options opts;
    occ_profile_options_init(&opts);
    occ_profile_result *r;
    occ_profile_error perr;
    if (occ_profile_read(&in, 1, &opts, &r, &perr) != OCC_OK) {
        return cli_error_set(err, EXIT_DATA, "--launches: %s", perr.message);
    }
    size_t n = occ_profile_group_count(r);
    out->launches = calloc(n > 0 ? n : 1, sizeof *out->launches);
    out->matched = calloc(n > 0 ? n : 1, sizeof *out->matched);
    if (out->launches == NULL || out->matched == NULL) {
        occ_profile_result_free(r);
        inspect_launches_free(out);
        return cli_error_set(err, EXIT_DATA, "out of memory");
    }
    out->owner = r;
    for (size_t i = 0; i < n; i++) {
        const occ_profile_group *g = occ_profile_group_at(r, i);
        occ_inspect_launch *l = &out->launches[i];
        l->name = g->name;
        l->mangled = g->mangled;
        memcpy(l->block, g->block, sizeof l->block);
        /* a PyTorch profile gives static + dynamic shared memory only */
        bool split = g->dyn_smem_bytes != OCC_PROFILE_UNKNOWN;
        l->dyn_smem_bytes = split ? g->dyn_smem_bytes : OCC_INSPECT_UNKNOWN;
        l->smem_total_bytes = split ? OCC_INSPECT_UNKNOWN : g->smem_bytes;
        memcpy(l->cluster, g->cluster, sizeof l->cluster);
        l->grid_blocks = (long long)g->grid[0] * (g->grid[1] > 0 ? g->grid[1] : 1) *
                         (g->grid[2] > 0 ? g->grid[2] : 1);
        l->weight = g->gpu_time_us;
        l->source = OCC_INSPECT_LAUNCH_PROFILE;
        l->carveout_percent = g->carveout_percent >= 0 ? g->carveout_percent : OCC_CARVEOUT_DEFAULT;
    }
    out->count = n;
    return true;
}

bool inspect_launches_apply(inspect_launch_set *set, occ_inspect_result *r,
                            const occ_inspect_options *opts, cli_error *err)
{
    occ_inspect_error ierr;
    if (occ_inspect_apply_launches(r, opts, set->launches, set->count, set->matched, &set->match,
                                   &ierr) != OCC_OK) {
        return cli_error_set(err, EXIT_DATA, "--launches %s: %s", set->path, ierr.message);
    }
    return true;
}

void inspect_launches_free(inspect_launch_set *set)
{
    occ_profile_result_free(set->owner);
    for (size_t i = 0; i < set->name_count; i++) {
        free(set->names[i]);
    }
    free(set->names);
    free(set->launches);
    free(set->matched);
    memset(set, 0, sizeof *set);
}

typedef struct weighed {
    double weight;
    size_t index;
} weighed;

static int heaviest_first(const void *pa, const void *pb)
{
    const weighed *a = pa, *b = pb;
    if (a->weight != b->weight) {
        return a->weight > b->weight ? -1 : 1;
    }
    return a->index < b->index ? -1 : a->index > b->index;
}

/* The unmatched launches, heaviest first (indices into set->launches);
   NULL (count 0) when out of memory. */
static size_t *unmatched_order(const inspect_launch_set *set, size_t *count)
{
    *count = 0;
    weighed *w = malloc((set->count > 0 ? set->count : 1) * sizeof *w);
    size_t *order = malloc((set->count > 0 ? set->count : 1) * sizeof *order);
    if (w == NULL || order == NULL) {
        free(w);
        free(order);
        return NULL;
    }
    size_t n = 0;
    for (size_t i = 0; i < set->count; i++) {
        if (!set->matched[i]) {
            w[n++] = (weighed){set->launches[i].weight, i};
        }
    }
    qsort(w, n, sizeof *w, heaviest_first);
    for (size_t i = 0; i < n; i++) {
        order[i] = w[i].index;
    }
    free(w);
    *count = n;
    return order;
}

static double share(double part, double whole)
{
    return whole > 0 ? part / whole : 0.0;
}

void inspect_launches_print(FILE *out, const inspect_launch_set *set)
{
    const occ_inspect_launch_match *m = &set->match;
    fprintf(out, "Launches from ");
    cli_put_visible(out, set->path);
    bool table = strcmp(set->kind, "table") == 0;
    const char *measure = table ? "weight" : "GPU time";
    fprintf(out,
            " (%s): %zu configurations, %zu matched kernels read here (%.1f%% of its %s); "
            "%zu kernels got %s launches.\n",
            set->kind, m->launches, m->matched, 100.0 * share(m->matched_weight, m->weight),
            measure, m->kernels_launched, set->kind);
    size_t n;
    size_t *order = unmatched_order(set, &n);
    if (n > 0) {
        fprintf(out,
                "%zu configurations match no kernel read (%.1f%% of the %s: compiled at run "
                "time, or in another binary); the heaviest:\n",
                n, 100.0 * share(m->weight - m->matched_weight, m->weight), measure);
        for (size_t i = 0; i < n && i < 10 && order != NULL; i++) {
            const occ_inspect_launch *l = &set->launches[order[i]];
            fprintf(out, "  %5.1f%%  ", 100.0 * share(l->weight, m->weight));
            cli_put_visible(out, l->name);
            fputc('\n', out);
        }
    }
    free(order);
}

void inspect_launches_json(json_stream *s, const inspect_launch_set *set)
{
    if (set == NULL) {
        json_stream_lit(s, "null");
        return;
    }
    const occ_inspect_launch_match *m = &set->match;
    json_stream_lit(s, "{\"source\":");
    json_stream_cstring(s, set->kind);
    json_stream_lit(s, ",\"file\":");
    json_stream_cstring(s, set->path);
    json_stream_lit(s, ",\"launches\":");
    json_stream_int(s, (long long)m->launches);
    json_stream_lit(s, ",\"matched\":");
    json_stream_int(s, (long long)m->matched);
    json_stream_lit(s, ",\"kernels_launched\":");
    json_stream_int(s, (long long)m->kernels_launched);
    json_stream_lit(s, ",\"matched_time_share\":");
    json_stream_double(s, share(m->matched_weight, m->weight));
    json_stream_lit(s, ",\"unmatched\":[");
    size_t n;
    size_t *order = unmatched_order(set, &n);
    for (size_t i = 0; i < n && order != NULL; i++) {
        const occ_inspect_launch *l = &set->launches[order[i]];
        json_stream_lit(s, i > 0 ? ",{\"name\":" : "{\"name\":");
        json_stream_cstring(s, l->name);
        json_stream_lit(s, ",\"time_share\":");
        json_stream_double(s, share(l->weight, m->weight));
        json_stream_lit(s, "}");
    }
    free(order);
    json_stream_lit(s, "]}");
}

const char *inspect_launch_text(const occ_inspect_kernel *k, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (k->launch_index < 0) {
        return buf;
    }
    size_t n = 0;
#define LAUNCH_ADD(...)                                                                            \
    do {                                                                                           \
        int w_ = snprintf(buf + n, cap - n, __VA_ARGS__);                                          \
        n = w_ > 0 && (size_t)w_ < cap - n ? n + (size_t)w_ : cap - 1;                             \
    } while (0)
    LAUNCH_ADD("[%s", occ_inspect_launch_source_name(k->launch_source));
    if (k->launch_block[1] > 1 || k->launch_block[2] > 1) {
        LAUNCH_ADD(", block %dx%dx%d", k->launch_block[0], k->launch_block[1], k->launch_block[2]);
    } else {
        LAUNCH_ADD(", block %d", k->launch_block[0]);
    }
    if (k->launch_dyn_smem_bytes > 0) {
        LAUNCH_ADD(", %d B dynamic", k->launch_dyn_smem_bytes);
    }
    if (k->launch_cluster[0] > 0) {
        LAUNCH_ADD(", cluster %dx%dx%d", k->launch_cluster[0],
                   k->launch_cluster[1] > 0 ? k->launch_cluster[1] : 1,
                   k->launch_cluster[2] > 0 ? k->launch_cluster[2] : 1);
    }
    if (k->launch_carveout_percent != OCC_CARVEOUT_DEFAULT) {
        LAUNCH_ADD(", carveout %d%%", k->launch_carveout_percent);
    }
    LAUNCH_ADD("]");
#undef LAUNCH_ADD
    return buf;
}

static void dims_json(json_stream *s, const int d[3])
{
    json_stream_lit(s, "[");
    for (int i = 0; i < 3; i++) {
        if (i > 0) {
            json_stream_lit(s, ",");
        }
        json_stream_int(s, d[i] > 0 ? d[i] : 1);
    }
    json_stream_lit(s, "]");
}

void inspect_launch_row_json(json_stream *s, const occ_inspect_kernel *k)
{
    if (!k->is_kernel) {
        json_stream_lit(s, "null");
        return;
    }
    json_stream_lit(s, "{\"block\":");
    if (k->launch_block[0] > 0) {
        dims_json(s, k->launch_block);
    } else {
        json_stream_lit(s, "null");
    }
    json_stream_lit(s, ",\"dyn_smem_bytes\":");
    json_stream_int(s, k->launch_dyn_smem_bytes);
    json_stream_lit(s, ",\"cluster\":");
    if (k->launch_cluster[0] > 0) {
        dims_json(s, k->launch_cluster);
    } else {
        json_stream_lit(s, "null");
    }
    json_stream_lit(s, ",\"carveout_percent\":");
    if (k->launch_carveout_percent != OCC_CARVEOUT_DEFAULT) {
        json_stream_int(s, k->launch_carveout_percent);
    } else {
        json_stream_lit(s, "null");
    }
    json_stream_lit(s, ",\"source\":");
    json_stream_cstring(s, occ_inspect_launch_source_name(k->launch_source));
    json_stream_lit(s, "}");
}
