/*
 * inspect_launches.h - `--launches FILE` of occ inspect (and occ diff): the
 * launch configurations a program makes, read by libocc-profile
 * (occ_profile_launches_read: a profile or a launch table), given to the
 * kernels read (occ_inspect_apply_launches), and printed.
 */
#ifndef OCC_CLI_INSPECT_LAUNCHES_H
#define OCC_CLI_INSPECT_LAUNCHES_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"
#include "occ_inspect.h"
#include "occ_profile.h"

struct json_stream;

/* The fields of the set's occ_inspect_launch_list, where the commands and
   their printers read them. */
typedef struct inspect_launch_set {
    const char *path;                   /* as given */
    const char *kind;                   /* "profile" or "table" */
    const occ_inspect_launch *launches; /* owned by `owner` */
    size_t count;
    bool *matched; /* per launch, after inspect_launches_apply; owned by `owner` */
    occ_inspect_launch_match match;
    occ_profile_launches *owner; /* what holds the launches and their names */
} inspect_launch_set;

/* Reads FILE: a launch table (CSV whose header starts "kernel": columns
   kernel, block, dyn_smem and the optional cluster, grid, weight and
   carveout; docs/diff.md), or a profile (PyTorch profiler JSON, Nsight
   Systems SQLite or CSV). False with the library's line (EXIT_DATA). */
bool inspect_launches_load(const char *path, inspect_launch_set *out, cli_error *err);

/* occ_inspect_apply_launches on r. */
bool inspect_launches_apply(inspect_launch_set *set, occ_inspect_result *r,
                            const occ_inspect_options *opts, cli_error *err);

void inspect_launches_free(inspect_launch_set *set);

/* Text: how many launches matched kernels here, their share of the weight,
   and the first unmatched ones (heaviest first). */
void inspect_launches_print(FILE *out, const inspect_launch_set *set);

/* JSON: the launch_match object (null when set is NULL). */
void inspect_launches_json(struct json_stream *s, const inspect_launch_set *set);

/* Text: "[profile, block 16x16x1, 8192 B dynamic, cluster 2x1x1]" for a
   row at a recorded launch, "" for one at the options' block size. */
const char *inspect_launch_text(const occ_inspect_kernel *k, char *buf, size_t cap);

/* JSON: a row's launch object. */
void inspect_launch_row_json(struct json_stream *s, const occ_inspect_kernel *k);

#endif /* OCC_CLI_INSPECT_LAUNCHES_H */
