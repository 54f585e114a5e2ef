/*
 * lab_child.h - what `occ lab` and `occ lab regs` share to run their
 * measuring binaries (occ-lab, occ-regs-bench): finding one beside occ,
 * running it with its stdout kept in a file and its stderr (progress)
 * passed through, and copying the records it printed.
 */
#ifndef OCC_CLI_LAB_CHILD_H
#define OCC_CLI_LAB_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli.h"

/* Where the tool `name` is: $env_name, else beside this executable. False
   (with path still set, for the message) when it is not there. */
bool lab_find_tool(const char *env_name, const char *name, char *path, size_t cap);

/* How a child ended. */
typedef struct lab_exit {
    int status; /* its exit status; -1 when it did not exit */
    int signal; /* the signal that ended it; 0 when none */
} lab_exit;

/* Runs argv[0] (argv ends with NULL) with its stdout into `records`; its
   stderr passes through. False only when it could not be run or its output
   could not be kept. */
bool lab_run_child(char *const *argv, FILE *records, lab_exit *how, cli_error *err);

/* Writes all of `from` to `path` and rewinds `from`. When path is `from`
   itself there is nothing to do, and opening it for writing would empty it. */
bool lab_copy_records(FILE *from, const char *path, cli_error *err);

/* Opens saved records without blocking on a FIFO that has no writer (it
   reads as empty); a directory is refused by name. */
FILE *lab_open_records(const char *path, cli_error *err);

#endif /* OCC_CLI_LAB_CHILD_H */
