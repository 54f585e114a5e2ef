/*
 * diff.h - what the files of `occ diff` share. The engine (matching, the
 * fields, the gate, the allow file, the risk flags and the JSON document)
 * is libocc-inspect's, include/occ_diff.h; the CLI holds its options and
 * its readable outputs:
 *
 *   cmd_diff.c    options, reading both sides (one occ_inspect_read each,
 *                 on two threads), a missing baseline, the order of work,
 *                 the exit status
 *   diff_text.c   the table and --markdown
 */
#ifndef OCC_CLI_DIFF_H
#define OCC_CLI_DIFF_H

#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "occ_diff.h"

/* occ diff's exit status, as GNU diff's and grep's: 0 the gate passed (or
   there is none), 1 it failed, 2 trouble (a usage error; an input that
   cannot be read, is damaged or is not recognised; the output not written).
   The CLI's codes (cli.h: 1 for bad data, 2 for usage) are mapped onto these
   in cmd_diff.c; only a failed gate gives 1. */
enum {
    DIFF_EXIT_PASSED = 0,
    DIFF_EXIT_FAILED = 1,
    DIFF_EXIT_TROUBLE = 2,
};

/* Output (diff_text.c; --json is libocc-inspect's occ_diff_json_write). */
void diff_print_text(FILE *out, const occ_diff_report *report);
void diff_print_markdown(FILE *out, const occ_diff_report *report, int shown);

/* --missing-baseline ok with no OLD: what --markdown and --json say instead
   of a comparison (the text output says nothing). `missing` is OLD as
   given; `new_side` was read, so that a broken NEW is still trouble. */
void diff_print_missing_markdown(FILE *out, const char *missing, const occ_diff_side *new_side,
                                 const occ_inspect_options *read);

#endif /* OCC_CLI_DIFF_H */
