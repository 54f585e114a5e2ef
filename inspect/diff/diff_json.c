/*
 * diff_json.c - the occ.diff JSON document (OCC_DIFF_SCHEMA_VERSION, in
 * docs/json.md): the counts, the gate, and the arrays changed, added,
 * removed and moved, each entry with its arch, its names and every compared
 * field as {"old": ..., "new": ...} (null on the side that has no kernel or
 * no value). Written through json_stream, in the report's order. With
 * --missing-baseline ok and no OLD, a document that says so instead
 * (missing_baseline, and NEW's side), with none of a comparison's fields.
 */
#include <stdlib.h>
#include <string.h>

#include "diff_internal.h"
#include "json_stream.h"

static void value(json_stream *s, const occ_inspect_kernel *k, occ_diff_field f)
{
    char buf[128];
    json_stream_lit(s, k != NULL ? occ_diff_field_json(k, f, buf, sizeof buf) : "null");
}

static void risk_json(json_stream *s, const occ_inspect_risk *r)
{
    json_stream_lit(s, "{\"at_ceiling\":");
    json_stream_bool(s, r->at_ceiling);
    json_stream_key(s, "spilling");
    json_stream_bool(s, r->spilling);
    json_stream_key(s, "regs_to_lose_block");
    json_stream_int_or_null(s, r->regs_to_cliff, r->regs_to_cliff > 0);
    json_stream_key(s, "smem_to_lose_block_bytes");
    json_stream_int_or_null(s, r->smem_to_cliff_bytes, r->smem_to_cliff_bytes > 0);
    json_stream_key(s, "flags");
    char flags[192];
    json_stream_lit(s, occ_inspect_risk_json_flags(r, flags, sizeof flags));
    json_stream_raw(s, "}", 1);
}

/* ,"name":["occupancy-10%",...]: the gate items in `bits`, as given. */
static void items_json(json_stream *s, const occ_diff_report *r, const char *name, uint32_t bits)
{
    json_stream_key(s, name);
    json_stream_raw(s, "[", 1);
    int n = 0;
    for (int item = 0; item < OCC_DIFF_GATE_ITEM_COUNT; item++) {
        if ((bits >> item) & 1u) {
            json_stream_raw(s, ",", n++ > 0 ? 1 : 0);
            json_stream_cstring(s, r->gate->text[item]);
        }
    }
    json_stream_raw(s, "]", 1);
}

static void entry_json(json_stream *s, const occ_diff_report *r, const occ_diff_entry *e)
{
    const occ_inspect_kernel *k = e->new_k != NULL ? e->new_k : e->old_k;
    char arch[16];
    json_stream_lit(s, "{\"arch\":");
    json_stream_cstring(s, occ_inspect_arch_name(k->sm, k->arch_suffix, arch, sizeof arch));
    json_stream_key(s, "name");
    json_stream_cstring(s, k->name);
    json_stream_key(s, "mangled");
    json_stream_cstring(s, k->mangled);
    if (e->status == OCC_DIFF_MOVED) {
        json_stream_key(s, "old_name");
        json_stream_cstring(s, e->old_k->name);
        json_stream_key(s, "old_mangled");
        json_stream_cstring(s, e->old_k->mangled);
    }
    json_stream_key(s, "kind");
    json_stream_lit(s, k->is_kernel ? "\"kernel\"" : "\"function\"");
    json_stream_key(s, "changed_fields");
    json_stream_raw(s, "[", 1);
    int n = 0;
    for (int f = 0; f < OCC_DIFF_FIELD_COUNT; f++) {
        if ((e->changed >> f) & 1u) {
            json_stream_raw(s, ",", n++ > 0 ? 1 : 0);
            json_stream_cstring(s, occ_diff_field_key((occ_diff_field)f));
        }
    }
    json_stream_raw(s, "]", 1);
    for (int f = 0; f < OCC_DIFF_FIELD_COUNT; f++) {
        json_stream_key(s, occ_diff_field_key((occ_diff_field)f));
        json_stream_lit(s, "{\"old\":");
        value(s, e->old_k, (occ_diff_field)f);
        json_stream_lit(s, ",\"new\":");
        value(s, e->new_k, (occ_diff_field)f);
        json_stream_raw(s, "}", 1);
    }
    json_stream_key(s, "gpu");
    json_stream_lit(s, "{\"old\":");
    json_stream_cstring_or_null(s,
                                e->old_k != NULL && e->old_k->has_occupancy ? e->old_k->gpu : NULL);
    json_stream_lit(s, ",\"new\":");
    json_stream_cstring_or_null(s,
                                e->new_k != NULL && e->new_k->has_occupancy ? e->new_k->gpu : NULL);
    json_stream_raw(s, "}", 1);
    json_stream_key(s, "launch");
    char launch[192];
    json_stream_lit(
        s, occ_inspect_launch_json(e->new_k != NULL ? e->new_k : e->old_k, launch, sizeof launch));
    json_stream_key(s, "risk");
    risk_json(s, &e->risk);
    items_json(s, r, "fails", e->failed);
    items_json(s, r, "excused", e->excused);
    json_stream_key(s, "allowed");
    if (e->allowed != NULL) {
        json_stream_lit(s, "{\"line\":");
        json_stream_int(s, e->allowed->line);
        json_stream_key(s, "pattern");
        json_stream_cstring(s, e->allowed->pattern);
        json_stream_key(s, "reason");
        json_stream_cstring(s, e->allowed->reason);
        json_stream_raw(s, "}", 1);
    } else {
        json_stream_null(s);
    }
    json_stream_raw(s, "}", 1);
}

