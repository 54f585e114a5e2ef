/*
 * diff_report.c - occ_diff_compare's order of work (include/occ_diff.h):
 * match the sides, apply the gate and the allow list, sort worst first.
 */
#include <stdlib.h>
#include <string.h>

#include "diff_internal.h"

occ_status occ_diff_compare(occ_diff_report *report, occ_inspect_error *err)
{
    if (report == NULL || report->old_side.result == NULL || report->new_side.result == NULL ||
        report->read == NULL) {
        return insp_diff_fail(err, OCC_ERR_NULL_POINTER,
                              "occ_diff_compare: the report needs both sides and read");
    }
    free(report->entries);
    report->entries = NULL;
    report->entry_count = 0;
    report->unchanged = report->changed = report->added = report->removed = report->moved = 0;
    report->one_side_only = 0;
    report->old_side.at_ceiling = report->old_side.spilling = 0;
    report->new_side.at_ceiling = report->new_side.spilling = 0;
    for (int a = 0; report->allow != NULL && a < report->allow->count; a++) {
        report->allow->rules[a].used = 0;
    }
    if (!insp_diff_match(report)) {
        return insp_diff_fail(err, OCC_ERR_OUT_OF_MEMORY, "out of memory matching the kernels");
    }
    insp_diff_gate_apply(report);
    insp_diff_sort(report);
    return OCC_OK;
}

void occ_diff_report_free(occ_diff_report *report)
{
    if (report != NULL) {
        free(report->entries);
        report->entries = NULL;
        report->entry_count = 0;
    }
}

void occ_diff_side_count(occ_diff_side *side, const occ_inspect_options *read)
{
    if (side == NULL || side->result == NULL || read == NULL) {
        return;
    }
    side->at_ceiling = side->spilling = 0;
    size_t n = occ_inspect_kernel_count(side->result);
    for (size_t i = 0; i < n; i++) {
        occ_inspect_risk flags;
        occ_inspect_risk_flags(occ_inspect_kernel_at(side->result, i), read, &flags);
        side->at_ceiling += flags.at_ceiling;
        side->spilling += flags.spilling;
    }
}
