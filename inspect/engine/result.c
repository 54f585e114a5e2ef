/*
 * result.c - what occ_inspect_read returns: accessors, the orders of
 * occ_inspect_sort, the name filter, and freeing.
 */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "engine_base.h"

const char *occ_inspect_format_name(occ_inspect_format format)
{
    return insp_format_name((insp_format)format);
}

const char *occ_inspect_entry_kind_name(int kind, char *buf, size_t cap)
{
    switch (kind) {
    case INSP_ENTRY_PTX: snprintf(buf, cap, "PTX"); break;
    case INSP_ENTRY_LTOIR: snprintf(buf, cap, "LTO-IR"); break;
    case INSP_ENTRY_CUBIN: snprintf(buf, cap, "cubin"); break;
    default: snprintf(buf, cap, "kind %d", kind); break;
    }
    return buf;
}

size_t occ_inspect_kernel_count(const occ_inspect_result *r)
{
    return r != NULL ? r->row_count : 0;
}

const occ_inspect_kernel *occ_inspect_kernel_at(const occ_inspect_result *r, size_t index)
{
    return r != NULL && index < r->row_count ? &r->rows[index].k : NULL;
}

void occ_inspect_totals_get(const occ_inspect_result *r, occ_inspect_totals *out)
{
    memset(out, 0, sizeof *out);
    if (r == NULL) {
        return;
    }
    out->functions_read = r->functions_read;
    out->distinct_names = r->names != NULL ? inspect_names_count(r->names) : 0;
    out->entries_skipped = r->entries_skipped;
    out->input_count = r->input_count;
    out->no_data_count = r->no_data_count;
}

const char *occ_inspect_input_name(const occ_inspect_result *r, int index)
{
    return r != NULL && index >= 0 && index < r->input_count ? r->input_names[index] : NULL;
}

occ_inspect_format occ_inspect_input_format(const occ_inspect_result *r, int index)
{
    return r != NULL && index >= 0 && index < r->input_count ? r->input_formats[index]
                                                             : OCC_INSPECT_FORMAT_UNKNOWN;
}

occ_inspect_no_data occ_inspect_no_data_at(const occ_inspect_result *r, int index)
{
    occ_inspect_no_data none = {0, 0, 0, 0};
    return r != NULL && index >= 0 && index < r->no_data_count ? r->no_data[index] : none;
}

void occ_inspect_timing_get(const occ_inspect_result *r, occ_inspect_timing *out)
{
    memset(out, 0, sizeof *out);
    if (r != NULL) {
        *out = r->timing;
    }
}

void occ_inspect_result_free(occ_inspect_result *r)
{
    if (r == NULL) {
        return;
    }
    for (int i = 0; i < r->section_count; i++) {
        free(r->sections[i]);
    }
    for (int i = 0; r->input_names != NULL && i < r->input_count; i++) {
        free(r->input_names[i]);
    }
    free(r->sections);
    free(r->rows);
    free(r->input_names);
    free(r->input_formats);
    inspect_names_free(r->names);
    free(r);
}

/* Ties break by name, then arch, then the rest, so that the order never
   depends on which thread read what. Names compare by their rank in
   printed-name order (names.c): integers, not long templated names. */
static int tie_break(const inspect_row *a, const inspect_row *b)
{
    uint32_t ra = a->interned->rank;
    uint32_t rb = b->interned->rank;
    int cmp = (ra > rb) - (ra < rb);
    if (cmp == 0) {
        cmp = (a->k.sm > b->k.sm) - (a->k.sm < b->k.sm);
    }
    if (cmp == 0) {
        cmp = (a->k.arch_suffix > b->k.arch_suffix) - (a->k.arch_suffix < b->k.arch_suffix);
    }
    if (cmp == 0 && a->k.mangled != b->k.mangled) {
        cmp = strcmp(a->k.mangled, b->k.mangled);
    }
    if (cmp == 0) {
        cmp = (a->k.count < b->k.count) - (a->k.count > b->k.count);
    }
    if (cmp == 0) {
        cmp = (a->identity > b->identity) - (a->identity < b->identity);
    }
    return cmp;
}

/* Lowest occupancy first; rows without one (device functions, archs that
   do not run on the GPU) last. */
