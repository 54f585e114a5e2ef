/*
 * profile_output.h - `occ profile`'s printers over libocc-profile's result
 * (include/occ_profile.h): text (profile_text.c), JSON schema occ.profile
 * (profile_json.c), CSV one row per group (profile_csv.c) and the histogram
 * as SVG (profile_svg.c). The command is cmd_profile.c.
 */
#ifndef OCC_CLI_PROFILE_OUTPUT_H
#define OCC_CLI_PROFILE_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "occ_profile.h"

/* What the printers need besides the result. */
typedef struct profile_view {
    const occ_profile_result *result;
    const char *const *paths; /* the inputs as given */
    int path_count;
    int top;        /* groups listed in the text table (0: every one) */
    int explain;    /* ranked groups explained */
    size_t *ranked; /* occ_profile_rank's order, ranked_count of them */
    size_t ranked_count;
} profile_view;

/* "registers+shared memory", or "-" when none; into buf. */
const char *profile_limiters(unsigned limiters, char *buf, size_t cap);
/* A short kernel name: no return type, template arguments or parameters. */
const char *profile_short_name(const char *name, char *buf, size_t cap);

void profile_print_text(FILE *out, const profile_view *v);
void profile_print_json(FILE *out, const profile_view *v);
void profile_print_csv(FILE *out, const profile_view *v);
/* false when the file cannot be written (errno set) */
bool profile_write_svg(const char *path, const profile_view *v);

#endif /* OCC_CLI_PROFILE_OUTPUT_H */
