/*
 * gpu_select.h - the GPU a command works on: a database entry by name
 * (--gpu) or a description in JSON (--gpu-file, docs/gpu-file.md).
 */
#ifndef OCC_CLI_GPU_SELECT_H
#define OCC_CLI_GPU_SELECT_H

#include "cli.h"
#include "options.h"

/* --gpu NAME and --gpu-file FILE: the first table of every command that
   computes on a GPU a user names (inspect, diff, ncu, profile), so that the
   options read and are checked alike; a command's other ids start at
   GPU_OPTION_COUNT. What each command does without them is in its
   description. */
enum gpu_option_id { GPU_OPTION_GPU, GPU_OPTION_GPU_FILE, GPU_OPTION_COUNT };

extern const cli_option gpu_options[GPU_OPTION_COUNT];
#define GPU_OPTION_TABLE                                                                           \
    {                                                                                              \
        gpu_options, GPU_OPTION_COUNT                                                              \
    }

/* What the GPU options set: at most one of the two. */
typedef struct gpu_choice {
    const char *gpu;      /* --gpu, or NULL */
    const char *gpu_file; /* --gpu-file, or NULL */
} gpu_choice;

/* One GPU option (id below GPU_OPTION_COUNT) into c; false for an id that is
   not one. */
bool gpu_option_apply(int id, const char *value, gpu_choice *c, cli_error *err);

/* Parses a device description from JSON text (occ_inspect_gpu_from_json,
   whose limit OCC_INSPECT_GPU_FILE_MAX_BYTES --gpu-file reads up to);
   `name` is the file's name in messages. On failure one line: the file, the
   field, the reason. */
bool cli_gpu_from_json(const char *text, size_t size, const char *name, occ_device *out,
                       cli_error *err);

/* Loads a device description from a file ('-': `in`). */
bool cli_load_gpu_file(const char *path, FILE *in, occ_device *out, cli_error *err);

/* --gpu or --gpu-file (exactly one) into a device. */
bool cli_resolve_gpu(const char *gpu_name, const char *gpu_file, FILE *in, occ_device *out,
                     cli_error *err);

#endif /* OCC_CLI_GPU_SELECT_H */
