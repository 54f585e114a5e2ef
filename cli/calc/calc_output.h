/*
 * calc_output.h - how the kernel-launch commands show a result: occ calc's
 * table and paragraph, the JSON objects every occ document shares (the GPU,
 * the kernel and its result, docs/json.md), the limiter names, and the CSV
 * batch.
 */
#ifndef OCC_CLI_CALC_OUTPUT_H
#define OCC_CLI_CALC_OUTPUT_H

#include <jansson.h>

#include "cli.h"

/* Prints Nsight's Block Limit rows and the limiter worked in words. */
void calc_print_text(FILE *out, const occ_device *dev, const occ_kernel *kernel,
                     const occ_result *r);

/* The full result as JSON (schema occ.calc version 1). */
json_t *calc_to_json(const occ_device *dev, const occ_kernel *kernel, const occ_result *r);

/* The GPU as a JSON object (shared with `occ gpus --json`). */
json_t *gpu_to_json(const occ_device *dev, bool named);

/* True for a named product, false for a generic sm_XX entry. */
bool gpu_is_named(const occ_device *dev);

/* Names of the limiters joined with '+', "registers+shared_mem"; "" if none. */
const char *calc_limiter_list(unsigned limiters, char *buf, size_t cap);

/* `occ calc --batch PATH` ('-': stdin): one output row per input row. */
int calc_batch(const char *path, const cli_io *io);

/* The line `occ calc` and `occ explain` print for a launch above the
   kernel's opt-in or the GPU's, with the call that fixes it where one
   exists: cudaFuncSetAttribute with a size the GPU accepts. */
void calc_print_optin_note(FILE *out, const occ_device *dev, const occ_kernel *k,
                           const occ_result *r);

#endif /* OCC_CLI_CALC_OUTPUT_H */
