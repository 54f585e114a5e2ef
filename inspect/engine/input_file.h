/*
 * input_file.h - one input of a read held in memory (input_file.c): a
 * regular file mapped, anything else readable (a pipe, /dev/stdin, a /proc
 * file) copied within the process's reading budget (budget.h).
 */
#ifndef OCC_INSPECT_INPUT_FILE_H
#define OCC_INSPECT_INPUT_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats.h"
#include "occ_inspect.h"

typedef struct input_file {
    const char *path;
    const uint8_t *data;
    size_t size;
    bool mapped;         /* data is an mmap of the file */
    bool owned;          /* data was read into memory here: free it */
    size_t budget_bytes; /* of the reading budget, held while owned (budget.h) */
    insp_format format;
} input_file;

/* Maps file->path, or reads it where it cannot be mapped; input `index`
   names it in *err. An empty file is an error. */
occ_status input_file_open(input_file *file, int index, occ_inspect_error *err);

/* Unmaps or frees what input_file_open took, giving back its budget. */
void input_file_close(input_file *file);

#endif /* OCC_INSPECT_INPUT_FILE_H */
