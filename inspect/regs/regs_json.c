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
        json_stream_int_or_null(s, p->cap, p->cap > 0);
    }
    json_stream_key(s, "regs");
    json_stream_int(s, p->regs);
    json_stream_key(s, "spill_store_bytes");
    json_stream_int(s, p->spill_store_bytes);
    json_stream_key(s, "spill_load_bytes");
    json_stream_int(s, p->spill_load_bytes);
    json_stream_key(s, "stack_bytes");
    json_stream_int(s, p->stack_bytes);
    json_stream_key(s, "blocks_per_sm");
    json_stream_int(s, p->blocks_per_sm);
    json_stream_key(s, "warps_per_sm");
    json_stream_int(s, p->warps_per_sm);
    json_stream_key(s, "occupancy");
    json_stream_double(s, p->occupancy);
    json_stream_key(s, "predicted");
    if (p->predicted) {
        json_stream_lit(s, "{\"gb_per_s\":");
        json_stream_double(s, p->predicted_gb_per_s);
        json_stream_key(s, "vs_unconstrained");
        json_stream_double(s, p->predicted_vs_unconstrained);
        json_stream_key(s, "bound");
        json_stream_cstring(s, occ_latency_bound_name(p->predicted_bound));
        json_stream_raw(s, "}", 1);
    } else {
        json_stream_null(s);
    }
    json_stream_key(s, "setmaxnreg_fits");
    answer(s, p->setmaxnreg_fits);
    json_stream_raw(s, "}", 1);
}

static void kernel(json_stream *s, const occ_regs_kernel *k, const regs_kernel_owned *owned)
{
    json_stream_lit(s, "{\"name\":");
    json_stream_cstring(s, k->name);
    json_stream_key(s, "mangled");
    json_stream_cstring(s, k->mangled);
    json_stream_key(s, "threads");
    json_stream_int(s, k->threads);
    json_stream_key(s, "threads_source");
    json_stream_cstring(s, k->threads_source);
    json_stream_key(s, "smem_bytes");
    json_stream_int(s, k->smem_bytes);
    json_stream_key(s, "maxnreg");
    json_stream_int_or_null(s, k->ptx_max_regs, k->ptx_max_regs > 0);
    json_stream_key(s, "caps");
    json_stream_raw(s, "[", 1);
    for (int i = 0; i < k->cap_count; i++) {
        json_stream_raw(s, ",", i > 0 ? 1 : 0);
        point(s, &k->caps[i], false);
    }
    json_stream_raw(s, "]", 1);
    json_stream_key(s, "launch_bounds");
    json_stream_raw(s, "[", 1);
    for (int i = 0; i < k->launch_bounds_count; i++) {
        json_stream_raw(s, ",", i > 0 ? 1 : 0);
        point(s, &k->launch_bounds[i], true);
    }
    json_stream_raw(s, "]", 1);
    json_stream_key(s, "recommended_cap");
    if (k->recommended > 0) {
        json_stream_int(s, k->caps[k->recommended].cap);
    } else {
        json_stream_null(s);
    }
    json_stream_key(s, "why");
    json_stream_cstring(s, k->why);
    json_stream_key(s, "cliff_cap");
    json_stream_int_or_null(s, k->cliff_cap, k->cliff_cap > 0);
    json_stream_key(s, "spilling_caps_with_more_blocks");
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
    json_stream_key(s, "candidates");
    json_stream_raw(s, "[", 1);
    for (int i = 0; i < k->candidate_count; i++) {
        const occ_regs_point *p = &k->caps[k->candidates[i]];
        json_stream_raw(s, ",", i > 0 ? 1 : 0);
        json_stream_int_or_null(s, p->cap, p->cap > 0);
    }
    json_stream_raw(s, "]", 1);
    json_stream_key(s, "notes");
    json_stream_lines(s, k->notes);
    json_stream_key(s, "setmaxnreg");
    if (k->setmaxnreg != NULL && owned->smr != NULL) {
        insp_setmaxnreg_json(s, owned->smr);
    } else {
        json_stream_null(s);
    }
    json_stream_raw(s, "}", 1);
}

static void document(json_stream *s, const occ_regs_result *r)
{
    occ_regs_totals t;
    occ_regs_totals_get(r, &t);
    json_stream_lit(s, "{\"schema\":\"occ.regs\",\"version\":");
    json_stream_int(s, OCC_REGS_SCHEMA_VERSION);
    json_stream_key(s, "occ_version");
    json_stream_cstring(s, occ_version());
    json_stream_key(s, "input");
    json_stream_cstring(s, t.input);
    json_stream_key(s, "input_kind");
    json_stream_cstring(s, t.input_kind);
    json_stream_key(s, "arch");
    json_stream_cstring(s, t.arch);
    json_stream_key(s, "gpu");
    json_stream_cstring(s, t.gpu);
    json_stream_key(s, "ptxas");
    json_stream_lit(s, "{\"path\":");
    json_stream_cstring(s, t.ptxas);
    json_stream_key(s, "version");
    json_stream_cstring(s, t.ptxas_version);
    json_stream_key(s, "min_cap");
    json_stream_int_or_null(s, t.min_cap, t.min_cap > 0);
    json_stream_raw(s, "}", 1);
    json_stream_key(s, "compiles");
    json_stream_int(s, t.compiles);
    json_stream_key(s, "ptxas_runs");
    json_stream_int(s, t.ptxas_runs);
    json_stream_key(s, "cache_hits");
    json_stream_int(s, t.cache_hits);
    json_stream_key(s, "cache_dir");
    json_stream_cstring_or_null(s, t.cache_dir);
    json_stream_key(s, "notes");
    json_stream_lines(s, t.notes);
    json_stream_key(s, "kernels");
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
    *text = json_stream_take_text(s, size);
    json_stream_free(s);
    free(s);
    if (*text == NULL) {
        return regs_fail(err, OCC_ERR_OUT_OF_MEMORY, "out of memory for the document");
    }
    return OCC_OK;
}
