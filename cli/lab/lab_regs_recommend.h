/*
 * lab_regs_recommend.h - what `occ lab regs` scores: occ regs's
 * recommended cap and candidates for each kernel, read from occ.regs
 * documents (--recommended) or computed here by libocc-inspect's regs
 * engine on each kernel's PTX (--ptx), whose document is then read by the
 * same reader, so that both ways take the recommendation from one place.
 */
#ifndef OCC_CLI_LAB_REGS_RECOMMEND_H
#define OCC_CLI_LAB_REGS_RECOMMEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli.h"
#include "lab_regs_records.h"

/* The largest document read (occ regs's are a few KB a kernel). */
#define LAB_REGS_MAX_DOCUMENT_BYTES ((size_t)64 << 20)

/*
 * JSON text (`name` in messages) giving recommended caps, in any of the
 * forms docs/regs.md lists: {"kernel": cap or null}; one occ.regs document
 * whose kernels are named; {"kernel": occ.regs document}; {"kernel":
 * {"recommended_cap": ...}}; {"kernel": [kernel entries]}. With `kernel`
 * set (a file NAME.json of a directory, or a document occ regs wrote
 * here), the text is one occ.regs document for that kernel. Each kernel of
 * `data` named there gets has_recommendation and, where its entry has a
 * "candidates" array, the candidates; names without records are ignored.
 * A value that is not null or 1..255 is an error naming it (EXIT_DATA).
 */
bool lab_regs_recommended_parse(const char *text, size_t size, const char *name, const char *kernel,
                                lab_regs_data *data, cli_error *err);

/* --recommended PATH: a file ('-': `in`) or a directory of NAME.json. */
bool lab_regs_recommended_load(const char *path, FILE *in, lab_regs_data *data, cli_error *err);

/* --ptx DIR: occ regs (occ_regs_run, include/occ_regs.h) on DIR/NAME.ptx
   for every kernel with a launch in its records, at that launch (threads,
   dynamic shared memory, arch) on `device` (the records' GPU, or --gpu).
   *skipped counts kernels without a launch (no regs_time). */
bool lab_regs_recommend_ptx(const char *dir, const occ_device *device, lab_regs_data *data,
                            int *skipped, cli_error *err);

#endif /* OCC_CLI_LAB_REGS_RECOMMEND_H */
