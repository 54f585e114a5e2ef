/*
 * row_merge.c - gathers the workers' rows into the result and merges
 * duplicates (row_merge.h).
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "row_identity.h"
#include "row_merge.h"

static int compare_nodata(const void *a, const void *b)
{
    const occ_inspect_no_data *x = a;
    const occ_inspect_no_data *y = b;
    if (x->kind != y->kind) {
        return x->kind < y->kind ? -1 : 1;
    }
    if (x->sm != y->sm) {
        return x->sm < y->sm ? -1 : 1;
    }
    return (x->arch_suffix > y->arch_suffix) - (x->arch_suffix < y->arch_suffix);
}

/* Merges identical rows into the first of them, through a hash table of row
   indices keyed by identity: no sort of the (large) rows is needed. */
static bool merge_duplicates(inspect_row *rows, size_t n, size_t *kept_out)
{
    size_t cap = 16;
    while (cap < 2 * n) {
        cap *= 2;
    }
    size_t *slots = malloc(cap * sizeof *slots);
    if (slots == NULL) {
        return false;
    }
    memset(slots, 0xFF, cap * sizeof *slots); /* SIZE_MAX: empty */
    for (size_t i = 0; i < n; i++) {
        size_t at = (size_t)rows[i].identity & (cap - 1);
        for (; slots[at] != SIZE_MAX; at = (at + 1) & (cap - 1)) {
            inspect_row *first = &rows[slots[at]];
            if (collect_same_identity(first, &rows[i])) {
                /* saturating: a baseline's counts are the file's word */
                first->k.count = rows[i].k.count > INT_MAX - first->k.count
                                     ? INT_MAX
                                     : first->k.count + rows[i].k.count;
                /* the input and section named are the first in file order,
                   whichever thread read them */
                if (rows[i].k.input < first->k.input) {
                    first->k.input = rows[i].k.input;
                    first->section_index = rows[i].section_index;
                } else if (rows[i].k.input == first->k.input && rows[i].section_index >= 0 &&
                           (first->section_index < 0 ||
                            rows[i].section_index < first->section_index)) {
                    first->section_index = rows[i].section_index;
                }
                rows[i].k.count = 0; /* merged */
                break;
            }
        }
        if (slots[at] == SIZE_MAX) {
            slots[at] = i;
        }
    }
    free(slots);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (rows[i].k.count > 0) {
            rows[kept++] = rows[i];
        }
    }
    *kept_out = kept;
    return true;
}

bool collect_merge_workers(worker *workers, int count, occ_inspect_result *out)
{
    size_t total = 0;
    for (int i = 0; i < count; i++) {
        total += workers[i].row_count;
        out->functions_read += workers[i].functions_read;
        out->entries_skipped += workers[i].entries_skipped;
        out->timing.pool_wait_seconds += workers[i].pool_wait_seconds;
        out->timing.entries_in_part += workers[i].scratch.entries_in_part;
        out->timing.entries_part_refused += workers[i].scratch.entries_part_refused;
    }
    out->rows = malloc((total > 0 ? total : 1) * sizeof *out->rows);
    if (out->rows == NULL) {
        return false;
    }
    size_t n = 0;
    for (int i = 0; i < count; i++) {
        worker *w = &workers[i];
        if (w->row_count > 0) {
            memcpy(out->rows + n, w->rows, w->row_count * sizeof *w->rows);
        }
        n += w->row_count;
        /* freed as copied: the rows are held twice only one worker's worth */
        free(w->rows);
        w->rows = NULL;
        w->row_count = 0;
        for (int k = 0; k < w->nodata_count; k++) {
            occ_inspect_no_data *add = &w->nodata[k];
            int j = 0;
            while (j < out->no_data_count &&
                   !(out->no_data[j].kind == add->kind && out->no_data[j].sm == add->sm &&
                     out->no_data[j].arch_suffix == add->arch_suffix)) {
                j++;
            }
            if (j < out->no_data_count) {
                out->no_data[j].count += add->count;
            } else if (out->no_data_count < INSPECT_MAX_NO_DATA) {
                out->no_data[out->no_data_count++] = *add;
            }
        }
    }
    /* in an order that does not depend on which thread read what */
    qsort(out->no_data, (size_t)out->no_data_count, sizeof *out->no_data, compare_nodata);
    return merge_duplicates(out->rows, n, &out->row_count);
}
