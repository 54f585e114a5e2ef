/*
 * regs_json.c - the occ.regs JSON document (OCC_REGS_SCHEMA_VERSION,
 * docs/regs.md): the run (input, arch, GPU, ptxas, the cache's counts),
 * then each kernel with its caps (cap null for the unconstrained compile),
 * its __launch_bounds__ variants, the recommended cap and why, the cliff,
 * the caps that buy blocks only by spilling, and the setmaxnreg findings
 * (setmaxnreg.c writes the object; null for a kernel without setmaxnreg).
 * Written through json_stream.
 */
#include <stdlib.h>
#include <string.h>

#include "json_stream.h"
#include "regs_state.h"

static void key(json_stream *s, const char *name)
{
    json_stream_raw(s, ",\"", 2);
    json_stream_lit(s, name);
    json_stream_raw(s, "\":", 2);
}

static void string_or_null(json_stream *s, const char *text)
{
    if (text != NULL) {
        json_stream_cstring(s, text);
    } else {
        json_stream_lit(s, "null");
    }
}

/* A note text ("line\nline") as an array of strings. */
static void lines(json_stream *s, const char *text)
{
    json_stream_raw(s, "[", 1);
    int n = 0;
    while (text != NULL && *text != '\0') {
        const char *nl = strchr(text, '\n');
        size_t len = nl != NULL ? (size_t)(nl - text) : strlen(text);
        json_stream_raw(s, ",", n++ > 0 ? 1 : 0);
        json_stream_string(s, text, len);
        text = nl != NULL ? nl + 1 : text + len;
    }
    json_stream_raw(s, "]", 1);
}

static void answer(json_stream *s, occ_regs_answer a)
{
    json_stream_lit(s, a == OCC_REGS_YES ? "true" : a == OCC_REGS_NO ? "false" : "null");
}

static void point(json_stream *s, const occ_regs_point *p, bool variant)
{
    if (variant) {
        json_stream_lit(s, "{\"min_blocks\":");
        json_stream_int(s, p->min_blocks);
    } else {
        json_stream_lit(s, "{\"cap\":");
        if (p->cap > 0) {
            json_stream_int(s, p->cap);
        } else {
            json_stream_lit(s, "null");
        }
    }
    key(s, "regs");
    json_stream_int(s, p->regs);
    key(s, "spill_store_bytes");
    json_stream_int(s, p->spill_store_bytes);
    key(s, "spill_load_bytes");
    json_stream_int(s, p->spill_load_bytes);
    key(s, "stack_bytes");
    json_stream_int(s, p->stack_bytes);
    key(s, "blocks_per_sm");
    json_stream_int(s, p->blocks_per_sm);
    key(s, "warps_per_sm");
    json_stream_int(s, p->warps_per_sm);
    key(s, "occupancy");
    json_stream_double(s, p->occupancy);
    key(s, "predicted");
    if (p->predicted) {
        json_stream_lit(s, "{\"gb_per_s\":");
        json_stream_double(s, p->predicted_gb_per_s);
        key(s, "vs_unconstrained");
        json_stream_double(s, p->predicted_vs_unconstrained);
        key(s, "bound");
        json_stream_cstring(s, occ_latency_bound_name(p->predicted_bound));
        json_stream_raw(s, "}", 1);
    } else {
        json_stream_lit(s, "null");
    }
    key(s, "setmaxnreg_fits");
    answer(s, p->setmaxnreg_fits);
    json_stream_raw(s, "}", 1);
}

