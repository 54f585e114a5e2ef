/*
 * inspect_launches.c - `--launches FILE`: a profile's launch configurations
 * given to the kernels read (see inspect_launches.h).
 */
#include <stdlib.h>
#include <string.h>

#include "inspect_launches.h"
#include "json_stream.h"
#include "occ_profile.h"
#include "output.h"

bool inspect_launches_load(const char *path, inspect_launch_set *out, cli_error *err)
{
    memset(out, 0, sizeof *out);
    out->path = path;
    out->kind = "profile";
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
    fprintf(out,
            " (%s): %zu configurations, %zu matched kernels read here (%.1f%% of its GPU time); "
            "%zu kernels got %s launches.\n",
            set->kind, m->launches, m->matched, 100.0 * share(m->matched_weight, m->weight),
            m->kernels_launched, set->kind);
    size_t n;
    size_t *order = unmatched_order(set, &n);
    if (n > 0) {
        fprintf(out,
                "%zu configurations match no kernel read (%.1f%% of the GPU time: compiled "
                "at run time, or in another binary); the heaviest:\n",
                n, 100.0 * share(m->weight - m->matched_weight, m->weight));
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
    json_stream_lit(s, ",\"source\":");
    json_stream_cstring(s, occ_inspect_launch_source_name(k->launch_source));
    json_stream_lit(s, "}");
}
