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

/* What a page says beyond the tables. */
typedef struct man_page_info {
    const char *version;  /* occ's, in the page footer */
    const char *docs_dir; /* where the guides are installed: the text's "docs/NAME"
                             citations read "DOCS_DIR/NAME"; NULL keeps "docs/" */
} man_page_info;

/* occ-CMD.1: NAME, SYNOPSIS (the usage lines), DESCRIPTION, OPTIONS (every
   option of every table, in --help's order), EXAMPLES, EXIT STATUS, SEE
   ALSO. False when a write failed. */
bool man_page_write_command(FILE *out, const cli_command_spec *spec, const man_page_info *info);

/* occ.1: the synopsis of `occ --help`, every command of the table with its
   summary and page, the exit status, and the guides' folder (FILES) where
   info->docs_dir is given. False when a write failed. */
bool man_page_write_index(FILE *out, const man_page_info *info);

#endif /* OCC_MAN_PAGE_H */