static void side_json(json_stream *s, const occ_diff_side *side)
{
    occ_inspect_totals totals;
    occ_inspect_totals_get(side->result, &totals);
    json_stream_lit(s, "{\"inputs\":[");
    for (int i = 0; i < totals.input_count; i++) {
        json_stream_lit(s, i > 0 ? ",{\"file\":" : "{\"file\":");
        json_stream_cstring(s, occ_inspect_input_name(side->result, i));
        json_stream_key(s, "format");
        json_stream_cstring(s, occ_inspect_format_name(occ_inspect_input_format(side->result, i)));
        json_stream_raw(s, "}", 1);
    }
    json_stream_raw(s, "]", 1);
    json_stream_key(s, "kernels");
    json_stream_int(s, (long long)occ_inspect_kernel_count(side->result));
    json_stream_key(s, "spilling");
    json_stream_int(s, (long long)side->spilling);
    json_stream_key(s, "at_ceiling");
    json_stream_int(s, (long long)side->at_ceiling);
    json_stream_raw(s, "}", 1);
}

static void gate_json(json_stream *s, const occ_diff_report *r)
{
    if (r->gate == NULL) {
        json_stream_null(s);
        return;
    }
    json_stream_lit(s, "{\"fail_on\":[");
    int n = 0;
    for (int item = 0; item < OCC_DIFF_GATE_ITEM_COUNT; item++) {
        if (r->gate->on[item]) {
            json_stream_raw(s, ",", n++ > 0 ? 1 : 0);
            json_stream_cstring(s, r->gate->text[item]);
        }
    }
    json_stream_raw(s, "]", 1);
    json_stream_key(s, "passed");
    json_stream_bool(s, r->failed == 0);
    json_stream_key(s, "failed");
    json_stream_int(s, (long long)r->failed);
    json_stream_key(s, "allowed");
    json_stream_int(s, (long long)r->allowed);
    json_stream_key(s, "allow_file");
    json_stream_cstring_or_null(s, r->allow != NULL ? r->allow->path : NULL);
    json_stream_key(s, "unused_allow_lines");
    json_stream_raw(s, "[", 1);
    n = 0;
    for (int a = 0; r->allow != NULL && a < r->allow->count; a++) {
        if (r->allow->rules[a].used == 0) {
            json_stream_raw(s, ",", n++ > 0 ? 1 : 0);
            json_stream_int(s, r->allow->rules[a].line);
        }
    }
    json_stream_raw(s, "]}", 2);
}

