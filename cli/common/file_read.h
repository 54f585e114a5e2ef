/*
 * file_read.h - a whole small file into memory, bounded: a regular file, a
 * pipe, /dev/stdin or '-' (the command's stdin). Opening never blocks (a FIFO
 * without a writer reads as empty) and a directory is refused by name.
 */
#ifndef OCC_CLI_FILE_READ_H
#define OCC_CLI_FILE_READ_H

#include <stddef.h>

#include "cli.h"

/* Reads `path` ('-': `in`) into a malloc'd, NUL-terminated buffer of *size
   bytes; more than max_bytes is an error that says the limit. */
bool cli_read_file(const char *path, FILE *in, size_t max_bytes, char **out, size_t *size,
                   cli_error *err);

#endif /* OCC_CLI_FILE_READ_H */
