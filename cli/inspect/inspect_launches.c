/*
 * inspect_launches.c - `--launches FILE`: the launch configurations
 * libocc-profile reads, given to the kernels read and printed (see
 * inspect_launches.h).
 */
#include <stdlib.h>
#include <string.h>

#include "inspect_launches.h"
#include "json_stream.h"
#include "output.h"

bool inspect_launches_load(const char *path, inspect_launch_set *out, cli_error *err)
{
    memset(out, 0, sizeof *out);
    occ_profile_error perr;
    if (occ_profile_launches_read(path, &out->owner, &perr) != OCC_OK) {
        return cli_error_set(err, EXIT_DATA, "--launches: %s", perr.message);
    }
    const occ_inspect_launch_list *l = occ_profile_launches_list(out->owner);
    out->path = path;
    out->kind = l->kind;
    out->launches = l->launches;
    out->count = l->count;
    out->matched = l->matched;
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
    occ_profile_launches_free(set->owner);
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