static void kernel(json_stream *s, const occ_regs_kernel *k, const regs_kernel_owned *owned)
{
    json_stream_lit(s, "{\"name\":");
    json_stream_cstring(s, k->name);
    key(s, "mangled");
    json_stream_cstring(s, k->mangled);
    key(s, "threads");
    json_stream_int(s, k->threads);
    key(s, "threads_source");
    json_stream_cstring(s, k->threads_source);
    key(s, "smem_bytes");
    json_stream_int(s, k->smem_bytes);
    key(s, "maxnreg");
    if (k->ptx_max_regs > 0) {
        json_stream_int(s, k->ptx_max_regs);
    } else {
        json_stream_lit(s, "null");
    }
    key(s, "caps");
    json_stream_raw(s, "[", 1);
    for (int i = 0; i < k->cap_count; i++) {
        json_stream_raw(s, ",", i > 0 ? 1 : 0);
        point(s, &k->caps[i], false);
    }
    json_stream_raw(s, "]", 1);
    key(s, "launch_bounds");
    json_stream_raw(s, "[", 1);
    for (int i = 0; i < k->launch_bounds_count; i++) {
        json_stream_raw(s, ",", i > 0 ? 1 : 0);
        point(s, &k->launch_bounds[i], true);
    }
    json_stream_raw(s, "]", 1);
    key(s, "recommended_cap");
    if (k->recommended > 0) {
        json_stream_int(s, k->caps[k->recommended].cap);
    } else {
        json_stream_lit(s, "null");
    }
    key(s, "why");
    json_stream_cstring(s, k->why);
    key(s, "cliff_cap");
    if (k->cliff_cap > 0) {
        json_stream_int(s, k->cliff_cap);
    } else {
        json_stream_lit(s, "null");
    }
    key(s, "spilling_caps_with_more_blocks");
    json_stream_raw(s, "[", 1);
    int n = 0;
    for (int i = 1; i < k->cap_count; i++) {
        const occ_regs_point *p = &k->caps[i];
        if (occ_regs_point_runs(p) && p->blocks_per_sm > k->caps[0].blocks_per_sm &&
            (occ_regs_point_spill_bytes(p) > 0 || p->stack_bytes > k->caps[0].stack_bytes)) {
            json_stream_raw(s, ",", n++ > 0 ? 1 : 0);
            json_stream_int(s, p->cap);
        }
    }
    json_stream_raw(s, "]", 1);
    key(s, "candidates");
    json_stream_raw(s, "[", 1);
    for (int i = 0; i < k->candidate_count; i++) {
        const occ_regs_point *p = &k->caps[k->candidates[i]];
        json_stream_raw(s, ",", i > 0 ? 1 : 0);
        if (p->cap > 0) {
            json_stream_int(s, p->cap);
        } else {
            json_stream_lit(s, "null");
        }
    }
    json_stream_raw(s, "]", 1);
    key(s, "notes");
    lines(s, k->notes);
    key(s, "setmaxnreg");
    if (k->setmaxnreg != NULL && owned->smr != NULL) {
        insp_setmaxnreg_json(s, owned->smr);
    } else {
        json_stream_lit(s, "null");
    }
    json_stream_raw(s, "}", 1);
}

static void document(json_stream *s, const occ_regs_result *r)
{
    occ_regs_totals t;
    occ_regs_totals_get(r, &t);
    json_stream_lit(s, "{\"schema\":\"occ.regs\",\"version\":");
    json_stream_int(s, OCC_REGS_SCHEMA_VERSION);
    key(s, "occ_version");
    json_stream_cstring(s, occ_version());
    key(s, "input");
    json_stream_cstring(s, t.input);
    key(s, "input_kind");
    json_stream_cstring(s, t.input_kind);
    key(s, "arch");
    json_stream_cstring(s, t.arch);
    key(s, "gpu");
    json_stream_cstring(s, t.gpu);
    key(s, "ptxas");
    json_stream_lit(s, "{\"path\":");
    json_stream_cstring(s, t.ptxas);
    key(s, "version");
    json_stream_cstring(s, t.ptxas_version);
    key(s, "min_cap");
    if (t.min_cap > 0) {
        json_stream_int(s, t.min_cap);
    } else {
        json_stream_lit(s, "null");
    }
    json_stream_raw(s, "}", 1);
    key(s, "compiles");
    json_stream_int(s, t.compiles);
    key(s, "ptxas_runs");
    json_stream_int(s, t.ptxas_runs);
    key(s, "cache_hits");
    json_stream_int(s, t.cache_hits);
    key(s, "cache_dir");
    string_or_null(s, t.cache_dir);
    key(s, "notes");
    lines(s, t.notes);
    key(s, "kernels");
    json_stream_raw(s, "[", 1);
    for (size_t i = 0; i < occ_regs_kernel_count(r); i++) {
        json_stream_raw(s, ",", i > 0 ? 1 : 0);
        kernel(s, occ_regs_kernel_at(r, i), &r->owned[i]);
    }
    json_stream_lit(s, "]}\n");
}

occ_status occ_regs_json_write(const occ_regs_result *result, FILE *out, occ_inspect_error *err)
{
    json_stream *s = malloc(sizeof *s);
    if (s == NULL) {
        return regs_fail(err, OCC_ERR_OUT_OF_MEMORY, "out of memory");
    }
    json_stream_init(s, out);
    document(s, result);
    json_stream_flush(s);
    free(s);
    if (ferror(out)) {
        return regs_fail(err, OCC_ERR_IO, "cannot write the occ.regs document");
    }
    return OCC_OK;
}

occ_status occ_regs_json_text(const occ_regs_result *result, char **text, size_t *size,
                              occ_inspect_error *err)
{
    *text = NULL;
    json_stream *s = malloc(sizeof *s);
    if (s == NULL) {
        return regs_fail(err, OCC_ERR_OUT_OF_MEMORY, "out of memory");
    }
    json_stream_init_memory(s);
    document(s, result);
    json_stream_raw(s, "", 1); /* the terminating NUL */
    json_stream_flush(s);
    occ_status status = OCC_OK;
    if (s->failed || s->memory == NULL) {
        status = regs_fail(err, OCC_ERR_OUT_OF_MEMORY, "out of memory for the document");
    } else {
        *text = s->memory;
        *size = s->memory_bytes - 1;
        s->memory = NULL;
    }
    json_stream_free(s);
    free(s);
    return status;
}