/* The document into s: OCC_ERR_OUT_OF_MEMORY when a part could not be made. */
static occ_status report_json(json_stream *s, const occ_diff_report *r)
{
    occ_status status = OCC_OK;
    json_stream_lit(s, "{\"schema\":\"occ.diff\",\"version\":");
    json_stream_int(s, OCC_DIFF_SCHEMA_VERSION);
    json_stream_key(s, "occ_version");
    json_stream_cstring(s, occ_version());
    json_stream_key(s, "missing_baseline");
    json_stream_null(s);
    json_stream_lit(s, ",\n\"old\":");
    side_json(s, &r->old_side);
    json_stream_lit(s, ",\n\"new\":");
    side_json(s, &r->new_side);
    json_stream_lit(s, ",\n\"launch_match\":");
    status = insp_launch_match_json(s, r->launches);
    json_stream_lit(s, ",\n\"gpu\":");
    json_stream_cstring_or_null(s, r->read->device != NULL ? r->read->device->name : NULL);
    json_stream_key(s, "threads");
    json_stream_int_or_null(s, r->read->threads, r->read->threads > 0);
    json_stream_key(s, "dyn_smem_bytes");
    json_stream_int(s, r->read->dyn_smem_bytes);
    json_stream_lit(s, ",\n\"one_side_only\":[");
    for (int f = 0, n = 0; f < OCC_DIFF_FIELD_COUNT; f++) {
        if ((r->one_side_only >> f) & 1u) {
            json_stream_raw(s, ",", n++ > 0 ? 1 : 0);
            json_stream_cstring(s, occ_diff_field_key((occ_diff_field)f));
        }
    }
    json_stream_lit(s, "]");
    json_stream_lit(s, ",\n\"counts\":{\"unchanged\":");
    json_stream_int(s, (long long)r->unchanged);
    json_stream_key(s, "changed");
    json_stream_int(s, (long long)r->changed);
    json_stream_key(s, "added");
    json_stream_int(s, (long long)r->added);
    json_stream_key(s, "removed");
    json_stream_int(s, (long long)r->removed);
    json_stream_key(s, "moved");
    json_stream_int(s, (long long)r->moved);
    json_stream_lit(s, "},\n\"gate\":");
    gate_json(s, r);
    static const occ_diff_status order[] = {OCC_DIFF_CHANGED, OCC_DIFF_ADDED, OCC_DIFF_REMOVED,
                                            OCC_DIFF_MOVED};
    for (size_t o = 0; o < sizeof order / sizeof order[0]; o++) {
        json_stream_lit(s, ",\n\"");
        json_stream_lit(s, occ_diff_status_name(order[o]));
        json_stream_lit(s, "\":[");
        int n = 0;
        for (size_t i = 0; i < r->entry_count; i++) {
            if (r->entries[i].status == order[o]) {
                json_stream_lit(s, n++ > 0 ? ",\n" : "\n");
                entry_json(s, r, &r->entries[i]);
            }
        }
        json_stream_raw(s, "]", 1);
    }
    json_stream_lit(s, "}\n");
    return status;
}

/* Flushes s to its FILE: OCC_ERR_IO when the FILE took an error. */
static occ_status finish(json_stream *s, FILE *out, occ_inspect_error *err)
{
    json_stream_flush(s);
    if (fflush(out) != 0 || ferror(out)) {
        return insp_diff_fail(err, OCC_ERR_IO, "cannot write the occ.diff document");
    }
    return OCC_OK;
}

occ_status occ_diff_json_write(const occ_diff_report *report, FILE *out, occ_inspect_error *err)
{
    if (report == NULL || out == NULL || report->read == NULL) {
        return insp_diff_fail(err, OCC_ERR_NULL_POINTER, "occ_diff_json_write: a NULL argument");
    }
    json_stream stream;
    json_stream_init(&stream, out);
    occ_status status = report_json(&stream, report);
    if (status != OCC_OK) {
        json_stream_flush(&stream);
        return insp_diff_fail(err, status, "out of memory writing the occ.diff document");
    }
    return finish(&stream, out, err);
}

occ_status occ_diff_json_text(const occ_diff_report *report, char **text, size_t *size,
                              occ_inspect_error *err)
{
    if (report == NULL || text == NULL || size == NULL || report->read == NULL) {
        return insp_diff_fail(err, OCC_ERR_NULL_POINTER, "occ_diff_json_text: a NULL argument");
    }
    *text = NULL;
    *size = 0;
    json_stream *s = malloc(sizeof *s); /* its buffer is 16 KB: not on the stack */
    if (s == NULL) {
        return insp_diff_fail(err, OCC_ERR_OUT_OF_MEMORY, "out of memory");
    }
    json_stream_init_memory(s);
    occ_status status = report_json(s, report);
    if (status == OCC_OK && (*text = json_stream_take_text(s, size)) == NULL) {
        status = OCC_ERR_OUT_OF_MEMORY;
    }
    json_stream_free(s);
    free(s);
    if (status != OCC_OK) {
        return insp_diff_fail(err, status, "out of memory writing the occ.diff document");
    }
    return OCC_OK;
}

occ_status occ_diff_missing_json_write(FILE *out, const char *missing,
                                       const occ_diff_side *new_side, occ_inspect_error *err)
{
    if (out == NULL || missing == NULL || new_side == NULL || new_side->result == NULL) {
        return insp_diff_fail(err, OCC_ERR_NULL_POINTER,
                              "occ_diff_missing_json_write: a NULL argument");
    }
    json_stream stream;
    json_stream *s = &stream;
    json_stream_init(s, out);
    json_stream_lit(s, "{\"schema\":\"occ.diff\",\"version\":");
    json_stream_int(s, OCC_DIFF_SCHEMA_VERSION);
    json_stream_key(s, "occ_version");
    json_stream_cstring(s, occ_version());
    json_stream_key(s, "missing_baseline");
    json_stream_cstring(s, missing);
    json_stream_lit(s, ",\n\"new\":");
    side_json(s, new_side);
    json_stream_lit(s, "}\n");
    return finish(s, out, err);
}
