/*
 * diff_internal.h - the steps occ_diff_compare takes (include/occ_diff.h),
 * each in its own file:
 *
 *   diff_match.c   matching by arch, mangled name and launch; moved kernels;
 *                  the fields that changed
 *   diff_fields.c  each field's key and its value on either side
 *   diff_gate.c    the gate's items and thresholds, applying them and the
 *                  allow list, the order of the entries
 *   diff_allow.c   the allow file
 *   diff_json.c    the occ.diff document
 *   risk.c         kernels at risk (include/occ_inspect.h)
 *   launch_json.c  the launch parts of the inspect and diff documents
 */
#ifndef OCC_INSPECT_DIFF_INTERNAL_H
#define OCC_INSPECT_DIFF_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "occ_diff.h"

/* occ_diff.h declares these only where <stdio.h> came first, which the
   shared build's -include of public_api_visibility.h does not do: exported
   here by hand. */
__attribute__((visibility("default"))) occ_status
occ_diff_json_write(const occ_diff_report *report, FILE *out, occ_inspect_error *err);
__attribute__((visibility("default"))) occ_status
occ_diff_missing_json_write(FILE *out, const char *missing, const occ_diff_side *new_side,
                            occ_inspect_error *err);

/* Matches the kernels of both sides and fills the report's entries and
   counts. False only when out of memory. */
bool insp_diff_match(occ_diff_report *report);

/* Applies the gate and the allow list to every entry. */
void insp_diff_gate_apply(occ_diff_report *report);

/* Worst first within a status; failures before everything else. */
void insp_diff_sort(occ_diff_report *report);

/* Whether an allow rule names either side of the entry. */
bool insp_diff_allow_matches(const occ_diff_allow_rule *rule, const occ_diff_entry *e);

/* "occupancy, blocks, ..., changed": every gate item, for messages. */
#define INSP_DIFF_ITEM_LIST                                                                        \
    "occupancy, blocks, regs, spills, stack, smem, barriers, ceiling, launch-bounds, added, "      \
    "removed, moved, changed"

/* The gate item named by name[0..len), or -1. */
int insp_diff_find_item(const char *name, size_t len);

/* The closest item to a misspelt one, or NULL when none is close. */
const char *insp_diff_near_item(const char *word);

/* Sets err (when not NULL) to status and the formatted line; returns status. */
occ_status insp_diff_fail(occ_inspect_error *err, occ_status status, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

struct json_stream;

/* The launch_match object (null for no list) into s. */
occ_status insp_launch_match_json(struct json_stream *s, const occ_inspect_launch_list *l);

#endif /* OCC_INSPECT_DIFF_INTERNAL_H */
