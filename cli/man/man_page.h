/*
 * man_page.h - occ's man pages in roff (man(7) macros), written from the
 * same cli_command_spec tables that print `occ CMD --help` and from the
 * command table that prints `occ --help`, so a page cannot drift from the
 * help: occ.1 lists the commands, occ-CMD.1 is one command's page.
 */
#ifndef OCC_MAN_PAGE_H
#define OCC_MAN_PAGE_H

#include <stdbool.h>
#include <stdio.h>

#include "options.h"

/* occ-CMD.1: NAME, SYNOPSIS (the usage lines), DESCRIPTION, OPTIONS (every
   option of every table, in --help's order), EXAMPLES, EXIT STATUS, SEE
   ALSO. `version` goes in the page footer. False when a write failed. */
bool man_page_write_command(FILE *out, const cli_command_spec *spec, const char *version);

/* occ.1: the synopsis of `occ --help`, every command of the table with its
   summary and page, the exit status. False when a write failed. */
bool man_page_write_index(FILE *out, const char *version);

#endif /* OCC_MAN_PAGE_H */
