/*
 * row_sink.c - the readers' functions and entries as a worker's rows and
 * counts (row_sink.h).
 */
#include <stdlib.h>
#include <string.h>

#include "row_identity.h"
#include "row_sink.h"

/* The reader's function as the row of the result (no name yet). */
static void fill_kernel(occ_inspect_kernel *k, const insp_function *f)
{
    k->sm = f->sm;
    k->arch_suffix = f->arch_suffix;
    k->is_kernel = f->is_kernel;
    k->relocatable = f->relocatable;
    k->from_log = f->from_log;
    k->regs = f->regs;
    k->smem_bytes = f->smem_bytes;
    k->smem_section_bytes = f->smem_section_bytes;
    k->stack_bytes = f->stack_bytes;
    k->frame_bytes = f->frame_bytes;
    k->spill_store_bytes = f->spill_store_bytes;
    k->spill_load_bytes = f->spill_load_bytes;
    k->spill_instructions = f->spill_instructions;
    k->barriers = f->barriers;
    memcpy(k->max_threads, f->max_threads, sizeof k->max_threads);
    memcpy(k->req_threads, f->req_threads, sizeof k->req_threads);
    k->max_regs = f->max_regs;
    memcpy(k->cluster_dims, f->cluster_dims, sizeof k->cluster_dims);
    k->explicit_cluster = f->explicit_cluster;
    k->max_cluster_rank = f->max_cluster_rank;
    k->param_bytes = f->param_bytes;
}

void collect_on_function(void *context, const insp_function *f)
{
    worker *w = context;
    const occ_inspect_options *opts = w->c->opts;
    w->functions_read++;
    if (w->failed || atomic_load(&w->c->failed)) {
        return;
    }
    char why[256];
    if (!inspect_function_plausible(f, why, sizeof why)) {
        /* a damaged file: say where, and stop */
        collect_set_error(w->c, OCC_ERR_BAD_FORMAT, w->file,
                          w->task_offset + (w->exact_offsets ? f->offset : 0), why);
        return;
    }
    if (!f->is_kernel && !opts->functions) {
        return;
    }
    if (opts->arch_sm != 0 && (f->sm != opts->arch_sm ||
                               (!opts->arch_any_suffix && f->arch_suffix != opts->arch_suffix))) {
        return;
    }
    if (w->row_count == w->row_cap) {
        size_t cap = w->row_cap > 0 ? w->row_cap * 2 : 256;
        inspect_row *bigger = realloc(w->rows, cap * sizeof *bigger);
        if (bigger == NULL) {
            w->failed = true;
            return;
        }
        w->rows = bigger;
        w->row_cap = cap;
    }
    inspect_row *row = &w->rows[w->row_count];
    memset(row, 0, sizeof *row);
    fill_kernel(&row->k, f);
    row->k.count = f->count > 0 ? f->count : 1;
    row->k.input = w->file;
    row->section_index = w->section;
    /* demangled later, once per distinct name (inspect_names_finish) */
    row->interned = inspect_names_add(w->c->names, f->name, f->name_len,
                                      inspect_name_hash(f->name, f->name_len));
    if (row->interned == NULL) {
        w->failed = true;
        return;
    }
    row->k.mangled = row->interned->mangled;
    row->k.name = row->k.mangled;
    row->identity = collect_identity_hash(row);
    inspect_compute_occupancy(&row->k, opts);
    w->row_count++;
}

void collect_on_entry(void *context, const insp_entry *e)
{
    worker *w = context;
    if (e->skipped) {
        w->entries_skipped++;
        return;
    }
    if (e->kind == INSP_ENTRY_CUBIN) {
        return;
    }
    for (int i = 0; i < w->nodata_count; i++) {
        occ_inspect_no_data *n = &w->nodata[i];
        if (n->kind == e->kind && n->sm == e->sm && n->arch_suffix == e->arch_suffix) {
            n->count++;
            return;
        }
    }
    if (w->nodata_count < INSPECT_MAX_NO_DATA) {
        w->nodata[w->nodata_count++] = (occ_inspect_no_data){e->kind, e->sm, e->arch_suffix, 1};
    }
}
