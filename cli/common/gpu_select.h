/*
 * gpu_select.h - the GPU a command works on: a database entry by name
 * (--gpu) or a description in JSON (--gpu-file, docs/gpu-file.md).
 */
#ifndef OCC_CLI_GPU_SELECT_H
#define OCC_CLI_GPU_SELECT_H

#include "cli.h"

/* The largest --gpu-file read (a description is a few hundred bytes). */
#define CLI_GPU_FILE_MAX_BYTES (1 << 20)

/* Parses a device description from JSON text; `name` is the file's name in
   messages. On failure one line: the file, the field, the reason. */
bool cli_gpu_from_json(const char *text, size_t size, const char *name, occ_device *out,
                       cli_error *err);

/* Loads a device description from a file ('-': `in`). */
bool cli_load_gpu_file(const char *path, FILE *in, occ_device *out, cli_error *err);

/* --gpu or --gpu-file (exactly one) into a device. */
bool cli_resolve_gpu(const char *gpu_name, const char *gpu_file, FILE *in, occ_device *out,
                     cli_error *err);

#endif /* OCC_CLI_GPU_SELECT_H */
