/*
 * launch_table.h - the launch table reader (a CSV of launch configurations;
 * include/occ_profile.h has the format), for launch_set.c, the tests and the
 * fuzzer. The public API is occ_profile_launches_read.
 */
#ifndef OCC_PROF_LAUNCH_TABLE_H
#define OCC_PROF_LAUNCH_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "occ_profile.h"

/* occ_profile.h declares it only where <stdio.h> came first, which the
   shared build's -include of public_api_visibility.h does not do: exported
   here by hand (as prof_ncu.h does occ_profile_ncu_open_stream). */
__attribute__((visibility("default"))) occ_status
occ_profile_launches_read_stream(FILE *in, const char *name, occ_profile_launches **out,
                                 occ_profile_error *err);

/* Launches as read, growing: a table's rows, or a profile's groups. */
typedef struct prof_launch_rows {
    occ_inspect_launch *launches; /* a table's names point into `names` */
    char **names;                 /* a table's kernel names, owned; NULL for a profile */
    size_t count;
    size_t cap;
} prof_launch_rows;

/* Reads `in` as a launch table when its first record's first field is
   "kernel": *is_table true, and its rows appended to `rows` (OCC_OK), or the
   first bad cell's error, which starts with `name`. *is_table false and
   OCC_OK when the first record is anything else (nothing is kept). */
occ_status prof_read_launch_table(FILE *in, const char *name, bool *is_table,
                                  prof_launch_rows *rows, occ_profile_error *err);

/* Room for one more launch (and its name); false when memory runs out. */
bool prof_launch_rows_grow(prof_launch_rows *rows, bool with_names);

void prof_launch_rows_free(prof_launch_rows *rows);

#endif /* OCC_PROF_LAUNCH_TABLE_H */