static int by_occupancy(const void *pa, const void *pb)
{
    const inspect_row *a = *(const inspect_row *const *)pa;
    const inspect_row *b = *(const inspect_row *const *)pb;
    if (a->k.has_occupancy != b->k.has_occupancy) {
        return a->k.has_occupancy ? -1 : 1;
    }
    int cmp = (a->k.occupancy > b->k.occupancy) - (a->k.occupancy < b->k.occupancy);
    return cmp != 0 ? cmp : tie_break(a, b);
}

static int by_regs(const void *pa, const void *pb)
{
    const inspect_row *a = *(const inspect_row *const *)pa;
    const inspect_row *b = *(const inspect_row *const *)pb;
    int cmp = (b->k.regs > a->k.regs) - (b->k.regs < a->k.regs);
    return cmp != 0 ? cmp : tie_break(a, b);
}

static int by_smem(const void *pa, const void *pb)
{
    const inspect_row *a = *(const inspect_row *const *)pa;
    const inspect_row *b = *(const inspect_row *const *)pb;
    int cmp = (b->k.smem_bytes > a->k.smem_bytes) - (b->k.smem_bytes < a->k.smem_bytes);
    return cmp != 0 ? cmp : tie_break(a, b);
}

static int by_name(const void *pa, const void *pb)
{
    return tie_break(*(const inspect_row *const *)pa, *(const inspect_row *const *)pb);
}

/* Sorts the rows through an array of pointers (a row is ~300 bytes; qsort
   would move them, and glibc's would copy them all into a buffer), then
   puts each row in its place by following the permutation's cycles. */
occ_status occ_inspect_sort(occ_inspect_result *r, occ_inspect_order order, occ_inspect_error *err)
{
    static int (*const compare[])(const void *, const void *) = {by_occupancy, by_regs, by_smem,
                                                                 by_name};
    if (r == NULL) {
        return inspect_fail(err, OCC_ERR_NULL_POINTER, -1, -1, "result is NULL");
    }
    if ((unsigned)order >= sizeof compare / sizeof compare[0]) {
        return inspect_fail(err, OCC_ERR_INVALID_ARGUMENT, -1, -1, "sort order %d is unknown",
                            (int)order);
    }
    size_t n = r->row_count;
    inspect_row **sorted = malloc((n > 0 ? n : 1) * sizeof *sorted);
    size_t *from = malloc((n > 0 ? n : 1) * sizeof *from);
    if (sorted == NULL || from == NULL) {
        free(sorted);
        free(from);
        return inspect_fail(err, OCC_ERR_OUT_OF_MEMORY, -1, -1, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        sorted[i] = &r->rows[i];
    }
    qsort(sorted, n, sizeof *sorted, compare[order]);
    for (size_t i = 0; i < n; i++) {
        from[i] = (size_t)(sorted[i] - r->rows); /* position i takes row from[i] */
    }
    free(sorted);
    for (size_t start = 0; start < n; start++) {
        if (from[start] == start) {
            continue;
        }
        inspect_row held = r->rows[start];
        size_t at = start;
        while (from[at] != start) {
            size_t next = from[at];
            r->rows[at] = r->rows[next];
            from[at] = at;
            at = next;
        }
        r->rows[at] = held;
        from[at] = at;
    }
    free(from);
    return OCC_OK;
}

occ_status occ_inspect_filter(occ_inspect_result *r, const char *pattern, occ_inspect_error *err)
{
    if (r == NULL || pattern == NULL) {
        return inspect_fail(err, OCC_ERR_NULL_POINTER, -1, -1, "result or pattern is NULL");
    }
    regex_t re;
    int rc = regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB);
    if (rc != 0) {
        char why[128];
        regerror(rc, &re, why, sizeof why);
        return inspect_fail(err, OCC_ERR_INVALID_ARGUMENT, -1, -1,
                            "'%.200s' is not a regular expression: %s", pattern, why);
    }
    size_t kept = 0;
    for (size_t i = 0; i < r->row_count; i++) {
        if (regexec(&re, r->rows[i].k.name, 0, NULL, 0) == 0) {
            r->rows[kept++] = r->rows[i];
        }
    }
    r->row_count = kept;
    regfree(&re);
    return OCC_OK;
}
