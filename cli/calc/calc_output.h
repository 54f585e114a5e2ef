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

/* Where the configuration of a Nsight view comes from. */
typedef enum calc_config_source {
    CALC_CONFIG_API = 0,       /* the occupancy API's: no other is known (a GPU without a
                                  carveout, or no block fits) */
    CALC_CONFIG_PREDICTED = 1, /* occ_launch_smem_config's: what the driver picks at launch */
    CALC_CONFIG_GIVEN = 2      /* --smem-config */
} calc_config_source;

/* A launch as Nsight Compute's occupancy table shows it: occ_calc at the
   configuration the driver picks at launch (Nsight's Shared Memory
   Configuration Size), where the occupancy API assumes its own. */
typedef struct calc_nsight {
    calc_config_source config;
    int smem_config_bytes; /* the configuration the rows are computed at */
    occ_result result;     /* occ_calc there; the API's answer when config is not PREDICTED */
} calc_nsight;

/* The view of `kernel` (as given: its carveout and cache preference, which
   the driver's choice reads) whose occupancy API answer is `api`. */
void calc_nsight_view(const occ_device *dev, const occ_kernel *kernel, occ_cache_preference cache,
                      const occ_result *api, calc_nsight *out);

/* A Block Limit row's value in Nsight's convention: barriers capped at the
   block slots (on a GPU where barriers limit residency); OCC_UNLIMITED
   otherwise stays. */
int calc_nsight_limit(const occ_device *dev, int limit, occ_limiter which);

/* occ_result's limit_* field for one limiter. */
int calc_limit_of(const occ_result *r, occ_limiter which);

/* The carveout the occupancy API reads for a kernel with this preference
   and cudaFuncSetCacheConfig's (docs/cli.md, --cache-config). */
int calc_cache_carveout(int carveout_percent, occ_cache_preference cache);

/* What `occ calc` shows of one launch. */
typedef struct calc_view {
    const occ_device *dev;
    const occ_kernel *kernel;   /* as given */
    occ_cache_preference cache; /* --cache-config */
    const occ_result *api;      /* occ_calc of the kernel, its cache preference applied */
    bool regs_given;            /* --regs was given (else 0 registers are assumed) */
} calc_view;

/* Prints Nsight's Block Limit rows (the occupancy API's beside them where they
   differ) and the limiter worked in words. */
void calc_print_text(FILE *out, const calc_view *v);

/* The full result as JSON (schema occ.calc version 1). */
json_t *calc_to_json(const occ_device *dev, const occ_kernel *kernel, const occ_result *r);

/* calc_to_json of a view: with result.nsight, kernel.cache_config and
   kernel.regs_per_thread_given (docs/json.md). */
json_t *calc_view_to_json(const calc_view *v);

/* Sets kernel.regs_per_thread_given in a document calc_to_json built. */
void calc_json_set_regs_given(json_t *doc, bool regs_given);

/* The GPU as a JSON object (shared with `occ gpus --json`). */
json_t *gpu_to_json(const occ_device *dev, bool named);

/* True for a named product, false for a generic sm_XX entry. */
bool gpu_is_named(const occ_device *dev);

/* `occ calc --batch PATH` ('-': stdin): one output row per input row. */
int calc_batch(const char *path, const cli_io *io);

/* The line `occ calc` and `occ explain` print for a launch above the
   kernel's opt-in or the GPU's, with the call that fixes it where one
   exists: cudaFuncSetAttribute with a size the GPU accepts. */
void calc_print_optin_note(FILE *out, const occ_device *dev, const occ_kernel *k,
                           const occ_result *r);

#endif /* OCC_CLI_CALC_OUTPUT_H */
