/*
 * gpu_alias.h - the note that says which GPU a family name such as "A100"
 * stands for, when the database holds several of that family.
 */
#ifndef OCC_CLI_GPU_ALIAS_H
#define OCC_CLI_GPU_ALIAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "occ.h"

/* The other named GPUs of the family `query` names, when `query` found
   `device` by an alias ("A100" is the A100 SXM 40GB, and there are three more
   A100s): their names joined by ", " into buf, and true. False (buf empty)
   when `query` is the device's own name, an architecture, or an alias of one
   product only. */
bool cli_gpu_alias_others(const char *query, const occ_device *device, char *buf, size_t cap);

/* Prints "occ COMMAND: note: --gpu QUERY is the NAME; ..." on `err` when
   cli_gpu_alias_others finds others; nothing otherwise (query NULL too). */
void cli_gpu_alias_note(FILE *err, const char *command, const char *query,
                        const occ_device *device);

#endif /* OCC_CLI_GPU_ALIAS_H */
