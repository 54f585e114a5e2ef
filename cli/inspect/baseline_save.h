/*
 * baseline_save.h - `occ inspect --save FILE`: every function read, with its
 * resources, as a baseline (schema occ.baseline, docs/json.md) that a later
 * `occ diff` compares a new build with. libocc-inspect reads baselines back
 * like any other input (inspect/formats/baseline.c), so occupancy is always
 * computed afresh, on whatever GPU the reader asks for: a baseline holds no
 * occupancy.
 */
#ifndef OCC_CLI_BASELINE_SAVE_H
#define OCC_CLI_BASELINE_SAVE_H

#include "inspect_output.h"

/* The schema version written (INSP_BASELINE_VERSION is what the reader takes). */
#define BASELINE_SCHEMA_VERSION 1

/*
 * Writes the functions of `r` in name order (so that two baselines of
 * similar builds differ line by line where the builds do) to `path`,
 * through a temporary file beside it that is renamed into place: a reader
 * never sees half a baseline. The result's order is changed.
 */
bool baseline_save(const char *path, occ_inspect_result *r, const inspect_args *args,
                   cli_error *err);

#endif /* OCC_CLI_BASELINE_SAVE_H */
