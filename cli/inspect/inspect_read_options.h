/*
 * inspect_read_options.h - the options that say how binaries are read and
 * where their occupancy is computed, one table for occ inspect and occ diff
 * (the first table of each; a command's own ids start at READ_OPTION_COUNT).
 */
#ifndef OCC_CLI_INSPECT_READ_OPTIONS_H
#define OCC_CLI_INSPECT_READ_OPTIONS_H

#include "cli.h"
#include "occ_inspect.h"
#include "gpu_select.h"
#include "options.h"

/* After the GPU options (gpu_select.h), which inspect and diff take first. */
enum inspect_read_option_id {
    READ_THREADS = GPU_OPTION_COUNT,
    READ_DYN_SMEM,
    READ_LAUNCHES,
    READ_ARCH,
    READ_FILTER,
    READ_FUNCTIONS,
    READ_ALL,
    READ_JOBS,
    READ_OPTION_COUNT
};
#define READ_OPTION_FIRST READ_THREADS

extern const cli_option inspect_read_options[READ_OPTION_COUNT - READ_OPTION_FIRST];
/* The GPU options, then the reading options: the first two tables of occ
   inspect and occ diff. */
#define INSPECT_READ_OPTION_TABLES                                                                 \
    GPU_OPTION_TABLE,                                                                              \
    {                                                                                              \
        inspect_read_options, READ_OPTION_COUNT - READ_OPTION_FIRST                                \
    }

/* Where a command keeps what the reading options set. */
typedef struct inspect_read_targets {
    occ_inspect_options *read; /* threads, dyn_smem_bytes, arch, functions, relfatbin, jobs */
    const char **gpu;
    const char **gpu_file;
    const char **filter;
    const char **launches;
} inspect_read_targets;

/* One GPU or reading option (id below READ_OPTION_COUNT) into its target;
   false with the reason for a bad value. */
bool inspect_read_apply(int id, const char *value, const inspect_read_targets *t, cli_error *err);

#endif /* OCC_CLI_INSPECT_READ_OPTIONS_H */
