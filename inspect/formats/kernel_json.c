/*
 * kernel_json.c - what the baseline (occ.baseline) and occ inspect --json
 * (occ.inspect) write alike (documents.h): a kernel's resources as members
 * of its JSON object, and the document's opening (schema, version, inputs). Written through
 * json_stream: on a library of 100,000 kernels a jansson tree per object cost more time than
 * reading the library.
 */
#include "documents.h"

static void int_or_null(json_stream *s, const char *name, int value, bool known)
{
    json_stream_key(s, name);
    json_stream_int_or_null(s, value, known);
}

static void boolean(json_stream *s, const char *name, bool value)
{
    json_stream_key(s, name);
    json_stream_bool(s, value);
}

static void triple(json_stream *s, int x, int y, int z)
{
    const int values[3] = {x, y, z};
    json_stream_ints(s, values, 3);
}

static void dims(json_stream *s, const char *name, const int d[3], insp_kernel_json_form form)
{
    json_stream_key(s, name);
    if (form == INSP_KERNEL_JSON_BASELINE) {
        if (d[0] == 0 && d[1] == 0 && d[2] == 0) {
            json_stream_lit(s, "null");
        } else {
            triple(s, d[0], d[1], d[2]);
        }
    } else if (d[0] <= 0) {
        json_stream_lit(s, "null");
    } else {
        triple(s, d[0], d[1] > 0 ? d[1] : 1, d[2] > 0 ? d[2] : 1);
    }
}

void insp_kernel_json_resources(json_stream *s, const occ_inspect_kernel *k,
                                insp_kernel_json_form form)
{
    char arch[16];
    bool inspect = form == INSP_KERNEL_JSON_INSPECT;
    if (inspect) {
        json_stream_lit(s, "{\"name\":");
        json_stream_cstring(s, k->name);
        json_stream_key(s, "mangled");
    } else {
        json_stream_lit(s, "{\"mangled\":");
    }
    json_stream_cstring(s, k->mangled);
    json_stream_key(s, "arch");
    json_stream_cstring(s, occ_inspect_arch_name(k->sm, k->arch_suffix, arch, sizeof arch));
    json_stream_key(s, "kind");
    json_stream_lit(s, k->is_kernel ? "\"kernel\"" : "\"function\"");
    boolean(s, "relocatable", k->relocatable);
    boolean(s, "from_log", k->from_log);
    int_or_null(s, "count", k->count, true);
    if (inspect) {
        /* where the first copy was found: a property of this reading, not
           of the kernel, so a baseline does not keep it */
        json_stream_key(s, "section");
        json_stream_cstring_or_null(s, k->section);
    }
    int_or_null(s, "regs", k->regs, true);
    int_or_null(s, "smem_bytes", k->smem_bytes, true);
    int_or_null(s, "smem_section_bytes", k->smem_section_bytes,
                k->smem_section_bytes != OCC_INSPECT_UNKNOWN);
    int_or_null(s, "stack_bytes", k->stack_bytes, true);
    int_or_null(s, "frame_bytes", k->frame_bytes, true);
    int_or_null(s, "spill_store_bytes", k->spill_store_bytes,
                k->spill_store_bytes != OCC_INSPECT_UNKNOWN);
    int_or_null(s, "spill_load_bytes", k->spill_load_bytes,
                k->spill_load_bytes != OCC_INSPECT_UNKNOWN);
    int_or_null(s, "spill_instructions", k->spill_instructions, true);
    int_or_null(s, "barriers", k->barriers, k->barriers != OCC_INSPECT_UNKNOWN);
    dims(s, "max_threads", k->max_threads, form);
    dims(s, "req_threads", k->req_threads, form);
    int_or_null(s, "max_regs", k->max_regs, k->max_regs > 0);
    dims(s, "cluster_dims", k->cluster_dims, form);
    boolean(s, "explicit_cluster", k->explicit_cluster);
    int_or_null(s, "max_cluster_rank", k->max_cluster_rank, k->max_cluster_rank > 0);
    int_or_null(s, "param_bytes", k->param_bytes, k->param_bytes != OCC_INSPECT_UNKNOWN);
}

void insp_document_open(json_stream *s, const occ_inspect_result *r, const char *schema,
                        int version)
{
    json_stream_lit(s, "{\"schema\":\"");
    json_stream_lit(s, schema);
    json_stream_lit(s, "\",\"version\":");
    json_stream_int(s, version);
    json_stream_key(s, "occ_version");
    json_stream_cstring(s, occ_version());
    json_stream_lit(s, ",\n\"inputs\":[");
    occ_inspect_totals totals;
    occ_inspect_totals_get(r, &totals);
    for (int i = 0; i < totals.input_count; i++) {
        json_stream_lit(s, i > 0 ? ",{\"file\":" : "{\"file\":");
        json_stream_cstring(s, occ_inspect_input_name(r, i));
        json_stream_key(s, "format");
        json_stream_cstring(s, occ_inspect_format_name(occ_inspect_input_format(r, i)));
        json_stream_raw(s, "}", 1);
    }
    json_stream_raw(s, "]", 1);
}
