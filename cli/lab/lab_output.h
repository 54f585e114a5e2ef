/*
 * lab_output.h - how `occ lab` presents its analysis: text, CSV or JSON on
 * the output (lab_report.c), and SVG plots into a directory (lab_svg.c).
 */
#ifndef OCC_CLI_LAB_OUTPUT_H
#define OCC_CLI_LAB_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"
#include "lab_records.h"

typedef enum lab_format { LAB_TEXT, LAB_CSV, LAB_JSON } lab_format;

/* Which analyses to present (the experiments asked for). */
typedef struct lab_selection {
    bool ceiling, latency, residency, blocksize, spill, timeline, verify;
    bool gpcs, clusters; /* lab_clusters.h */
} lab_selection;

/* Prints the analysis; false (EXIT_DATA) when the records lack what a
   selected experiment needs, a row was not checked, or verify found a
   mismatch (after printing). */
bool lab_report(FILE *out, const lab_data *data, const lab_selection *sel, lab_format format,
                cli_error *err);

/* Writes the SVG plots of the selected experiments into dir. */
bool lab_svg_write_all(const char *dir, const lab_data *data, const lab_selection *sel,
                       cli_error *err);

/* `occ lab trace` (lab_trace.c): argv[0] is "trace". */
int cmd_lab_trace(int argc, char **argv, const cli_io *io);

/* `occ lab regs` (cmd_lab_regs.c): argv[0] is "regs". */
int cmd_lab_regs(int argc, char **argv, const cli_io *io);

#endif /* OCC_CLI_LAB_OUTPUT_H */
