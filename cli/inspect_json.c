/*
 * inspect_json.c - `occ inspect --json` (schema occ.inspect, version 1, in
 * docs/inspect.md). Written one function object per line, each built and
 * freed in turn, so a library of 100,000 kernels never sits in memory as a
 * JSON tree.
 */
#include <string.h>

#include "inspect_args.h"

#define INSPECT_SCHEMA_VERSION 1

static json_t *int_or_null(int value)
{
    return value == INSP_UNKNOWN ? json_null() : json_integer(value);
}

static json_t *dims_or_null(const int d[3])
{
    if (d[0] <= 0) {
        return json_null();
    }
    return json_pack("[i,i,i]", d[0], d[1] > 0 ? d[1] : 1, d[2] > 0 ? d[2] : 1);
}

static json_t *occupancy_json(const inspect_row *row)
{
    if (!row->has_occupancy) {
        return json_null();
    }
    char limiters[64];
    calc_limiter_list(row->limiters, limiters, sizeof limiters);
    json_t *list = json_array();
    char *save = NULL;
    for (char *name = strtok_r(limiters, "+", &save); name != NULL;
         name = strtok_r(NULL, "+", &save)) {
        json_array_append_new(list, json_string(name));
    }
    return json_pack("{s:s, s:i, s:i, s:i, s:i, s:f, s:o, s:o}", "gpu", row->gpu, "threads",
                     row->threads, "blocks_per_sm", row->blocks_per_sm, "warps_per_sm",
                     row->warps_per_sm, "max_warps_per_sm", row->max_warps_per_sm, "occupancy",
                     row->occupancy, "limiters", list, "zero_reason",
                     row->zero_reason == OCC_ZERO_NONE
                         ? json_null()
                         : json_string(occ_zero_reason_text(row->zero_reason)));
}

static json_t *row_json(const inspect_row *row)
{
    const insp_function *f = &row->f;
    char arch[16];
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(row->name));
    json_object_set_new(o, "mangled", json_string(row->mangled));
    json_object_set_new(o, "arch", json_string(inspect_arch_name(f->sm, f->arch_suffix, arch,
                                                                 sizeof arch)));
    json_object_set_new(o, "kind", json_string(f->is_kernel ? "kernel" : "function"));
    json_object_set_new(o, "relocatable", json_boolean(f->relocatable));
    json_object_set_new(o, "count", json_integer(row->count));
    json_object_set_new(o, "regs", json_integer(f->regs));
    json_object_set_new(o, "smem_bytes", json_integer(f->smem_bytes));
    json_object_set_new(o, "smem_section_bytes", int_or_null(f->smem_section_bytes));
    json_object_set_new(o, "stack_bytes", json_integer(f->stack_bytes));
    json_object_set_new(o, "frame_bytes", json_integer(f->frame_bytes));
    json_object_set_new(o, "spill_store_bytes", int_or_null(f->spill_store_bytes));
    json_object_set_new(o, "spill_load_bytes", int_or_null(f->spill_load_bytes));
    json_object_set_new(o, "spill_instructions", json_integer(f->spill_instructions));
    json_object_set_new(o, "barriers", int_or_null(f->barriers));
    json_object_set_new(o, "max_threads", dims_or_null(f->max_threads));
    json_object_set_new(o, "req_threads", dims_or_null(f->req_threads));
    json_object_set_new(o, "max_regs", f->max_regs > 0 ? json_integer(f->max_regs) : json_null());
    json_object_set_new(o, "cluster_dims", dims_or_null(f->cluster_dims));
    json_object_set_new(o, "explicit_cluster", json_boolean(f->explicit_cluster));
    json_object_set_new(o, "max_cluster_rank",
                        f->max_cluster_rank > 0 ? json_integer(f->max_cluster_rank) : json_null());
    json_object_set_new(o, "param_bytes", int_or_null(f->param_bytes));
    json_object_set_new(o, "occupancy", occupancy_json(row));
    json_object_set_new(o, "note", row->note != NULL ? json_string(row->note) : json_null());
    return o;
}

static void put_json(FILE *out, json_t *value)
{
    json_dumpf(value, out, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY);
    json_decref(value);
}

void inspect_print_json(FILE *out, const inspect_result *r, const inspect_options *opts)
{
    fprintf(out, "{\"schema\":\"occ.inspect\",\"version\":%d,\"occ_version\":",
            INSPECT_SCHEMA_VERSION);
    put_json(out, json_string(occ_version()));
    fputs(",\n\"inputs\":[", out);
    for (int i = 0; i < r->file_count; i++) {
        fputs(i > 0 ? "," : "", out);
        put_json(out, json_pack("{s:s, s:s}", "file", r->file_names[i], "format",
                                insp_format_name(r->file_formats[i])));
    }
    fputs("],\n\"gpu\":", out);
    put_json(out, opts->have_device ? json_string(opts->device.name) : json_null());
    fprintf(out, ",\"threads\":");
    put_json(out, opts->threads > 0 ? json_integer(opts->threads) : json_null());
    fprintf(out, ",\"dyn_smem_bytes\":%d,\"functions_read\":%zu,\n\"no_resource_data\":[",
            opts->dyn_smem_bytes, r->functions_read);
    for (int i = 0; i < r->nodata_count; i++) {
        char kind[16];
        char arch[16];
        const inspect_nodata *n = &r->nodata[i];
        fputs(i > 0 ? "," : "", out);
        put_json(out, json_pack("{s:s, s:s, s:i}", "kind",
                                inspect_entry_kind_name(n->kind, kind, sizeof kind), "arch",
                                inspect_arch_name(n->sm, n->suffix, arch, sizeof arch), "count",
                                n->count));
    }
    fprintf(out, "],\n\"entries_skipped\":%d,\n\"functions\":[\n", r->entries_skipped);
    for (size_t i = 0; i < r->row_count; i++) {
        put_json(out, row_json(&r->rows[i]));
        fputs(i + 1 < r->row_count ? ",\n" : "\n", out);
    }
    fputs("]}\n", out);
}
