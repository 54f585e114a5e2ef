/*
 * documents.h - the JSON documents libocc-inspect writes about a result, and
 * the kernel object they share:
 *
 *   baseline_write.c   occ.baseline (`occ inspect --save`, docs/json.md),
 *                      which baseline.c reads back: INSP_BASELINE_VERSION
 *                      (formats.h) is the one version of both
 *   inspect_document.c occ.inspect (`occ inspect --json`, docs/inspect.md)
 *   kernel_json.c      a kernel's object in either, and either's opening
 *
 * Internal: the public calls are in include/occ_inspect.h.
 */
#ifndef OCC_INSPECT_DOCUMENTS_H
#define OCC_INSPECT_DOCUMENTS_H

#include <stdio.h>

#include "json_stream.h"
#include "occ_inspect.h"

/* occ_inspect.h declares these only where <stdio.h> came first, which the
   shared build's -include of public_api_visibility.h does not do: exported
   here by hand. */
__attribute__((visibility("default"))) occ_status
occ_inspect_baseline_write(occ_inspect_result *r, const occ_inspect_options *options,
                           const char *filter, FILE *out, occ_inspect_error *err);
__attribute__((visibility("default"))) occ_status
occ_inspect_json_write(const occ_inspect_result *r, const occ_inspect_options *options,
                       const occ_inspect_launch_list *launches, FILE *out, occ_inspect_error *err);

/* Which document a kernel object is for. */
typedef enum insp_kernel_json_form {
    /* occ.baseline: the resources only, a dimension triple as the binary
       gave it (a 0 stays 0, so that reading it back gives the same numbers)
       and null only when all three are 0 */
    INSP_KERNEL_JSON_BASELINE = 0,
    /* occ.inspect: "name" and "section" too, a triple as a launch reads it
       ([x, y or 1, z or 1]) and null when x is 0 */
    INSP_KERNEL_JSON_INSPECT = 1
} insp_kernel_json_form;

/*
 * Writes '{' and the kernel's resources as members of its object, from
 * "mangled" (or "name") to "param_bytes", every key always present; the
 * caller adds what else its document holds and the closing '}'. One
 * renderer for both documents, so that a field never reads one way in a
 * baseline and another in occ inspect --json.
 */
void insp_kernel_json_resources(json_stream *s, const occ_inspect_kernel *k,
                                insp_kernel_json_form form);

/* A document's opening, the same in both: {"schema":..., "version":...,
   "occ_version":..., then the inputs read, "inputs":[{"file","format"}...]
   (the array closed, the object not: the caller goes on with ",\n"). */
void insp_document_open(json_stream *s, const occ_inspect_result *r, const char *schema,
                        int version);

#endif /* OCC_INSPECT_DOCUMENTS_H */
