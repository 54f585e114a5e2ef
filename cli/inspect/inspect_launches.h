/*
 * inspect_launches.h - `--launches FILE` of occ inspect (and occ diff): the
 * launch configurations a program makes, read by libocc-profile
 * (occ_profile_launches_read: a profile or a launch table), given to the
 * kernels read (occ_inspect_apply_launches), and printed. Their JSON and a
 * row's launch in words are libocc-inspect's (occ_inspect_launch_match_json,
 * occ_inspect_launch_json, occ_inspect_launch_text).
 */
#ifndef OCC_CLI_INSPECT_LAUNCHES_H
#define OCC_CLI_INSPECT_LAUNCHES_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"
#include "occ_inspect.h"
#include "occ_profile.h"

typedef struct inspect_launch_set {
    occ_profile_launches *owner;   /* what holds the launches and their names */
    occ_inspect_launch_list *list; /* owner's: the launches, which matched */
} inspect_launch_set;

/* Reads FILE: a launch table (CSV whose header starts "kernel": columns
   kernel, block, dyn_smem and the optional cluster, grid, weight and
   carveout; docs/diff.md), or a profile (PyTorch profiler JSON, Nsight
   Systems SQLite or CSV); '-' reads a launch table from `in`. False with the
   library's line (EXIT_DATA). */
bool inspect_launches_load(const char *path, FILE *in, inspect_launch_set *out, cli_error *err);

/* occ_inspect_apply_launches on r. */
bool inspect_launches_apply(inspect_launch_set *set, occ_inspect_result *r,
                            const occ_inspect_options *opts, cli_error *err);

void inspect_launches_free(inspect_launch_set *set);

/* Text: how many launches matched kernels here, their share of the weight,
   and the first unmatched ones (heaviest first). */
void inspect_launches_print(FILE *out, const occ_inspect_launch_list *l);

#endif /* OCC_CLI_INSPECT_LAUNCHES_H */
