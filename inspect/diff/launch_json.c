/*
 * launch_json.c - the launch parts of the occ.inspect and occ.diff JSON
 * documents (docs/json.md): a row's launch object, the launch_match object
 * with the unmatched launches heaviest first, and a row's risk flags.
 */
#include <stdlib.h>
#include <string.h>

#include "diff_internal.h"
#include "json_stream.h"

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

occ_status occ_inspect_launch_unmatched(const occ_inspect_launch_list *l, size_t **order,
                                        size_t *count)
{
    if (l == NULL || order == NULL || count == NULL) {
        return OCC_ERR_NULL_POINTER;
    }
    *order = NULL;
    *count = 0;
    weighed *w = malloc((l->count > 0 ? l->count : 1) * sizeof *w);
    size_t *out = malloc((l->count > 0 ? l->count : 1) * sizeof *out);
    if (w == NULL || out == NULL) {
        free(w);
        free(out);
        return OCC_ERR_OUT_OF_MEMORY;
    }
    size_t n = 0;
    for (size_t i = 0; i < l->count; i++) {
        if (l->matched == NULL || !l->matched[i]) {
            w[n++] = (weighed){l->launches[i].weight, i};
        }
    }
    qsort(w, n, sizeof *w, heaviest_first);
    for (size_t i = 0; i < n; i++) {
        out[i] = w[i].index;
    }
    free(w);
    *order = out;
    *count = n;
    return OCC_OK;
}

static double share(double part, double whole)
{
    return whole > 0 ? part / whole : 0.0;
}

occ_status insp_launch_match_json(json_stream *s, const occ_inspect_launch_list *l)
{
    if (l == NULL) {
        json_stream_null(s);
        return OCC_OK;
    }
    size_t n;
    size_t *order;
    occ_status status = occ_inspect_launch_unmatched(l, &order, &n);
    if (status != OCC_OK) {
        return status;
    }
    const occ_inspect_launch_match *m = &l->match;
    json_stream_lit(s, "{\"source\":");
    json_stream_cstring(s, l->kind != NULL ? l->kind : "");
    json_stream_lit(s, ",\"file\":");
    json_stream_cstring(s, l->path != NULL ? l->path : "");
    json_stream_lit(s, ",\"launches\":");
    json_stream_int(s, (long long)m->launches);
    json_stream_lit(s, ",\"matched\":");
    json_stream_int(s, (long long)m->matched);
    json_stream_lit(s, ",\"kernels_launched\":");
    json_stream_int(s, (long long)m->kernels_launched);
    json_stream_lit(s, ",\"matched_time_share\":");
    json_stream_double(s, share(m->matched_weight, m->weight));
    json_stream_lit(s, ",\"unmatched\":[");
    for (size_t i = 0; i < n; i++) {
        const occ_inspect_launch *launch = &l->launches[order[i]];
        json_stream_lit(s, i > 0 ? ",{\"name\":" : "{\"name\":");
        json_stream_cstring(s, launch->name != NULL ? launch->name : "");
        json_stream_lit(s, ",\"time_share\":");
        json_stream_double(s, share(launch->weight, m->weight));
        json_stream_lit(s, "}");
    }
    free(order);
    json_stream_lit(s, "]}");
    return OCC_OK;
}

occ_status occ_inspect_launch_match_json(const occ_inspect_launch_list *l, char **text,
                                         size_t *size)
{
    if (text == NULL || size == NULL) {
        return OCC_ERR_NULL_POINTER;
    }
    *text = NULL;
    *size = 0;
    json_stream s;
    json_stream_init_memory(&s);
    occ_status status = insp_launch_match_json(&s, l);
    if (status != OCC_OK) {
        json_stream_free(&s);
        return status;
    }
    *text = json_stream_take_text(&s, size);
    json_stream_free(&s);
    return *text != NULL ? OCC_OK : OCC_ERR_OUT_OF_MEMORY;
}

#define LAUNCH_ADD(...)                                                                            \
    do {                                                                                           \
        int w_ = snprintf(buf + n, cap - n, __VA_ARGS__);                                          \
        n = w_ > 0 && (size_t)w_ < cap - n ? n + (size_t)w_ : cap - 1;                             \
    } while (0)

/* "[x,y,z]" (0 read as 1), or "null" when x is 0. */
static const char *dims_json(const int d[3], char *buf, size_t cap)
{
    if (d[0] <= 0) {
        snprintf(buf, cap, "null");
    } else {
        snprintf(buf, cap, "[%d,%d,%d]", d[0], d[1] > 0 ? d[1] : 1, d[2] > 0 ? d[2] : 1);
    }
    return buf;
}

const char *occ_inspect_launch_json(const occ_inspect_kernel *k, char *buf, size_t cap)
{
    if (buf == NULL || cap == 0) {
        return buf;
    }
    if (!k->is_kernel) {
        snprintf(buf, cap, "null");
        return buf;
    }
    char block[40];
    char cluster[40];
    char carveout[16] = "null";
    if (k->launch_carveout_percent != OCC_CARVEOUT_DEFAULT) {
        snprintf(carveout, sizeof carveout, "%d", k->launch_carveout_percent);
    }
    snprintf(buf, cap,
             "{\"block\":%s,\"dyn_smem_bytes\":%d,\"cluster\":%s,\"carveout_percent\":%s,"
             "\"source\":\"%s\"}",
             dims_json(k->launch_block, block, sizeof block), k->launch_dyn_smem_bytes,
             dims_json(k->launch_cluster, cluster, sizeof cluster), carveout,
             occ_inspect_launch_source_name(k->launch_source));
    return buf;
}

const char *occ_inspect_launch_text(const occ_inspect_kernel *k, char *buf, size_t cap)
{
    size_t n = 0;
    if (buf == NULL || cap == 0) {
        return buf;
    }
    buf[0] = '\0';
    if (k->launch_index < 0) {
        return buf;
    }
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
    return buf;
}

const char *occ_inspect_risk_json_flags(const occ_inspect_risk *r, char *buf, size_t cap)
{
    char text[160];
    size_t n = 0;
    if (buf == NULL || cap == 0) {
        return buf;
    }
    buf[0] = '\0';
    occ_inspect_risk_text(r, text, sizeof text);
    LAUNCH_ADD("[");
    if (strcmp(text, "-") != 0) {
        char *save = NULL;
        int count = 0;
        for (char *flag = strtok_r(text, ", ", &save); flag != NULL;
             flag = strtok_r(NULL, ", ", &save)) {
            LAUNCH_ADD("%s\"%s\"", count++ > 0 ? "," : "", flag);
        }
    }
    LAUNCH_ADD("]");
    return buf;
}
#undef LAUNCH_ADD

void occ_inspect_text_free(char *text)
{
    free(text);
}
