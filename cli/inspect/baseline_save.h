/*
 * baseline_save.h - `occ inspect --save FILE`: every function read, with its
 * resources, as a baseline (schema occ.baseline, docs/json.md) that a later
 * `occ diff` compares a new build with. The format has one owner,
 * libocc-inspect, which writes it (occ_inspect_baseline_save) and reads it
 * back like any other input, so occupancy is always computed afresh, on
 * whatever GPU the reader asks for: a baseline holds no occupancy.
 */
#ifndef OCC_CLI_BASELINE_SAVE_H
#define OCC_CLI_BASELINE_SAVE_H

#include "inspect_output.h"

/* Writes the functions of `r` to `path` with the options and --filter they
   were read with; the result's order is changed (to name order). */
bool baseline_save(const char *path, occ_inspect_result *r, const inspect_args *args,
                   cli_error *err);

#endif /* OCC_CLI_BASELINE_SAVE_H */
