/*
 * lab_regs_records.h - what `occ lab regs` reads: occ-regs-bench's records,
 * through the lab library's reader (lab_regs_data.h), with a refusal as the
 * CLI's error (a data error, exit 1).
 */
#ifndef OCC_CLI_LAB_REGS_RECORDS_H
#define OCC_CLI_LAB_REGS_RECORDS_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"
#include "lab_regs_data.h"

/* lab_regs_data_read (lab_regs_data.h), its refusal as an EXIT_DATA
   cli_error. */
bool lab_regs_records_read(FILE *in, const char *name, lab_regs_data *data, cli_error *err);

#endif /* OCC_CLI_LAB_REGS_RECORDS_H */
