/*
 * calc_args.h - the kernel options `occ calc` takes, shared by the single
 * launch, the JSON output and the batch reader.
 */
#ifndef OCC_CALC_ARGS_H
#define OCC_CALC_ARGS_H

#include <jansson.h>

#include "cli.h"

/* Prints the Nsight-style table and the limiter in words. */
void calc_print_text(FILE *out, const occ_device *dev, const occ_kernel *kernel,
                     const occ_result *r);

/* The full result as JSON (docs/json.md, schema occ.calc version 1). */
json_t *calc_to_json(const occ_device *dev, const occ_kernel *kernel, const occ_result *r);

/* The GPU as a JSON object (shared with `occ gpus --json`). */
json_t *gpu_to_json(const occ_device *dev, bool named);

/* Reads CSV rows from `in`, writes one CSV row per input row. */
int calc_batch(const char *path, const cli_io *io);

/* Names of the limiters joined with '+', "registers+shared_mem"; "" if none. */
const char *calc_limiter_list(unsigned limiters, char *buf, size_t cap);

#endif /* OCC_CALC_ARGS_H */
