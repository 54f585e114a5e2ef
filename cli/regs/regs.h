/*
 * regs.h - occ regs' printers over libocc-inspect's engine (occ_regs.h):
 * the text table (regs_text.c), the setmaxnreg findings in words
 * (regs_setmaxnreg_text.c) and the chart (regs_svg.c).
 */
#ifndef OCC_CLI_REGS_H
#define OCC_CLI_REGS_H

#include <stdio.h>

#include "cli.h"
#include "occ_regs.h"

/* Each kernel's caps and variants as a table, then the recommendation and
   why, after a line that says what ran; without prediction_asked, how to
   ask for the prediction. */
void regs_print_text(FILE *out, const occ_regs_result *r, bool prediction_asked);

/* A kernel's setmaxnreg findings and errors, under its table (nothing for a
   kernel without setmaxnreg). */
void regs_print_setmaxnreg(FILE *out, const occ_regs_kernel *k);

/* Spills and occupancy against the cap, one panel a kernel, into path. */
bool regs_write_svg(const char *path, const occ_regs_result *r, cli_error *err);

#endif /* OCC_CLI_REGS_H */
